"""Random play of Dice-ocalypse: how many calls a random game takes, and what happens in it.

Run: .venv/bin/python benchmarks/diceocalypse_random_play.py [GAMES]
Prints the calls per game (median, 95th percentile, max, games over 250) and event counts.
"""

from __future__ import annotations

import collections
import random
import statistics
import sys

import rules
from rules.diceocalypse import GAME


def main(games: int) -> None:
    kinds: collections.Counter[str] = collections.Counter()
    lengths = []
    unfinished = 0
    for seed in range(games):
        rng = random.Random(seed)
        game = rules.from_setup(GAME.random_setup(rng))
        calls = 0
        while not game.is_over and calls < 1000:
            for event in game.apply(game.random_call(rng)):
                kinds[event.kind] += 1
            calls += 1
        unfinished += not game.is_over
        lengths.append(calls)
    lengths.sort()
    print(f"games: {games}, unfinished after 1000 calls: {unfinished}")
    print(f"calls per game: median {statistics.median(lengths)}, "
          f"p95 {lengths[int(0.95 * (games - 1))]}, max {lengths[-1]}, "
          f"over 250: {sum(n > 250 for n in lengths)}")
    for kind, n in sorted(kinds.items()):
        print(f"  {kind:18} {n}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 300)
