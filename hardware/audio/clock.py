"""The round clock: monotonic time, pausable, with the announcer's cue schedule.

It never reads the audio position (Kivy's SDL2 sound reports 0 and cannot seek): the music
follows the clock, not the other way round.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from hardware.errors import HardwareError

Clock = Callable[[], float]


@dataclass(frozen=True)
class Cue:
    """A moment of the round: ``name`` is start, one_minute, ten_seconds or end; ``at`` seconds
    since the round began (paused time not counted)."""

    name: str
    at: float


def cue_schedule(duration: float, warnings: tuple[float, ...] = (60.0, 10.0)) -> tuple[Cue, ...]:
    """Start, a warning ``w`` seconds before the end for each ``w`` shorter than the round, end.

    >>> [(c.name, c.at) for c in cue_schedule(90)]
    [('start', 0.0), ('one_minute', 30.0), ('ten_seconds', 80.0), ('end', 90.0)]
    """
    if duration <= 0:
        raise ValueError(f"round duration must be > 0 seconds, got {duration}")
    names = {60.0: "one_minute", 10.0: "ten_seconds"}
    cues = [Cue("start", 0.0)]
    for w in sorted(warnings, reverse=True):
        if 0 < w < duration:
            cues.append(Cue(names.get(float(w), f"{w:g}_seconds"), float(duration - w)))
    cues.append(Cue("end", float(duration)))
    return tuple(cues)


class RoundClock:
    """Counts a round of ``duration`` seconds on ``clock`` (time.monotonic unless injected).

    ``due_cues()`` returns each cue once, in order, as soon as its time has passed (several at
    once if the caller was late). States: ready, running, paused, over.
    """

    def __init__(
        self,
        duration: float,
        *,
        clock: Clock = time.monotonic,
        warnings: tuple[float, ...] = (60.0, 10.0),
    ) -> None:
        self.duration = float(duration)
        self.schedule = cue_schedule(self.duration, warnings)
        self._clock = clock
        self._started_at: float | None = None
        self._paused_at: float | None = None
        self._paused_total = 0.0
        self._next_cue = 0

    @property
    def state(self) -> str:
        """ready, running, paused or over."""
        if self._started_at is None:
            return "ready"
        if self.elapsed >= self.duration:
            return "over"
        return "paused" if self._paused_at is not None else "running"

    @property
    def elapsed(self) -> float:
        """Seconds of round played so far (pauses excluded), at most ``duration``."""
        if self._started_at is None:
            return 0.0
        now = self._paused_at if self._paused_at is not None else self._clock()
        return min(max(now - self._started_at - self._paused_total, 0.0), self.duration)

    @property
    def remaining(self) -> float:
        """Seconds left in the round."""
        return self.duration - self.elapsed

    def start(self) -> None:
        """Start the round now. Raised when ...: HardwareError if it was already started."""
        if self._started_at is not None:
            raise HardwareError("round clock already started; make a new RoundClock per round")
        self._started_at = self._clock()

    def pause(self) -> None:
        """Stop the count (no-op unless running)."""
        if self.state == "running":
            self._paused_at = self._clock()

    def resume(self) -> None:
        """Continue after :meth:`pause` (no-op unless paused)."""
        if self._paused_at is not None:
            self._paused_total += self._clock() - self._paused_at
            self._paused_at = None

    def due_cues(self) -> list[Cue]:
        """Cues whose time has come since the last call."""
        if self._started_at is None:
            return []
        elapsed = self.elapsed
        out = []
        while self._next_cue < len(self.schedule) and self.schedule[self._next_cue].at <= elapsed:
            out.append(self.schedule[self._next_cue])
            self._next_cue += 1
        return out

    def next_cue(self) -> Cue | None:
        """The next cue not yet delivered."""
        return self.schedule[self._next_cue] if self._next_cue < len(self.schedule) else None
