"""Colour palettes learned from the group's own dice under their own light.

The players show the dice of each colour in turn (a folder of images per colour name), or roll
them all and name each cluster. Each die's body colour (pips left out) is measured in Lab; a
colour's model is the median of its dice with a robust spread (1.4826 x median absolute
deviation per axis). It becomes a vision :class:`~vision.profile.ColourModel` whose reference
is the median and whose tolerance covers the measured spread plus a change of light of
``light`` (default +/-30%), so read_dice keeps naming the colour when a cloud passes.

:func:`separability` then reports the colour pairs this camera cannot tell apart under this
light: it replays each colour's dice, brightened and darkened and jittered by its spread, through
vision's own classifier and counts how often they come out as another colour.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from calibration.images import CalibrationError, DieCrop
from vision.profile import ColourModel, Palette

Image = npt.NDArray[Any]
Lab = tuple[float, float, float]

#: The die colours the rulebooks name.
RULEBOOK_COLOURS = ("green", "blue", "pink", "black", "yellow", "red", "purple", "orange", "white")
DEFAULT_LIGHT = 0.3
#: Weights of (L, a, b) in vision's colour distance (Palette.classify_lab), mirrored here to
#: size tolerances in the same units.
LAB_WEIGHTS = (0.35, 1.0, 1.0)
MIN_SPREAD = 2.0  # Lab units: floor for the spread of a colour shown with identical dice
CONFUSION_LIMIT = 0.01  # a pair confused more often than this is reported


def body_lab(crop: Image) -> Lab:
    """The median Lab colour (OpenCV 8-bit) of a die crop's body, leaving out pips and edge."""
    if not isinstance(crop, np.ndarray) or crop.ndim != 3 or crop.dtype != np.uint8:
        raise CalibrationError("a die crop must be a BGR uint8 image")
    h, w = crop.shape[:2]
    qy, qx = max(1, h // 6), max(1, w // 6)
    lab = cv2.cvtColor(crop[qy:h - qy, qx:w - qx], cv2.COLOR_BGR2LAB).reshape(-1, 3)
    lab = lab.astype(np.float32)
    med = np.median(lab, axis=0)
    d = np.sqrt(((lab - med) ** 2 * np.array(LAB_WEIGHTS, np.float32)).sum(axis=1))
    body = lab[d <= max(12.0, float(np.percentile(d, 60)))]
    m = np.median(body, axis=0) if len(body) else med
    return (float(m[0]), float(m[1]), float(m[2]))


def lab_to_bgr(lab: Sequence[float]) -> tuple[int, int, int]:
    px = np.clip(np.round(np.array([[list(lab)]], np.float32)), 0, 255).astype(np.uint8)
    b, g, r = cv2.cvtColor(px, cv2.COLOR_LAB2BGR)[0, 0]
    return (int(b), int(g), int(r))


def bgr_to_lab_f(bgr: Image) -> Image:
    """Lab (OpenCV 8-bit scale, float) of an (n, 3) array of BGR values 0..255 (float ok)."""
    f = np.clip(np.asarray(bgr, np.float32).reshape(-1, 1, 3) / 255.0, 0, 1)
    lab = cv2.cvtColor(f, cv2.COLOR_BGR2LAB).reshape(-1, 3)
    out: Image = np.stack([lab[:, 0] * 255.0 / 100.0, lab[:, 1] + 128.0, lab[:, 2] + 128.0], 1)
    return out


def weighted_dist(d: Image) -> Image:
    """vision's colour distance of Lab differences (last axis = L, a, b)."""
    w = np.asarray(LAB_WEIGHTS, np.float64)
    out: Image = np.sqrt((np.asarray(d, np.float64) ** 2 * w).sum(axis=-1))
    return out


@dataclass(frozen=True)
class ColourStats:
    """What was learned about one colour: Lab median, robust spread, number of dice seen."""

    name: str
    lab: Lab
    spread: Lab
    samples: int

    def __post_init__(self) -> None:
        if not (isinstance(self.name, str) and self.name):
            raise CalibrationError(f"colour name must be a non-empty string, got {self.name!r}")
        for field_name in ("lab", "spread"):
            v = getattr(self, field_name)
            if len(v) != 3 or not all(isinstance(x, float) and math.isfinite(x) for x in v):
                raise CalibrationError(f"colour {self.name!r}: {field_name} must be 3 finite "
                                       f"floats, got {v!r}")
        if any(x < 0 for x in self.spread):
            raise CalibrationError(f"colour {self.name!r}: spread must be >= 0")
        if not (isinstance(self.samples, int) and self.samples >= 1):
            raise CalibrationError(f"colour {self.name!r}: samples must be >= 1")


def _brightened(lab: Sequence[float], factor: float) -> Image:
    """The Lab colour of the same surface under ``factor`` times the light (8-bit camera)."""
    bgr = np.asarray(lab_to_bgr(lab), np.float64) * factor
    out: Image = bgr_to_lab_f(np.clip(bgr, 0, 255))[0]
    return out


def stats_from_labs(name: str, labs: Sequence[Lab]) -> ColourStats:
    """A colour's robust model from the Lab body colours of its example dice."""
    if not labs:
        raise CalibrationError(f"colour {name!r}: no dice were found in its images")
    a = np.asarray(labs, np.float64)
    med = np.median(a, axis=0)
    mad = np.median(np.abs(a - med), axis=0) * 1.4826
    spread = np.maximum(mad, MIN_SPREAD)
    return ColourStats(name, tuple(round(float(v), 3) for v in med),  # type: ignore[arg-type]
                       tuple(round(float(v), 3) for v in spread),  # type: ignore[arg-type]
                       len(labs))


def tolerance(stats: ColourStats, light: float = DEFAULT_LIGHT) -> float:
    """How far (vision's distance) a die of this colour may stray: spread plus the light change."""
    spread = float(weighted_dist(np.asarray(stats.spread)) * 3.0)
    shift = max(float(weighted_dist(_brightened(stats.lab, f) - np.asarray(stats.lab)))
                for f in (1.0 - light, 1.0 + light))
    return round(max(20.0, spread + shift + 8.0), 2)


def to_palette(stats: Sequence[ColourStats], light: float = DEFAULT_LIGHT) -> Palette:
    """vision's Palette for these learned colours."""
    if not stats:
        raise CalibrationError("a palette needs at least one colour")
    return Palette(tuple(ColourModel(s.name, lab_to_bgr(s.lab), tolerance(s, light))
                         for s in stats))


def augment(labs: Sequence[Lab], spread: Sequence[float], light: float, steps: int = 7,
            jitter: int = 3, seed: int = 0) -> Image:
    """Example colours as they would look under 1 +/- ``light`` times the light, jittered."""
    rng = np.random.default_rng(seed)
    base = np.asarray(labs, np.float64)
    pts = [base]
    for _ in range(jitter):
        pts.append(base + rng.standard_normal(base.shape) * np.asarray(spread) * 0.7)
    allp = np.clip(np.vstack(pts), 0, 255)
    bgr = np.array([lab_to_bgr(v) for v in allp], np.float64)
    out = [bgr_to_lab_f(np.clip(bgr * f, 0, 255)) for f in np.linspace(1 - light, 1 + light,
                                                                         steps)]
    res: Image = np.vstack(out)
    return res


def _assign(x: Image, refs: Image) -> Image:
    d = weighted_dist(x[:, None, :] - refs[None, :, :])
    out: Image = np.argmin(d, axis=1)
    return out


def _quantised(refs: Image) -> Image:
    """References as vision stores them (8-bit BGR), back in Lab."""
    out: Image = bgr_to_lab_f(np.array([lab_to_bgr(r) for r in refs], np.float64))
    return out


def fit_references(x: Image, y: Image, k: int, epochs: int = 60) -> Image:
    """One Lab reference per colour so that vision's nearest-reference rule names ``x`` right.

    Starts from each colour's mean and runs learning vector quantisation (LVQ1): a wrongly
    named example pulls its own colour's reference closer and pushes the winner away. The
    references with the fewest mistakes once rounded to 8-bit BGR are kept.
    """
    refs = np.array([x[y == j].mean(axis=0) for j in range(k)], np.float64)
    best = _quantised(refs)
    best_err = int(np.count_nonzero(_assign(x, best) != y))
    rng = np.random.default_rng(0)
    w = np.asarray(LAB_WEIGHTS, np.float64)
    for epoch in range(epochs):
        if best_err == 0:
            break
        lr = 0.08 * (1.0 - epoch / epochs)
        for i in rng.permutation(len(x)):
            d = weighted_dist(refs - x[i])
            win = int(np.argmin(d))
            if win != y[i]:
                refs[y[i]] += lr * (x[i] - refs[y[i]]) / np.sqrt(w) * np.sqrt(w)
                refs[win] -= lr * (x[i] - refs[win])
        refs = np.clip(refs, 0, 255)
        q = _quantised(refs)
        err = int(np.count_nonzero(_assign(x, q) != y))
        if err < best_err:
            best, best_err = q, err
    return best


def learn(samples: Mapping[str, Sequence[DieCrop]], light: float = DEFAULT_LIGHT,
          ) -> tuple[list[ColourStats], Palette]:
    """Learn ``{colour name: [die crops]}``; returns the statistics and vision's Palette.

    The statistics keep the colours as measured; the palette's references are fitted over the
    examples replayed under the whole range of light (see :func:`fit_references`).
    """
    if not 0.0 <= light < 1.0:
        raise CalibrationError(f"light change must be 0..<1 (0.3 = +/-30%), got {light!r}")
    if not samples:
        raise CalibrationError("no colours to learn")
    names = list(samples)
    labs = {n: [body_lab(c.crop) for c in samples[n]] for n in names}
    stats = [stats_from_labs(n, labs[n]) for n in names]
    if len(names) == 1:
        return stats, to_palette(stats, light)
    xs, ys = [], []
    for j, (n, st) in enumerate(zip(names, stats, strict=True)):
        a = augment(labs[n], st.spread, light, seed=j)
        xs.append(a)
        ys.append(np.full(len(a), j))
    x, y = np.vstack(xs), np.concatenate(ys)
    refs = fit_references(x, y, len(names))
    models = []
    for j, st in enumerate(stats):
        own = x[y == j]
        far = float(np.percentile(weighted_dist(own - refs[j]), 99))
        tol = round(max(tolerance(st, light), far + 8.0), 2)
        models.append(ColourModel(st.name, lab_to_bgr(refs[j]), tol))
    return stats, Palette(tuple(models))


# --------------------------------------------------------------------------- one roll, clusters


@dataclass(frozen=True)
class Cluster:
    """Dice of one roll grouped by colour; the players name each cluster."""

    index: int
    lab: Lab
    members: tuple[int, ...]  # indexes into the roll's dice


def cluster_roll(crops: Sequence[DieCrop], k: int) -> list[Cluster]:
    """Group the dice of one roll into ``k`` colour clusters, ordered left to right."""
    if not 1 <= k <= len(crops):
        raise CalibrationError(f"cannot make {k} colour clusters from {len(crops)} dice")
    labs = np.array([body_lab(c.crop) for c in crops], np.float32)
    x = labs * np.sqrt(np.array(LAB_WEIGHTS, np.float32))
    crit = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 100, 0.1)
    cv2.setRNGSeed(7)
    best = np.zeros((len(x), 1), np.int32)
    _c, found, _centres = cv2.kmeans(x, k, best, crit, 8, cv2.KMEANS_PP_CENTERS)
    labels = np.asarray(found).ravel()
    groups = [np.flatnonzero(labels == j) for j in range(k)]
    groups = [g for g in groups if len(g)]
    groups.sort(key=lambda g: min(crops[int(i)].center[0] for i in g))
    out = []
    for n, g in enumerate(groups):
        m = np.median(labs[g], axis=0)
        out.append(Cluster(n, (float(m[0]), float(m[1]), float(m[2])),
                           tuple(int(i) for i in g)))
    return out


def name_clusters(crops: Sequence[DieCrop], clusters: Sequence[Cluster],
                  names: Mapping[int, str]) -> dict[str, list[DieCrop]]:
    """``{colour: [crops]}`` from the players' names for clusters (unnamed ones are skipped)."""
    by_index = {c.index: c for c in clusters}
    out: dict[str, list[DieCrop]] = {}
    for idx, name in names.items():
        if idx not in by_index:
            raise CalibrationError(f"there is no cluster {idx}; clusters are "
                                   f"{sorted(by_index)}")
        out.setdefault(name, []).extend(crops[i] for i in by_index[idx].members)
    return out


# --------------------------------------------------------------------------- separability


@dataclass(frozen=True)
class PairReport:
    """How well two colours are told apart: distance over spread and simulated confusion."""

    a: str
    b: str
    distance: float  # vision's colour distance between the two medians
    separation: float  # distance / (3-sigma spread of a + of b)
    confusion: float  # share of simulated a-or-b dice named as the other one

    @property
    def confusable(self) -> bool:
        return self.confusion > CONFUSION_LIMIT


def separability(stats: Sequence[ColourStats], palette: Palette, light: float = DEFAULT_LIGHT,
                 draws: int = 200, seed: int = 0) -> list[PairReport]:
    """Every pair of colours, worst first: how often vision would mix them up here.

    Each colour is simulated as its median jittered by its spread (normal) under a light
    change drawn uniformly in 1 +/- ``light``, then named by ``palette`` (vision's classifier).
    """
    rng = np.random.default_rng(seed)
    names = [s.name for s in stats]
    idx = {n: i for i, n in enumerate(names)}
    hits = np.zeros((len(stats), len(stats)), np.int64)
    for s in stats:
        labs = np.asarray(s.lab) + rng.standard_normal((draws, 3)) * np.asarray(s.spread)
        labs = np.clip(labs, 0, 255)
        bgr = np.array([lab_to_bgr(v) for v in labs], np.float64)
        bgr *= rng.uniform(1 - light, 1 + light, (draws, 1))
        for lab in bgr_to_lab_f(np.clip(bgr, 0, 255)):
            got, _ = palette.classify_lab(lab)
            if got in idx:
                hits[idx[s.name], idx[got]] += 1
    out = []
    for i in range(len(stats)):
        for j in range(i + 1, len(stats)):
            a, b = stats[i], stats[j]
            d = float(weighted_dist(np.asarray(a.lab) - np.asarray(b.lab)))
            spread = 3.0 * float(weighted_dist(np.asarray(a.spread)) +
                                 weighted_dist(np.asarray(b.spread)))
            conf = (hits[i, j] + hits[j, i]) / (2.0 * draws)
            out.append(PairReport(a.name, b.name, round(d, 2), round(d / max(spread, 1e-6), 2),
                                  round(float(conf), 4)))
    out.sort(key=lambda p: (-p.confusion, p.separation))
    return out


def describe_pairs(pairs: Sequence[PairReport], limit: int = 5) -> list[str]:
    """Human lines: the confusable pairs, or the closest ones when none are."""
    bad = [p for p in pairs if p.confusable]
    lines = []
    if bad:
        for p in bad:
            lines.append(f"cannot tell apart: {p.a} / {p.b} (mixed up {p.confusion:.1%} of the "
                         f"time under +/- light change; distance {p.distance}, "
                         f"separation {p.separation})")
    else:
        lines.append("every pair of colours is told apart under this light")
    for p in [p for p in pairs if not p.confusable][:limit]:
        lines.append(f"closest: {p.a} / {p.b} distance {p.distance}, separation "
                     f"{p.separation}, mixed up {p.confusion:.1%}")
    return lines
