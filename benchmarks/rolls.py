"""Benchmark: phantom and missed rolls of ``vision.RollTracker`` on synthetic sequences.

Run from the repository root:

    .venv/bin/python benchmarks/rolls.py                    # 1000 rolls, 1000 handling events
    .venv/bin/python benchmarks/rolls.py --rolls 3000 --handling 3000 --seed 7
    .venv/bin/python benchmarks/rolls.py --old              # the same with the tracker's
                                                            # earlier rule (every settle a roll)
    .venv/bin/python benchmarks/rolls.py --reads-per-s 8    # the reader run only when the
                                                            # motion gate says, 8 a second at most

The sequences come from :mod:`vision.sequences` (seeded): table sessions of real rolls (dice
thrown in, re-rolls of picked-up dice, throws that knock a lying die) and handling (a die
picked up and put down, dice pushed, swept into a cup, stacked, the camera bumped, a hand
reaching in, a die turned by hand, a throw out of turn while no roll is expected), with the
reader's faults modelled. The game's expectation is given to the tracker frame by frame.
With ``--reads-per-s N`` a :class:`vision.motion.ReadGate` (budget N) decides from each frame's
motion level (the sequences' model of :class:`vision.motion.MotionMeter`) which frames are
read: the tracker gets those frames' readings, and the motion level of every frame
(``--no-motion``: the readings only, as a tracker without the motion signal would).

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
from vision.motion import ReadGate  # noqa: E402
from vision.sequences import HANDLING, ROLLS, sessions  # noqa: E402


def run(n_rolls: int, n_handling: int, seed: int, old: bool, verbose: bool,
        empty_tray: bool = False, reads_per_s: float | None = None,
        motion: bool = True) -> None:
    rng = np.random.default_rng(seed)
    phantom: Counter[str] = Counter()
    missed: Counter[str] = Counter()
    double: Counter[str] = Counter()
    count: Counter[str] = Counter()
    values_right = frames = reads = 0
    seconds = busiest = 0.0
    t0 = time.perf_counter()
    for si, ses in enumerate(sessions(rng, n_rolls, n_handling)):
        tr = RollTracker(settle_s=0.3, emit_initial=False, empty_tray=empty_tray)
        gate = ReadGate(reads_per_s, settle_s=0.3) if reads_per_s else None
        emitted: list[tuple[int, tuple[int, ...]]] = []
        read_at: list[float] = []
        for i, (reading, exp) in enumerate(zip(ses.readings, ses.expected, strict=True)):
            if not old:
                tr.expect(exp)
            t, level = i / ses.fps, ses.motion[i]
            if gate is None:
                s = tr.update(reading, t)
            elif gate.decide(t, level, settle_at=tr.settle_at):
                read_at.append(t)
                s = tr.update(reading, t, motion=level if motion else None)
            else:
                if motion:
                    tr.motion(t, level)
                continue
            out = s.roll if not old else None
            if old and s.settled is not None and len(s.settled.dice) >= 1:
                emitted.append((i, tuple(v for v in s.settled.values() if v is not None)))
            elif out is not None:
                emitted.append((i, tuple(sorted(d.value or 0 for d in out.dice))))
        frames += len(ses.readings)
        seconds += len(ses.readings) / ses.fps
        reads += len(read_at) if gate is not None else len(ses.readings)
        busiest = max(busiest, _busiest(read_at) if gate is not None else ses.fps)
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
    if reads_per_s:
        rule += f", read by the motion gate (at most {reads_per_s:g} a second" + \
            (", the tracker given every frame's motion)" if motion else
             ", the tracker given the readings only)")
    print(f"roll tracker, seed {seed}, {rule}: {frames} frames, {secs:.1f} s")
    print(f"full reads: {reads} ({reads / frames:.0%} of the frames; {reads / seconds:.1f} a "
          f"second on average over {seconds / 60:.0f} min of table time, at most {busiest:g} "
          "in any second)")
    print(f"phantom rolls: {sum(phantom.values())} in {handling} handling events  "
          + " ".join(f"{k} {phantom[k]}/{count[k]}" for k in HANDLING))
    print(f"missed rolls:  {sum(missed.values())} in {rolls} real rolls  "
          + " ".join(f"{k} {missed[k]}/{count[k]}" for k in ROLLS)
          + f"  (double {sum(double.values())})")
    if not old:
        print(f"rolled dice read right: {values_right} of {rolls} rolls "
              f"({values_right / max(1, rolls):.1%}; the rolled dice, every one, exactly)")


def _busiest(times: list[float]) -> int:
    """The most reads in any one second (a window [t, t + 1) starting at a read)."""
    most, j = 0, 0
    for i, t in enumerate(times):
        while times[j] <= t - 1.0:
            j += 1
        most = max(most, i - j + 1)
    return most


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
    ap.add_argument("--reads-per-s", type=float, default=None, metavar="N",
                    help="run the reader only when the motion gate says, N a second at most "
                    "(default: every frame)")
    ap.add_argument("--no-motion", action="store_true",
                    help="with --reads-per-s: give the tracker the readings only, not every "
                    "frame's motion level")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()
    if args.reads_per_s is not None and not args.reads_per_s > 0:
        ap.error(f"--reads-per-s must be > 0, got {args.reads_per_s:g}")
    run(args.rolls, args.handling, args.seed, args.old, args.verbose, args.empty_tray,
        args.reads_per_s, not args.no_motion)


if __name__ == "__main__":
    main()
