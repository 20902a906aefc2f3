"""Benchmark: RollTracker on rendered video, read frame by frame by the real reader.

    .venv/bin/python benchmarks/rolls_rendered.py            # 40 rolls, 40 handling (~3 min)
    .venv/bin/python benchmarks/rolls_rendered.py --events 100 --seed 3
    .venv/bin/python benchmarks/rolls_rendered.py --reads-per-s 8   # the motion gate decides

``benchmarks/rolls.py`` measures the tracker on thousands of events at the level of readings,
with the reader's faults modelled; this one renders fewer events as frames
(``vision.synthetic``, 640x480, 15 frames a second) and reads each with ``read_dice``, so the
faults are the reader's own: dice thrown in (tumbling: their faces change, they turn and hop),
dice pushed aside, a die picked up under a hand and put down elsewhere, the camera bumped
(the view shifts, blurred for two frames), a hand reaching in. Every event is followed by a
quiet second; handling happens while a roll is expected (the harder case). With
``--reads-per-s N`` every frame's motion is measured (:class:`vision.motion.MotionMeter`) and
only the frames a :class:`vision.motion.ReadGate` (budget N) picks are read, as the app does;
the tracker gets every frame's motion.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import sys
import time
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vision import RollTracker, TrackerState, read_dice  # noqa: E402
from vision.motion import MotionMeter, ReadGate  # noqa: E402
from vision.synthetic import SynthDie, random_die, random_scene, render  # noqa: E402

FPS = 15.0
HANDLING = ("push", "pick-up-put-down", "camera-bump", "hand-reach")


class Table:
    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng
        self.base = random_scene(rng, n_dice=(0, 0), clutter=1)
        self.size = float(rng.uniform(38, 52))
        self.dice: list[SynthDie] = []
        self.frames: list[np.ndarray] = []

    def show(self, dice: list[SynthDie], n: int = 1, hand: tuple | None = None,
             shift: tuple[float, float] = (0.0, 0.0), blur: float = 0.0) -> None:
        sc = dataclasses.replace(self.base, dice=tuple(dice), hand=hand, blur=blur)
        for _ in range(n):
            img = render(sc, self.rng)
            if shift != (0.0, 0.0):
                m = np.float32([[1, 0, shift[0]], [0, 1, shift[1]]])
                img = cv2.warpAffine(img, m, (img.shape[1], img.shape[0]),
                                     borderMode=cv2.BORDER_REPLICATE)
            self.frames.append(img)

    def spot(self) -> tuple[float, float]:
        for _ in range(200):
            x, y = float(self.rng.uniform(80, 560)), float(self.rng.uniform(80, 400))
            if all(math.dist((x, y), d.center) > 1.8 * self.size for d in self.dice):
                return x, y
        return 320.0, 240.0

    def hand_at(self, x: float, y: float) -> tuple:
        w = self.size * 1.4
        return ((x - w, 480.0), (x - w, y + w * 0.3), (x - w * 0.4, y - w), (x + w * 0.6,
                y - w * 0.8), (x + w, y + w * 0.3), (x + w, 480.0))

    def throw(self) -> None:
        n = int(self.rng.integers(1, 4))
        new = [random_die(self.rng, self.spot(), self.size) for _ in range(n)]
        start = (float(self.rng.uniform(100, 540)), 500.0)
        frames = int(self.rng.integers(8, 16))
        for i in range(frames):
            u = (i + 1) / frames
            pos = 1 - (1 - u) ** 2
            moving = []
            for d in new:
                x = start[0] + (d.center[0] - start[0]) * pos
                y = start[1] + (d.center[1] - start[1]) * pos
                v = int(self.rng.integers(1, 7)) if u < 0.75 else d.value
                moving.append(dataclasses.replace(d, center=(x, y), value=v,
                                                  angle=d.angle + 40 * (1 - u) * i,
                                                  lift=0.3 * (1 - u)))
            self.show(self.dice + moving)
        self.dice += new

    def push(self) -> None:
        idx = [int(i) for i in self.rng.choice(len(self.dice),
                                               int(self.rng.integers(1, len(self.dice) + 1)),
                                               replace=False)]
        ang = float(self.rng.uniform(0, 2 * math.pi))
        dist = float(self.rng.uniform(1.5, 3.5)) * self.size
        dx, dy = dist * math.cos(ang), dist * math.sin(ang)
        frames = int(self.rng.integers(6, 14))
        for i in range(frames):
            u = (i + 1) / frames
            self.show([dataclasses.replace(d, center=(d.center[0] + dx * u, d.center[1] + dy * u))
                       if k in idx else d for k, d in enumerate(self.dice)])
        self.dice = [dataclasses.replace(d, center=(d.center[0] + dx, d.center[1] + dy))
                     if k in idx else d for k, d in enumerate(self.dice)]
        self.dice = [d for d in self.dice if 40 < d.center[0] < 600 and 40 < d.center[1] < 440]

    def pick_up_put_down(self) -> None:
        k = int(self.rng.integers(len(self.dice)))
        d = self.dice.pop(k)
        to = self.spot()
        for i in range(8):
            u = (i + 1) / 8
            x, y = d.center[0] + (to[0] - d.center[0]) * u, d.center[1] + (to[1] - d.center[1]) * u
            self.show(self.dice, hand=self.hand_at(x, y))
        self.dice.append(dataclasses.replace(d, center=to, value=int(self.rng.integers(1, 7))))

    def camera_bump(self) -> None:
        sx, sy = (float(v) for v in self.rng.uniform(-40, 40, 2))
        self.show(self.dice, shift=(sx, sy), blur=2.5)
        self.show(self.dice, shift=(-sx * 0.5, -sy * 0.5), blur=2.0)

    def hand_reach(self) -> None:
        x, y = self.spot()
        self.show(self.dice, n=int(self.rng.integers(5, 15)), hand=self.hand_at(x, y))


def _track(tr: RollTracker, frames: list[np.ndarray],
           reads_per_s: float | None) -> tuple[list[TrackerState], list[float]]:
    """Feed the frames to the tracker: each read by ``read_dice``, or (``reads_per_s``)
    each one's motion measured and only those the gate picks read. Returns the states and the
    times of the frames read."""
    meter = MotionMeter()
    gate = ReadGate(reads_per_s, settle_s=tr.settle_s) if reads_per_s else None
    states: list[TrackerState] = []
    read_at: list[float] = []
    for i, img in enumerate(frames):
        t = i / FPS
        level = meter.measure(img)
        if gate is None or gate.decide(t, level, settle_at=tr.settle_at):
            reading = read_dice(img)
            if reading.dice:
                meter.die_size = float(np.median([d.size for d in reading.dice]))
            states.append(tr.update(reading, t, motion=level if gate else None))
            read_at.append(t)
        else:
            states.append(tr.motion(t, level))
    return states, read_at


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--events", type=int, default=40, help="rolls, and as many handling events")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--old", action="store_true",
                    help="count every settle as a roll (what the tracker did before)")
    ap.add_argument("--reads-per-s", type=float, default=None, metavar="N",
                    help="read only the frames the motion gate picks, N a second at most "
                    "(default: every frame)")
    args = ap.parse_args()
    if args.reads_per_s is not None and not args.reads_per_s > 0:
        ap.error(f"--reads-per-s must be > 0, got {args.reads_per_s:g}")
    cv2.setNumThreads(1)
    rng = np.random.default_rng(args.seed)
    phantom: Counter[str] = Counter()
    count: Counter[str] = Counter()
    missed = rolls = frames = reads = busiest = 0
    t0 = time.perf_counter()
    while rolls < args.events:
        table = Table(rng)
        spans: list[tuple[str, int, int]] = []
        table.show([], 8)
        for k in range(8):
            start = len(table.frames)
            kind = "roll" if k % 2 == 0 or not table.dice else HANDLING[(k // 2) % 4]
            if kind == "roll":
                if len(table.dice) > 6:
                    table.dice = table.dice[:3]
                    table.show(table.dice, 8)
                    start = len(table.frames)
                table.throw()
            else:
                getattr(table, kind.replace("-", "_"))()
            table.show(table.dice, 15)  # a quiet second
            spans.append((kind, start, len(table.frames)))
        tr = RollTracker(settle_s=0.3, emit_initial=False, expect=("A",))
        states, read_at = _track(tr, table.frames, args.reads_per_s)
        at = [i for i, s in enumerate(states)
              if (s.settled if args.old else s.roll) is not None]
        frames += len(table.frames)
        reads += len(read_at)
        busiest = max(busiest, max(sum(1 for u in read_at if t <= u < t + 1.0) for t in read_at))
        for kind, a, b in spans:
            got = [i for i in at if a <= i < b]
            count[kind] += 1
            if kind == "roll":
                rolls += 1
                missed += len(got) != 1
            elif got:
                phantom[kind] += 1
    handling = sum(count[k] for k in HANDLING)
    rule = "every settle counted (the earlier rule)" if args.old else "expectation + evidence"
    if args.reads_per_s:
        rule += f", read by the motion gate (at most {args.reads_per_s:g} a second)"
    print(f"rendered roll tracking, seed {args.seed}, {rule}: {frames} frames, "
          f"{time.perf_counter() - t0:.0f} s")
    print(f"full reads: {reads} ({reads / frames:.0%} of the frames, at most {busiest} in any "
          "second)")
    print(f"phantom rolls: {sum(phantom.values())} in {handling} handling events  "
          + " ".join(f"{k} {phantom[k]}/{count[k]}" for k in HANDLING))
    print(f"missed rolls: {missed} in {rolls} real rolls")


if __name__ == "__main__":
    main()
