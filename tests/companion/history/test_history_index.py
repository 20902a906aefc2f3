"""The history index: every game listed with its result, filtered, kept true to the journal,
and stepped through call by call."""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path

import pytest
from history_night import PER_GAME, UNFINISHED, night_journal

import rules
from companion.history import History, HistoryError, Replayer
from companion.history.index import SUMMARY_VERSION
from companion.history.sample import GAMES
from companion.journal import Journal
from rules import Entry, Setup


@pytest.fixture
def history(tmp_path: Path) -> History:
    h = History(night_journal(tmp_path))
    h.refresh()
    return h


def test_every_game_is_listed_with_what_the_rules_say(history: History) -> None:
    games = history.games()
    assert len(games) == 5 * PER_GAME + UNFINISHED == history.count()
    assert [g.started for g in games] == sorted((g.started for g in games), reverse=True)
    for g in games:
        record = history.journal.load(g.id)
        game = rules.replay(record.setup, record.entries)
        standings = game.standings()
        assert g.game == record.setup.game
        assert g.names == record.setup.players
        assert g.calls == len(record.entries)
        assert g.winner == standings.winner
        assert g.is_over == game.is_over
        assert [(p.player, p.score, p.rank, p.won, p.role, p.team) for p in g.players] == [
            (r.player, r.score, r.rank, r.won, r.role, r.team) for r in game.results()]
        assert g.duration is not None and g.duration > 0
        assert g.can_resume == (not g.finished)
    assert {g.game for g in games} == set(GAMES)
    assert sum(g.is_over for g in games) == 5 * PER_GAME


def test_filters_by_game_and_by_player_in_any_case(history: History) -> None:
    forge = history.games(game="dice-forge")
    assert forge and all(g.game == "dice-forge" for g in forge)
    name = history.players()[0]
    mine = history.games(player=name.upper())
    assert mine and all(name in g.names for g in mine)
    assert history.count(player=name.lower()) == len(mine)
    both = history.games(game="dice-forge", player=name)
    assert {g.id for g in both} == {g.id for g in forge} & {g.id for g in mine}
    assert history.games(player="Nobody") == []
    page = history.games(limit=3, offset=2)
    assert [g.id for g in page] == [g.id for g in history.games()][2:5]


def test_unfinished_games_are_offered_for_resume(history: History) -> None:
    offer = history.resume_offer()
    assert [g.id for g in offer] == [g.id for g in history.journal.unfinished()]
    assert len(offer) == UNFINISHED and all(g.can_resume for g in offer)


def test_the_index_follows_calls_undo_and_finish(history: History) -> None:
    journal = history.journal
    gid = history.resume_offer()[0].id
    before = history.game(gid)
    assert history.stale() == []
    game = journal.resume(gid)
    rng = random.Random(1)
    call = game.random_call(rng)
    journal.record_call(gid, Entry(call.text()))
    assert history.stale() == [gid]
    history.refresh()
    assert history.game(gid).calls == before.calls + 1
    # An undo and a different call reuse the same sequence number: still seen.
    journal.record_undo(gid)
    history.refresh()
    assert history.game(gid).calls == before.calls
    game = journal.resume(gid)
    other = next(t for t in (game.random_call(rng).text() for _ in range(100))
                 if t != call.text())
    journal.record_call(gid, Entry(other))
    assert history.stale() == [gid]
    history.refresh()
    journal.finish(gid)
    assert history.stale() == [gid]
    history.refresh()
    assert history.game(gid).finished and not history.game(gid).can_resume
    assert history.stale() == []


def test_a_new_summary_version_rebuilds_every_row(history: History) -> None:
    history.db.execute("UPDATE history_games SET version = ?", (SUMMARY_VERSION - 1,))
    assert len(history.stale()) == history.count()
    assert history.refresh() == history.count()
    assert history.stale() == []


def test_the_index_is_derived_data_dropping_it_changes_nothing(history: History) -> None:
    listed = [g.to_json() for g in history.games()]
    for table in ("history_games", "history_players", "history_cards"):
        history.db.execute(f"DELETE FROM {table}")
    assert history.refresh() == len(listed)
    assert [g.to_json() for g in history.games()] == listed


def test_a_game_that_no_longer_replays_is_listed_with_why(tmp_path: Path) -> None:
    with History(tmp_path / "j.sqlite3") as h:
        gid = h.journal.start_game(Setup("dice-forge", ("Ana", "Ben")))
        h.journal.record_call(gid, Entry("Ana: Juggle the moon"))
        h.db.execute("INSERT INTO games (setup, title, started) VALUES (?, '', 0)",
                     (json.dumps({"game": "chess", "players": ["A", "B"], "options": {},
                                  "seed": 0}),))
        h.refresh()
        games = {g.id: g for g in h.games()}
        assert "Juggle the moon" in (games[gid].error or "")
        assert games[gid].names == ("Ana", "Ben") and not games[gid].can_resume
        chess = next(g for g in games.values() if g.game == "chess")
        assert "unknown game 'chess'" in (chess.error or "")


def test_unknown_game_id_is_a_clear_error(history: History) -> None:
    with pytest.raises(HistoryError, match="game 9999: not in the journal"):
        history.game(9999)


def test_history_opens_its_own_connection_beside_the_app(tmp_path: Path) -> None:
    path = night_journal(tmp_path)
    with Journal(path) as app_journal, History(path) as h:
        assert h.db is not app_journal.db
        h.refresh()
        gid = app_journal.start_game(Setup("dice-forge", ("Ana", "Ben")))
        h.refresh()
        assert h.game(gid).calls == 0
    with sqlite3.connect(path) as raw:
        tables = {r[0] for r in raw.execute("SELECT name FROM sqlite_master")}
    assert {"games", "calls", "history_games", "history_players"} <= tables


def test_replayer_steps_forwards_and_back(history: History) -> None:
    g = next(g for g in history.games() if g.is_over and g.game == "dice-forge")
    record = history.journal.load(g.id)
    r = Replayer(record.setup, record.entries)
    assert r.total == len(record.entries) and r.problem == ""
    start = r.step()
    assert start.at_start and start.entry is None and start.standings.winner is None
    first = r.forward()
    assert first.index == 1 and first.entry == record.entries[0] and first.events
    assert r.back().index == 0
    assert r.back().index == 0  # stays at the start
    middle = r.goto(r.total // 2)
    expected = rules.replay(record.setup, record.entries[: r.total // 2]).standings()
    assert middle.standings == expected
    end = r.goto(10**6)
    assert end.at_end and end.standings.winner == g.winner
    assert r.forward().index == r.total  # stays at the end
    assert r.goto(3).standings == rules.replay(record.setup, record.entries[:3]).standings()
    # The events of a step are those the call made the first time.
    game = rules.from_setup(record.setup)
    for e in record.entries[:2]:
        events = game.apply(e.call, e.at)
    assert r.goto(2).events == tuple(events)


def test_replayer_stops_before_a_call_that_does_not_replay() -> None:
    setup = Setup("dice-forge", ("Ana", "Ben"))
    good = rules.replay(setup, []).random_call(random.Random(3)).text()
    r = Replayer(setup, [Entry(good), Entry("Ana: Juggle the moon")])
    assert r.total == 1
    assert "call 2 ('Ana: Juggle the moon') does not replay" in r.problem
