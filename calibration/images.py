"""Loading calibration images from files and folders, and finding dice crops in them.

Every step of calibration works headless from image files, so the app's screens only have to
capture frames and pass them on. Crops are taken the way :func:`vision.read.read_dice` takes
them (top-down through the profile's table homography when there is one), so what is learned
here is what vision later sees.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from vision.profile import TableRegion
from vision.read import check_frame, find_candidates

Image = npt.NDArray[Any]

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp")


class CalibrationError(ValueError):
    """Bad calibration input: the message names the file or value and what was wrong."""


def read_image(path: Path) -> Image:
    """A BGR image from a file; CalibrationError naming the file when it cannot be read."""
    if path.is_dir():
        raise CalibrationError(f"image {str(path)!r} is a folder; give one image file")
    if not path.is_file():
        raise CalibrationError(f"image {str(path)!r} does not exist")
    data = np.fromfile(str(path), dtype=np.uint8)
    img = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    if img is None:
        raise CalibrationError(f"image {str(path)!r} is not a readable image file")
    return img


def image_files(folder: Path) -> list[Path]:
    """The image files directly inside ``folder``, sorted by name."""
    if folder.is_file():
        raise CalibrationError(f"folder {str(folder)!r} is a file; give the folder that holds "
                               "the images")
    if not folder.is_dir():
        raise CalibrationError(f"folder {str(folder)!r} does not exist")
    return sorted(p for p in folder.iterdir()
                  if p.is_file() and p.suffix.lower() in IMAGE_SUFFIXES)


def labelled_folders(root: Path) -> dict[str, list[Path]]:
    """``{subfolder name: [image files]}`` for a folder holding one subfolder per label."""
    if root.is_file():
        raise CalibrationError(f"folder {str(root)!r} is a file; give the folder that holds "
                               "the images")
    if not root.is_dir():
        raise CalibrationError(f"folder {str(root)!r} does not exist")
    out: dict[str, list[Path]] = {}
    for sub in sorted(p for p in root.iterdir() if p.is_dir()):
        files = image_files(sub)
        if files:
            out[sub.name] = files
    if not out:
        raise CalibrationError(
            f"folder {str(root)!r} holds no subfolders with images (expected one subfolder per "
            "label, e.g. red/, blue/)")
    return out


@dataclass(frozen=True)
class DieCrop:
    """One die found in a calibration image: its upright crop and centre (image pixels)."""

    crop: Image
    center: tuple[float, float]


def work_view(frame: Image, table: TableRegion | None) -> tuple[Image, Image | None,
                                                                 Image | None]:
    """(working image, mask, inverse homography) as vision reads it with this table region."""
    img, warning = check_frame(frame)
    if img is None:
        raise CalibrationError(f"the image is blank: {warning}")
    if table is None:
        return img, None, None
    hm = table.matrix()
    if hm is None or table.table_size is None:
        return img, table.mask((img.shape[0], img.shape[1])), None
    work = cv2.warpPerspective(img, hm, table.table_size, flags=cv2.INTER_LINEAR)
    poly = cv2.perspectiveTransform(np.array(table.polygon, np.float64).reshape(-1, 1, 2),
                                    hm).reshape(-1, 2)
    mask = np.zeros(work.shape[:2], np.uint8)
    cv2.fillPoly(mask, [np.round(poly).astype(np.int32)], 255)
    return work, mask, np.linalg.inv(hm)


def die_crops(frame: Image, table: TableRegion | None = None,
              die_size: float | None = None) -> list[DieCrop]:
    """Every die-sized blob of a frame as an upright crop, with its centre in image pixels."""
    work, mask, inv = work_view(frame, table)
    cands, _side, _hand = find_candidates(work, mask, die_size)
    out = []
    for c in cands:
        centre: Image = np.array([[c.rect[0]]], np.float64)
        if inv is not None:
            centre = cv2.perspectiveTransform(centre, inv)
        out.append(DieCrop(c.crop, (float(centre[0, 0, 0]), float(centre[0, 0, 1]))))
    return out


def nearest(points: Sequence[tuple[float, float]], p: tuple[float, float],
            max_dist: float) -> int | None:
    """Index of the point nearest ``p`` within ``max_dist``, or None."""
    if not points:
        return None
    d = np.hypot(*(np.asarray(points, np.float64) - np.asarray(p, np.float64)).T)
    i = int(np.argmin(d))
    return i if d[i] <= max_dist else None
