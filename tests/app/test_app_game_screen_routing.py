"""Games other than the arena get their own table screen from companion/games/."""

from __future__ import annotations

import types
from collections.abc import Generator
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.app


def test_start_routes_to_the_games_table_screen_and_back(app_dirs: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    from kivy.uix.screenmanager import Screen

    import companion.games
    from companion.app import CompanionApp
    from companion.drive import Driver, ManualClock, run_app

    refreshed: list[tuple[str, ...]] = []

    class FakeScreen(Screen):  # type: ignore[misc]
        def refresh(self, session: Any, events: Any = ()) -> None:
            refreshed.append(tuple(e.kind for e in events))

    module = types.SimpleNamespace(GAME="dice-ocalypse",
                                   make_screen=lambda app, session: FakeScreen())
    monkeypatch.setattr(companion.games, "table_screens", lambda: {"dice-ocalypse": module})
    app = CompanionApp(clock=ManualClock(), journal_file=app_dirs / "j.sqlite3")

    def script(d: Driver) -> Generator[int | None, None, None]:
        start = app.screens["start"]
        assert "dice-ocalypse" in start.game_spin.values
        assert start.game_spin.values[0] == "eye-for-an-eye"
        start.game_spin.text = "dice-ocalypse"
        yield 2
        start.set_count(2)
        d.tap(start.start_button)
        yield 2
        assert app.sm.current == "game-dice-ocalypse", start.message.text
        assert refreshed == [()]
        s = app.session
        assert s is not None and s.game.name == "dice-ocalypse"
        first = s.game.legal_calls()[0]
        s.call(str(first))
        yield 1
        assert len(refreshed) == 2 and app.sm.current == "game-dice-ocalypse"
        app.show("settings")
        app.back()
        assert app.sm.current == "game-dice-ocalypse"
        app.end_game()
        yield 1
        assert app.sm.current == "start" and app.game_screen is None
        gid = app.journal.unfinished()[0].id
        app.resume_game(gid)
        yield 1
        assert app.sm.current == "game-dice-ocalypse"
        assert [e.call for e in app.session.game.history] == [str(first)]

    run_app(app, script)
