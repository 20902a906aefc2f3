"""Benchmark: body colours named right on the shared photos, with and without calibration.

    .venv/bin/python benchmarks/colour.py            # ~1 min
    .venv/bin/python benchmarks/colour.py -v         # with the confusions

Labels: ``benchmarks/data/dice_colours.csv`` (every die of the shared photos, named by eye;
see its README). Dice are taken where their labels put them (the reader's finding is
measured by ``benchmarks/vision.py``).

- **No calibration, 3-fold**: each photo's dice are named by the namer trained without that
  photo's third (``benchmarks/models/folds/fK/colour.npz``, like the value models), first as
  shot, then under a seeded random white balance and exposure per photo (per-channel gains
  0.7-1.4, brightness x0.6-1.25): what another camera or lamp would give.
- **Calibrated**: per photo set (one table, one camera) and fold, a palette is learned by
  ``calibration.palette.learn`` from 5 dice of each colour taken from the other two thirds of
  that set's photos, then names the held-out third's dice the way ``read_dice`` does with a
  profile (``vision.colour.name_colours``: the namer, only the palette's colours, weighed by
  the palette's distances); and the palette alone (nearest reference), as before the namer.
- The old default palette (``DEFAULT_PALETTE``, what the reader used before the namer) for
  comparison.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from vision_train_colour import photo_dice, shifted  # noqa: E402

from calibration.images import DieCrop  # noqa: E402
from calibration.palette import learn  # noqa: E402
from vision.cnn import body_bgr, crop  # noqa: E402
from vision.colour import ColourNamer, colour_features, name_colours  # noqa: E402
from vision.profile import DEFAULT_PALETTE  # noqa: E402

FOLDS = ROOT / "benchmarks" / "models" / "folds"
PER_COLOUR = 5


class Tally:
    def __init__(self) -> None:
        self.right = self.n = 0
        self.confused: Counter[tuple[str, str]] = Counter()

    def add(self, truth: str, got: str | None) -> None:
        self.n += 1
        if got == truth:
            self.right += 1
        else:
            self.confused[(truth, str(got))] += 1

    def line(self, name: str) -> str:
        return f"{name:58s} {self.right / max(1, self.n):6.1%} of {self.n:5d} dice"

    def worst(self, k: int = 6) -> str:
        return ", ".join(f"{t}->{g} {c}" for (t, g), c in self.confused.most_common(k))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    rng = np.random.default_rng(args.seed)
    namers = [ColourNamer.load(FOLDS / f"f{k}" / "colour.npz") for k in range(3)]
    photos = photo_dice()
    shot, shift, old, cal, pal_only = Tally(), Tally(), Tally(), Tally(), Tally()
    byler = {k: Tally() for k in ("shot", "shift", "cal")}
    # calibration samples: per set and fold, 5 dice of each colour from the other folds
    crops: dict[tuple[str, int], dict[str, list[DieCrop]]] = {}
    for folder, i, jpg, dice in photos:
        img = cv2.imread(str(jpg))
        for cx, cy, size, colour in dice:
            for k in range(3):
                if i % 3 == k:
                    continue
                got = crops.setdefault((folder, k), {}).setdefault(colour, [])
                if len(got) < PER_COLOUR:
                    got.append(DieCrop(crop(img, cx, cy, size, side=48, scale=1.0), (cx, cy)))
    palettes = {key: learn(samples)[1] for key, samples in crops.items()}
    for folder, i, jpg, dice in photos:
        if not dice:
            continue
        img = cv2.imread(str(jpg))
        namer = namers[i % 3]
        at = [(x, y, s) for x, y, s, _c in dice]
        truth = [c for *_xyz, c in dice]
        for view, tally, key in ((img, shot, "shot"), (shifted(img, rng), shift, "shift")):
            names = namer.name(colour_features(view, at))
            for t, (g, _p) in zip(truth, names, strict=True):
                tally.add(t, g)
                if folder.startswith("byler"):
                    byler[key].add(t, g)
        pal = palettes[(folder, i % 3)]
        named = name_colours(img, at, pal, namer)
        for (x, y, s), t, g in zip(at, truth, named, strict=True):
            cal.add(t, g)
            if folder.startswith("byler"):
                byler["cal"].add(t, g)
            body = body_bgr(crop(img, x, y, s, side=32, scale=1.2))
            pal_only.add(t, pal.classify(body)[0])
            old.add(t, DEFAULT_PALETTE.classify(body)[0])
    print(shot.line("no calibration, 3-fold, as shot (all photos)"))
    print(byler["shot"].line("  top-down colour dice only (byler)"))
    print(shift.line("no calibration, 3-fold, white balance shifted (all)"))
    print(byler["shift"].line("  top-down colour dice only (byler)"))
    print(cal.line(f"calibrated ({PER_COLOUR} dice per colour, same set): namer + palette"))
    print(byler["cal"].line("  top-down colour dice only (byler)"))
    print(pal_only.line("  the calibrated palette alone (body colour, nearest)"))
    print(old.line("the old default palette, as shot (for comparison)"))
    if args.verbose:
        for name, t in (("as shot", shot), ("shifted", shift), ("calibrated", cal),
                        ("palette alone", pal_only), ("old palette", old)):
            print(f"  confusions {name}: {t.worst()}")


if __name__ == "__main__":
    main()
