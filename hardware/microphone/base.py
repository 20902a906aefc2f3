"""The interface of every microphone: timestamped blocks of sound, an explicit lifecycle.

A microphone is a context manager. ``read()`` returns the next :class:`Block` (16 kHz mono,
the rate speech recognisers take), or None when a replayed file has ended; ``close()`` is
idempotent and reading after it raises :class:`~hardware.errors.MicrophoneClosed`. Subclasses
implement ``_open``, ``_read`` and ``_close``; this base owns the closed state and the block
numbering, so every backend behaves the same.
"""

from __future__ import annotations

import threading
from abc import ABC, abstractmethod
from dataclasses import dataclass
from types import TracebackType

import numpy as np

from hardware.errors import MicrophoneClosed

#: Samples a second of every block: what the speech recogniser takes.
RATE = 16000
#: Samples a block: 20 ms.
BLOCK = 320


@dataclass(frozen=True)
class Block:
    """Sound heard: mono float32 samples in -1..1 at :data:`RATE`, ``t`` the monotonic time
    of its first sample (the source's clock: a replay's own time when it is not paced),
    ``start`` the index of its first sample since the microphone opened."""

    samples: np.ndarray
    t: float
    start: int

    def __post_init__(self) -> None:
        s = self.samples
        if not isinstance(s, np.ndarray) or s.dtype != np.float32 or s.ndim != 1:
            raise ValueError(f"Block.samples must be a 1D float32 np.ndarray, got "
                             f"{getattr(s, 'dtype', type(s).__name__)} {getattr(s, 'shape', '')}")

    @property
    def end(self) -> float:
        """The time just after its last sample."""
        return self.t + len(self.samples) / RATE


class Microphone(ABC):
    """A microphone: open it, read blocks, close it (idempotently)."""

    #: Short spec, as in ``COMPANION_MICROPHONE`` ("alsa:hw:2,0", "replay:call.wav").
    name: str = "microphone"
    #: What it is, in a player's words ("USB microphone", "a recording").
    label: str = "microphone"

    def __init__(self) -> None:
        self._closed = False
        self._opened = False
        self._lock = threading.Lock()
        self._next = 0

    @abstractmethod
    def _open(self) -> None:
        """Start the device. Raises MicrophoneUnavailable saying why it cannot."""

    @abstractmethod
    def _read(self, timeout: float) -> tuple[np.ndarray, float] | None:
        """The next samples (float32 mono at RATE) and the time of the first, waiting at most
        ``timeout`` s; an empty array when none came in time; None when the sound has ended."""

    @abstractmethod
    def _close(self) -> None:
        """Stop the device and let it go."""

    @property
    def closed(self) -> bool:
        return self._closed

    def open(self) -> Microphone:
        """Start listening. Raised when ...: MicrophoneUnavailable naming the microphone and
        why; MicrophoneClosed after close()."""
        self._check()
        if not self._opened:
            self._open()
            self._opened = True
        return self

    def read(self, timeout: float = 0.5) -> Block | None:
        """The next block heard (None once a replayed sound has ended; an empty block when
        nothing came within ``timeout`` s). Raised when ...: MicrophoneClosed after close()."""
        self._check()
        if not self._opened:
            self.open()
        got = self._read(timeout)
        if got is None:
            return None
        samples, t = got
        block = Block(np.ascontiguousarray(samples, dtype=np.float32), t, self._next)
        self._next += len(samples)
        return block

    def close(self) -> None:
        with self._lock:
            if self._closed:
                return
            self._closed = True
        if self._opened:
            self._close()

    def __enter__(self) -> Microphone:
        return self.open()

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "closed" if self._closed else "open" if self._opened else "not opened"
        return f"<{type(self).__name__} {self.name} {state}>"

    def _check(self) -> None:
        if self._closed:
            raise MicrophoneClosed(f"microphone {self.name} is closed; open a new one to "
                                   "listen")


def level_dbfs(samples: np.ndarray) -> float:
    """The RMS level of ``samples`` in dB below full scale (-120 for silence).

    >>> round(level_dbfs(np.full(100, 0.5, dtype=np.float32)), 1)
    -6.0
    """
    if len(samples) == 0:
        return -120.0
    rms = float(np.sqrt(np.mean(np.square(samples, dtype=np.float64))))
    return max(-120.0, 20.0 * float(np.log10(rms))) if rms > 0 else -120.0


__all__ = ["BLOCK", "RATE", "Block", "Microphone", "level_dbfs"]
