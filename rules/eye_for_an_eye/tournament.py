"""Eye for an Eye tournaments: five qualifying rounds, two elimination rounds and a final.

Qualifying: every round splits the entrants into tables against random opponents, drawn with the
seeded RNG so that rematches are as few as possible; points are totalled across the rounds.

Elimination (Every Eye for Themselves): the top 16 form groups A (1, 5, 12, 16), B (2, 6, 11, 15),
C (3, 7, 10, 14) and D (4, 8, 9, 13); the top two of each go on to AD and BC; the top two of those
play a final of three rounds. Alliances: the top 8 teams play A 1v8, B 2v7, C 3v6, D 4v5, the top
team of each goes on, then AD and BC, then a final of the two remaining teams.

Fewer entrants (docs/rules/eye-for-an-eye.md): the same seed positions are used with the missing
seeds left out, so the top seeds get byes. A group with no more entrants than go on from it is a
bye: everyone in it goes on without playing. With 8 or fewer players (4 or fewer teams) the first
elimination round is skipped and AD / BC are formed from the same positions; with 4 or fewer
players (2 or fewer teams) the tournament goes straight to the final.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from rules.core import RulesError

QUALIFYING_ROUNDS = 5
FINAL_ROUNDS = 3
PLAYER_GROUPS: dict[str, tuple[int, ...]] = {
    "A": (1, 5, 12, 16), "B": (2, 6, 11, 15), "C": (3, 7, 10, 14), "D": (4, 8, 9, 13)}
TEAM_GROUPS: dict[str, tuple[int, ...]] = {"A": (1, 8), "B": (2, 7), "C": (3, 6), "D": (4, 5)}


class TournamentError(RulesError):
    """Raised for an impossible tournament step: too few entrants, unknown names, bad results."""


def _table_sizes(n: int, most: int) -> list[int]:
    tables = -(-n // most)
    base, extra = divmod(n, tables)
    return [base + 1] * extra + [base] * (tables - extra)


def _greedy_draw(names: Sequence[str], sizes: Sequence[int],
                 met: Mapping[frozenset[str], int], rng: random.Random) -> list[tuple[str, ...]]:
    """Seat entrants one by one, each next to the fewest people they have already met."""
    left = list(names)
    rng.shuffle(left)
    tables = []
    for size in sizes:
        table = [left.pop()]
        while len(table) < size:
            pick = min(range(len(left)), key=lambda i: sum(
                met.get(frozenset((left[i], other)), 0) for other in table))
            table.append(left.pop(pick))
        tables.append(tuple(table))
    return tables


def qualifying_tables(entrants: Sequence[str], rounds: int = QUALIFYING_ROUNDS, *,
                      seed: int = 0, table_size: int = 4, attempts: int = 300
                      ) -> list[list[tuple[str, ...]]]:
    """The tables of each qualifying round: random opponents, rematches as few as possible.

    Tables hold at most ``table_size`` entrants (4 players, or 2 teams for 2v2 / 3v3 Alliances)
    and at least 2; sizes differ by at most one. The same seed gives the same draw.
    """
    names = list(entrants)
    if len(set(names)) != len(names):
        raise TournamentError(f"entrants must differ: {', '.join(names)}")
    if len(names) < 2:
        raise TournamentError(f"a tournament needs at least 2 entrants, got {len(names)}")
    if table_size < 2:
        raise TournamentError(f"table size {table_size}: must be at least 2")
    rng = random.Random(seed)
    met: dict[frozenset[str], int] = {}
    sizes = _table_sizes(len(names), table_size)
    schedule = []
    for _ in range(rounds):
        best: list[tuple[str, ...]] | None = None
        best_cost = None
        for _ in range(attempts):
            tables = _greedy_draw(names, sizes, met, rng)
            cost = sum(met.get(frozenset(pair), 0) ** 2 * 10 + met.get(frozenset(pair), 0)
                       for t in tables for pair in itertools.combinations(t, 2))
            if best_cost is None or cost < best_cost:
                best, best_cost = tables, cost
                if cost == 0:
                    break
        assert best is not None
        for t in best:
            for pair in itertools.combinations(t, 2):
                met[frozenset(pair)] = met.get(frozenset(pair), 0) + 1
        schedule.append(best)
    return schedule


@dataclass
class Qualifying:
    """Totals across the qualifying rounds. Ties rank by round wins, then by entry order."""

    entrants: tuple[str, ...]
    points: dict[str, list[int]] = field(default_factory=dict)

    def record(self, results: Mapping[str, int]) -> None:
        """Add one table's round points, e.g. ``{"Ana": 4, "Ben": 2}``."""
        for name, pts in results.items():
            if name not in self.entrants:
                raise TournamentError(f"{name!r} is not an entrant")
            if isinstance(pts, bool) or not isinstance(pts, int) or pts < 0:
                raise TournamentError(f"{name}: points must be a whole number >= 0, got {pts!r}")
        for name, pts in results.items():
            self.points.setdefault(name, []).append(pts)

    def total(self, name: str) -> int:
        return sum(self.points.get(name, []))

    def ranking(self) -> list[str]:
        return sorted(self.entrants, key=lambda n: (-self.total(n),
                                                    -self.points.get(n, []).count(4),
                                                    self.entrants.index(n)))


@dataclass(frozen=True)
class Elimination:
    """The elimination rounds for a qualifying ranking (best first)."""

    seeds: tuple[str, ...]
    alliances: bool = False

    def __post_init__(self) -> None:
        if len(self.seeds) < 2:
            raise TournamentError(f"elimination needs at least 2 entrants, got {len(self.seeds)}")
        if len(set(self.seeds)) != len(self.seeds):
            raise TournamentError("elimination seeds must differ")

    @property
    def field_size(self) -> int:
        return 8 if self.alliances else 16

    @property
    def advance(self) -> int:
        """How many go on from each group: two players, or one team."""
        return 1 if self.alliances else 2

    @property
    def entrants(self) -> tuple[str, ...]:
        return self.seeds[:self.field_size]

    def _seed(self, position: int) -> str | None:
        return self.entrants[position - 1] if position <= len(self.entrants) else None

    def _groups(self) -> dict[str, tuple[str, ...]]:
        layout = TEAM_GROUPS if self.alliances else PLAYER_GROUPS
        return {g: tuple(s for p in pos if (s := self._seed(p)) is not None)
                for g, pos in layout.items()}

    def first_round(self) -> dict[str, tuple[str, ...]]:
        """Groups A-D, or {} when there are too few entrants for this round."""
        if len(self.entrants) <= self.field_size // 2:
            return {}
        return self._groups()

    def byes(self, groups: Mapping[str, tuple[str, ...]]) -> dict[str, tuple[str, ...]]:
        """The groups nobody needs to play: everyone in them goes on."""
        return {g: m for g, m in groups.items() if len(m) <= self.advance}

    def _top(self, group: str, members: tuple[str, ...],
             results: Mapping[str, Sequence[str]]) -> tuple[str, ...]:
        if len(members) <= self.advance:
            return members
        if group not in results:
            raise TournamentError(f"group {group} ({', '.join(members)}) has no result yet")
        order = tuple(results[group])
        if sorted(order) != sorted(members):
            raise TournamentError(f"group {group}: the result {', '.join(order)} must rank "
                                  f"exactly {', '.join(members)}")
        return order[:self.advance]

    def second_round(self, first_results: Mapping[str, Sequence[str]] | None = None
                     ) -> dict[str, tuple[str, ...]]:
        """Groups AD and BC from the first round's finishing orders (or straight from seeds)."""
        first = self.first_round()
        if first:
            top = {g: self._top(g, m, first_results or {}) for g, m in first.items()}
        elif len(self.entrants) <= self.field_size // 4:
            return {}
        else:
            top = {g: m[:self.advance] for g, m in self._groups().items()}
        return {"AD": top["A"] + top["D"], "BC": top["B"] + top["C"]}

    def final(self, first_results: Mapping[str, Sequence[str]] | None = None,
              second_results: Mapping[str, Sequence[str]] | None = None) -> tuple[str, ...]:
        """Who plays the final (three rounds, scores carried over)."""
        second = self.second_round(first_results)
        if not second:
            return self.entrants
        return tuple(itertools.chain.from_iterable(
            self._top(g, m, second_results or {}) for g, m in second.items()))
