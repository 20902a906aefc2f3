"""Benchmark of dice reading: accuracy on the shared real photos and on synthetic scenes, speed.

Run from the repository root:

    .venv/bin/python benchmarks/vision.py                 # everything
    .venv/bin/python benchmarks/vision.py --only real     # real photos only
    .venv/bin/python benchmarks/vision.py --split all     # score every photo, not only held-out

Real photos: ``../shared/data/dice-photos`` (YOLO labels, value = class + 1). A prediction
matches a label when its centre lies within 0.75 of the label box's larger side of the box
centre (matteop65 boxes cover only the pip pattern, so the die centre sits near the box centre).
Reported per data set:

- value accuracy = labelled dice read with the right value / labelled dice;
- recall = labelled dice found at all / labelled dice;
- precision = reported dice that match a labelled die / reported dice;
- confident-wrong = dice read with a wrong value at confidence >= 0.5.

Parameters were tuned on the ``dev`` split (photos whose sorted index % 3 != 0); the figures
that count are those of the ``held-out`` split (index % 3 == 0), never looked at while tuning.
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vision import read_dice  # noqa: E402
from vision.synthetic import ICON_SETS, random_scene, render  # noqa: E402

DATA = ROOT.parent / "shared" / "data" / "dice-photos"
if not DATA.exists():
    DATA = Path("/work/shared/data/dice-photos")


@dataclass
class Score:
    labelled: int = 0
    found: int = 0
    correct: int = 0
    reported: int = 0
    true_reports: int = 0
    confident_wrong: int = 0
    uncertain: int = 0
    ms: float = 0.0
    frames: int = 0

    def line(self, name: str) -> str:
        acc = self.correct / max(1, self.labelled)
        rec = self.found / max(1, self.labelled)
        prec = self.true_reports / max(1, self.reported)
        return (f"{name:28s} dice {self.labelled:5d}  value-acc {acc:6.1%}  recall {rec:6.1%}  "
                f"precision {prec:6.1%}  uncertain {self.uncertain:3d}  "
                f"confident-wrong {self.confident_wrong:3d}  {self.ms / max(1, self.frames):5.1f} "
                f"ms/frame")


def load_labels(txt: Path, w: int, h: int) -> list[tuple[int, float, float, float]]:
    out = []
    for line in txt.read_text().split("\n"):
        parts = line.split()
        if len(parts) != 5:
            continue
        c, cx, cy, bw, bh = (float(v) for v in parts)
        out.append((int(c) + 1, cx * w, cy * h, max(bw * w, bh * h)))
    return out


def split_of(i: int) -> str:
    return "held-out" if i % 3 == 0 else "dev"


def in_split(i: int, split: str) -> bool:
    """``val`` is the part of ``dev`` the CNNs were not trained on (thresholds are set there)."""
    if split == "all":
        return True
    if split == "val":
        return i % 9 == 1
    return split_of(i) == split


def score_image(img: np.ndarray, labels: list[tuple[int, float, float, float]],
                s: Score, verbose: bool = False, name: str = "") -> None:
    t = time.perf_counter()
    reading = read_dice(img)
    s.ms += (time.perf_counter() - t) * 1000
    s.frames += 1
    s.labelled += len(labels)
    s.reported += len(reading.dice)
    used: set[int] = set()
    pairs = []
    for di, d in enumerate(reading.dice):
        for li, (_v, cx, cy, side) in enumerate(labels):
            dist = float(np.hypot(d.center[0] - cx, d.center[1] - cy))
            if dist < 0.75 * side:
                pairs.append((dist, di, li))
    pairs.sort()
    matched_d: set[int] = set()
    for _dist, di, li in pairs:
        if di in matched_d or li in used:
            continue
        matched_d.add(di)
        used.add(li)
        d = reading.dice[di]
        v = labels[li][0]
        s.found += 1
        if d.value == v:
            s.correct += 1
        elif d.value is None:
            s.uncertain += 1
        elif d.confidence >= 0.5:
            s.confident_wrong += 1
        if verbose and d.value != v:
            print(f"  {name}: die at {d.center[0]:.0f},{d.center[1]:.0f} read {d.value} "
                  f"(conf {d.confidence:.2f}) label {v}")
    s.true_reports += len(matched_d)
    if verbose:
        for li, (v, cx, cy, _side) in enumerate(labels):
            if li not in used:
                print(f"  {name}: missed die {v} at {cx:.0f},{cy:.0f}")
        for di, d in enumerate(reading.dice):
            if di not in matched_d:
                print(f"  {name}: extra die at {d.center[0]:.0f},{d.center[1]:.0f} "
                      f"value {d.value} conf {d.confidence:.2f}")


def bench_real(split: str, verbose: bool) -> None:
    if not DATA.exists():
        print(f"no real photos at {DATA}; skipped")
        return
    for folder in ("byler-train", "matteop65-train"):
        scores = {"dev": Score(), "held-out": Score()}
        for i, jpg in enumerate(sorted((DATA / folder).glob("*.jpg"))):
            sp = split_of(i)
            if not in_split(i, split):
                continue
            img = cv2.imread(str(jpg))
            if img is None:
                continue
            labels = load_labels(jpg.with_suffix(".txt"), img.shape[1], img.shape[0])
            score_image(img, labels, scores[sp], verbose, jpg.name)
        for sp, sc in scores.items():
            if sc.frames:
                print(sc.line(f"{folder} [{sp}]"))


def bench_folds(folder_of_folds: Path, verbose: bool) -> None:
    """k-fold figures: each photo read by the models trained without its third.

    ``folder_of_folds`` holds ``f0/``, ``f1/``, ``f2/``, each with ``dice_det.onnx`` and
    ``dice_cls.onnx`` trained by ``scripts/vision_train_cnn.py --holdout K --train-val``; the
    photo with sorted index i is read by the models of fold ``i % 3``, which never saw it.
    """
    import vision.read as read_mod
    from vision.cnn import Nets

    folds = []
    for k in range(3):
        d = folder_of_folds / f"f{k}"
        if not (d / "dice_det.onnx").exists() or not (d / "dice_cls.onnx").exists():
            raise SystemExit(f"--folds {folder_of_folds}: {d} has no dice_det.onnx/dice_cls.onnx")
        folds.append(Nets(det=d / "dice_det.onnx", cls=d / "dice_cls.onnx"))
    shipped = read_mod.nets
    try:
        for folder in ("byler-train", "matteop65-train"):
            per_fold = [Score() for _ in range(3)]
            pooled = Score()
            for i, jpg in enumerate(sorted((DATA / folder).glob("*.jpg"))):
                img = cv2.imread(str(jpg))
                if img is None:
                    continue
                net = folds[i % 3]
                read_mod.nets = lambda net=net: net  # type: ignore[misc]
                labels = load_labels(jpg.with_suffix(".txt"), img.shape[1], img.shape[0])
                score_image(img, labels, per_fold[i % 3], verbose, jpg.name)
                score_image(img, labels, pooled)
            for k, sc in enumerate(per_fold):
                print(sc.line(f"{folder} [fold {k}]"))
            print(pooled.line(f"{folder} [3 folds]"))
    finally:
        read_mod.nets = shipped  # type: ignore[misc]


def bench_synthetic(n_dice: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    s = Score()
    colours = None
    total = 0
    while total < n_dice:
        k = total // 200
        scene = random_scene(rng, n_dice=(1, 8), colours=colours,
                             perspective=0.15 if k % 3 == 2 else 0.0,
                             die_size=(30.0, 60.0))
        img = render(scene, rng)
        labels = [(int(t.value or 0), t.center[0], t.center[1], t.size)
                  for t in scene.truth() if t.readable]
        total += len(labels)
        score_image(img, labels, s)
    print(s.line(f"synthetic pips (seed {seed})"))
    # icon sets: FaceSet learned from rendered examples, then classifying new scenes
    from vision.faces import icon_accuracy
    for name in ICON_SETS:
        acc, n = icon_accuracy(name, np.random.default_rng(seed + 1), 300)
        print(f"synthetic icons {name:16s} dice {n:5d}  face-acc {acc:6.1%}")


def bench_speed() -> None:
    rng = np.random.default_rng(7)
    for w, h in ((640, 640), (1280, 720)):
        frames = [render(random_scene(rng, width=w, height=h, n_dice=(4, 12)), rng)
                  for _ in range(10)]
        for f in frames[:2]:
            read_dice(f)
        # per frame, the best of 5 runs: other work on this shared machine only ever adds time
        best = []
        for f in frames:
            runs = []
            for _ in range(5):
                t = time.perf_counter()
                read_dice(f)
                runs.append((time.perf_counter() - t) * 1000)
            best.append(min(runs))
        print(f"speed {w}x{h}: median {float(np.median(best)):.1f} ms/frame, "
              f"max {max(best):.1f} (synthetic, 4-12 dice, 1 thread, best of 5 per frame)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--only", choices=("real", "synthetic", "speed"))
    ap.add_argument("--split", choices=("held-out", "dev", "val", "all"), default="held-out")
    ap.add_argument("--synthetic-dice", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("-v", "--verbose", action="store_true")
    ap.add_argument("--folds", type=Path, metavar="DIR",
                    help="k-fold figures on the real photos from the models in DIR/f0..f2 "
                    "(each trained without its third); nothing else is run")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    if args.folds is not None:
        bench_folds(args.folds, args.verbose)
        return
    if args.only in (None, "real"):
        bench_real(args.split, args.verbose)
    if args.only in (None, "synthetic"):
        bench_synthetic(args.synthetic_dice, args.seed)
    if args.only in (None, "speed"):
        bench_speed()


if __name__ == "__main__":
    main()
