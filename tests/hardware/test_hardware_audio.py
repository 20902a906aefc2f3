"""Round clock and cues on a fake clock; soundtracks and lengths; the silent and Kivy backends."""

from __future__ import annotations

import shutil
import subprocess
import wave
from pathlib import Path

import pytest

from hardware.audio import (
    BUILTIN_SOUNDS,
    CUE_NAMES,
    AudioFallback,
    Cue,
    RoundClock,
    RoundPlayer,
    SilentAudio,
    Soundtrack,
    audio_length,
    builtin_sound,
    cue_schedule,
    default_soundtrack,
    find_soundtrack,
    list_soundtracks,
    open_audio,
    round_from_config,
)
from hardware.errors import ConfigError, HardwareError, SoundMissing


class FakeClock:
    def __init__(self) -> None:
        self.t = 500.0

    def __call__(self) -> float:
        return self.t


def write_wav(path: Path, seconds: float, rate: int = 8000) -> Path:
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(b"\x00\x00" * int(seconds * rate))
    return path


# -- the clock -------------------------------------------------------------------------------


def test_cue_schedule_for_short_and_long_rounds() -> None:
    assert cue_schedule(180) == (Cue("start", 0.0), Cue("one_minute", 120.0),
                                 Cue("ten_seconds", 170.0), Cue("end", 180.0))
    assert [c.name for c in cue_schedule(45)] == ["start", "ten_seconds", "end"]
    assert [c.name for c in cue_schedule(8)] == ["start", "end"]
    with pytest.raises(ValueError, match="round duration must be > 0 seconds, got 0"):
        cue_schedule(0)
    # a cue is one of the announcer's named moments (CueName), never a made-up name such as
    # '30_seconds' that no sound and no screen knows
    assert {c.name for c in cue_schedule(600)} <= set(CUE_NAMES)
    with pytest.raises(ValueError, match=r"round warnings \[30\.0\]: the announcer warns only "
                                         r"60, 10 seconds before the end"):
        cue_schedule(90, (60.0, 30.0))


def test_round_clock_delivers_each_cue_once_and_pauses() -> None:
    clock = FakeClock()
    rc = RoundClock(90, clock=clock)
    assert rc.state == "ready" and rc.due_cues() == []
    rc.start()
    assert [c.name for c in rc.due_cues()] == ["start"]
    assert rc.due_cues() == []
    clock.t += 29.9
    assert rc.due_cues() == [] and rc.remaining == pytest.approx(60.1)
    clock.t += 0.1
    assert [c.name for c in rc.due_cues()] == ["one_minute"]
    rc.pause()
    clock.t += 1000  # a long pause: nothing happens
    assert rc.state == "paused" and rc.due_cues() == [] and rc.elapsed == pytest.approx(30)
    rc.resume()
    clock.t += 49.9
    assert rc.due_cues() == [] and rc.state == "running"
    clock.t += 20  # the caller was late: both cues, in order
    assert [c.name for c in rc.due_cues()] == ["ten_seconds", "end"]
    assert rc.state == "over" and rc.remaining == 0 and rc.next_cue() is None
    with pytest.raises(HardwareError, match="the round is over"):
        rc.start()
    rc.reset(30)
    assert rc.state == "ready" and rc.elapsed == 0 and rc.duration == 30


def test_round_clock_resumed_mid_round_skips_cues_already_past() -> None:
    clock = FakeClock()
    rc = RoundClock(90, clock=clock, elapsed=40.0)
    assert rc.state == "paused" and rc.elapsed == 40.0 and rc.due_cues() == []
    rc.start()
    clock.t += 45
    assert [c.name for c in rc.due_cues()] == ["ten_seconds"]  # start and one_minute were heard
    rc.pause()
    clock.t += 100
    rc.start()
    assert rc.state == "running" and rc.elapsed == pytest.approx(85)


# -- the round player on the silent backend ------------------------------------------------------


def test_round_player_plays_cues_on_time_and_pauses_music_with_the_clock(tmp_path: Path) -> None:
    clock = FakeClock()
    audio = SilentAudio()
    track = Soundtrack(write_wav(tmp_path / "arena.wav", 75.0), 75.0)
    heard: list[str] = []
    player = RoundPlayer(audio, track, clock=clock, volume=0.5,
                         on_cue=lambda c: heard.append(c.name))
    assert player.clock.duration == 75.0  # the round follows the soundtrack
    assert [c.name for c in player.start()] == ["start"]
    assert ("play", "arena") in audio.log and ("play", "yarra_mark") in audio.log
    clock.t += 15
    assert [c.name for c in player.tick()] == ["one_minute"]
    player.pause()
    assert audio.paused and player.clock.state == "paused"
    clock.t += 300
    assert player.tick() == []
    player.resume()
    assert not audio.paused
    clock.t += 50
    assert [c.name for c in player.tick()] == ["ten_seconds"]
    clock.t += 10
    assert [c.name for c in player.tick()] == ["end"]
    assert not player.music.playing
    assert heard == ["start", "one_minute", "ten_seconds", "end"]
    assert [e for e in audio.log if e[0] == "play"] == [
        ("play", "arena"), ("play", "yarra_mark"), ("play", "one_minute"),
        ("play", "ten_seconds"), ("play", "yarra_bung")]


def test_volume_effects_and_looping_default_soundtrack() -> None:
    audio = SilentAudio()
    loop = default_soundtrack()
    assert loop.loop and 5 < loop.length < 10
    with pytest.raises(ConfigError, match=r"drum_loop\.ogg loops: give the round a duration"):
        RoundPlayer(audio, loop)
    player = RoundPlayer(audio, loop, duration=120, clock=FakeClock())
    assert player.music.loop  # type: ignore[attr-defined]
    player.volume = 0.3
    player.play_effect("hit")
    player.play_effect("knockout")
    assert player.effects["hit"].volume == 0.3  # type: ignore[attr-defined]
    assert player.music.volume == 0.3  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match=r"volume must be between 0 and 1, got 1\.5"):
        player.volume = 1.5


def test_missing_sounds_are_named(tmp_path: Path) -> None:
    with pytest.raises(SoundMissing, match="no built-in sound 'yarra'"):
        builtin_sound("yarra")
    with pytest.raises(SoundMissing, match=r"sound file .*nothing.ogg does not exist"):
        audio_length(tmp_path / "nothing.ogg")
    track = Soundtrack(write_wav(tmp_path / "a.wav", 30), 30.0)
    with pytest.raises(SoundMissing, match=r"sound file .*gone.ogg does not exist"):
        RoundPlayer(SilentAudio(), track, cue_sounds={"end": tmp_path / "gone.ogg"})
    bad = tmp_path / "bad.ogg"
    bad.write_bytes(b"not audio at all")
    with pytest.raises(SoundMissing, match=r"bad.ogg is not WAV, Ogg or MP3"):
        audio_length(bad)
    with pytest.raises(SoundMissing, match=r"soundtrack 'epic' not found in .* \(found: a.wav\)"):
        find_soundtrack(tmp_path, "epic")


def test_soundtrack_folder_lists_files_with_lengths(tmp_path: Path) -> None:
    write_wav(tmp_path / "b_side.wav", 2.5)
    shutil.copy(builtin_sound("drum_loop"), tmp_path / "a_loop.ogg")
    (tmp_path / "cover.jpg").write_bytes(b"x")
    (tmp_path / "broken.mp3").write_bytes(b"nope")
    tracks = list_soundtracks(tmp_path)
    assert [t.path.name for t in tracks] == ["a_loop.ogg", "b_side.wav"]
    assert tracks[0].length == pytest.approx(7.742, abs=0.01)
    assert tracks[1].length == pytest.approx(2.5) and tracks[1].title == "b side"
    assert find_soundtrack(tmp_path, "b_side").length == pytest.approx(2.5)
    assert list_soundtracks(tmp_path / "none") == []


@pytest.mark.skipif(shutil.which("sox") is None, reason="sox is needed to make an MP3")
def test_mp3_length_from_frame_headers(tmp_path: Path) -> None:
    mp3 = tmp_path / "song.mp3"
    made = subprocess.run(["sox", "-n", "-r", "44100", "-c", "2", str(mp3), "synth", "4", "sine",
                           "330"], capture_output=True, check=False)
    if made.returncode != 0:
        pytest.skip(f"this sox cannot write MP3: {made.stderr.decode()[:80]}")
    assert audio_length(mp3) == pytest.approx(4.0, abs=0.1)


def test_builtin_sounds_are_small_and_present() -> None:
    total = 0
    for name in BUILTIN_SOUNDS:
        path = builtin_sound(name)
        total += path.stat().st_size
        assert 0.1 < audio_length(path) < 10, name
    assert builtin_sound("drum_loop").stat().st_size < 300_000
    assert total < 500_000


# -- backends --------------------------------------------------------------------------------


def test_backend_selection(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COMPANION_AUDIO", "silent")
    assert isinstance(open_audio(), SilentAudio)
    monkeypatch.delenv("COMPANION_AUDIO")
    assert isinstance(open_audio(config={"audio": {"backend": "silent"}}), SilentAudio)
    with pytest.raises(ConfigError, match="unknown audio backend 'alsa': choose kivy or silent"):
        open_audio("alsa")
    import hardware.audio.player as player

    def broken() -> None:
        raise HardwareError("Kivy audio is not available: no provider")

    monkeypatch.setattr(player, "KivyAudio", broken)
    with pytest.warns(AudioFallback, match="falls back to silence: Kivy audio is not available"):
        assert isinstance(open_audio("kivy"), SilentAudio)


def test_kivy_backend_plays_pauses_and_resumes_with_the_dummy_driver() -> None:
    pytest.importorskip("kivy")
    audio = open_audio("kivy", fallback=False)
    assert audio.name == "kivy"
    clock = FakeClock()
    player = RoundPlayer(audio, default_soundtrack(), duration=20, clock=clock)
    assert player.music.length == pytest.approx(7.74, abs=0.05)
    player.start()
    try:
        assert player.music.playing
        mixer = audio._mixer  # type: ignore[attr-defined]
        if mixer is None:
            pytest.skip("SDL2_mixer library not found next to Kivy")
        player.pause()
        assert mixer.Mix_Paused(-1) >= 1
        player.resume()
        assert mixer.Mix_Paused(-1) == 0
        with pytest.raises(SoundMissing, match=r"sound file .*nope.ogg does not exist"):
            audio.load("/nonexistent/nope.ogg")
    finally:
        player.stop()
        audio.close()


def test_round_from_config_picks_the_soundtrack_or_the_loop(tmp_path: Path) -> None:
    write_wav(tmp_path / "battle.wav", 95.0)
    audio = SilentAudio()
    chosen = round_from_config(audio, {"audio": {"soundtracks": str(tmp_path),
                                                 "soundtrack": "battle", "volume": 0.4}})
    assert chosen.clock.duration == pytest.approx(95.0) and chosen.volume == 0.4
    loop = round_from_config(audio, {"audio": {"round_length": 150}})
    assert loop.clock.duration == 150 and loop.soundtrack.loop
    with pytest.raises(SoundMissing, match=r"soundtrack 'nope' not found"):
        round_from_config(audio, {"audio": {"soundtracks": str(tmp_path), "soundtrack": "nope"}})


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ({"volum": 1}, r"\[audio\] volum: unknown setting"),
        ({"volume": "loud"}, r"\[audio\] volume: expected a number, got 'loud'"),
        ({"volume": 3}, r"\[audio\] volume: must be <= 1.0, got 3"),
        ({"round_length": 0}, r"round_length: must be > 0"),
        ({"backend": True}, r"\[audio\] backend: expected text, got True"),
    ],
)
def test_bad_audio_config_names_the_key(table: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        open_audio("silent", {"audio": table})
