"""Drawing a reading over a frame, for the live view and for debugging. Never reads dice."""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from vision.types import Reading

_SURE = (60, 200, 60)
_UNSURE = (0, 165, 255)


def annotate(frame: npt.NDArray[Any], reading: Reading) -> npt.NDArray[np.uint8]:
    """A copy of ``frame`` with each die's outline and face drawn; the input is not changed.

    Certain dice are outlined green, uncertain ones orange with a "?"; warnings go top-left.
    Raised when ``frame`` is not a uint8 grey/BGR image: ``ValueError``.
    """
    if not isinstance(frame, np.ndarray) or frame.dtype != np.uint8 or frame.ndim not in (2, 3):
        raise ValueError("annotate needs a uint8 grey or BGR frame")
    out: npt.NDArray[Any] = (cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR) if frame.ndim == 2
                             else frame.copy())
    scale = max(0.4, min(out.shape[:2]) / 900)
    for d in reading.dice:
        colour = _SURE if d.face is not None else _UNSURE
        pts = np.round(np.array(d.corners)).astype(np.int32)
        cv2.polylines(out, [pts], True, colour, 2, cv2.LINE_AA)
        text = d.face if d.face is not None else "?"
        x = int(d.center[0] - d.size / 2)
        y = int(d.center[1] - d.size / 2 - 4)
        cv2.putText(out, text, (x, max(12, y)), cv2.FONT_HERSHEY_SIMPLEX, scale, (0, 0, 0), 3,
                    cv2.LINE_AA)
        cv2.putText(out, text, (x, max(12, y)), cv2.FONT_HERSHEY_SIMPLEX, scale, colour, 1,
                    cv2.LINE_AA)
    for i, w in enumerate(reading.warnings):
        cv2.putText(out, w.text[:80], (8, int(20 + i * 22 * scale)), cv2.FONT_HERSHEY_SIMPLEX,
                    scale * 0.8, (0, 0, 255), 1, cv2.LINE_AA)
    return np.asarray(out, dtype=np.uint8)
