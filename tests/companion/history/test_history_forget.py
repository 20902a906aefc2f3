"""``--forget PLAYER``: the player leaves every finished game and all statistics; nobody
else's games, scores or wins change; no copy of the name stays in the database file."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from history_night import night_journal

import rules
from companion.history import History, forget_player, player_key, statistics
from companion.history.sample import random_game, write_game
from companion.journal import Journal


@pytest.fixture
def history(tmp_path: Path) -> History:
    h = History(night_journal(tmp_path))
    h.refresh()
    return h


def _others(history: History, name: str) -> list[tuple[object, ...]]:
    """Every other player's line in every game: what forgetting must not change."""
    return [(g.id, p.seat, p.player, p.score, p.rank, p.won, p.role, p.team)
            for g in history.games() for p in g.players
            if player_key(p.player) != player_key(name) and not p.forgotten]


def test_forgetting_takes_the_player_out_and_changes_nobody_else(history: History) -> None:
    path = history.journal.path
    stats = statistics(history)
    name = next(p.player for p in stats.players if p.unfinished == 0 and p.games > 1)
    finished = sorted(g.id for g in history.games(player=name) if g.finished)
    unfinished = sorted(g.id for g in history.games(player=name) if not g.finished)
    others_before = _others(history, name)
    other_stats = {p.player: (p.games, p.wins) for p in stats.players if p.player != name}
    report = forget_player(history, name.upper())
    assert sorted(report.rewritten) == finished and report.removed == []
    assert unfinished == [] and report.unfinished == [] and report.vacuumed
    assert f"forgotten in {len(finished)} game(s)" in report.text()
    assert _others(history, name) == others_before
    after = statistics(history)
    assert after.player(name) is None
    assert {p.player: (p.games, p.wins) for p in after.players if p.player != name} == \
        other_stats
    assert all(name not in dict(p.opponents) for p in after.players)
    for gid in finished:
        g = history.game(gid)
        assert name not in g.names and "Forgotten" in g.names
        assert [p.forgotten for p in g.players] == [p.player == "Forgotten" for p in g.players]
        record = history.journal.load(gid)
        assert all(name not in e.call for e in record.entries)
        game = rules.replay(record.setup, record.entries)  # still a sound game
        assert game.standings().winner == g.winner
    history.close()
    # No copy of the name is left in the file, its free pages or its WAL.
    data = b"".join(p.read_bytes() for p in path.parent.glob(path.name + "*"))
    assert name.encode() not in data


def test_unfinished_games_are_left_alone_and_named(history: History) -> None:
    name = next(p.player for p in statistics(history).players if p.unfinished)
    open_games = sorted(g.id for g in history.games(player=name) if not g.finished)
    calls = {gid: history.journal.load(gid).entries for gid in open_games}
    report = forget_player(history, name)
    assert report.unfinished == open_games
    assert "finish or abandon them in the app, then forget again" in report.text()
    assert {gid: history.journal.load(gid).entries for gid in open_games} == calls
    mine = statistics(history).player(name)
    assert mine is not None and mine.games == 0 and mine.unfinished == len(open_games)


def test_a_name_shared_with_a_tribe_keeps_the_tribe(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    rng = random.Random(11)
    with Journal(path) as journal:
        for _ in range(40):
            game = random_game("occulites", rng, club=("Ignis", "Ben", "Cy", "Dee", "Eli", "Fay"))
            tribes = game.state.tribe_of
            if game.is_over and tribes.get("Ignis") == "Ignis":
                break
        else:
            # No random game gave Ignis the Ignis tribe: play one that does.
            setup = rules.Setup("occulites", ("Ignis", "Ben"), {}, 3)
            game = rules.from_setup(setup)
            game.apply("Ignis: Tribe Ignis")
            while not game.is_over:
                game.apply(game.random_call(rng))
        gid = write_game(journal, game, 1_700_000_000.0)
    with History(path) as h:
        before = h.game(gid)
        report = forget_player(h, "ignis")
        assert report.rewritten == [gid], report.problems
        after = h.game(gid)
        assert "Ignis" not in after.names
        assert [p.role for p in after.players] == [p.role for p in before.players]
        assert "Ignis" in [p.role for p in after.players]


def test_team_options_follow_the_new_name(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    rng = random.Random(4)
    setup = rules.Setup("eye-for-an-eye", ("Ana", "Ben", "Cy", "Dee"),
                        {"mode": "alliances", "teams": [["Ana", "Cy"], ["Ben", "Dee"]],
                         "characters": ["grubic", "riparian", "banksia", "pluma"],
                         "rounds": 1}, 1)
    game = rules.from_setup(setup)
    while not game.is_over:
        game.apply(game.random_call(rng))
    with Journal(path) as journal:
        gid = write_game(journal, game, 1_700_000_000.0)
    with History(path) as h:
        before = h.game(gid)
        assert forget_player(h, "Cy").rewritten == [gid]
        record = h.journal.load(gid)
        assert record.setup.options["teams"] == [["Ana", "Forgotten"], ["Ben", "Dee"]]
        after = h.game(gid)
        assert [(p.score, p.won, p.team) for p in after.players] == \
            [(p.score, p.won, p.team) for p in before.players]


def test_forgetting_someone_unknown_changes_nothing(history: History) -> None:
    listed = [g.to_json() for g in history.games()]
    report = forget_player(history, "Zed")
    assert report.text() == "Zed: in no game of this history"
    assert [g.to_json() for g in history.games()] == listed
