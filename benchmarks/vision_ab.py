"""Speed of two dice readers side by side: this checkout's and another's, interleaved.

Run from the repository root:

    git worktree add --detach /tmp/old-reader <commit>       # the reader to compare with
    .venv/bin/python benchmarks/vision_ab.py --other /tmp/old-reader --rounds 6

Each round starts one process per reader, in turn (A B, then B A, ...), and each process reads
the same seeded frames (made by *this* checkout's renderer and handed over as PNG files, so both
readers see exactly the same pixels) at one OpenCV thread, best of 3 per frame, and reports its
CPU milliseconds per frame. The machine is shared, so the figures printed are the medians over
rounds, with the A/B ratio taken round by round (the drift of a busy machine cancels out).

Frame sets: 640x640 ordinary tables (4-12 dice of 34-56 px), 640x640 crowded trays (20-30 dice
on felt, cloth or a mat), 640x640 photos of small dice on a board game (6-10 dice of 14-26 px),
1920x1080 frames of an angled webcam over a wooden table (3-10 dice of 40-70 px, 20-40 degrees).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]

WORKER = r"""
import json, sys, time
from pathlib import Path
import cv2
repo, folder = sys.argv[1], Path(sys.argv[2])
sys.path.insert(0, repo)
from vision import read_dice
cv2.setNumThreads(1)
out = {}
for d in sorted(p for p in folder.iterdir() if p.is_dir()):
    frames = [cv2.imread(str(f)) for f in sorted(d.glob("*.png"))]
    for f in frames[:2]:
        read_dice(f)
    per = []
    for f in frames:
        best = 1e9
        for _ in range(3):
            t = time.process_time()
            read_dice(f)
            best = min(best, time.process_time() - t)
        per.append(best * 1000)
    out[d.name] = sum(per) / len(per)
print(json.dumps(out))
"""


def make_frames(folder: Path, n: int) -> None:
    sys.path.insert(0, str(ROOT))
    from vision.synthetic import random_scene, render

    rng = np.random.default_rng(7)
    sets = {
        "1-ordinary": lambda: random_scene(rng, width=640, height=640, n_dice=(4, 12)),
        "2-crowded": lambda: random_scene(rng, width=640, height=640, n_dice=(20, 30),
                                          die_size=(30.0, 44.0), touching=0.4, surface="any",
                                          tray=1.0),
        "3-small-on-board": lambda: random_scene(rng, width=640, height=640, n_dice=(6, 10),
                                                 die_size=(14.0, 26.0), board=1.0,
                                                 surface="plain"),
        # an angled 1080p webcam over a wooden table: dice of 40-70 px, 20-40 degrees
        "4-webcam-1080p": lambda: random_scene(rng, width=1920, height=1080, n_dice=(3, 10),
                                               die_size=(40.0, 70.0), surface="wood",
                                               tilt=(20.0, 40.0)),
    }
    for name, make in sets.items():
        d = folder / name
        d.mkdir(parents=True)
        for i in range(n):
            cv2.imwrite(str(d / f"{i:02d}.png"), render(make(), rng))


def run(repo: Path, folder: Path) -> dict[str, float]:
    py = ROOT / ".venv" / "bin" / "python"
    out = subprocess.run([str(py), "-c", WORKER, str(repo), str(folder)], check=True,
                         capture_output=True, text=True, timeout=900)
    result: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--other", type=Path, required=True, help="a checkout of the other reader (B)")
    ap.add_argument("--rounds", type=int, default=6)
    ap.add_argument("--frames", type=int, default=10, help="frames per set")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        make_frames(folder, args.frames)
        a_runs: list[dict[str, float]] = []
        b_runs: list[dict[str, float]] = []
        for r in range(args.rounds):
            if r % 2 == 0:
                a_runs.append(run(ROOT, folder))
                b_runs.append(run(args.other, folder))
            else:
                b_runs.append(run(args.other, folder))
                a_runs.append(run(ROOT, folder))
        print(f"A = {ROOT}, B = {args.other}; {args.rounds} rounds, {args.frames} frames a set, "
              "CPU ms per read_dice at one thread (best of 3 per frame, mean over frames; "
              "median over rounds)")
        for name in sorted(a_runs[0]):
            a = [x[name] for x in a_runs]
            b = [x[name] for x in b_runs]
            ratio = [x / y for x, y in zip(a, b, strict=True)]
            print(f"{name[2:]:18s} A {np.median(a):6.1f} ms (min {min(a):5.1f})   "
                  f"B {np.median(b):6.1f} ms (min {min(b):5.1f})   A/B {np.median(ratio):.2f}")


if __name__ == "__main__":
    main()
