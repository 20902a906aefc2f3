"""Readings made by hand for the tracker's tests: square dice of SIZE px at given places."""

from __future__ import annotations

from vision import Reading
from vision.types import HAND_IN_VIEW, Die

SIZE = 30.0
HAND = HAND_IN_VIEW

Spec = tuple[float, float, int | None]  # x, y, value (None: read as uncertain)


def _die(x: float, y: float, v: int | None) -> Die:
    h = SIZE / 2
    return Die(center=(x, y), corners=((x - h, y - h), (x + h, y - h), (x + h, y + h),
                                       (x - h, y + h)),
               angle=0.0, size=SIZE, value=v, face=None if v is None else str(v),
               colour="red", confidence=0.9 if v else 0.05)


def _frame(*dice: Spec, hand: bool = False) -> Reading:
    return Reading(dice=tuple(_die(*d) for d in dice), frame_shape=(480, 640),
                   warnings=(HAND,) if hand else ())
