"""The tournament hub hears the app's game as it changes (the app tells its listeners), never by
looking at the app now and then: a game of the director's round that the players start
themselves, from the start screen's path rather than the Tournament screen, is recorded at its
very last call, before the app's clock ticks again."""

from __future__ import annotations

from collections.abc import Generator
from pathlib import Path
from typing import Any

import pytest
from tournament_touch import play_out

pytestmark = pytest.mark.app

NAMES = ["Ana", "Ben", "Cyra", "Dmitri", "Eli", "Fay"]


def test_a_round_game_started_from_the_start_screen_is_recorded_at_its_last_call(
        app_dirs: Path) -> None:
    from dataclasses import replace

    from companion.compose import CompanionApp
    from companion.demo.drive import Driver, ManualClock, run_app
    from companion.session import Change

    app = CompanionApp(clock=ManualClock(), journal_file=app_dirs / "j.sqlite3")
    seen: dict[str, Any] = {}
    heard: list[Change] = []

    def script(d: Driver) -> Generator[int | None, None, None]:
        app.listen(lambda change: heard.append(change.kind))
        yield 3
        hub = app.tournaments
        assert hub is not None and hub.desk is None
        hub.create("Listening night", {"game": "dice-ocalypse", "style": "groups",
                                       "rounds": 1, "table-size": 3, "final-size": 3})
        for name in NAMES:
            hub.add_entrant(name)
        number = hub.draw_next()
        assert hub.desk is not None
        view = hub.desk.tournament_view()
        setup = view.table_setup(number, 1)
        yield 2
        # Everything below happens within one frame: no tick of any clock comes between.
        session = app.start_game(setup)
        play_out(session, 7)
        result = hub.desk.tournament.current.results.get(1)
        seen["result"] = result
        seen["placings"] = session.game.placings()
        assert heard[0] is Change.GAME_ON and Change.CALL in heard
        yield 2
        heard.clear()
        app.apply_settings(replace(app.settings, text_size="large"))  # the game drawn again
        yield 2
        assert Change.GAME_ON not in heard and Change.GAME_OFF not in heard
        app.end_game()
        yield 2
        assert heard[-1] is Change.GAME_OFF
        # and a game that is not the round's is none of the hub's business
        play_out(app.start_game(type(setup)(setup.game, ("Zed", "Yan", "Xi"), {}, 5)), 8)
        seen["others"] = sorted(hub.desk.tournament.current.results)
        yield 2

    run_app(app, script, timeout=240)
    result = seen["result"]
    assert result is not None, "the round's game was not recorded at its last call"
    assert result.source == "director"
    assert {n for place in result.placings for n in place} == \
        {n for place in seen["placings"] for n in place}
    assert seen["others"] == [1]
