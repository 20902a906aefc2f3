"""Replay a folder of images or a video as if a camera were filming it (demos, tests, bugs)."""

from __future__ import annotations

import math
import time
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from hardware.camera.base import Clock, DeviceLost, FrameSource, Sleep
from hardware.errors import EndOfStream

IMAGE_SUFFIXES = frozenset({".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp"})


class ReplaySource(FrameSource):
    """Frames from ``path`` (a folder of images, sorted by name, or a video file).

    ``realtime=True`` paces reads at ``fps`` (images: the given fps, default 10; video: its own
    rate unless given) and, like a live camera, skips frames when the reader falls behind, so a
    demo runs at table speed. ``realtime=False`` returns every frame at once and stamps them on
    a virtual clock (``t0 + index / fps``), which makes tests fast and exact. ``loop=True``
    starts over at the end; otherwise the end raises EndOfStream. A folder that disappears
    mid-replay behaves like an unplugged camera.

    ``hold`` (seconds, folders only): each image is a still table held that long, read again
    and again at ``fps`` (a photo of a settled throw, shown as a camera would film dice lying
    still), instead of one frame per image. :attr:`photo` is then the number of the image of
    the last frame (from 0, counting on across loops), so a reader can tell a new throw from
    the same one filmed again. None or 0: one frame per image (a film).

    ``step`` (folders only): each image is a still table held until :meth:`next_photo` is
    called, however long that takes (a table of photos that waits for the game: the next
    throw comes when it is asked for); ``hold`` is then not used. :attr:`photo` says which.
    """

    def __init__(
        self,
        path: str | Path,
        *,
        fps: float | None = None,
        loop: bool = False,
        realtime: bool = True,
        hold: float | None = None,
        step: bool = False,
        reconnect_interval: float = 1.0,
        clock: Clock = time.monotonic,
        sleep: Sleep = time.sleep,
    ) -> None:
        super().__init__(reconnect_interval=reconnect_interval, clock=clock, sleep=sleep)
        self.path = Path(path)
        self.name = f"replay:{self.path}"
        if fps is not None and fps <= 0:
            raise ValueError(f"replay fps must be > 0, got {fps}")
        if hold is not None and not (math.isfinite(hold) and hold >= 0):
            raise ValueError(f"replay hold must be a number of seconds >= 0, got {hold!r}")
        self._fps_arg = fps
        self.fps: float = fps or 10.0
        self.hold = float(hold) if hold else None
        self.step = bool(step)
        self.photo = -1  # the image of the last frame (holding photos), -1 before the first
        self._stepped = 0  # stepping: the image shown now (next_photo moves on)
        self._decoded: tuple[int, np.ndarray] | None = None  # the image held, decoded once
        self.loop = loop
        self.realtime = realtime
        self._files: list[Path] = []
        self._cap: Any = None
        self._video_pos = 0  # next frame the open VideoCapture will return
        self._pos = -1  # stream position of the last delivered frame (counts across loops)
        self._t0: float | None = None

    @property
    def frame_count(self) -> int | None:
        """Frames in one pass (None for a video whose length OpenCV does not report)."""
        if self._files:
            return len(self._files)
        if self._cap is not None:
            n = int(self._cap.get(cv2.CAP_PROP_FRAME_COUNT))
            return n if n > 0 else None
        return None

    def _connect(self) -> None:
        if self.path.is_dir():
            files = sorted(p for p in self.path.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
            if not files:
                kinds = ", ".join(sorted(IMAGE_SUFFIXES))
                raise DeviceLost(f"replay folder {self.path} holds no images ({kinds})")
            self._files = files
        elif self.path.is_file():
            cap = cv2.VideoCapture(str(self.path))
            if not cap.isOpened():
                cap.release()
                raise DeviceLost(f"replay file {self.path} is not a video OpenCV can open")
            self._cap = cap
            self._video_pos = 0
            if self._fps_arg is None:
                rate = float(cap.get(cv2.CAP_PROP_FPS) or 0.0)
                self.fps = rate if 0 < rate < 1000 else 10.0
        else:
            raise DeviceLost(f"replay path {self.path} does not exist")
        if self._t0 is None:
            self._t0 = self._clock()

    def _next_position(self) -> tuple[int, float]:
        """Which stream position to show next, and its timestamp."""
        assert self._t0 is not None
        if not self.realtime:
            pos = self._pos + 1
            return pos, self._t0 + pos / self.fps
        pos = self._pos + 1
        due = self._t0 + pos / self.fps
        now = self._clock()
        if now < due:
            self._sleep(due - now)
            return pos, due
        # Behind schedule: jump to the frame a live camera would be showing now.
        pos = max(pos, math.floor((now - self._t0) * self.fps))
        return pos, now

    def _grab(self) -> tuple[np.ndarray, float | None]:
        pos, t = self._next_position()
        image = self._image_at(pos) if self._files else self._video_at(pos)
        self._pos = pos
        return image, t

    @property
    def frames_per_photo(self) -> int:
        """How many frames show each image: 1, or ``hold`` seconds of frames at ``fps``."""
        return 1 if self.hold is None else max(1, round(self.hold * self.fps))

    def next_photo(self) -> None:
        """Stepping (``step=True``): the next image from the next frame on (past the last:
        the end of the replay, or the first again when looping). Call it from the thread that
        reads the frames."""
        self._stepped += 1

    def _image_at(self, pos: int) -> np.ndarray:
        n = len(self._files)
        pos = self._stepped if self.step else pos // self.frames_per_photo
        if pos >= n and not self.loop:
            raise EndOfStream(f"camera {self.name}: end of replay after {n} images")
        self.photo = pos
        if self._decoded is not None and self._decoded[0] == pos:  # held: decoded once
            return self._decoded[1].copy()
        path = self._files[pos % n]
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if image is None:
            raise DeviceLost(f"replay image {path} is missing or unreadable")
        if self.step or self.hold is not None:
            self._decoded = (pos, image)
            return image.copy()
        return image

    def _video_at(self, pos: int) -> np.ndarray:
        cap = self._cap
        count = self.frame_count
        target = pos % count if (self.loop and count) else pos
        if target < self._video_pos:  # looped: rewind
            cap.set(cv2.CAP_PROP_POS_FRAMES, 0)
            self._video_pos = 0
        while self._video_pos < target:  # skip frames we are too late for
            if not cap.grab():
                break
            self._video_pos += 1
        ok, image = cap.read()
        if not ok or image is None:
            if self.loop and self._video_pos > 0:
                cap.set(cv2.CAP_PROP_POS_FRAMES, 0)
                self._video_pos = 0
                ok, image = cap.read()
            if not ok or image is None:
                raise EndOfStream(f"camera {self.name}: end of video")
        self._video_pos += 1
        return np.ascontiguousarray(image)

    def _disconnect(self) -> None:
        cap, self._cap = self._cap, None
        if cap is not None:
            cap.release()
        self._files = []
        self._decoded = None
