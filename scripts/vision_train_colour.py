"""Train the colour namer of ``vision.colour`` (not part of the tests; numpy only, ~a minute).

    .venv/bin/python scripts/vision_train_colour.py          # all four models, figures printed

Data: every die of the shared photos with its hand-named body colour
(``benchmarks/data/dice_colours.csv``), and synthetic dice of every colour the photos lack
(orange, grey, brown; and the others too) on any table surface (``vision.synthetic``). Each
photo and scene is shown several times under a random white balance (per-channel gains 0.7-1.4)
and brightness (x0.6-1.25), so the namer learns colours as corrected by the scene's light,
not as this camera shot them. Classes are balanced by repeating the rarer ones.

Writes ``benchmarks/models/folds/fK/colour.npz`` (K = 0, 1, 2: trained without the photos
whose sorted index in their folder is K modulo 3, like the value models) and
``vision/models/colour.npz`` (trained on every photo). ``benchmarks/colour.py`` scores them.
"""

from __future__ import annotations

import argparse
import csv
import sys
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from vision_train import train  # noqa: E402

from vision.colour import COLOUR_NAMES, colour_features  # noqa: E402
from vision.synthetic import SURFACES, SynthDie, random_scene, render  # noqa: E402

DATA = ROOT.parent / "shared" / "data" / "dice-photos"
if not DATA.exists():
    DATA = Path("/work/shared/data/dice-photos")
LABELS = ROOT / "benchmarks" / "data" / "dice_colours.csv"
FOLDS = ROOT / "benchmarks" / "models" / "folds"
SEED = 2026

Die = tuple[float, float, float, str]  # cx, cy, size, colour

#: Synthetic body colours (BGR) per name, with the colours the photos lack.
SYNTH: dict[str, tuple[int, int, int]] = {
    "white": (228, 230, 232), "black": (35, 35, 38), "red": (40, 35, 200),
    "green": (60, 160, 40), "blue": (190, 100, 25), "yellow": (40, 210, 235),
    "purple": (140, 45, 110), "orange": (30, 120, 240), "pink": (175, 110, 240),
    "grey": (140, 140, 140), "gold": (55, 150, 195), "brown": (40, 70, 115),
}


def photo_dice() -> list[tuple[str, int, Path, list[Die]]]:
    """(folder, index in the folder's sorted list, path, labelled dice) of every photo."""
    names: dict[tuple[str, int], str] = {}
    with LABELS.open() as f:
        for row in csv.DictReader(f):
            names[(row["photo"], int(row["line"]))] = row["colour"]
    out = []
    for folder in ("byler-train", "matteop65-train"):
        for i, jpg in enumerate(sorted((DATA / folder).glob("*.jpg"))):
            img = cv2.imread(str(jpg))
            if img is None:
                continue
            h, w = img.shape[:2]
            dice: list[Die] = []
            for li, line in enumerate(jpg.with_suffix(".txt").read_text().split("\n")):
                p = line.split()
                key = (f"{folder}/{jpg.stem}", li)
                if len(p) != 5 or key not in names:
                    continue
                _c, cx, cy, bw, bh = (float(v) for v in p)
                side = max(bw * w, bh * h) * (1.6 if folder.startswith("matteop65") else 1.0)
                dice.append((cx * w, cy * h, side, names[key]))
            out.append((folder, i, jpg, dice))
    return out


def shifted(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The photo under another white balance and exposure."""
    gains = np.exp(rng.uniform(np.log(0.7), np.log(1.4), 3)) * rng.uniform(0.6, 1.25)
    return np.clip(img.astype(np.float32) * gains, 0, 255).astype(np.uint8)


def views(img: np.ndarray, n: int, rng: np.random.Generator) -> Iterator[np.ndarray]:
    yield img
    for _ in range(n - 1):
        yield shifted(img, rng)


def synthetic(n_scenes: int, rng: np.random.Generator, shifts: int) -> tuple[list, list]:
    xs, ys = [], []
    names = list(SYNTH)
    for k in range(n_scenes):
        sc = random_scene(rng, n_dice=(3, 8), die_size=(24.0, 60.0), clutter=1,
                          surface=SURFACES[k % len(SURFACES)], tray=0.3, glare=0.2,
                          highlight=0.2)
        dice = []
        for d in sc.dice:
            name = names[int(rng.integers(len(names)))]
            body = tuple(int(v) for v in np.clip(np.array(SYNTH[name]) +
                                                 rng.normal(0, 12, 3), 0, 255))
            dark = name in ("black", "red", "green", "blue", "purple", "grey", "brown")
            pip = (235, 235, 235) if dark else (30, 30, 30)
            dice.append(SynthDie(d.center, d.size, d.angle, value=d.value or 1, colour=name,
                                 body_bgr=body, pip_bgr=pip))  # type: ignore[arg-type]
        sc = type(sc)(**{**sc.__dict__, "dice": tuple(dice)})
        img = render(sc, rng)
        truth = [(t.center[0], t.center[1], t.size, t.colour) for t in sc.truth() if t.readable]
        for view in views(img, shifts, rng):
            if truth:
                xs.append(colour_features(view, [(x, y, s) for x, y, s, _c in truth]))
                ys.extend(COLOUR_NAMES.index(c) for *_xyz, c in truth)
    return xs, ys


def features(photos: list, shifts: int, rng: np.random.Generator) -> tuple[np.ndarray, ...]:
    """Features, labels and the fold (index % 3) of every labelled die, each photo shown
    ``shifts`` times (as shot, then shifted)."""
    xs, ys, folds = [], [], []
    for _folder, i, jpg, dice in photos:
        if not dice:
            continue
        img = cv2.imread(str(jpg))
        for view in views(img, shifts, rng):
            xs.append(colour_features(view, [(x, y, s) for x, y, s, _c in dice]))
            ys.extend(COLOUR_NAMES.index(c) for *_xyz, c in dice)
            folds.extend([i % 3] * len(dice))
    return np.concatenate(xs), np.array(ys), np.array(folds)


def balanced(x: np.ndarray, y: np.ndarray, rng: np.random.Generator,
             floor: int = 400) -> tuple[np.ndarray, np.ndarray]:
    """Each class repeated (drawn with replacement) up to ``floor`` examples at least."""
    idx = [np.arange(len(y))]
    by: dict[int, list[int]] = defaultdict(list)
    for k, c in enumerate(y):
        by[int(c)].append(k)
    for _c, ks in by.items():
        if len(ks) < floor:
            idx.append(rng.choice(ks, floor - len(ks)))
    sel = np.concatenate(idx)
    return x[sel], y[sel]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--shifts", type=int, default=4, help="views of each photo (as shot + n-1)")
    ap.add_argument("--synthetic", type=int, default=500, help="synthetic scenes")
    ap.add_argument("--hidden", type=int, default=48)
    ap.add_argument("--epochs", type=int, default=40)
    args = ap.parse_args()
    rng = np.random.default_rng(SEED)
    cv2.setNumThreads(1)
    photos = photo_dice()
    x, y, fold = features(photos, args.shifts, rng)
    sx, sy = synthetic(args.synthetic, rng, 2)
    xs, ys = np.concatenate(sx), np.array(sy)
    print(f"{len(y)} photo dice views, {len(ys)} synthetic", flush=True)
    for k in (0, 1, 2, None):
        keep = fold != k if k is not None else np.ones(len(y), bool)
        xt, yt = balanced(np.concatenate([x[keep], xs]), np.concatenate([y[keep], ys]), rng)
        mlp = train(xt.astype(np.float32), yt, args.hidden, args.epochs, SEED,
                    n_classes=len(COLOUR_NAMES), weight_decay=1e-4)
        out = (FOLDS / f"f{k}" / "colour.npz") if k is not None else \
            ROOT / "vision" / "models" / "colour.npz"
        out.parent.mkdir(parents=True, exist_ok=True)
        mlp.save(out)
        if k is not None:
            test = fold == k
            acc = float((mlp.proba(x[test]).argmax(axis=1) == y[test]).mean())
            print(f"fold {k}: {acc:.1%} of {int(test.sum())} held-out views "
                  f"(as shot and white-balance shifted)", flush=True)
        print(f"wrote {out}", flush=True)


if __name__ == "__main__":
    main()
