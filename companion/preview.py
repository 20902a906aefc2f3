"""The camera feed: one worker thread from camera frames to vision readings and settled rolls.

It opens the chosen :mod:`hardware.camera` source (falling back to the synthetic dice with a
warning, as the hardware layer does), reads every frame with :func:`vision.read_dice`, feeds the
readings to a :class:`vision.RollTracker`, and keeps the newest picture with vision's overlay
(:func:`vision.annotate`) for the live dice view. Settled rolls go to ``on_roll``, called on the
worker thread: the app hands them to the UI thread through ``Clock.schedule_once``.

The thread runs only while something wants it (the dice view on screen, or a game screen that
reads dice), so an idle companion does not spend the Pi's CPU on vision.
"""

from __future__ import annotations

import threading
import time
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from companion.theme import PALETTES

RollListener = Callable[[Any], None]
TRIM_EVERY = 16  # frames between handing freed memory back to the system
#: Zone outlines in the seats' colours (BGR, as vision draws).
ZONE_COLOURS = tuple((round(b * 255), round(g * 255), round(r * 255))
                     for r, g, b, _ in PALETTES["okabe-ito"])


@dataclass(frozen=True)
class Snapshot:
    """The newest frame: its number, the picture with the overlay (RGB) and the reading."""

    index: int
    rgb: np.ndarray
    reading: Any
    moving: bool


class CameraFeed:
    """Frames -> readings -> settled rolls, on a worker thread, while wanted.

    ``spec`` is a camera setting (``synthetic``, ``picamera2``, ``opencv:0``, ``replay:PATH``,
    ``auto``); ``profile`` a vision Profile or None; ``fps`` caps how often frames are read.
    ``open_source`` is injectable for tests (default :func:`hardware.camera.open_source`).
    """

    def __init__(self, spec: str, *, profile: Any = None, fps: float = 8.0,
                 settle_s: float = 0.3, open_source: Callable[[str], Any] | None = None) -> None:
        self.spec = spec
        self.profile = profile
        self.period = 1.0 / fps
        self.settle_s = settle_s
        self.on_roll: RollListener | None = None
        self.zones: Sequence[Any] = ()  # calibration.zones.Zone: outlined on the picture
        self.label = spec
        self.error: str | None = None
        self.frames = 0
        self._open = open_source
        self._source: Any = None
        self._latest: Snapshot | None = None
        self._wanted: set[str] = set()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    # -- who wants the camera ---------------------------------------------------------------

    def want(self, who: str) -> None:
        """Start (or keep) the worker for ``who`` ("dice-view", "game")."""
        with self._lock:
            self._wanted.add(who)
            if self._thread is None or not self._thread.is_alive():
                self._stop.clear()
                self._thread = threading.Thread(target=self._work, daemon=True,
                                                name="camera-feed")
                self._thread.start()

    def release(self, who: str) -> None:
        """``who`` no longer needs frames; the worker stops when nobody does."""
        with self._lock:
            self._wanted.discard(who)
            if not self._wanted:
                self._stop.set()

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def latest(self) -> Snapshot | None:
        with self._lock:
            return self._latest

    def close(self, timeout: float = 2.0) -> None:
        """Stop the worker and close the camera (idempotent)."""
        with self._lock:
            self._wanted.clear()
            self._stop.set()
            thread = self._thread
        if thread is not None:
            thread.join(timeout)
        if self._source is not None:
            self._source.close()
            self._source = None

    # -- the worker -------------------------------------------------------------------------

    def _open_source(self) -> Any:
        if self._open is not None:
            return self._open(self.spec)
        from hardware.camera import open_source

        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            source = open_source(self.spec)
        if caught:
            self.label = f"synthetic dice ({caught[0].message})"
        else:
            self.label = self.spec
        return source

    def _work(self) -> None:
        import cv2

        from vision import RollTracker, annotate, read_dice

        trim = _malloc_tamer()
        tracker = RollTracker(settle_s=self.settle_s)
        try:
            if self._source is None:
                self._source = self._open_source()
            while not self._stop.is_set():
                started = time.monotonic()
                frame = self._source.read()
                reading = read_dice(frame.image, self.profile)
                state = tracker.update(reading, frame.t)
                shown = annotate(frame.image, reading)
                zones = self.zones
                if zones:
                    from calibration.zones import count_dice, draw_zones

                    shown = draw_zones(shown, zones, ZONE_COLOURS, count_dice(zones, reading.dice))
                # `shown` is the overlay's own copy: turn it to RGB in place (no third frame)
                rgb = cv2.cvtColor(shown, cv2.COLOR_BGR2RGB, dst=shown)
                with self._lock:
                    self.frames += 1
                    self._latest = Snapshot(self.frames, rgb, reading, state.moving)
                    self.error = None
                if state.settled is not None and self.on_roll is not None:
                    self.on_roll(state.settled)
                if trim is not None and (self.frames <= 8 or self.frames % TRIM_EVERY == 0):
                    trim()
                self._stop.wait(max(0.0, self.period - (time.monotonic() - started)))
        except Exception as e:  # a camera failing must not kill the app: the view says why
            with self._lock:
                self.error = f"{type(e).__name__}: {e}"


def _malloc_tamer() -> Callable[[], None] | None:
    """Keep the feed's memory flat on glibc (the Pi, this machine): every frame allocates and
    frees frame-sized buffers, which glibc would otherwise keep in its heaps. Buffers over
    256 KiB get their own mapping (returned at once on free), threads share at most two
    heaps, and the returned function hands freed heap memory back. None elsewhere."""
    import ctypes
    import ctypes.util
    import sys

    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        libc.mallopt(-3, 256 * 1024)  # M_MMAP_THRESHOLD (fixed: no dynamic growth)
        libc.mallopt(-8, 2)  # M_ARENA_MAX
        trim = libc.malloc_trim
    except (OSError, AttributeError):  # not glibc (musl, ...): nothing to tame
        return None

    def release() -> None:
        trim(0)

    return release


def frame_provider_for(camera: str, profile: Any = None) -> CameraFeed | None:
    """The camera feed for a camera setting; None when no camera is configured."""
    if camera in ("", "none"):
        return None
    return CameraFeed(camera, profile=profile)


FrameProvider = CameraFeed
