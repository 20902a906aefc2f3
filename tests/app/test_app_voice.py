"""Calls heard aloud in the real app (issue 41), driven by touch: a recording is the table's
microphone (COMPANION_MICROPHONE=replay:...), the listening service hears its calls on its own
thread, the arena shows each marked heard, keeps it after its second like a tapped call
(journaled), credits a parry to the attacked player, asks who said a call two players could
have said (one tap on a name), and a tap on Cancel drops one leaving only a log line. The
Settings screen says when no microphone is found. Screenshots at 800x480, three players and
six at the huge text size (VOICE_SHOTS=docs/screenshots writes the docs' pictures)."""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Generator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from conftest import arena_of, tap_start

pytestmark = pytest.mark.app

RECORDING = Path(__file__).parent.parent / "companion" / "files" / "voice" / "table-quiet.wav"
#: Real seconds the listener may take to hear a call (the recording plays in real time; a
#: loaded machine decodes slowly): the test waits for the call, never a fixed time.
DEADLINE = 60.0


class Lines(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())


def shot(app: Any, d: Any, shots: Path, name: str, problems: list[str]) -> None:
    """A screenshot at 800x480, and what the layout check finds wrong on it."""
    from companion.demo.drive import layout_problems

    d.screenshot(shots / f"voice-{name}.png")
    problems.extend(f"{name}: {p}" for p in layout_problems(app.sm.current_screen, (800, 480)))


def until(condition: Any, what: str) -> Generator[int, None, None]:
    """Frames until ``condition()`` holds, at most DEADLINE real seconds."""
    end = time.monotonic() + DEADLINE
    while not condition():
        assert time.monotonic() < end, f"waited {DEADLINE:g} s for {what}"
        yield 1


def test_calls_heard_aloud_by_touch(app_dirs: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from companion.compose import CompanionApp
    from companion.demo.drive import Driver, ManualClock, run_app
    from companion.games.eye_for_an_eye.heard import HEARD_SECONDS
    from companion.journal import Journal

    monkeypatch.setenv("COMPANION_MICROPHONE", f"replay:{RECORDING}")
    clock = ManualClock()
    app = CompanionApp(clock=clock, journal_file=app_dirs / "j.sqlite3")
    shots = Path(os.environ.get("VOICE_SHOTS", str(app_dirs / "shots")))
    problems: list[str] = []
    log = Lines()
    logging.getLogger("companion.games.eye_for_an_eye.heard").addHandler(log)
    logging.getLogger("companion.games.eye_for_an_eye.heard").setLevel(logging.INFO)
    seen: dict[str, Any] = {}

    def advance(seconds: float) -> None:
        clock.advance(seconds)
        app._tick(0.0)

    def script(d: Driver) -> Generator[int | None, None, None]:
        start = app.screens["start"]
        start.choose_game("eye-for-an-eye")
        yield 2
        assert [n.text for n in start.names] == ["Ana", "Ben", "Cy"]
        yield from tap_start(d, start)
        yield 2
        arena = app.screens["arena"]
        calls = arena_of(app)
        assert app.listening.status.startswith("listening: a recording"), app.listening.status
        d.tap(arena.go)  # Yarra Mark!
        yield 2
        # "Spear Thrust three on Hydris": shown at once, marked heard
        yield from until(lambda: calls.heard is not None, "the first call heard")
        assert arena.prompt.text == "Heard: Grubic: Spear Thrust 3 on Riparian\nCancel drops it"
        assert not arena.cancel_b.disabled and app.session is not None
        assert app.session.log == []
        shot(app, d, shots, "heard", problems)
        advance(HEARD_SECONDS + 0.1)
        yield 2
        assert [e.call for e in app.session.log] == ["Grubic: Spear Thrust 3 on Riparian"]
        # "Parry two": Riparian's, the attacked player's (Ben's)
        yield from until(lambda: calls.heard is not None, "the parry heard")
        assert arena.prompt.text == "Heard: Riparian: Parry 2\nCancel drops it"
        advance(HEARD_SECONDS + 0.1)
        yield 2
        assert app.session.log[-1].call == "Riparian: Parry 2"
        assert calls.seat_of("Ben").health == 14  # one of the three hits landed
        # "Attack two on Grubic": Riparian or Banksia? One tap on a name says who
        yield from until(lambda: calls.heard is not None, "the attack heard")
        assert arena.prompt.text == "Heard: Attack 2 on Grubic\nWho said it? Tap their name"
        shot(app, d, shots, "who", problems)
        advance(3 * HEARD_SECONDS)
        yield 1
        assert calls.heard is not None  # it waits for the tap
        d.tap(arena.panels["Cy"].header)
        yield 2
        assert app.session.log[-1].call == "Banksia: Attack 2 on Grubic"
        advance(calls.parry_seconds + 0.2)  # nobody parries: the hits land
        yield 2
        # "Watch out": cancelled by a tap
        yield from until(lambda: calls.heard is not None, "the last call heard")
        assert arena.prompt.text == "Heard: Grubic: Watch Out!\nCancel drops it"
        before = [e.call for e in app.session.log]
        d.tap(arena.cancel_b)
        yield 2
        advance(3 * HEARD_SECONDS)
        yield 2
        assert [e.call for e in app.session.log] == before and calls.heard is None
        assert arena.prompt.text == "Tap an action on your panel"
        seen["log"] = before
        seen["id"] = app.session.game_id

    run_app(app, script, timeout=4 * DEADLINE)
    assert problems == []
    assert log.lines == ["voice: heard call 'Watch Out!' cancelled (not made)"]
    with Journal(app_dirs / "j.sqlite3") as journal:  # nothing of the cancelled call
        assert [e.call for e in journal.load(seen["id"]).entries] == seen["log"]


def test_six_players_huge_text_and_settings_without_a_microphone(
        app_dirs: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from companion import settings as settings_mod
    from companion.compose import CompanionApp
    from companion.demo.drive import Driver, ManualClock, run_app
    from companion.games.eye_for_an_eye.table import EyeTable
    from companion.games.eye_for_an_eye.voice import EyeVoice
    from companion.voice.phrases import read_heard
    from rules.eye_for_an_eye.calls import Act

    asound = app_dirs / "asound"
    asound.mkdir()
    (asound / "cards").write_text(" 0 [vc4hdmi0       ]: vc4-hdmi - vc4-hdmi-0\n")
    monkeypatch.setenv("COMPANION_ASOUND_DIR", str(asound))  # no card records here
    monkeypatch.delenv("COMPANION_MICROPHONE", raising=False)
    monkeypatch.delenv("XDG_RUNTIME_DIR", raising=False)
    clock = ManualClock()
    app = CompanionApp(clock=clock, journal_file=app_dirs / "j.sqlite3",
                       settings=settings_mod.Settings(text_size="huge"))
    shots = Path(os.environ.get("VOICE_SHOTS", str(app_dirs / "shots")))
    problems: list[str] = []

    def script(d: Driver) -> Generator[int | None, None, None]:
        begin = app.screens["start"]
        # Settings, by touch from the start screen: no microphone found, said at the top
        settings_b = next(b for b in begin.walk() if getattr(b, "text", "") == "Settings"
                          and type(b).__name__ != "Label")
        d.tap(settings_b)
        yield 2
        page = app.screens["settings"]
        assert app.sm.current == "settings"
        assert page.message.text == "No microphone found: voice calls are off"
        assert page.voice.text == "on" and page.microphone.text == "as configured"
        shot(app, d, shots, "settings-no-microphone", problems)
        app.back()
        yield 2
        begin.choose_game("eye-for-an-eye")
        yield 1
        begin.choose("mode", "alliances")
        begin._seat_names(("Ana", "Ben", "Cy", "Di", "Ed", "Flo"))
        yield 1
        yield from tap_start(d, begin)
        yield 2
        assert isinstance(app.table, EyeTable), begin.message.text
        assert app.listening.status == "not listening: no microphone found"
        arena = app.screens["arena"]
        d.tap(arena.go)
        yield 2
        game = arena.calls.game
        voice = EyeVoice(game)
        attack = next(c for c in game.legal_calls() if isinstance(c, Act)
                      and c.actor == "Grubic" and c.key == "attack" and c.count == 3
                      and not c.rear)
        words = next(p.words for p in voice.vocabulary().phrases if p.calls == (attack,))
        from companion.voice.phrases import Heard

        heard = read_heard(Heard(words, 0.0, 1.0, 0.9), voice.vocabulary(), game, voice, 1.0)
        assert heard is not None and app.hear_call(heard)
        yield 2
        assert arena.prompt.text.startswith("Heard: Grubic: Spear Thrust 3 on ")
        shot(app, d, shots, "6-huge-heard", problems)
        arena.calls.cancel()
        yield 1
        heard = read_heard(Heard(("attack", "two", "on", "grubic"), 0.0, 1.0, 0.9),
                           voice.vocabulary(), game, voice, 1.0)
        assert heard is not None and len(heard.calls) >= 2 and app.hear_call(heard)
        yield 2
        assert "Who said it?" in arena.prompt.text
        shot(app, d, shots, "6-huge-who", problems)
        # voice calls turned off in Settings: saved, and said
        app.apply_settings(replace(app.settings, voice_calls="off"))
        yield 2
        assert settings_mod.load(app.settings_file).voice_calls == "off" \
            if app.settings_file else app.settings.voice_calls == "off"

    run_app(app, script)
    assert problems == []
