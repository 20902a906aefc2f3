"""Profile types: what calibration teaches vision about one table.

A :class:`Profile` holds an optional :class:`TableRegion` (where the tray is, and a homography
that undoes the camera's perspective), an optional :class:`Palette` of named die colours and any
number of learned icon :class:`FaceSet` s. All are frozen dataclasses with a plain-JSON
``to_dict()`` / ``from_dict()`` round trip; calibration adds strict versioned files on top.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import cv2
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
        h = data.get("homography")
        ts = data.get("table_size")
        return cls(
            polygon=tuple((float(x), float(y)) for x, y in data["polygon"]),
            homography=tuple(float(v) for v in h) if h is not None else None,
            table_size=(int(ts[0]), int(ts[1])) if ts is not None else None,
        )


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
        b = data["bgr"]
        return cls(str(data["name"]), (int(b[0]), int(b[1]), int(b[2])),
                   float(data.get("tolerance", 60.0)))


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
        labs = np.array([c.lab for c in self.colours], dtype=np.float32)
        object.__setattr__(self, "_labs", labs)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(c.name for c in self.colours)

    def classify_lab(self, lab: Sequence[float]) -> tuple[str | None, float]:
        """Nearest colour name for an OpenCV 8-bit Lab value, and a 0..1 match score."""
        labs: npt.NDArray[np.float32] = self._labs  # type: ignore[attr-defined]
        d = labs - np.asarray(lab, dtype=np.float32)
        # lightness matters less than hue: lighting changes L much more than a, b
        dist = np.sqrt(0.35 * d[:, 0] ** 2 + d[:, 1] ** 2 + d[:, 2] ** 2)
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
        return cls(tuple(ColourModel.from_dict(c) for c in data["colours"]))


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

_FEAT_SIZE = 48


def face_features(crop: npt.NDArray[Any]) -> npt.NDArray[np.float32]:
    """A rotation-independent descriptor of a (roughly square, upright-or-not) face crop.

    The crop is sampled on a polar grid around its centre; the magnitude of the Fourier
    transform along the angle axis does not change when the face turns, so neither does the
    descriptor. Intensities are normalised first, so lighting scale does not matter.
    """
    if not isinstance(crop, np.ndarray) or crop.ndim not in (2, 3) or crop.size == 0:
        raise ValueError(f"face crop must be a non-empty 2-D or 3-D image, got {_desc(crop)}")
    if crop.dtype != np.uint8:
        raise ValueError(f"face crop must be uint8, got dtype {crop.dtype}")
    if crop.ndim == 2:
        crop = cv2.cvtColor(crop, cv2.COLOR_GRAY2BGR)
    # distance from the body colour: the same picture for dark-on-light and light-on-dark
    lab = cv2.cvtColor(cv2.resize(crop, (_FEAT_SIZE, _FEAT_SIZE), interpolation=cv2.INTER_AREA),
                       cv2.COLOR_BGR2LAB).astype(np.float32)
    body = np.median(lab.reshape(-1, 3), axis=0)
    d = lab - body
    g = np.sqrt(0.6 * d[:, :, 0] ** 2 + d[:, :, 1] ** 2 + d[:, :, 2] ** 2)
    g = g / (float(np.percentile(g, 98)) + 8.0)
    c = _FEAT_SIZE / 2.0
    polar = cv2.warpPolar(g, (16, 64), (c, c), c * 0.8, cv2.WARP_POLAR_LINEAR)
    spec = np.abs(np.fft.rfft(polar, axis=0))[:9] / 64.0
    feats = [spec.ravel()]
    return np.concatenate(feats).astype(np.float32)


def _desc(x: object) -> str:
    if isinstance(x, np.ndarray):
        return f"array of shape {x.shape} and dtype {x.dtype}"
    return type(x).__name__


@dataclass(frozen=True)
class FaceSet:
    """Icon faces learned from a few example crops per face; classifies new crops.

    Nearest-neighbour over :func:`face_features`, so a face is recognised at any rotation.
    A crop further than ``threshold`` from every example, or nearly as close to two labels,
    comes out as ``(None, low confidence)``.
    """

    name: str
    labels: tuple[str, ...]
    examples: tuple[tuple[int, tuple[float, ...]], ...]
    threshold: float

    def __post_init__(self) -> None:
        if not (isinstance(self.name, str) and self.name):
            raise ValueError(f"FaceSet.name must be a non-empty string, got {self.name!r}")
        if not self.labels or len(set(self.labels)) != len(self.labels):
            raise ValueError(f"FaceSet {self.name!r}: labels must be unique, got {self.labels!r}")
        if not self.examples:
            raise ValueError(f"FaceSet {self.name!r}: needs at least one example")
        n = len(self.examples[0][1])
        for i, (li, f) in enumerate(self.examples):
            if not 0 <= li < len(self.labels):
                raise ValueError(f"FaceSet {self.name!r}: example {i} has bad label index {li}")
            if len(f) != n:
                raise ValueError(f"FaceSet {self.name!r}: example {i} has {len(f)} features, "
                                 f"expected {n}")
        if _finite(f"FaceSet {self.name!r} threshold", self.threshold) <= 0:
            raise ValueError(f"FaceSet {self.name!r}: threshold must be > 0")
        object.__setattr__(self, "_x", np.array([f for _, f in self.examples], np.float32))
        object.__setattr__(self, "_y", np.array([li for li, _ in self.examples], np.int32))

    @classmethod
    def learn(cls, samples: Mapping[str, Sequence[npt.NDArray[np.uint8]]],
              name: str = "faces") -> FaceSet:
        """Learn from ``{label: [crop, ...]}``; at least one crop per label, two labels."""
        if len(samples) < 2:
            raise ValueError(f"FaceSet.learn needs at least 2 labels, got {len(samples)}")
        labels = tuple(str(k) for k in samples)
        examples: list[tuple[int, tuple[float, ...]]] = []
        for li, label in enumerate(labels):
            crops = samples[label]
            if not crops:
                raise ValueError(f"FaceSet.learn: label {label!r} has no example crops")
            for crop in crops:
                f = face_features(crop)
                examples.append((li, tuple(float(v) for v in f)))
        x = np.array([f for _, f in examples], np.float32)
        y = np.array([li for li, _ in examples])
        d = np.linalg.norm(x[:, None, :] - x[None, :, :], axis=2)
        same = y[:, None] == y[None, :]
        other = np.where(same, np.inf, d)
        # the threshold sits between typical same-face spread and the nearest other face
        nearest_other = float(np.median(other.min(axis=1)))
        np.fill_diagonal(d, np.inf)
        within = np.where(same, d, np.inf).min(axis=1)
        within_f = within[np.isfinite(within)]
        spread = float(np.median(within_f)) if within_f.size else nearest_other / 4
        threshold = max(spread * 3.0, nearest_other * 0.75, 1e-3)
        return cls(name=name, labels=labels, examples=tuple(examples), threshold=threshold)

    def classify(self, crop: npt.NDArray[np.uint8]) -> tuple[str | None, float]:
        """(label, confidence 0..1), or (None, low confidence) when no face fits well."""
        f = face_features(crop)
        x: npt.NDArray[np.float32] = self._x  # type: ignore[attr-defined]
        y: npt.NDArray[np.int32] = self._y  # type: ignore[attr-defined]
        d = np.linalg.norm(x - f, axis=1)
        best = np.full(len(self.labels), np.inf)
        np.minimum.at(best, y, d)
        order = np.argsort(best)
        d1 = float(best[order[0]])
        d2 = float(best[order[1]]) if len(order) > 1 else np.inf
        margin = 1.0 - d1 / d2 if np.isfinite(d2) and d2 > 0 else 1.0
        closeness = max(0.0, 1.0 - d1 / self.threshold)
        conf = float(min(1.0, 0.5 * closeness + margin))
        if d1 > self.threshold or margin < 0.12:
            return None, min(conf, 0.3)
        return self.labels[int(order[0])], max(conf, 0.5)

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "labels": list(self.labels),
            "threshold": self.threshold,
            "examples": [[li, [round(v, 5) for v in f]] for li, f in self.examples],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> FaceSet:
        return cls(
            name=str(data["name"]),
            labels=tuple(str(v) for v in data["labels"]),
            examples=tuple((int(li), tuple(float(v) for v in f)) for li, f in data["examples"]),
            threshold=float(data["threshold"]),
        )


# --------------------------------------------------------------------------- profile


@dataclass(frozen=True)
class Profile:
    """Everything vision may know about one table; every part is optional.

    ``die_size`` is the expected side of a die in pixels (in the table plane when a homography
    is given); it tightens detection. ``face_sets`` are tried on dice that show no pips.
    """

    table: TableRegion | None = None
    palette: Palette | None = None
    face_sets: tuple[FaceSet, ...] = field(default=())
    die_size: float | None = None

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

    def to_dict(self) -> dict[str, Any]:
        return {
            "table": self.table.to_dict() if self.table else None,
            "palette": self.palette.to_dict() if self.palette else None,
            "face_sets": [f.to_dict() for f in self.face_sets],
            "die_size": self.die_size,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Profile:
        if not isinstance(data, Mapping):
            raise ValueError(f"a profile must be a JSON object, got {type(data).__name__}")
        unknown = set(data) - {"table", "palette", "face_sets", "die_size"}
        if unknown:
            raise ValueError(f"profile has unknown keys: {sorted(unknown)}")
        t, p, ds = data.get("table"), data.get("palette"), data.get("die_size")
        return cls(
            table=TableRegion.from_dict(t) if t else None,
            palette=Palette.from_dict(p) if p else None,
            face_sets=tuple(FaceSet.from_dict(f) for f in data.get("face_sets", ())),
            die_size=float(ds) if ds is not None else None,
        )
