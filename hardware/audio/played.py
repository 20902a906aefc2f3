"""What the companion's own speaker plays, kept as a timeline, so the microphone can take it away.

:class:`~hardware.audio.player.Sounds` tells a :class:`Played` every sound it starts, pauses,
resumes, stops or plays at another level, with the time (the monotonic clock). The listener
then asks for the speaker's signal over any stretch of time (:meth:`Played.render`: the
sounds, decoded, summed at their levels, 16 kHz mono) and whether the announcer was speaking
then (:meth:`Played.speaking`): what was played is subtracted from what the microphone heard,
and words heard while the announcer speaks are not taken for a call.

Thread-safe: the app's thread writes, the listener's reads.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from hardware.audio.decode import load_mono
from hardware.errors import SoundMissing

#: Sounds forgotten this long after they stopped (seconds).
KEEP_SECONDS = 30.0


@dataclass
class _Stretch:
    """A stretch of one sound playing: from ``begin`` (monotonic) to ``end`` (None: still
    playing), starting at ``offset`` seconds into the sound, at ``level``."""

    begin: float
    offset: float
    level: float
    end: float | None = None


@dataclass
class _Play:
    path: Path
    loop: bool
    speech: bool
    stretches: list[_Stretch] = field(default_factory=list)

    @property
    def playing(self) -> bool:
        return bool(self.stretches) and self.stretches[-1].end is None

    def last_end(self) -> float:
        ends = [s.end for s in self.stretches]
        return float("inf") if None in ends else max((e for e in ends if e is not None),
                                                     default=0.0)


class Played:
    """The timeline of everything the speaker played (see the module docstring)."""

    def __init__(self, rate: int = 16000, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.clock = clock
        self._lock = threading.Lock()
        self._plays: dict[int, _Play] = {}
        self._next = 0

    # -- what the speaker does (the app's thread) ---------------------------------------------

    def started(self, path: str | Path, *, level: float = 1.0, loop: bool = False,
                speech: bool = False, at: float | None = None, offset: float = 0.0) -> int:
        """A sound began (``speech``: the announcer's words). Returns its handle."""
        now = self.clock() if at is None else at
        with self._lock:
            self._forget(now)
            self._next += 1
            self._plays[self._next] = _Play(Path(path), loop, speech,
                                            [_Stretch(now, offset, float(level))])
            return self._next

    def stopped(self, handle: int, at: float | None = None) -> None:
        self._close(handle, self.clock() if at is None else at)

    def paused(self, handle: int, at: float | None = None) -> None:
        self._close(handle, self.clock() if at is None else at)

    def resumed(self, handle: int, at: float | None = None) -> None:
        now = self.clock() if at is None else at
        with self._lock:
            play = self._plays.get(handle)
            if play is None or play.playing or not play.stretches:
                return
            last = play.stretches[-1]
            assert last.end is not None
            play.stretches.append(_Stretch(now, last.offset + last.end - last.begin,
                                           last.level))

    def level(self, handle: int, level: float, at: float | None = None) -> None:
        """The sound goes on at another level (the volume changed, or mute)."""
        now = self.clock() if at is None else at
        with self._lock:
            play = self._plays.get(handle)
            if play is None or not play.playing:
                return
            last = play.stretches[-1]
            last.end = now
            play.stretches.append(_Stretch(now, last.offset + now - last.begin, float(level)))

    def playing(self, handle: int) -> bool:
        with self._lock:
            play = self._plays.get(handle)
            return play is not None and play.playing

    def _close(self, handle: int, now: float) -> None:
        with self._lock:
            play = self._plays.get(handle)
            if play is not None and play.playing:
                play.stretches[-1].end = now

    def _forget(self, now: float) -> None:
        old = [h for h, p in self._plays.items() if p.last_end() < now - KEEP_SECONDS]
        for h in old:
            del self._plays[h]

    # -- what the listener asks (its thread) ----------------------------------------------------

    def render(self, t0: float, n: int) -> np.ndarray:
        """The speaker's signal for the ``n`` samples from ``t0`` (monotonic seconds): every
        sound playing then, at its level, summed (float32 mono; silence where none played)."""
        out = np.zeros(n, dtype=np.float32)
        with self._lock:
            plays = [(p.path, p.loop, [(s.begin, s.end, s.offset, s.level) for s in
                                       p.stretches]) for p in self._plays.values()]
        t1 = t0 + n / self.rate
        for path, loop, stretches in plays:
            for begin, end, offset, level in stretches:
                stop = t1 if end is None else min(end, t1)
                start = max(begin, t0)
                if stop <= start or level <= 0:
                    continue
                try:
                    sound = load_mono(path, self.rate)
                except SoundMissing:
                    continue
                if len(sound) == 0:
                    continue
                i0 = round((start - t0) * self.rate)
                i1 = min(n, round((stop - t0) * self.rate))
                if i1 <= i0:
                    continue
                first = round((offset + start - begin) * self.rate)
                idx = np.arange(first, first + (i1 - i0))
                if loop:
                    idx %= len(sound)
                else:
                    keep = idx < len(sound)
                    idx, i1 = idx[keep], i0 + int(keep.sum())
                out[i0:i1] += sound[idx] * level
        return out

    def speaking(self, t0: float, t1: float, tail: float = 0.3) -> bool:
        """True when an announcer's sound played at any time between ``t0`` and ``t1`` (or
        within ``tail`` seconds before ``t0``: the room still rings)."""
        with self._lock:
            for p in self._plays.values():
                if not p.speech:
                    continue
                try:
                    length = len(load_mono(p.path, self.rate)) / self.rate
                except SoundMissing:
                    length = 0.0
                for s in p.stretches:
                    end = s.end if s.end is not None else s.begin + max(0.0, length - s.offset)
                    if not p.loop:
                        end = min(end, s.begin + max(0.0, length - s.offset))
                    if s.begin <= t1 and end + tail >= t0:
                        return True
        return False


__all__ = ["KEEP_SECONDS", "Played"]
