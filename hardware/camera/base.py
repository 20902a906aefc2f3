"""The camera interface of every source: timestamped frames, explicit lifecycle, reconnection.

A source is a context manager. ``read()`` returns the next :class:`Frame`; iteration yields frames
until the stream ends or the source is closed, riding out unplugged cameras. Subclasses implement
three small hooks (``_connect``, ``_grab``, ``_disconnect``); this base class owns the closed
state, frame numbering and the reconnect policy, so every backend behaves the same when a cable
is pulled mid-game.
"""

from __future__ import annotations

import logging
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from types import TracebackType

import numpy as np

from hardware.errors import CameraUnavailable, EndOfStream, SourceClosed

log = logging.getLogger(__name__)

Clock = Callable[[], float]
Sleep = Callable[[float], None]


@dataclass(frozen=True)
class Frame:
    """One camera image (BGR uint8, as OpenCV and vision expect) with when it was taken.

    ``t`` is seconds on the monotonic clock of the source (``time.monotonic`` unless a source runs
    on virtual time, see ReplaySource/SyntheticSource ``realtime=False``); ``index`` counts frames
    delivered by this source from 0, across reconnections.
    """

    image: np.ndarray
    t: float
    index: int

    def __post_init__(self) -> None:
        img = self.image
        if not isinstance(img, np.ndarray) or img.dtype != np.uint8 or img.ndim not in (2, 3):
            shape = getattr(img, "shape", None)
            dtype = getattr(img, "dtype", type(img).__name__)
            raise ValueError(
                f"Frame.image must be a 2D or 3D uint8 np.ndarray, got shape {shape} dtype {dtype}"
            )


class DeviceLost(Exception):
    """Raised by a backend's ``_grab``/``_connect`` when the device is gone; the base reconnects."""


class FrameSource(ABC):
    """A camera: open it, read timestamped frames, close it (idempotently).

    Reconnection: when the device disappears, ``read()`` raises :class:`CameraUnavailable` naming
    the source and the cause, and later reads try to reconnect (at most once per
    ``reconnect_interval`` seconds, so a missing camera does not stall the caller). Iterating a
    source retries for you, sleeping between attempts, and logs when the camera is lost and back.
    """

    #: Short spec of this source, as in ``COMPANION_CAMERA`` (e.g. ``"opencv:0"``).
    name: str = "camera"

    def __init__(
        self,
        *,
        reconnect_interval: float = 1.0,
        clock: Clock = time.monotonic,
        sleep: Sleep = time.sleep,
    ) -> None:
        if reconnect_interval < 0:
            raise ValueError(f"reconnect_interval must be >= 0, got {reconnect_interval}")
        self.reconnect_interval = reconnect_interval
        self._clock = clock
        self._sleep = sleep
        self._lock = threading.RLock()
        self._closed = False
        self._connected = False
        self._next_attempt = float("-inf")
        self._last_error: str | None = None
        self._index = 0
        self.reconnections = 0
        self._ever_connected = False

    # -- hooks for backends -------------------------------------------------------------------
    @abstractmethod
    def _connect(self) -> None:
        """Acquire the device; raise DeviceLost saying why if it is absent."""

    @abstractmethod
    def _grab(self) -> tuple[np.ndarray, float | None]:
        """Return the next image and its time (None: stamp it now); raise DeviceLost if gone."""

    @abstractmethod
    def _disconnect(self) -> None:
        """Release the device; must tolerate a half-open device."""

    # -- public API ---------------------------------------------------------------------------
    @property
    def closed(self) -> bool:
        """True once ``close()`` has been called."""
        return self._closed

    @property
    def connected(self) -> bool:
        """True while the device is open and answering."""
        return self._connected

    @property
    def last_error(self) -> str | None:
        """Why the device was last lost or could not be opened (None if it never failed)."""
        return self._last_error

    def open(self) -> FrameSource:
        """Connect now, raising CameraUnavailable if the device is not there. Returns self."""
        with self._lock:
            self._check_open()
            if not self._connected:
                self._try_connect(force=True)
        return self

    def read(self) -> Frame:
        """Return the next frame.

        Raised when ...: SourceClosed after close(); CameraUnavailable while the device is missing
        (later calls retry); EndOfStream when a file source is exhausted and does not loop.
        """
        with self._lock:
            self._check_open()
            if not self._connected:
                self._try_connect(force=False)
            try:
                image, t = self._grab()
            except DeviceLost as exc:
                self._lose(str(exc))
                raise CameraUnavailable(
                    f"camera {self.name}: lost ({exc}); will try to reconnect"
                ) from exc
            frame = Frame(image=image, t=self._clock() if t is None else t, index=self._index)
            self._index += 1
            return frame

    def frames(self) -> Iterator[Frame]:
        """Yield frames until the stream ends or the source is closed, waiting out lost cameras."""
        while not self._closed:
            try:
                yield self.read()
            except EndOfStream:
                return
            except SourceClosed:
                return
            except CameraUnavailable as exc:
                log.warning("%s", exc)
                self._sleep(max(self.reconnect_interval, 0.01))

    def __iter__(self) -> Iterator[Frame]:
        return self.frames()

    def close(self) -> None:
        """Release the device. Safe to call more than once."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            if self._connected:
                self._connected = False
                self._disconnect()

    def __enter__(self) -> FrameSource:
        return self.open()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "closed" if self._closed else ("connected" if self._connected else "disconnected")
        return f"<{type(self).__name__} {self.name} {state}>"

    # -- internals ----------------------------------------------------------------------------
    def _check_open(self) -> None:
        if self._closed:
            raise SourceClosed(f"camera {self.name} is closed; open a new source to read frames")

    def _try_connect(self, *, force: bool) -> None:
        now = self._clock()
        if not force and now < self._next_attempt:
            raise CameraUnavailable(
                f"camera {self.name}: not available ({self._last_error}); "
                f"next reconnect attempt in {self._next_attempt - now:.1f} s"
            )
        try:
            self._connect()
        except (DeviceLost, CameraUnavailable) as exc:
            self._next_attempt = now + self.reconnect_interval
            reason = str(exc)
            self._last_error = reason
            try:
                self._disconnect()
            except Exception:  # pragma: no cover - best effort on a half-open device
                log.debug("disconnect after failed connect of %s raised", self.name, exc_info=True)
            if isinstance(exc, CameraUnavailable):
                raise
            raise CameraUnavailable(f"camera {self.name}: not available ({reason})") from exc
        if self._ever_connected:
            self.reconnections += 1
            log.warning("camera %s: reconnected", self.name)
        self._ever_connected = True
        self._connected = True

    def _lose(self, reason: str) -> None:
        self._last_error = reason
        self._connected = False
        self._next_attempt = self._clock()  # first reconnect attempt may happen at once
        try:
            self._disconnect()
        except Exception:  # pragma: no cover - device already gone
            log.debug("disconnect of lost %s raised", self.name, exc_info=True)
        log.warning("camera %s: lost (%s)", self.name, reason)
