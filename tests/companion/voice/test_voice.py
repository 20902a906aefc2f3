"""Calls heard aloud (issue 41), without Kivy: recordings heard as the table takes them, the
soundtrack and table talk heard as no call, whose a call is, and the arena's heard call (shown
for a second, then made like a tap, or cancelled leaving only a log line).

The recordings (tests/companion/files/voice, made once by scripts/voice_fixtures.py) are
espeak-ng's; benchmarks/voice.py measures voices the recogniser was never tuned on."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import numpy as np
import pytest
import soundfile
from test_companion_session import FakeClock, _arena, journal

import rules
from companion.cli import main
from companion.games import plugins
from companion.games.eye_for_an_eye.buttons import Press
from companion.games.eye_for_an_eye.heard import HEARD_SECONDS
from companion.games.eye_for_an_eye.model import EyeForAnEyeModel
from companion.games.eye_for_an_eye.voice import EyeVoice
from companion.journal import Journal
from companion.settings import Settings
from companion.voice.offline import Playing, hear_file
from companion.voice.phrases import Heard, HeardCall, TableWord, read_heard
from companion.voice.recogniser import Recogniser
from companion.voice.service import microphone_status
from hardware.audio.decode import load_mono
from hardware.audio.sounds import builtin_sound
from rules.eye_for_an_eye import EyeForAnEye

__all__ = ["journal"]

FILES = Path(__file__).parents[1] / "files" / "voice"
SEATS = ["Grubic", "Riparian", "Banksia"]
SOUNDTRACK = (Playing("drum_loop"), Playing("yarra_mark"))


@pytest.fixture(scope="module")
def recogniser() -> Recogniser:
    return Recogniser()


def eye(players: list[str] | None = None) -> EyeForAnEye:
    game = rules.new_game("eye-for-an-eye", players or SEATS)
    assert isinstance(game, EyeForAnEye)
    return game


def test_a_call_in_a_recording_becomes_the_call_in_the_game(recogniser: Recogniser) -> None:
    game = eye()
    lines = hear_file(FILES / "spear-parry.wav", game, EyeVoice(game), playing=SOUNDTRACK,
                      recogniser=recogniser)
    assert [line.call for line in lines] == ["Grubic: Spear Thrust 3 on Riparian",
                                             "Riparian: Parry 2"]
    assert [e.call for e in game.history] == ["Grubic: Spear Thrust 3 on Riparian",
                                              "Riparian: Parry 2"]
    assert 7.5 < lines[0].t < 8.6 and 9.8 < lines[1].t < 10.6  # said 6.0-7.9 and 9.4-10.1 s
    # the parry cancelled two of the three hits: one landed on Riparian
    assert game.seats()[1].health == 14 and game.seats()[0].cup == 1


def test_a_parry_is_credited_to_the_attacked_player(recogniser: Recogniser) -> None:
    game = eye(["Ana", "Ben", "Cy"])  # Grubic, Riparian, Banksia by default
    voice = EyeVoice(game)
    game.apply("Grubic: Spear Thrust 3 on Banksia", 1.0)  # Cy's Banksia is attacked
    heard = read_heard(Heard(("parry", "two"), 2.0, 2.6, 0.9), voice.vocabulary(), game,
                       voice, 2.6)
    assert heard is not None and [str(c) for c in heard.calls] == ["Banksia: Parry 2"]
    assert heard.speakers == ("Cy",)
    # said in a recording, over the soundtrack: the same
    game = eye(["Ana", "Ben", "Cy"])
    game.apply("Grubic: Spear Thrust 3 on Ben", 1.0)  # by player name: Riparian
    lines = hear_file(FILES / "spear-parry.wav", game, EyeVoice(game), playing=SOUNDTRACK,
                      recogniser=recogniser)
    parry = [line for line in lines if line.heard == "Parry 2"]
    assert parry and parry[0].call == "Riparian: Parry 2"


def test_the_soundtrack_and_the_announcer_alone_make_no_call(tmp_path: Path,
                                                            recogniser: Recogniser) -> None:
    music = np.tile(load_mono(builtin_sound("drum_loop"), 16000), 4)[:16000 * 25] * 0.8
    for cue, at in (("yarra_mark", 0.0), ("one_minute", 12.0), ("ten_seconds", 20.0)):
        words = load_mono(builtin_sound(cue), 16000) * 0.8
        i = int(at * 16000)
        music[i:i + len(words)] += words[:len(music) - i]
    rng = np.random.default_rng(5)
    h = np.zeros(4000)
    h[960] = 0.7
    h[961:] = rng.standard_normal(3039) * np.exp(-np.arange(3039) / 640.0) * 0.004
    n = len(music) + len(h)
    heard = np.fft.irfft(np.fft.rfft(music, n) * np.fft.rfft(h, n), n)[:len(music)]
    soundfile.write(str(tmp_path / "soundtrack.wav"), np.tanh(heard), 16000, subtype="PCM_16")
    game = eye()
    playing = [Playing.parse(p) for p in ("drum_loop", "yarra_mark", "one_minute@12",
                                          "ten_seconds@20")]
    assert hear_file(tmp_path / "soundtrack.wav", game, EyeVoice(game), playing=playing,
                     recogniser=recogniser) == []


def test_table_talk_holding_the_games_words_makes_no_call(recogniser: Recogniser) -> None:
    game = eye()  # "I'm going to parry that next time", "did you see that spear thrust",
    lines = hear_file(FILES / "table-talk.wav", game,  # "watch out for the leap card"
                      EyeVoice(game), playing=SOUNDTRACK, recogniser=recogniser)
    assert lines == [] and game.history == ()


def test_a_call_several_players_could_say_asks_who(recogniser: Recogniser) -> None:
    game = eye()
    lines = hear_file(FILES / "attack-grubic.wav", game, EyeVoice(game), recogniser=recogniser)
    assert len(lines) == 1 and lines[0].call is None
    assert lines[0].ask == ["Riparian: Attack 2 on Grubic", "Banksia: Attack 2 on Grubic"]
    assert game.history == ()  # nothing made until the table says who


def test_companion_hear_prints_json_lines(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["hear", str(FILES / "spear-parry.wav"), "--seats", "Grubic,Riparian,Banksia",
                 "--playing", "drum_loop", "--playing", "yarra_mark", "--json"])
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert code == 0
    assert [(r["call"], set(r)) for r in rows] == [
        ("Grubic: Spear Thrust 3 on Riparian", {"file", "t", "call", "confidence", "heard"}),
        ("Riparian: Parry 2", {"file", "t", "call", "confidence", "heard"})]
    assert all(0.5 < r["confidence"] <= 1 and r["file"].endswith("spear-parry.wav")
               for r in rows)


@pytest.mark.parametrize(("argv", "said"), [
    (["--seats", "Grubic,Hydris,Riparian"],
     "--seats: 'Hydris' and 'Riparian' are both Chief Riparian (Hydris is Riparian's tribe)"),
    (["--seats", "Grubic,Bob"], "--seats: 'Bob' is no character"),
    (["--seats", "Grubic,Riparian", "--playing", "nope"], "--playing 'nope': no built-in sound"),
    (["--seats", "Grubic,Riparian", "--playing", "drum_loop@soon"],
     "--playing 'drum_loop@soon': after @ give the seconds"),
    (["--seats", "Ana,Ben", "--game", "dice-forge"],
     "Dice Forge listens to no call said aloud: tap the screen"),
])
def test_companion_hear_says_what_is_wrong(argv: list[str], said: str,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hear", str(FILES / "spear-parry.wav"), *argv]) == 2
    err = capsys.readouterr().err
    assert said in err and "Traceback" not in err


def test_a_missing_recording_is_said(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hear", str(tmp_path / "none.wav"), "--seats", "Grubic,Riparian"]) == 2
    assert "none.wav cannot be read" in capsys.readouterr().err


def test_the_other_games_say_they_listen_to_none() -> None:
    for name, plugin in plugins().items():
        assert plugin.voice is not None, name
        if name == "eye-for-an-eye":
            assert plugin.voice.make is not None
        else:
            assert plugin.voice.make is None
            assert plugin.voice.note == f"{plugin.title} listens to no call said aloud: tap " \
                                        "the screen"


def test_phrases_follow_the_rules_legal_calls() -> None:
    game = eye()
    voice = EyeVoice(game)
    phrases = voice.vocabulary().lookup()
    spear = phrases[("spear", "thrust", "three", "on", "hydris")]
    assert [str(c) for c in spear.calls] == ["Grubic: Spear Thrust 3 on Riparian"] and spear.legal
    assert not phrases[("parry", "two")].legal  # no attack waits
    assert phrases[("undo",)].table is TableWord.UNDO
    game.apply("Grubic: Spear Thrust 3 on Riparian", 1.0)
    assert EyeVoice(game).vocabulary().lookup()[("parry", "two")].legal
    assert ("readying", "leap") in phrases and ("leap",) in phrases


def test_settings_say_no_microphone_is_found(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "cards").write_text(" 0 [vc4hdmi0       ]: vc4-hdmi - vc4-hdmi-0\n")
    monkeypatch.setenv("COMPANION_ASOUND_DIR", str(tmp_path))
    monkeypatch.delenv("COMPANION_MICROPHONE", raising=False)
    status = microphone_status(Settings(), {})
    assert not status.found and status.words == "No microphone found: voice calls are off"
    assert microphone_status(Settings(voice_calls="off"), {}).words == "Voice calls are off"
    assert microphone_status(Settings(microphone="stand-in"), {}).found


# -- the arena: a heard call shown, then made, or cancelled ------------------------------------


def heard_spear(arena_game: EyeForAnEye) -> HeardCall:
    voice = EyeVoice(arena_game)
    heard = read_heard(Heard(("spear", "thrust", "three", "on", "hydris"), 1.0, 2.0, 0.9),
                       voice.vocabulary(), arena_game, voice, 2.0)
    assert heard is not None
    return heard


def test_a_heard_call_shows_marked_heard_then_is_made_like_a_tap(journal: Journal) -> None:
    clock = FakeClock()
    calls = _arena(journal, clock, follow=False)
    model = EyeForAnEyeModel(calls)
    calls.session.subscribe(model.on_session)
    calls.hear(heard_spear(calls.game))
    look = model.view()
    assert look.prompt[0] == "Heard: Grubic: Spear Thrust 3 on Riparian\nCancel drops it"
    assert look.cancel_enabled and calls.game.history == ()
    clock.now += HEARD_SECONDS / 2
    calls.tick()
    assert calls.game.history == ()  # still shown
    clock.now += HEARD_SECONDS
    calls.tick()
    assert [e.call for e in calls.game.history] == ["Grubic: Spear Thrust 3 on Riparian"]
    assert [e.call for e in journal.load(calls.session.game_id).entries] == [
        "Grubic: Spear Thrust 3 on Riparian"]  # journaled, and undoable like a tap
    assert calls.session.undo() is not None and calls.game.history == ()


def test_a_cancelled_heard_call_leaves_no_trace_but_a_log_line(
        journal: Journal, caplog: pytest.LogCaptureFixture) -> None:
    clock = FakeClock()
    calls = _arena(journal, clock)
    before = calls.game.snapshot()
    with caplog.at_level(logging.INFO, logger="companion.games.eye_for_an_eye.heard"):
        calls.hear(heard_spear(calls.game))
        calls.cancel()  # the Cancel button
        clock.now += 5 * HEARD_SECONDS
        calls.tick()
    assert calls.game.history == () and calls.game.snapshot() == before
    assert journal.load(calls.session.game_id).entries == ()
    assert not calls.game.can_redo and calls.heard is None
    assert [r.getMessage() for r in caplog.records] == [
        "voice: heard call 'Spear Thrust 3 on Riparian' cancelled (not made)"]
    # a seat's cancel button does the same
    calls.hear(heard_spear(calls.game))
    calls.press(Press(2, "cancel"))
    clock.now += 5 * HEARD_SECONDS
    calls.tick()
    assert calls.game.history == ()


def test_a_heard_parry_holds_its_window(journal: Journal) -> None:
    clock = FakeClock()
    calls = _arena(journal, clock)
    calls.session.call("Grubic: Spear Thrust 3 on Riparian")
    voice = EyeVoice(calls.game)
    parry = read_heard(Heard(("parry", "two"), 2.0, 2.6, 0.9), voice.vocabulary(), calls.game,
                       voice, 2.6)
    assert parry is not None and parry.speakers == ("Ben",)
    clock.now += 2.9  # 0.1 s of the window left
    calls.hear(parry)
    clock.now += 0.5  # the window would have shut: the heard parry holds it
    calls.tick()
    assert [e.call for e in calls.game.history][-1] == "Grubic: Spear Thrust 3 on Riparian"
    clock.now += HEARD_SECONDS
    calls.tick()
    assert [e.call for e in calls.game.history][-1] == "Riparian: Parry 2"
    assert calls.seat_of("Ben").health == 14


def test_who_said_it_is_asked_with_one_tap(journal: Journal) -> None:
    clock = FakeClock()
    calls = _arena(journal, clock, follow=False)
    model = EyeForAnEyeModel(calls)
    calls.session.subscribe(model.on_session)
    voice = EyeVoice(calls.game)
    heard = read_heard(Heard(("attack", "two", "on", "grubic"), 1.0, 2.0, 0.9),
                       voice.vocabulary(), calls.game, voice, 2.0)
    assert heard is not None and heard.speakers == ("Ben", "Cy")
    calls.hear(heard)
    assert model.view().prompt[0] == "Heard: Attack 2 on Grubic\nWho said it? Tap their name"
    looks = {s.player: s for s in model.seats_look()}
    assert looks["Ben"].outlined and looks["Cy"].outlined and not looks["Ana"].outlined
    clock.now += 3 * HEARD_SECONDS
    calls.tick()
    assert calls.game.history == ()  # it waits for the tap
    calls.choose_speaker("Cy")
    assert [e.call for e in calls.game.history] == ["Banksia: Attack 2 on Grubic"]


def test_a_call_heard_while_the_clock_stands_is_refused_saying_why(journal: Journal) -> None:
    clock = FakeClock()
    calls = _arena(journal, clock, start=False)
    calls.hear(heard_spear(calls.game))
    assert calls.heard is None and calls.game.history == ()
    assert calls.session.message == ("Heard Spear Thrust 3 on Riparian: The round has not "
                                     "begun: tap Yarra Mark! first")
    calls.hear(HeardCall("Yarra Mark!", table=TableWord.YARRA_MARK))
    clock.now += HEARD_SECONDS * 1.5
    calls.tick()
    assert calls.session.clock.running  # "Yarra Mark!" said by a player starts the round
