"""No game is lost by a tap: every unfinished game is listed on the start screen (which game,
who, how far, when) and each can be resumed; Drop is asked first and can be taken back for a
while; End game is asked first and shows the standings."""

from __future__ import annotations

from collections.abc import Generator
from pathlib import Path
from typing import Any

import pytest
from conftest import leave_game, press_in

pytestmark = pytest.mark.app


def test_two_unfinished_games_are_both_resumable_and_a_drop_can_be_taken_back(
        app_dirs: Path) -> None:
    from companion.compose import CompanionApp
    from companion.demo.drive import Driver, ManualClock, run_app

    app = CompanionApp(clock=ManualClock(), journal_file=app_dirs / "j.sqlite3")
    seen: dict[str, Any] = {}

    def play(d: Driver, game: str, count: int) -> Generator[int | None, None, int]:
        start = app.screens["start"]
        start.choose_game(game)
        yield 1
        start.set_count(count)
        d.tap(start.start_button)
        yield 2
        s = app.session
        assert s is not None, start.message.text
        s.try_call(s.game.legal_calls()[0])
        yield 1
        screen = app.sm.current_screen
        # End game: asked first, showing the standings; "Back to the game" keeps playing
        screen.frame.ask_end()
        yield 1
        said = [getattr(w, "text", "") for w in screen.frame.confirm_view.walk()]
        assert "Ana" in said and "Keep for later" in said, said
        press_in(d, screen.frame.confirm_view, "Back to the game")
        yield 1
        assert app.session is s
        yield from leave_game(d, screen)
        assert app.session is None and app.sm.current == "start"
        return s.game_id

    def script(d: Driver) -> Generator[int | None, None, None]:
        start = app.screens["start"]
        yield 2
        assert start.resume_button.disabled and start.resume_button.text == "Resume"
        first = yield from play(d, "dice-ocalypse", 3)
        second = yield from play(d, "tribal-village", 4)
        assert start.resume_button.text == "Resume (2)" and not start.resume_button.disabled
        d.tap(start.resume_button)
        yield 1
        assert set(start.resume_buttons) == {first, second}
        seen["described"] = [start.describe(r) for r in app.journal.unfinished()]
        # Drop the first: asked first; "Keep it" keeps it
        d.tap(start.drop_buttons[first])
        yield 1
        press_in(d, start.confirm_view, "Keep it")
        yield 1
        assert len(app.journal.unfinished()) == 2
        d.tap(start.resume_button)
        yield 1
        d.tap(start.drop_buttons[first])
        yield 1
        press_in(d, start.confirm_view, "Drop")
        yield 1
        assert [r.id for r in app.journal.unfinished()] == [second]
        assert start.resume_button.text == "Resume (1)"
        # ... and taken back
        assert start.undo_drop_button.opacity == 1
        # a touch target a finger finds (it was 130 x 22 px)
        assert start.undo_drop_button.height >= 48 and start.undo_drop_button.width >= 48
        d.tap(start.undo_drop_button)
        yield 1
        assert {r.id for r in app.journal.unfinished()} == {first, second}
        assert start.undo_drop_button.disabled
        # both resume, each to its own game
        for gid, game in ((first, "dice-ocalypse"), (second, "tribal-village")):
            d.tap(start.resume_button)
            yield 1
            d.tap(start.resume_buttons[gid])
            yield 2
            s = app.session
            assert s is not None and s.game_id == gid and s.game.name == game
            assert len(s.log) == 1  # the call made before leaving
            yield from leave_game(d, app.sm.current_screen)

    run_app(app, script)
    text = "\n".join(seen["described"])
    assert "Dice-ocalypse" in text and "Tribal Village" in text and "1 call," in text
    assert "Ana, Ben, Cy" in text
