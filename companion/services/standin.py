"""The stand-in camera: the hardware layer's synthetic source drawing vision's rendered dice.

The hardware package knows devices, not dice, so the app gives the stand-in what to draw: scenes
from :func:`vision.synthetic.random_scene` and :func:`vision.synthetic.render`. Used when the
players choose it (``synthetic``) or when no camera is found; every screen that shows its
picture says it is rendered dice.
"""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Mapping
from typing import Any

import numpy as np

from hardware.camera import SyntheticSource

#: What the screens call the stand-in's picture.
LABEL = "rendered dice, no camera"


def stand_in_camera(options: Mapping[str, Any], **extra: Any) -> SyntheticSource:
    """A :class:`SyntheticSource` of rendered dice rolls, with the ``[camera]`` options it takes
    (width, height, fps, seed, speed, realtime) and any of its keywords in ``extra``."""
    from vision import synthetic as vs

    kw: dict[str, Any] = {**dict(options), **extra}
    width, height = int(kw.get("width", 640)), int(kw.get("height", 480))
    n_dice = kw.get("n_dice", (1, 8))
    colours, icon_set = kw.get("colours"), kw.get("icon_set")

    def scene(rng: np.random.Generator) -> Any:
        return vs.random_scene(rng, width=width, height=height, n_dice=n_dice,
                               colours=colours, icon_set=icon_set)

    kw.setdefault("scene_factory", scene)
    return SyntheticSource(renderer=vs.render, icon_sets=vs.ICON_SETS, **kw)


class ThrownDice:
    """A camera over a tray where a script throws the dice it chooses (the demo, the tests):
    :meth:`throw` rolls a scene of dice in from the tray's edge, tumbling, to rest where the
    scene puts them (the stand-in's own animation); :meth:`clear` takes them out. Frames are
    stamped on virtual time, ``1 / fps`` apart, so a roll settles the same way on any machine.
    ``name`` is a camera's, not the stand-in's: its rolls count like a real camera's. A script
    may throw and clear from another thread than the one reading frames (a lock keeps a read
    from meeting a half-replaced tray).
    """

    name = "tray"

    def __init__(self, width: int = 640, height: int = 480, fps: float = 15.0,
                 background_bgr: tuple[int, int, int] | None = None, seed: int = 7) -> None:
        self.width, self.height, self.fps = width, height, fps
        self.background_bgr = background_bgr
        self.seed = seed
        self.t = 0.0
        self.reads = 0
        self.throws = 0
        self.closed = False
        self._source: SyntheticSource | None = None
        self._dice: tuple[Any, ...] = ()
        self._lock = threading.RLock()
        self.clear()

    def _scene(self, dice: tuple[Any, ...]) -> Any:
        from vision.synthetic import Scene

        scene = Scene(self.width, self.height, dice)
        if self.background_bgr is not None:
            scene = dataclasses.replace(scene, background_bgr=self.background_bgr)
        return scene

    def _start(self, dice: tuple[Any, ...], roll_s: float) -> None:
        with self._lock:
            self._restart(dice, roll_s)

    def _restart(self, dice: tuple[Any, ...], roll_s: float) -> None:
        from vision import synthetic as vs

        if self._source is not None:
            self._source.close()
        scene = self._scene(dice)
        self._dice = dice
        self.throws += 1
        self._source = SyntheticSource(
            width=self.width, height=self.height, fps=self.fps, seed=self.seed + self.throws,
            empty_s=0.0, roll_s=roll_s, rest_s=1e9, realtime=False,
            scene_factory=lambda rng: scene, renderer=vs.render, icon_sets=vs.ICON_SETS,
            clock=lambda: self.t)
        self._source.open()

    def throw(self, dice: Any, roll_s: float = 1.0) -> None:
        """Throw these dice (vision.synthetic SynthDie, at their resting places) into the
        tray; the dice lying there before are taken out first."""
        self._start(tuple(dice), roll_s)

    def clear(self) -> None:
        """Take every die out of the tray."""
        self._start((), 0.01)

    @property
    def dice(self) -> tuple[Any, ...]:
        return self._dice

    def read(self) -> Any:
        with self._lock:
            assert self._source is not None
            frame = self._source.read()
            self.t = frame.t + 1.0 / self.fps
            self.reads += 1
            return frame

    def close(self) -> None:
        with self._lock:
            self.closed = True
            if self._source is not None:
                self._source.close()


__all__ = ["LABEL", "ThrownDice", "stand_in_camera"]
