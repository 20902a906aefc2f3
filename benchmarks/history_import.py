"""Importing a big zip of game files: how long, and how long the data folder is locked.

Run: .venv/bin/python benchmarks/history_import.py [--games 300] [--rounds 2]

Builds a journal of ``--games`` games of the five games (random legal play, seed 11; not
measured), exports it as a zip, then imports the zip into fresh journals, interleaved A B A B
for ``--rounds`` rounds: A reads and replays in this process alone, B in one worker process per
core (what `companion history import` does). Figures: seconds to read and replay (the data
folder is not locked meanwhile), seconds to write (the only time it is locked), per game.
Issue 42 measured about 0.11 s a game with the lock held throughout (3,000 games did not finish
in 150 s; the cap of 20,000 would hold the folder for about 37 minutes).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from companion.history import History, export, importing  # noqa: E402
from companion.history.sample import game_night  # noqa: E402
from companion.journal import Journal  # noqa: E402


def build(folder: Path, games: int) -> Path:
    source = folder / "source.sqlite3"
    with Journal(source) as journal:
        journal.db.execute("PRAGMA synchronous=OFF")  # the set-up: no need to fsync
        game_night(journal, per_game=max(1, games // 5), seed=11, unfinished=0)
    archive = folder / "games.zip"
    with History(source) as history:
        history.refresh()
        export.export_file(history, list(reversed(history.games())), "zip", archive)
    return archive


def one(archive: Path, folder: Path, workers: int) -> tuple[float, float, int]:
    target = folder / f"import-{time.monotonic_ns()}.sqlite3"
    with History(target) as history:
        start = time.monotonic()
        prepared = importing.prepare_paths(history, [archive], workers=workers)
        read = time.monotonic() - start
        start = time.monotonic()
        results = importing.write_prepared(history, prepared)
        write = time.monotonic() - start
    return read, write, sum(r.game_id is not None for r in results)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--rounds", type=int, default=2)
    args = ap.parse_args()
    cores = os.cpu_count() or 1
    with tempfile.TemporaryDirectory(prefix="import-bench-") as tmp_name:
        tmp = Path(tmp_name)
        archive = build(tmp, args.games)
        figures: dict[str, list[tuple[float, float, int]]] = {"one process": [],
                                                              f"{cores} workers": []}
        for _ in range(args.rounds):
            for label, workers in (("one process", 1), (f"{cores} workers", cores)):
                read, write, added = one(archive, tmp, workers)
                figures[label].append((read, write, added))
                print(f"  {label}: read {read:.1f} s, write {write:.2f} s, {added} games",
                      flush=True)
        for label, runs in figures.items():
            added = runs[0][2]
            read = statistics.median(r for r, _, _ in runs)
            write = statistics.median(w for _, w, _ in runs)
            print(f"{label}: {added} games, read and replayed in {read:.1f} s "
                  f"({read / added * 1000:.0f} ms a game, the data folder free), written in "
                  f"{write:.2f} s ({write / added * 1000:.1f} ms a game, the folder locked); "
                  f"median of {len(runs)}")


if __name__ == "__main__":
    main()
