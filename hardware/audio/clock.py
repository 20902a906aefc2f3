"""The round clock: monotonic time, pausable, with the announcer's cue schedule.

It never reads the audio position (Kivy's SDL2 sound reports 0 and cannot seek): the music
follows the clock, not the other way round.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal, get_args

from hardware.errors import HardwareError

Clock = Callable[[], float]
#: The moments of a round the announcer marks.
CueName = Literal["start", "one_minute", "ten_seconds", "end"]
#: The warnings a round can give: seconds before its end -> the cue's name.
WARNINGS: dict[float, CueName] = {60.0: "one_minute", 10.0: "ten_seconds"}
CUE_NAMES: tuple[CueName, ...] = get_args(CueName)


@dataclass(frozen=True)
class Cue:
    """A moment of the round (:data:`CueName`); ``at`` seconds since the round began (paused
    time not counted)."""

    name: CueName
    at: float


def cue_schedule(duration: float, warnings: tuple[float, ...] = (60.0, 10.0)) -> tuple[Cue, ...]:
    """Start, a warning ``w`` seconds before the end for each ``w`` shorter than the round, end.

    >>> [(c.name, c.at) for c in cue_schedule(90)]
    [('start', 0.0), ('one_minute', 30.0), ('ten_seconds', 80.0), ('end', 90.0)]
    """
    if duration <= 0:
        raise ValueError(f"round duration must be > 0 seconds, got {duration}")
    unknown = [w for w in warnings if float(w) not in WARNINGS]
    if unknown:
        raise ValueError(f"round warnings {unknown}: the announcer warns only "
                         f"{', '.join(f'{w:g}' for w in WARNINGS)} seconds before the end")
    cues = [Cue("start", 0.0)]
    for w in sorted(warnings, reverse=True):
        if 0 < w < duration:
            cues.append(Cue(WARNINGS[float(w)], float(duration - w)))
    cues.append(Cue("end", float(duration)))
    return tuple(cues)


class RoundClock:
    """Counts a round of ``duration`` seconds on ``clock`` (time.monotonic unless injected).

    The one round clock of the companion: the table session keeps the round's time on it (each
    call carries the seconds since the round began) and the sound follows it. States: ready
    (not started), running, paused, over. ``elapsed`` starts a resumed round where it stood
    (paused; cues already past are not delivered again). ``due_cues()`` returns each cue once,
    in order, as soon as its time has passed (several at once if the caller was late).
    """

    def __init__(
        self,
        duration: float,
        *,
        clock: Clock = time.monotonic,
        warnings: tuple[float, ...] = (60.0, 10.0),
        elapsed: float = 0.0,
    ) -> None:
        self._clock = clock
        self._warnings = warnings
        self.reset(duration, elapsed=elapsed)

    def reset(self, duration: float | None = None, *, elapsed: float = 0.0) -> None:
        """A new round (of ``duration`` seconds when given): not running, at ``elapsed``."""
        if duration is not None:
            self.duration = float(duration)
            self.schedule = cue_schedule(self.duration, self._warnings)
        self._base = min(max(0.0, float(elapsed)), self.duration)
        self._since: float | None = None
        self._started = self._base > 0
        self._next_cue = sum(1 for c in self.schedule if c.at < self._base
                             or (self._base > 0 and c.at == self._base))

    @property
    def state(self) -> str:
        """ready, running, paused or over."""
        if self.elapsed >= self.duration:
            return "over"
        if self._since is not None:
            return "running"
        return "paused" if self._started else "ready"

    @property
    def running(self) -> bool:
        """True while the round's time counts."""
        return self.state == "running"

    @property
    def elapsed(self) -> float:
        """Seconds of round played so far (pauses excluded), at most ``duration``."""
        run = 0.0 if self._since is None else self._clock() - self._since
        return min(max(self._base + run, 0.0), self.duration)

    @property
    def remaining(self) -> float:
        """Seconds left in the round."""
        return self.duration - self.elapsed

    def start(self) -> None:
        """Start the round now, or go on after a pause (no-op while running).

        Raised when ...: HardwareError if the round is over (reset it for a new one).
        """
        if self.state == "over":
            raise HardwareError("the round is over: reset the round clock for a new round")
        if self._since is None:
            self._since = self._clock()
            self._started = True

    def pause(self) -> None:
        """Stop the count (no-op unless running)."""
        if self._since is not None:
            self._base = self.elapsed
            self._since = None

    def resume(self) -> None:
        """Continue after :meth:`pause` (no-op unless paused)."""
        if self.state == "paused":
            self.start()

    def due_cues(self) -> list[Cue]:
        """Cues whose time has come since the last call."""
        if self.state == "ready":
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
