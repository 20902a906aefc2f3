"""Reading dice from one BGR frame: :class:`DiceReader` (and :func:`read_dice`, the shipped one).

A reader is given its models when it is built (:meth:`DiceReader.shipped` loads the files in
``vision/models``). Pip dice are read by two small CNNs (:mod:`vision.cnn`: a centre-heatmap
detector and a crop classifier, through ``cv2.dnn``), see :func:`_read_cnn`. Icon dice (a
profile with face sets), and every frame for a reader without the CNNs, go through the
classical pipeline, all OpenCV:

1. **Check the frame** (type, shape, dtype, size, contrast): bad input raises ``ValueError``
   naming the problem; a blank frame gives an empty reading with a warning.
2. **Background**: a coarse median of the frame (window ~1/6 of the frame) is the empty table;
   pixels that differ from it strongly are foreground. Works for any die colour on any plain
   table because dice are small compared with the window.
3. **Dice**: foreground blobs are cleaned up; the die size is the median size of square-ish
   blobs (or the profile's ``die_size``); blobs holding several touching dice are split by
   clustering their pixels into ``round(area / die_area)`` groups.
4. **Faces**: each die's rotated box is warped to an upright square crop. Pips are the blobs that
   differ in colour from the body (dark or light, any colour), of pip size and round; the
   count must be 1..6 and the pips must be alike and laid out like a die face, or the die is
   reported as uncertain. Dice without pips are offered to the profile's icon face sets.
5. **Colour**: named by :func:`vision.colour.name_colours` (a learned namer under the scene's
   light; with a calibrated palette, only the palette's colours).
"""

from __future__ import annotations

import dataclasses
import functools
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from vision.cnn import (
    CROP_SCALE,
    HEAT_MIN,
    ZOOM_BELOW,
    ZOOM_MAX_SCALE,
    ZOOM_TO,
    Detection,
    Nets,
    channels,
    crop,
    die_angle,
    load_nets,
    shrink,
)
from vision.colour import ColourNamer, load_namer, name_colours, scene_light
from vision.mlp import Mlp
from vision.profile import FaceSet, Palette, Profile, TableHead
from vision.types import HAND_IN_VIEW, Die, Reading, ReadWarning, WarningKind

Image = npt.NDArray[Any]

CROP = 48  # side of the upright die crop, px
CROP_MARGIN = 1.0  # crop side relative to the die box
MIN_SIDE = 32  # frames smaller than this on either side are not read
WEAK_DIFF = 26  # colour difference from the background that may belong to a die
STRONG_DIFF = 44  # ... and that surely does
MIN_DIE_FRACTION = 0.025  # smallest die side, as a fraction of the frame's shorter side
SEG_SIDE = 480  # dice are segmented on a copy about this many px on its shorter side
THIN_FRACTION = 0.5  # things thinner than this many die sides are not dice
SIDE_PERCENTILE = 50.0  # which of the square blobs sets the die size
SEED_AREA = 0.25  # smallest die face left after cutting seams, in die areas

MODEL_PATH = Path(__file__).parent / "models" / "faces.npz"


def _describe(frame: object) -> str:
    if isinstance(frame, np.ndarray):
        return f"array of shape {frame.shape} and dtype {frame.dtype}"
    return f"{type(frame).__name__}"


def check_frame(frame: object) -> tuple[Image | None, ReadWarning | None]:
    """Validate a frame; return (BGR uint8 frame, None) or (None, warning) for blank frames.

    Raised when the frame is not an image at all: ``ValueError`` naming what was wrong.
    """
    if not isinstance(frame, np.ndarray):
        raise ValueError(f"frame must be a numpy array (BGR image), got {_describe(frame)}")
    if frame.size == 0:
        raise ValueError(f"frame is empty: {_describe(frame)}")
    if frame.dtype != np.uint8:
        raise ValueError(f"frame must have dtype uint8, got {_describe(frame)}")
    if frame.ndim == 2:
        frame = cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
    elif frame.ndim == 3 and frame.shape[2] == 4:
        frame = cv2.cvtColor(frame, cv2.COLOR_BGRA2BGR)
    elif frame.ndim == 3 and frame.shape[2] == 1:
        frame = cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
    elif not (frame.ndim == 3 and frame.shape[2] == 3):
        raise ValueError(
            f"frame must be HxWx3 BGR (or HxW grey, HxWx4 BGRA), got {_describe(frame)}"
        )
    h, w = frame.shape[:2]
    if h < MIN_SIDE or w < MIN_SIDE:
        return None, ReadWarning(WarningKind.UNREADABLE_FRAME, f"frame too small to read: "
                                 f"{w}x{h} px (need at least {MIN_SIDE}x{MIN_SIDE})")
    small = cv2.resize(frame, (32, 32), interpolation=cv2.INTER_AREA)
    lo, hi = int(small.min()), int(small.max())
    mean = float(small.mean())
    if hi - lo < 12:
        if mean < 30:
            what = "all black (camera covered or lights off?)"
        elif mean > 225:
            what = "all white (overexposed?)"
        else:
            what = "featureless (no contrast)"
        return None, ReadWarning(WarningKind.UNREADABLE_FRAME,
                                 f"frame is {what}: nothing to read")
    return np.ascontiguousarray(frame), None


@dataclass
class _Blob:
    pts: Image  # Nx2 int32 (x, y) pixel coordinates
    area: float
    aspect: float = 1.0  # long / short side of its rotated box


def _foreground(img: Image, mask: Image | None) -> tuple[Image, Image]:
    """Foreground mask (0/255) and the per-pixel difference from the estimated background."""
    h, w = img.shape[:2]
    f = 16
    sw, sh = max(4, w // f), max(4, h // f)
    small = cv2.resize(img, (sw, sh), interpolation=cv2.INTER_AREA)
    k = max(3, (min(sw, sh) // 3) | 1)
    bg = cv2.medianBlur(small, min(k, 255))
    bg = cv2.resize(bg, (w, h), interpolation=cv2.INTER_LINEAR)
    d = cv2.absdiff(img, bg)
    diff = cv2.max(cv2.max(d[:, :, 0], d[:, :, 1]), d[:, :, 2])
    # hysteresis: weak blobs are kept when they hold a strongly different pixel
    weak = cv2.threshold(diff, WEAK_DIFF, 255, cv2.THRESH_BINARY)[1]
    n, lab = cv2.connectedComponents(weak, connectivity=8)
    strong = diff > STRONG_DIFF
    keep = np.zeros(n, np.uint8)
    keep[np.unique(lab[strong])] = 255
    keep[0] = 0
    fg = keep[lab]
    if mask is not None:
        fg = cv2.bitwise_and(fg, mask)
    return fg, diff


def _blobs(fg: Image, die_size: float | None) -> tuple[list[_Blob], float, bool]:
    """Connected foreground blobs (filled), the die side in px, and whether a hand is seen."""
    short = min(fg.shape[:2])
    kc = max(3, round(short / 90) | 1)
    k3 = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (kc, kc))
    fg = cv2.morphologyEx(fg, cv2.MORPH_CLOSE, k3)
    # fill small holes only (pips, the plain middle of a white die), never a whole tray
    h, w = fg.shape
    max_hole = (0.25 * die_size**2) if die_size else 0.004 * h * w
    contours, hier = cv2.findContours(fg, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    filled = fg.copy()
    if hier is not None:
        holes = [c for c, hh in zip(contours, hier[0], strict=True)
                 if hh[3] >= 0 and cv2.contourArea(c) < max_hole]
        cv2.drawContours(filled, holes, -1, 255, -1)
    kop = max(3, round(short / 128) | 1)
    ko = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (kop, kop))
    filled = cv2.morphologyEx(filled, cv2.MORPH_OPEN, ko)
    min_area = ((MIN_DIE_FRACTION * min(h, w)) ** 2 if die_size is None
                else 0.4 * die_size**2)
    _n, labels, stats, cands, squareish = _components(filled, min_area)
    if die_size is None:
        if not squareish:
            squareish = [math.sqrt(c[1]) for c in cands if c[1] < 0.02 * h * w]
        if not squareish:
            return [], 0.0, False
        side = float(np.percentile(squareish, SIDE_PERCENTILE))
    else:
        side = die_size
    # now that the die size is known, thin things (cables, lines, edges) much narrower than
    # a die are opened away so that they neither join dice nor bend their outlines
    kt = max(3, int(THIN_FRACTION * side) | 1)
    if kt > kop:
        filled = cv2.morphologyEx(
            filled, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (kt, kt)))
        _n, labels, stats, cands, _sq = _components(filled, min_area)
    blobs: list[_Blob] = []
    hand = False
    for i, area, pts, rect in cands:
        if area < 0.35 * side * side:
            continue
        if area > 5 * side * side:
            # a big blob: dice touching a tray wall or each other, or a hand
            blobs.extend(_open_pieces(labels, stats, i, side))
            continue
        rw, rh = rect[1]
        blobs.append(_Blob(pts, area, max(rw, rh) / max(1.0, min(rw, rh))))
    return blobs, side, hand


def _components(mask: Image, min_area: float) -> tuple[
        int, Image, Image, list[tuple[int, float, Image, tuple[Any, ...]]], list[float]]:
    """Labelled blobs of at least ``min_area``, with their pixels and rotated boxes, plus the
    sides of the square-looking ones (the die size is estimated from those)."""
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    cands: list[tuple[int, float, Image, tuple[Any, ...]]] = []
    squareish: list[float] = []
    for i in range(1, n):
        area = float(stats[i, cv2.CC_STAT_AREA])
        if area < min_area:
            continue
        ys, xs = _component_pts(labels, stats, i)
        pts = np.stack([xs, ys], axis=1).astype(np.int32)
        rect = cv2.minAreaRect(pts.reshape(-1, 1, 2))
        rw, rh = rect[1]
        cands.append((i, area, pts, rect))
        if min(rw, rh) > 0 and area / (rw * rh) > 0.6 and max(rw, rh) / min(rw, rh) < 1.45:
            squareish.append(math.sqrt(area))
    return n, labels, stats, cands, squareish


def _open_pieces(labels: Image, stats: Image, i: int, side: float) -> list[_Blob]:
    """The dice inside a big blob: thick parts (a laptop, a hand) and long bands (walls) go."""
    x, y = stats[i, cv2.CC_STAT_LEFT], stats[i, cv2.CC_STAT_TOP]
    bw, bh = stats[i, cv2.CC_STAT_WIDTH], stats[i, cv2.CC_STAT_HEIGHT]
    sub = (labels[y:y + bh, x:x + bw] == i).astype(np.uint8) * 255
    # something much thicker than any die (a hand, a laptop) has pixels further than one die
    # side from its border; grow those cores back and cut them out (distance transform: fast)
    dist = cv2.distanceTransform(sub, cv2.DIST_L2, 3)
    core = (dist > side).astype(np.uint8) * 255
    if cv2.countNonZero(core) > 0:
        # grown back by one die side (a disc): exactly the thick part, not the dice next to it
        kt = max(3, int(side * 2 + 3) | 1)
        thick = cv2.dilate(core, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (kt, kt)))
        sub = cv2.subtract(sub, cv2.dilate(thick, _K3, iterations=2))
    # long straight bands (tray walls, table edges) survive an opening with a line three dice
    # long; dice do not. Remove those bands, then drop the slivers they leave.
    ln = max(5, int(side * 3))
    walls = cv2.max(
        cv2.morphologyEx(sub, cv2.MORPH_OPEN, np.ones((1, ln), np.uint8)),
        cv2.morphologyEx(sub, cv2.MORPH_OPEN, np.ones((ln, 1), np.uint8)),
    )
    walls = cv2.dilate(walls, _K3, iterations=2)
    rest = cv2.subtract(sub, walls)
    # slivers: keep only parts at least ~0.6 die thick (distance core grown back)
    dist = cv2.distanceTransform(rest, cv2.DIST_L2, 3)
    core = (dist > 0.3 * side).astype(np.uint8) * 255
    k = max(3, int(side * 0.6) | 1)
    opened = cv2.bitwise_and(cv2.dilate(core, np.ones((k, k), np.uint8)), rest)
    n, lab, st, _ = cv2.connectedComponentsWithStats(opened, connectivity=8)
    out: list[_Blob] = []
    for j in range(1, n):
        a = float(st[j, cv2.CC_STAT_AREA])
        if a < 0.35 * side * side or a > 8 * side * side:
            continue
        ys, xs = _component_pts(lab, st, j)
        pts = np.stack([xs + x, ys + y], axis=1).astype(np.int32)
        rw, rh = cv2.minAreaRect(pts.reshape(-1, 1, 2))[1]
        out.append(_Blob(pts, a, max(rw, rh) / max(1.0, min(rw, rh))))
    return out


def _component_pts(labels: Image, stats: Image, i: int) -> tuple[Image, Image]:
    x, y = stats[i, cv2.CC_STAT_LEFT], stats[i, cv2.CC_STAT_TOP]
    bw, bh = stats[i, cv2.CC_STAT_WIDTH], stats[i, cv2.CC_STAT_HEIGHT]
    ys, xs = np.nonzero(labels[y:y + bh, x:x + bw] == i)
    return ys + y, xs + x


def _split(blob: _Blob, side: float, img: Image | None = None) -> list[Image]:
    """Point sets of the single dice in a blob (several when dice touch)."""
    k = round(blob.area / (side * side))
    if blob.aspect >= 1.75:
        k = max(k, round(blob.aspect))
    if k <= 1:
        return [blob.pts]
    if img is not None:
        parts = _split_by_seams(blob, side, img)
        if len(parts) >= 2:
            return parts
    k = min(k, 12)
    data = blob.pts.astype(np.float32)
    crit = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 10, 1.0)
    cv2.setRNGSeed(12345)
    _, lab, _ = cv2.kmeans(data, k, None, crit, 1, cv2.KMEANS_PP_CENTERS)  # type: ignore[call-overload]
    lab = lab.ravel()
    return [blob.pts[lab == j] for j in range(k) if np.count_nonzero(lab == j) > 0]


def _split_by_seams(blob: _Blob, side: float, img: Image) -> list[Image]:
    """Split touching dice along the shaded seams between them (edges inside the blob).

    Each die's face, with its edges removed, is one solid seed; pixels are then given to the
    nearest seed by a watershed on the image.
    """
    x0, y0 = blob.pts.min(axis=0)
    x1, y1 = blob.pts.max(axis=0)
    pad = 2
    x0, y0 = max(0, int(x0) - pad), max(0, int(y0) - pad)
    x1, y1 = min(img.shape[1] - 1, int(x1) + pad), min(img.shape[0] - 1, int(y1) + pad)
    sub = np.ascontiguousarray(img[y0:y1 + 1, x0:x1 + 1])
    mask = np.zeros(sub.shape[:2], np.uint8)
    mask[blob.pts[:, 1] - y0, blob.pts[:, 0] - x0] = 255
    grey = cv2.cvtColor(sub, cv2.COLOR_BGR2GRAY)
    edges = cv2.Canny(grey, 40, 110)
    edges = cv2.dilate(edges, _K3)
    inner = cv2.subtract(mask, edges)
    inner = cv2.erode(inner, _K3, iterations=max(1, int(side * 0.06)))
    n, lab, st, _ = cv2.connectedComponentsWithStats(inner, connectivity=4)
    seeds = [j for j in range(1, n) if st[j, cv2.CC_STAT_AREA] >= SEED_AREA * side * side]
    if len(seeds) < 2:
        return []
    markers = np.zeros(sub.shape[:2], np.int32)
    for m_id, j in enumerate(seeds, start=1):
        markers[lab == j] = m_id
    markers[mask == 0] = len(seeds) + 1  # the table around the blob
    cv2.watershed(sub, markers)
    out = []
    for m_id in range(1, len(seeds) + 1):
        ys, xs = np.nonzero((markers == m_id) & (mask > 0))
        if len(xs) >= 0.3 * side * side:
            out.append(np.stack([xs + x0, ys + y0], axis=1).astype(np.int32))
    return out


def _upright_crop(img: Image, rect: tuple[Any, ...], side: float) -> tuple[Image, Image]:
    """Warp the die's rotated box to a CROP x CROP upright square; also return the 4 corners."""
    (cx, cy), (rw, rh), ang = rect
    s = max(rw, rh, 1.0)
    box = cv2.boxPoints(((cx, cy), (s, s), ang)).astype(np.float32)
    # a little background all round, so pips near the die edge do not touch the crop edge
    c = box.mean(axis=0)
    inner = (c + (box - c) * CROP_MARGIN).astype(np.float32)
    dst = np.array([[0, CROP - 1], [0, 0], [CROP - 1, 0], [CROP - 1, CROP - 1]], np.float32)
    m = cv2.getPerspectiveTransform(inner, dst)
    crop = cv2.warpPerspective(img, m, (CROP, CROP), flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REPLICATE)
    return crop, box


@dataclass
class _Face:
    value: int | None
    confidence: float
    body_bgr: tuple[float, float, float]
    pip_count: int
    counts: tuple[int, ...] = ()  # plausible counts seen at any threshold


_LAYOUT_UNIT = {
    1: np.array([[0, 0]], np.float32),
    2: np.array([[-1, -1], [1, 1]], np.float32),
    3: np.array([[-1, -1], [0, 0], [1, 1]], np.float32),
    4: np.array([[-1, -1], [1, -1], [-1, 1], [1, 1]], np.float32),
    5: np.array([[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]], np.float32),
    6: np.array([[-1, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [1, 1]], np.float32),
}


def _layout_ok(pts: Image) -> bool:
    """Whether pip centres are laid out like a die face (any rotation)."""
    n = len(pts)
    if n == 1:
        return True
    c = pts.mean(axis=0)
    rel = pts - c
    if n == 2:
        return True
    if n == 3:
        # collinear: the middle pip near the centre
        return float(np.min(np.linalg.norm(rel, axis=1))) < 0.3 * float(
            np.max(np.linalg.norm(rel, axis=1)))
    r = np.linalg.norm(rel, axis=1)
    if n in (4, 5):
        outer = np.sort(r)[-4:]
        if outer.min() < 0.6 * outer.max():
            return False
        return not (n == 5 and np.sort(r)[0] > 0.35 * outer.max())
    # six: two rows of three, no pip at the centre
    return bool(np.sort(r)[0] > 0.25 * r.max())


def _contrast(crop: Image) -> tuple[Image, float]:
    """Per-pixel colour distance from the die body (uint8) and its Otsu threshold."""
    lab = cv2.cvtColor(crop, cv2.COLOR_BGR2LAB).astype(np.float32)
    q = CROP // 6
    body = np.median(lab[q:-q, q:-q].reshape(-1, 3), axis=0)
    d = lab - body
    dist = np.sqrt(0.6 * d[:, :, 0] ** 2 + d[:, :, 1] ** 2 + d[:, :, 2] ** 2)
    d8: Image = np.clip(dist, 0, 255).astype(np.uint8)
    otsu, _ = cv2.threshold(d8[q:-q, q:-q].copy(), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    return d8, float(otsu)


def _face_region(d8: Image, thr: float) -> Image | None:
    """The face: the biggest body-coloured region and everything its outline encloses.

    Pips are looked for inside it only, so a pip that nearly touches the die's edge is still
    a pip while the background, shadows and neighbours around the die are not.
    """
    m = cv2.morphologyEx((d8 > thr).astype(np.uint8) * 255, cv2.MORPH_OPEN, _K3)
    nb, blab, bst, _ = cv2.connectedComponentsWithStats(cv2.bitwise_not(m), connectivity=4)
    if nb <= 1:
        return None
    big = 1 + int(np.argmax(bst[1:, cv2.CC_STAT_AREA]))
    ys, xs = np.nonzero(blab == big)
    hull = cv2.convexHull(np.stack([xs, ys], axis=1).astype(np.int32))
    face: Image = np.zeros_like(m)
    cv2.fillConvexPoly(face, hull, 255)
    return cv2.erode(face, _K3, iterations=2)


def _pip_blobs(d8: Image, thr: float,
               face: Image | None) -> tuple[list[tuple[float, Image]], Image]:
    """Pip-like blobs of a contrast map at one threshold, as (area, centre); also the mask.

    Pips are the blobs whose colour is far from the body's (dark, light or coloured), round,
    of pip size, and inside the face.
    """
    m: Image = (d8 > thr).astype(np.uint8) * 255
    m = cv2.morphologyEx(m, cv2.MORPH_OPEN, _K3)
    if face is not None:
        m = cv2.bitwise_and(m, face)
    n, _labels, stats, cents = cv2.connectedComponentsWithStats(m, connectivity=4)
    area_all = (CROP / CROP_MARGIN) ** 2  # the die's own area in the crop
    pips: list[tuple[float, Image]] = []
    for i in range(1, n):
        a = float(stats[i, cv2.CC_STAT_AREA])
        x, y = stats[i, cv2.CC_STAT_LEFT], stats[i, cv2.CC_STAT_TOP]
        bw, bh = stats[i, cv2.CC_STAT_WIDTH], stats[i, cv2.CC_STAT_HEIGHT]
        if not 0.005 * area_all <= a <= 0.09 * area_all:
            continue
        if x <= 0 or y <= 0 or x + bw >= CROP or y + bh >= CROP:
            continue
        if max(bw, bh) > 2.0 * min(bw, bh) or a < 0.5 * bw * bh:
            continue
        pips.append((a, cents[i]))
    if pips:
        # pips of one face are alike: drop specks much smaller than the biggest pips
        top = sorted(p[0] for p in pips)[-min(3, len(pips)):]
        ref = float(np.median(top))
        pips = [p for p in pips if p[0] >= 0.4 * ref]
    return pips, m


_K3 = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3))
PIP_MIN_CONTRAST = 20.0
PIP_THRESHOLD_STEPS = (0.7, 0.85, 1.0, 1.2, 1.45)  # pips are counted at these multiples of Otsu
AGREE_MIN = 0.05  # classifier probability that still lets a sure pip count stand
MLP_ALONE = 0.9  # classifier probability that reads a die the pip count could not
MLP_WITH_PIPS = 0.5  # ... or, when one of the pip counts allows it, this likely
NOT_A_DIE = 0.3  # an unreadable candidate this likely "not a die" is not reported
PIP_OTSU_SCALE = 1.0
PIP_MAX_THRESHOLD = 90.0


def _read_face(crop: Image) -> _Face:
    """Count pips at several thresholds; a count is trusted when most of them agree."""
    d8, otsu = _contrast(crop)
    results = []
    main_mask: Image | None = None
    main_count = 0

    def thr_at(k: float) -> float:
        return float(min(max(otsu * PIP_OTSU_SCALE * k, PIP_MIN_CONTRAST), PIP_MAX_THRESHOLD))

    face = _face_region(d8, thr_at(1.0))
    for k in PIP_THRESHOLD_STEPS:
        pips, m = _pip_blobs(d8, thr_at(k), face)
        results.append(_judge(pips))
        if k == 1.0:
            main_mask, main_count = m, len(pips)
    assert main_mask is not None
    body_mask = main_mask == 0
    body_bgr_arr = np.median(crop[body_mask], axis=0) if body_mask.any() else np.median(
        crop.reshape(-1, 3), axis=0)
    body_bgr = (float(body_bgr_arr[0]), float(body_bgr_arr[1]), float(body_bgr_arr[2]))
    valid = [v for v, _c in results if v is not None]
    seen = tuple(sorted(set(valid)))
    if valid:
        best = max(set(valid), key=valid.count)
        if valid.count(best) > len(results) // 2:
            return _Face(best, 0.95, body_bgr, main_count, seen)
        mid_v, mid_c = results[len(results) // 2]
        if mid_v is not None:
            return _Face(mid_v, min(mid_c, 0.6), body_bgr, main_count, seen)
        return _Face(best, 0.5, body_bgr, main_count, seen)
    return _Face(None, 0.2, body_bgr, main_count, seen)


def _judge(pips: list[tuple[float, Image]]) -> tuple[int | None, float]:
    """(count if the pips look like a die face, else None; confidence) for one pip set."""
    count = len(pips)
    if not 1 <= count <= 6:
        return None, 0.2
    area_all = (CROP / CROP_MARGIN) ** 2
    areas = np.array([p[0] for p in pips])
    pts = np.array([p[1] for p in pips], np.float32)
    conf = 0.95
    if count > 1 and areas.max() > 2.6 * areas.min():
        conf -= 0.5
    if not _layout_ok(pts):
        conf -= 0.5
    if count == 1 and not (0.03 * area_all <= areas[0]):
        # a lone pip is the big centre dot; a small speck alone is doubtful
        conf -= 0.3
    return (count if conf >= 0.5 else None), max(0.05, conf)


def _hand_in_view(img: Image, side: float, f: int = 4) -> bool:
    """Whether a large skin-coloured object unlike the table (a hand, an arm) is in view.

    Big objects fool the background estimate, so hands are looked for by colour: skin tones in
    YCrCb, far from the frame's dominant colour, in a region much thicker than a die. Three
    more tests keep textured tables quiet: a lamp's glare is the table's colour washed towards
    white (the same share of white in every channel), so such pixels are not skin; a hand
    reaches in from outside the view, so the region must touch the frame's edge, and reach
    at least two dice into it; and it must not run along most of the edge (a tray's walls,
    the table around a tray).
    """
    small = cv2.resize(img, (max(8, img.shape[1] // f), max(8, img.shape[0] // f)),
                       interpolation=cv2.INTER_AREA)
    ycc = cv2.cvtColor(small, cv2.COLOR_BGR2YCrCb)
    skin = cv2.inRange(ycc, (40, 135, 80), (250, 175, 128))
    if cv2.countNonZero(skin) * f * f <= 3 * side * side:
        return False  # too little skin colour for a hand, whatever the rest says (the cheap test)
    table = np.median(small.reshape(-1, 3), axis=0)
    far = channels(np.maximum, cv2.absdiff(small, np.full_like(small, table.astype(np.uint8)))) > 40
    # glare: p = t + a (255 - t) with the same a in each channel
    tf = table.astype(np.float32)
    a = (small.astype(np.float32) - tf) / np.maximum(255.0 - tf, 8.0)
    a_min = channels(np.minimum, a)
    glare = (a_min > 0.05) & (channels(np.maximum, a) - a_min < 0.12)
    mask = cv2.bitwise_and(skin, (far & ~glare).astype(np.uint8) * 255)
    k = max(3, int(1.6 * side / f) | 1)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN,
                            cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    if cv2.countNonZero(mask) * f * f <= 3 * side * side:
        return False
    h, w = mask.shape
    n, labels, stats, _c = cv2.connectedComponentsWithStats(mask, connectivity=8)
    # distance from the frame's edge, in dice
    yy, xx = np.mgrid[0:h, 0:w]
    reach = np.minimum(np.minimum(xx, w - 1 - xx), np.minimum(yy, h - 1 - yy)) * f / max(side, 1)
    for i in range(1, n):
        if stats[i, cv2.CC_STAT_AREA] * f * f <= 3 * side * side:
            continue
        region = labels == i
        along = (region[0].mean(), region[-1].mean(), region[:, 0].mean(), region[:, -1].mean())
        if max(along) == 0 or max(along) > 0.6:
            continue  # not from outside the view, or along most of an edge (a wall)
        if float(reach[region].max()) < 2.0:
            continue
        # glare over another colour than the table's (a tray wall): judged against the
        # colour around the region
        ring = cv2.dilate(region.astype(np.uint8), np.ones((k, k), np.uint8)) > 0
        ring &= ~region
        if ring.any():
            t_loc = np.median(small[ring], axis=0).astype(np.float32)
            a_loc = (small[region].astype(np.float32) - t_loc) / np.maximum(255.0 - t_loc, 8.0)
            washed = (a_loc.min(axis=1) > 0.05) & (a_loc.max(axis=1) - a_loc.min(axis=1) < 0.12)
            if washed.mean() > 0.5:
                continue
        return True
    return False


@dataclass
class Candidate:
    """A die-sized blob found in the frame, before its face is read."""

    rect: tuple[Any, ...]  # cv2.minAreaRect result in working coordinates
    box: Image  # 4x2 corners
    crop: Image  # CROP x CROP upright BGR crop


def find_candidates(work: Image, mask: Image | None,
                    die_size: float | None) -> tuple[list[Candidate], float, bool]:
    """Die-sized blobs of a checked BGR frame; also the die side (px) and whether a hand shows.

    Dice are found on a copy scaled down to about ``SEG_SIDE`` px (the shorter side), which is
    plenty to separate dice and much faster; faces are then cut from the full-size frame.
    """
    h, w = work.shape[:2]
    scale = min(1.0, SEG_SIDE / min(h, w))
    if scale < 1.0:
        size = (max(1, round(w * scale)), max(1, round(h * scale)))
        small = cv2.resize(work, size, interpolation=cv2.INTER_LINEAR)
        small_mask = (cv2.resize(mask, size, interpolation=cv2.INTER_NEAREST)
                      if mask is not None else None)
    else:
        small, small_mask = work, mask
    fg, _diff = _foreground(small, small_mask)
    blobs, side_s, hand = _blobs(fg, die_size * scale if die_size else None)
    sh, sw = small.shape[:2]
    hand = hand or _hand_in_view(small, side_s if side_s > 0 else MIN_DIE_FRACTION * min(sh, sw))
    side = side_s / scale
    out: list[Candidate] = []
    for blob in blobs:
        for pts in _split(blob, side_s, small):
            if len(pts) < 0.3 * side_s * side_s:
                continue
            (cx, cy), (rw, rh), ang = cv2.minAreaRect(pts.reshape(-1, 1, 2))
            if max(rw, rh) > 1.9 * side_s or min(rw, rh) < 0.45 * side_s:
                continue
            # back to full-size pixels (+0.5 px: pixel centres of the small copy)
            rect = (((cx + 0.5) / scale - 0.5, (cy + 0.5) / scale - 0.5),
                    ((rw + 1) / scale, (rh + 1) / scale), ang)
            crop, box = _upright_crop(work, rect, side)
            if (box[:, 0].min() < 1 or box[:, 1].min() < 1 or box[:, 0].max() > w - 2
                    or box[:, 1].max() > h - 2):
                continue  # cut off by the frame edge: its face cannot be trusted
            out.append(Candidate(rect, box, crop))
    return out, side, hand


#: Detector heat (vision.cnn) at which a die the classical finder missed or cut badly is
#: looked at again, and the face-set confidence it then needs to count (synthetic icon trays
#: with 3-5 clutter objects: no phantom dice at these settings; 0.8 recovered fewer dice).
ICON_RESCUE_HEAT = HEAT_MIN
ICON_RESCUE_CONF = 0.6
#: ... or this confidence at a heatmap peak at least ICON_SURE_HEAT (the detector, trained on
#: icon dice too, is sure a die lies there; the face set's weakest match is 0.5).
ICON_SURE_HEAT = 0.6
ICON_SURE_CONF = 0.5


def _rescue_conf(d: Detection) -> float:
    """The face-set confidence a die found by the detector alone needs."""
    return ICON_SURE_CONF if d.score >= ICON_SURE_HEAT else ICON_RESCUE_CONF


def _edge_angle(patch: Image) -> float:
    """The die's rotation (0..90 degrees) in a patch 1.3 die sides wide centred on it, from
    the gradients in the ring where its edges are (not the icon inside, which may have
    edges at any angle: an X would turn the die by 45 degrees)."""
    g = cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY).astype(np.float32)
    gx = cv2.Sobel(g, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(g, cv2.CV_32F, 0, 1, ksize=3)
    n = patch.shape[0]
    yy, xx = np.mgrid[0:n, 0:n] - (n - 1) / 2
    r = np.hypot(xx, yy) / n  # die edges lie 0.38..0.55 patch sides from the centre
    m2 = (gx * gx + gy * gy) * ((r > 0.33) & (r < 0.56))
    phi = np.arctan2(gy, gx)
    a = math.atan2(float((m2 * np.sin(4 * phi)).sum()), float((m2 * np.cos(4 * phi)).sum()))
    return math.degrees(a / 4.0) % 90.0


def _icon_cuts(work: Image, d: Detection, side: float) -> list[Candidate]:
    """Upright crops at a detector peak, one per plausible die size (the detector's own
    size is rough: its size and the classical finder's die size, when that is near, and
    halfway between), the die's angle from its edges. None is cut off by the frame edge."""
    h, w = work.shape[:2]
    sizes = [d.size]
    if side > 0 and 0.6 < d.size / side < 1.6:
        sizes += [side, math.sqrt(side * d.size)]
    out: list[Candidate] = []
    for size in sizes:
        ang = _edge_angle(crop(work, d.cx, d.cy, size, side=64, scale=1.3))
        rect = ((d.cx, d.cy), (size, size), ang)
        cut, box = _upright_crop(work, rect, size)
        if (box[:, 0].min() < 1 or box[:, 1].min() < 1 or box[:, 0].max() > w - 2
                or box[:, 1].max() > h - 2):
            continue
        out.append(Candidate(rect, box, cut))
    return out


def _icon_faces(work: Image, mask: Image | None, cands: list[Candidate], side: float,
                icons: tuple[FaceSet, ...],
                net: Nets | None) -> list[tuple[Candidate, str | None, float]]:
    """The icon dice of a frame: (candidate, face label or None, confidence) each.

    Every candidate gets the most confident face-set label. With the CNNs (``net``), the
    pip-dice detector's heatmap then helps where the classical finder cut badly or not at all
    (a grey die on a grey table, a die split in two): a candidate no face fits is cut again at
    the nearest peak, and peaks away from every candidate are cut as new dice; either counts
    only when a face set names it with confidence ``ICON_RESCUE_CONF`` (``ICON_SURE_CONF`` at
    a peak of ``ICON_SURE_HEAT`` or more, where the detector is sure). Unknown pieces lying
    on a named die (the other half of a split die) are dropped.
    """
    def best_of(c: Candidate) -> tuple[str | None, float]:
        best: tuple[str | None, float] = (None, 0.0)
        for fs in icons:
            got = fs.classify(c.crop, upright=True)
            if got[0] is not None and got[1] > best[1]:
                best = got
        return best

    def centre(c: Candidate) -> tuple[float, float]:
        return float(c.rect[0][0]), float(c.rect[0][1])

    def best_cut(d: Detection) -> tuple[Candidate | None, str | None, float]:
        found: tuple[Candidate | None, str | None, float] = (None, None, 0.0)
        for c in _icon_cuts(work, d, side):
            lab, conf = best_of(c)
            if lab is not None and conf > found[2]:
                found = (c, lab, conf)
        return found

    out = [(c, *best_of(c)) for c in cands]
    if net is None:
        return out
    h, w = work.shape[:2]
    dets = [d for d in net.detect(work, heat_min=ICON_RESCUE_HEAT)
            if mask is None or mask[min(h - 1, int(d.cy)), min(w - 1, int(d.cx))]]
    used: set[int] = set()
    for i, (c, lab, _conf) in enumerate(out):
        if lab is not None:
            continue
        cx, cy = centre(c)
        near = [(math.hypot(d.cx - cx, d.cy - cy), k) for k, d in enumerate(dets)
                if k not in used and math.hypot(d.cx - cx, d.cy - cy) < 0.5 * max(side, d.size)]
        if not near:
            continue
        k = min(near)[1]
        alt, lab2, conf2 = best_cut(dets[k])
        if alt is not None and conf2 >= _rescue_conf(dets[k]):
            out[i] = (alt, lab2, conf2)
            used.add(k)
    for k, d in enumerate(dets):
        if k in used or any(math.hypot(d.cx - centre(c)[0], d.cy - centre(c)[1])
                            < 0.6 * max(side, d.size) for c, _l, _c in out):
            continue
        alt, lab2, conf2 = best_cut(d)
        if alt is not None and conf2 >= _rescue_conf(d):
            out.append((alt, lab2, conf2))
    named = [centre(c) for c, lab, _conf in out if lab is not None]
    return [(c, lab, conf) for c, lab, conf in out
            if lab is not None or not any(math.hypot(centre(c)[0] - x, centre(c)[1] - y)
                                          < 0.5 * side for x, y in named)]


FEAT = 32


def _grad_hist(img: Image, cell: int = 8, bins: int = 9) -> Image:
    """Histograms of gradient orientation per cell (a small HOG), normalised."""
    f = img.astype(np.float32)
    gx = cv2.Sobel(f, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(f, cv2.CV_32F, 0, 1, ksize=3)
    mag = np.sqrt(gx * gx + gy * gy)
    ang = (np.arctan2(gy, gx) % np.pi) * (bins / np.pi)
    idx = np.minimum(ang.astype(np.int32), bins - 1)
    n = img.shape[0] // cell
    cell_id = (np.arange(img.shape[0]) // cell)
    flat = (cell_id[:, None] * n + cell_id[None, :]) * bins + idx
    hist = np.bincount(flat.ravel(), weights=mag.ravel(), minlength=n * n * bins)
    hist = np.sqrt(hist / (np.linalg.norm(hist) + 1e-3))
    return hist.astype(np.float32)


def contrast_map(crop: Image) -> Image:
    """How far each pixel's colour is from the die body's (0..255): pips bright, body dark.

    Makes the face look the same whatever the body and pip colours (dark or light pips).
    """
    lab = cv2.cvtColor(crop, cv2.COLOR_BGR2LAB).astype(np.float32)
    q = crop.shape[0] // 6
    body = np.median(lab[q:-q, q:-q].reshape(-1, 3), axis=0)
    d = lab - body
    dist = np.sqrt(0.6 * d[:, :, 0] ** 2 + d[:, :, 1] ** 2 + d[:, :, 2] ** 2)
    top = float(np.percentile(dist, 98)) + 1e-3
    out: Image = np.clip(dist * (255.0 / top), 0, 255).astype(np.uint8)
    return out


def crop_features(crop: Image) -> Image:
    """Feature vector (float32) of an upright die crop for the learned face classifier."""
    cm = cv2.resize(contrast_map(crop), (FEAT, FEAT), interpolation=cv2.INTER_AREA)
    small = cv2.resize(cm, (16, 16), interpolation=cv2.INTER_AREA).astype(np.float32) / 255.0
    return np.concatenate([small.ravel(), _grad_hist(cm)]).astype(np.float32)


def _combine(face: _Face, p: Image) -> tuple[int | None, float, bool]:
    """Merge the pip count and the learned classifier's probabilities.

    Returns (value or None, confidence, whether this is a die at all). A value is given only
    when both agree, or when one is very sure and the other has no objection.
    """
    k = int(np.argmax(p))
    if k == 0 and p[0] > 0.6 and face.value is None:
        return None, 0.0, False  # the classifier says: not a die, and no pips say otherwise
    if face.value is not None:
        pv = float(p[face.value])
        if k == face.value:
            return face.value, min(0.99, 0.6 + 0.4 * pv * face.confidence), True
        if face.confidence >= 0.9 and pv >= AGREE_MIN:
            return face.value, 0.55, True
        if k in face.counts and face.confidence < 0.9 and p[k] >= MLP_WITH_PIPS:
            return k, 0.5 + 0.3 * float(p[k]), True  # the pips also allow the classifier's value
        return None, 0.2, float(p[0]) < NOT_A_DIE
    if k > 0 and (p[k] > MLP_ALONE or (k in face.counts and p[k] >= MLP_WITH_PIPS)):
        return k, 0.5 + 0.3 * float(p[k]), True
    return None, 0.15, (face.pip_count > 0 or k > 0) and float(p[0]) < NOT_A_DIE


def load_face_model(path: Path = MODEL_PATH) -> Mlp | None:
    """The classical pipeline's learned face classifier from ``path``, or None when the file
    is missing (the pip count alone then reads each face)."""
    return Mlp.load(path) if path.exists() else None


class DiceReader:
    """Reads dice with the models it is given; build one and read every frame with it.

    - ``nets``: the pip dice CNNs (:class:`vision.cnn.Nets`); None: the classical pipeline
      reads pip dice, and icon dice get no help from the detector's heatmap;
    - ``faces``: the classical pipeline's face classifier (:func:`load_face_model`); None: its
      pip count alone;
    - ``colours``: the colour namer (:class:`vision.colour.ColourNamer`); None: the profile's
      palette (or ``DEFAULT_PALETTE``) alone names colours.

    :meth:`shipped` gives the models shipped in ``vision/models``. The reader keeps no state
    between frames: one reader may read on several threads.
    """

    def __init__(self, *, nets: Nets | None = None, faces: Mlp | None = None,
                 colours: ColourNamer | None = None) -> None:
        for name, value, kind in (("nets", nets, Nets), ("faces", faces, Mlp),
                                  ("colours", colours, ColourNamer)):
            if value is not None and not isinstance(value, kind):
                raise ValueError(f"DiceReader {name} must be a {kind.__name__} or None, "
                                 f"got {type(value).__name__}")
        self.nets = nets
        self.faces = faces
        self.colours = colours
        # the nets with a taught table's head, for the last head read with (by id)
        self._taught: tuple[TableHead, Nets] | None = None

    @classmethod
    def shipped(cls, *, cnn: bool = True, face_model: bool = True,
                colour_model: bool = True) -> DiceReader:
        """The models shipped in ``vision/models``, each left out when its file is missing or
        its flag is False (``cnn=False``: the classical pipeline, as on a table without the
        model files)."""
        return cls(nets=load_nets() if cnn else None,
                   faces=load_face_model() if face_model else None,
                   colours=load_namer() if colour_model else None)

    def __repr__(self) -> str:
        have = [name for name in ("nets", "faces", "colours") if getattr(self, name) is not None]
        return f"DiceReader({', '.join(have) or 'no models'})"

    def read(self, frame: Image, profile: Profile | None = None) -> Reading:
        """Read every die in a BGR frame.

        Returns a :class:`Reading` (possibly empty, with a warning for blank or tiny frames).
        Raised when ``frame`` is not an image (wrong type, dtype, shape, or empty) or
        ``profile`` is not a :class:`Profile`: ``ValueError``.
        """
        if profile is not None and not isinstance(profile, Profile):
            raise ValueError(f"profile must be a vision.Profile, got {type(profile).__name__}")
        img, warning = check_frame(frame)
        shape = (int(frame.shape[0]), int(frame.shape[1]))
        if img is None:
            return Reading.empty(shape, warning)
        palette: Palette | None = profile.palette if profile and profile.palette else None
        work, mask, inv_h, die_size, expect = _work_view(img, shape, profile)
        icons = profile.face_sets if profile is not None else ()
        if self.nets is not None and not icons:
            nets, heat_min, value_min = self.taught(profile)
            return _read_cnn(nets, work, mask, inv_h, shape, palette, die_size, expect,
                             self.colours, heat_min, value_min)
        return self._read_classical(work, mask, inv_h, shape, palette, die_size, icons)

    def taught(self, profile: Profile | None) -> tuple[Nets, float, float]:
        """The networks, the detector's cut and the probability a value needs, as this reader
        reads ``profile``'s table: its taught head's (:class:`vision.profile.TableHead`) when it
        was fitted for this reader's models (and fits their features), else the reader's own
        networks, ``HEAT_MIN`` and ``VALUE_MIN``. Raised when the reader has no CNNs:
        ``ValueError``."""
        if self.nets is None:
            raise ValueError("a reader without its CNNs cannot read with a taught head")
        head = profile.head if profile is not None else None
        if head is None or head.model != self.nets.identity:
            return self.nets, HEAT_MIN, VALUE_MIN
        arrays = head.arrays()
        if arrays is None:
            return self.nets, head.heat_min, head.value_min
        last = self._taught
        if last is None or last[0] is not head:
            try:
                last = (head, self.nets.with_head(*arrays))
            except ValueError:  # its shape does not fit these models (a damaged file): as
                return self.nets, HEAT_MIN, VALUE_MIN  # if nothing was taught
            self._taught = last
        return last[1], head.heat_min, head.value_min

    def look(self, frame: Image, profile: Profile | None = None) -> Look:
        """What the CNN path looks at in ``frame`` with ``profile``: the image it reads (the
        frame, or a calibrated table warped top-down), the map from frame pixels to it, and
        the die candidates its classifier is asked about (:class:`Look`); what teaching a
        table cuts its examples from. Raised when the frame is not an image, or the reader
        has no CNNs: ``ValueError``."""
        if self.nets is None:
            raise ValueError("a reader without its CNNs has no candidates to look at")
        img, _warning = check_frame(frame)
        if img is None:
            return Look(np.ascontiguousarray(frame), None, ())
        shape = (int(frame.shape[0]), int(frame.shape[1]))
        work, mask, inv_h, die_size, expect = _work_view(img, shape, profile)
        dets = _candidates(self.taught(profile)[0], work, mask, die_size, expect)[0]
        return Look(work, None if inv_h is None else np.linalg.inv(inv_h), tuple(dets))

    def _read_classical(self, work: Image, mask: Image | None, inv_h: Image | None,
                        shape: tuple[int, int], palette: Palette | None,
                        die_size: float | None, icons: tuple[FaceSet, ...]) -> Reading:
        """Icon dice, and pip dice without the CNNs: the classical die finder, then the pip
        count (with the face classifier) or the profile's face sets."""
        cands, side, hand = find_candidates(work, mask, die_size)
        icon_faces = _icon_faces(work, mask, cands, side, icons, self.nets) if icons else []
        if icons:
            cands = [c for c, _lab, _conf in icon_faces]
        model = self.faces if not icons else None
        probs = (model.proba(np.stack([crop_features(c.crop) for c in cands]))
                 if model is not None and cands else None)
        colours = name_colours(work, [(float(c.rect[0][0]), float(c.rect[0][1]),
                                       float(max(c.rect[1]))) for c in cands], palette,
                               self.colours)
        dice: list[Die] = []
        for ci, cand in enumerate(cands):
            rect, box, crop = cand.rect, cand.box, cand.crop
            face = _read_face(crop)
            value, conf = face.value, face.confidence
            label: str | None = None
            if icons:
                # icon dice: the learned face sets decide (see _icon_faces)
                best = icon_faces[ci][1:]
                # a table with icon faces reads icon dice only: no match means "uncertain"
                label, value = best[0], None
                conf = best[1] if best[0] is not None else min(best[1], 0.2)
            elif probs is not None:
                value, conf, keep = _combine(face, probs[ci])
                if not keep:
                    continue
            elif face.pip_count == 0:
                continue  # no pips and no icon faces to try: a token, a screw, not a die
            if label is None and value is not None:
                label = str(value)
            dice.append(_die(rect[0], box, float(rect[2]) % 90.0, float(max(rect[1])), inv_h,
                             value, label, colours[ci], conf))
        return _reading(dice, side, shape, hand)


@dataclass(frozen=True)
class Look:
    """What the CNN path looks at in a frame (:meth:`DiceReader.look`): ``image`` the image
    it reads (the frame, or a calibrated table warped top-down), ``to_image`` the 3x3 map from
    frame pixels to it (None: the same pixels), ``candidates`` the heatmap peaks its
    classifier is asked about, in ``image``'s pixels, with their heat."""

    image: Image
    to_image: Image | None
    candidates: tuple[Detection, ...]

    def at(self, x: float, y: float) -> tuple[float, float]:
        """A frame pixel's place in :attr:`image`."""
        if self.to_image is None:
            return x, y
        q = cv2.perspectiveTransform(np.array([[[x, y]]], np.float64), self.to_image)
        return float(q[0, 0, 0]), float(q[0, 0, 1])


@functools.cache
def shipped_reader() -> DiceReader:
    """One :meth:`DiceReader.shipped` for :func:`read_dice`, loaded on first use."""
    return DiceReader.shipped()


def read_dice(frame: Image, profile: Profile | None = None) -> Reading:
    """Read every die in a BGR frame with the shipped models (:func:`shipped_reader`).

    A convenience for scripts and tests; the app, calibration and the benchmarks build their
    :class:`DiceReader` and give it its models. See :meth:`DiceReader.read`.
    """
    return shipped_reader().read(frame, profile)


def _work_view(img: Image, shape: tuple[int, int], profile: Profile | None) -> tuple[
        Image, Image | None, Image | None, float | None, float | None]:
    """Where the dice are read: (the image read, its mask of the tray, the homography from it
    back to the frame, the die size in it, the die size expected in an oblique tray).

    A calibrated table seen from above is warped to its plane at the scale that gives its dice
    the size the reader knows best; one seen obliquely is read in the frame, under its mask."""
    mask = None
    inv_h: Image | None = None
    work = img
    die_size = profile.die_size if profile is not None else None
    expect: float | None = None  # a die's expected size in ``work`` where it varies
    if profile is None or profile.table is None:
        return work, mask, inv_h, die_size, expect
    t = profile.table
    hm = t.matrix()
    plane = t.table_size
    oblique = False
    if hm is not None and plane is not None and die_size is not None and not profile.face_sets:
        image_die, squash = _die_in_image(hm, t.polygon, die_size)
        oblique = squash < TOP_DOWN_SQUASH
        if oblique:
            # seen this obliquely, a top-down warp would stretch each die's side faces
            # into die-sized faces of their own: the tray is read in the image (where the
            # nets learned oblique dice), looked at closely enough for its dice
            mask, expect, die_size = t.mask(shape), image_die, None
        else:
            # the table plane drawn at the scale that gives its dice the size the reader
            # knows best (calibration measured them): small dice far away are not lost
            k = float(np.clip(REF_DIE / die_size, 0.25, 4.0))
            k = min(k, WARP_MAX_SIDE / max(plane))
            hm = np.diag([k, k, 1.0]) @ hm
            plane = (max(32, round(plane[0] * k)), max(32, round(plane[1] * k)))
            die_size *= k
    if hm is not None and plane is not None and not oblique:
        work = cv2.warpPerspective(img, hm, plane, flags=cv2.INTER_LINEAR)
        poly = cv2.perspectiveTransform(
            np.array(t.polygon, np.float64).reshape(-1, 1, 2), hm).reshape(-1, 2)
        mask = np.zeros(work.shape[:2], np.uint8)
        cv2.fillPoly(mask, [np.round(poly).astype(np.int32)], 255)
        inv_h = np.linalg.inv(hm)
    elif not oblique:
        mask = t.mask(shape)
    return work, mask, inv_h, die_size, expect


def _die(centre_at: Any, box: Image, angle: float, size: float, inv_h: Image | None,
         value: int | None, face: str | None, colour: str | None, conf: float) -> Die:
    """A die read at ``centre_at`` with outline ``box`` in the image read; with ``inv_h`` (a
    warped table), its centre, outline and size are taken back to the frame's pixels."""
    centre: Image = np.array(centre_at, np.float64)
    corners: Image = np.asarray(box, np.float64)
    if inv_h is not None:
        both = cv2.perspectiveTransform(
            np.vstack([centre[None], corners]).reshape(-1, 1, 2), inv_h).reshape(-1, 2)
        centre, corners = both[0], both[1:]
        size = float(np.mean(np.linalg.norm(corners - np.roll(corners, 1, 0), axis=1)))
    return Die(
        center=(float(centre[0]), float(centre[1])),
        corners=tuple((float(x), float(y)) for x, y in corners),  # type: ignore[arg-type]
        angle=angle,
        size=max(size, 1e-3),
        value=value,
        face=face,
        colour=colour,
        confidence=float(min(1.0, max(0.0, conf))),
    )


def _reading(dice: list[Die], side: float, shape: tuple[int, int], hand: bool) -> Reading:
    """The dice in reading order (rows of about a die's ``side``, then left to right), with the
    hand warning when ``hand``."""
    dice.sort(key=lambda d: (round(d.center[1] / max(side, 1.0)), d.center[0]))
    return Reading(dice=tuple(dice), frame_shape=shape,
                   warnings=(HAND_IN_VIEW,) if hand else ())


#: Classifier probability a value needs to be reported; below it the die is uncertain.
#: Chosen on the photos of fold 1 (``benchmarks/vision.py``) read by that fold's models: 0.4
#: reads one more die wrong, 0.6 leaves two more uncertain (docs/vision.md, Decisions).
VALUE_MIN = 0.5
#: A detection the classifier gives at least this "not a die" probability is dropped.
NOT_DIE_MIN = 0.5
#: Heatmap peaks between RESCUE_HEAT and HEAT_MIN are kept only when the classifier is sure:
#: "not a die" below RESCUE_NOT_DIE and the value at least RESCUE_VALUE likely (val photos).
RESCUE_HEAT = 0.2
#: A peak this strong is a die even when the classifier says "not a die" (a die of a colour or
#: kind it never saw): it is reported unsure, for the players to confirm, unless the classifier
#: is very sure (SURE_DIE_NOT_DIE) it is not a die. Chosen on the left-out sources (byler left
#: out: 86.8% -> 89.0% of its dice found, precision 98.4% both; docs/vision.md).
SURE_DIE_HEAT = 0.65
SURE_DIE_NOT_DIE = 0.7
#: A die the detector half-sees (a peak of HALF_SEEN_HEAT up to HEAT_MIN: a die of a kind it
#: knows less, on felt, marbled, glittery) that the classifier calls a die (its "not a die"
#: under HALF_SEEN_NOT_DIE) is reported unsure, not lost, unless it lies within
#: HALF_SEEN_APART sizes of a die already read (there it is most often that die's side face
#: in an oblique view). Provisional: chosen on synthetic felt trays, the hard tables and the
#: left-out sources (docs/vision.md, round 7).
HALF_SEEN_HEAT = 0.3
HALF_SEEN_NOT_DIE = 0.1
HALF_SEEN_APART = 1.2
RESCUE_NOT_DIE = 0.02
RESCUE_VALUE = 0.9


#: With a calibrated homography and die size, the table plane is drawn so a die is this many
#: px (a die in a 640 px photo of a tray, as the detector learned them), but no side over
#: WARP_MAX_SIDE px.
REF_DIE = 40.0
WARP_MAX_SIDE = 1280
#: The weakest heatmap peak of a small die that asks for the zoomed look (``ZOOM_BELOW``).
ZOOM_PEAK = 0.2
#: Nothing under this many px (frame or warped table) is a die: too few pixels for any face.
ZOOM_MIN_DIE = 10.0
#: A die found by the zoomed look whose value the classifier cannot tell is reported (unsure)
#: only at a heatmap peak this strong.
ZOOM_UNSURE_HEAT = 0.6
#: At most this many zoomed tiles over a calibrated oblique tray (fewer: a smaller zoom).
ZOOM_TRAY_TILES = 12
#: Strong perspective: log(die size) rising by at least this much across the frame's longer
#: side (fitted over PERSPECTIVE_DICE or more dice spread over PERSPECTIVE_SPREAD of it; with
#: fewer, dice of different sizes in one set look like perspective, as in byler's) means
#: a close, oblique view whose near faces show large; each die is then also read with its crop
#: moved towards the far side (onto its top face) by these fractions of its size, at these
#: crop scales, and the probabilities averaged (chosen on the 3-fold figures, docs/vision.md).
PERSPECTIVE_SLOPE = 1.0
PERSPECTIVE_DICE = 10
PERSPECTIVE_SPREAD = 0.15
#: ... and the fit must explain this share of the sizes' variance (perspective grows dice
#: smoothly across the frame; a mix of die sizes, or clutter taken for dice, does not)
PERSPECTIVE_FIT = 0.6
#: ... and the dice must get smaller towards the top of the picture (the far side of a table
#: photographed across it; within 60 degrees of straight up): big clutter near the top of a
#: flat view (a board game's pieces taken for dice) is not perspective
PERSPECTIVE_UP = 0.5
#: The top-face look: (shift towards the far side in die sizes, crop side in die sizes) each
TOP_FACE_LOOKS = ((0.15, 1.1), (0.25, 1.0))


#: A calibrated tray whose dice look squashed to less than this (short / long side, ~ the cosine
#: of the camera's angle from straight down: 25 degrees) is read in the image, not warped.
TOP_DOWN_SQUASH = 0.9


def _die_in_image(to_table: Image, polygon: tuple[tuple[float, float], ...],
                  die_size: float) -> tuple[float, float]:
    """A calibrated die's size in image pixels at the middle of the tray, and how squashed
    the table looks there (the image-to-table map's smaller over larger stretch)."""
    cx, cy = (float(v) for v in np.mean(np.array(polygon, np.float64), axis=0))
    pts = np.array([[cx, cy], [cx + 1.0, cy], [cx, cy + 1.0]], np.float64).reshape(-1, 1, 2)
    q = cv2.perspectiveTransform(pts, to_table).reshape(-1, 2)
    jac = np.stack([q[1] - q[0], q[2] - q[0]], axis=1)  # table px per image px
    sv = np.linalg.svd(jac, compute_uv=False)
    if not (sv[1] > 0):
        return die_size, 1.0
    return die_size / math.sqrt(float(sv[0] * sv[1])), float(sv[1] / sv[0])


def _merge_zoomed(big: list[Detection], near: list[Detection]) -> list[Detection]:
    """The whole-frame look's big dice and the zoomed look's small ones; a small one lying
    on a big one's centre is dropped (a pip or a corner of that die seen up close)."""
    out = list(big)
    for d in near:
        if all(math.hypot(d.cx - b.cx, d.cy - b.cy) > 0.5 * b.size for b in big):
            out.append(d)
    return out


def far_side(dets: list[Detection], probs: Image,
             shape: tuple[int, ...]) -> tuple[float, float] | None:
    """The direction (a unit vector in image pixels) in which the dice of a frame get smaller,
    i.e. towards the far side of the table, when the frame is seen in strong perspective; None
    otherwise (a top-down view, few dice, or dice too close together to tell).

    Fitted as log(size) = a + b . (x, y) / (the frame's longer side) over the dice the
    classifier takes for dice (``probs[:, 0]`` below ``NOT_DIE_MIN``): strong when |b| is at
    least ``PERSPECTIVE_SLOPE``, the fit explains at least ``PERSPECTIVE_FIT`` of the
    sizes' variance and the far side is at the top of the picture (``PERSPECTIVE_UP``)."""
    side = float(max(shape[0], shape[1]))
    pts = [(d.cx / side, d.cy / side, math.log(max(d.size, 1e-3)))
           for d, p in zip(dets, probs, strict=True) if float(p[0]) < NOT_DIE_MIN]
    if len(pts) < PERSPECTIVE_DICE:
        return None
    a = np.array(pts, np.float64)
    if max(float(np.ptp(a[:, 0])), float(np.ptp(a[:, 1]))) < PERSPECTIVE_SPREAD:
        return None
    design = np.column_stack([np.ones(len(a)), a[:, 0], a[:, 1]])
    sol = np.linalg.lstsq(design, a[:, 2], rcond=None)[0]
    b = sol[1:]
    strength = float(np.hypot(b[0], b[1]))
    spread = float(np.sum((a[:, 2] - a[:, 2].mean()) ** 2))
    explained = 1.0 - float(np.sum((design @ sol - a[:, 2]) ** 2)) / max(spread, 1e-12)
    if strength < PERSPECTIVE_SLOPE or explained < PERSPECTIVE_FIT:
        return None
    far = (float(-b[0] / strength), float(-b[1] / strength))
    # a picture taken across a table has its far side at the top
    return far if far[1] <= -PERSPECTIVE_UP else None


def top_face_probs(cnn: Nets, work: Image, dets: list[Detection], probs: Image,
                   far: tuple[float, float]) -> Image:
    """``probs`` averaged with the classifier's reading of each die's crop moved towards the
    far side (``far``, from :func:`far_side`) by ``TOP_FACE_LOOKS``: seen obliquely and close,
    a die's top face lies on its far side and its near side face shows large beside it; a
    value the moved crops do not confirm loses probability (read unsure rather than wrong),
    and one they confirm (the top face's) gains. "Not a die" stays the centred crop's, and
    crops already called "not a die" are left as they are. Returns a new array."""
    out: Image = np.array(probs, np.float32, copy=True)
    idx = [i for i in range(len(dets)) if float(out[i, 0]) < NOT_DIE_MIN]
    if not idx:
        return out
    looks = [out[idx]]
    for shift, scale in TOP_FACE_LOOKS:
        moved = [dataclasses.replace(dets[i], cx=dets[i].cx + far[0] * shift * dets[i].size,
                                     cy=dets[i].cy + far[1] * shift * dets[i].size,
                                     size=dets[i].size * scale / CROP_SCALE) for i in idx]
        looks.append(cnn.classify(work, moved))
    # the values only: whether it is a die at all is the centred look's call (a crop moved
    # off the die shows table)
    out[idx, 1:] = np.mean(looks, axis=0)[:, 1:]
    return out


def verdict(score: float, p: np.ndarray, *, zoomed: bool = False, heat_min: float = HEAT_MIN,
            value_min: float = VALUE_MIN) -> tuple[int | None, float] | None:
    """What the CNN path reports for a heatmap peak of strength ``score`` whose crop the
    classifier scored ``p`` ("not a die", then 1..6): ``(value, confidence)``, value None for
    a die said unsure, or None for no die. ``zoomed``: the peak came from the zoomed look at
    small dice. ``heat_min`` and ``value_min``: the detector's cut and the probability a value
    needs (a taught table's own, else ``HEAT_MIN`` and ``VALUE_MIN``)."""
    k = 1 + int(np.argmax(p[1:]))
    pk, not_die = float(p[k]), float(p[0])
    if not_die >= NOT_DIE_MIN:
        if score >= SURE_DIE_HEAT and not_die < SURE_DIE_NOT_DIE:
            return None, 0.2 * pk  # surely a die by its peak, of a kind the classifier never saw
        return None
    if score < heat_min and not (not_die < RESCUE_NOT_DIE and pk >= RESCUE_VALUE):
        return None  # a weak peak counts only when the classifier is sure of a die and value
    value: int | None = k if pk >= value_min else None
    if value is None and zoomed and score < ZOOM_UNSURE_HEAT:
        return None  # a small thing seen up close is said unsure only where surely a die
    conf = (0.5 + 0.5 * (pk - value_min) / (1 - value_min)) if value else 0.2 * pk
    return value, conf


def half_seen(score: float, p: np.ndarray, heat_min: float = HEAT_MIN) -> bool:
    """Whether a heatmap peak of strength ``score`` that :func:`verdict` leaves out, its crop
    scored ``p``, is a die the detector half-sees: reported unsure (for the players to
    confirm) where no die already read lies near it. ``heat_min``: the detector's cut (a
    taught table's own: the half-seen band ends there)."""
    return HALF_SEEN_HEAT <= score < heat_min and float(p[0]) < HALF_SEEN_NOT_DIE


def _candidates(cnn: Nets, work: Image, mask: Image | None, die_size: float | None,
                expect: float | None) -> tuple[list[Detection], set[int], Image, float]:
    """The dice the classifier is asked about: heatmap peaks of the whole frame (and of the
    zoomed look at small dice), in the tray; with the ids of those the zoomed look found, the
    detector's shrunk copy of ``work`` and its scale.

    ``die_size`` fixes every die's size (a calibrated top-down table); ``expect`` is the
    size calibration expects where it varies (an oblique tray read in the image): dice
    expected too small for the whole-frame look get the zoomed look over the whole tray."""
    small, s = shrink(work)
    found = cnn.detect_shrunk(small, s, work.shape[:2], heat_min=ZOOM_PEAK)
    dets = [d for d in found if d.score >= RESCUE_HEAT]
    big = [d for d in dets if (die_size or d.size) * s >= ZOOM_BELOW]
    # a small peak on a big die (a pip, a corner) asks for no closer look: what that look
    # would find there is dropped (_merge_zoomed)
    tiny = [d for d in found if (die_size or d.size) * s < ZOOM_BELOW
            and (die_size or d.size) >= ZOOM_MIN_DIE
            and all(math.hypot(d.cx - b.cx, d.cy - b.cy) > 0.5 * b.size for b in big)]
    zoomed: set[int] = set()  # the dice found by the zoomed look (by id)
    if expect is not None and expect * s < ZOOM_BELOW:
        # the whole tray, not only where the whole-frame look saw hints
        zs = min(ZOOM_MAX_SCALE * s, ZOOM_TO / expect)
        ys, xs = np.nonzero(mask) if mask is not None else (np.array([0, work.shape[0] - 1]),
                                                            np.array([0, work.shape[1] - 1]))
        region = (float(xs.min()), float(ys.min()), float(xs.max()) + 1, float(ys.max()) + 1)
        near = [d for d in cnn.detect_covering(work, zs, region, heat_min=RESCUE_HEAT,
                                               max_tiles=ZOOM_TRAY_TILES)
                if d.size >= ZOOM_MIN_DIE]
        dets = _merge_zoomed([d for d in dets if d.size * s >= ZOOM_BELOW], near)
        zoomed = {id(d) for d in near}
        tiny = []
    if tiny:
        # small dice (or hints of them) get a second look from closer: the detector run on
        # tiles around them at a scale that makes them ZOOM_TO px at its input; its dice
        # there replace the whole-frame look's small ones
        zs = min(ZOOM_MAX_SCALE * s,
                 ZOOM_TO / (die_size or float(np.median([d.size for d in tiny]))))
        if zs > 1.25 * s:
            near = [d for d in cnn.detect_zoomed(work, zs, [(d.cx, d.cy) for d in
                                                            sorted(tiny, key=lambda d: -d.score)],
                                                 heat_min=RESCUE_HEAT)
                    if d.size >= ZOOM_MIN_DIE]
            dets = _merge_zoomed([d for d in dets if d.size * s >= ZOOM_BELOW], near)
            zoomed = {id(d) for d in near}
    if mask is not None:
        dets = [d for d in dets
                if mask[min(mask.shape[0] - 1, int(d.cy)), min(mask.shape[1] - 1, int(d.cx))]]
    if die_size is not None:
        dets = [dataclasses.replace(d, size=die_size) for d in dets]
    return dets, zoomed, small, s


def _read_cnn(cnn: Nets, work: Image, mask: Image | None, inv_h: Image | None,
              shape: tuple[int, int], palette: Palette | None,
              die_size: float | None, expect: float | None,
              namer: ColourNamer | None, heat_min: float = HEAT_MIN,
              value_min: float = VALUE_MIN) -> Reading:
    """The learned path: detector heatmap peaks (:func:`_candidates`), then the crop
    classifier per die; colours named by ``namer`` (None: the palette alone); ``heat_min``
    and ``value_min`` the detector's cut and the probability a value needs (a taught
    table's own)."""
    dets, zoomed, small, s = _candidates(cnn, work, mask, die_size, expect)
    probs = cnn.recheck(work, dets, cnn.classify(work, dets), not_die=NOT_DIE_MIN)
    far = far_side(dets, probs, work.shape[:2])
    if far is not None:
        probs = top_face_probs(cnn, work, dets, probs, far)
    sides = [d.size for d in dets]
    side = float(np.median(sides)) if sides else MIN_DIE_FRACTION * min(work.shape[:2])
    # the hand check looks at the detector's copy of the frame, halved (about 128 px a side)
    seen = small[:max(2, round(work.shape[0] * s)), :max(2, round(work.shape[1] * s))]
    hand = _hand_in_view(seen, side * s, f=2)
    kept: list[tuple[Detection, int | None, float]] = []
    half: list[tuple[Detection, float]] = []
    for d, p in zip(dets, probs, strict=True):
        said = verdict(d.score, p, zoomed=id(d) in zoomed, heat_min=heat_min,
                       value_min=value_min)
        if said is not None:
            kept.append((d, *said))
        elif id(d) not in zoomed and half_seen(d.score, p, heat_min):
            half.append((d, 0.2 * float(p[1:].max())))
    kept += [(d, None, conf) for d, conf in half
             if all(math.hypot(d.cx - k.cx, d.cy - k.cy) > HALF_SEEN_APART * max(d.size, k.size)
                    for k, _v, _c in kept)]
    patches = [crop(work, d.cx, d.cy, d.size, side=32, scale=1.2) for d, _v, _c in kept]
    colours = name_colours(work, [(d.cx, d.cy, d.size) for d, _v, _c in kept], palette,
                           namer, patches=patches, light=scene_light(seen) if kept else None)
    dice = [_die((d.cx, d.cy), cv2.boxPoints(((d.cx, d.cy), (d.size, d.size), ang)), ang, d.size,
                  inv_h, value, str(value) if value else None, colour, conf)
            for (d, value, conf), colour, ang in zip(
                kept, colours, [die_angle(p) for p in patches], strict=True)]
    return _reading(dice, side, shape, hand)
