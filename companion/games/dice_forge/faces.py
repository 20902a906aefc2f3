"""Dice Forge die faces drawn with Kivy graphics (no image files): an ivory tile like the face
of a die, each resource as its own shape and colour with its amount on it (gold a coin, sun a
rayed sun, moon a crescent, glory a star, ancient shards a hexagon, loyalty a diamond), a slash
between the options of a choice face, coloured faces in their colour with their name written.
Shapes differ as well as colours, so colour is never the only cue; where a face has no picture
(or the players asked for words) its words are shown instead.

:class:`FacePainter` draws on a widget's ``canvas.after`` and follows its position and size:
a button keeps its touch behaviour and background (the selection colour frames the tile).
"""

from __future__ import annotations

import itertools
import math
from typing import Any

from kivy.core.text import Label as CoreLabel
from kivy.graphics.context_instructions import Color
from kivy.graphics.vertex_instructions import (
    Ellipse,
    Line,
    Mesh,
    Rectangle,
    RoundedRectangle,
    Triangle,
)

from companion.games.dice_forge.art import FaceArt, Mark, face_art

RGBA = tuple[float, float, float, float]

TILE: RGBA = (0.95, 0.92, 0.84, 1)
TILE_EDGE: RGBA = (0.55, 0.50, 0.42, 1)
INK: RGBA = (0.12, 0.12, 0.14, 1)
#: Each resource: its colour, the colour of the amount written on it, its shape.
RESOURCE_LOOK: dict[str, tuple[RGBA, RGBA, str]] = {
    "gold": ((0.96, 0.78, 0.10, 1), INK, "coin"),
    "sun": ((0.91, 0.42, 0.08, 1), (1, 1, 1, 1), "sun"),
    "moon": ((0.16, 0.47, 0.86, 1), (1, 1, 1, 1), "moon"),
    "glory": ((0.32, 0.30, 0.42, 1), (1, 1, 1, 1), "star"),
    "ancient": ((0.0, 0.56, 0.40, 1), (1, 1, 1, 1), "hexagon"),
    "loyalty": ((0.58, 0.27, 0.68, 1), (1, 1, 1, 1), "diamond"),
}
#: The four colours of the coloured faces (shields, boars, chaos, misfortune).
SIDE_COLOUR: dict[str, RGBA] = {"red": (0.88, 0.36, 0.30, 1), "blue": (0.42, 0.62, 0.93, 1),
                                "yellow": (0.97, 0.86, 0.36, 1),
                                "green": (0.45, 0.74, 0.45, 1)}

_TEXTURES: dict[tuple[str, int, RGBA], Any] = {}


def text_texture(text: str, size: float, colour: RGBA) -> Any:
    """A bold text rendered once per (text, size, colour)."""
    key = (text, max(6, int(size)), colour)
    if key not in _TEXTURES:
        if len(_TEXTURES) > 400:
            _TEXTURES.clear()
        label = CoreLabel(text=text, font_size=key[1], bold=True, color=colour,
                          halign="center")
        label.refresh()
        _TEXTURES[key] = label.texture
    return _TEXTURES[key]


def draw_text(text: str, cx: float, cy: float, size: float, colour: RGBA,
              max_w: float) -> None:
    """Centred text, made smaller until it is at most ``max_w`` wide."""
    texture = text_texture(text, size, colour)
    while texture.width > max_w and size > 7:
        size *= 0.85
        texture = text_texture(text, size, colour)
    Color(1, 1, 1, 1)
    Rectangle(texture=texture, pos=(cx - texture.width / 2, cy - texture.height / 2),
              size=texture.size)


def _polygon(cx: float, cy: float, points: list[tuple[float, float]]) -> None:
    """A filled convex polygon around its centre (a triangle fan)."""
    vertices = [cx, cy, 0, 0]
    for x, y in [*points, points[0]]:
        vertices += [x, y, 0, 0]
    Mesh(vertices=vertices, indices=list(range(len(vertices) // 4)), mode="triangle_fan")


def draw_symbol(resource: str, cx: float, cy: float, d: float, tile: RGBA = TILE) -> None:
    """A resource's shape, ``d`` across, centred on (cx, cy)."""
    colour, _, shape = RESOURCE_LOOK.get(resource, ((0.5, 0.5, 0.5, 1), INK, "coin"))
    r = d / 2
    Color(*colour)
    if shape == "coin":
        Ellipse(pos=(cx - r, cy - r), size=(d, d))
        Color(0.72, 0.55, 0.05, 1)
        Line(circle=(cx, cy, r * 0.8), width=max(1.0, d * 0.04))
    elif shape == "sun":
        core = r * 0.72
        for i in range(8):
            a = i * math.pi / 4
            b1, b2 = a - 0.22, a + 0.22
            Triangle(points=[cx + core * math.cos(b1), cy + core * math.sin(b1),
                             cx + core * math.cos(b2), cy + core * math.sin(b2),
                             cx + r * math.cos(a), cy + r * math.sin(a)])
        Ellipse(pos=(cx - core, cy - core), size=(2 * core, 2 * core))
    elif shape == "moon":
        Ellipse(pos=(cx - r, cy - r), size=(d, d))
        Color(*tile)
        bite = r * 0.62
        Ellipse(pos=(cx + r * 0.55 - bite, cy + r * 0.5 - bite), size=(2 * bite, 2 * bite))
    elif shape == "star":
        points = []
        for i in range(10):
            a = math.pi / 2 + i * math.pi / 5
            rr = r if i % 2 == 0 else r * 0.5
            points.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
        _polygon(cx, cy, points)
    elif shape == "hexagon":
        _polygon(cx, cy, [(cx + r * math.cos(a), cy + r * math.sin(a))
                          for a in (math.pi / 6 + i * math.pi / 3 for i in range(6))])
    else:  # diamond
        _polygon(cx, cy, [(cx, cy + r), (cx + r * 0.8, cy), (cx, cy - r), (cx - r * 0.8, cy)])


def draw_mark(mark: Mark, cx: float, cy: float, d: float, tile: RGBA = TILE) -> None:
    """A resource's shape with its amount written on it (nothing written for 0)."""
    draw_symbol(mark.resource, cx, cy, d, tile)
    if mark.amount:
        _, ink, shape = RESOURCE_LOOK.get(mark.resource, ((0, 0, 0, 1), INK, "coin"))
        # the moon's amount sits in its thick part; the star's a little low
        dx = -d * 0.12 if shape == "moon" else 0.0
        dy = -d * 0.06 if shape in ("moon", "star") else 0.0
        size = d * (0.5 if shape in ("star", "sun") else 0.58)
        draw_text(str(mark.amount), cx + dx, cy + dy, size, ink, d * 0.8)


def mark_places(count: int, x: float, y: float, side: float
                ) -> list[tuple[float, float, float]]:
    """Where ``count`` marks go in a square (x, y, side): (cx, cy, size) each."""
    c = side / 2
    if count <= 1:
        return [(x + c, y + c, side * 0.74)]
    if count == 2:
        return [(x + side * 0.27, y + c, side * 0.46), (x + side * 0.73, y + c, side * 0.46)]
    if count == 3:
        return [(x + side * 0.27, y + side * 0.72, side * 0.42),
                (x + side * 0.73, y + side * 0.72, side * 0.42),
                (x + c, y + side * 0.27, side * 0.42)]
    return [(x + side * (0.27 + 0.46 * (i % 2)), y + side * (0.73 - 0.46 * (i // 2)),
             side * 0.42) for i in range(4)]


def draw_face(art: FaceArt, x: float, y: float, side: float, dim: bool = False) -> None:
    """A face's picture in the square (x, y, side)."""
    fade = 1.0  # drawn whole; a face out of reach is veiled at the end
    tile = SIDE_COLOUR.get(art.colour, TILE)
    Color(*TILE_EDGE[:3], fade)
    RoundedRectangle(pos=(x, y), size=(side, side), radius=[side * 0.16])
    Color(*tile[:3], fade)
    inset = max(1.0, side * 0.035)
    RoundedRectangle(pos=(x + inset, y + inset), size=(side - 2 * inset, side - 2 * inset),
                     radius=[side * 0.14])
    inner = side * 0.86
    ix, iy = x + (side - inner) / 2, y + (side - inner) / 2
    word_h = 0.0
    if art.word and art.marks:
        lines = art.word.count("\n") + 1
        word_h = inner * (0.3 if lines == 1 else 0.4)
        draw_text(art.word, x + side / 2, iy + word_h / 2, inner * 0.19,
                  (*INK[:3], fade), inner)
    elif art.word:
        lines = art.word.count("\n") + 1
        draw_text(art.word, x + side / 2, y + side / 2, inner * (0.34 if lines == 1 else 0.24),
                  (*INK[:3], fade), inner * 0.96)
    marks = art.marks[:4]
    if marks:
        area = inner - word_h
        mx = ix + (inner - area) / 2
        places = mark_places(len(marks), mx, iy + word_h, area)
        for mark, (cx, cy, d) in zip(marks, places, strict=True):
            draw_mark(mark, cx, cy, d, tile)
        if art.choice:  # the slashes between options
            Color(*INK[:3], 0.55 * fade)
            for (ax, ay, _), (bx, by, _) in itertools.pairwise(places):
                mx2, my2 = (ax + bx) / 2, (ay + by) / 2
                h = area * 0.14
                Line(points=[mx2 - h * 0.35, my2 - h, mx2 + h * 0.35, my2 + h],
                     width=max(1.0, side * 0.02))
    if dim:  # a veil keeps the shapes readable but plainly out of reach
        Color(0.17, 0.18, 0.21, 0.62)
        RoundedRectangle(pos=(x, y), size=(side, side), radius=[side * 0.16])


class FacePainter:
    """Draws one face on ``widget`` (its ``canvas.after``), in the widget's left part when the
    widget also shows a caption on the right; redraws when the widget moves or resizes."""

    def __init__(self, widget: Any, face: str | None = None, *, dim: bool = False,
                 caption_room: float = 0.0, pad: float = 4.0) -> None:
        self.widget = widget
        self.face = face
        self.dim = dim
        self.caption_room = caption_room
        self.pad = pad
        widget.bind(pos=self.redraw, size=self.redraw)
        self.redraw()

    @property
    def art(self) -> FaceArt | None:
        return face_art(self.face) if self.face else None

    def leave_room(self, width: float) -> None:
        """Keep ``width`` on the right for the widget's own text (a caption)."""
        if abs(width - self.caption_room) > 0.5:
            self.caption_room = width
            self.redraw()

    def show(self, face: str | None, dim: bool = False) -> None:
        if (face, dim) != (self.face, self.dim):
            self.face, self.dim = face, dim
            self.redraw()

    def redraw(self, *_: Any) -> None:
        w = self.widget
        canvas = w.canvas.after
        canvas.clear()
        art = self.art
        if art is None or w.width < 8 or w.height < 8:
            return
        room_w = w.width - self.caption_room - 2 * self.pad
        side = max(4.0, min(room_w, w.height - 2 * self.pad))
        x = w.x + self.pad + (room_w - side) / 2
        y = w.y + (w.height - side) / 2
        with canvas:
            draw_face(art, x, y, side, self.dim)


class SymbolPainter:
    """One resource's symbol (no amount) centred in ``widget``: the panels' reserves."""

    def __init__(self, widget: Any, resource: str, tile: RGBA = (0.16, 0.17, 0.20, 1)) -> None:
        self.widget = widget
        self.resource = resource
        self.tile = tile  # the colour behind (the moon's bite)
        widget.bind(pos=self.redraw, size=self.redraw)
        self.redraw()

    def set_tile(self, tile: RGBA) -> None:
        if tuple(tile) != tuple(self.tile):
            self.tile = tuple(tile)  # type: ignore[assignment]
            self.redraw()

    def redraw(self, *_: Any) -> None:
        w = self.widget
        w.canvas.after.clear()
        d = min(w.width, w.height) * 0.86
        if d < 4:
            return
        with w.canvas.after:
            # (x + width / 2: Kivy's center may lag behind a size change here)
            draw_symbol(self.resource, w.x + w.width / 2, w.y + w.height / 2, d, self.tile)


__all__ = ["FacePainter", "SymbolPainter", "draw_face", "face_art", "text_texture"]
