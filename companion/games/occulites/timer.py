"""The round clock at the Occulites table: what the timer shows as it runs (time to look, then
to line up, then "Reveal!") and which of the game's timer cues are due. The screen offers the
timer in every game, so the clock runs on the game's options with the timer on."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

from rules.occulites import OcculitesOptions, TimerCue, timer_cues


def timed(options: OcculitesOptions) -> OcculitesOptions:
    """The game's options with the timer on."""
    return dataclasses.replace(options, timer=True)


def timer_words(options: OcculitesOptions, elapsed: float) -> str:
    """The timer's two lines ``elapsed`` seconds after the roll."""
    opts = timed(options)
    if elapsed < opts.look_seconds:
        return f"Look\n{_secs(opts.look_seconds - elapsed)}"
    if elapsed < opts.deadline:
        return f"Line up\n{_secs(opts.deadline - elapsed)}"
    return "Reveal!"


def due_cues(options: OcculitesOptions, elapsed: float,
             fired: Iterable[int]) -> list[tuple[int, TimerCue]]:
    """The cues (by their place in the list) due ``elapsed`` seconds after the roll and not
    ``fired`` yet, in order."""
    heard = set(fired)
    return [(n, cue) for n, cue in enumerate(timer_cues(timed(options)))
            if n not in heard and cue.at <= elapsed]


def _secs(left: float) -> str:
    s = max(0, int(left + 0.999))
    return f"{s // 60}:{s % 60:02d}"


__all__ = ["due_cues", "timed", "timer_words"]
