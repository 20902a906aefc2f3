"""A match that ends tied plays a tie-break round; then the final winner is shown."""

from __future__ import annotations

from collections.abc import Generator
from pathlib import Path

import pytest

pytestmark = pytest.mark.app


def test_tie_break_round_then_final_winner(app_dirs: Path) -> None:
    import rules

    if "eye-for-an-eye" not in rules.game_names():
        pytest.skip("needs the Eye for an Eye engine (tie-breaks are its rule)")
    from companion.compose import CompanionApp
    from companion.demo.drive import Driver, ManualClock, run_app

    clock = ManualClock()
    app = CompanionApp(clock=clock, journal_file=app_dirs / "j.sqlite3")

    def advance(seconds: float) -> None:
        clock.advance(seconds)
        app._tick(0.0)

    def script(d: Driver) -> Generator[int | None, None, None]:
        start = app.screens["start"]
        start.choose_game("eye-for-an-eye")
        yield 2
        start.set_count(2)
        start.rounds_spin.text = "1"
        start.timer_spin.text = "1:00"
        d.tap(start.start_button)
        yield 2
        s = app.session
        assert s is not None
        arena = app.screens["arena"]
        d.tap(arena.go)
        yield 1
        advance(61)  # nobody scores: the clock ends a tied match
        yield 2
        between = app.screens["between"]
        assert app.sm.current == "between" and not s.game.is_over
        assert "tied" in between.note.text and between.next_b.text == "Tie-break round"
        d.tap(between.next_b)
        yield 2
        assert app.sm.current == "arena" and arena.round_label.text == "Tie-break"
        d.tap(arena.go)
        yield 1
        yield from d.call("Ana", "unblockable", 2, "Ben")
        advance(61)
        yield 2
        assert s.game.is_over and s.game.winner == "Ana"
        assert app.sm.current == "between" and between.title.text == "Winner: Ana"
        assert between.next_b.text == "New game"
        d.tap(between.next_b)
        yield 2
        assert app.sm.current == "start"
        assert app.journal.unfinished() == []  # a finished match is not offered for resume

    run_app(app, script)
