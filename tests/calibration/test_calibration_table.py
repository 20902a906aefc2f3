"""Table region: markers through a known perspective, tapped corners, the marker sheet."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import cv2
import numpy as np
import pytest
from calib_synth import MARKER_MM, TRAY_MM, mm_to_plane, perspective, tray_frame

from calibration.images import CalibrationError
from calibration.table import (
    detect_markers,
    from_corners,
    from_markers,
    ground_error,
    marker_sheet,
    order_corners,
    write_marker_sheet,
)
from vision.profile import Profile
from vision.read import read_dice
from vision.synthetic import random_scene


def _tray(seed: int, amount: float = 0.15, markers: bool = True):
    rng = np.random.default_rng(seed)
    sc = random_scene(rng, width=640, height=480, n_dice=(0, 4), clutter=0, noise=2.0)
    hom = perspective(rng, 640, 480, amount)
    return sc, hom, tray_frame(sc, hom, rng, markers=markers)


@pytest.mark.parametrize("seed", range(6))
def test_markers_homography_reprojects_under_a_pixel(seed: int) -> None:
    _sc, hom, img = _tray(seed)
    cal = from_markers(img, MARKER_MM)
    assert cal.reprojection_px is not None and cal.max_reprojection_px is not None
    assert cal.reprojection_px < 1.0
    assert cal.max_reprojection_px < 1.0
    # against the known perspective, over the whole tray
    assert ground_error(cal, hom @ mm_to_plane(), TRAY_MM) < 1.0
    assert cal.tray_mm is not None and cal.px_per_mm is not None
    assert cal.tray_mm[0] == pytest.approx(TRAY_MM[0], rel=0.01)
    assert cal.tray_mm[1] == pytest.approx(TRAY_MM[1], rel=0.01)
    assert cal.die_size == pytest.approx(16.0 * cal.px_per_mm, rel=0.01)
    w, h = cal.region.table_size or (0, 0)
    assert w / h == pytest.approx(TRAY_MM[0] / TRAY_MM[1], rel=0.02)


def test_missing_marker_is_named() -> None:
    _sc, _hom, img = _tray(1)
    # cover marker 2 (bottom right) with a hand-coloured patch
    found = detect_markers(img)
    x0, y0 = found[2].min(axis=0).astype(int) - 10
    x1, y1 = found[2].max(axis=0).astype(int) + 10
    img[y0:y1, x0:x1] = (120, 150, 200)
    with pytest.raises(CalibrationError, match=r"markers not found: 2 \(bottom-right\)"):
        from_markers(img)


def test_no_markers_at_all() -> None:
    _sc, _hom, img = _tray(2, markers=False)
    with pytest.raises(CalibrationError, match="found none"):
        from_markers(img)


def test_tapped_corners_give_the_true_homography() -> None:
    _sc, hom, _img = _tray(3)
    truth = hom @ mm_to_plane()
    outer = np.array([[0, 0], [TRAY_MM[0], 0], [TRAY_MM[0], TRAY_MM[1]], [0, TRAY_MM[1]]])
    taps = cv2.perspectiveTransform(outer.reshape(-1, 1, 2), truth).reshape(-1, 2)
    shuffled = [tuple(map(float, taps[i])) for i in (2, 0, 3, 1)]
    cal = from_corners(shuffled, TRAY_MM)
    assert ground_error(cal, truth, TRAY_MM) < 0.01
    assert cal.tray_mm == TRAY_MM
    # without the size: proportions kept, no mm scale
    loose = from_corners(shuffled)
    assert loose.px_per_mm is None and loose.die_size is None
    assert loose.region.homography is not None


def test_corner_order_and_bad_corners() -> None:
    got = order_corners([(10, 90), (100, 10), (10, 10), (100, 90)])
    assert got.tolist() == [[10, 10], [100, 10], [100, 90], [10, 90]]
    with pytest.raises(CalibrationError, match="four"):
        order_corners([(0, 0), (1, 1), (2, 2)])
    with pytest.raises(CalibrationError, match="almost no area"):
        from_corners([(0, 0), (1, 0), (2, 0), (3, 0)])


def test_table_profile_reads_dice_in_perspective() -> None:
    rng = np.random.default_rng(11)
    sc = random_scene(rng, width=640, height=480, n_dice=(4, 4), clutter=0, touching=0.0,
                      die_size=(34.0, 36.0))
    # keep the dice away from the markers
    dice = tuple(dataclasses.replace(d, center=(150.0 + 110 * i, 240.0 + 20 * (i % 2)))
                 for i, d in enumerate(sc.dice))
    sc = dataclasses.replace(sc, dice=dice)
    hom = perspective(rng, 640, 480, 0.12)
    img = tray_frame(sc, hom, rng)
    cal = from_markers(img, MARKER_MM)
    reading = read_dice(img, Profile(table=cal.region, die_size=cal.die_size))
    truth = [d.value for d in sc.dice]
    assert sorted(d.value or 0 for d in reading.dice) == sorted(truth)


def test_marker_sheet_is_a4_and_detectable(tmp_path: Path) -> None:
    page = marker_sheet(40.0, 300)
    assert page.shape[:2] == (3508, 2480)
    assert sorted(detect_markers(page)) == [0, 1, 2, 3]
    png = write_marker_sheet(tmp_path / "m.png")
    assert cv2.imread(str(png)) is not None
    pdf = write_marker_sheet(tmp_path / "m.pdf", dpi=150)
    assert pdf.read_bytes().startswith(b"%PDF-1.4") and pdf.read_bytes().rstrip().endswith(
        b"%%EOF")
    with pytest.raises(CalibrationError, match=r"\.png or \.pdf"):
        write_marker_sheet(tmp_path / "m.gif")
    with pytest.raises(CalibrationError, match=r"15\.\.80 mm"):
        marker_sheet(120.0)
