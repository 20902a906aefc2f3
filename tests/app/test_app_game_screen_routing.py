"""Every game reaches the app through its plugin (companion/games/<game>/): the start screen
routes to the game's table, the table redraws after every call, settings and the dice view come
back to it, and a game left is offered for resume. The table's buttons reach a game that uses
them; in one that does not, its screen says so."""

from __future__ import annotations

from collections.abc import Generator, Sequence
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.app


def test_start_routes_to_the_games_table_screen_and_back(app_dirs: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    import companion.screens.start
    import companion.screens.unfinished
    import companion.services.runner
    from companion.compose import CompanionApp
    from companion.contract import ButtonUse, GamePlugin, Host
    from companion.demo.drive import Driver, ManualClock, run_app
    from companion.games import plugins
    from companion.games.table import ScreenTable, TableScreen
    from companion.session import SessionChange
    from rules import Event

    refreshed: list[tuple[str, ...]] = []
    order: list[str] = []  # who heard of each change first: the model, then the screen

    class FakeModel:
        """A game model (contract.GameModel): it only notes each change it is handed."""

        def on_session(self, change: SessionChange) -> None:
            order.append(f"model {change.kind.name}")

        def view(self) -> None:
            return None

    class FakeScreen(TableScreen):
        def __init__(self, host: Host, session: Any, **kwargs: Any) -> None:
            super().__init__(host, session, **kwargs)
            self.model = FakeModel()

        def refresh(self, events: Sequence[Event] = ()) -> None:
            refreshed.append(tuple(e.kind for e in events))
            order.append("screen")

    def make(host: Host, session: Any) -> ScreenTable:
        return ScreenTable(FakeScreen(host, session, name="game-dice-ocalypse"),
                           ButtonUse(False, "no buttons here"))

    real = plugins()
    fake = {**real, "dice-ocalypse": GamePlugin("dice-ocalypse", "Dice-ocalypse",
                                                ButtonUse(False, "no buttons here"), make)}
    monkeypatch.setattr(companion.services.runner, "plugins", lambda: fake)
    monkeypatch.setattr(companion.screens.start, "plugins", lambda: fake)
    monkeypatch.setattr(companion.screens.unfinished, "plugins", lambda: fake)
    app = CompanionApp(clock=ManualClock(), journal_file=app_dirs / "j.sqlite3")

    def script(d: Driver) -> Generator[int | None, None, None]:
        start = app.screens["start"]
        assert "Dice-ocalypse" in start.game_spin.values  # games by their titles
        assert start.game_spin.values[0] == "Eye for an Eye"
        start.choose_game("dice-ocalypse")
        yield 2
        start.set_count(2)
        d.tap(start.start_button)
        yield 2
        assert app.sm.current == "game-dice-ocalypse", start.message.text
        assert refreshed == [()]
        s = app.session
        assert s is not None and s.game.name == "dice-ocalypse"
        first = s.game.legal_calls()[0]
        s.call(first)
        yield 1
        assert len(refreshed) == 2 and app.sm.current == "game-dice-ocalypse"
        assert order[-2:] == ["model CALL", "screen"]  # the model first, then the drawing
        # and the screen got a narrow host: the table's, not the app
        host = app.game_screen.host
        assert host is not app and not hasattr(host, "journal") and not hasattr(host, "sm")
        assert host.settings is app.settings and host.now() == app.now()
        app.show("settings")
        app.back()
        assert app.sm.current == "game-dice-ocalypse"
        app.show("dice")
        yield 1
        app.back()
        assert app.sm.current == "game-dice-ocalypse"
        app.end_game()
        yield 1
        assert app.sm.current == "start" and app.game_screen is None
        assert "game-dice-ocalypse" not in app.screens
        gid = app.journal.unfinished()[0].id
        app.resume_game(gid)
        yield 1
        assert app.sm.current == "game-dice-ocalypse"
        assert app.session is not None
        assert [e.call for e in app.session.game.history] == [str(first)]

    run_app(app, script)


def test_buttons_reach_the_arena_and_other_games_say_they_are_not_used(app_dirs: Path) -> None:
    from companion.compose import CompanionApp
    from companion.demo.drive import Driver, ManualClock, run_app
    from companion.games.eye_for_an_eye.table import EyeTable
    from hardware.buttons import ButtonCall

    app = CompanionApp(clock=ManualClock(), journal_file=app_dirs / "j.sqlite3")
    app.buttons.seats = ("P1", "P2")

    def script(d: Driver) -> Generator[int | None, None, None]:
        start = app.screens["start"]
        start.choose_game("dice-forge")
        yield 2
        start.set_count(2)
        d.tap(start.start_button)
        yield 2
        s = app.session
        assert s is not None and s.game.name == "dice-forge"
        calls = len(s.log)
        app.on_button(ButtonCall("P1", "attack", 2, 0.0))
        yield 2
        screen = app.game_screen
        assert screen is not None
        assert "buttons are not used in Dice Forge" in screen.message_label.text
        assert len(s.log) == calls
        app.end_game()
        yield 1
        start.choose_game("eye-for-an-eye")
        yield 2
        start.set_count(2)
        d.tap(start.start_button)
        yield 2
        assert isinstance(app.table, EyeTable)
        s = app.session
        assert s is not None
        s.start_clock()
        app.on_button(ButtonCall("P1", "move", 2, 0.0))
        yield 2
        assert s.log and s.log[-1].call.endswith(" 2")  # Ana's movement 2, by her button

    run_app(app, script)
