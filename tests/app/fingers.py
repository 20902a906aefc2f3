"""A finger timed to the camera: it lands in the very frame the screen hears a camera event (a
roll, a settled view) and lifts after the next one, so a tap spans a redraw the camera caused.
A screen that makes its buttons again on such a redraw loses the tap: a button made again lies
unplaced until the next layout pass, and a finger landing then touches nothing."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any


class CameraFinger:
    """Wrap the screen's camera handler with :meth:`hook` (``scr.on_roll =
    finger.hook(scr.on_roll)``), then :meth:`tap` widgets from the script. ``between`` is
    called at every frame while waiting (to keep the dice coming)."""

    def __init__(self, between: Callable[[], None] = lambda: None, after: Callable[[], None]
                 = lambda: None) -> None:
        self.events = 0
        self.between = between
        self.after = after  # called after each event is heard (throw the dice again...)
        self._aim: Any = None
        self._down: Any = None

    def hook(self, handler: Callable[[Any], None]) -> Callable[[Any], None]:
        def heard(reading: Any) -> None:
            self.events += 1
            handler(reading)
            if self._aim is not None:  # a finger lands in this very frame
                self._aim.down()
                self._aim, self._down = None, self._aim
            self.after()

        return heard

    def tap(self, widget: Any, frames: int = 600) -> Iterator[int]:
        """A finger aimed at ``widget`` lands when the camera next reports and lifts after the
        report after that."""
        from companion.demo.drive import ScriptTouch

        self._aim = ScriptTouch(*widget.to_window(*widget.center))
        for _ in range(frames):
            if self._down is not None:
                break
            self.between()
            yield 1
        assert self._down is not None, "no camera event arrived to press with"
        pressed = self.events
        for _ in range(frames):
            if self.events > pressed:
                break
            self.between()
            yield 1
        assert self.events > pressed, "no camera event arrived while the finger was down"
        self._down.up()
        self._down = None
        yield 2
