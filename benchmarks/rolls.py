"""Benchmark: phantom and missed rolls of ``vision.RollTracker`` on synthetic sequences.

Run from the repository root:

    .venv/bin/python benchmarks/rolls.py                    # 1000 rolls, 1000 handling events
    .venv/bin/python benchmarks/rolls.py --rolls 3000 --handling 3000 --seed 7
    .venv/bin/python benchmarks/rolls.py --old              # the same with the tracker's
                                                            # earlier rule (every settle a roll)

The sequences come from :mod:`vision.sequences` (seeded): table sessions of real rolls (dice
thrown in, re-rolls of picked-up dice, throws that knock a lying die) and handling (a die
picked up and put down, dice pushed, swept into a cup, stacked, the camera bumped, a hand
reaching in, a die turned by hand, a throw out of turn while no roll is expected), with the
reader's faults modelled. The game's expectation is given to the tracker frame by frame.

Counted per event (its frames, quiet spell included):
- phantom: a handling event during which a roll was emitted;
- missed: a real roll during which none was; double: more than one;
- values right: real rolls whose emitted rolled dice have exactly the thrown values.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vision import RollTracker  # noqa: E402
from vision.sequences import HANDLING, ROLLS, sessions  # noqa: E402


def run(n_rolls: int, n_handling: int, seed: int, old: bool, verbose: bool,
        empty_tray: bool = False) -> None:
    rng = np.random.default_rng(seed)
    phantom: Counter[str] = Counter()
    missed: Counter[str] = Counter()
    double: Counter[str] = Counter()
    count: Counter[str] = Counter()
    values_right = frames = 0
    t0 = time.perf_counter()
    for si, ses in enumerate(sessions(rng, n_rolls, n_handling)):
        tr = RollTracker(settle_s=0.3, emit_initial=False, empty_tray=empty_tray)
        emitted: list[tuple[int, tuple[int, ...]]] = []
        for i, (reading, exp) in enumerate(zip(ses.readings, ses.expected, strict=True)):
            if not old:
                tr.expect(exp)
            s = tr.update(reading, i / ses.fps)
            out = s.roll if not old else None
            if old and s.settled is not None and len(s.settled.dice) >= 1:
                emitted.append((i, tuple(v for v in s.settled.values() if v is not None)))
            elif out is not None:
                emitted.append((i, tuple(sorted(d.value or 0 for d in out.dice))))
        frames += len(ses.readings)
        for ev in ses.events:
            got = [v for i, v in emitted if ev.start <= i < ev.end]
            count[ev.kind] += 1
            if ev.is_roll:
                if not got:
                    missed[ev.kind] += 1
                    if verbose:
                        print(f"  session {si}: missed {ev.kind} at frame {ev.start}")
                elif len(got) > 1:
                    double[ev.kind] += 1
                if got and got[0] == tuple(sorted(ev.rolled)):
                    values_right += 1
            elif got:
                phantom[ev.kind] += 1
                if verbose:
                    print(f"  session {si}: phantom on {ev.kind} at frame {ev.start}")
    secs = time.perf_counter() - t0
    rolls = sum(count[k] for k in ROLLS)
    handling = sum(count[k] for k in HANDLING)
    rule = "every settle counted (the earlier rule)" if old else \
        "expectation + roll evidence" + (", empty_tray=True" if empty_tray else "")
    print(f"roll tracker, seed {seed}, {rule}: {frames} frames, {secs:.1f} s")
    print(f"phantom rolls: {sum(phantom.values())} in {handling} handling events  "
          + " ".join(f"{k} {phantom[k]}/{count[k]}" for k in HANDLING))
    print(f"missed rolls:  {sum(missed.values())} in {rolls} real rolls  "
          + " ".join(f"{k} {missed[k]}/{count[k]}" for k in ROLLS)
          + f"  (double {sum(double.values())})")
    if not old:
        print(f"rolled dice read right: {values_right} of {rolls} rolls "
              f"({values_right / max(1, rolls):.1%}; the rolled dice, every one, exactly)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--rolls", type=int, default=1000)
    ap.add_argument("--handling", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--old", action="store_true",
                    help="count every settle as a roll (what the tracker did before)")
    ap.add_argument("--empty-tray", action="store_true",
                    help="RollTracker(empty_tray=True): dice appearing after the tray was "
                    "seen empty are a roll without being seen rolling")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()
    run(args.rolls, args.handling, args.seed, args.old, args.verbose, args.empty_tray)


if __name__ == "__main__":
    main()
