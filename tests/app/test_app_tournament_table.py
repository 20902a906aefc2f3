"""A table's Tournament screen, in the real app, against a real director process (`companion
tournament serve`: its own Mosquitto on 127.0.0.1): the table joins with the code typed on the
screen's keypad, sees its seating, starts the seated game with one tap, plays it to the end,
and the report reaches the director by itself (acknowledged on the table's screen). Then a
restart: the table rejoins with the code it kept and reports a game that ended while it was
off, through its outbox (waiting while the director is down, then delivered)."""

from __future__ import annotations

import random
from collections.abc import Generator
from pathlib import Path
from typing import Any

import pytest
from tournament_touch import (
    Proc,
    button,
    new_tournament,
    shots_folder,
    type_on_keypad,
    wait_for,
    words,
)

pytestmark = pytest.mark.app


def _director(tmp: Path) -> tuple[Path, Any]:
    """A six-player Eye for an Eye tournament with round 1 drawn (two tables of three)."""
    from companion.tournament.desk import TournamentDesk
    from companion.tournament.store import TournamentStore

    db, config = new_tournament(tmp / "director", 6, {"rounds": 2}, web=False)
    with TournamentStore(db) as store:
        TournamentDesk(store, "tt01").draw_next()
    return db, config


def _desk(db: Path) -> Any:
    from companion.tournament.desk import TournamentDesk
    from companion.tournament.store import TournamentStore

    return TournamentDesk(TournamentStore(db), "tt01")


def test_a_table_joins_plays_its_seated_game_and_reports(app_dirs: Path) -> None:
    from companion import settings as settings_mod
    from companion.compose import CompanionApp
    from companion.demo.drive import Driver, ManualClock, run_app, touch_problems

    db, _ = _director(app_dirs)
    code = _desk(db).join_codes("127.0.0.1")[0]
    seats = _desk(db).tournament.current.table(1).seats
    director = Proc(["tournament", "serve"], app_dirs / "director", "director")
    shots = shots_folder(app_dirs)
    app = CompanionApp(clock=ManualClock(), journal_file=app_dirs / "table.sqlite3",
                       settings=settings_mod.Settings(text_size="huge"))
    problems: list[str] = []
    seen: dict[str, Any] = {}

    def shot(d: Driver, name: str) -> None:
        problems.extend(touch_problems(app.sm.current_screen, (800, 480)))
        d.screenshot(shots / f"tournament-screen-{name}.png")

    def script(d: Driver) -> Generator[int | None, None, None]:
        director.wait_for("serving tournament tt01")
        d.tap(button(app.screens["start"], "Tournament"))
        yield 3
        scr = app.screens["tournament"]
        d.tap(button(scr, "Join as a table"))
        yield 3
        join = scr.pages["join"]
        assert scr.page == "join"
        yield from type_on_keypad(d, join.keys, "TT01-1-")
        shot(d, "join")
        d.tap(join.keys["Clear"])
        yield 1
        d.tap(join.keys["9"])  # a slip, taken back
        d.tap(join.keys["Del"])
        yield from type_on_keypad(d, join.keys, code.text())
        assert join.code.text.lower() == code.text().lower()
        d.tap(join.join_button)
        yield 3
        hub = app.tournaments
        assert hub is not None and hub.table is not None and scr.page == "seat"
        seat = scr.pages["seat"]
        yield from wait_for(lambda: hub.connected and hub.seating is not None
                            and hub.seating.table == 1, "the seating of table 1")
        yield 3
        assert hub.seating.seats == seats
        for i, name in enumerate(seats, 1):
            assert f"Seat {i}: {name}" in words(seat.seats)
        assert seat.start.text == "Start this game" and not seat.start.disabled
        shot(d, "seat")

        d.tap(seat.start)  # one tap: the seated game starts
        yield 3
        session = app.session
        assert session is not None and app.sm.current == "arena"
        setup = session.game.setup
        assert (setup.game, setup.players, setup.seed) == (
            hub.seating.setup.game, hub.seating.setup.players, hub.seating.setup.seed)
        assert setup.options["rounds"] == 1  # the tournament's options for the table
        rng = random.Random(3)
        for _ in range(3000):
            if session.game.is_over:
                break
            session.call(session.game.random_call(rng))
            if len(session.game.history) % 10 == 0:
                yield 1
        assert session.game.is_over
        yield 2
        seen["placings"] = session.game.placings()
        yield from wait_for(lambda: hub.report_state().word == "acknowledged",
                            "the director's acknowledgement")
        app.end_game()
        yield 2
        app.show("tournament")
        yield 3
        assert scr.page == "seat" and "acknowledged" in seat.report.text
        assert seat.start.text == "Reported" and seat.start.disabled
        shot(d, "seat-reported")
        d.tap(seat.leave_button)  # nothing waits in the outbox: one tap leaves
        yield 3
        assert hub.table is None and scr.page == "home"
        seen["left"] = hub.table_store.memberships()

    try:
        run_app(app, script, timeout=240)
        t = _desk(db).tournament
    finally:
        director.stop()
    assert problems == [] and seen["left"] == []
    result = t.current.results[1]
    assert result.source == "table-1" and result.placings == seen["placings"]
    games = _desk(db).store.games("tt01")
    assert [(g[0], g[1], g[3]) for g in games] == [(1, 1, "table-1")]
    from rules.gamefile import parse_game_file

    kept = parse_game_file(games[0][4]).play()  # the game file came along, and replays
    assert kept.is_over and kept.placings() == seen["placings"]


def test_a_restarted_table_rejoins_and_reports_what_it_played_meanwhile(
        app_dirs: Path) -> None:
    """What a power cut right after a game's last call leaves on the table's disk: its
    membership (with the code and the seating) and the finished game in the journal, but no
    report. Restarted, the table rejoins by itself, finds the game, and reports it through
    its outbox: waiting while the director is down, then answered. Here the organiser had
    meanwhile typed a different result in, so the answer is a conflict, shown as such."""
    import rules
    from companion.compose import CompanionApp
    from companion.demo.drive import Driver, ManualClock, run_app
    from companion.journal import Journal
    from companion.tournament.store import TableStore
    from rules import Entry

    db, _ = _director(app_dirs)
    desk = _desk(db)
    code = desk.join_codes("127.0.0.1")[0]
    seating = desk.seatings(2)[1]
    assert seating.setup is not None
    journal = app_dirs / "table.sqlite3"
    with TableStore(journal) as store:
        store.join("tt01", code.text())
        store.save_seating("tt01", seating.to_payload().decode())
    game = rules.from_setup(seating.setup)
    rng = random.Random(11)
    with Journal(journal) as j:
        gid = j.start_game(seating.setup, "")
        while not game.is_over:
            checked = game.check(game.random_call(rng), None)
            j.record_call(gid, Entry(checked.text()))
            game.apply(checked, None)
        j.finish(gid)
    played = game.placings()
    other = tuple((n,) for n in reversed(seating.seats))
    assert other != played
    outcome = desk.report(1, 1, other)  # the organiser typed a different result in
    assert outcome.status == "recorded"
    desk.store.close()
    shots = shots_folder(app_dirs)
    app = CompanionApp(clock=ManualClock(), journal_file=journal)
    director: list[Proc] = []

    def script(d: Driver) -> Generator[int | None, None, None]:
        yield 3
        hub = app.tournaments
        assert hub is not None and hub.table is not None  # rejoined at start
        assert hub.table.code == code and hub.seating == seating
        app.show("tournament")
        yield 3
        scr = app.screens["tournament"]
        seat = scr.pages["seat"]
        assert scr.page == "seat"
        assert hub.report_state().word == "waiting"  # in the outbox; nobody to send it to
        assert "waiting" in seat.report.text and "not connected" in seat.link.text
        d.screenshot(shots / "tournament-screen-seat-waiting.png")
        director.append(Proc(["tournament", "serve"], app_dirs / "director", "director"))
        yield from wait_for(lambda: hub.report_state().word == "conflict",
                            "the director's answer")
        yield 3
        assert "conflict" in seat.report.text and "organiser decides" in seat.report.text
        d.screenshot(shots / "tournament-screen-seat-conflict.png")

    try:
        run_app(app, script, timeout=240)
    finally:
        for p in director:
            p.stop()
    t = _desk(db).tournament
    assert t.current.results[1].placings == other  # the first result stands...
    conflicts = t.conflicts()
    assert [(r, n, [c.placings for c in cs]) for r, n, _, cs in conflicts] == [
        (1, 1, [tuple(tuple(g) for g in played)])]  # ...and the table's waits for the organiser
