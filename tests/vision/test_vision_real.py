"""A few real photos from ../shared/data/dice-photos with their labelled values.

Skipped when the shared photos are not there. These check that what is read with confidence is
right and that most dice are found; the accuracy figures come from benchmarks/vision.py.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import DiceReader
from vision.cnn import Nets

PHOTOS = Path(__file__).parents[2].parent / "shared" / "data" / "dice-photos"
if not PHOTOS.exists():  # a worktree one level deeper than the main checkout
    PHOTOS = Path(__file__).parents[2].parent.parent / "shared" / "data" / "dice-photos"

pytestmark = pytest.mark.skipif(not PHOTOS.exists(), reason=f"no shared photos at {PHOTOS}")


def _labels(jpg: Path, w: int, h: int) -> list[tuple[int, float, float, float]]:
    out = []
    for line in jpg.with_suffix(".txt").read_text().split("\n"):
        p = line.split()
        if len(p) == 5:
            out.append((int(p[0]) + 1, float(p[1]) * w, float(p[2]) * h,
                        max(float(p[3]) * w, float(p[4]) * h)))
    return out


# (photo, dice that must be read with the labelled value). The shipped models trained on every
# shared photo, so with them this checks the whole pipeline on real frames; the same photos are
# also read by the benchmark's fold models that never saw them (benchmarks/models/folds).
CASES = [
    ("matteop65-train/dice_22.jpg", 3),
    ("matteop65-train/dice_32.jpg", 4),
    ("matteop65-train/dice_35.jpg", 3),
    ("byler-train/IMG_20191208_111816.jpg", 5),
    ("byler-train/IMG_20191208_111947.jpg", 6),
    ("byler-train/IMG_20191208_112219.jpg", 6),
]
FOLDS = Path(__file__).parents[2] / "benchmarks" / "models" / "folds"


def _unseen_by(jpg: Path) -> Path:
    """The fold models that never saw this photo (its sorted index in its folder, mod 3)."""
    index = sorted(jpg.parent.glob("*.jpg")).index(jpg)
    return FOLDS / f"f{index % 3}"


@pytest.mark.parametrize("models", ["shipped", "unseen"])
@pytest.mark.parametrize(("name", "min_right"), CASES)
def test_real_photo(name: str, min_right: int, models: str) -> None:
    jpg = PHOTOS / name
    if not jpg.exists():
        pytest.skip(f"{jpg} missing")
    reader = DiceReader.shipped()
    if models == "unseen":
        fold = _unseen_by(jpg)
        reader = DiceReader(nets=Nets(det=fold / "dice_det.onnx", cls=fold / "dice_cls.onnx"),
                            faces=reader.faces, colours=reader.colours)
    img = cv2.imread(str(jpg))
    assert img is not None
    labels = _labels(jpg, img.shape[1], img.shape[0])
    reading = reader.read(img)
    found = right = 0
    for v, x, y, side in labels:
        near = [d for d in reading.dice if np.hypot(d.center[0] - x, d.center[1] - y) < side]
        if not near:
            continue
        found += 1
        d = near[0]
        right += d.value == v
        # a value given with confidence must be the labelled one
        assert d.value is None or d.confidence < 0.5 or d.value == v, (name, d, v)
    assert found >= 0.8 * len(labels), (name, found, len(labels))
    assert right >= min_right, (name, right, len(labels))
    # every reported die is a labelled one (these photos' labels are complete)
    assert len(reading.dice) <= len(labels), (name, len(reading.dice), len(labels))
