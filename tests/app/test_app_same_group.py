"""Starting a game these players have not finished asks first: resume it, or a new game (which
leaves the old one in Resume). Another group, or another game, starts at once."""

from __future__ import annotations

from collections.abc import Generator
from pathlib import Path

import pytest
from conftest import leave_game, press_in

pytestmark = pytest.mark.app


def test_the_same_group_is_asked_before_a_new_game_of_an_unfinished_one(
        app_dirs: Path) -> None:
    from companion.compose import CompanionApp
    from companion.demo.drive import Driver, ManualClock, run_app

    app = CompanionApp(clock=ManualClock(), journal_file=app_dirs / "j.sqlite3")

    def script(d: Driver) -> Generator[int | None, None, None]:
        start = app.screens["start"]
        yield 2
        start.choose_game("dice-ocalypse")
        yield 1
        start._seat_names(["Ana", "Ben", "Cy"])
        d.tap(start.start_button)
        yield 2
        s = app.session
        assert s is not None, start.message.text
        s.try_call(s.game.legal_calls()[0])
        first, calls = s.game_id, len(s.game.history)
        yield 1
        yield from leave_game(d, app.sm.current_screen)
        assert app.sm.current == "start" and [r.id for r in app.journal.unfinished()] == [first]
        # the same players (in another order, another case): asked, and "Resume it" resumes
        start._seat_names(["cy", "Ana", "Ben"])
        d.tap(start.start_button)
        yield 1
        assert app.session is None
        said = " ".join(getattr(w, "text", "") for w in start.confirm_view.walk())
        assert "Resume your unfinished game?" in said and "Dice-ocalypse" in said, said
        press_in(d, start.confirm_view, "Resume it")
        yield 2
        assert app.session is not None and app.session.game_id == first
        assert len(app.session.game.history) == calls
        yield from leave_game(d, app.sm.current_screen)
        # asked again; "New game" starts another, and the first stays in Resume
        d.tap(start.start_button)
        yield 1
        press_in(d, start.confirm_view, "New game")
        yield 2
        assert app.session is not None and app.session.game_id != first
        app.session.try_call(app.session.game.legal_calls()[0])
        second = app.session.game_id
        yield from leave_game(d, app.sm.current_screen)
        assert {r.id for r in app.journal.unfinished()} == {first, second}
        # another group starts at once, with no question
        start._seat_names(["Dee", "Eve"])
        d.tap(start.start_button)
        yield 2
        assert app.session is not None and app.session.game_id not in (first, second)

    run_app(app, script)
