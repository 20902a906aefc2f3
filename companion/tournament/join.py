"""Join codes as pictures: a QR code for the director's screen, and reading one from a table's
camera (OpenCV's QR detector), so a table joins by holding the code under its camera."""

from __future__ import annotations

import io
from typing import Any

from companion.tournament.protocol import JoinCode, ProtocolError


def qr_png(code: JoinCode, scale: int = 8) -> bytes:
    """The join code as a QR code, PNG bytes (for the director's screen or a printed sheet)."""
    import segno

    out = io.BytesIO()
    segno.make(code.text(), error="m").save(out, kind="png", scale=scale, border=4)
    return out.getvalue()


def scan_join_code(image: Any) -> JoinCode | None:
    """The join code in a camera frame (a BGR or grey numpy image), or None when there is no
    readable code in it. A QR code that is not a join code is None too."""
    import cv2

    text, _, _ = cv2.QRCodeDetector().detectAndDecode(image)
    if not text:
        return None
    try:
        return JoinCode.parse(text)
    except ProtocolError:
        return None


def qr_rgb(text: str, scale: int = 6) -> Any:
    """``text`` as a QR code picture: an RGB numpy array (H, W, 3, uint8), black modules on
    white with the quiet zone, each module ``scale`` pixels (for a texture on the screen)."""
    import numpy as np
    import segno

    rows = list(segno.make(text, error="m").matrix_iter(scale=scale, border=4))
    dark = np.array([[bool(v) for v in row] for row in rows], dtype=bool)
    grey = np.where(dark, 0, 255).astype(np.uint8)
    return np.ascontiguousarray(np.repeat(grey[:, :, None], 3, axis=2))
