"""Benchmark: the motion measure (``vision.motion.MotionMeter``): its cost per frame and what it
sees.

    .venv/bin/python benchmarks/motion.py                 # 640x640, 300 frames, one thread
    .venv/bin/python benchmarks/motion.py --size 1280x720 --frames 100

Cost: rendered table frames (``vision.synthetic.random_scene``, sensor noise on), each measured
against the one before at one OpenCV thread (as on a Pi's one core for vision); wall time and
this process's CPU time per frame, with ``read_dice`` on some of the same frames for scale
(the issue's target: <= 2 ms a 640x640 frame). What it sees: the level (die areas changed)
between two renders of the same still scene (sensor noise only, at several noise levels and a
change of exposure) against the level when one die moves by a quarter, a half and a whole of
its size; :data:`vision.motion.MOVING` lies between.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import time
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vision import read_dice  # noqa: E402
from vision.motion import MOVING, MotionMeter  # noqa: E402
from vision.synthetic import random_scene, render  # noqa: E402


def cost(width: int, height: int, n: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    frames = [render(random_scene(rng, width=width, height=height), rng)
              for _ in range(min(n, 60))]
    frames = [frames[i % len(frames)] for i in range(n)]
    meter = MotionMeter()
    meter.measure(frames[-1])
    wall, cpu = [], []
    for f in frames:
        w0, c0 = time.perf_counter(), time.process_time()
        meter.measure(f)
        cpu.append(time.process_time() - c0)
        wall.append(time.perf_counter() - w0)
    some = frames[:20]
    r_wall, r_cpu = [], []
    for f in some:
        w0, c0 = time.perf_counter(), time.process_time()
        read_dice(f)
        r_cpu.append(time.process_time() - c0)
        r_wall.append(time.perf_counter() - w0)
    ms = 1000.0
    print(f"motion measure, {width}x{height}, {n} frames, one OpenCV thread: "
          f"mean {np.mean(wall) * ms:.2f} ms wall, {np.mean(cpu) * ms:.2f} ms CPU; "
          f"median {np.median(wall) * ms:.2f} ms, 95th percentile "
          f"{np.percentile(wall, 95) * ms:.2f} ms wall")
    print(f"read_dice on {len(some)} of the same frames: mean {np.mean(r_wall) * ms:.1f} ms wall, "
          f"{np.mean(r_cpu) * ms:.1f} ms CPU")


def sees(seed: int) -> None:
    rng = np.random.default_rng(seed)
    print(f"what it sees (level: die areas changed; MOVING = {MOVING}):")
    noise_max = 0.0
    move_min = {0.25: np.inf, 0.5: np.inf, 1.0: np.inf}
    for _ in range(20):
        scene = random_scene(rng, width=640, height=480, n_dice=(1, 6))
        for noise in (2.0, 5.0, 8.0):
            sc = dataclasses.replace(scene, noise=noise)
            meter = MotionMeter(die_size=float(np.median([d.size for d in sc.dice])))
            meter.measure(render(sc, rng))
            noise_max = max(noise_max, meter.measure(render(sc, rng)))
            brighter = cv2.convertScaleAbs(render(sc, rng), alpha=1.0, beta=12)  # exposure
            noise_max = max(noise_max, meter.measure(brighter))
        d = scene.dice[0]
        for frac in move_min:
            moved = dataclasses.replace(d, center=(d.center[0] + frac * d.size, d.center[1]))
            sc = dataclasses.replace(scene, noise=5.0)
            meter = MotionMeter(die_size=float(np.median([e.size for e in sc.dice])))
            meter.measure(render(sc, rng))
            level = meter.measure(render(dataclasses.replace(sc, dice=(moved, *sc.dice[1:])),
                                         rng))
            move_min[frac] = min(move_min[frac], level)
    print(f"  still scenes, sensor noise sd 2-8 and an exposure step of +12: at most "
          f"{noise_max:.3f}")
    for frac, level in move_min.items():
        print(f"  one die moved by {frac:g} of its size: at least {level:.2f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--size", default="640x640", help="frame size WxH (default 640x640)")
    ap.add_argument("--frames", type=int, default=300)
    ap.add_argument("--seed", type=int, default=2026)
    args = ap.parse_args()
    try:
        width, height = (int(v) for v in args.size.lower().split("x"))
    except ValueError:
        ap.error(f"--size must be WxH, e.g. 640x640, got {args.size!r}")
    if width < 16 or height < 16 or args.frames < 1:
        ap.error("--size must be at least 16x16 and --frames at least 1")
    cv2.setNumThreads(1)
    cost(width, height, args.frames, args.seed)
    sees(args.seed)


if __name__ == "__main__":
    main()
