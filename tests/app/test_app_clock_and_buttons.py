"""The round clock by touch (Yarra Mark, pause, Yarra Bung when it runs out) and a round
played by the table's buttons, pressed from another thread as the hardware layer does."""

from __future__ import annotations

import threading
from collections.abc import Generator
from pathlib import Path

import pytest
from conftest import arena_game, arena_of

pytestmark = pytest.mark.app


def test_clock_pause_and_round_end_by_clock_then_buttons(app_dirs: Path) -> None:
    from companion.compose import CompanionApp
    from companion.demo.drive import Driver, ManualClock, run_app
    from hardware.buttons import ButtonCall, ButtonEvent, ButtonHold

    game = arena_game()
    clock = ManualClock()
    app = CompanionApp(clock=clock, journal_file=app_dirs / "j.sqlite3")
    app.buttons.seats = ("P1", "P2", "P3")  # a three-seat button map

    def advance(seconds: float) -> None:
        clock.advance(seconds)
        app._tick(0.0)

    def press_from_thread(event: ButtonEvent) -> None:
        t = threading.Thread(target=app.submit_hardware, args=(event,))
        t.start()
        t.join()

    def script(d: Driver) -> Generator[int | None, None, None]:
        start = app.screens["start"]
        start.choose_game(game)
        yield 2
        start.timer_spin.text = "1:00"
        start.rounds_spin.text = "2"
        d.tap(start.start_button)
        yield 2
        s = app.session
        assert s is not None and s.clock.duration == 60
        arena = app.screens["arena"]
        assert arena.clock_label.text == "1:00"
        advance(30)  # the clock does not run before Yarra Mark!
        assert s.clock.elapsed == 0
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
        # Buttons: seat 1 presses attack twice, then its target button once: the next seat.
        press_from_thread(ButtonCall("P1", "attack", 2, 0.0))
        yield 2
        assert arena_of(app).builder.needs_target
        press_from_thread(ButtonCall("P1", "target", 1, 0.0))
        yield 2
        short = arena_of(app).seat_of("Ben").character.short
        assert s.log[-1].call.endswith("2 on " + short)
        press_from_thread(ButtonCall("P2", "defend", 1, 0.0))
        yield 2
        assert arena_of(app).pending() == []
        press_from_thread(ButtonCall("P3", "move", 3, 0.0))
        yield 2
        cy = arena_of(app).seat_of("Cy").character.short
        assert s.log[-1].call.startswith(cy + ": ")
        press_from_thread(ButtonHold("P1", "attack", "undo", 1, 0, 0.0))
        yield 2
        assert not s.log[-1].call.startswith(cy + ": ")
        press_from_thread(ButtonCall("P9", "attack", 1, 0.0))
        yield 2
        assert "button seat 'P9'" in s.message
        # The clock runs out: Yarra Bung! ends the round.
        advance(45)
        yield 2
        assert s.log[-1].call == "Yarra Bung!" and s.log[-1].at == 60.0
        assert "yarra_bung" in app.heard and "ten_seconds" in app.heard
        assert "yarra_bung" not in app.sounds.missing  # the built-in announcer sound played
        assert app.sm.current == "between" and s.game.state.phase == "between-rounds"
        assert app.screens["between"].title.text == "Round 1 results"

    run_app(app, script)
