"""Result types of a dice reading: :class:`Die`, :class:`Reading` and its :class:`ReadWarning`.

All are frozen dataclasses, validated when built (a bad value names the field and what was
wrong), and turn into plain JSON-able dicts with ``to_dict()``.
"""

from __future__ import annotations

import enum
import math
from dataclasses import dataclass, field
from typing import Any

Point = tuple[float, float]


def _check_point(name: str, p: object) -> Point:
    if not (isinstance(p, tuple) and len(p) == 2):
        raise ValueError(f"{name} must be an (x, y) tuple, got {p!r}")
    x, y = p
    if not all(isinstance(v, int | float) and math.isfinite(v) for v in (x, y)):
        raise ValueError(f"{name} must hold two finite numbers, got {p!r}")
    return (float(x), float(y))


@dataclass(frozen=True)
class Die:
    """One die seen on the table.

    ``value`` is the pip count 1-6, or None when the die is uncertain or shows an icon face.
    ``face`` is the face label: ``"1"``..``"6"`` for pip dice, a :class:`FaceSet` label for icon
    dice, None when unknown. ``corners`` is the outline (rotated box) in image pixels.
    """

    center: Point
    corners: tuple[Point, Point, Point, Point]
    angle: float
    size: float
    value: int | None
    face: str | None
    colour: str | None
    confidence: float

    def __post_init__(self) -> None:
        object.__setattr__(self, "center", _check_point("Die.center", self.center))
        if not (isinstance(self.corners, tuple) and len(self.corners) == 4):
            raise ValueError(f"Die.corners must be a tuple of 4 points, got {self.corners!r}")
        corners = tuple(_check_point(f"Die.corners[{i}]", c) for i, c in enumerate(self.corners))
        object.__setattr__(self, "corners", corners)
        if not (isinstance(self.angle, int | float) and math.isfinite(self.angle)):
            raise ValueError(f"Die.angle must be a finite number of degrees, got {self.angle!r}")
        if not (isinstance(self.size, int | float) and math.isfinite(self.size) and self.size > 0):
            raise ValueError(f"Die.size must be a positive number of pixels, got {self.size!r}")
        if self.value is not None and (
            isinstance(self.value, bool) or not isinstance(self.value, int)
            or not 1 <= self.value <= 6
        ):
            raise ValueError(f"Die.value must be 1..6 or None, got {self.value!r}")
        if self.face is not None and not (isinstance(self.face, str) and self.face):
            raise ValueError(f"Die.face must be a non-empty string or None, got {self.face!r}")
        if self.value is not None and self.face is not None and self.face != str(self.value):
            raise ValueError(
                f"Die.face {self.face!r} disagrees with Die.value {self.value!r} "
                "(a pip die's face is its value as text)"
            )
        if self.colour is not None and not (isinstance(self.colour, str) and self.colour):
            raise ValueError(f"Die.colour must be a non-empty string or None, got {self.colour!r}")
        c = self.confidence
        if not (isinstance(c, int | float) and math.isfinite(c) and 0.0 <= c <= 1.0):
            raise ValueError(f"Die.confidence must be within 0..1, got {c!r}")
        object.__setattr__(self, "confidence", float(c))

    @property
    def is_certain(self) -> bool:
        """True when the face was read (a pip value or an icon label)."""
        return self.face is not None

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able form (the shape ``companion read --json`` prints per die)."""
        return {
            "value": self.value,
            "face": self.face,
            "colour": self.colour,
            "center": [round(self.center[0], 1), round(self.center[1], 1)],
            "confidence": round(self.confidence, 3),
            "angle": round(self.angle, 1),
            "size": round(self.size, 1),
            "corners": [[round(x, 1), round(y, 1)] for x, y in self.corners],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Die:
        """Inverse of :meth:`to_dict` (rounded to 0.1 px)."""
        cx, cy = data["center"]
        corners = tuple((float(x), float(y)) for x, y in data["corners"])
        return cls(
            center=(float(cx), float(cy)),
            corners=corners,  # type: ignore[arg-type]
            angle=float(data["angle"]),
            size=float(data["size"]),
            value=data["value"],
            face=data["face"],
            colour=data["colour"],
            confidence=float(data["confidence"]),
        )


class WarningKind(enum.Enum):
    """What a :class:`ReadWarning` is about."""

    #: Something big (a hand, an arm) is in view: dice under it may be missing or moving.
    OCCLUSION = "occlusion"
    #: The frame itself cannot be read (too small, all black, all white, featureless).
    UNREADABLE_FRAME = "unreadable-frame"


@dataclass(frozen=True)
class ReadWarning:
    """A warning about a frame: its :class:`WarningKind`, for code to act on, and its words,
    for people (``str(warning)`` is the words)."""

    kind: WarningKind
    text: str

    def __post_init__(self) -> None:
        if not isinstance(self.kind, WarningKind):
            raise ValueError(f"ReadWarning.kind must be a WarningKind, got {self.kind!r}")
        if not (isinstance(self.text, str) and self.text):
            raise ValueError(f"ReadWarning.text must be a non-empty string, got {self.text!r}")

    def __str__(self) -> str:
        return self.text

    def to_dict(self) -> dict[str, str]:
        """Plain JSON-able form: ``{"kind": "occlusion", "text": "..."}``."""
        return {"kind": self.kind.value, "text": self.text}

    @classmethod
    def from_dict(cls, data: object) -> ReadWarning:
        """Inverse of :meth:`to_dict`; raised for anything else: ``ValueError`` saying what."""
        kinds = [k.value for k in WarningKind]
        if not (isinstance(data, dict) and set(data) == {"kind", "text"}):
            raise ValueError(f"a reading's warning must be {{'kind': one of {kinds}, "
                             f"'text': words}}, got {data!r}")
        if data["kind"] not in kinds:
            raise ValueError(f"a reading's warning kind must be one of {kinds}, "
                             f"got {data['kind']!r}")
        return cls(WarningKind(data["kind"]), data["text"])


#: The warning a reading carries when a large object (a hand?) is in view.
HAND_IN_VIEW = ReadWarning(WarningKind.OCCLUSION,
                           "occlusion: a large object (a hand?) is in view")


@dataclass(frozen=True)
class Reading:
    """Every die read from one frame, plus warnings about the frame itself."""

    dice: tuple[Die, ...]
    frame_shape: tuple[int, int]
    warnings: tuple[ReadWarning, ...] = field(default=())

    def __post_init__(self) -> None:
        if not isinstance(self.dice, tuple) or not all(isinstance(d, Die) for d in self.dice):
            raise ValueError(f"Reading.dice must be a tuple of Die, got {self.dice!r}")
        shape = self.frame_shape
        if not (
            isinstance(shape, tuple) and len(shape) == 2
            and all(isinstance(v, int) and v >= 0 for v in shape)
        ):
            raise ValueError(f"Reading.frame_shape must be (height, width), got {shape!r}")
        if not isinstance(self.warnings, tuple) or not all(
            isinstance(w, ReadWarning) for w in self.warnings
        ):
            raise ValueError(
                f"Reading.warnings must be a tuple of ReadWarning, got {self.warnings!r}")

    @classmethod
    def empty(cls, shape: tuple[int, int] = (0, 0),
              warning: ReadWarning | None = None) -> Reading:
        """A reading with no dice, optionally carrying one warning."""
        return cls(dice=(), frame_shape=shape, warnings=(warning,) if warning else ())

    def warned(self, kind: WarningKind) -> bool:
        """Whether this reading carries a warning of ``kind``."""
        return any(w.kind is kind for w in self.warnings)

    def values(self) -> tuple[int | None, ...]:
        """The pip values, left to right then top to bottom order as stored."""
        return tuple(d.value for d in self.dice)

    @property
    def uncertain(self) -> tuple[Die, ...]:
        """Dice whose face could not be read; the app asks the players about these."""
        return tuple(d for d in self.dice if d.face is None)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able form."""
        return {
            "dice": [d.to_dict() for d in self.dice],
            "frame_shape": list(self.frame_shape),
            "warnings": [w.to_dict() for w in self.warnings],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Reading:
        """Inverse of :meth:`to_dict`."""
        h, w = data["frame_shape"]
        return cls(
            dice=tuple(Die.from_dict(d) for d in data["dice"]),
            frame_shape=(int(h), int(w)),
            warnings=tuple(ReadWarning.from_dict(w) for w in data.get("warnings", ())),
        )
