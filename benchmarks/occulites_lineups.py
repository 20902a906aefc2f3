"""Dice of the Occulites: five line-ups on one rendered 800x480 frame -> vision.read_dice ->
the table screen's adapter -> the engine's line-up calls and Reveal.

Prints the time from frame to revealed cards and how many of the 30 dice were read right and
sure (the rest go to the players to confirm by touch). Run:
``.venv/bin/python -m benchmarks.occulites_lineups`` (as a module: benchmarks/vision.py would
shadow the vision package if run as a script)
"""

from __future__ import annotations

import random
import statistics
import time

import rules
from companion.games.occulites.adapter import read_lineups
from rules.occulites import TRIBES
from vision import read_dice, synthetic

PLAYERS = ("Ana", "Ben", "Cy", "Dee", "Eli")
TRIBE_OF = ("Palaudis", "Hydris", "Floris", "Ignis", "Nimbus")
DARK = {"green", "blue", "black", "red", "purple"}


def main(runs: int = 5, seed: int = 1) -> None:
    rng = random.Random(seed)
    truth = {p: [(TRIBES[t].colour, rng.randint(1, 6)) for _ in range(6)]
             for p, t in zip(PLAYERS, TRIBE_OF, strict=True)}
    dice = []
    for r, lineup in enumerate(truth.values()):
        for i, (colour, pips) in enumerate(lineup):
            dice.append(synthetic.SynthDie(
                center=(120.0 + 90 * i, 70.0 + 85 * r), size=50.0, angle=7.0 * i, value=pips,
                colour=colour, body_bgr=synthetic.SYNTH_COLOURS[colour],
                pip_bgr=(235, 235, 235) if colour in DARK else (30, 30, 30)))
    frame = synthetic.render(synthetic.Scene(width=800, height=480, dice=tuple(dice)))
    times, sure, sent, revealed = [], 0, 0, False
    for _ in range(runs):
        game = rules.new_game("occulites", list(PLAYERS), seed=2)
        for p, t in zip(PLAYERS, TRIBE_OF, strict=True):
            game.apply(f"{p}: Tribe {t}")
        t0 = time.perf_counter()
        reads = read_lineups(read_dice(frame), PLAYERS)
        sure = sent = 0
        for p, r in reads.items():
            sure += sum(not s.uncertain and (s.colour, s.pips) == truth[p][i]
                        for i, s in enumerate(r.slots))
            text = r.call_text()
            if r.complete and text is not None:
                game.apply(text)
                sent += 1
        revealed = len(game.state.lineups) == len(PLAYERS)
        if revealed:
            game.apply("Reveal")
        times.append(time.perf_counter() - t0)
    print(f"occulites line-ups: 5 players, 30 dice, 800x480 frame; read + adapter + calls"
          f"{' + reveal' if revealed else ''}: best {min(times) * 1000:.0f} ms, median "
          f"{statistics.median(times) * 1000:.0f} ms over {runs} runs")
    print(f"dice read right and sure: {sure}/30; line-ups sent at once: {sent}/5 "
          "(the others wait for the players to confirm their unsure dice)")


if __name__ == "__main__":
    main()
