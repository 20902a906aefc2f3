"""Draw the history's charts from a made-up club, for docs/history.md.

Run: .venv/bin/python scripts/history_charts.py [--output docs/screenshots]

The club plays 4 games of each game at random (companion.history.sample) and rolls 2,400 red
and 2,400 white dice through the roll log: the white ones fair, the red ones 20% heavy on six.
Each chart is what `companion stats --chart KIND` writes, 800x480.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.history import (
    History,
    Roll,
    RolledDie,
    RollLog,
    assess_counts,
    charts,
    statistics,
)
from companion.history.fairness import loaded_die
from companion.history.sample import game_night
from companion.journal import Journal


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--output", type=Path, default=Path("docs/screenshots"))
    args = parser.parse_args()
    path = Path(tempfile.mkdtemp(prefix="history-charts-")) / "journal.sqlite3"
    with Journal(path) as journal:
        journal.db.execute("PRAGMA synchronous=OFF")
        game_night(journal, per_game=4, seed=7, unfinished=1)
    rng = np.random.default_rng(7)
    rolls = []
    for colour, probabilities in (("white", [1 / 6] * 6), ("red", loaded_die(6, 0.2))):
        faces = rng.choice(6, size=2_400, p=probabilities) + 1
        confidence = rng.uniform(0.45, 0.99, size=2_400)
        for face, c in zip(faces, confidence, strict=True):
            rolls.append(Roll((RolledDie(str(face), colour, float(c)),), game_id=1))
    with RollLog(path) as log:
        log.record_many(rolls)
        verdicts = assess_counts(log.counts())
    args.output.mkdir(parents=True, exist_ok=True)
    with History(path) as history:
        history.refresh()
        stats = statistics(history)
        pictures = {
            "wins": charts.wins_chart(stats.players),
            "scores": charts.scores_chart(history.games(game="dice-forge")),
            "lengths": charts.lengths_chart(stats.games),
            "roles": charts.roles_chart(stats.game("eye-for-an-eye")),  # type: ignore[arg-type]
            "cards": charts.roles_chart(stats.game("dice-forge")),  # type: ignore[arg-type]
        }
    for v in verdicts:
        pictures[f"dice-{v.label.split()[1]}"] = charts.dice_chart(v)
    for name, png in pictures.items():
        out = args.output / f"history-chart-{name}.png"
        out.write_bytes(png)
        print(out)


if __name__ == "__main__":
    main()
