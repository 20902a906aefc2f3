"""The table region: where the tray is, seen top-down.

Four printed ArUco markers (ids 0-3, dictionary 4x4_50) lie in the tray's corners, each with
its own matching corner on the tray's corner: marker 0 top-left, 1 top-right, 2 bottom-right,
3 bottom-left, all upright as printed. From their 16 detected corners this module fits the
homography from the camera image to a top-down view of the tray, measures the tray in
millimetres (the markers' printed size is the ruler) and so the pixels per millimetre and the
expected die size. Without markers, four corners tapped on the screen and the tray's size do
the same job.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from calibration.images import CalibrationError
from vision.profile import TableRegion

Image = npt.NDArray[Any]
Point = tuple[float, float]

ARUCO_DICT = cv2.aruco.DICT_4X4_50
MARKER_IDS = (0, 1, 2, 3)
CORNER_NAMES = ("top-left", "top-right", "bottom-right", "bottom-left")
DEFAULT_MARKER_MM = 40.0
DEFAULT_DIE_MM = 16.0
#: Keep this much (mm) between the dice region and the markers.
MARKER_CLEARANCE_MM = 2.0


def _dictionary() -> Any:
    return cv2.aruco.getPredefinedDictionary(ARUCO_DICT)


def marker_image(marker_id: int, side_px: int) -> Image:
    """One marker (black border bit included) as a ``side_px`` square grey image."""
    if marker_id not in MARKER_IDS:
        raise CalibrationError(f"marker id must be one of {MARKER_IDS}, got {marker_id!r}")
    img: Image = cv2.aruco.generateImageMarker(_dictionary(), marker_id, int(side_px))
    return img


# --------------------------------------------------------------------------- marker sheet

A4_MM = (210.0, 297.0)


def marker_sheet(marker_mm: float = DEFAULT_MARKER_MM, dpi: int = 300) -> Image:
    """A printable A4 page (BGR, ``dpi``) with the four markers and how to lay them out."""
    if not 15.0 <= marker_mm <= 80.0:
        raise CalibrationError(f"marker size must be 15..80 mm to fit A4, got {marker_mm}")
    if not 100 <= dpi <= 600:
        raise CalibrationError(f"dpi must be 100..600, got {dpi}")
    px_mm = dpi / 25.4
    w, h = round(A4_MM[0] * px_mm), round(A4_MM[1] * px_mm)
    page = np.full((h, w, 3), 255, np.uint8)
    font = cv2.FONT_HERSHEY_SIMPLEX
    ink = (0, 0, 0)
    scale = dpi / 300.0

    def text(s: str, x_mm: float, y_mm: float, size: float = 1.0, bold: int = 2) -> None:
        cv2.putText(page, s, (round(x_mm * px_mm), round(y_mm * px_mm)), font,
                    size * 1.1 * scale, ink, max(1, round(bold * scale)), cv2.LINE_AA)

    lines = [
        ("Table companion - tray markers", 1.5, 4),
        (f"1. Print at 100% (no 'fit to page'). Each black square must be {marker_mm:g} mm.",
         1, 2),
        ("2. Cut out the four markers along the grey lines, keeping the white margin.", 1, 2),
        ("3. Lay each one flat, upright (number readable), in its corner of the tray:", 1, 2),
        ("   0 top-left, 1 top-right, 2 bottom-right, 3 bottom-left, as the camera sees it.", 1, 2),
        ("   The corner marked with the dot goes right into the tray's corner.", 1, 2),
        ("4. Photograph the tray from the camera, then: companion calibrate table PHOTO", 1, 2),
        ("   (or use the app's Calibrate screen). Keep all four markers visible;", 1, 2),
        ("   the tray is measured between their outer corners; dice go between them.", 1, 2),
    ]
    y = 18.0
    for s, size, bold in lines:
        text(s, 12.0, y, size, bold)
        y += 9.0 if size > 1 else 7.0
    side = round(marker_mm * px_mm)
    margin = round(6.0 * px_mm)  # white quiet zone around each marker
    cell_w = (w - 2 * round(12 * px_mm)) // 2
    top = round((y + 6.0) * px_mm)
    cell_h = (h - top - round(12 * px_mm)) // 2
    for k, mid in enumerate(MARKER_IDS):
        col, row = (k % 2, k // 2) if k < 2 else (1 - (k - 2), 1)
        # ids 0,1 on top; 3,2 below so the sheet mirrors the tray layout
        cx = round(12 * px_mm) + col * cell_w + cell_w // 2
        cy = top + row * cell_h + cell_h // 2
        x0, y0 = cx - side // 2, cy - side // 2
        page[y0:y0 + side, x0:x0 + side] = cv2.cvtColor(marker_image(mid, side),
                                                         cv2.COLOR_GRAY2BGR)
        cv2.rectangle(page, (x0 - margin, y0 - margin), (x0 + side + margin, y0 + side + margin),
                      (170, 170, 170), max(1, round(2 * scale)))
        corner = [(x0, y0), (x0 + side, y0), (x0 + side, y0 + side), (x0, y0 + side)][mid]
        dx = -1 if corner[0] == x0 else 1
        dy = -1 if corner[1] == y0 else 1
        dot = (corner[0] + dx * margin // 2, corner[1] + dy * margin // 2)
        cv2.circle(page, dot, max(4, margin // 4), ink, -1, cv2.LINE_AA)
        label = f"{mid}: {CORNER_NAMES[mid]}"
        text(label, (x0 - margin) / px_mm, (y0 + side + margin) / px_mm + 7.0, 1.0, 2)
    return page


def write_marker_sheet(path: Path, marker_mm: float = DEFAULT_MARKER_MM, dpi: int = 300) -> Path:
    """Write :func:`marker_sheet` as PNG (or PDF when ``path`` ends in .pdf)."""
    page = marker_sheet(marker_mm, dpi)
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.suffix.lower() == ".pdf":
        _write_pdf(path, page, dpi)
        return path
    if path.suffix.lower() != ".png":
        raise CalibrationError(f"marker sheet must be .png or .pdf, got {str(path)!r}")
    ok, buf = cv2.imencode(".png", page)
    if not ok:
        raise CalibrationError(f"could not encode the marker sheet for {str(path)!r}")
    path.write_bytes(buf.tobytes())
    return path


def _write_pdf(path: Path, page: Image, dpi: int) -> None:
    """A one-page PDF holding the page as a grey image at its true size (no extra library)."""
    grey = cv2.cvtColor(page, cv2.COLOR_BGR2GRAY)
    h, w = grey.shape
    import zlib

    data = zlib.compress(grey.tobytes(), 9)
    pw, ph = w * 72.0 / dpi, h * 72.0 / dpi
    content = f"q {pw:.2f} 0 0 {ph:.2f} 0 0 cm /Im0 Do Q".encode()
    objs = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        (f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {pw:.2f} {ph:.2f}] "
         "/Resources << /XObject << /Im0 5 0 R >> >> /Contents 4 0 R >>").encode(),
        f"<< /Length {len(content)} >>\nstream\n".encode() + content + b"\nendstream",
        (f"<< /Type /XObject /Subtype /Image /Width {w} /Height {h} /ColorSpace /DeviceGray "
         f"/BitsPerComponent 8 /Filter /FlateDecode /Length {len(data)} >>\nstream\n").encode()
        + data + b"\nendstream",
    ]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for i, body in enumerate(objs, start=1):
        offsets.append(len(out))
        out += f"{i} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objs) + 1}\n0000000000 65535 f \n".encode()
    for off in offsets:
        out += f"{off:010d} 00000 n \n".encode()
    out += f"trailer\n<< /Size {len(objs) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    path.write_bytes(bytes(out))


# --------------------------------------------------------------------------- detection


def detect_markers(frame: Image) -> dict[int, Image]:
    """``{marker id: 4x2 corners}`` (sub-pixel, image pixels) of the tray markers in view."""
    if not isinstance(frame, np.ndarray) or frame.dtype != np.uint8 or frame.ndim not in (2, 3):
        raise CalibrationError("frame must be a uint8 grey or BGR image")
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
    found: dict[int, Image] = {}
    # The cut-out paper around each marker is a second square close to the marker's own
    # outline. With OpenCV's default distance rule the paper can win and the marker is lost;
    # with a relaxed rule a nearby line can win instead. Both passes run; the first wins.
    for min_distance in (None, 0.02):
        params = cv2.aruco.DetectorParameters()
        params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
        params.cornerRefinementWinSize = 5
        params.cornerRefinementMinAccuracy = 0.01
        params.cornerRefinementMaxIterations = 50
        if min_distance is not None:
            params.minMarkerDistanceRate = min_distance
        detector = cv2.aruco.ArucoDetector(_dictionary(), params)
        corners, ids, _rejected = detector.detectMarkers(grey)
        if ids is None:
            continue
        seen: set[int] = set()
        for c, i in zip(corners, ids.ravel(), strict=True):
            mid = int(i)
            if mid not in MARKER_IDS:
                continue
            if mid in seen:
                raise CalibrationError(f"marker {mid} is in view twice; use one of each")
            seen.add(mid)
            found.setdefault(mid, np.asarray(c, np.float64).reshape(4, 2))
        if len(found) == len(MARKER_IDS):
            break
    return found


@dataclass(frozen=True)
class TableCalibration:
    """The result of the table step: vision's region plus what was measured on the way.

    ``px_per_mm`` is the scale of the top-down view (table plane) the homography maps to;
    ``die_size`` is the expected die side in that view, in pixels.
    ``reprojection_px`` is the RMS distance (image pixels) between the measured points and
    where the fitted homography puts them; ``max_reprojection_px`` the worst one.
    """

    region: TableRegion
    source: str
    tray_mm: tuple[float, float] | None
    px_per_mm: float | None
    die_mm: float
    die_size: float | None
    reprojection_px: float | None
    max_reprojection_px: float | None


def _marker_layout(w_mm: float, h_mm: float, s: float) -> dict[int, Image]:
    """Where each marker's four corners lie on the tray, in mm (x right, y down)."""
    sq = np.array([[0, 0], [s, 0], [s, s], [0, s]], np.float64)
    offsets = {0: (0.0, 0.0), 1: (w_mm - s, 0.0), 2: (w_mm - s, h_mm - s), 3: (0.0, h_mm - s)}
    return {i: sq + np.asarray(o, np.float64) for i, o in offsets.items()}


def _dice_polygon(w: float, h: float, s: float, c: float) -> Image:
    """The tray minus the four marker squares (and a clearance), in mm."""
    a = s + c
    return np.array([[a, c], [w - a, c], [w - a, a], [w - c, a], [w - c, h - a], [w - a, h - a],
                     [w - a, h - c], [a, h - c], [a, h - a], [c, h - a], [c, a], [a, a]],
                    np.float64)


def _plane_scale(quad_img: Image, w_mm: float, h_mm: float) -> float:
    """Top-down pixels per mm giving about as many pixels as the tray covers in the image."""
    area = abs(cv2.contourArea(quad_img.astype(np.float32)))
    return round(max(0.5, math.sqrt(area / (w_mm * h_mm))), 3)


def _finish(img_pts: Image, mm_pts: Image, w_mm: float, h_mm: float, poly_mm: Image,
            source: str, die_mm: float, known_size: bool) -> TableCalibration:
    h_mm_to_img, _ = cv2.findHomography(mm_pts, img_pts, 0)
    if h_mm_to_img is None:
        raise CalibrationError("the tray corners do not define a perspective (are they in a line?)")
    proj = cv2.perspectiveTransform(mm_pts.reshape(-1, 1, 2), h_mm_to_img).reshape(-1, 2)
    err = np.linalg.norm(proj - img_pts, axis=1)
    outer = np.array([[0, 0], [w_mm, 0], [w_mm, h_mm], [0, h_mm]], np.float64)
    outer_img = cv2.perspectiveTransform(outer.reshape(-1, 1, 2), h_mm_to_img).reshape(-1, 2)
    scale = _plane_scale(outer_img, w_mm, h_mm)
    s_mat = np.diag([scale, scale, 1.0])
    hm = s_mat @ np.linalg.inv(h_mm_to_img)
    hm = hm / hm[2, 2]
    poly_img = cv2.perspectiveTransform(poly_mm.reshape(-1, 1, 2), h_mm_to_img).reshape(-1, 2)
    region = TableRegion(
        polygon=tuple((round(float(x), 3), round(float(y), 3)) for x, y in poly_img),
        homography=tuple(float(v) for v in hm.ravel()),
        table_size=(math.ceil(w_mm * scale), math.ceil(h_mm * scale)),
    )
    return TableCalibration(
        region=region, source=source,
        tray_mm=(round(w_mm, 2), round(h_mm, 2)) if known_size else None,
        px_per_mm=scale if known_size else None, die_mm=die_mm,
        die_size=round(die_mm * scale, 2) if known_size else None,
        reprojection_px=float(np.sqrt(np.mean(err ** 2))) if len(err) > 4 else None,
        max_reprojection_px=float(err.max()) if len(err) > 4 else None,
    )


def from_markers(frame: Image, marker_mm: float = DEFAULT_MARKER_MM,
                 die_mm: float = DEFAULT_DIE_MM) -> TableCalibration:
    """Calibrate the table from one frame showing the four corner markers."""
    if not marker_mm > 0 or not die_mm > 0:
        raise CalibrationError(f"marker and die sizes must be > 0 mm, got {marker_mm}, {die_mm}")
    found = detect_markers(frame)
    missing = [f"{i} ({CORNER_NAMES[i]})" for i in MARKER_IDS if i not in found]
    if missing:
        raise CalibrationError(
            f"markers not found: {', '.join(missing)}; found {sorted(found) or 'none'}. "
            "Lay all four flat in the tray corners, uncovered, and well lit")
    # The outer corners map onto a unit square by a homography that equals the true one up to
    # a scale per axis; the markers' printed size in that view gives the tray's size in mm.
    outer = np.array([found[i][i] for i in MARKER_IDS], np.float64)
    unit = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float64)
    g = cv2.getPerspectiveTransform(outer.astype(np.float32), unit.astype(np.float32))
    widths, heights = [], []
    for i in MARKER_IDS:
        q = cv2.perspectiveTransform(found[i].reshape(-1, 1, 2), g).reshape(-1, 2)
        widths += [abs(q[1, 0] - q[0, 0]), abs(q[2, 0] - q[3, 0])]
        heights += [abs(q[3, 1] - q[0, 1]), abs(q[2, 1] - q[1, 1])]
    w_mm = marker_mm / float(np.mean(widths))
    h_mm = marker_mm / float(np.mean(heights))
    if not (w_mm > 2.2 * marker_mm and h_mm > 2.2 * marker_mm):
        raise CalibrationError(
            f"the markers overlap or are in the wrong corners (tray measures {w_mm:.0f} x "
            f"{h_mm:.0f} mm with {marker_mm:g} mm markers); check ids 0-3 go clockwise from "
            "top-left")
    layout = _marker_layout(w_mm, h_mm, marker_mm)
    img_pts = np.vstack([found[i] for i in MARKER_IDS])
    mm_pts = np.vstack([layout[i] for i in MARKER_IDS])
    poly = _dice_polygon(w_mm, h_mm, marker_mm, MARKER_CLEARANCE_MM)
    return _finish(img_pts, mm_pts, w_mm, h_mm, poly, "markers", die_mm, True)


def order_corners(points: Sequence[Point]) -> Image:
    """Four points in the order top-left, top-right, bottom-right, bottom-left."""
    p = np.asarray(points, np.float64)
    if p.shape != (4, 2) or not np.all(np.isfinite(p)):
        raise CalibrationError(f"need exactly four (x, y) corners, got {list(points)!r}")
    c = p.mean(axis=0)
    ang = np.arctan2(p[:, 1] - c[1], p[:, 0] - c[0])
    p = p[np.argsort(ang)]  # clockwise on screen (y down), starting somewhere
    start = int(np.argmin(p.sum(axis=1)))
    out: Image = np.roll(p, -start, axis=0)
    return out


def from_corners(corners: Sequence[Point], tray_mm: tuple[float, float] | None = None,
                 die_mm: float = DEFAULT_DIE_MM) -> TableCalibration:
    """Calibrate from four tapped tray corners (any order) and, if known, the tray's size.

    Without ``tray_mm`` the top-down view keeps the tray's apparent proportions and no
    millimetre scale (so no expected die size) is known.
    """
    quad = order_corners(corners)
    if abs(cv2.contourArea(quad.astype(np.float32))) < 100:
        raise CalibrationError("the four corners enclose almost no area; tap the tray's corners")
    known = tray_mm is not None
    if tray_mm is not None:
        w_mm, h_mm = float(tray_mm[0]), float(tray_mm[1])
        if not (w_mm > 0 and h_mm > 0):
            raise CalibrationError(f"tray size must be > 0 mm, got {tray_mm!r}")
    else:
        w_mm = float(np.linalg.norm(quad[1] - quad[0]) + np.linalg.norm(quad[2] - quad[3])) / 2
        h_mm = float(np.linalg.norm(quad[3] - quad[0]) + np.linalg.norm(quad[2] - quad[1])) / 2
    mm = np.array([[0, 0], [w_mm, 0], [w_mm, h_mm], [0, h_mm]], np.float64)
    return _finish(quad, mm, w_mm, h_mm, mm.copy(), "corners", die_mm, known)


def ground_error(cal: TableCalibration, true_mm_to_img: Image, true_tray_mm: tuple[float, float],
                 steps: int = 7) -> float:
    """Largest image-pixel distance between where the calibration and the truth put the tray.

    A grid over the tray, as fractions of its width and height, is put into the image once
    through the calibration (scaled by its measured tray size) and once through
    ``true_mm_to_img`` (tray millimetres to image pixels, known for synthetic scenes). This is
    the error of the top-down view's geometry; a small error in the measured size (the mm
    scale) does not count here and is reported by ``tray_mm``.
    """
    hm = cal.region.matrix()
    if hm is None or cal.px_per_mm is None or cal.tray_mm is None:
        raise CalibrationError("this calibration has no millimetre homography to compare")
    u, v = np.meshgrid(np.linspace(0, 1, steps), np.linspace(0, 1, steps))
    uv = np.stack([u.ravel(), v.ravel()], axis=1)
    mine_mm = uv * np.asarray(cal.tray_mm, np.float64)
    true_mm = uv * np.asarray(true_tray_mm, np.float64)
    top = mine_mm.reshape(-1, 1, 2) * cal.px_per_mm
    mine = cv2.perspectiveTransform(top, np.linalg.inv(hm)).reshape(-1, 2)
    truth = cv2.perspectiveTransform(true_mm.reshape(-1, 1, 2), true_mm_to_img).reshape(-1, 2)
    return float(np.linalg.norm(mine - truth, axis=1).max())
