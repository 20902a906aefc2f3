"""Folds of a labelled photo set that keep near-identical photos together.

A public data set may hold the same photograph under two names (Roboflow exports an image
once per split it was drawn into: ``visdice-train`` holds 79 such pairs). Split by the
sorted index alone, a fold's models train on one copy and are scored on the other, and the
figure measures memory, not reading. Here each photo gets a grey thumbnail; photos whose
thumbnails are the same but for re-encoding noise (:func:`near_identical`) form one group,
and a whole group goes to the fold of its first photo in sorted order (:func:`grouped_folds`),
so a photo with no copy keeps the fold its index gives it (index % k), as before.

The training script (``scripts/vision_train_cnn.py --holdout K``) and the benchmark
(``benchmarks/vision.py``) both split with :func:`grouped_folds`.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Literal

import cv2
import numpy as np
import numpy.typing as npt

#: the grey thumbnail's side (px)
THUMB = 64
#: two photos are the same photograph when no pixel of their thumbnails differs by more than
#: this many grey levels. The 79 copies in visdice-train differ by at most 2 (a photo saved
#: again at JPEG quality 60 by a few more); the nearest different photos in the shared sets
#: (the same white sheet with other dice on it, the same scene a moment later) by 57 or more
#: somewhere. An average would not do: a few small dice moved on a plain sheet change the
#: average by less than re-encoding does.
SAME_PHOTO = 12.0
#: ... and only pairs whose average difference is at most this are compared so (cheap first)
CANDIDATE_MEAN = 2.0

#: how a set of fold models was split: by sorted index alone (the models of rounds 2-6) or
#: with near-identical photos grouped
Split = Literal["index", "grouped"]
#: the file in a fold's model folder that names its split (no file: "index", rounds 2-6)
SPLIT_FILE = "split.txt"


def thumbnail(img: npt.NDArray[np.uint8]) -> npt.NDArray[np.float32]:
    """A photo's ``THUMB`` x ``THUMB`` grey thumbnail (area-averaged), float32 0..255.

    Raised when ``img`` is not a 2-D grey or 3-channel BGR ``uint8`` image: ``ValueError``.
    """
    if not isinstance(img, np.ndarray) or img.dtype != np.uint8 or img.size == 0:
        raise ValueError("thumbnail: expected a non-empty uint8 image")
    if img.ndim == 3 and img.shape[2] == 3:
        grey = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    elif img.ndim == 2:
        grey = img
    else:
        raise ValueError(f"thumbnail: expected HxW or HxWx3, got shape {img.shape}")
    out: npt.NDArray[np.float32] = cv2.resize(grey, (THUMB, THUMB),
                                              interpolation=cv2.INTER_AREA).astype(np.float32)
    return out


def near_identical(a: npt.NDArray[np.float32], b: npt.NDArray[np.float32]) -> bool:
    """Whether two thumbnails (:func:`thumbnail`) show the same photograph."""
    d = np.abs(np.asarray(a, np.float32) - np.asarray(b, np.float32))
    return float(d.mean()) <= CANDIDATE_MEAN and float(d.max()) <= SAME_PHOTO


def duplicate_groups(thumbs: Sequence[npt.NDArray[np.float32]]) -> list[int]:
    """For each photo, the index of the first photo of its group of near-identical ones
    (itself when it has no copy before it). Copies of copies join one group.

    >>> import numpy as np
    >>> a, b = np.zeros((64, 64), np.float32), np.full((64, 64), 90, np.float32)
    >>> duplicate_groups([a, b, a + 0.5, b])
    [0, 1, 0, 1]
    """
    n = len(thumbs)
    if n == 0:
        return []
    flat = np.stack([np.asarray(t, np.float32).ravel() for t in thumbs])
    parent = list(range(n))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i in range(n):
        mean = np.abs(flat[i + 1:] - flat[i]).mean(axis=1)
        for j in (np.nonzero(mean <= CANDIDATE_MEAN)[0] + i + 1).tolist():
            if not near_identical(flat[i], flat[j]):
                continue
            ri, rj = root(i), root(j)
            if ri != rj:
                parent[max(ri, rj)] = min(ri, rj)
    return [root(i) for i in range(n)]


def grouped_folds(groups: Sequence[int], k: int = 3) -> list[int]:
    """Each photo's fold: its group's first photo's sorted index modulo ``k`` (a photo with
    no copy: its own index % k).

    >>> grouped_folds([0, 1, 0, 3, 1])
    [0, 1, 0, 0, 1]
    """
    return [g % k for g in groups]


def folds_of(split: Split, groups: Sequence[int], k: int = 3) -> list[int]:
    """Each photo's fold under ``split``: by index alone, or with copies grouped."""
    if split == "index":
        return [i % k for i in range(len(groups))]
    return grouped_folds(groups, k)


def split_of(model_dir: Path) -> Split:
    """How the fold models in ``model_dir`` were split (its ``SPLIT_FILE``; "index" without).

    Raised when the file names another split: ``ValueError`` naming the file.
    """
    f = model_dir / SPLIT_FILE
    if not f.exists():
        return "index"
    text = f.read_text().strip()
    if text == "grouped":
        return "grouped"
    if text == "index":
        return "index"
    raise ValueError(f"{f}: expected 'grouped' or 'index', got {text!r}")


def photo_groups(paths: Sequence[Path]) -> list[int]:
    """:func:`duplicate_groups` of photos on disk (``paths`` in sorted order); a file that
    cannot be read is a group of its own."""
    thumbs = []
    for p in paths:
        img = cv2.imread(str(p), cv2.IMREAD_GRAYSCALE)
        # an unreadable file: a thumbnail no photo can be near (NaN compares false)
        thumbs.append(thumbnail(np.asarray(img, np.uint8)) if img is not None
                      else np.full((THUMB, THUMB), np.nan, np.float32))
    return duplicate_groups(thumbs)
