"""Eye for an Eye's six die icons, drawn with Kivy's graphics (our own art, no image files).

The dice of Eye for an Eye carry six icons (``rules.eye_for_an_eye.characters.ICONS``):
movement, attack, defence, heal, ready (it powers innate actions) and resolve (tribal cards,
whose unblockable hits skip the parry window). Each action button of the arena shows the icon
of the dice it spends, so a player can find "the button of this die" without reading.

An icon is a list of filled shapes in a unit box (-1..1 on both axes, y up); a shape is one
or more closed outlines filled with the even-odd rule, so an outline inside another is a hole
(the shield's rim, the eye's iris). :func:`draw` tessellates them (``kivy.graphics.tesselator``)
into meshes on a canvas, at any size and colour.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from functools import cache
from typing import Any

from kivy.graphics.context_instructions import Color
from kivy.graphics.instructions import InstructionGroup
from kivy.graphics.tesselator import TYPE_POLYGONS, WINDING_ODD, Tesselator
from kivy.graphics.vertex_instructions import Mesh

Point = tuple[float, float]
Outline = tuple[Point, ...]
Shape = tuple[Outline, ...]


def _arc(cx: float, cy: float, r: float, start: float, end: float, n: int) -> list[Point]:
    """Points on a circle from angle ``start`` to ``end`` (degrees), both included."""
    out = []
    for k in range(n + 1):
        a = math.radians(start + (end - start) * k / n)
        out.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    return out


def _circle(cx: float, cy: float, r: float, n: int = 24) -> Outline:
    return tuple(_arc(cx, cy, r, 0, 360, n)[:-1])


def _chevron(x: float) -> Outline:
    """A right-pointing chevron whose tip is at ``x``."""
    return ((x - 0.55, 0.75), (x - 0.25, 0.75), (x + 0.2, 0.0), (x - 0.25, -0.75),
            (x - 0.55, -0.75), (x - 0.1, 0.0))


def _spear() -> list[Shape]:
    """A spear lying on the diagonal, point up and right."""
    c, s = math.cos(math.radians(45)), math.sin(math.radians(45))

    def rot(p: Point) -> Point:
        return (p[0] * c - p[1] * s, p[0] * s + p[1] * c)

    shaft = ((-1.15, -0.11), (0.45, -0.11), (0.45, 0.11), (-1.15, 0.11))
    head = ((0.3, -0.36), (1.2, 0.0), (0.3, 0.36), (0.46, 0.0))
    return [(tuple(rot(p) for p in shaft),), (tuple(rot(p) for p in head),)]


def _heart() -> Outline:
    pts = []
    for k in range(48):
        t = 2 * math.pi * k / 48
        x = 16 * math.sin(t) ** 3
        y = 13 * math.cos(t) - 5 * math.cos(2 * t) - 2 * math.cos(3 * t) - math.cos(4 * t)
        pts.append((x / 17.0, (y + 2.5) / 17.0))
    return tuple(pts)


def _shield(scale: float) -> Outline:
    top, side, bottom = 0.8 * scale, 0.7 * scale, -0.9 * scale
    return ((-side, top), (0.0, top + 0.12 * scale), (side, top), (side, 0.05 * scale),
            (side * 0.55, bottom * 0.55), (0.0, bottom), (-side * 0.55, bottom * 0.55),
            (-side, 0.05 * scale))


def _eye() -> list[Shape]:
    upper = _arc(0.0, -0.75, 1.25, 143, 37, 16)  # the upper lid, left to right
    lower = _arc(0.0, 0.75, 1.25, -37, -143, 16)  # the lower lid, right to left
    almond: Outline = tuple(upper + lower[1:-1])
    return [(almond, _circle(0.0, 0.0, 0.42)), (_circle(0.0, 0.0, 0.22),)]


def _bolt() -> Outline:
    return ((0.15, 1.0), (-0.6, -0.1), (-0.08, -0.1), (-0.3, -1.0), (0.6, 0.15),
            (0.08, 0.15), (0.45, 1.0))


@cache
def shapes(icon: str) -> tuple[Shape, ...]:
    """The filled shapes of ``icon`` (one of the six die icons). Raises KeyError for another
    name."""
    table: dict[str, list[Shape]] = {
        "movement": [(_chevron(0.05),), (_chevron(0.8),)],
        "attack": _spear(),
        "defence": [(_shield(1.0), _shield(0.62)), (_shield(0.42),)],
        "heal": [(_heart(),)],
        "ready": _eye(),
        "resolve": [(_bolt(),)],
    }
    return tuple(table[icon])


@cache
def _meshes(icon: str) -> tuple[tuple[tuple[float, ...], tuple[int, ...]], ...]:
    """Triangles of each shape of ``icon`` in unit coordinates: (x, y, u, v ...) vertices and
    indices per polygon."""
    out = []
    for shape in shapes(icon):
        tess = Tesselator()
        for outline in shape:
            tess.add_contour([v for p in outline for v in p])
        if not tess.tesselate(WINDING_ODD, TYPE_POLYGONS):
            raise ValueError(f"icon {icon!r}: a shape could not be tessellated")
        for vertices, indices in tess.meshes:
            out.append((tuple(vertices), tuple(indices)))
    return tuple(out)


def draw(icon: str, centre: Point, size: float, colour: Sequence[float]) -> InstructionGroup:
    """Canvas instructions drawing ``icon`` filling a ``size`` px square around ``centre``."""
    group = InstructionGroup()
    group.add(Color(*colour))
    half = size / 2
    cx, cy = centre
    for vertices, indices in _meshes(icon):
        placed: list[float] = []
        for k in range(0, len(vertices), 4):
            placed += [cx + vertices[k] * half, cy + vertices[k + 1] * half, 0.0, 0.0]
        group.add(Mesh(vertices=placed, indices=list(indices), mode="triangle_fan"))
    return group


class IconPainter:
    """Keeps an icon drawn at the top of a button's text (the button's ``padding`` top leaves
    it room), redrawn when the button moves, resizes, changes text or is disabled."""

    def __init__(self, button: Any, icon: str, size: float) -> None:
        self.button = button
        self.icon = icon
        self.size = size
        self.shown = True  # False: the button's words need its room (two lines)
        self.group: InstructionGroup | None = None
        for name in ("pos", "size", "texture_size", "disabled", "color", "opacity"):
            button.fbind(name, self.redraw)
        self.redraw()

    def set_icon(self, icon: str) -> None:
        if icon != self.icon:
            self.icon = icon
            self.redraw()

    def redraw(self, *_: Iterable[Any]) -> None:
        b = self.button
        if self.group is not None:
            b.canvas.after.remove(self.group)
            self.group = None
        if not self.shown:
            return
        top = b.center_y + b.texture_size[1] / 2  # the top of the padded text
        centre = (b.center_x, top - 2 - self.size / 2)
        r, g, bl, a = b.disabled_color if b.disabled else b.color
        self.group = draw(self.icon, centre, self.size, (r, g, bl, a * 0.95))
        b.canvas.after.add(self.group)


__all__ = ["IconPainter", "draw", "shapes"]
