"""Turning a stream of readings into settled rolls: :class:`RollTracker`.

Fed one :class:`~vision.types.Reading` per frame with its time, the tracker says whether dice
are moving and emits exactly one settled roll once every die has stayed within ``move_px`` for
``settle_s`` seconds (same count, same faces). After a roll is emitted nothing more is emitted
until dice move again. A reading that warns of an occlusion (a hand in the tray) or a blank
frame suspends settling: the stillness clock starts again once the view is clear.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from vision.read import OCCLUSION_WARNING
from vision.types import Reading


@dataclass(frozen=True)
class TrackerState:
    """What the tracker knows after one update.

    ``settled`` is the roll, set only on the one update where the dice settle.
    """

    moving: bool
    occluded: bool
    still_for: float
    settled: Reading | None = None


def _blocked(reading: Reading) -> bool:
    return any(w.startswith(OCCLUSION_WARNING) or w.startswith("frame ")
               for w in reading.warnings)


class RollTracker:
    """Watches readings over time and emits one settled roll per roll.

    ``settle_s``: how long dice must stay still; ``move_px``: how far a die may wander (centre,
    pixels) and still count as still, or ``move_frac`` of its size if that is more (the
    detector's centres wobble by a few percent of a die between frames); ``min_dice``: an
    emitted roll has at least this many dice;
    ``emit_initial``: whether dice already lying still when tracking starts count as a roll.
    """

    def __init__(self, settle_s: float = 0.3, move_px: float = 4.0, *, min_dice: int = 1,
                 emit_initial: bool = True, move_frac: float = 0.2) -> None:
        if not (math.isfinite(settle_s) and settle_s >= 0):
            raise ValueError(f"settle_s must be a finite number >= 0, got {settle_s!r}")
        if not (math.isfinite(move_px) and move_px > 0):
            raise ValueError(f"move_px must be a finite number > 0, got {move_px!r}")
        if not (math.isfinite(move_frac) and move_frac >= 0):
            raise ValueError(f"move_frac must be a finite number >= 0, got {move_frac!r}")
        if min_dice < 1:
            raise ValueError(f"min_dice must be >= 1, got {min_dice!r}")
        self.settle_s = float(settle_s)
        self.move_px = float(move_px)
        self.move_frac = float(move_frac)
        self.min_dice = int(min_dice)
        self._armed = emit_initial
        self._last: Reading | None = None
        self._anchor: Reading | None = None  # the view the stillness clock compares against
        self._still_since: float | None = None
        self._last_t: float | None = None
        self._settled: Reading | None = None
        self._occluded = False

    @property
    def is_moving(self) -> bool:
        """True while dice are moving (or have not yet been still for ``settle_s``)."""
        if self._still_since is None or self._last_t is None:
            return True
        return self._last_t - self._still_since < self.settle_s

    @property
    def last_roll(self) -> Reading | None:
        """The most recent settled roll, if any."""
        return self._settled

    def reset(self) -> None:
        """Forget everything; the next still view is a new roll."""
        self._armed = True
        self._last = self._anchor = self._settled = None
        self._still_since = self._last_t = None
        self._occluded = False

    def _changed(self, a: Reading, b: Reading) -> bool:
        """Whether the dice of ``b`` differ from those of ``a`` (moved, appeared, turned)."""
        if len(a.dice) != len(b.dice):
            return True
        free = list(b.dice)
        for d in a.dice:
            best = min(free, key=lambda e: math.dist(d.center, e.center))
            limit = max(self.move_px, self.move_frac * min(d.size, best.size))
            if math.dist(d.center, best.center) > limit or best.face != d.face:
                return True
            free.remove(best)
        return False

    def update(self, reading: Reading, t: float) -> TrackerState:
        """Feed the reading of the frame taken at time ``t`` (seconds, non-decreasing)."""
        if not isinstance(reading, Reading):
            raise ValueError(f"update needs a vision.Reading, got {type(reading).__name__}")
        if not math.isfinite(t):
            raise ValueError(f"time must be finite, got {t!r}")
        if self._last_t is not None and t < self._last_t:
            raise ValueError(f"time went backwards: {t} after {self._last_t}")
        self._last_t = t
        if _blocked(reading):
            self._occluded = True
            self._still_since = None
            self._anchor = None
            return TrackerState(moving=True, occluded=True, still_for=0.0)
        self._occluded = False
        if self._anchor is None or self._changed(self._anchor, reading):
            if self._last is not None:
                self._armed = True  # dice moved (or the view came back): a roll may follow
            self._anchor = reading
            self._still_since = t
        self._last = reading
        assert self._still_since is not None
        still_for = t - self._still_since
        settled: Reading | None = None
        if (self._armed and still_for >= self.settle_s and len(reading.dice) >= self.min_dice
                and (self._settled is None or self._changed(self._settled, reading))):
            settled = reading
            self._settled = reading
            self._armed = False
        moving = still_for < self.settle_s
        return TrackerState(moving=moving, occluded=False, still_for=still_for, settled=settled)
