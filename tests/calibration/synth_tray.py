"""Synthetic trays for the calibration tests: vision's renderer plus printed ArUco markers.

The renderer has no markers, so the scene is rendered flat (table plane), the markers are
pasted onto it as paper squares, and the result is warped through a known perspective exactly
as vision.synthetic does it.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from calibration.table import MARKER_IDS, marker_image
from vision.synthetic import Scene, render

Image = npt.NDArray[Any]

PX_PER_MM = 2.0  # table-plane scale of the synthetic tray
ORIGIN = (20.0, 20.0)  # tray's top-left corner in the table plane (px)
TRAY_MM = (300.0, 220.0)
MARKER_MM = 40.0


def mm_to_plane() -> Image:
    # pixel centres are integers, so a square pasted at index x0 starts at x0 - 0.5
    return np.array([[PX_PER_MM, 0, ORIGIN[0] - 0.5], [0, PX_PER_MM, ORIGIN[1] - 0.5], [0, 0, 1]],
                    np.float64)


def perspective(rng: np.random.Generator, w: int, h: int, amount: float) -> Image:
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    jit = np.array([[rng.uniform(0, amount) * w, rng.uniform(0, amount / 2) * h],
                    [-rng.uniform(0, amount) * w, rng.uniform(0, amount / 2) * h],
                    [-rng.uniform(0, amount / 3) * w, -rng.uniform(0, amount / 4) * h],
                    [rng.uniform(0, amount / 3) * w, -rng.uniform(0, amount / 4) * h]],
                   np.float32)
    out: Image = cv2.getPerspectiveTransform(src, src + jit).astype(np.float64)
    return out


def paste_markers(plane: Image, marker_mm: float = MARKER_MM) -> None:
    """Draw the four markers (with a white paper margin) into the tray corners, in place."""
    w_mm, h_mm = TRAY_MM
    side = round(marker_mm * PX_PER_MM)
    spots = {0: (0.0, 0.0), 1: (w_mm - marker_mm, 0.0), 2: (w_mm - marker_mm, h_mm - marker_mm),
             3: (0.0, h_mm - marker_mm)}
    for i in MARKER_IDS:
        x_mm, y_mm = spots[i]
        x0 = round(ORIGIN[0] + x_mm * PX_PER_MM)
        y0 = round(ORIGIN[1] + y_mm * PX_PER_MM)
        pad = round(6 * PX_PER_MM)  # the 6 mm paper margin the sheet asks to keep
        cv2.rectangle(plane, (x0 - pad, y0 - pad), (x0 + side + pad, y0 + side + pad),
                      (245, 245, 245), -1)
        plane[y0:y0 + side, x0:x0 + side] = cv2.cvtColor(marker_image(i, side),
                                                         cv2.COLOR_GRAY2BGR)


def tray_frame(scene: Scene, hom: Image, rng: np.random.Generator | None = None,
               markers: bool = True) -> Image:
    """Render ``scene`` flat, add markers, warp through ``hom`` (plane -> image)."""
    flat = render(dataclasses.replace(scene, homography=None, noise=0.0))
    if markers:
        paste_markers(flat)
    img: Image = cv2.warpPerspective(flat, hom, (scene.width, scene.height),
                                     flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    if rng is not None and scene.noise > 0:
        noise = rng.standard_normal(img.shape[:2]).astype(np.float32) * np.float32(scene.noise)
        img = cv2.add(img, cv2.merge([noise, noise, noise]), dtype=cv2.CV_8U)
    return img
