"""Round ranking and points for Eye for an Eye, kept apart so tournaments can use them too.

A side (a player, or a team in Alliances) scores the tokens in its cup plus 5 for each of its
characters still holding health. Points by rank: 4/2 for two sides, 4/2/1 for three, 4/3/2/1 for
four. Tied sides share a rank; ``tied_ranks`` says which of the places they span they score
(see docs/rules/eye-for-an-eye.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

POINTS_BY_SIDES: dict[int, tuple[int, ...]] = {
    1: (4,),
    2: (4, 2),
    3: (4, 2, 1),
    4: (4, 3, 2, 1),
}


@dataclass(frozen=True)
class RoundRow:
    side: str
    cup: int
    standing_bonus: int
    score: int
    rank: int
    points: int


def points_table(sides: int) -> tuple[int, ...]:
    """Points for 1st, 2nd, ... with ``sides`` players or teams; beyond four, 1 for the rest."""
    if sides in POINTS_BY_SIDES:
        return POINTS_BY_SIDES[sides]
    return (4, 3, 2) + (1,) * (sides - 3)


def rank_round(scores: Mapping[str, tuple[int, int]], tied_ranks: str = "share-higher"
               ) -> list[RoundRow]:
    """Rank sides by cup + standing bonus; ``scores`` maps side -> (cup, standing bonus).

    >>> [(r.side, r.rank, r.points) for r in rank_round({"A": (7, 5), "B": (12, 0), "C": (3, 0)})]
    [('A', 1, 4), ('B', 1, 4), ('C', 3, 1)]
    """
    order = sorted(scores, key=lambda s: -sum(scores[s]))
    table = points_table(len(order))
    rows = []
    i = 0
    while i < len(order):
        total = sum(scores[order[i]])
        j = i
        while j < len(order) and sum(scores[order[j]]) == total:
            j += 1
        place = table[i] if tied_ranks == "share-higher" else table[j - 1]
        for side in order[i:j]:
            cup, bonus = scores[side]
            rows.append(RoundRow(side, cup, bonus, cup + bonus, i + 1, place))
        i = j
    return rows
