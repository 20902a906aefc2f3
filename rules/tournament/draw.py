"""Seating entrants at tables so that as few as possible meet again.

A draw is a pure function of who is drawn, the table sizes, how often each pair has already
met, and a seeded :class:`random.Random`. Cost: every pair seated together costs
``10 * met**2 + met`` (so meeting someone a third time weighs far more than two second
meetings). The draw seats entrants greedily (each next to the fewest people already met), then
swaps pairs of entrants between tables while a swap lowers the cost, from a few random starts,
and keeps the cheapest. Every step is counted, never timed, so the same inputs give the same
draw on any machine.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Mapping, Sequence

#: How often two entrants have met: frozenset({a, b}) -> meetings.
Met = Mapping[frozenset[str], int]


def table_sizes(entrants: int, most: int) -> list[int]:
    """Split ``entrants`` into as few tables of at most ``most`` as possible, sizes differing
    by at most one, largest first. A table of one is a bye (only when ``most`` is 2).

    >>> table_sizes(10, 4)
    [4, 3, 3]
    >>> table_sizes(5, 2)
    [2, 2, 1]
    """
    if entrants <= 0:
        return []
    tables = -(-entrants // most)
    base, extra = divmod(entrants, tables)
    return [base + 1] * extra + [base] * (tables - extra)


def pair_cost(meetings: int) -> int:
    """The cost of seating together two entrants who have met ``meetings`` times."""
    return 10 * meetings * meetings + meetings


def draw_cost(tables: Sequence[Sequence[str]], met: Met) -> int:
    """The total cost of a seating (0: nobody meets anyone again)."""
    return sum(pair_cost(met.get(frozenset(pair), 0))
               for table in tables for pair in itertools.combinations(table, 2))


def repeat_meetings(tables: Sequence[Sequence[str]], met: Met) -> int:
    """How many pairs seated together have met before."""
    return sum(1 for table in tables for pair in itertools.combinations(table, 2)
               if met.get(frozenset(pair), 0) > 0)


def _improve(tables: list[list[int]], weight: list[list[int]]) -> None:
    """Swap entrants between tables while a swap lowers the cost (first improvement)."""
    where = {p: t for t, table in enumerate(tables) for p in table}
    n = len(weight)
    # cost[p][t]: what p pays to sit at table t (with everyone now at t).
    cost = [[sum(weight[p][q] for q in table) for table in tables] for p in range(n)]
    players = sorted(where)
    for _ in range(50):  # passes; each strictly lowers the cost, so this ends long before
        improved = False
        for i, j in itertools.combinations(players, 2):
            a, b = where[i], where[j]
            if a == b:
                continue
            delta = (cost[i][b] - weight[i][j] - cost[i][a]
                     + cost[j][a] - weight[j][i] - cost[j][b])
            if delta >= 0:
                continue
            tables[a][tables[a].index(i)] = j
            tables[b][tables[b].index(j)] = i
            where[i], where[j] = b, a
            for p in range(n):
                cost[p][a] += weight[p][j] - weight[p][i]
                cost[p][b] += weight[p][i] - weight[p][j]
            improved = True
        if not improved:
            return


def draw_tables(entrants: Sequence[str], sizes: Sequence[int], met: Met,
                rng: random.Random, starts: int = 6) -> list[tuple[str, ...]]:
    """Seat ``entrants`` at tables of the given ``sizes`` (which must add up to their number),
    rematches as few as possible; seat order within a table is the drawn order.

    >>> met = {frozenset("AB"): 1, frozenset("CD"): 1}
    >>> repeat_meetings(draw_tables("ABCD", [2, 2], met, random.Random(1)), met)
    0
    """
    names = list(entrants)
    if sum(sizes) != len(names):
        raise ValueError(f"table sizes {list(sizes)} do not seat {len(names)} entrants")
    n = len(names)
    weight = [[0 if i == j else pair_cost(met.get(frozenset((names[i], names[j])), 0))
               for j in range(n)] for i in range(n)]
    best: list[list[int]] | None = None
    best_cost = -1
    for _ in range(max(1, starts)):
        left = list(range(n))
        rng.shuffle(left)
        tables: list[list[int]] = []
        for size in sizes:
            table = [left.pop()]
            while len(table) < size:
                pick = min(range(len(left)), key=lambda k: sum(weight[left[k]][q] for q in table))
                table.append(left.pop(pick))
            tables.append(table)
        _improve(tables, weight)
        total = sum(weight[p][q] for table in tables for p, q in itertools.combinations(table, 2))
        if best is None or total < best_cost:
            best, best_cost = tables, total
        if total == 0:
            break
    assert best is not None
    return [tuple(names[p] for p in table) for table in best]


def count_meetings(rounds: Sequence[Sequence[Sequence[str]]]) -> dict[frozenset[str], int]:
    """How often each pair sat at one table over the given rounds' tables."""
    met: dict[frozenset[str], int] = {}
    for tables in rounds:
        for table in tables:
            for pair in itertools.combinations(table, 2):
                key = frozenset(pair)
                met[key] = met.get(key, 0) + 1
    return met
