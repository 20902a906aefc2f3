"""Simulated tables, for `companion tournament demo`, the benchmark and the fault tests.

A simulated table plays its seating's real game with the rules engine, choosing random legal
calls (seeded by the tournament, round and table, so a table asked twice plays the same game),
and reports the game's own placings and its game file, as a table companion would once its
players finished.
"""

from __future__ import annotations

import random

import rules
from companion.tournament.protocol import Seating
from rules.core import Placings
from rules.tournament import placings_for_entrants

MAX_CALLS = 20_000


class SimulationError(RuntimeError):
    """Raised when a simulated game does not finish."""


def play_seating(seating: Seating, seed: int = 0) -> tuple[Placings, str]:
    """Play the seated game to its end; returns (placings in entrants' names, game file)."""
    if seating.setup is None or seating.table is None:
        raise SimulationError(f"{seating.describe()}: nothing to play")
    game = rules.from_setup(seating.setup)
    rng = random.Random(f"{seed}/{seating.tournament}/{seating.round}/{seating.table}")
    calls = 0
    while not game.is_over:
        if calls >= MAX_CALLS:
            raise SimulationError(f"{seating.describe()}: {game.title} not over after "
                                  f"{MAX_CALLS} calls")
        game.apply(game.random_call(rng))
        calls += 1
    placings = placings_for_entrants(seating.seats, seating.teams, game.placings())
    text = rules.format_game_file(game.setup, game.history,
                                  f"{seating.name}: round {seating.round}, table "
                                  f"{seating.table} (simulated)")
    return placings, text
