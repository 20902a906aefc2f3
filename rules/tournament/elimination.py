"""Eye for an Eye's elimination rounds: groups A-D of the top 16 (or 8 teams), AD and BC, a final.

Every Eye for Themselves: the top 16 form groups A (1, 5, 12, 16), B (2, 6, 11, 15),
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
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from rules.core import RulesError

FINAL_ROUNDS = 3
PLAYER_GROUPS: dict[str, tuple[int, ...]] = {
    "A": (1, 5, 12, 16), "B": (2, 6, 11, 15), "C": (3, 7, 10, 14), "D": (4, 8, 9, 13)}
TEAM_GROUPS: dict[str, tuple[int, ...]] = {"A": (1, 8), "B": (2, 7), "C": (3, 6), "D": (4, 5)}


class TournamentError(RulesError):
    """Raised for an impossible tournament step: names the step and what forbids it."""


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
