"""Player and game statistics, checked against the games replayed directly by the rules."""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import pytest
from history_night import night_journal

import rules
from companion.history import History, Streak, statistics
from companion.history.sample import random_game, write_game
from companion.history.stats import _streaks, compute_statistics


@pytest.fixture
def history(tmp_path: Path) -> History:
    h = History(night_journal(tmp_path))
    h.refresh()
    return h


def _replayed(history: History) -> list[tuple[Any, Any, Any]]:
    """(record, game, results) for every game, oldest first, straight from the rules."""
    out = []
    for record in sorted(history.journal.games(), key=lambda r: (r.started, r.id)):
        game = rules.replay(record.setup, record.entries)
        out.append((record, game, game.results()))
    return out


def test_player_statistics_match_the_games(history: History) -> None:
    stats = statistics(history)
    games = _replayed(history)
    names = {p for _r, g, _res in games for p in g.setup.players}
    assert {p.player for p in stats.players} == names
    for p in stats.players:
        mine = [(g, res) for _r, g, res in games if p.player in g.setup.players]
        over = [(g, res) for g, res in mine if g.is_over]
        assert p.games == len(over)
        assert p.unfinished == len(mine) - len(over)
        outcomes = [next(r.won for r in res if r.player == p.player) for _g, res in over]
        assert p.wins == sum(outcomes)
        assert p.win_rate == pytest.approx(sum(outcomes) / len(over) if over else 0.0)
        assert (p.streak, p.longest_winning_streak) == _streaks(outcomes)
        opponents = Counter(q for g, _res in over for q in g.setup.players if q != p.player)
        top = sorted(opponents.items(), key=lambda kv: (-kv[1], kv[0].casefold()))[:3]
        assert list(p.opponents) == top
        for per in p.per_game:
            scores = [next(r.score for r in res if r.player == p.player)
                      for g, res in over if g.setup.game == per.game]
            assert per.games == len(scores)
            assert per.best == max(scores)
            assert per.average == pytest.approx(sum(scores) / len(scores))
            assert per.points == pytest.approx(sum(scores))


def test_game_statistics_count_lengths_roles_and_cards(history: History) -> None:
    stats = statistics(history)
    games = _replayed(history)
    for gs in stats.games:
        plays = [(r, g, res) for r, g, res in games if g.setup.game == gs.game]
        over = [(r, g, res) for r, g, res in plays if g.is_over]
        assert gs.games == len(over)
        assert gs.unfinished == len(plays) - len(over)
        assert gs.average_calls == pytest.approx(sum(len(r.entries) for r, _g, _x in over)
                                                 / len(over))
        assert gs.average_players == pytest.approx(
            sum(len(g.setup.players) for _r, g, _x in over) / len(over))
        assert gs.title == rules.game_class(gs.game).title
        roles: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        cards: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        for _r, _g, res in over:
            for x in res:
                if x.role:
                    roles[x.role][0] += 1
                    roles[x.role][1] += x.won
                for c in set(x.cards):  # once per player, however many copies
                    cards[c][0] += 1
                    cards[c][1] += x.won
        assert {c.name: [c.played, c.won] for c in gs.roles} == dict(roles)
        assert {c.name: [c.played, c.won] for c in gs.cards} == dict(cards)
        winning = [x.score for _r, _g, res in over for x in res if x.won]
        assert gs.average_winning_score == pytest.approx(sum(winning) / len(winning))
        assert gs.best_score == max(x.score for _r, _g, res in over for x in res)
    kinds = {g.game: (g.role_kind, g.card_kind) for g in stats.games}
    assert kinds["eye-for-an-eye"] == ("character", None)
    assert kinds["dice-forge"] == (None, "feat card")
    assert stats.game("dice-forge") is not None and stats.game("dice-forge").cards  # type: ignore[union-attr]
    assert stats.game("eye-for-an-eye").roles  # type: ignore[union-attr]


def test_filters_narrow_the_statistics(history: History) -> None:
    everyone = statistics(history)
    name = everyone.players[0].player
    mine = statistics(history, player=name.upper())
    assert [p.player for p in mine.players] == [name]
    assert mine.players[0].games == everyone.players[0].games
    forge = statistics(history, game="dice-forge")
    assert [g.game for g in forge.games] == ["dice-forge"]
    for p in forge.players:
        assert [g.game for g in p.per_game] == ["dice-forge"]
    assert statistics(history, player="Nobody").players == ()


def test_statistics_are_kept_until_the_index_changes(history: History,
                                                     tmp_path: Path) -> None:
    first = statistics(history)
    assert statistics(history) is first  # kept in memory
    assert first == compute_statistics(history)
    with History(history.journal.path) as other:  # a new process: kept in the database
        assert statistics(other) == first
        assert other.db.execute("SELECT COUNT(*) FROM history_stats").fetchone()[0] == 1
    # A game finishes: the index changes, the statistics are worked out again.
    game = random_game("dice-forge", random.Random(9), ("Ana", "Zoe", "Ben", "Cy"))
    write_game(history.journal, game, 1_800_000_000.0)
    history.refresh()
    after = statistics(history)
    assert after is not first
    zoe = after.player("Zoe")
    assert zoe is not None and zoe.games == 1
    assert after == compute_statistics(history)
    by_game = statistics(history, game="dice-forge")
    assert by_game == compute_statistics(history, game="dice-forge")
    assert statistics(history, player="zoe") == compute_statistics(history, player="zoe")


def test_streaks() -> None:
    assert _streaks([]) == (Streak(None, 0), 0)
    assert _streaks([True, True, False, True, True, True]) == (Streak("won", 3), 3)
    assert _streaks([True, True, True, False, False]) == (Streak("lost", 2), 3)
    assert Streak("won", 3).text() == "3 won" and Streak(None, 0).text() == "-"


def test_statistics_of_an_empty_history(tmp_path: Path) -> None:
    with History(tmp_path / "empty.sqlite3") as h:
        h.refresh()
        stats = statistics(h)
    assert stats.players == () and stats.games == ()
    assert stats.to_json() == {"filters": {}, "players": [], "games": []}
