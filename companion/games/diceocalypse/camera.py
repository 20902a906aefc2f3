"""The camera, watched for settled rolls while the Dice-ocalypse screen is up.

Frames come from the app's frame provider (RGB pictures) in a worker thread; each is read by
``vision.read_dice`` and fed to a ``vision.RollTracker``; a settled reading is handed to the
main thread (``on_settled`` is called through Kivy's Clock by the screen), where the adapter
turns it into the roll the game waits for. vision/ is imported lazily, so the screen works (by
touch) where vision is not installed.
"""

from __future__ import annotations

import importlib.util
import threading
import time
from collections.abc import Callable
from typing import Any

#: Camera settings that are test stand-ins: the screen does not read rolls from them unless
#: the players switch the camera on (their dice are random, not the table's).
STAND_INS = ("synthetic", "none", "")


def vision_available() -> bool:
    """True when vision's reader and tracker can be imported."""
    try:
        return importlib.util.find_spec("vision.read") is not None \
            and importlib.util.find_spec("vision.tracker") is not None
    except (ImportError, ValueError):
        return False


class RollWatcher:
    """Frames in, settled readings out: ``vision.read_dice`` then ``vision.RollTracker``."""

    def __init__(self, settle_s: float = 0.3, rgb: bool = True,
                 read: Callable[[Any], Any] | None = None, tracker: Any = None) -> None:
        if read is None or tracker is None:
            import vision

            read = read or vision.read_dice
            tracker = tracker or vision.RollTracker(settle_s=settle_s)
        self.read = read
        self.tracker = tracker
        self.rgb = rgb

    def frame(self, frame: Any, t: float) -> Any:
        """One frame taken at ``t`` seconds: the settled reading when the dice just came to
        rest, else None."""
        image = frame[:, :, ::-1] if self.rgb and getattr(frame, "ndim", 0) == 3 else frame
        reading = self.read(image)
        return self.tracker.update(reading, t).settled

    def reset(self) -> None:
        """Forget the last roll: the dice lying still now count as a new roll."""
        self.tracker.reset()


class CameraFeed:
    """A worker thread: frames from ``provider`` through a :class:`RollWatcher`; each settled
    reading goes to ``on_settled`` (called in the worker: hand it to the main thread)."""

    def __init__(self, provider: Callable[[], Any], on_settled: Callable[[Any], None], *,
                 watcher: RollWatcher | None = None, interval: float = 0.1,
                 clock: Callable[[], float] = time.monotonic,
                 on_error: Callable[[str], None] | None = None) -> None:
        self.provider = provider
        self.on_settled = on_settled
        self.watcher = watcher
        self.interval = interval
        self.clock = clock
        self.on_error = on_error
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def start(self) -> None:
        if self.running:
            return
        self._stop.clear()
        self._thread = threading.Thread(target=self._work, daemon=True, name="diceocalypse-cam")
        self._thread.start()

    def stop(self, wait: float = 0.0) -> None:
        self._stop.set()
        if self._thread is not None and wait > 0:
            self._thread.join(timeout=wait)

    def _work(self) -> None:
        try:
            if self.watcher is None:
                self.watcher = RollWatcher()
            while not self._stop.is_set():
                frame = self.provider()
                if frame is not None:
                    settled = self.watcher.frame(frame, self.clock())
                    if settled is not None and not self._stop.is_set():
                        self.on_settled(settled)
                self._stop.wait(self.interval)
        except Exception as e:  # a camera failing must not take the game down
            if self.on_error is not None:
                self.on_error(f"camera stopped: {e}")
