"""Benchmark of calibration on synthetic trays: table homography, palette, icon-face sets.

Run from the repository root (about a minute on one core):

    .venv/bin/python benchmarks/calibration_bench.py
    .venv/bin/python benchmarks/calibration_bench.py --only faces

Figures printed:

- table: over 30 trays seen through random perspectives, the homography's reprojection error
  on the 16 marker corners (RMS and worst) and the worst distance, in image pixels, between
  where the calibration and the true perspective put a 7x7 grid over the tray; the error of
  the measured tray size;
- palette: learned from 5 dice per colour of the nine rulebook colours, the share of unseen
  dice named right with the light changed by 0.7..1.3 (measured on the die crops calibration
  and vision cut out; and end to end through read_dice, which also counts its crop mistakes);
- faces: learned from 10 captures per face, the share of unseen dice (random turns, light
  0.7..1.3) named right, on trays without touching dice and on busy trays (touching dice,
  clutter), the dice given a wrong name (the rest of the misses are "unknown"), the
  cross-validated accuracy calibration reports before saving, and the time to name one die;
- icons: end to end through read_dice (die finding included), a face set learned from 12
  rendered examples per face reading 300 dice of random trays: the same figure as
  ``benchmarks/vision.py --only synthetic`` prints for icons (seed 2026).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "calibration"))

from calib_synth import (
    MARKER_MM,
    TRAY_MM,
    colour_samples,
    face_samples,
    mm_to_plane,
    perspective,
    relit,
    tray_frame,
)

from calibration import faces as F
from calibration import palette as P
from calibration.images import die_crops, nearest
from calibration.table import from_markers, ground_error
from vision.profile import Profile
from vision.read import read_dice
from vision.synthetic import ICON_SETS, random_scene, render


def bench_table(n: int = 30) -> None:
    rms, worst, ground, size = [], [], [], []
    for seed in range(n):
        rng = np.random.default_rng(seed)
        sc = random_scene(rng, width=640, height=480, n_dice=(0, 4), clutter=0, noise=2.0)
        hom = perspective(rng, 640, 480, 0.15)
        cal = from_markers(tray_frame(sc, hom, rng), MARKER_MM)
        assert cal.reprojection_px is not None and cal.max_reprojection_px is not None
        assert cal.tray_mm is not None
        rms.append(cal.reprojection_px)
        worst.append(cal.max_reprojection_px)
        ground.append(ground_error(cal, hom @ mm_to_plane(), TRAY_MM))
        size.append(max(abs(cal.tray_mm[0] / TRAY_MM[0] - 1), abs(cal.tray_mm[1] / TRAY_MM[1] - 1)))
    print(f"table ({n} trays, perspective 0.15): reprojection RMS mean {np.mean(rms):.3f} px, "
          f"max {max(rms):.3f} px; worst corner {max(worst):.3f} px; "
          f"ground-truth grid error max {max(ground):.3f} px; tray size error max "
          f"{max(size):.2%}")


def bench_palette(seeds: int = 4, scenes: int = 45) -> None:
    right = total = right_e2e = total_e2e = 0
    conf: dict[tuple[str, str | None], int] = {}
    for seed in range(seeds):
        rng = np.random.default_rng(seed)
        _stats, pal = P.learn(colour_samples(rng, P.RULEBOOK_COLOURS, 5))
        prof = Profile(palette=pal)
        for i in range(scenes):
            sc = random_scene(rng, n_dice=(4, 8), colours=P.RULEBOOK_COLOURS, clutter=1)
            factor = (0.7, 1.3)[i % 2] if i % 3 == 0 else float(rng.uniform(0.7, 1.3))
            img = relit(render(sc, rng), factor)
            found = die_crops(img)
            centres = [d.center for d in found]
            reading = read_dice(img, prof)
            rc = [d.center for d in reading.dice]
            for t in sc.truth():
                if not t.readable:
                    continue
                j = nearest(centres, t.center, t.size / 3)
                if j is not None:
                    got, _ = pal.classify_lab(P.body_lab(found[j].crop))
                    total += 1
                    right += got == t.colour
                    if got != t.colour:
                        conf[(t.colour, got)] = conf.get((t.colour, got), 0) + 1
                k = nearest(rc, t.center, t.size / 3)
                if k is not None:
                    total_e2e += 1
                    right_e2e += reading.dice[k].colour == t.colour
    print(f"palette (5 dice per colour, 9 colours, light 0.7..1.3, {seeds} palettes): "
          f"{right}/{total} = {right / total:.2%} on die crops; end to end through read_dice "
          f"{right_e2e}/{total_e2e} = {right_e2e / total_e2e:.2%}")
    if conf:
        print("  confusions: " + ", ".join(f"{a}->{b} {n}" for (a, b), n in
                                           sorted(conf.items(), key=lambda v: -v[1])))


def bench_faces(per_face: int = 10, scenes: int = 60, seeds: int = 1) -> None:
    """``seeds`` > 1 repeats everything (captures, set, trays) with seeds 5, 6, ... and sums."""
    for game in ("eye-for-an-eye", "dice-forge"):
        labels = ICON_SETS[game]
        cv_right = cv_tested = 0
        counts = {False: [0, 0, 0, 0.0], True: [0, 0, 0, 0.0]}
        for seed in range(5, 5 + seeds):
            rng = np.random.default_rng(seed)
            samples = face_samples(rng, labels, per_face, game)
            cv = F.cross_validate(samples)
            cv_right += round(cv.accuracy * cv.tested)
            cv_tested += cv.tested
            fs = F.learn(samples, game)
            for busy in (False, True):
                _faces_on_trays(fs, game, rng, scenes, busy, counts[busy])
        for busy in (False, True):
            right, total, wrong, spent = counts[busy]
            kind = "busy trays" if busy else "separate dice"
            print(f"faces {game} ({len(labels)} faces, {per_face} captures each, {seeds} "
                  f"set(s)), {kind}: {right}/{total} = {right / total:.2%}, wrong name "
                  f"{wrong}, {1000 * spent / total:.2f} ms/die"
                  + ("" if busy else f"; cross-validated {cv_right / cv_tested:.2%} "
                                     f"({cv_tested} crops)"))


def _faces_on_trays(fs: Any, game: str, rng: np.random.Generator, scenes: int, busy: bool,
                    counts: list[Any]) -> None:
    """Add (right, total, wrong name, seconds) of ``fs`` on ``scenes`` unseen trays."""
    right = total = wrong = 0
    spent = 0.0
    for _ in range(scenes):
        sc = random_scene(rng, n_dice=(3, 7), icon_set=game, clutter=2 if busy else 0,
                          touching=0.25 if busy else 0.0)
        img = relit(render(sc, rng), float(rng.uniform(0.7, 1.3)))
        found = die_crops(img)
        centres = [d.center for d in found]
        for t in sc.truth():
            j = nearest(centres, t.center, t.size / 3) if t.readable else None
            if j is None:
                continue
            total += 1
            t0 = time.perf_counter()
            got = fs.classify(found[j].crop)[0]
            spent += time.perf_counter() - t0
            right += got == t.face
            wrong += got is not None and got != t.face
    for i, v in enumerate((right, total, wrong, spent)):
        counts[i] += v


def bench_icons(seed: int = 2026, n_dice: int = 300) -> None:
    from vision.faces import icon_accuracy

    for name in ICON_SETS:
        acc, n = icon_accuracy(name, np.random.default_rng(seed + 1), n_dice)
        print(f"icons end to end through read_dice, {name}: {n} dice, face right {acc:.1%}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", choices=("table", "palette", "faces", "icons"))
    ap.add_argument("--seeds", type=int, default=1,
                    help="faces: repeat with this many seeds (captures, set and trays)")
    args = ap.parse_args()
    t0 = time.perf_counter()
    if args.only in (None, "table"):
        bench_table()
    if args.only in (None, "palette"):
        bench_palette()
    if args.only in (None, "faces"):
        bench_faces(seeds=args.seeds)
    if args.only in (None, "icons"):
        bench_icons()
    print(f"({time.perf_counter() - t0:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
