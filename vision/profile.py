"""Profile types: what calibration teaches vision about one table.

A :class:`Profile` holds an optional :class:`TableRegion` (where the tray is, and a homography
that undoes the camera's perspective), an optional :class:`Palette` of named die colours and any
number of learned icon :class:`FaceSet` s, and what the table taught the reader about its own
dice (:class:`TableHead`). All are frozen dataclasses with a plain-JSON
``to_dict()`` / ``from_dict()`` round trip; calibration adds strict versioned files on top.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

import cv2
import msgspec
import numpy as np
import numpy.typing as npt

Point = tuple[float, float]
BGR = tuple[int, int, int]


def _finite(name: str, v: object) -> float:
    if isinstance(v, bool) or not isinstance(v, int | float) or not math.isfinite(v):
        raise ValueError(f"{name} must be a finite number, got {v!r}")
    return float(v)


# --------------------------------------------------------------------------- table region


@dataclass(frozen=True)
class TableRegion:
    """The tray as a polygon in image pixels, with an optional image->table homography.

    Dice are only looked for inside ``polygon``. ``homography`` (row-major 3x3) maps image pixels
    to a top-down table plane; vision reads dice in that plane when it is given.
    ``table_size`` is the (width, height) of that plane in pixels.
    """

    polygon: tuple[Point, ...]
    homography: tuple[float, ...] | None = None
    table_size: tuple[int, int] | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.polygon, tuple) or len(self.polygon) < 3:
            raise ValueError(f"TableRegion.polygon needs at least 3 points, got {self.polygon!r}")
        pts = []
        for i, p in enumerate(self.polygon):
            if not (isinstance(p, tuple | list) and len(p) == 2):
                raise ValueError(f"TableRegion.polygon[{i}] must be (x, y), got {p!r}")
            pts.append((_finite(f"TableRegion.polygon[{i}].x", p[0]),
                        _finite(f"TableRegion.polygon[{i}].y", p[1])))
        object.__setattr__(self, "polygon", tuple(pts))
        if self.homography is not None:
            h = tuple(self.homography)
            if len(h) != 9:
                raise ValueError(f"TableRegion.homography must have 9 numbers, got {len(h)}")
            h = tuple(_finite(f"TableRegion.homography[{i}]", v) for i, v in enumerate(h))
            if abs(np.linalg.det(np.array(h).reshape(3, 3))) < 1e-12:
                raise ValueError("TableRegion.homography is singular (determinant 0)")
            object.__setattr__(self, "homography", h)
            if self.table_size is None:
                raise ValueError("TableRegion.table_size is required with a homography")
        if self.table_size is not None:
            ts = tuple(self.table_size)
            if len(ts) != 2 or not all(isinstance(v, int) and v > 0 for v in ts):
                raise ValueError(
                    f"TableRegion.table_size must be (width, height) > 0, got {self.table_size!r}"
                )
            object.__setattr__(self, "table_size", ts)

    def matrix(self) -> npt.NDArray[np.float64] | None:
        """The homography as a 3x3 array, or None."""
        if self.homography is None:
            return None
        return np.array(self.homography, dtype=np.float64).reshape(3, 3)

    def mask(self, shape: tuple[int, int]) -> npt.NDArray[np.uint8]:
        """A 0/255 mask of the polygon for a frame of ``shape`` (height, width)."""
        m = np.zeros(shape, np.uint8)
        cv2.fillPoly(m, [np.round(np.array(self.polygon)).astype(np.int32)], 255)
        return m

    def to_dict(self) -> dict[str, Any]:
        return {
            "polygon": [list(p) for p in self.polygon],
            "homography": list(self.homography) if self.homography is not None else None,
            "table_size": list(self.table_size) if self.table_size is not None else None,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TableRegion:
        return cls._from_doc(_doc(data, TableRegionDoc, "table"))

    @classmethod
    def _from_doc(cls, doc: TableRegionDoc) -> TableRegion:
        return cls(tuple(doc.polygon), None if doc.homography is None else tuple(doc.homography),
                   doc.table_size)


# --------------------------------------------------------------------------- colours


def bgr_to_lab(bgr: Sequence[float]) -> tuple[float, float, float]:
    """OpenCV 8-bit Lab (L, a, b each 0..255) of one BGR colour."""
    px = np.array([[list(bgr)]], dtype=np.uint8)
    lab = cv2.cvtColor(px, cv2.COLOR_BGR2LAB)[0, 0]
    return (float(lab[0]), float(lab[1]), float(lab[2]))


@dataclass(frozen=True)
class ColourModel:
    """A named die colour: a reference BGR and how far (Lab distance) a match may stray."""

    name: str
    bgr: BGR
    tolerance: float = 60.0

    def __post_init__(self) -> None:
        if not (isinstance(self.name, str) and self.name):
            raise ValueError(f"ColourModel.name must be a non-empty string, got {self.name!r}")
        b = tuple(self.bgr)
        if len(b) != 3 or not all(isinstance(v, int) and 0 <= v <= 255 for v in b):
            raise ValueError(f"ColourModel {self.name!r}: bgr must be 3 ints 0..255, got {b!r}")
        object.__setattr__(self, "bgr", b)
        if _finite(f"ColourModel {self.name!r} tolerance", self.tolerance) <= 0:
            raise ValueError(f"ColourModel {self.name!r}: tolerance must be > 0")

    @property
    def lab(self) -> tuple[float, float, float]:
        return bgr_to_lab(self.bgr)

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "bgr": list(self.bgr), "tolerance": self.tolerance}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ColourModel:
        doc = _doc(data, ColourDoc, "colour")
        return cls(doc.name, doc.bgr, doc.tolerance)


@dataclass(frozen=True)
class Palette:
    """Named die colours; :meth:`classify` gives the nearest one within its tolerance."""

    colours: tuple[ColourModel, ...]

    def __post_init__(self) -> None:
        if not isinstance(self.colours, tuple) or not self.colours:
            raise ValueError("Palette.colours must be a non-empty tuple of ColourModel")
        names = [c.name for c in self.colours]
        if len(set(names)) != len(names):
            raise ValueError(f"Palette has duplicate colour names: {names}")

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(c.name for c in self.colours)

    def distances(self, bgr: Sequence[float]) -> npt.NDArray[np.float32]:
        """Each colour's distance from a BGR value, in units of its tolerance (<= 1: a match)."""
        lab = bgr_to_lab([min(255, max(0, round(v))) for v in bgr])
        out: npt.NDArray[np.float32] = (
            self._dist(lab) / np.array([c.tolerance for c in self.colours], np.float32)
        ).astype(np.float32)
        return out

    @functools.cached_property
    def _labs(self) -> npt.NDArray[np.float32]:
        """Each colour's Lab, worked out at the first use: OpenCV's first Lab conversion
        builds its tables (0.3 s), which a program that never reads a colour (the app starting,
        the `companion` command's help) should not wait for."""
        return np.array([c.lab for c in self.colours], dtype=np.float32)

    def _dist(self, lab: Sequence[float]) -> npt.NDArray[np.float32]:
        labs = self._labs
        d = labs - np.asarray(lab, dtype=np.float32)
        # lightness matters less than hue: lighting changes L much more than a, b
        out: npt.NDArray[np.float32] = np.sqrt(0.35 * d[:, 0] ** 2 + d[:, 1] ** 2 + d[:, 2] ** 2)
        return out

    def classify_lab(self, lab: Sequence[float]) -> tuple[str | None, float]:
        """Nearest colour name for an OpenCV 8-bit Lab value, and a 0..1 match score."""
        dist = self._dist(lab)
        i = int(np.argmin(dist))
        tol = self.colours[i].tolerance
        if dist[i] > tol:
            return None, 0.0
        return self.colours[i].name, float(1.0 - dist[i] / tol)

    def classify(self, bgr: Sequence[float]) -> tuple[str | None, float]:
        """Nearest colour name for a BGR value, and a 0..1 match score."""
        return self.classify_lab(bgr_to_lab([min(255, max(0, round(v))) for v in bgr]))

    def to_dict(self) -> dict[str, Any]:
        return {"colours": [c.to_dict() for c in self.colours]}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Palette:
        return cls._from_doc(_doc(data, PaletteDoc, "palette"))

    @classmethod
    def _from_doc(cls, doc: PaletteDoc) -> Palette:
        return cls(tuple(ColourModel(c.name, c.bgr, c.tolerance) for c in doc.colours))


#: The die colours of the rulebooks plus those the shared photos show. Reference values are
#: provisional (picked from typical dice under daylight); calibration replaces them per table.
DEFAULT_PALETTE = Palette((
    ColourModel("white", (225, 228, 228), 45.0),
    ColourModel("grey", (140, 140, 140), 40.0),
    ColourModel("black", (40, 40, 40), 45.0),
    ColourModel("red", (40, 40, 200), 70.0),
    ColourModel("orange", (30, 120, 235), 60.0),
    ColourModel("yellow", (40, 210, 230), 65.0),
    ColourModel("gold", (60, 150, 190), 50.0),
    ColourModel("green", (70, 160, 40), 70.0),
    ColourModel("blue", (190, 110, 30), 70.0),
    ColourModel("purple", (140, 50, 110), 60.0),
    ColourModel("pink", (170, 110, 235), 60.0),
    ColourModel("brown", (50, 80, 120), 45.0),
    ColourModel("marbled", (120, 110, 100), 30.0),
))


# --------------------------------------------------------------------------- icon faces

#: Which face descriptor this vision computes; stored with every face set, because examples
#: described one way mean nothing to another. ``polar-fourier-1`` was the first (rotation-free
#: polar Fourier magnitudes), retired because it mixed up small glyphs.
FACE_FEATURES = "hog32-4x4x12"
_FEAT_SIZE = 32  # the contrast map is described at this size (px)
_CELLS = 4  # ... in CELLS x CELLS cells
_BINS = 12  # ... each a histogram of this many gradient directions (0..360 degrees)
#: Variants learned per example crop (see :func:`face_variants`); 1 learns the crops only.
FACE_VARIANTS = 8
_VARIANT_SCALE = (0.88, 1.1)  # scales of the learned variants (the die finder's error)
#: Zooms also tried for a crop no face fits: the die finder cut it too wide (shadow, low
#: contrast) and the die fills only part of it.
_SEARCH_ZOOMS = (1.2, 1.35)
#: Turns (degrees) also tried for a crop no face fits upright: a crop cut at an odd angle.
_SEARCH_ANGLES = (15.0, 30.0, 45.0, 60.0, 75.0)
#: A crop nearly as close to a second face as to the best (1 - d1/d2 below this) is unknown.
FACE_MARGIN = 0.08
#: A crop whose ink (see :func:`face_features`) is below this share of the learned examples'
#: (their 5th percentile) is a plain surface, not a face: unknown whatever it looks nearest to.
INK_SHARE = 0.35
_HOG = _CELLS * _CELLS * _BINS
#: Length of :func:`face_features`: the gradient histograms and the ink level.
FEATURE_LENGTH = _HOG + 1


def _contrast_map(crop: npt.NDArray[np.uint8]) -> tuple[npt.NDArray[np.float32], float]:
    """How far each pixel is from the die body's colour, about 0..1, at _FEAT_SIZE px; and
    the ink: that distance (Lab units) of the strongest 2% of the face's middle.

    The same picture for dark-on-light and light-on-dark dice of any colour; dividing by a
    high percentile takes out the light's strength.
    """
    lab = cv2.cvtColor(cv2.resize(crop, (_FEAT_SIZE, _FEAT_SIZE), interpolation=cv2.INTER_AREA),
                       cv2.COLOR_BGR2LAB).astype(np.float32)
    q = _FEAT_SIZE // 6
    body = np.median(lab[q:-q, q:-q].reshape(-1, 3), axis=0)
    d = lab - body
    g = np.sqrt(0.6 * d[:, :, 0] ** 2 + d[:, :, 1] ** 2 + d[:, :, 2] ** 2)
    out: npt.NDArray[np.float32] = (g / (_high(g) + 8.0)).astype(np.float32)
    return out, _high(g[q:-q, q:-q])


def _high(a: npt.NDArray[np.float32]) -> float:
    """The 98th percentile (nearest rank below) of ``a``: np.partition, 15x np.percentile's
    speed, which matters at three calls per die."""
    flat = a.ravel()
    k = int(0.98 * (flat.size - 1))
    return float(np.partition(flat, k)[k])


def _check_crop(crop: object) -> npt.NDArray[Any]:
    if not isinstance(crop, np.ndarray) or crop.ndim not in (2, 3) or crop.size == 0:
        raise ValueError(f"face crop must be a non-empty 2-D or 3-D image, got {_desc(crop)}")
    if crop.dtype != np.uint8:
        raise ValueError(f"face crop must be uint8, got dtype {crop.dtype}")
    if crop.ndim == 2 or crop.shape[2] == 1:
        crop = cv2.cvtColor(crop, cv2.COLOR_GRAY2BGR)
    elif crop.shape[2] == 4:
        crop = cv2.cvtColor(crop, cv2.COLOR_BGRA2BGR)
    elif crop.shape[2] != 3:
        raise ValueError(f"face crop must be grey, BGR or BGRA, got {_desc(crop)}")
    return crop


def face_features(crop: npt.NDArray[Any]) -> npt.NDArray[np.float32]:
    """The descriptor of a face crop as it lies (upright: the die's edges along the crop's).

    Gradient-direction histograms (a small HOG, signed directions) in 4 x 4 cells of the
    contrast map, square-rooted and scaled to unit length (192 numbers), then the ink level
    / 100 (how strongly the face's middle differs from the body; a plain surface has almost
    none). Not rotation-free by itself: the face set compares it at the four right-angle turns
    (:func:`turn_features`), which is all an upright die crop can differ by, and turns odd
    crops by the angles in between.
    """
    cm, ink = _contrast_map(_check_crop(crop))
    gx = cv2.Sobel(cm, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(cm, cv2.CV_32F, 0, 1, ksize=3)
    mag = np.sqrt(gx * gx + gy * gy)
    ang = (np.arctan2(gy, gx) % (2 * np.pi)) * (_BINS / (2 * np.pi))
    lo = np.floor(ang)
    frac = ang - lo
    b0 = lo.astype(np.int32) % _BINS
    b1 = (b0 + 1) % _BINS
    cell = np.arange(_FEAT_SIZE) * _CELLS // _FEAT_SIZE
    base = (cell[:, None] * _CELLS + cell[None, :]) * _BINS
    n = _CELLS * _CELLS * _BINS
    hist = np.bincount((base + b0).ravel(), (mag * (1 - frac)).ravel(), n)
    hist += np.bincount((base + b1).ravel(), (mag * frac).ravel(), n)
    v = np.sqrt(hist / (hist.sum() + 1e-6))
    v = v / (np.linalg.norm(v) + 1e-9)
    out: npt.NDArray[np.float32] = np.append(v, ink / 100.0).astype(np.float32)
    return out


def _turn_index() -> npt.NDArray[np.intp]:
    """Index that turns a descriptor as ``np.rot90`` turns its crop (a quarter turn).

    Turning the crop moves cell (r, c) to (C-1-c, r) and turns every gradient by -90 degrees
    (a quarter of the bins): new[r, c, b] = old[c, C-1-r, b + BINS/4].
    """
    r, c, b = np.meshgrid(np.arange(_CELLS), np.arange(_CELLS), np.arange(_BINS), indexing="ij")
    src = (c * _CELLS + (_CELLS - 1 - r)) * _BINS + (b + _BINS // 4) % _BINS
    return np.append(src.ravel(), _HOG)  # the ink stays


_TURN = _turn_index()
_TURN_HOG = _TURN[:_HOG]


def turn_features(f: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """The descriptor of the crop at its four right-angle turns (4 x n): 0, 90, 180, 270."""
    out = [f]
    for _ in range(3):
        out.append(out[-1][..., _TURN])
    return np.stack(out)


def face_variants(crop: npt.NDArray[np.uint8], n: int = FACE_VARIANTS,
                  seed: int = 0) -> list[npt.NDArray[Any]]:
    """The crop and ``n - 1`` variants a die could also show: turned (right angles plus up to
    8 degrees), shifted up to 8% and scaled 0.88-1.1 as the die finder may cut it, under
    light x0.7-1.3. Learning these is what lets 10 captures cover unseen rolls."""
    crop = _check_crop(crop)
    rng = np.random.default_rng(seed)
    h, w = crop.shape[:2]
    out: list[npt.NDArray[Any]] = [crop]
    for k in range(1, n):
        ang = 90.0 * (k % 4) + float(rng.uniform(-8, 8))
        m = np.asarray(cv2.getRotationMatrix2D((w / 2 - 0.5, h / 2 - 0.5), ang,
                                               float(rng.uniform(*_VARIANT_SCALE))), np.float64)
        m[:, 2] += rng.uniform(-0.08, 0.08, 2) * w
        v = cv2.warpAffine(crop, m, (w, h), flags=cv2.INTER_LINEAR,
                           borderMode=cv2.BORDER_REPLICATE)
        out.append(cv2.convertScaleAbs(v, alpha=float(rng.uniform(0.7, 1.3))))
    return out


def _turned_distances(q: npt.NDArray[np.float32],
                      x: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """Distance of each row of ``x`` to the nearest turn of each descriptor in ``q`` (m x n),
    over the gradient histograms (unit length, so |a - b|^2 = 2 - 2 a.b)."""
    q = q[..., :_HOG]
    x = x[..., :_HOG]
    best = q @ x.T
    for _ in range(3):
        q = q[..., _TURN_HOG]
        best = np.maximum(best, q @ x.T)
    out: npt.NDArray[np.float32] = np.sqrt(np.maximum(0.0, 2.0 - 2.0 * best))
    return out


def face_threshold(x: npt.NDArray[np.float32], y: npt.NDArray[Any],
                   groups: npt.NDArray[Any] | None = None) -> float:
    """Distance beyond which a crop is no known face.

    Between the typical same-face spread and the nearest other face; widened so that 99% of
    examples lie within it of their face's examples from *other* captures (variants of one
    capture, ``groups``, are left out, since a new roll is never one of them).
    """
    d = _turned_distances(x, x)
    same = y[:, None] == y[None, :]
    other = np.where(same, np.inf, d)
    nearest_other = float(np.median(other.min(axis=1))) if np.isfinite(other).any() else 1.0
    np.fill_diagonal(d, np.inf)
    within = np.where(same, d, np.inf).min(axis=1)
    within_f = within[np.isfinite(within)]
    spread = float(np.median(within_f)) if within_f.size else nearest_other / 4
    rule = max(spread * 3.0, nearest_other * 0.75, 1e-3)
    if groups is None:
        return rule
    apart = same & (groups[:, None] != groups[None, :])
    held = np.where(apart, d, np.inf).min(axis=1)
    held = held[np.isfinite(held)]
    if not held.size:
        return rule
    return max(rule, 1.3 * float(np.percentile(held, 99)))


_TILT_MIN = 4.0  # degrees: a crop whose die edges lie further from upright is also turned


def _edge_angle(crop: npt.NDArray[Any]) -> float:
    """The angle (-45..45 degrees) of the die's edges in a crop, from the gradients near the
    crop's border (where the die's outline is, and rarely the icon): their directions taken
    four times over cancel the right-angle turns between the four edges."""
    g = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY).astype(np.float32)
    gx = cv2.Sobel(g, cv2.CV_32F, 1, 0)
    gy = cv2.Sobel(g, cv2.CV_32F, 0, 1)
    h, w = g.shape
    yy, xx = np.mgrid[0:h, 0:w]
    ring = np.maximum(np.abs(xx - (w - 1) / 2) / w, np.abs(yy - (h - 1) / 2) / h) > 0.3
    # |g|^2 e^(4i theta) = (gx + i gy)^4 / |g|^2: no angles computed
    c = (gx + 1j * gy)[ring]
    z = complex(np.sum(c**4 / (np.abs(c) ** 2 + 1e-6)))
    return math.degrees(math.atan2(z.imag, z.real) / 4) if abs(z) > 0 else 0.0


def _turned(crop: npt.NDArray[Any], angle: float, zoom: float = 1.0) -> npt.NDArray[Any]:
    """The crop turned by ``angle`` degrees (and zoomed) about its centre, border pixels
    repeated."""
    h, w = crop.shape[:2]
    m = cv2.getRotationMatrix2D((w / 2 - 0.5, h / 2 - 0.5), angle, zoom)
    out: npt.NDArray[Any] = cv2.warpAffine(crop, m, (w, h), flags=cv2.INTER_LINEAR,
                                           borderMode=cv2.BORDER_REPLICATE)
    return out


def _desc(x: object) -> str:
    if isinstance(x, np.ndarray):
        return f"array of shape {x.shape} and dtype {x.dtype}"
    return type(x).__name__


_DECIMALS = 4  # stored descriptors are rounded to this many decimals


@dataclass(frozen=True)
class FaceSet:
    """Icon faces learned from a few example crops per face; classifies new crops.

    Nearest neighbour over :func:`face_features` compared at the four right-angle turns (and,
    for a crop that fits nothing upright, at turns in between), so a face is recognised at any
    rotation. A crop further than ``threshold`` from every example, or nearly as close to two
    labels, comes out as ``(None, low confidence)``. ``features`` names the descriptor the
    examples were made with; a set made with another one is refused.
    """

    name: str
    labels: tuple[str, ...]
    examples: tuple[tuple[int, tuple[float, ...]], ...]
    threshold: float
    features: str = FACE_FEATURES

    def __post_init__(self) -> None:
        if not (isinstance(self.name, str) and self.name):
            raise ValueError(f"FaceSet.name must be a non-empty string, got {self.name!r}")
        if self.features != FACE_FEATURES:
            raise ValueError(
                f"FaceSet {self.name!r} was learned with face features {self.features!r}, but "
                f"this vision describes faces as {FACE_FEATURES!r}: learn the set again from "
                "its captures")
        if not self.labels or len(set(self.labels)) != len(self.labels):
            raise ValueError(f"FaceSet {self.name!r}: labels must be unique, got {self.labels!r}")
        if not self.examples:
            raise ValueError(f"FaceSet {self.name!r}: needs at least one example")
        n = FEATURE_LENGTH
        for i, (li, f) in enumerate(self.examples):
            if not 0 <= li < len(self.labels):
                raise ValueError(f"FaceSet {self.name!r}: example {i} has bad label index {li}")
            if len(f) != n:
                raise ValueError(f"FaceSet {self.name!r}: example {i} has {len(f)} features, "
                                 f"expected {n}")
        if _finite(f"FaceSet {self.name!r} threshold", self.threshold) <= 0:
            raise ValueError(f"FaceSet {self.name!r}: threshold must be > 0")
        x = np.array([f for _, f in self.examples], np.float32)
        if not np.isfinite(x).all():
            raise ValueError(f"FaceSet {self.name!r}: examples hold non-finite numbers")
        y = np.array([li for li, _ in self.examples], np.int32)
        order = np.argsort(y, kind="stable")
        y_sorted = y[order]
        starts = np.flatnonzero(np.r_[True, y_sorted[1:] != y_sorted[:-1]])
        object.__setattr__(self, "_x", x[order])
        object.__setattr__(self, "_min_ink", INK_SHARE * float(np.percentile(x[:, _HOG], 5)))
        object.__setattr__(self, "_starts", starts)
        object.__setattr__(self, "_present", y_sorted[starts])

    @classmethod
    def build(cls, name: str, labels: Sequence[str],
              examples: Sequence[tuple[int, npt.NDArray[np.float32]]],
              groups: Sequence[int] | None = None) -> FaceSet:
        """A set from (label index, :func:`face_features` vector) examples, with its threshold,
        in the stored form (rounded as saved, so saving and loading change nothing).
        ``groups`` says which examples are variants of one capture."""
        if len(labels) < 2:
            raise ValueError(f"a face set needs at least 2 labels, got {list(labels)}")
        if not examples:
            raise ValueError(f"face set {name!r} needs at least one example")
        x = np.round(np.array([f for _, f in examples], np.float32), _DECIMALS).astype(np.float32)
        y = np.array([li for li, _ in examples], np.int32)
        g = np.asarray(groups, np.int64) if groups is not None else None
        threshold = round(face_threshold(x, y, g), 6)
        return cls(name=name, labels=tuple(labels),
                   examples=tuple((int(li), tuple(float(v) for v in f))
                                  for li, f in zip(y, x, strict=True)),
                   threshold=threshold)

    @classmethod
    def learn(cls, samples: Mapping[str, Sequence[npt.NDArray[np.uint8]]],
              name: str = "faces", variants: int = FACE_VARIANTS) -> FaceSet:
        """Learn from ``{label: [crop, ...]}`` (at least two labels, a crop each), each crop
        with ``variants - 1`` turned, shifted and relit copies (:func:`face_variants`)."""
        if len(samples) < 2:
            raise ValueError(f"FaceSet.learn needs at least 2 labels, got {len(samples)}")
        labels = tuple(str(k) for k in samples)
        examples: list[tuple[int, npt.NDArray[np.float32]]] = []
        groups: list[int] = []
        capture = 0
        for li, label in enumerate(labels):
            crops = samples[label]
            if not crops:
                raise ValueError(f"FaceSet.learn: label {label!r} has no example crops")
            for crop in crops:
                for v in face_variants(crop, variants, seed=capture):
                    examples.append((li, face_features(v)))
                    groups.append(capture)
                capture += 1
        return cls.build(name, labels, examples, groups)

    def _per_label(self, f: npt.NDArray[np.float32]) -> npt.NDArray[np.float64]:
        """Distance from a descriptor (at its best turn) to each label's nearest example."""
        x: npt.NDArray[np.float32] = self._x  # type: ignore[attr-defined]
        starts: npt.NDArray[np.intp] = self._starts  # type: ignore[attr-defined]
        present: npt.NDArray[np.int32] = self._present  # type: ignore[attr-defined]
        d = _turned_distances(f[None, :], x)[0]
        best = np.full(len(self.labels), np.inf)
        best[present] = np.minimum.reduceat(d, starts)
        return best

    def _decide(self, best: npt.NDArray[np.float64]) -> tuple[int | None, float]:
        order = np.argsort(best)
        d1 = float(best[order[0]])
        d2 = float(best[order[1]]) if len(order) > 1 else math.inf
        margin = 1.0 - d1 / d2 if math.isfinite(d2) and d2 > 0 else 1.0
        closeness = max(0.0, 1.0 - d1 / self.threshold)
        conf = float(min(1.0, 0.5 * closeness + 2.0 * margin))
        if d1 > self.threshold or margin < FACE_MARGIN:
            return None, min(conf, 0.3)
        return int(order[0]), max(conf, 0.5)

    def classify(self, crop: npt.NDArray[np.uint8],
                 upright: bool = False) -> tuple[str | None, float]:
        """(label, confidence 0..1), or (None, low confidence) when no face fits well.

        The crop is compared at its four right-angle turns, and, unless the caller says it
        was cut ``upright`` along the die's edges (as :func:`vision.read_dice` cuts them), also
        turned upright when the edges near its border lie at an angle. When still no face
        fits, it is tried turned by 15..75 degrees and zoomed in (a crop cut too wide).
        """
        crop = _check_crop(crop)
        f = face_features(crop)
        if f[_HOG] < self._min_ink:  # type: ignore[attr-defined]
            return None, 0.0
        best = self._per_label(f)
        tilt = 0.0 if upright else _edge_angle(crop)
        if abs(tilt) > _TILT_MIN:
            best = np.minimum(best, self._per_label(face_features(_turned(crop, tilt))))
        got, conf = self._decide(best)
        if got is None:
            for ang in _SEARCH_ANGLES:
                best = np.minimum(best, self._per_label(face_features(_turned(crop, ang))))
            for zoom in _SEARCH_ZOOMS:
                best = np.minimum(best, self._per_label(face_features(_turned(crop, 0.0, zoom))))
            got, conf = self._decide(best)
        return (self.labels[got] if got is not None else None), conf

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "features": self.features,
            "labels": list(self.labels),
            "threshold": self.threshold,
            "examples": [[li, [round(v, _DECIMALS) for v in f]] for li, f in self.examples],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> FaceSet:
        """The set from :meth:`to_dict`; a set without ``features`` is from before they were
        named (``polar-fourier-1``) and is refused with a clear error."""
        name = data.get("name") if isinstance(data, Mapping) else None
        return cls._from_doc(_doc(data, FaceSetDoc, f"face set {name!r}" if name else "face set"))

    @classmethod
    def _from_doc(cls, doc: FaceSetDoc) -> FaceSet:
        return cls(name=doc.name, labels=tuple(doc.labels),
                   examples=tuple((li, tuple(f)) for li, f in doc.examples),
                   threshold=doc.threshold, features=doc.features)


#: The descriptor of face sets stored before descriptors were named.
LEGACY_FACE_FEATURES = "polar-fourier-1"


# --------------------------------------------------------------------------- a taught table

#: The detector's cut a taught table may move to: a heatmap peak this strong or stronger is a
#: die candidate (vision.cnn.HEAT_MIN, 0.45, for a table nothing was taught about).
HEAT_MIN_RANGE = (0.2, 0.9)
#: The probability a value needs at a taught table (vision.read.VALUE_MIN, 0.5, untaught).
VALUE_MIN_RANGE = (0.3, 0.95)
_HEAD_DECIMALS = 6  # stored head weights are rounded to this many decimals


@dataclass(frozen=True)
class TableHead:
    """What a table taught the reader, for one pair of models (``model``: their
    :attr:`vision.cnn.Nets.identity`): a linear head on the classifier's features that
    replaces its last layer (``weights`` 7 x F, ``bias`` 7; None: the classifier's own), the
    detector's cut at this table (``heat_min``) and the probability a value needs there
    (``value_min``). ``dice``: how many examples it was fitted on. A reader with other models
    reads as if nothing was taught (calibration fits the head again from the table's stored
    examples)."""

    model: str
    heat_min: float
    weights: tuple[tuple[float, ...], ...] | None = None
    bias: tuple[float, ...] | None = None
    dice: int = 0
    value_min: float = 0.5

    def __post_init__(self) -> None:
        if not (isinstance(self.model, str) and self.model):
            raise ValueError(f"TableHead.model must name the models, got {self.model!r}")
        lo, hi = HEAT_MIN_RANGE
        if not lo <= _finite("TableHead.heat_min", self.heat_min) <= hi:
            raise ValueError(f"TableHead.heat_min must be within {lo}..{hi}, "
                             f"got {self.heat_min!r}")
        object.__setattr__(self, "heat_min", float(self.heat_min))
        lo, hi = VALUE_MIN_RANGE
        if not lo <= _finite("TableHead.value_min", self.value_min) <= hi:
            raise ValueError(f"TableHead.value_min must be within {lo}..{hi}, "
                             f"got {self.value_min!r}")
        object.__setattr__(self, "value_min", float(self.value_min))
        if (self.weights is None) != (self.bias is None):
            raise ValueError("TableHead: weights and bias come together (or neither)")
        if self.weights is not None and self.bias is not None:
            if len(self.weights) != 7 or len(self.bias) != 7:
                raise ValueError(f"TableHead: needs 7 rows of weights and 7 biases (not a "
                                 f"die, 1..6), got {len(self.weights)} and {len(self.bias)}")
            width = len(self.weights[0])
            if width < 1 or any(len(r) != width for r in self.weights):
                raise ValueError("TableHead: the weight rows must all have the same length")
            w = tuple(tuple(_finite(f"TableHead.weights[{i}]", v) for v in r)
                      for i, r in enumerate(self.weights))
            object.__setattr__(self, "weights", w)
            object.__setattr__(self, "bias", tuple(_finite(f"TableHead.bias[{i}]", v)
                                                   for i, v in enumerate(self.bias)))
        if isinstance(self.dice, bool) or not isinstance(self.dice, int) or self.dice < 0:
            raise ValueError(f"TableHead.dice must be a count >= 0, got {self.dice!r}")

    @classmethod
    def build(cls, model: str, heat_min: float, weights: npt.NDArray[Any] | None,
              bias: npt.NDArray[Any] | None, dice: int, value_min: float = 0.5) -> TableHead:
        """A head in its stored form (rounded as saved, so saving and loading change
        nothing)."""
        cuts = round(float(heat_min), 4), round(float(value_min), 4)
        if weights is None or bias is None:
            return cls(model, cuts[0], None, None, dice, cuts[1])
        w = np.round(np.asarray(weights, np.float64), _HEAD_DECIMALS)
        b = np.round(np.asarray(bias, np.float64), _HEAD_DECIMALS)
        return cls(model, cuts[0], tuple(tuple(float(v) for v in r) for r in w),
                   tuple(float(v) for v in b), dice, cuts[1])

    def arrays(self) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]] | None:
        """The head as (weights 7 x F, bias 7) arrays, or None (the classifier's own)."""
        if self.weights is None or self.bias is None:
            return None
        return np.array(self.weights, np.float64), np.array(self.bias, np.float64)

    def to_dict(self) -> dict[str, Any]:
        return {"model": self.model, "heat_min": self.heat_min,
                "weights": None if self.weights is None else [list(r) for r in self.weights],
                "bias": None if self.bias is None else list(self.bias), "dice": self.dice,
                "value_min": self.value_min}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TableHead:
        return cls._from_doc(_doc(data, TableHeadDoc, "head"))

    @classmethod
    def _from_doc(cls, doc: TableHeadDoc) -> TableHead:
        return cls(doc.model, doc.heat_min,
                   None if doc.weights is None else tuple(tuple(r) for r in doc.weights),
                   None if doc.bias is None else tuple(doc.bias), doc.dice, doc.value_min)


# --------------------------------------------------------------------------- profile


@dataclass(frozen=True)
class Profile:
    """Everything vision may know about one table; every part is optional.

    ``die_size`` is the expected side of a die in pixels (in the table plane when a homography
    is given); it tightens detection. ``face_sets`` are tried on dice that show no pips.
    ``head`` is what the table taught the reader about its own dice (:class:`TableHead`).
    """

    table: TableRegion | None = None
    palette: Palette | None = None
    face_sets: tuple[FaceSet, ...] = field(default=())
    die_size: float | None = None
    head: TableHead | None = None

    def __post_init__(self) -> None:
        if self.table is not None and not isinstance(self.table, TableRegion):
            raise ValueError(f"Profile.table must be a TableRegion, got {_desc(self.table)}")
        if self.palette is not None and not isinstance(self.palette, Palette):
            raise ValueError(f"Profile.palette must be a Palette, got {_desc(self.palette)}")
        if not isinstance(self.face_sets, tuple) or not all(
            isinstance(f, FaceSet) for f in self.face_sets
        ):
            raise ValueError("Profile.face_sets must be a tuple of FaceSet")
        if self.die_size is not None and _finite("Profile.die_size", self.die_size) <= 0:
            raise ValueError(f"Profile.die_size must be > 0, got {self.die_size!r}")
        if self.head is not None and not isinstance(self.head, TableHead):
            raise ValueError(f"Profile.head must be a TableHead, got {_desc(self.head)}")

    def to_dict(self) -> dict[str, Any]:
        return {
            "table": self.table.to_dict() if self.table else None,
            "palette": self.palette.to_dict() if self.palette else None,
            "face_sets": [f.to_dict() for f in self.face_sets],
            "die_size": self.die_size,
            "head": self.head.to_dict() if self.head else None,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Profile:
        """The profile of :meth:`to_dict`'s layout (:class:`ProfileDoc`). Raised when ...:
        ValueError naming the key's path and what was wrong."""
        doc = _doc(data, ProfileDoc, "profile")
        t, p = doc.table, doc.palette
        return cls(
            table=None if t is None else TableRegion._from_doc(t),
            palette=None if p is None else Palette._from_doc(p),
            face_sets=tuple(FaceSet._from_doc(f) for f in doc.face_sets),
            die_size=doc.die_size,
            head=None if doc.head is None else TableHead._from_doc(doc.head),
        )


# --------------------------------------------------------------------------- stored layout
# What :meth:`Profile.to_dict` writes, declared once as msgspec structs: the types of each key,
# no unknown key; a key left out takes its default. The values' own rules (a polygon of 3
# points or more, a homography that can be inverted...) are the dataclasses' above.


class _Doc(msgspec.Struct, forbid_unknown_fields=True):
    pass


class TableRegionDoc(_Doc):
    polygon: list[Point]
    homography: list[float] | None = None
    table_size: tuple[int, int] | None = None


class ColourDoc(_Doc):
    name: str
    bgr: BGR
    tolerance: float = 60.0


class PaletteDoc(_Doc):
    colours: list[ColourDoc]


class FaceSetDoc(_Doc):
    name: str
    labels: list[str]
    threshold: float
    examples: list[tuple[int, list[float]]]
    features: str = LEGACY_FACE_FEATURES  # sets stored before features were named


class TableHeadDoc(_Doc):
    model: str
    heat_min: float
    weights: list[list[float]] | None = None
    bias: list[float] | None = None
    dice: int = 0
    value_min: float = 0.5


class ProfileDoc(_Doc):
    table: TableRegionDoc | None = None
    palette: PaletteDoc | None = None
    face_sets: list[FaceSetDoc] = []
    die_size: float | None = None
    head: TableHeadDoc | None = None


D = TypeVar("D", bound=_Doc)


def _doc(data: object, layout: type[D], what: str) -> D:
    """``data`` read as ``layout``. Raised when ...: ValueError naming ``what``, the key's path
    and what was wrong (msgspec's words: ``profile: Object contains unknown field `tabel```)."""
    try:
        return msgspec.convert(data, layout, strict=True)
    except msgspec.ValidationError as e:
        raise ValueError(f"{what}: {e}") from None
