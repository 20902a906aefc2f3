"""Eye for an Eye tournaments: five qualifying rounds, two elimination rounds and a final.

The whole tournament (entrants, rounds, results, standings, corrections) is
:class:`rules.tournament.Tournament` with the ``eye-for-an-eye`` style; this module keeps the
two pieces that stand alone: the qualifying draw of several rounds at once, and the
elimination groups (:class:`rules.tournament.Elimination`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from rules.tournament.draw import count_meetings, draw_tables, table_sizes
from rules.tournament.elimination import (
    FINAL_ROUNDS,
    PLAYER_GROUPS,
    TEAM_GROUPS,
    Elimination,
    TournamentError,
)

QUALIFYING_ROUNDS = 5


def qualifying_tables(entrants: Sequence[str], rounds: int = QUALIFYING_ROUNDS, *,
                      seed: int = 0, table_size: int = 4) -> list[list[tuple[str, ...]]]:
    """The tables of each qualifying round: random opponents, rematches as few as possible.

    Tables hold at most ``table_size`` entrants (4 players, or 2 teams for 2v2 / 3v3 Alliances)
    and at least 2; sizes differ by at most one. The same seed gives the same draw. A live
    tournament draws one round at a time instead (:meth:`rules.tournament.Tournament.draw_next`),
    so that late entrants and drop-outs change the next draw only.
    """
    names = list(entrants)
    if len(set(names)) != len(names):
        raise TournamentError(f"entrants must differ: {', '.join(names)}")
    if len(names) < 2:
        raise TournamentError(f"a tournament needs at least 2 entrants, got {len(names)}")
    if table_size < 2:
        raise TournamentError(f"table size {table_size}: must be at least 2")
    schedule: list[list[tuple[str, ...]]] = []
    for number in range(1, rounds + 1):
        met = count_meetings(schedule)
        rng = random.Random(f"{seed}/round/{number}")
        schedule.append(draw_tables(names, table_sizes(len(names), table_size), met, rng))
    return schedule


__all__ = ["FINAL_ROUNDS", "PLAYER_GROUPS", "QUALIFYING_ROUNDS", "TEAM_GROUPS", "Elimination",
           "TournamentError", "qualifying_tables"]
