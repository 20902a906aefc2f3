"""Synthetic data for the calibration tests: trays with printed ArUco markers, sample dice.

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


# --------------------------------------------------------------------------- dice samples


def colour_samples(rng: np.random.Generator, colours: tuple[str, ...], per_colour: int,
                   ) -> dict[str, list[Any]]:
    """``{colour: [DieCrop]}``: ``per_colour`` dice of each colour, found in rendered trays."""
    from calibration.images import die_crops
    from vision.synthetic import random_scene

    out: dict[str, list[Any]] = {}
    for c in colours:
        crops: list[Any] = []
        while len(crops) < per_colour:
            sc = random_scene(rng, n_dice=(per_colour, per_colour), colours=[c], touching=0.0,
                              clutter=0)
            crops += die_crops(render(sc, rng))
        out[c] = crops[:per_colour]
    return out


def face_samples(rng: np.random.Generator, labels: tuple[str, ...], per_face: int,
                 icon_set: str) -> dict[str, list[Image]]:
    """``{face: [crop]}``: ``per_face`` crops of each face, found in rendered trays."""
    from calibration.images import die_crops, nearest
    from vision.synthetic import random_scene

    out: dict[str, list[Image]] = {f: [] for f in labels}
    k = 0
    while min(len(v) for v in out.values()) < per_face:
        sc = random_scene(rng, n_dice=(6, 6), icon_set=icon_set, touching=0.0, clutter=0)
        dice = tuple(dataclasses.replace(d, face=labels[(k + i) % len(labels)])
                     for i, d in enumerate(sc.dice))
        k += len(dice)
        sc = dataclasses.replace(sc, dice=dice)
        found = die_crops(render(sc, rng))
        centres = [d.center for d in found]
        for t in sc.truth():
            j = nearest(centres, t.center, t.size / 3)
            if j is not None and t.face is not None and len(out[t.face]) < per_face:
                out[t.face].append(found[j].crop)
    return out


def relit(img: Image, factor: float) -> Image:
    """The same picture under ``factor`` times the light (8-bit camera clipping)."""
    out: Image = cv2.convertScaleAbs(img, alpha=factor)
    return out
