"""Board zones: where on the camera picture each player's action spaces (or roll area) lie.

A :class:`Zone` is a polygon in image pixels with the seat it belongs to (1 = the first player
on the start screen) and the space's name as it is said at the table ("Parry", "Spear Thrust",
a tribal card such as "Leap", or :data:`ROLL_AREA` for a player's own rolling area). The app
counts the dice whose centres lie in each zone and turns changes into the game's own calls
(see ``companion.allocation``); calibration only stores and checks the shapes.

Zones are kept in image pixels of the calibrated camera, like the tray polygon: moving the
camera means calibrating again.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

Point = tuple[float, float]
ROLL_AREA = "roll"
MAX_SEATS = 6


class ZoneError(ValueError):
    """A zone that cannot be used; the message names the zone and what is wrong."""


@dataclass(frozen=True)
class Zone:
    """One board region: seat (1-based), the space's table name, and its outline in pixels."""

    seat: int
    space: str
    polygon: tuple[Point, ...]

    def __post_init__(self) -> None:
        if isinstance(self.seat, bool) or not isinstance(self.seat, int) or not (
                1 <= self.seat <= MAX_SEATS):
            raise ZoneError(f"zone seat must be 1..{MAX_SEATS}, got {self.seat!r}")
        if not isinstance(self.space, str) or not self.space.strip():
            raise ZoneError(f"zone of seat {self.seat}: the space needs a name, "
                            f"got {self.space!r}")
        object.__setattr__(self, "space", " ".join(self.space.split()))
        pts = tuple(self.polygon)
        if len(pts) < 3:
            raise ZoneError(f"{self.label}: an outline needs at least 3 points, got {len(pts)}")
        clean = []
        for i, p in enumerate(pts):
            if not isinstance(p, tuple | list) or len(p) != 2:
                raise ZoneError(f"{self.label}: point {i + 1} must be (x, y), got {p!r}")
            x, y = p
            for v in (x, y):
                if isinstance(v, bool) or not isinstance(v, int | float) or not math.isfinite(v):
                    raise ZoneError(f"{self.label}: point {i + 1} has a bad coordinate {v!r}")
            clean.append((float(x), float(y)))
        if self.area(clean) < 1.0:
            raise ZoneError(f"{self.label}: the outline encloses no area")
        object.__setattr__(self, "polygon", tuple(clean))

    @property
    def label(self) -> str:
        return f"seat {self.seat} {self.space!r}"

    @property
    def key(self) -> tuple[int, str]:
        """(seat, space) with the space case-folded: two zones may not share it."""
        return self.seat, self.space.casefold()

    @staticmethod
    def area(points: Sequence[Point]) -> float:
        return float(abs(cv2.contourArea(np.array(points, np.float32))))

    def contains(self, x: float, y: float) -> bool:
        poly = np.array(self.polygon, np.float32)
        return bool(cv2.pointPolygonTest(poly, (float(x), float(y)), False) >= 0)

    def centre(self) -> Point:
        a = np.array(self.polygon)
        return float(a[:, 0].mean()), float(a[:, 1].mean())

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "space": self.space,
                "polygon": [[x, y] for x, y in self.polygon]}

    @classmethod
    def from_dict(cls, data: Any) -> Zone:
        return cls(int(data["seat"]), str(data["space"]),
                   tuple((float(x), float(y)) for x, y in data["polygon"]))


def rectangle(seat: int, space: str, x: float, y: float, w: float, h: float) -> Zone:
    """A rectangular zone from its top-left corner and size in pixels."""
    if w <= 0 or h <= 0:
        raise ZoneError(f"seat {seat} {space!r}: width and height must be > 0, got {w}x{h}")
    return Zone(seat, space, ((x, y), (x + w, y), (x + w, y + h), (x, y + h)))


def check_zones(zones: Iterable[Zone]) -> tuple[Zone, ...]:
    """The zones as a tuple, refusing two zones for the same seat and space."""
    seen: dict[tuple[int, str], Zone] = {}
    out = []
    for z in zones:
        if not isinstance(z, Zone):
            raise ZoneError(f"expected a Zone, got {type(z).__name__}")
        if z.key in seen:
            raise ZoneError(f"{z.label} is given twice")
        seen[z.key] = z
        out.append(z)
    return tuple(out)


def replace_zone(zones: Sequence[Zone], new: Zone) -> tuple[Zone, ...]:
    """``zones`` with ``new`` added, replacing the zone of the same seat and space."""
    return (*(z for z in zones if z.key != new.key), new)


def remove_zone(zones: Sequence[Zone], seat: int, space: str) -> tuple[Zone, ...]:
    key = (seat, " ".join(space.split()).casefold())
    if not any(z.key == key for z in zones):
        raise ZoneError(f"there is no zone for seat {seat} {space!r}; have: "
                        f"{', '.join(z.label for z in zones) or 'none'}")
    return tuple(z for z in zones if z.key != key)


def zone_at(zones: Sequence[Zone], x: float, y: float) -> Zone | None:
    """The zone holding the point; the smallest one when zones overlap (a space drawn
    inside a bigger board or roll area belongs to the space)."""
    inside = [z for z in zones if z.contains(x, y)]
    return min(inside, key=lambda z: Zone.area(z.polygon)) if inside else None


def count_dice(zones: Sequence[Zone], dice: Iterable[Any]) -> dict[tuple[int, str], int]:
    """How many dice (anything with a ``center``) lie in each zone, by :attr:`Zone.key`.

    Every zone is in the result, with 0 when it is empty, so a die taken off shows."""
    counts = {z.key: 0 for z in zones}
    for die in dice:
        z = zone_at(zones, float(die.center[0]), float(die.center[1]))
        if z is not None:
            counts[z.key] += 1
    return counts


def draw_zones(frame: npt.NDArray[np.uint8], zones: Sequence[Zone],
               colours: Sequence[tuple[int, int, int]] | None = None,
               counts: dict[tuple[int, str], int] | None = None) -> npt.NDArray[np.uint8]:
    """A copy of ``frame`` (BGR or RGB, as given) with each zone outlined and named."""
    out = frame.copy()
    scale = max(0.8, min(out.shape[:2]) / 600)
    for z in zones:
        colour = colours[(z.seat - 1) % len(colours)] if colours else (255, 255, 255)
        pts = np.round(np.array(z.polygon)).astype(np.int32)
        cv2.polylines(out, [pts], True, colour, max(1, round(2 * scale)), cv2.LINE_AA)
        text = f"{z.seat}: {z.space}"
        if counts is not None:
            text += f" ({counts.get(z.key, 0)})"
        x, y = int(pts[:, 0].min()) + 4, int(pts[:, 1].min()) + round(22 * scale)
        cv2.putText(out, text, (x, y), cv2.FONT_HERSHEY_SIMPLEX, 0.7 * scale, (0, 0, 0),
                    max(3, round(5 * scale)), cv2.LINE_AA)
        cv2.putText(out, text, (x, y), cv2.FONT_HERSHEY_SIMPLEX, 0.7 * scale, colour,
                    max(1, round(2 * scale)), cv2.LINE_AA)
    return out
