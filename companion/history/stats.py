"""Player and game statistics from the history index: :func:`statistics`.

Everything is counted from the index rows that :class:`~companion.history.index.History` keeps
(each derived from the rules engine's :meth:`rules.Game.results`): no rule is interpreted here.
Only games that are over count towards games, wins, scores and streaks; unfinished and
abandoned games are counted apart. A shared victory is a win for each winner; every member of
a winning team wins. A game the players ended with no result is a game played and not won,
but neither a win nor a loss in a streak: it neither ends a streak nor adds to one.
"""

from __future__ import annotations

import contextlib
import dataclasses
import itertools
import json
import operator
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Literal

from companion.ending import NO_RESULT
from companion.history.index import History
from companion.history.summary import game_title, player_key

#: How many most frequent opponents a player's statistics name.
TOP_OPPONENTS = 3
#: The shape of the statistics kept in ``history_stats``: part of their key, so answers kept
#: by an older version are never read back as this one's.
STATS_VERSION = 2
#: One game's outcome for a player: won, lost, or None for a game ended with no result.
Outcome = bool | None


@dataclass(frozen=True)
class Streak:
    """A run of games with the same outcome: ``kind`` is "won" or "lost" (None: no games
    with a result yet)."""

    kind: Literal["won", "lost"] | None
    length: int

    def text(self) -> str:
        return "-" if self.kind is None else f"{self.length} {self.kind}"


@dataclass(frozen=True)
class PlayerGameStats:
    """One player in one game: games over, wins, and the scores the game keeps."""

    player: str
    game: str
    games: int
    wins: int
    points: float
    average: float | None
    best: float | None
    last_played: float

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player, "game": self.game, "games": self.games,
                "wins": self.wins, "win_rate": round(self.win_rate, 4), "points": self.points,
                "average": self.average, "best": self.best}


@dataclass(frozen=True)
class PlayerStats:
    """One player over every game (or the games a filter lets through).

    Scores are only comparable within one game, so points, averages and best scores are given
    per game in ``per_game``.
    """

    player: str
    games: int
    wins: int
    unfinished: int
    no_result: int  # of ``games``: ended by the players with no result
    opponents: tuple[tuple[str, int], ...]
    streak: Streak
    longest_winning_streak: int
    first_played: float
    last_played: float
    per_game: tuple[PlayerGameStats, ...]

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player, "games": self.games, "wins": self.wins,
                "win_rate": round(self.win_rate, 4), "unfinished": self.unfinished,
                "no_result": self.no_result,
                "opponents": [{"player": p, "games": n} for p, n in self.opponents],
                "streak": {"kind": self.streak.kind, "length": self.streak.length},
                "longest_winning_streak": self.longest_winning_streak,
                "per_game": [g.to_json() for g in self.per_game]}


@dataclass(frozen=True)
class CountStat:
    """How often a character, tribe, objective or card was played, and won."""

    name: str
    played: int
    won: int

    @property
    def win_rate(self) -> float:
        return self.won / self.played if self.played else 0.0


@dataclass(frozen=True)
class GameStats:
    """One game over all its plays: how many, how long, and what was played and won."""

    game: str
    title: str
    games: int
    unfinished: int
    average_calls: float
    average_minutes: float | None
    average_players: float
    average_winning_score: float | None
    best_score: float | None
    best_by: str | None
    role_kind: str | None
    roles: tuple[CountStat, ...]
    card_kind: str | None
    cards: tuple[CountStat, ...]

    def to_json(self) -> dict[str, Any]:
        def counts(items: Iterable[CountStat]) -> list[dict[str, Any]]:
            return [{"name": c.name, "played": c.played, "won": c.won,
                     "win_rate": round(c.win_rate, 4)} for c in items]

        return {"game": self.game, "title": self.title, "games": self.games,
                "unfinished": self.unfinished, "average_calls": round(self.average_calls, 1),
                "average_minutes": None if self.average_minutes is None
                else round(self.average_minutes, 1),
                "average_players": round(self.average_players, 2),
                "average_winning_score": self.average_winning_score,
                "best_score": self.best_score, "best_by": self.best_by,
                "role_kind": self.role_kind, "roles": counts(self.roles),
                "card_kind": self.card_kind, "cards": counts(self.cards)}


@dataclass(frozen=True)
class Statistics:
    """Player and game statistics for the games a filter lets through."""

    players: tuple[PlayerStats, ...]
    games: tuple[GameStats, ...]
    filters: dict[str, str] = field(default_factory=dict)

    def player(self, name: str) -> PlayerStats | None:
        key = player_key(name)
        return next((p for p in self.players if player_key(p.player) == key), None)

    def game(self, name: str) -> GameStats | None:
        return next((g for g in self.games if g.game == name), None)

    def to_json(self) -> dict[str, Any]:
        return {"filters": dict(self.filters), "players": [p.to_json() for p in self.players],
                "games": [g.to_json() for g in self.games]}


@dataclass
class _Player:
    name: str
    games: int = 0
    wins: int = 0
    unfinished: int = 0
    no_result: int = 0
    first: float = float("inf")
    last: float = 0.0
    outcomes: list[Outcome] = field(default_factory=list)
    opponents: Counter[str] = field(default_factory=Counter)
    per_game: dict[str, list[tuple[float | None, bool, float]]] = field(
        default_factory=lambda: defaultdict(list))


def _streaks(outcomes: list[Outcome]) -> tuple[Streak, int]:
    """The current run of wins or losses, and the longest run of wins; a game with no result
    (None) is neither: it is passed over, the run goes on across it."""
    runs = [(won, sum(1 for _ in run))
            for won, run in itertools.groupby(o for o in outcomes if o is not None)]
    if not runs:
        return Streak(None, 0), 0
    won, length = runs[-1]
    return (Streak("won" if won else "lost", length),
            max((n for w, n in runs if w), default=0))


def statistics(history: History, game: str | None = None,
               player: str | None = None) -> Statistics:
    """Statistics of every player and every game, optionally only ``game`` (short name) and
    only the games ``player`` took part in. Reads the index: call ``history.refresh()`` first.

    The answer is kept (in memory and in the database, ``history_stats``) until the index
    changes, so opening the statistics again, or in a new process, costs a lookup; the app
    can work the statistics out ahead, off the screen's thread, when a game ends
    (:meth:`History.refresh` then this).
    """
    filters = json.dumps([STATS_VERSION, game, None if player is None else player_key(player)])
    return history.kept(filters, lambda: compute_statistics(history, game, player),
                        dataclasses.asdict, _loads)


def _loads(data: dict[str, Any]) -> Statistics:
    """A :class:`Statistics` back from ``dataclasses.asdict`` as JSON."""
    players = tuple(PlayerStats(
        p["player"], p["games"], p["wins"], p["unfinished"], p["no_result"],
        tuple((str(n), int(k)) for n, k in p["opponents"]), Streak(**p["streak"]),
        p["longest_winning_streak"], p["first_played"], p["last_played"],
        tuple(PlayerGameStats(**g) for g in p["per_game"])) for p in data["players"])
    games = tuple(GameStats(**{**g, "roles": tuple(CountStat(**c) for c in g["roles"]),
                               "cards": tuple(CountStat(**c) for c in g["cards"])})
                  for g in data["games"])
    return Statistics(players, games, dict(data["filters"]))


def compute_statistics(history: History, game: str | None = None,
                       player: str | None = None) -> Statistics:
    """:func:`statistics` worked out from the index rows, every time."""
    import rules

    rows = history.player_rows(game, player)

    people: dict[str, _Player] = {}
    per_game_rows: dict[str, dict[int, list[tuple[Any, ...]]]] = defaultdict(dict)
    unfinished_games: Counter[str] = Counter()
    # Rows come oldest game first, so a player's first game is the first seen and the last
    # seen is the latest. Opponents: each game's players counted for everyone in it, the
    # player's own count taken off at the end (a C-speed Counter.update of a list).
    for gid, grouped in itertools.groupby(rows, key=operator.itemgetter(0)):
        table = list(grouped)
        gname, started, over = table[0][1], table[0][2], table[0][5]
        keys = [r[6] for r in table if r[6] is not None]
        if over:
            per_game_rows[gname][gid] = table
        else:
            unfinished_games[gname] += 1
        for r in table:
            key = r[6]
            if key is None:
                continue
            who = people.get(key)
            if who is None:
                who = people[key] = _Player(r[7], first=started)
            who.name = r[7]
            who.last = started
            if not over:
                who.unfinished += 1
                continue
            won = bool(r[9])
            nobody = r[11] == NO_RESULT.value
            who.games += 1
            who.wins += won
            who.no_result += nobody
            who.outcomes.append(None if nobody else won)
            who.per_game[gname].append((r[8], won, started))
            who.opponents.update(keys)
    for key, who in people.items():
        del who.opponents[key]

    names = {k: p.name for k, p in people.items()}
    players = []
    for key, p in people.items():
        if player is not None and key != player_key(player):
            continue
        streak, longest = _streaks(p.outcomes)
        per = []
        for gname, plays in sorted(p.per_game.items()):
            scores = [s for s, _w, _t in plays if s is not None]
            per.append(PlayerGameStats(
                p.name, gname, len(plays), sum(w for _s, w, _t in plays), float(sum(scores)),
                sum(scores) / len(scores) if scores else None, max(scores) if scores else None,
                max(t for _s, _w, t in plays)))
        players.append(PlayerStats(
            p.name, p.games, p.wins, p.unfinished, p.no_result,
            tuple((names[k], n) for k, n in sorted(p.opponents.items(),
                                                   key=lambda kv: (-kv[1], kv[0]))
                  [:TOP_OPPONENTS]),
            streak, longest, p.first, p.last, tuple(per)))
    players.sort(key=lambda s: (-s.games, -s.wins, player_key(s.player)))

    cards = history.card_rows(game, player)
    card_counts: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    for gname, card, won in cards:
        c = card_counts[gname][card]
        c[0] += 1
        c[1] += bool(won)

    games = []
    for gname in sorted(set(per_game_rows) | set(unfinished_games)):
        tables = list(per_game_rows.get(gname, {}).values())
        cls: type[rules.Game[Any]] | None = None
        with contextlib.suppress(rules.SetupError):
            cls = rules.game_class(gname)
        minutes = [(t[0][3] - t[0][2]) / 60 for t in tables
                   if t[0][3] is not None and t[0][3] > t[0][2]]
        winning = [r[8] for t in tables for r in t if r[9] and r[8] is not None]
        scored = [(r[8], r[7]) for t in tables for r in t
                  if r[8] is not None and r[6] is not None]
        best = max(scored, key=lambda sr: sr[0], default=None)
        roles: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        for t in tables:
            for r in t:
                if r[10]:
                    roles[r[10]][0] += 1
                    roles[r[10]][1] += bool(r[9])
        n = len(tables)
        games.append(GameStats(
            gname, game_title(gname), n, unfinished_games[gname],
            sum(t[0][4] for t in tables) / n if n else 0.0,
            sum(minutes) / len(minutes) if minutes else None,
            sum(len(t) for t in tables) / n if n else 0.0,
            sum(winning) / len(winning) if winning else None,
            None if best is None else best[0], None if best is None else best[1],
            None if cls is None else cls.role_kind, _counts(roles),
            None if cls is None else cls.card_kind, _counts(card_counts.get(gname, {}))))
    filters = {k: v for k, v in (("game", game), ("player", player)) if v is not None}
    return Statistics(tuple(players), tuple(games), filters)


def _counts(found: dict[str, list[int]]) -> tuple[CountStat, ...]:
    return tuple(sorted((CountStat(name, n, w) for name, (n, w) in found.items()),
                        key=lambda c: (-c.played, -c.won, c.name)))
