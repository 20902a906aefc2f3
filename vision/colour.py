"""Naming a die's body colour with no calibration, under any white balance: :class:`ColourNamer`.

A calibrated palette (:class:`~vision.profile.Palette`, learned from the table's own dice)
names colours best where one exists. Without one, the reader asks a small learned namer:

1. **The scene's light** (:func:`scene_light`): the colour of the brightest pixels of the frame
   (white dice, pips, paper, glare; saturated pixels left out), as per-channel gains. Dividing
   by it undoes most of a camera's white balance and a lamp's tint (the "white patch" idea of
   colour constancy); coloured felt does not fool it the way a grey-world average would.
2. **Features** (:func:`colour_features`): the die's body colour (pips left out), its pips'
   colour, the table's colour around it, and the body's darker and lighter quarters (marbled
   and two-tone dice), each corrected by the light, in Lab, with the body's chroma and hue.
3. **A softmax MLP** (:mod:`vision.mlp`, ``vision/models/colour.npz``, trained by
   ``scripts/vision_train_colour.py`` on the hand-named shared photos, ``benchmarks/data``,
   and synthetic dice, each shown under random white balance and brightness) gives
   probabilities over :data:`COLOUR_NAMES`.

Only numpy and OpenCV; the model is a few kilobytes.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from vision.cnn import _middle, body_bgr, channels, crop
from vision.mlp import Mlp
from vision.profile import DEFAULT_PALETTE, Palette

Image = npt.NDArray[Any]

#: The names the namer gives: the colours of issue 24's set; "other" is a two-tone die.
COLOUR_NAMES: tuple[str, ...] = (
    "green", "blue", "pink", "black", "yellow", "red", "purple", "orange", "white", "gold",
    "grey", "brown", "other",
)
MODEL_PATH = Path(__file__).parent / "models" / "colour.npz"
#: Below this probability the colour is not named (None).
NAME_MIN = 0.0
#: Share of the frame's pixels, brightest first, that show the light's colour.
BRIGHT_SHARE = 0.02


def scene_light(img: Image) -> Image:
    """Per-channel gains of the light (B, G, R; mean 1): the mean colour of the brightest
    ``BRIGHT_SHARE`` of the pixels that are not clipped. Neutral (1, 1, 1) for a dark or
    clipped frame."""
    step = max(1, max(img.shape[:2]) // 80)  # every step-th pixel: about 80 px a side
    small = img[::step, ::step]
    px = small.reshape(-1, 3).astype(np.float32)
    px = px[channels(np.maximum, px) < 250]
    if len(px) < 20:
        return np.ones(3, np.float32)
    s = channels(np.add, px)
    k = max(10, int(len(px) * BRIGHT_SHARE))
    top = px[np.argpartition(s, len(s) - k)[len(s) - k:]]
    m = top.mean(axis=0)
    if float(m.min()) < 20:
        return np.ones(3, np.float32)
    out: Image = (m / m.mean()).astype(np.float32)
    return out


def _lab(bgr: Image) -> Image:
    """Lab (L 0..100, a, b about -128..127) of N x 3 BGR values 0..255, as float."""
    px = np.clip(bgr, 0, 255).astype(np.float32).reshape(-1, 1, 3) / 255.0
    out: Image = cv2.cvtColor(px, cv2.COLOR_BGR2LAB).reshape(-1, 3)
    return out


def _quantile(x: Image, q: float) -> float:
    """The ``q`` quantile (0..1) of a 1-D array, by partition (no sort, no interpolation)."""
    k = min(len(x) - 1, max(0, int(q * (len(x) - 1))))
    return float(np.partition(x, k)[k])


def _parts(patch: Image) -> Image:
    """Body, pips, and the body's darker and lighter quarters (marbling, two tones) of one
    die, as a 4 x 3 BGR array, from its crop (32 px at 1.2 x its size, as the reader cuts)."""
    body = np.array(body_bgr(patch), np.float32)
    q = patch.shape[0] // 5
    mid = patch[q:-q, q:-q].reshape(-1, 3).astype(np.float32)
    d = channels(np.add, np.abs(mid - body))
    far = mid[d >= _quantile(d, 0.85)]
    pips = _middle(far).astype(np.float32) if len(far) else body
    near = mid[d <= _quantile(d, 0.7)]  # the body without its pips
    lum = channels(np.add, near)
    lo, hi = _quantile(lum, 0.25), _quantile(lum, 0.75)
    return np.stack([body, pips, near[lum <= lo].mean(axis=0), near[lum >= hi].mean(axis=0)])


#: Where the table around a die is sampled: 8 points this many die sizes from its centre.
RING = 0.9
_RING_DIRS = np.array([(np.cos(a), np.sin(a)) for a in np.arange(8) * np.pi / 4])


def _surround(img: Image, cx: float, cy: float, size: float) -> Image:
    """The table's colour around a die: the median of 8 points on a ring just outside it."""
    h, w = img.shape[:2]
    pts = np.array([cx, cy]) + _RING_DIRS * RING * size
    xs = np.clip(np.round(pts[:, 0]).astype(int), 0, w - 1)
    ys = np.clip(np.round(pts[:, 1]).astype(int), 0, h - 1)
    out: Image = _middle(img[ys, xs]).astype(np.float32)
    return out


#: Features per die (see :func:`colour_features`).
N_FEATURES = 18


def colour_features(img: Image, dice: Sequence[tuple[float, float, float]],
                    light: Image | None = None,
                    patches: Sequence[Image] | None = None) -> Image:
    """N x 18 features for the dice at (cx, cy, size) of a BGR frame: body, pips, surround
    and the body's darker and lighter quarters in Lab after dividing by the light
    (:func:`scene_light` when not given), and the body's chroma and hue (cos, sin scaled by
    chroma). ``patches``: the dice's 32 px crops at 1.2 x size when already cut."""
    if not dice:
        return np.zeros((0, N_FEATURES), np.float32)
    lt = scene_light(img) if light is None else np.asarray(light, np.float32)
    if patches is None:
        patches = [crop(img, cx, cy, size, side=32, scale=1.2) for cx, cy, size in dice]
    parts = np.empty((len(dice), 5, 3), np.float32)
    for k, (p, (cx, cy, size)) in enumerate(zip(patches, dice, strict=True)):
        parts[k, [0, 1, 3, 4]] = _parts(p)
        parts[k, 2] = _surround(img, cx, cy, size)
    lab = _lab(parts.reshape(-1, 3) / lt).reshape(len(dice), 15)
    a, b = lab[:, 1], lab[:, 2]
    chroma = np.hypot(a, b)
    hue = np.arctan2(b, a)
    out: Image = np.concatenate(
        [lab, np.stack([chroma, chroma * np.cos(hue) / 10, chroma * np.sin(hue) / 10], axis=1)],
        axis=1).astype(np.float32)
    return out


class ColourNamer:
    """Body-colour names from :func:`colour_features` rows (see the module docstring)."""

    def __init__(self, mlp: Mlp, names: Sequence[str] = COLOUR_NAMES) -> None:
        names = tuple(names)
        if mlp.n_inputs != N_FEATURES or int(mlp.w2.shape[1]) != len(names):
            raise ValueError(f"colour model does not fit: {mlp.n_inputs} inputs, "
                             f"{int(mlp.w2.shape[1])} outputs for {len(names)} names")
        self.mlp = mlp
        self.names = names

    @classmethod
    def load(cls, path: Path) -> ColourNamer:
        """Raised when the file is not a colour model: ``ValueError`` naming it."""
        try:
            return cls(Mlp.load(path))
        except (OSError, KeyError, ValueError) as e:
            raise ValueError(f"{path}: not a colour model ({e})") from e

    def proba(self, feats: Image) -> Image:
        """N x len(names) probabilities."""
        return self.mlp.proba(feats)

    def name(self, feats: Image) -> list[tuple[str | None, float]]:
        """(name or None when unsure, probability) per row."""
        out: list[tuple[str | None, float]] = []
        for p in self.proba(feats):
            i = int(np.argmax(p))
            out.append((self.names[i] if p[i] >= NAME_MIN else None, float(p[i])))
        return out


#: How much a calibrated palette's distances weigh against the namer's probabilities.
PALETTE_WEIGHT = 0.05


def name_colours(img: Image, dice: Sequence[tuple[float, float, float]],
                 palette: Palette | None = None,
                 namer: ColourNamer | None = None,
                 patches: Sequence[Image] | None = None,
                 light: Image | None = None) -> list[str | None]:
    """The body colour of each die at (cx, cy, size) of a BGR frame.

    With no calibrated ``palette``: the namer's best name. With one: only the palette's
    colours are candidates (the table's own dice), each scored by the namer's probability
    and its distance from the palette's reference; a palette with a colour the namer does
    not know (e.g. "teal") is judged by its distances, the namer only breaking near ties.
    Without a ``namer`` (None), the palette (or :data:`~vision.profile.DEFAULT_PALETTE`)
    alone, as the reader did before there was one.
    """
    nm = namer
    if not dice:
        return []
    if patches is None:
        patches = [crop(img, x, y, s, side=32, scale=1.2) for x, y, s in dice]
    if nm is None:
        pal = palette if palette is not None else DEFAULT_PALETTE
        return [pal.classify(body_bgr(p))[0] for p in patches]
    probs = nm.proba(colour_features(img, dice, light, patches))
    if palette is None:
        return [nm.names[int(np.argmax(p))] for p in probs]
    known = all(n in nm.names for n in palette.names)
    out: list[str | None] = []
    for patch, p in zip(patches, probs, strict=True):
        d = palette.distances(body_bgr(patch))
        prior = np.array([p[nm.names.index(n)] if n in nm.names else 1.0 / len(nm.names)
                          for n in palette.names])
        if known:  # the namer decides among the table's colours
            score = np.log(prior + 1e-4) - PALETTE_WEIGHT * d ** 2
        else:  # the table has colours of its own: its references decide
            score = -(d ** 2) + PALETTE_WEIGHT * np.log(prior + 1e-4)
        out.append(palette.names[int(np.argmax(score))])
    return out


def load_namer(path: Path = MODEL_PATH) -> ColourNamer | None:
    """The namer in ``path`` (the shipped one by default), or None when the file is missing."""
    return ColourNamer.load(path) if path.exists() else None
