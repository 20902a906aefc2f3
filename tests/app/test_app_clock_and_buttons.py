"""The round clock by touch (Yarra Mark, pause, Yarra Bung when it runs out) and a round
played by the table's buttons, pressed from another thread as the hardware layer does."""

from __future__ import annotations

import threading
from collections.abc import Generator
from pathlib import Path

import pytest
from conftest import arena_game

pytestmark = pytest.mark.app


def test_clock_pause_and_round_end_by_clock_then_buttons(app_dirs: Path) -> None:
    from companion.app import CompanionApp
    from companion.drive import Driver, ManualClock, run_app
    from companion.session import ButtonPress

    game = arena_game()
    clock = ManualClock()
    app = CompanionApp(clock=clock, journal_file=app_dirs / "j.sqlite3")

    def advance(seconds: float) -> None:
        clock.advance(seconds)
        app._tick(0.0)

    def press_from_thread(press: ButtonPress) -> None:
        t = threading.Thread(target=app.submit_press, args=(press,))
        t.start()
        t.join()

    def script(d: Driver) -> Generator[int | None, None, None]:
        start = app.screens["start"]
        start.game_spin.text = game
        yield 2
        start.timer_spin.text = "1:00"
        start.rounds_spin.text = "2"
        d.tap(start.start_button)
        yield 2
        s = app.session
        assert s is not None and s.clock.length == 60
        arena = app.screens["arena"]
        assert arena.clock_label.text == "1:00"
        advance(30)  # the clock does not run before Yarra Mark!
        assert s.clock.elapsed() == 0
        d.tap(arena.go)
        yield 1
        advance(20)
        yield 1
        assert arena.clock_label.text == "0:40" and arena.go.text == "Pause"
        d.tap(arena.go)  # pause for a dispute
        yield 1
        advance(100)
        yield 1
        assert arena.clock_label.text == "0:40" and arena.go.text == "Resume"
        d.tap(arena.go)
        yield 1
        # Buttons: seat 0 presses attack with 2 dice, seat 1 is the target.
        press_from_thread(ButtonPress(0, "attack", count=2))
        yield 2
        assert s.builder.needs_target
        press_from_thread(ButtonPress(1, "target"))
        yield 2
        assert s.log[-1].call.endswith("2 on " + s.seat_of("Ben").short)
        press_from_thread(ButtonPress(1, "defence", count=1))
        yield 2
        assert s.pending() == []
        press_from_thread(ButtonPress(2, "movement", count=3))
        yield 2
        assert s.log[-1].call.startswith(s.seat_of("Cy").short + ": ")
        press_from_thread(ButtonPress(0, "undo"))
        yield 2
        assert not s.log[-1].call.startswith(s.seat_of("Cy").short + ": ")
        press_from_thread(ButtonPress(9, "attack"))
        yield 2
        assert "button seat 9" in s.message
        # The clock runs out: Yarra Bung! ends the round.
        advance(45)
        yield 2
        assert s.log[-1].call == "Yarra Bung!" and s.log[-1].at == 60.0
        assert "yarra-bung" in app.heard and "ten-seconds" in app.heard
        assert app._sounds["yarra-bung"] is not None  # the built-in announcer sound loaded
        assert app.sm.current == "between" and s.phase == "between-rounds"
        assert app.screens["between"].title.text == "Round 1 results"

    run_app(app, script)
