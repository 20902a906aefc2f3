"""A camera filming rendered dice being rolled, settling and resting: the Pi camera's stand-in.

Each roll: the tray is empty for a moment (dice picked up), the dice slide in from one side while
spinning and decelerate to their resting places, then rest for a few seconds, and the next roll
starts. What a scene holds and how it is drawn are given by whoever makes the source (the app
gives vision's synthetic renderer; this package knows devices, not dice), so the ground truth of
every frame is known and exposed as :attr:`truth`.
"""

from __future__ import annotations

import dataclasses
import math
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from hardware.camera.base import Clock, DeviceLost, FrameSource, Sleep

SceneFactory = Callable[[np.random.Generator], Any]
Renderer = Callable[[Any, np.random.Generator], np.ndarray]


@dataclass(frozen=True)
class SyntheticTruth:
    """What the last frame showed: the scene as drawn and the roll's resting scene.

    ``phase`` is "empty" (tray cleared), "rolling" (dice moving) or "resting" (settled);
    ``settled`` is True only while resting, which is when a dice reader should report the roll.
    """

    roll: int
    phase: str
    scene: Any
    target: Any

    @property
    def settled(self) -> bool:
        """True while the dice rest (the frame shows ``target`` exactly)."""
        return self.phase == "resting"


class SyntheticSource(FrameSource):
    """Rendered dice rolls at ``fps``; ``speed`` > 1 runs the table's time faster (demos).

    Timing per roll (in table seconds): ``empty_s`` with the tray cleared, ``roll_s`` of sliding
    and spinning with a cubic ease-out, then ``rest_s`` at rest. With ``realtime=False`` frames are
    produced as fast as asked and stamped on a virtual clock (``t0 + index / fps``), so tests and
    benchmarks are deterministic. The same ``seed`` gives the same rolls.
    """

    def __init__(
        self,
        *,
        width: int = 640,
        height: int = 480,
        fps: float = 15.0,
        seed: int | None = None,
        n_dice: tuple[int, int] = (1, 8),
        colours: Any = None,
        icon_set: Any = None,
        empty_s: float = 0.4,
        roll_s: float = 1.2,
        rest_s: float = 2.5,
        speed: float = 1.0,
        realtime: bool = True,
        tumble_faces: bool = True,
        scene_factory: SceneFactory | None = None,
        renderer: Renderer | None = None,
        icon_sets: Mapping[str, tuple[str, ...]] | None = None,
        clock: Clock = time.monotonic,
        sleep: Sleep = time.sleep,
    ) -> None:
        super().__init__(reconnect_interval=0.0, clock=clock, sleep=sleep)
        for label, value in (("fps", fps), ("speed", speed), ("roll_s", roll_s)):
            if value <= 0:
                raise ValueError(f"synthetic {label} must be > 0, got {value}")
        if empty_s < 0 or rest_s < 0:
            raise ValueError(f"synthetic empty_s and rest_s must be >= 0, got {empty_s}, {rest_s}")
        self.name = "synthetic"
        self.width, self.height, self.fps = width, height, fps
        self.seed: int = int(np.random.SeedSequence().entropy) if seed is None else seed  # type: ignore[arg-type]
        self.n_dice, self.colours, self.icon_set = n_dice, colours, icon_set
        self.empty_s, self.roll_s, self.rest_s = empty_s, roll_s, rest_s
        self.speed, self.realtime, self.tumble_faces = speed, realtime, tumble_faces
        self._scene_factory = scene_factory
        self._renderer = renderer
        self._t0: float | None = None
        self._count = 0
        self._roll_cache: tuple[int, Any, list[tuple[float, float, float]]] | None = None
        self.truth: SyntheticTruth | None = None
        self._icon_sets: dict[str, tuple[str, ...]] = dict(icon_sets or {})

    @property
    def cycle_s(self) -> float:
        """Table seconds from one roll's start to the next."""
        return self.empty_s + self.roll_s + self.rest_s

    def _connect(self) -> None:
        if self._scene_factory is None or self._renderer is None:
            raise DeviceLost("the stand-in camera was given nothing to draw (no scene factory "
                             "and renderer)")
        if self._t0 is None:
            self._t0 = self._clock()

    def _disconnect(self) -> None:
        pass

    # -- the animation -------------------------------------------------------------------------
    def _roll(self, k: int) -> tuple[Any, list[tuple[float, float, float]]]:
        """Resting scene of roll ``k`` and, per die, its launch offset (dx, dy) and spin."""
        if self._roll_cache is not None and self._roll_cache[0] == k:
            return self._roll_cache[1], self._roll_cache[2]
        assert self._scene_factory is not None
        rng = np.random.default_rng([self.seed, k])
        target = self._scene_factory(rng)
        # All dice are thrown from one side of the tray, like a player's hand would.
        heading = rng.uniform(0, 2 * math.pi)
        launch: list[tuple[float, float, float]] = []
        for _ in target.dice:
            dist = rng.uniform(0.35, 0.6) * max(self.width, self.height)
            spread = heading + rng.normal(0, 0.25)
            spin = float(rng.choice([-1, 1]) * rng.uniform(180, 720))
            launch.append((math.cos(spread) * dist, math.sin(spread) * dist, spin))
        self._roll_cache = (k, target, launch)
        return target, launch

    def scene_at(self, table_t: float, frame_no: int = 0) -> SyntheticTruth:
        """The truth at ``table_t`` seconds since the source opened (table time, after speed)."""
        k = math.floor(table_t / self.cycle_s)
        phase_t = table_t - k * self.cycle_s
        target, launch = self._roll(k)
        if phase_t < self.empty_s:
            return SyntheticTruth(k, "empty", dataclasses.replace(target, dice=()), target)
        u = (phase_t - self.empty_s) / self.roll_s
        if u >= 1.0:
            return SyntheticTruth(k, "resting", target, target)
        remaining = 1.0 - (1.0 - u) ** 3  # share of the path still to travel is (1-u)^3
        left = 1.0 - remaining
        margin = 0.06 * min(self.width, self.height)
        face_rng = np.random.default_rng([self.seed, k, 1_000_000 + frame_no])
        dice = []
        for die, (dx, dy, spin) in zip(target.dice, launch, strict=True):
            names = {f.name for f in dataclasses.fields(die)}
            cx, cy = die.center
            x = min(max(cx - dx * left, margin), self.width - margin)
            y = min(max(cy - dy * left, margin), self.height - margin)
            changes: dict[str, Any] = {
                "center": (float(x), float(y)),
                "angle": float(die.angle + spin * (1.0 - u) ** 2),
            }
            if "lift" in names:  # hopping: the shadow falls further while the die is in the air
                changes["lift"] = float(0.3 * (1.0 - u) ** 2)
            if (
                self.tumble_faces
                and u < 0.7
                and isinstance(die.value, int)
                and not isinstance(die.value, bool)
                and 1 <= die.value <= 6
            ):
                changes["value"] = int(face_rng.integers(1, 7))
            elif self.tumble_faces and u < 0.7 and isinstance(getattr(die, "face", None), str):
                faces = next((f for f in self._icon_sets.values() if die.face in f), ())
                if faces:
                    changes["face"] = str(faces[int(face_rng.integers(len(faces)))])
            dice.append(dataclasses.replace(die, **changes))
        return SyntheticTruth(k, "rolling", dataclasses.replace(target, dice=tuple(dice)), target)

    def _grab(self) -> tuple[np.ndarray, float | None]:
        assert self._t0 is not None and self._renderer is not None
        i = self._count
        due = self._t0 + i / self.fps
        if self.realtime:
            now = self._clock()
            if now < due:
                self._sleep(due - now)
                t = due
            else:  # the reader fell behind: show what the table looks like now, like a camera
                t = now
                i = max(i, math.floor((now - self._t0) * self.fps))
        else:
            t = due
        table_t = (t - self._t0) * self.speed
        truth = self.scene_at(table_t, i)
        image = self._renderer(truth.scene, np.random.default_rng([self.seed, 7, i]))
        self._count = i + 1
        self.truth = truth
        return image, t
