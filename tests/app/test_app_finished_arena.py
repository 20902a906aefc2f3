"""Finished is finished (issue 44, item 6), by touch through the whole app: once an Eye for an
Eye match is over, the arena's clock button no longer offers to Resume (it shows the results),
its message box no longer asks for an action, and nothing the players tap there adds a call or
a sound; the round's "Yarra Bung!" is said and logged once. When Undo takes the end of a round
back, the clock stays out of time: no second "Yarra Bung!" comes by itself, calls are refused
as too late, and the players end the round again (or redo) with one tap."""

from __future__ import annotations

import time
from collections.abc import Callable, Generator
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.app

SETUP = ("eye-for-an-eye", ("Ana", "Ben"), {"rounds": 1, "characters": ["grubic", "riparian"]})


def finished(seen: dict[str, Any]) -> None:
    """The match over: one Yarra Bung! (logged and said), the arena's clock button shows the
    results, its message box says who won, and a tap there adds neither a call nor a sound."""
    assert seen["over"] == (1, 1, "between", "Ana")
    go, disabled, prompt = seen["arena, over"]
    assert go == "Results" and not disabled, go
    assert "Tap an action" not in prompt and "over" in prompt and "Ana wins" in prompt, prompt
    assert seen["an action tapped"] == (True, True)
    assert seen["go tapped"] == ("between", True, True)


def test_a_finished_match_offers_no_resume_and_takes_no_second_yarra_bung(
        app_dirs: Path) -> None:
    from companion.compose import CompanionApp
    from companion.demo.drive import Driver, ManualClock, run_app
    from rules import Setup

    clock = ManualClock()
    app = CompanionApp(clock=clock, journal_file=app_dirs / "j.sqlite3")
    seen: dict[str, Any] = {}

    def wait_for(ready: Callable[[], bool], what: str) -> Generator[int, None, None]:
        until = time.monotonic() + 30
        while not ready():
            assert time.monotonic() < until, f"still waiting for {what}"
            yield 1

    def ticks(n: int) -> Generator[int, None, None]:
        """Let the app's clock tick ``n`` times (the round clock's cues, the automatic
        calls: "Hits land", "Yarra Bung!")."""
        table = app.table
        counted = [0]
        tick = table.on_tick

        def counting() -> None:
            counted[0] += 1
            tick()

        table.on_tick = counting
        yield from wait_for(lambda: counted[0] >= n, f"{n} ticks of the app's clock")
        del table.on_tick

    def log() -> list[str]:
        return [e.call for e in app.session.log]

    def arena_shows(where: str) -> None:
        arena = app.screens["arena"]
        seen[where] = (arena.go.text, arena.go.disabled, arena.prompt.text)

    def script(d: Driver) -> Generator[int | None, None, None]:
        yield 2
        # 1. won by the time running out
        app.start_game(Setup(*SETUP, 3))
        yield 2
        arena = app.screens["arena"]
        d.tap(arena.go)  # Yarra Mark!
        yield 2
        app.session.call("Grubic: Spear Thrust 2 on Riparian from the rear")
        yield from ticks(2)  # hits from the rear land at once
        clock.advance(400)
        yield from wait_for(lambda: app.session.game.is_over, "the round's end")
        yield from ticks(3)
        seen["over"] = (log().count("Yarra Bung!"), app.heard.count("yarra_bung"),
                        app.sm.current, app.session.game.winner)
        between = app.screens["between"]
        d.tap(next(b for b in between.walk() if getattr(b, "text", "") == "Arena"))
        yield 2
        arena_shows("arena, over")
        calls_then, heard_then = log(), list(app.heard)
        d.tap(arena.panels["Ana"].buttons["attack"])
        yield 2
        seen["an action tapped"] = (log() == calls_then, app.heard == heard_then)
        d.tap(arena.go)
        yield 2
        seen["go tapped"] = (app.sm.current, log() == calls_then, app.heard == heard_then)
        finished(seen)
        seen["undo, over"] = arena.frame.undo.disabled
        app.end_game()
        yield 2
        # 2. a round's end taken back by Undo (a match of two rounds): the time stays up, no
        # second Yarra Bung! comes by itself, and one tap ends the round again
        app.start_game(Setup(SETUP[0], SETUP[1], {**SETUP[2], "rounds": 2}, 4))
        yield 2
        arena = app.screens["arena"]
        d.tap(arena.go)  # Yarra Mark!
        yield 2
        clock.advance(400)
        yield from wait_for(lambda: app.session.game.state.phase != "playing",
                            "the round's end")
        yield 3  # the results screen laid out
        heard = app.heard.count("yarra_bung")
        between = app.screens["between"]
        d.tap(next(b for b in between.walk() if getattr(b, "text", "") == "Arena"))
        yield 2
        d.tap(arena.frame.undo)
        yield 2
        yield from ticks(5)
        arena_shows("arena, the end undone")
        seen["undone"] = (log().count("Yarra Bung!"), app.session.game.state.phase)
        d.tap(arena.panels["Ana"].buttons["movement"])
        yield 2
        seen["too late"] = (log().count("Yarra Bung!"), arena.prompt.text)
        d.tap(arena.go)  # Yarra Bung! again, by hand
        yield from ticks(2)
        seen["ended again"] = (log().count("Yarra Bung!"), app.session.game.state.phase,
                               app.heard.count("yarra_bung") - heard)

    run_app(app, script)
    assert seen["undo, over"], "Undo offered on a finished match (the journal refuses it)"
    go, disabled, prompt = seen["arena, the end undone"]
    assert seen["undone"] == (0, "playing")
    assert go == "Yarra Bung!" and not disabled
    assert prompt == "Undid: Yarra Bung!", prompt
    count, prompt = seen["too late"]
    assert count == 0 and "Time is up" in prompt, prompt
    assert seen["ended again"] == (1, "between-rounds", 0)
