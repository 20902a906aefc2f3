"""The microphone (issue 41): which one is chosen and why, the sources (a recording played
back, the quiet stand-in), what the speaker played (the listener's reference), the echo
canceller, and what the doctor says of a microphone that is missing, or hears nothing."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import soundfile

from hardware.audio.played import Played
from hardware.audio.player import SilentAudio, Sounds
from hardware.audio.sounds import builtin_sound
from hardware.diagnose import check_microphone
from hardware.errors import MicrophoneClosed, MicrophoneUnavailable, UnknownMicrophone
from hardware.microphone import (
    RATE,
    ReplayMicrophone,
    StandInMicrophone,
    choose,
    find_microphone,
    level_dbfs,
    make_microphone,
)
from hardware.microphone.echo import EchoCanceller

CARDS = """ 0 [vc4hdmi0       ]: vc4-hdmi - vc4-hdmi-0
                      vc4-hdmi-0
 2 [Device         ]: USB-Audio - USB PnP Sound Device
                      C-Media Electronics Inc. USB PnP Sound Device at usb-xhci-hcd.0-1
"""


def asound(tmp_path: Path, *, capture: bool) -> Path:
    """A stand-in for /proc/asound: an HDMI card (plays only) and a USB card (records when
    ``capture``)."""
    root = tmp_path / "asound"
    (root / "card0" / "pcm0p").mkdir(parents=True)
    (root / "card2" / "pcm0p").mkdir(parents=True)
    if capture:
        (root / "card2" / "pcm0c").mkdir(parents=True)
    (root / "cards").write_text(CARDS)
    return root


def wav(path: Path, samples: np.ndarray, rate: int = RATE) -> Path:
    soundfile.write(str(path), samples, rate, subtype="PCM_16")
    return path


def test_the_microphone_is_chosen_like_the_camera(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("COMPANION_MICROPHONE", raising=False)
    config = {"microphone": {"source": "alsa:Device"}}
    assert choose(None, config) == choose(None, config, setting="")
    assert (choose(None, config).spec, choose(None, config).origin) == ("alsa:Device",
                                                                       "config file")
    assert choose(None, config, setting="pipewire").origin == "Settings"
    monkeypatch.setenv("COMPANION_MICROPHONE", "stand-in")
    assert choose(None, config, setting="pipewire").spec == "stand-in"
    assert choose("none", config).origin == "command line"
    monkeypatch.delenv("COMPANION_MICROPHONE")
    assert choose(None, {}).spec == "auto"
    with pytest.raises(UnknownMicrophone, match=r"'usb-mic' \(from Settings\).*auto, alsa"):
        choose(None, {}, setting="usb-mic")


def test_auto_finds_a_usb_microphone_or_says_there_is_none(tmp_path: Path) -> None:
    root = asound(tmp_path, capture=True)
    found = find_microphone({}, asound=root)
    assert found.spec == "alsa:Device" and "USB PnP Sound Device" in found.label
    runtime = tmp_path / "run"
    runtime.mkdir()
    (runtime / "pipewire-0").touch()  # the desktop runs PipeWire: through it
    assert find_microphone({"XDG_RUNTIME_DIR": str(runtime)}, asound=root).spec == "pipewire"
    none = find_microphone({}, asound=asound(tmp_path / "b", capture=False))
    assert none.spec == "" and none.why == "no sound card records here"


def test_a_recording_is_heard_block_by_block_on_its_own_clock(tmp_path: Path) -> None:
    tone = (0.5 * np.sin(np.arange(RATE // 2) * 2 * np.pi * 440 / RATE)).astype(np.float32)
    path = wav(tmp_path / "tone.wav", np.concatenate([np.zeros(RATE // 2), tone]), RATE)
    mic = ReplayMicrophone([path], realtime=False, start=10.0)
    blocks = []
    with mic:
        while (b := mic.read()) is not None:
            blocks.append(b)
    assert blocks[0].t == 10.0 and blocks[1].t == pytest.approx(10.02)
    assert sum(len(b.samples) for b in blocks) == RATE
    assert level_dbfs(blocks[0].samples) < -100  # the first half second is silent
    assert level_dbfs(blocks[-5].samples) == pytest.approx(-9.0, abs=0.5)  # 0.5 sine: -9 dB
    with pytest.raises(MicrophoneClosed, match=r"replay:.*is closed"):
        mic.read()
    mic.close()  # again: nothing happens


def test_a_recording_at_another_rate_in_stereo_is_heard_at_16_khz_mono(tmp_path: Path) -> None:
    stereo = np.zeros((44100, 2), dtype=np.float32)
    stereo[:, 0] = 0.5
    mic = make_microphone(f"replay:{wav(tmp_path / 's.wav', stereo, 44100)}", realtime=False)
    assert mic is not None
    with mic:
        block = mic.read()
        assert block is not None and len(block.samples) == 320
        assert float(np.median(block.samples)) == pytest.approx(0.25, abs=0.01)


def test_a_missing_recording_is_named(tmp_path: Path) -> None:
    mic = make_microphone(f"replay:{tmp_path / 'nope.wav'}")
    assert mic is not None
    with pytest.raises(MicrophoneUnavailable, match=r"nope\.wav cannot be read"):
        mic.open()


def test_the_stand_in_hears_a_quiet_room() -> None:
    with StandInMicrophone(realtime=False) as mic:
        heard = np.concatenate([b.samples for b in (mic.read() for _ in range(50)) if b])
    assert -80 < level_dbfs(heard) < -60


def test_the_speaker_played_is_rendered_with_its_pauses_and_levels() -> None:
    played = Played(RATE, clock=lambda: 0.0)
    beep = builtin_sound("hit")
    handle = played.started(beep, level=1.0, at=1.0)
    assert not played.render(0.0, RATE).any()  # nothing played in the first second
    once = played.render(1.0, 3200)
    assert np.abs(once).max() > 0.1
    played.paused(handle, at=1.05)
    assert not played.render(1.05, 800).any()
    played.resumed(handle, at=2.0)  # goes on from where it stood
    assert np.allclose(played.render(2.0, 800), once[800:1600], atol=1e-6)
    played.level(handle, 0.5, at=2.05)
    assert np.allclose(played.render(2.05, 100), once[1600:1700] * 0.5, atol=1e-6)
    speech = played.started(builtin_sound("yarra_mark"), level=1.0, speech=True, at=5.0)
    assert played.speaking(5.5, 6.0) and not played.speaking(2.0, 4.0)
    assert played.speaking(6.7, 7.5)  # the announcer's 1.58 s, and the room's ring after
    assert not played.speaking(7.0, 8.0)
    assert played.playing(speech)


def test_sounds_tell_what_the_speaker_plays() -> None:
    played = Played(RATE, clock=lambda: 3.0)
    sounds = Sounds(SilentAudio(), volume=0.5, played=played)
    assert sounds.play("yarra_mark")
    assert played.speaking(3.0, 3.5)
    ref = played.render(3.0, 8000)
    assert 0.1 < float(np.abs(ref).max()) <= 0.5  # at the volume
    sounds.muted = True
    assert not played.render(3.0, 8000).any()  # muted from the moment it was muted


def _room(signal: np.ndarray, seed: int) -> np.ndarray:
    """The speaker's signal as a microphone 60 ms away in a small room hears it."""
    rng = np.random.default_rng(seed)
    h = np.zeros(int(0.25 * RATE))
    d0 = int(0.06 * RATE)
    tail = rng.standard_normal(len(h) - d0) * np.exp(-np.arange(len(h) - d0) / (0.04 * RATE))
    h[d0:] = tail / np.abs(tail).sum()
    h[d0] += 0.7
    n = len(signal) + len(h)
    wet = np.fft.irfft(np.fft.rfft(signal, n) * np.fft.rfft(h, n), n)[:len(signal)]
    return (np.tanh(wet) + rng.standard_normal(len(signal)) * 1e-3).astype(np.float32)


def test_the_echo_canceller_takes_the_soundtrack_out() -> None:
    from hardware.audio.decode import load_mono

    music = np.tile(load_mono(builtin_sound("drum_loop"), RATE), 3) * 0.5
    mic = _room(music, seed=3)
    ec = EchoCanceller()
    out = np.concatenate([ec.process(mic[i:i + 320], music[i:i + 320])
                          for i in range(0, len(mic) - 320, 320)])
    late = slice(12 * RATE, 20 * RATE)  # once it has learnt the room
    lag = ec.latency or 0
    taken = level_dbfs(mic[late]) - level_dbfs(out[lag:][late])
    assert taken > 15.0, f"only {taken:.1f} dB taken out"  # 23-26 dB measured
    assert ec.resets == 0


def test_the_doctor_says_a_microphone_is_missing(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COMPANION_ASOUND_DIR", str(asound(tmp_path, capture=False)))
    monkeypatch.delenv("COMPANION_MICROPHONE", raising=False)
    monkeypatch.delenv("XDG_RUNTIME_DIR", raising=False)
    (check,) = check_microphone({})
    assert check.verdict == "warn"
    assert check.finding == ("microphone: auto (from default) finds none (no sound card "
                             "records here): voice calls are off")
    assert "plug in a USB microphone" in check.action
    (off,) = check_microphone({}, voice_calls="off")
    assert off.verdict == "ok" and "voice calls are off in Settings" in off.finding


def test_the_doctor_listens_to_say_whether_it_hears_anything(tmp_path: Path) -> None:
    silent = wav(tmp_path / "silent.wav", np.zeros(RATE * 2, dtype=np.float32))
    checks = check_microphone({}, setting=f"replay:{silent}", listen=1.0)
    assert checks[-1].verdict == "warn" and "hears nothing" in checks[-1].finding
    assert "unmute it" in checks[-1].action
    quiet = check_microphone({}, setting="stand-in", listen=0.5)
    assert quiet[0].finding == "microphone: 'stand-in' (from Settings)"
    assert quiet[-1].verdict == "ok" and quiet[-1].finding.startswith("microphone hears: -")
    unknown = check_microphone({}, setting="usb")
    assert unknown[0].verdict == "fail" and "unknown microphone 'usb'" in unknown[0].finding
