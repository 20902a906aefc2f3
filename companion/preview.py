"""Frame providers for the live dice view: a callable returning an RGB picture, or None.

The camera sources and vision's overlay live in hardware/ and vision/; until they are wired
in, ``synthetic`` gives a drawn picture of a dice tray (dice that change now and then), so the
view, its worker thread and its hand-over to the UI thread run for real. ``none`` gives no
provider, and the screen says "no camera".
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import numpy as np

FrameProvider = Callable[[], Any]

_PIPS = {1: [(1, 1)], 2: [(0, 0), (2, 2)], 3: [(0, 0), (1, 1), (2, 2)],
         4: [(0, 0), (0, 2), (2, 0), (2, 2)], 5: [(0, 0), (0, 2), (1, 1), (2, 0), (2, 2)],
         6: [(0, 0), (0, 2), (1, 0), (1, 2), (2, 0), (2, 2)]}


class SyntheticTray:
    """A drawn dice tray: felt, five dice with pips and a green box around each (the overlay)."""

    label = "drawn test tray"

    def __init__(self, width: int = 640, height: int = 400, seed: int = 1) -> None:
        self.width, self.height = width, height
        self.rng = random.Random(seed)
        self.frames = 0
        self.faces = [self.rng.randint(1, 6) for _ in range(5)]

    def __call__(self) -> np.ndarray:
        self.frames += 1
        if self.frames % 30 == 0:
            self.faces = [self.rng.randint(1, 6) for _ in range(5)]
        img = np.zeros((self.height, self.width, 3), np.uint8)
        img[:] = (24, 70, 40)
        size = 70
        for i, face in enumerate(self.faces):
            x = 40 + i * 115
            y = 120 + (i % 2) * 90
            img[y:y + size, x:x + size] = (235, 235, 228)
            for r, c in _PIPS[face]:
                cy, cx = y + 14 + r * 21, x + 14 + c * 21
                img[cy - 5:cy + 6, cx - 5:cx + 6] = (20, 20, 20)
            for t in range(3):  # the overlay: a box around each die read
                img[y - 6 - t, x - 6:x + size + 6] = (80, 220, 90)
                img[y + size + 5 + t, x - 6:x + size + 6] = (80, 220, 90)
                img[y - 6:y + size + 6, x - 6 - t] = (80, 220, 90)
                img[y - 6:y + size + 6, x + size + 5 + t] = (80, 220, 90)
        return img


class CameraFrames:
    """Frames from a :mod:`hardware.camera` source, opened on first use (in the view's worker
    thread, as opening a camera can take a second), converted from BGR to RGB."""

    def __init__(self, spec: str) -> None:
        self.spec = spec
        self.source: Any = None

    def __call__(self) -> np.ndarray:
        if self.source is None:
            from hardware.camera import open_source

            self.source = open_source(self.spec, fallback=False)
        image = self.source.read().image
        if image.ndim == 2:
            return np.repeat(image[:, :, None], 3, axis=2)
        return np.ascontiguousarray(image[:, :, 2::-1])

    def close(self) -> None:
        if self.source is not None:
            self.source.close()
            self.source = None


def frame_provider_for(camera: str) -> FrameProvider | None:
    """The provider for a camera setting; None when no camera is configured.

    ``synthetic`` uses the hardware layer's synthetic dice when it can open (it needs vision's
    renderer), else the drawn tray above.
    """
    if camera in ("", "none"):
        return None
    if camera == "synthetic":
        return SyntheticFrames()
    return CameraFrames(camera)


class SyntheticFrames:
    """The hardware layer's synthetic camera, or the drawn tray when it cannot open; chosen
    on the first frame, in the view's worker thread."""

    def __init__(self) -> None:
        self.inner: FrameProvider | None = None

    @property
    def label(self) -> str:
        return str(getattr(self.inner, "label", "synthetic camera"))

    def __call__(self) -> np.ndarray:
        if self.inner is None:
            camera = CameraFrames("synthetic")
            try:
                first = camera()
            except Exception:
                self.inner = SyntheticTray()
            else:
                self.inner = camera
                return first
        return self.inner()

    def close(self) -> None:
        close = getattr(self.inner, "close", None)
        if close is not None:
            close()
