"""Microphones that need no device: recordings played back, and the stand-in.

:class:`ReplayMicrophone` reads sound files (WAV, FLAC, Ogg...) one after another, at their
own pace or as fast as they are read (``realtime=False``: tests, ``companion hear`` and the
benchmarks run on the recording's own clock). :class:`StandInMicrophone` is the quiet room a
table without a microphone would hear: faint noise, never a word.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from hardware.audio.decode import load_mono
from hardware.errors import MicrophoneUnavailable, SoundMissing
from hardware.microphone.base import BLOCK, RATE, Microphone

Clock = Callable[[], float]
Sleep = Callable[[float], None]


class ReplayMicrophone(Microphone):
    """Recordings heard as if at the table: ``paths`` in order (``loop``: again and again).

    ``realtime``: blocks come at the pace they were recorded, timed on ``clock``; otherwise at
    once, timed from ``start`` on the recording's own clock (the first sample at ``start``).
    """

    label = "a recording"

    def __init__(self, paths: Sequence[str | Path], *, realtime: bool = True,
                 loop: bool = False, start: float = 0.0, clock: Clock = time.monotonic,
                 sleep: Sleep = time.sleep, block: int = BLOCK) -> None:
        super().__init__()
        if not paths:
            raise ValueError("ReplayMicrophone needs at least one sound file")
        self.paths = [Path(p) for p in paths]
        self.name = "replay:" + ",".join(str(p) for p in self.paths)
        self.realtime = realtime
        self.loop = loop
        self.block = block
        self._clock = clock
        self._sleep = sleep
        self._start = start
        self._sound = np.zeros(0, dtype=np.float32)
        self._pos = 0
        self._t0 = start

    def _open(self) -> None:
        parts = []
        for p in self.paths:
            try:
                parts.append(load_mono(p, RATE))
            except SoundMissing as e:
                raise MicrophoneUnavailable(f"microphone {self.name}: {e}") from None
        self._sound = np.concatenate(parts) if parts else np.zeros(0, dtype=np.float32)
        self._pos = 0
        self._t0 = self._clock() if self.realtime else self._start

    def _read(self, timeout: float) -> tuple[np.ndarray, float] | None:
        n = len(self._sound)
        if self._pos >= n:
            if not self.loop or n == 0:
                return None
            self._pos = 0
            self._t0 += n / RATE
        t = self._t0 + self._pos / RATE
        if self.realtime:
            due = t + self.block / RATE  # a block is there once its last sample was heard
            wait = due - self._clock()
            if wait > timeout:
                self._sleep(timeout)
                return np.zeros(0, dtype=np.float32), t
            if wait > 0:
                self._sleep(wait)
        chunk = self._sound[self._pos:self._pos + self.block]
        self._pos += len(chunk)
        return chunk, t

    def _close(self) -> None:
        self._sound = np.zeros(0, dtype=np.float32)

    @property
    def duration(self) -> float:
        """Seconds of sound in the recordings (once open)."""
        return len(self._sound) / RATE


class StandInMicrophone(Microphone):
    """The stand-in: a quiet room (faint noise about -70 dBFS, seeded), at its own pace or as
    fast as read; it never hears a word."""

    name = "stand-in"
    label = "no microphone (a quiet stand-in)"

    def __init__(self, *, seed: int = 0, realtime: bool = True, clock: Clock = time.monotonic,
                 sleep: Sleep = time.sleep, block: int = BLOCK) -> None:
        super().__init__()
        self._rng = np.random.default_rng(seed)
        self.realtime = realtime
        self.block = block
        self._clock = clock
        self._sleep = sleep
        self._t0 = 0.0
        self._pos = 0

    def _open(self) -> None:
        self._t0 = self._clock() if self.realtime else 0.0
        self._pos = 0

    def _read(self, timeout: float) -> tuple[np.ndarray, float]:
        t = self._t0 + self._pos / RATE
        if self.realtime:
            wait = t + self.block / RATE - self._clock()
            if wait > timeout:
                self._sleep(timeout)
                return np.zeros(0, dtype=np.float32), t
            if wait > 0:
                self._sleep(wait)
        noise = (self._rng.standard_normal(self.block) * 3e-4).astype(np.float32)
        self._pos += self.block
        return noise, t

    def _close(self) -> None:
        pass


__all__ = ["ReplayMicrophone", "StandInMicrophone"]
