"""Python's garbage collector at the table: its long pauses only while nobody touches.

Python frees most objects at once; only objects that point at each other in a ring (a Kivy
widget and the callbacks bound to it: most of a screen) wait for the cyclic collector. That
collector runs when enough objects were made since its last run, and every so often walks the
oldest generation: every object that survived earlier runs, some 300,000 in the running app.
That full walk took 0.2 to 0.8 s on this 2-core machine (benchmarks/screens.py), and it came
due in the middle of whatever made the last objects: a tap that builds a dialog or a screen
then waited for it.

So the app runs the collector like this (:class:`IdleCollector`):

- at start-up, before the screens are built, everything made so far (modules, classes, the
  kv rules, the app's own long-lived objects) is frozen (:func:`gc.freeze`): no later walk
  visits it again, which makes each one far shorter;
- the young generations are collected as usual (a few milliseconds each);
- the oldest generation is not collected by Python's own count but here, when the table has
  been still (no touch, no key) for :data:`IDLE_S`, as soon as Python would have collected it;
  a table that never rests is collected anyway once :data:`FORCE_AFTER` young collections have
  passed (memory stays bounded), and :meth:`IdleCollector.soon` asks for one at the next rest
  (a screen let go).

Pure policy with the gc module and a clock; :meth:`IdleCollector.install` wires it to Kivy.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable
from typing import Any

#: Seconds without a touch or a key before the oldest generation may be collected.
IDLE_S = 2.0
#: Python's own trigger: collect the oldest generation once this many collections of the
#: middle one have passed (its default third threshold).
DUE_AFTER = 10
#: Collect even while the table is busy once this many have passed (about 10x Python's own
#: wait: memory stays bounded when nobody ever lets go of the screen).
FORCE_AFTER = 100
#: How often the collector looks whether one is due (seconds).
CHECK_S = 0.5
#: The oldest generation's threshold while this policy runs: never reached by Python's count.
NEVER = 1_000_000


class IdleCollector:
    """Collects the oldest generation when the table rests (see the module docstring)."""

    def __init__(self, now: Callable[[], float] = time.monotonic,
                 passed: Callable[[], int] = lambda: gc.get_count()[2],
                 collect: Callable[[], object] = gc.collect) -> None:
        """``now``: a monotonic clock; ``passed``: how many collections of the middle
        generation have passed since the last full one; ``collect``: a full collection."""
        self.now = now
        self.passed = passed
        self.collect = collect
        self.last_input = now()
        self.wanted = False
        self.collections = 0  # full collections made here
        self._thresholds: tuple[int, int, int] | None = None

    def start(self) -> None:
        """Freeze what the app has made so far and take over the oldest generation."""
        if self._thresholds is None:
            self._thresholds = gc.get_threshold()
            young, middle, _ = self._thresholds
            gc.set_threshold(young, middle, NEVER)
        gc.freeze()
        gc.enable()  # `companion start` keeps it off while the app loads

    def stop(self) -> None:
        """Give the oldest generation back to Python's own count (what was frozen stays so)."""
        if self._thresholds is not None:
            gc.set_threshold(*self._thresholds)
            self._thresholds = None

    def touched(self, *_: Any) -> None:
        """A touch or a key: the table is not resting."""
        self.last_input = self.now()

    def soon(self) -> None:
        """Collect at the next rest even if Python would not yet (a screen was let go)."""
        self.wanted = True

    def due(self) -> bool:
        """Whether to collect the oldest generation now."""
        passed = self.passed()
        if passed >= FORCE_AFTER:
            return True
        resting = self.now() - self.last_input >= IDLE_S
        return resting and (self.wanted or passed >= DUE_AFTER)

    def check(self) -> bool:
        """Collect if due; whether it did."""
        if not self.due():
            return False
        self.collect()
        self.wanted = False
        self.collections += 1
        return True

    def install(self, clock: Any, window: Any) -> Any:
        """Start, note every touch and key of ``window`` (Kivy's), look every :data:`CHECK_S`
        on ``clock`` (Kivy's). Returns the clock event (cancel it to stop looking)."""
        self.start()
        for name in ("on_touch_down", "on_touch_move", "on_touch_up", "on_key_down"):
            window.fbind(name, self.touched)

        def look(_dt: float) -> None:  # (a False from it would unschedule it: Kivy's rule)
            self.check()

        return clock.schedule_interval(look, CHECK_S)


__all__ = ["CHECK_S", "DUE_AFTER", "FORCE_AFTER", "IDLE_S", "IdleCollector"]
