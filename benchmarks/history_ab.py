"""The history's costs in two checkouts side by side: this one's and another's, interleaved.

Run from the repository root, with a journal that benchmarks/history.py built and kept:

    .venv/bin/python benchmarks/history.py --games 10000 --rolls 1000 --keep /tmp/h10k.sqlite3
    git worktree add --detach /tmp/old-history <commit>        # the version to compare with
    .venv/bin/python benchmarks/history_ab.py --other /tmp/old-history --journal /tmp/h10k.sqlite3

Each task runs in a fresh process per checkout, in turn (A B, then B A, ...), each on its own
copy of the journal (the statistics one keeps are not the other's), and the CPU seconds of
the whole process are taken from the system's own accounting (imports included: what a
``companion history`` command or a first History screen costs). The machine is shared, so
the figures printed are the medians of the runs, with the A/B ratio taken run by run.

Tasks: ``page`` (20 pages of 10 games, as the History list shows them), ``stats`` (player and
game statistics worked out from scratch), ``bgstats`` (the BG Stats export of every play).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

WORKER = r"""
import sys
repo, journal, task = sys.argv[1], sys.argv[2], sys.argv[3]
sys.path.insert(0, repo)
from companion.history import History
from companion.history import bgstats
from companion.history.stats import compute_statistics
with History(journal) as history:
    history.refresh()
    if task == "page":
        for _ in range(20):
            history.games(limit=10)
    elif task == "stats":
        compute_statistics(history)
    else:
        bgstats.bgstats_export(history.games())
"""
TASKS = ("page", "stats", "bgstats")


def cpu_seconds(repo: Path, journal: Path, task: str) -> float:
    """One fresh process running ``task`` with ``repo``'s code: its user + system seconds."""
    proc = subprocess.Popen([sys.executable, "-c", WORKER, str(repo), str(journal), task],
                            cwd=repo)
    _pid, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit(f"history_ab: {task} failed in {repo} (exit {proc.returncode})")
    return float(usage.ru_utime + usage.ru_stime)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--other", type=Path, required=True, help="the checkout to compare with")
    parser.add_argument("--journal", type=Path, required=True,
                        help="a journal benchmarks/history.py kept (--keep)")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--tasks", nargs="+", choices=TASKS, default=list(TASKS))
    args = parser.parse_args()
    if not args.journal.is_file():
        parser.error(f"--journal {args.journal}: no such file (build one with "
                     "benchmarks/history.py --keep FILE)")
    with tempfile.TemporaryDirectory(prefix="history-ab-") as tmp:
        copies = {}
        for side in ("A", "B"):  # each side's statistics and index kept in its own copy
            copies[side] = Path(tmp) / f"{side}.sqlite3"
            shutil.copy(args.journal, copies[side])
        repos = {"A": ROOT, "B": args.other.resolve()}
        print(f"A: {repos['A']}\nB: {repos['B']}\n{args.runs} runs each, interleaved; "
              "CPU seconds of the whole process (median; A/B run by run)")
        for task in args.tasks:
            for side in ("A", "B"):  # a first run each, not counted (files into the cache)
                cpu_seconds(repos[side], copies[side], task)
            times: dict[str, list[float]] = {"A": [], "B": []}
            for run in range(args.runs):
                order = ("A", "B") if run % 2 == 0 else ("B", "A")
                for side in order:
                    times[side].append(cpu_seconds(repos[side], copies[side], task))
            ratios = [a / b for a, b in zip(times["A"], times["B"], strict=True)]
            print(f"  {task:8s} A {statistics.median(times['A']):.3f} s  "
                  f"B {statistics.median(times['B']):.3f} s  "
                  f"A/B {statistics.median(ratios):.2f} ({min(ratios):.2f}-{max(ratios):.2f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
