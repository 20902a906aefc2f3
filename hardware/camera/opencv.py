"""USB webcams and video files through OpenCV's VideoCapture."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from hardware.camera.base import Clock, DeviceLost, FrameSource, Sleep
from hardware.errors import EndOfStream

CaptureFactory = Callable[[int | str], Any]


def _video_capture(device: int | str) -> Any:
    return cv2.VideoCapture(device)


class OpenCVSource(FrameSource):
    """A webcam (``device=0``) or a video file (``device="clip.mp4"``) read with cv2.VideoCapture.

    Webcams are asked for ``width`` x ``height`` at ``fps`` and a one-frame buffer, so reads return
    a fresh image rather than one queued seconds ago. A webcam that stops giving frames is treated
    as unplugged and reopened on later reads; a video file that ends raises EndOfStream (or starts
    over with ``loop=True``). ``capture_factory`` replaces cv2.VideoCapture in tests.
    """

    def __init__(
        self,
        device: int | str = 0,
        *,
        width: int | None = None,
        height: int | None = None,
        fps: float | None = None,
        loop: bool = False,
        capture_factory: CaptureFactory | None = None,
        reconnect_interval: float = 1.0,
        clock: Clock = time.monotonic,
        sleep: Sleep = time.sleep,
    ) -> None:
        super().__init__(reconnect_interval=reconnect_interval, clock=clock, sleep=sleep)
        self.device = device
        self.is_file = isinstance(device, str)
        self.name = f"opencv:{device}"
        self.width = width
        self.height = height
        self.fps = fps
        self.loop = loop
        self._factory: CaptureFactory = capture_factory or _video_capture
        self._cap: Any = None

    def _connect(self) -> None:
        if self.is_file and not Path(str(self.device)).is_file():
            raise DeviceLost(f"video file {self.device} does not exist")
        cap = self._factory(self.device)
        self._cap = cap
        if not cap.isOpened():
            what = "video file" if self.is_file else f"webcam index {self.device}"
            raise DeviceLost(f"OpenCV could not open {what}")
        if not self.is_file:
            cap.set(cv2.CAP_PROP_BUFFERSIZE, 1)
            if self.width:
                cap.set(cv2.CAP_PROP_FRAME_WIDTH, self.width)
            if self.height:
                cap.set(cv2.CAP_PROP_FRAME_HEIGHT, self.height)
            if self.fps:
                cap.set(cv2.CAP_PROP_FPS, self.fps)

    def _grab(self) -> tuple[np.ndarray, float | None]:
        ok, image = self._cap.read()
        if not ok or image is None:
            if self.is_file:
                if self.loop and self._cap.set(cv2.CAP_PROP_POS_FRAMES, 0):
                    ok, image = self._cap.read()
                if not ok or image is None:
                    raise EndOfStream(f"camera {self.name}: end of video")
            else:
                raise DeviceLost(f"webcam index {self.device} returned no frame")
        return np.ascontiguousarray(image), None

    def _disconnect(self) -> None:
        cap, self._cap = self._cap, None
        if cap is not None:
            cap.release()
