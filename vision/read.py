"""Reading dice from one BGR frame: :func:`read_dice`.

The pipeline, all classical OpenCV:

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
5. **Colour**: the median body colour (pips excluded) against the palette.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from vision.profile import DEFAULT_PALETTE, Palette, Profile
from vision.types import Die, Reading

Image = npt.NDArray[Any]

CROP = 48  # side of the upright die crop, px
MIN_SIDE = 32  # frames smaller than this on either side are not read

#: A reading carrying this warning prefix means something big (a hand) is in the tray.
OCCLUSION_WARNING = "occlusion"


def _describe(frame: object) -> str:
    if isinstance(frame, np.ndarray):
        return f"array of shape {frame.shape} and dtype {frame.dtype}"
    return f"{type(frame).__name__}"


def check_frame(frame: object) -> tuple[Image | None, str | None]:
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
        return None, f"frame too small to read: {w}x{h} px (need at least {MIN_SIDE}x{MIN_SIDE})"
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
        return None, f"frame is {what}: nothing to read"
    return np.ascontiguousarray(frame), None


@dataclass
class _Blob:
    pts: Image  # Nx2 int32 (x, y) pixel coordinates
    area: float


def _foreground(img: Image, mask: Image | None) -> tuple[Image, Image]:
    """Foreground mask (0/255) and the per-pixel difference from the estimated background."""
    h, w = img.shape[:2]
    f = 16
    sw, sh = max(4, w // f), max(4, h // f)
    small = cv2.resize(img, (sw, sh), interpolation=cv2.INTER_AREA)
    k = max(3, (min(sw, sh) // 5) | 1)
    k = min(k, 9)
    bg = cv2.medianBlur(small, k)
    bg = cv2.resize(bg, (w, h), interpolation=cv2.INTER_LINEAR)
    d = cv2.absdiff(img, bg)
    diff = cv2.max(cv2.max(d[:, :, 0], d[:, :, 1]), d[:, :, 2])
    fg = cv2.threshold(diff, 38, 255, cv2.THRESH_BINARY)[1]
    if mask is not None:
        fg = cv2.bitwise_and(fg, mask)
    return fg, diff


def _blobs(fg: Image, die_size: float | None) -> tuple[list[_Blob], float, bool]:
    """Connected foreground blobs (filled), the die side in px, and whether a hand is seen."""
    k3 = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (7, 7))
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
    ko = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))
    filled = cv2.morphologyEx(filled, cv2.MORPH_OPEN, ko)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(filled, connectivity=8)
    min_area = max(60.0, 0.00025 * h * w) if die_size is None else 0.4 * die_size**2
    cands: list[tuple[int, float]] = []
    squareish: list[float] = []
    for i in range(1, n):
        area = float(stats[i, cv2.CC_STAT_AREA])
        if area < min_area:
            continue
        bw, bh = stats[i, cv2.CC_STAT_WIDTH], stats[i, cv2.CC_STAT_HEIGHT]
        cands.append((i, area))
        fill = area / float(bw * bh)
        if 0.45 < fill and max(bw, bh) / max(1, min(bw, bh)) < 1.5:
            squareish.append(math.sqrt(area))
    if die_size is None:
        if not squareish:
            return [], 0.0, False
        side = float(np.median(squareish))
    else:
        side = die_size
    blobs: list[_Blob] = []
    hand = False
    for i, area in cands:
        if area < 0.35 * side * side:
            continue
        if area > 14 * side * side:
            hand = True
            continue
        ys, xs = np.nonzero(labels == i) if area < 4000 else _component_pts(labels, stats, i)
        blobs.append(_Blob(np.stack([xs, ys], axis=1).astype(np.int32), area))
    return blobs, side, hand


def _component_pts(labels: Image, stats: Image, i: int) -> tuple[Image, Image]:
    x, y = stats[i, cv2.CC_STAT_LEFT], stats[i, cv2.CC_STAT_TOP]
    bw, bh = stats[i, cv2.CC_STAT_WIDTH], stats[i, cv2.CC_STAT_HEIGHT]
    ys, xs = np.nonzero(labels[y:y + bh, x:x + bw] == i)
    return ys + y, xs + x


def _split(blob: _Blob, side: float) -> list[Image]:
    """Point sets of the single dice in a blob (clusters when it holds several)."""
    k = int(round(blob.area / (side * side)))
    if k <= 1:
        return [blob.pts]
    k = min(k, 12)
    data = blob.pts.astype(np.float32)
    crit = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.5)
    cv2.setRNGSeed(12345)
    _, lab, _ = cv2.kmeans(data, k, None, crit, 3, cv2.KMEANS_PP_CENTERS)
    lab = lab.ravel()
    return [blob.pts[lab == j] for j in range(k) if np.count_nonzero(lab == j) > 0]


def _upright_crop(img: Image, rect: tuple[Any, ...], side: float) -> tuple[Image, Image]:
    """Warp the die's rotated box to a CROP x CROP upright square; also return the 4 corners."""
    (cx, cy), (rw, rh), ang = rect
    s = max(rw, rh, 1.0)
    box = cv2.boxPoints(((cx, cy), (s, s), ang)).astype(np.float32)
    # keep a small margin in: the die edge is often shaded
    c = box.mean(axis=0)
    inner = (c + (box - c) * 0.94).astype(np.float32)
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


def _read_face(crop: Image) -> _Face:
    lab = cv2.cvtColor(crop, cv2.COLOR_BGR2LAB).astype(np.int16)
    mid = lab[CROP // 6: CROP - CROP // 6, CROP // 6: CROP - CROP // 6].reshape(-1, 3)
    body = np.median(mid, axis=0)
    d = lab - body
    dist = np.sqrt(0.6 * d[:, :, 0].astype(np.float32) ** 2
                   + d[:, :, 1].astype(np.float32) ** 2 + d[:, :, 2].astype(np.float32) ** 2)
    thr = max(22.0, 0.45 * float(np.percentile(dist, 97)))
    m = (dist > thr).astype(np.uint8) * 255
    n, _labels, stats, cents = cv2.connectedComponentsWithStats(m, connectivity=8)
    area_all = CROP * CROP
    pips = []
    for i in range(1, n):
        a = stats[i, cv2.CC_STAT_AREA]
        x, y = stats[i, cv2.CC_STAT_LEFT], stats[i, cv2.CC_STAT_TOP]
        bw, bh = stats[i, cv2.CC_STAT_WIDTH], stats[i, cv2.CC_STAT_HEIGHT]
        if not 0.006 * area_all <= a <= 0.08 * area_all:
            continue
        if x <= 0 or y <= 0 or x + bw >= CROP or y + bh >= CROP:
            continue
        if max(bw, bh) > 2.2 * min(bw, bh) or a < 0.45 * bw * bh:
            continue
        pips.append((float(a), cents[i]))
    body_mask = (m == 0)
    body_bgr_arr = np.median(crop[body_mask], axis=0) if body_mask.any() else np.median(
        crop.reshape(-1, 3), axis=0)
    body_bgr = (float(body_bgr_arr[0]), float(body_bgr_arr[1]), float(body_bgr_arr[2]))
    count = len(pips)
    if not 1 <= count <= 6:
        return _Face(None, 0.2, body_bgr, count)
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
    value: int | None = count if conf >= 0.5 else None
    return _Face(value, max(0.05, conf), body_bgr, count)


def read_dice(frame: Image, profile: Profile | None = None) -> Reading:
    """Read every die in a BGR frame.

    Returns a :class:`Reading` (possibly empty, with a warning for blank or tiny frames).
    Raised when ``frame`` is not an image (wrong type, dtype, shape, or empty): ``ValueError``.
    """
    if profile is not None and not isinstance(profile, Profile):
        raise ValueError(f"profile must be a vision.Profile, got {type(profile).__name__}")
    img, warning = check_frame(frame)
    shape = (int(frame.shape[0]), int(frame.shape[1]))
    if img is None:
        return Reading.empty(shape, warning)
    palette: Palette = (profile.palette if profile and profile.palette else DEFAULT_PALETTE)
    mask = None
    inv_h: Image | None = None
    work = img
    if profile is not None and profile.table is not None:
        t = profile.table
        hm = t.matrix()
        if hm is not None and t.table_size is not None:
            work = cv2.warpPerspective(img, hm, t.table_size, flags=cv2.INTER_LINEAR)
            poly = cv2.perspectiveTransform(
                np.array(t.polygon, np.float64).reshape(-1, 1, 2), hm).reshape(-1, 2)
            mask = np.zeros(work.shape[:2], np.uint8)
            cv2.fillPoly(mask, [np.round(poly).astype(np.int32)], 255)
            inv_h = np.linalg.inv(hm)
        else:
            mask = t.mask(shape)
    fg, _diff = _foreground(work, mask)
    blobs, side, hand = _blobs(fg, profile.die_size if profile else None)
    warnings: list[str] = []
    if hand:
        warnings.append(f"{OCCLUSION_WARNING}: a large object (a hand?) is in view")
    dice: list[Die] = []
    for blob in blobs:
        for pts in _split(blob, side):
            if len(pts) < 0.3 * side * side:
                continue
            rect = cv2.minAreaRect(pts.reshape(-1, 1, 2))
            (rw, rh) = rect[1]
            if max(rw, rh) > 1.9 * side or min(rw, rh) < 0.45 * side:
                continue
            crop, box = _upright_crop(work, rect, side)
            face = _read_face(crop)
            if face.pip_count == 0 and not (profile is not None and profile.face_sets):
                continue  # no pips and no icon faces to try: a token, a screw, not a die
            label: str | None = str(face.value) if face.value is not None else None
            value = face.value
            conf = face.confidence
            if value is None and profile is not None and profile.face_sets and face.pip_count == 0:
                best: tuple[str | None, float] = (None, 0.0)
                for fs in profile.face_sets:
                    lab_, c_ = fs.classify(crop)
                    if c_ > best[1]:
                        best = (lab_, c_)
                label, conf = best[0], best[1] if best[0] is not None else min(best[1], 0.3)
            colour, _cs = palette.classify(face.body_bgr)
            centre = np.array(rect[0], np.float64)
            corners = box.astype(np.float64)
            size = float(max(rw, rh))
            if inv_h is not None:
                both = cv2.perspectiveTransform(
                    np.vstack([centre[None], corners]).reshape(-1, 1, 2), inv_h).reshape(-1, 2)
                centre, corners = both[0], both[1:]
                size = float(np.mean(np.linalg.norm(corners - np.roll(corners, 1, 0), axis=1)))
            dice.append(Die(
                center=(float(centre[0]), float(centre[1])),
                corners=tuple((float(x), float(y)) for x, y in corners),  # type: ignore[arg-type]
                angle=float(rect[2]) % 90.0,
                size=max(size, 1e-3),
                value=value,
                face=label,
                colour=colour,
                confidence=float(min(1.0, max(0.0, conf))),
            ))
    dice.sort(key=lambda d: (round(d.center[1] / max(side, 1.0)), d.center[0]))
    return Reading(dice=tuple(dice), frame_shape=shape, warnings=tuple(warnings))
