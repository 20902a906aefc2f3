"""Camera readings for the games' model tests, built as vision builds them (vision.types)."""

from __future__ import annotations

from vision.types import Die, Reading


def die(x: float, y: float, value: int | None, confidence: float = 0.95, *,
        colour: str | None = None, size: float = 40.0) -> Die:
    """A die at rest at (x, y): its outline a square of ``size`` pixels."""
    h = size / 2
    corners = ((x - h, y - h), (x + h, y - h), (x + h, y + h), (x - h, y + h))
    return Die((x, y), corners, 0.0, size, value, None if value is None else str(value),
               colour, confidence)


def reading(*dice: Die, shape: tuple[int, int] = (480, 640)) -> Reading:
    return Reading(tuple(dice), shape)


def row(*values: int, unsure: tuple[int, ...] = ()) -> Reading:
    """Dice in one row across the tray, left to right; those in ``unsure`` read with doubt."""
    return reading(*(die(60.0 * i + 30, 100.0, v, 0.3 if i in unsure else 0.95)
                     for i, v in enumerate(values)))
