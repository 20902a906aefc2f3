"""A synthetic renderer of dice scenes with ground truth, for tests and the demo camera.

A :class:`Scene` is a frozen description (every random choice already made by
:func:`random_scene`), so :func:`render` draws the same picture for the same scene; only optional
sensor noise comes from the ``rng`` given to :func:`render`. Animating a roll is just
``dataclasses.replace`` on the dice and another ``render``.

Dice are drawn in a flat "table plane"; a scene ``homography`` then warps the whole picture to
give perspective, and :meth:`Scene.truth` reports where each die ends up in the image.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

Point = tuple[float, float]
BGR = tuple[int, int, int]
Frame = npt.NDArray[np.uint8]
AnyArray = npt.NDArray[Any]

_SHIFT = 4  # sub-pixel bits for OpenCV drawing
_ONE = 1 << _SHIFT

#: Pip positions per value, in units of half the die side (die spans -1..1).
PIP_LAYOUT: dict[int, tuple[Point, ...]] = {
    1: ((0.0, 0.0),),
    2: ((-0.5, -0.5), (0.5, 0.5)),
    3: ((-0.5, -0.5), (0.0, 0.0), (0.5, 0.5)),
    4: ((-0.5, -0.5), (0.5, -0.5), (-0.5, 0.5), (0.5, 0.5)),
    5: ((-0.5, -0.5), (0.5, -0.5), (0.0, 0.0), (-0.5, 0.5), (0.5, 0.5)),
    6: ((-0.5, -0.5), (0.5, -0.5), (-0.5, 0.0), (0.5, 0.0), (-0.5, 0.5), (0.5, 0.5)),
}

#: Icon faces per game. Eye for an Eye's six action icons; Dice Forge faces (resource kind and
#: amount, plus the Garden's special faces) drawn as simple distinct glyphs.
ICON_SETS: dict[str, tuple[str, ...]] = {
    "eye-for-an-eye": ("movement", "attack", "defence", "heal", "ready", "resolve"),
    "dice-forge": (
        "1-gold", "3-gold", "4-gold", "6-gold", "1-sun", "2-sun", "1-moon", "2-moon",
        "2-glory", "3-glory", "4-glory", "triple", "mirror", "ship",
    ),
}

#: Body colours the renderer uses per colour name (base BGR before per-die jitter).
SYNTH_COLOURS: dict[str, BGR] = {
    "white": (228, 230, 232), "black": (35, 35, 38), "red": (40, 35, 200),
    "green": (60, 160, 40), "blue": (190, 100, 25), "yellow": (40, 210, 235),
    "purple": (140, 45, 110), "orange": (30, 120, 240), "pink": (175, 110, 240),
    "grey": (140, 140, 140), "gold": (55, 150, 195),
}
_DARK_BODIES = {"black", "red", "green", "blue", "purple", "grey"}

#: What a die is made of (:class:`SynthDie`.material): "solid" plastic; "marbled" swirls of a
#: second colour (``body2_bgr``); "glitter" sparkles in the plastic; "translucent" plastic the
#: table shows through; "metallic" (cast metal: a strong sheen across the face).
MATERIALS: tuple[str, ...] = ("solid", "marbled", "glitter", "translucent", "metallic")
#: Painted pips of fancy dice: gold, silver, orange, copper (BGR)
PAINTED_PIPS: tuple[BGR, ...] = ((40, 175, 215), (200, 200, 200), (30, 130, 240), (60, 110, 185))


@dataclass(frozen=True)
class SynthDie:
    """One die to draw. ``value`` for pip faces, ``face`` for icon faces (one of the two)."""

    center: Point
    size: float
    angle: float = 0.0
    value: int | None = None
    face: str | None = None
    colour: str = "white"
    body_bgr: BGR = (228, 230, 232)
    pip_bgr: BGR = (30, 30, 30)
    pip_scale: float = 1.0
    corner_round: float = 0.18
    cocked: bool = False
    lift: float = 0.0
    stacked: bool = False
    highlight: float = 0.0
    side_values: tuple[int, int, int, int] = (2, 3, 5, 4)
    material: str = "solid"
    body2_bgr: BGR = (0, 0, 0)
    material_seed: int = 0

    def __post_init__(self) -> None:
        if self.material not in MATERIALS:
            raise ValueError(f"SynthDie.material must be one of {MATERIALS}, "
                             f"got {self.material!r}")
        if (self.value is None) == (self.face is None):
            raise ValueError(
                f"SynthDie needs exactly one of value or face, got value={self.value!r} "
                f"face={self.face!r}"
            )
        if self.value is not None and not 1 <= self.value <= 6:
            raise ValueError(f"SynthDie.value must be 1..6, got {self.value!r}")
        if self.face is not None and not any(self.face in s for s in ICON_SETS.values()):
            raise ValueError(f"SynthDie.face {self.face!r} is in no ICON_SETS entry")
        if not self.size > 2:
            raise ValueError(f"SynthDie.size must be > 2 px, got {self.size!r}")
        if not 0.0 <= self.highlight <= 1.0:
            raise ValueError(f"SynthDie.highlight must be 0..1, got {self.highlight!r}")

    @property
    def label(self) -> str:
        """The face label: the value as text for pip dice, the icon name otherwise."""
        return str(self.value) if self.value is not None else str(self.face)

    def corners(self) -> npt.NDArray[np.float64]:
        """The four corners (4x2) of the die's square outline in the table plane."""
        return _square(self.center, self.size, self.angle)


@dataclass(frozen=True)
class Clutter:
    """A non-die object on the table: ``kind`` is "rect", "line" or "blob"."""

    kind: str
    points: tuple[Point, ...]
    bgr: BGR
    thickness: int = 2


#: Kinds of :class:`Prop`: the things beside dice on a real table that are not dice.
PROP_KINDS: tuple[str, ...] = ("hex", "token", "card", "meeple", "coin", "snap", "stitch")


@dataclass(frozen=True)
class Prop:
    """A game piece or tray detail that is not a die, drawn in the table plane.

    ``kind`` is one of :data:`PROP_KINDS`: a board's hex tile (``bgr`` its land, ``bgr2`` its
    rim), a round number token (``text`` its number, drawn in ``bgr2`` with dots below), a
    card, a meeple, a coin, a tray's metal snap, or a line of stitching along ``size`` px.
    """

    kind: str
    center: Point
    size: float
    angle: float = 0.0
    bgr: BGR = (200, 200, 200)
    bgr2: BGR = (30, 30, 30)
    text: str = ""

    def __post_init__(self) -> None:
        if self.kind not in PROP_KINDS:
            raise ValueError(f"Prop.kind must be one of {PROP_KINDS}, got {self.kind!r}")
        if not self.size > 0:
            raise ValueError(f"Prop.size must be > 0 px, got {self.size!r}")


#: Table surfaces :func:`random_scene` can draw (``surface=``); "plain" is a flat colour.
SURFACES: tuple[str, ...] = ("plain", "felt", "cloth", "mat", "wood")


@dataclass(frozen=True)
class Surface:
    """A textured table top. ``kind`` is one of :data:`SURFACES`; ``bgr2`` the pattern's second
    colour (mats, wood grain); ``seed`` fixes the texture; ``scale`` its grain in px."""

    kind: str
    bgr: BGR
    bgr2: BGR = (0, 0, 0)
    seed: int = 0
    scale: float = 24.0

    def __post_init__(self) -> None:
        if self.kind not in SURFACES:
            raise ValueError(f"Surface.kind must be one of {SURFACES}, got {self.kind!r}")
        if not self.scale > 1:
            raise ValueError(f"Surface.scale must be > 1 px, got {self.scale!r}")


@dataclass(frozen=True)
class Tray:
    """A dice tray: its floor is ``inner`` (x0, y0, x1, y1 in the table plane), walls
    ``wall`` px wide around it in ``wall_bgr``, casting a shadow ``wall_shadow`` (0..1) onto
    the floor along the side away from the light. Walls ``height`` px high show their inner
    face on the far side when the camera is tilted (the scene's ``tilt``)."""

    inner: tuple[float, float, float, float]
    wall: float
    wall_bgr: BGR
    wall_shadow: float = 0.4
    height: float = 0.0  # the walls' height above the floor, px (0: drawn flat, from above)


@dataclass(frozen=True)
class TruthDie:
    """Where a synthetic die ends up in the rendered image."""

    center: Point
    size: float
    angle: float
    value: int | None
    face: str | None
    colour: str
    readable: bool


@dataclass(frozen=True)
class Scene:
    """Everything needed to draw one frame; no randomness is left to :func:`render` but noise."""

    width: int
    height: int
    dice: tuple[SynthDie, ...]
    background_bgr: BGR = (200, 200, 200)
    gradient: tuple[float, float] = (0.0, 0.0)
    light_dir: tuple[float, float] = (0.5, 0.8)
    shadow: float = 0.35
    clutter: tuple[Clutter, ...] = field(default=())
    homography: tuple[float, ...] | None = None
    noise: float = 0.0
    blur: float = 0.0
    hand: tuple[Point, ...] | None = None
    hand_bgr: BGR = (120, 150, 200)
    surface: Surface | None = None
    tray: Tray | None = None
    tilt: float = 0.0
    plane: tuple[int, int] | None = None
    glare: tuple[float, float, float, float] | None = None
    props: tuple[Prop, ...] = ()

    def __post_init__(self) -> None:
        if not (isinstance(self.width, int) and isinstance(self.height, int)
                and self.width >= 16 and self.height >= 16):
            raise ValueError(f"Scene size must be ints >= 16, got {self.width}x{self.height}")
        if not 0.0 <= self.tilt < 80.0:
            raise ValueError(f"Scene.tilt must be 0..80 degrees from straight down, "
                             f"got {self.tilt!r}")
        if self.plane is not None and not (self.plane[0] >= 16 and self.plane[1] >= 16):
            raise ValueError(f"Scene.plane must be (width, height) >= 16, got {self.plane!r}")
        if self.homography is not None and len(self.homography) != 9:
            raise ValueError(f"Scene.homography must have 9 numbers, got {self.homography!r}")

    def matrix(self) -> npt.NDArray[np.float64] | None:
        if self.homography is None:
            return None
        return np.array(self.homography, np.float64).reshape(3, 3)

    def truth(self) -> tuple[TruthDie, ...]:
        """Each die as it appears in the rendered image (after the perspective warp)."""
        h = self.matrix()
        out = []
        for d in self.dice:
            c: AnyArray = d.corners()
            if h is not None:
                c = cv2.perspectiveTransform(c.reshape(-1, 1, 2), h).reshape(-1, 2)
            cx, cy = (float(v) for v in c.mean(axis=0))
            side = float(np.mean(np.linalg.norm(c - np.roll(c, 1, axis=0), axis=1)))
            e = c[1] - c[0]
            ang = math.degrees(math.atan2(float(e[1]), float(e[0])))
            inside = (c[:, 0].min() >= 1 and c[:, 1].min() >= 1
                      and c[:, 0].max() <= self.width - 2 and c[:, 1].max() <= self.height - 2)
            # a die with another stacked on it is hidden; a stacked die is no roll either
            under = any(e.stacked and e is not d
                        and math.dist(e.center, d.center) < 0.8 * d.size for e in self.dice)
            out.append(TruthDie((cx, cy), side, ang, d.value, d.face, d.colour,
                                readable=inside and not (d.cocked or d.stacked or under)))
        return tuple(out)


# --------------------------------------------------------------------------- geometry


def _rot(angle_deg: float) -> npt.NDArray[np.float64]:
    a = math.radians(angle_deg)
    return np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])


def _square(center: Point, size: float, angle: float) -> npt.NDArray[np.float64]:
    unit = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], np.float64) * (size / 2)
    return unit @ _rot(angle).T + np.asarray(center, np.float64)


@functools.lru_cache(maxsize=8)
def _rounded_unit(r: float) -> npt.NDArray[np.float64]:
    """Outline of a rounded square spanning -1..1 with corner radius r, as points."""
    pts = []
    for cx, cy, a0 in ((1, 1, 0), (-1, 1, 90), (-1, -1, 180), (1, -1, 270)):
        for k in range(6):
            a = math.radians(a0 + 90 * k / 5)
            pts.append((cx * (1 - r) + r * math.cos(a), cy * (1 - r) + r * math.sin(a)))
    return np.array(pts)


def _to_px(unit_pts: npt.NDArray[np.float64], d: SynthDie) -> npt.NDArray[np.int32]:
    p = unit_pts * (d.size / 2) @ _rot(d.angle).T + np.asarray(d.center)
    return np.asarray(np.round(p * _ONE), dtype=np.int32)


# --------------------------------------------------------------------------- glyphs


def _star(n: int, r_out: float, r_in: float) -> npt.NDArray[np.float64]:
    pts = []
    for k in range(2 * n):
        r = r_out if k % 2 == 0 else r_in
        a = math.pi * k / n - math.pi / 2
        pts.append((r * math.cos(a), r * math.sin(a)))
    return np.array(pts)


def _poly(*pts: Point) -> npt.NDArray[np.float64]:
    return np.array(pts, np.float64)


def _circle_poly(cx: float, cy: float, r: float, n: int = 14) -> npt.NDArray[np.float64]:
    a = np.linspace(0, 2 * math.pi, n, endpoint=False)
    return np.stack([cx + r * np.cos(a), cy + r * np.sin(a)], axis=1)


# A glyph is a list of (polygon in die units, ink?) pairs drawn in order: ink=True draws in
# the pip colour, ink=False cuts back to the body colour (holes, crescents).
Glyph = list[tuple[npt.NDArray[np.float64], bool]]


def _resource(kind: str, x: float, y: float, s: float) -> Glyph:
    if kind == "gold":
        return [(_circle_poly(x, y, s), True), (_circle_poly(x, y, s * 0.45), False)]
    if kind == "sun":
        return [(_poly((x, y - s), (x + s * 0.95, y + s * 0.8), (x - s * 0.95, y + s * 0.8)),
                 True)]
    if kind == "moon":
        return [(_circle_poly(x, y, s), True), (_circle_poly(x + s * 0.5, y - s * 0.2, s * 0.8),
                                                 False)]
    # glory: a diamond
    return [(_poly((x, y - s * 1.1), (x + s * 0.8, y), (x, y + s * 1.1), (x - s * 0.8, y)), True)]


@functools.lru_cache(maxsize=64)
def _glyph(face: str) -> Glyph:
    e4e: dict[str, Glyph] = {
        "movement": [(_poly((-0.6, -0.15), (0.1, -0.15), (0.1, -0.45), (0.65, 0.0),
                            (0.1, 0.45), (0.1, 0.15), (-0.6, 0.15)), True)],
        "attack": [(_poly((-0.55, -0.4), (-0.4, -0.55), (0.55, 0.4), (0.4, 0.55)), True),
                   (_poly((0.55, -0.4), (0.4, -0.55), (-0.55, 0.4), (-0.4, 0.55)), True)],
        "defence": [(_poly((-0.5, -0.55), (0.5, -0.55), (0.5, 0.05), (0.0, 0.6),
                           (-0.5, 0.05)), True),
                    (_poly((-0.25, -0.35), (0.25, -0.35), (0.25, 0.0), (0.0, 0.3),
                           (-0.25, 0.0)), False)],
        "heal": [(_poly((-0.17, -0.6), (0.17, -0.6), (0.17, -0.17), (0.6, -0.17), (0.6, 0.17),
                        (0.17, 0.17), (0.17, 0.6), (-0.17, 0.6), (-0.17, 0.17), (-0.6, 0.17),
                        (-0.6, -0.17), (-0.17, -0.17)), True)],
        "ready": [(_circle_poly(0, 0, 0.55, 20), True), (_circle_poly(0, 0, 0.35, 20), False),
                  (_circle_poly(0, 0, 0.15, 10), True)],
        "resolve": [(_star(5, 0.62, 0.25), True)],
    }
    if face in e4e:
        return e4e[face]
    special: dict[str, Glyph] = {
        "triple": [(_poly((-0.5, -0.35), (-0.35, -0.5), (0.5, 0.35), (0.35, 0.5)), True),
                   (_poly((0.5, -0.35), (0.35, -0.5), (-0.5, 0.35), (-0.35, 0.5)), True),
                   (_circle_poly(0, 0, 0.2), False)],
        "mirror": [(_circle_poly(0, 0, 0.6, 6), True), (_circle_poly(0, 0, 0.42, 6), False),
                   (_circle_poly(0, 0, 0.18, 6), True)],
        "ship": [(_poly((-0.6, 0.15), (0.6, 0.15), (0.35, 0.5), (-0.35, 0.5)), True),
                 (_poly((-0.05, 0.1), (-0.05, -0.6), (0.45, 0.05)), True)],
    }
    if face in special:
        return special[face]
    n_txt, kind = face.split("-")
    out: Glyph = []
    s = 0.22 if int(n_txt) <= 4 else 0.17
    for x, y in PIP_LAYOUT[int(n_txt)]:
        out.extend(_resource(kind, x * 1.05, y * 1.05, s))
    return out


# --------------------------------------------------------------------------- rendering


# A camera renders each scene many times over (dice rolling, then at rest), one background
# per scene; two are enough and keep the stand-in camera's memory small (0.9 MB at 640x480).
@functools.lru_cache(maxsize=2)
def _background(w: int, h: int, bgr: BGR, gradient: tuple[float, float]) -> Frame:
    strength, direction = gradient
    a = math.radians(direction)
    # a linear ramp across the frame, built from one row and one column (no full-size grids)
    k = np.float32(strength / max(w, h))
    col = (np.arange(w, dtype=np.float32) - w / 2) * np.float32(math.cos(a)) * k
    row = (np.arange(h, dtype=np.float32) - h / 2) * np.float32(math.sin(a)) * k
    gain = 1.0 + row[:, None] + col[None, :]
    out = np.empty((h, w, 3), np.uint8)
    for c, v in enumerate(bgr):
        out[:, :, c] = np.clip(gain * np.float32(v), 0, 255)
    out.setflags(write=False)
    return out


@functools.lru_cache(maxsize=2)
def _texture(w: int, h: int, surface: Surface, gradient: tuple[float, float]) -> Frame:
    """The table top ``surface`` (w x h), lit by the scene's ``gradient``; fixed by its seed."""
    rng = np.random.default_rng(surface.seed)
    base = np.asarray(surface.bgr, np.float32)
    alt = np.asarray(surface.bgr2, np.float32)

    def smooth(cell: float) -> AnyArray:
        """Smooth noise of about N(0, 1) with features ``cell`` px apart."""
        gw, gh = max(2, int(w / cell) + 2), max(2, int(h / cell) + 2)
        g = rng.standard_normal((gh, gw)).astype(np.float32)
        return cv2.resize(g, (w, h), interpolation=cv2.INTER_CUBIC)

    fine = cv2.GaussianBlur(rng.standard_normal((h, w)).astype(np.float32), (0, 0), 0.8) * 2.0
    sc = surface.scale
    mix: AnyArray | None = None
    if surface.kind == "felt":  # fibres and a slightly uneven nap
        gain = 1.0 + 0.05 * smooth(sc * 4) + 0.08 * fine
    elif surface.kind == "cloth":  # a visible weave
        p = max(2.5, sc / 6)
        xx = np.arange(w, dtype=np.float32)[None, :]
        yy = np.arange(h, dtype=np.float32)[:, None]
        weave = np.sin(2 * np.pi * xx / p) * np.sin(2 * np.pi * yy / p)
        gain = 1.0 + 0.08 * weave + 0.04 * smooth(sc * 3) + 0.05 * fine
    elif surface.kind == "wood":  # grain along x, boards of a few dice
        grain = np.arange(h, dtype=np.float32)[:, None] + 6.0 * smooth(sc * 3)
        mix = (0.5 + 0.5 * np.sin(2 * np.pi * grain / (sc * 0.4))) ** 3 * 0.6
        gain = 1.0 + 0.04 * fine
        for seam in range(int(rng.integers(0, int(sc * 4) + 1)), w, int(sc * 6)):
            gain[:, seam:seam + 2] *= 0.6
    elif surface.kind == "mat":  # a printed playmat: shapes about a die in size
        ink: AnyArray = np.zeros((h, w), np.uint8)
        n = int(w * h / (sc * sc) * 0.6)
        for _ in range(n):
            x, y = float(rng.uniform(0, w)), float(rng.uniform(0, h))
            r = float(rng.uniform(0.3, 1.6) * sc)
            kind = int(rng.integers(4))
            th = int(rng.integers(1, 4))
            if kind == 0:
                cv2.circle(ink, (int(x), int(y)), int(r), 255, th, cv2.LINE_AA)
            elif kind == 1:
                poly = _circle_poly(x, y, r, int(rng.integers(3, 7)))
                cv2.polylines(ink, [poly.astype(np.int32)], True, 255, th, cv2.LINE_AA)
            elif kind == 2:
                a = float(rng.uniform(0, math.pi))
                cv2.line(ink, (int(x - r * math.cos(a)), int(y - r * math.sin(a))),
                         (int(x + r * math.cos(a)), int(y + r * math.sin(a))), 255, th,
                         cv2.LINE_AA)
            else:
                cv2.ellipse(ink, ((x, y), (r, r * float(rng.uniform(0.3, 1.0))),
                                  float(rng.uniform(0, 180))), 255, -1, cv2.LINE_AA)
        mix = ink.astype(np.float32) / 255.0 * float(rng.uniform(0.3, 0.9))
        gain = 1.0 + 0.04 * smooth(sc * 4) + 0.04 * fine
    else:
        gain = np.ones((h, w), np.float32) + 0.02 * fine
    strength, direction = gradient
    a = math.radians(direction)
    k = np.float32(strength / max(w, h))
    col = (np.arange(w, dtype=np.float32) - w / 2) * np.float32(math.cos(a)) * k
    row = (np.arange(h, dtype=np.float32) - h / 2) * np.float32(math.sin(a)) * k
    gain = gain * (1.0 + row[:, None] + col[None, :])
    out = np.empty((h, w, 3), np.uint8)
    for c in range(3):
        v = np.full((h, w), base[c], np.float32) if mix is None else \
            base[c] * (1.0 - mix) + alt[c] * mix
        out[:, :, c] = np.clip(v * gain, 0, 255)
    out.setflags(write=False)
    return out


def _draw_tray(img: AnyArray, tray: Tray, light: tuple[float, float],
              tilt: float = 0.0) -> AnyArray:
    """Walls around the tray's floor, and their soft shadow on the floor; seen ``tilt``
    degrees from straight down, the far wall's inner face (standing ``tray.height`` px) over
    the far edge of the floor, darker towards the floor."""
    h, w = img.shape[:2]
    x0, y0, x1, y1 = tray.inner
    floor = np.zeros((h, w), np.uint8)
    cv2.rectangle(floor, (int(x0), int(y0)), (int(x1), int(y1)), 255, -1)
    # the walls shade the floor on the side they stand between it and the light
    lx, ly = light
    m = np.array([[1, 0, lx * tray.wall * 0.8], [0, 1, ly * tray.wall * 0.8]], np.float32)
    lit = cv2.warpAffine(floor, m, (w, h), borderValue=0)
    k = int(tray.wall) // 2 * 2 + 1
    lit = cv2.GaussianBlur(lit, (k, k), 0)
    shade = 1.0 - tray.wall_shadow * (1.0 - lit.astype(np.float32) / 255.0)
    out = (img.astype(np.float32) * shade[:, :, None]).astype(np.uint8)
    wall = np.empty_like(out)
    wall[:] = tray.wall_bgr
    # the wall's top, lighter towards the floor's rim
    rim = cv2.dilate(floor, cv2.getStructuringElement(cv2.MORPH_RECT, (5, 5)))
    out = np.where(floor[:, :, None] > 0, out, wall)
    edge = (rim > 0) & (floor == 0)
    out[edge] = np.clip(np.asarray(tray.wall_bgr, np.float32) * 1.3, 0, 255).astype(np.uint8)
    band = tray.height * math.tan(math.radians(tilt))
    if band >= 1.0:
        ya, yb = max(0, int(y0)), min(h, int(y0 + band))
        xa, xb = max(0, int(x0)), min(w, int(x1) + 1)
        if yb > ya and xb > xa:
            ramp = np.linspace(0.85, 0.55, yb - ya, dtype=np.float32)[:, None, None]
            face = np.asarray(tray.wall_bgr, np.float32)[None, None, :] * ramp
            out[ya:yb, xa:xb] = np.clip(np.broadcast_to(face, (yb - ya, xb - xa, 3)),
                                        0, 255).astype(np.uint8)
    return np.asarray(out, np.uint8)


def _draw_prop(img: AnyArray, p: Prop) -> None:
    """Draw one :class:`Prop` in the table plane (in place)."""
    cx, cy = p.center
    r = p.size / 2

    def poly(unit: AnyArray, bgr: BGR) -> None:
        pts = (_rot(p.angle) @ unit.T).T * r + np.array([cx, cy])
        cv2.fillPoly(img, [np.round(pts * _ONE).astype(np.int32)], bgr, cv2.LINE_AA, _SHIFT)

    if p.kind == "hex":
        a = np.radians(np.arange(6) * 60.0 + 30.0)
        unit = np.stack([np.cos(a), np.sin(a)], axis=1)
        poly(unit, p.bgr2)
        poly(unit * 0.93, p.bgr)
    elif p.kind in ("token", "coin", "snap"):
        c = (round(cx * _ONE), round(cy * _ONE))
        cv2.circle(img, c, round(r * _ONE), p.bgr, -1, cv2.LINE_AA, _SHIFT)
        if p.kind == "token":
            scale = max(0.25, p.size / 60.0)
            (tw, th), _b = cv2.getTextSize(p.text, cv2.FONT_HERSHEY_SIMPLEX, scale, 2)
            cv2.putText(img, p.text, (int(cx - tw / 2), int(cy + th / 2 - r * 0.1)),
                        cv2.FONT_HERSHEY_SIMPLEX, scale, p.bgr2, max(1, round(scale * 2.2)),
                        cv2.LINE_AA)
            dots = max(1, 6 - abs(7 - int(p.text))) if p.text.isdigit() else 0
            for k in range(dots):
                dx = (k - (dots - 1) / 2) * r * 0.16
                cv2.circle(img, (round((cx + dx) * _ONE), round((cy + r * 0.55) * _ONE)),
                           max(1, round(r * 0.06 * _ONE)), p.bgr2, -1, cv2.LINE_AA, _SHIFT)
        elif p.kind == "coin":
            cv2.circle(img, c, round(r * 0.78 * _ONE), p.bgr2, max(1, round(r * 0.08)),
                       cv2.LINE_AA, _SHIFT)
        else:  # a metal snap: a ring and a lamp's highlight
            cv2.circle(img, c, round(r * 0.6 * _ONE), p.bgr2, max(1, round(r * 0.15)),
                       cv2.LINE_AA, _SHIFT)
            cv2.circle(img, (round((cx - r * 0.3) * _ONE), round((cy - r * 0.3) * _ONE)),
                       round(r * 0.22 * _ONE), (245, 245, 245), -1, cv2.LINE_AA, _SHIFT)
    elif p.kind == "card":
        unit = np.array([[-0.7, -1.0], [0.7, -1.0], [0.7, 1.0], [-0.7, 1.0]])
        poly(unit, p.bgr2)
        poly(unit * 0.86, p.bgr)
        poly(np.array([[-0.4, -0.6], [0.4, -0.6], [0.4, 0.1], [-0.4, 0.1]]), p.bgr2)
    elif p.kind == "meeple":
        unit = np.array([[0.0, -1.0], [0.3, -0.85], [0.3, -0.5], [1.0, -0.25], [0.9, 0.05],
                         [0.4, 0.0], [0.7, 1.0], [0.2, 1.0], [0.0, 0.5], [-0.2, 1.0],
                         [-0.7, 1.0], [-0.4, 0.0], [-0.9, 0.05], [-1.0, -0.25], [-0.3, -0.5],
                         [-0.3, -0.85]])
        poly(unit, p.bgr)
    else:  # stitching: short dashes along a line of length size
        d = _rot(p.angle) @ np.array([1.0, 0.0])
        step = max(4.0, p.size / 40)
        for k in range(int(p.size / step / 2)):
            a0 = np.array([cx, cy]) + d * (-r + 2 * k * step)
            a1 = a0 + d * step
            cv2.line(img, (round(a0[0] * _ONE), round(a0[1] * _ONE)),
                     (round(a1[0] * _ONE), round(a1[1] * _ONE)), p.bgr, 2, cv2.LINE_AA, _SHIFT)


def _pips_in_quad(img: AnyArray, quad: npt.NDArray[np.float64], value: int, ink: BGR,
                  r_unit: float) -> None:
    """Pips of ``value`` drawn on a side face seen as the parallelogram ``quad`` (4x2)."""
    a, b, _c, d = quad
    mid = quad.mean(axis=0)
    eu, ev = (b - a) / 2, (d - a) / 2
    circle = _circle_poly(0.0, 0.0, r_unit, 12)
    for u, v in PIP_LAYOUT[value]:
        pts = mid + (u * 1.05 + circle[:, 0:1]) * eu + (v * 1.05 + circle[:, 1:2]) * ev
        cv2.fillPoly(img, [np.round(pts * _ONE).astype(np.int32)], ink, cv2.LINE_AA, _SHIFT)


def _draw_die(img: AnyArray, d: SynthDie, ext: tuple[float, float] = (0.0, 0.0)) -> None:
    """One die: its visible side faces (a die seen obliquely, offset ``ext`` from its top face
    to its base, or a cocked die leaning on one side), then the top face and its pips."""
    body = np.asarray(d.body_bgr, np.float64)
    ink = tuple(int(v) for v in d.pip_bgr)
    body_c = tuple(int(v) for v in body)
    rot = _rot(d.angle)
    centre = np.asarray(d.center, np.float64)
    half = d.size / 2
    unit_top = _rounded_unit(d.corner_round)
    squash = np.array([1.0, 1.0])
    sides: list[tuple[npt.NDArray[np.float64], float, int]] = []  # quad, shade, value
    if d.cocked:  # leaning at ~40 degrees: the top face narrows, one side face shows
        q = 0.75
        squash = np.array([q, 1.0])
        centre = centre - rot @ np.array([(1 - q) * half, 0.0])
        e = rot @ np.array([1.0, 0.0]) * d.size * 0.64
        top_edge = np.array([[q, -1.0], [q, 1.0]]) * half @ rot.T + centre
        sides.append((np.array([top_edge[0], top_edge[1], top_edge[1] + e, top_edge[0] + e]),
                      0.62, d.side_values[0]))
    ev = np.asarray(ext, np.float64)
    if np.hypot(*ev) > 0.5:
        corners = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], np.float64) * half * squash
        corners = corners @ rot.T + centre
        for k in range(4):
            a, b = corners[k], corners[(k + 1) % 4]
            normal = np.array([b[1] - a[1], a[0] - b[0]])  # outward for clockwise-in-image
            if float(normal @ ev) > 0:
                cosang = float(normal @ ev) / (np.hypot(*normal) * np.hypot(*ev))
                sides.append((np.array([a, b, b + ev, a + ev]), 0.45 + 0.35 * cosang,
                              d.side_values[k]))
        # the solid between top and base (rounded edges), then each face on it
        out = unit_top * half * squash @ rot.T + centre
        hull = cv2.convexHull(np.vstack([out, out + ev]).astype(np.float32))
        cv2.fillPoly(img, [np.round(hull.reshape(-1, 2) * _ONE).astype(np.int32)],
                     tuple(int(v) for v in body * 0.5), cv2.LINE_AA, _SHIFT)
    r_pip = 0.17 * d.pip_scale
    for quad, shade, val in sides:
        inset = quad.mean(axis=0) + (quad - quad.mean(axis=0)) * 0.9
        cv2.fillPoly(img, [np.round(quad * _ONE).astype(np.int32)],
                     tuple(int(v) for v in body * shade * 0.8), cv2.LINE_AA, _SHIFT)
        cv2.fillPoly(img, [np.round(inset * _ONE).astype(np.int32)],
                     tuple(int(v) for v in body * shade), cv2.LINE_AA, _SHIFT)
        if d.value is not None:
            ib, ig, ir = (int(v * shade) for v in ink)
            _pips_in_quad(img, quad, val, (ib, ig, ir), r_pip)

    def px(unit: npt.NDArray[np.float64]) -> npt.NDArray[np.int32]:
        p = unit * half * squash @ rot.T + centre
        return np.asarray(np.round(p * _ONE), dtype=np.int32)

    edge = tuple(int(v) for v in body * 0.72)
    under = _roi_copy(img, px(unit_top)) if d.material == "translucent" else None
    cv2.fillPoly(img, [px(unit_top)], edge, cv2.LINE_AA, _SHIFT)
    cv2.fillPoly(img, [px(unit_top * 0.9)], body_c, cv2.LINE_AA, _SHIFT)
    if d.material != "solid":
        _material(img, px(unit_top), d, under)
    if d.value is not None:
        r = r_pip * half
        for p in px(np.array(PIP_LAYOUT[d.value]) * 1.05):
            if d.cocked:
                cv2.ellipse(img, ((p[0] / _ONE, p[1] / _ONE), (2 * r * squash[0], 2 * r),
                                  d.angle), ink, -1, cv2.LINE_AA)
            else:
                cv2.circle(img, (int(p[0]), int(p[1])), round(r * _ONE), ink, -1,
                           cv2.LINE_AA, _SHIFT)
    else:
        for poly, is_ink in _glyph(str(d.face)):
            cv2.fillPoly(img, [px(poly)], ink if is_ink else body_c, cv2.LINE_AA, _SHIFT)
    if d.highlight > 0:  # a lamp's reflection on a glossy top face
        p = px(np.array([[0.45, -0.45]]))[0] / _ONE
        _add_light(img, (float(p[0]), float(p[1])), (half * 0.7, half * 0.35), d.angle + 45,
                   d.highlight)


def _roi_copy(img: AnyArray, poly: npt.NDArray[np.int32]
              ) -> tuple[tuple[int, int, int, int], AnyArray] | None:
    """The box (x0, y0, x1, y1) around a shifted polygon, clipped to ``img``, and a copy of
    what ``img`` shows there (None when the box is empty)."""
    h, w = img.shape[:2]
    p = poly.reshape(-1, 2) / _ONE
    x0, y0 = max(0, int(p[:, 0].min()) - 1), max(0, int(p[:, 1].min()) - 1)
    x1, y1 = min(w, int(p[:, 0].max()) + 2), min(h, int(p[:, 1].max()) + 2)
    if x1 <= x0 or y1 <= y0:
        return None
    return (x0, y0, x1, y1), img[y0:y1, x0:x1].copy()


def _material(img: AnyArray, poly: npt.NDArray[np.int32], d: SynthDie,
              under: tuple[tuple[int, int, int, int], AnyArray] | None) -> None:
    """The top face (``poly``, shifted) of a fancy die drawn over in its material, in place:
    marbled swirls, glitter, the table seen through translucent plastic, a metal sheen.
    Fixed by ``d.material_seed``; pips are drawn after it."""
    box = _roi_copy(img, poly)
    if box is None:
        return
    (x0, y0, x1, y1), roi = box
    mask = np.zeros(roi.shape[:2], np.uint8)
    shifted = poly.reshape(-1, 2) - np.array([x0, y0]) * _ONE
    cv2.fillPoly(mask, [shifted.astype(np.int32)], 255, cv2.LINE_AA, _SHIFT)
    a = mask.astype(np.float32)[:, :, None] / 255.0
    rng = np.random.default_rng(d.material_seed)
    yy, xx = np.mgrid[y0:y1, x0:x1].astype(np.float32)
    f = roi.astype(np.float32)
    if d.material == "marbled":  # bands of a second colour, bent by slow waves
        th = float(rng.uniform(0, math.pi))
        u = (xx * math.cos(th) + yy * math.sin(th)) / max(2.0, d.size * 0.16)
        v = (-xx * math.sin(th) + yy * math.cos(th)) / max(2.0, d.size * 0.35)
        swirl = np.sin(u + 2.2 * np.sin(v + float(rng.uniform(0, 6.3))))
        t = np.clip((swirl - 0.1) * 1.6, 0.0, 1.0)[:, :, None] * 0.85
        f = f * (1 - t) + np.asarray(d.body2_bgr, np.float32) * t
    elif d.material == "glitter":  # specks brighter and darker than the plastic
        n = int(d.size * d.size * 0.06) + 4
        ys = rng.integers(0, roi.shape[0], n)
        xs = rng.integers(0, roi.shape[1], n)
        gain = rng.choice([0.45, 1.7, 2.2], n).astype(np.float32)
        f[ys, xs] = np.clip(f[ys, xs] * gain[:, None] + 25.0 * (gain[:, None] > 1), 0, 255)
    elif d.material == "translucent" and under is not None:
        (ux0, uy0, _ux1, _uy1), seen = under
        if (ux0, uy0) == (x0, y0) and seen.shape == roi.shape:
            tint = np.asarray(d.body_bgr, np.float32) / 255.0
            through = seen.astype(np.float32) * (0.35 + 0.65 * tint)
            f = (f * 0.5 + through * 0.5 + 12.0).astype(np.float32)
    elif d.material == "metallic":  # a sheen across the face: dark, then bright, then dark
        th = float(rng.uniform(0, math.pi))
        u = ((xx - (x0 + x1) / 2) * math.cos(th) + (yy - (y0 + y1) / 2) * math.sin(th))
        u = u / max(2.0, d.size * 0.5)
        gain = 0.6 + 0.9 * np.exp(-((u - float(rng.uniform(-0.4, 0.4))) ** 2) / 0.18)
        f = f * gain[:, :, None]
    out = roi.astype(np.float32) * (1 - a) + np.clip(f, 0, 255) * a
    img[y0:y1, x0:x1] = np.clip(out, 0, 255).astype(np.uint8)


def _add_light(img: AnyArray, centre: Point, axes: tuple[float, float], angle: float,
               strength: float) -> None:
    """Blend a soft white ellipse into ``img`` in place (a reflection, a lamp's glare)."""
    h, w = img.shape[:2]
    r = int(max(axes) * 1.5) + 3
    x0, y0 = max(0, int(centre[0]) - r), max(0, int(centre[1]) - r)
    x1, y1 = min(w, int(centre[0]) + r + 1), min(h, int(centre[1]) + r + 1)
    if x1 <= x0 or y1 <= y0:
        return
    m = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.ellipse(m, ((centre[0] - x0, centre[1] - y0), (2 * axes[0], 2 * axes[1]), angle),
                255, -1, cv2.LINE_AA)
    k = int(max(3, min(axes) * 0.6)) // 2 * 2 + 1
    a = (cv2.GaussianBlur(m, (k, k), 0).astype(np.float32) / 255.0 * strength)[:, :, None]
    roi = img[y0:y1, x0:x1]
    roi[...] = np.clip(roi * (1 - a) + 255.0 * a, 0, 255).astype(np.uint8)


_NOISE_ROWS = 96  # rows of sensor noise made at a time


def render(scene: Scene, rng: np.random.Generator | None = None) -> Frame:
    """Draw ``scene`` as a BGR uint8 image; ``rng`` (optional) adds sensor noise only."""
    w, h = scene.width, scene.height
    pw, ph = scene.plane or (w, h)
    img: AnyArray = (_texture(pw, ph, scene.surface, scene.gradient) if scene.surface else
                     _background(pw, ph, scene.background_bgr, scene.gradient)).copy()
    if scene.tray is not None:
        img = _draw_tray(img, scene.tray, scene.light_dir, scene.tilt)
    for prop in scene.props:
        _draw_prop(img, prop)
    for c in scene.clutter:
        pts = np.round(np.array(c.points) * _ONE).astype(np.int32)
        if c.kind == "line":
            cv2.polylines(img, [pts], False, c.bgr, c.thickness, cv2.LINE_AA, _SHIFT)
        else:
            cv2.fillPoly(img, [pts], c.bgr, cv2.LINE_AA, _SHIFT)
    # seen obliquely, a die's base lies below its top face in the table plane
    t = math.tan(math.radians(scene.tilt))
    if scene.shadow > 0 and scene.dice:
        shade: AnyArray = np.zeros((ph, pw), np.uint8)
        lx, ly = scene.light_dir
        for d in scene.dice:
            off = d.size * (0.12 + d.lift + (0.5 if d.stacked else 0.0))
            sd = SynthDie(center=(d.center[0] + lx * off, d.center[1] + ly * off + d.size * t),
                          size=d.size, angle=d.angle, value=1)
            cv2.fillPoly(shade, [_to_px(_rounded_unit(0.2), sd)], 255, cv2.LINE_AA, _SHIFT)
        k = int(max(3, (scene.dice[0].size * 0.25)) // 2 * 2 + 1)
        shade = cv2.GaussianBlur(shade, (k, k), 0)
        factor = cv2.convertScaleAbs(shade, alpha=-scene.shadow, beta=255.0)
        img = cv2.multiply(img, cv2.merge([factor, factor, factor]), scale=1.0 / 255.0)
    # far dice first, so nearer ones (and stacked ones) are drawn over them
    order = sorted(scene.dice, key=lambda d: (d.stacked, d.center[1])) if (
        t > 0 or any(d.stacked for d in scene.dice)) else list(scene.dice)
    for d in order:
        _draw_die(img, d, (0.0, d.size * t * (2.0 if d.stacked else 1.0)))
    if scene.hand is not None:
        pts = np.round(np.array(scene.hand) * _ONE).astype(np.int32)
        cv2.fillPoly(img, [pts], scene.hand_bgr, cv2.LINE_AA, _SHIFT)
    hm = scene.matrix()
    if hm is not None:
        img = cv2.warpPerspective(img, hm, (w, h), flags=cv2.INTER_LINEAR,
                                  borderMode=cv2.BORDER_REPLICATE)
    elif (pw, ph) != (w, h):
        img = cv2.resize(img, (w, h), interpolation=cv2.INTER_AREA)
    if scene.glare is not None:  # a ceiling lamp reflected by the table
        gx, gy, gr, gs = scene.glare
        _add_light(img, (gx, gy), (gr, gr * 0.7), 20.0, gs)
    if scene.blur > 0:
        k = int(scene.blur * 3) // 2 * 2 + 1
        img = cv2.GaussianBlur(img, (k, k), scene.blur)
    if rng is not None and scene.noise > 0:
        # one noise value per pixel shared by the channels: sensor-like and twice as fast;
        # in bands of rows, so a frame never needs a frame-sized float copy (the stand-in
        # camera's memory); the values are those of one (h, w) draw
        img = np.ascontiguousarray(img)
        for top in range(0, h, _NOISE_ROWS):
            band = img[top:top + _NOISE_ROWS]
            noise = rng.standard_normal(band.shape[:2], dtype=np.float32) * np.float32(scene.noise)
            band[...] = cv2.add(band, cv2.merge([noise, noise, noise]), dtype=cv2.CV_8U)
    return np.asarray(img, dtype=np.uint8)


# --------------------------------------------------------------------------- random scenes


def _jitter(rng: np.random.Generator, bgr: BGR, amount: float) -> BGR:
    v = np.asarray(bgr, np.float64) + rng.normal(0, amount, 3)
    b, g, r = (int(x) for x in np.clip(v, 0, 255))
    return (b, g, r)


def random_die(rng: np.random.Generator, center: Point, size: float, *,
               colours: Sequence[str] | None = None, icon_set: str | None = None,
               angle: float | None = None, sides: bool = False,
               fancy: float = 0.0) -> SynthDie:
    """One random die at ``center``: random colour, face, pip colour and style; with
    ``sides``, also the values of its four side faces (drawn when they show). ``fancy`` is
    the chance the die is of a fancy material (marbled, glitter, translucent, metallic; see
    :data:`MATERIALS`), and then of painted pips (gold, silver, orange, copper); 0 draws
    the same dice as before it existed."""
    names = list(colours) if colours else list(SYNTH_COLOURS)
    colour = str(names[int(rng.integers(len(names)))])
    if colour not in SYNTH_COLOURS:
        raise ValueError(f"unknown synthetic colour {colour!r}; known: {sorted(SYNTH_COLOURS)}")
    body = _jitter(rng, SYNTH_COLOURS[colour], 8.0)
    dark = colour in _DARK_BODIES
    if dark:
        pip = _jitter(rng, (235, 235, 235), 8.0) if rng.random() < 0.85 else \
            _jitter(rng, (40, 200, 230), 10.0)
    else:
        pip = _jitter(rng, (30, 30, 30), 6.0) if rng.random() < 0.8 else \
            _jitter(rng, (60, 30, 170), 10.0)
    value: int | None = None
    face: str | None = None
    if icon_set is not None:
        if icon_set not in ICON_SETS:
            raise ValueError(f"unknown icon set {icon_set!r}; known: {sorted(ICON_SETS)}")
        faces = ICON_SETS[icon_set]
        face = faces[int(rng.integers(len(faces)))]
    else:
        value = int(rng.integers(1, 7))
    side_values = (2, 3, 5, 4)
    if sides:
        top = value if value is not None else 1
        around = [v for v in range(1, 7) if v not in (top, 7 - top)]
        rng.shuffle(around)
        side_values = (around[0], around[1], around[2], around[3])
    die = SynthDie(
        center=center, size=size,
        angle=float(rng.uniform(0, 90)) if angle is None else angle,
        value=value, face=face, colour=colour, body_bgr=body, pip_bgr=pip,
        pip_scale=float(rng.uniform(0.85, 1.15)), corner_round=float(rng.uniform(0.1, 0.25)),
        side_values=side_values,
    )
    if fancy > 0 and rng.random() < fancy:
        die = _fancy(rng, die, dark)
    return die


def _fancy(rng: np.random.Generator, die: SynthDie, dark: bool) -> SynthDie:
    """``die`` made of a fancy material, perhaps with painted pips."""
    material = MATERIALS[1 + int(rng.integers(len(MATERIALS) - 1))]
    body, pip = die.body_bgr, die.pip_bgr
    if material == "marbled":  # a second colour swirled in: lighter, darker or another hue
        other = list(SYNTH_COLOURS.values())[int(rng.integers(len(SYNTH_COLOURS)))]
        body2 = _jitter(rng, other, 20.0)
    else:
        body2 = (0, 0, 0)
    if material == "metallic":  # cast metal: gold, silver, copper, gunmetal
        body = _jitter(rng, ((60, 160, 200), (185, 185, 180), (70, 110, 170),
                             (90, 85, 80))[int(rng.integers(4))], 10.0)
        pip = _jitter(rng, (25, 25, 25), 6.0)
    if rng.random() < 0.5:  # painted pips, chosen to show on the body
        paints = [c for c in PAINTED_PIPS
                  if sum(abs(a - b) for a, b in zip(c, body, strict=True)) > 150]
        if paints and (dark or material == "metallic" or rng.random() < 0.3):
            pip = _jitter(rng, paints[int(rng.integers(len(paints)))], 8.0)
    return dataclasses.replace(die, material=material, body_bgr=body, body2_bgr=body2,
                               pip_bgr=pip, material_seed=int(rng.integers(1 << 30)))


#: The keywords of :func:`random_scene` for the hard tables of the benchmark and training:
#: any surface, a tray half the time, camera 0-60 degrees from straight down, lamp glare,
#: stacked, cocked and glossy dice.
HARD_TABLES: dict[str, Any] = {
    "surface": "any", "tray": 0.5, "tilt": (0.0, 60.0), "glare": 0.3, "stacked": 0.05,
    "cocked": 0.05, "highlight": 0.2, "board": 0.3,
}

#: The keywords of :func:`random_scene` for dice trays lined with felt, seen close and at an
#: angle, with fancy dice (as players' own trays and dice are; pass ``die_size=(48, 96)`` for
#: close-ups): felt of every colour, walls standing up around it, 30-50 degrees from
#: straight down, most dice marbled, glittery, translucent or metal, some with painted pips.
FELT_TRAYS: dict[str, Any] = {
    "surface": "felt", "tray": 1.0, "tilt": (30.0, 50.0), "glare": 0.2, "cocked": 0.03,
    "highlight": 0.3, "fancy": 0.7, "walls": 1.5,
}

_FELTS: tuple[BGR, ...] = ((35, 35, 140), (80, 30, 70), (40, 95, 35), (28, 28, 30),
                           (100, 45, 20), (90, 90, 90), (30, 25, 90), (120, 120, 40))


def _random_surface(rng: np.random.Generator, kind: str, die: float) -> Surface:
    if kind == "any":
        kind = SURFACES[int(rng.integers(len(SURFACES)))]
    seed = int(rng.integers(1 << 30))
    felt = _FELTS[int(rng.integers(len(_FELTS)))]
    if kind == "felt":
        return Surface("felt", _jitter(rng, felt, 8.0), seed=seed,
                       scale=float(rng.uniform(15, 40)))
    if kind == "cloth":
        lighter = tuple(min(255, int(v * float(rng.uniform(1.0, 1.8)))) for v in felt)
        return Surface("cloth", _jitter(rng, lighter, 8.0), seed=seed,  # type: ignore[arg-type]
                       scale=float(rng.uniform(18, 45)))
    if kind == "wood":
        wood = _jitter(rng, (60, 105, 150), 15.0)
        dark = tuple(int(v * float(rng.uniform(0.5, 0.75))) for v in wood)
        return Surface("wood", wood, dark, seed=seed,  # type: ignore[arg-type]
                       scale=die * float(rng.uniform(2, 5)))
    if kind == "mat":
        a = _jitter(rng, (int(rng.integers(20, 230)), int(rng.integers(20, 230)),
                          int(rng.integers(20, 230))), 0.0)
        b = _jitter(rng, (int(rng.integers(20, 230)), int(rng.integers(20, 230)),
                          int(rng.integers(20, 230))), 0.0)
        return Surface("mat", a, b, seed=seed, scale=die * float(rng.uniform(0.6, 2.0)))
    return Surface("plain", _jitter(rng, felt, 30.0), seed=seed)


#: Land colours of hex tiles (wheat, forest, hills, pasture, mountains, desert, sea).
_LANDS: tuple[BGR, ...] = ((60, 190, 225), (40, 100, 45), (50, 80, 170), (90, 200, 140),
                           (140, 135, 130), (150, 200, 220), (170, 120, 40))


def _random_props(rng: np.random.Generator, width: int, height: int, die: float,
                  tray: Tray | None) -> tuple[Prop, ...]:
    """A board game's pieces beside (or under) the dice, and a tray's snaps and stitching."""
    out: list[Prop] = []
    if rng.random() < 0.7:  # a hex board: tiles, most with a round number token
        hs = die * float(rng.uniform(2.5, 4.5))
        x0, y0 = float(rng.uniform(-hs, width * 0.6)), float(rng.uniform(-hs, height * 0.6))
        cols, rows = int(rng.integers(2, 6)), int(rng.integers(2, 5))
        dx, dy = hs * math.sqrt(3) / 2, hs * 0.75
        rim = _jitter(rng, (150, 200, 220), 20.0)
        for r_ in range(rows):
            for c_ in range(cols):
                cx, cy = x0 + c_ * dx + (dx / 2 if r_ % 2 else 0.0), y0 + r_ * dy
                land = _jitter(rng, _LANDS[int(rng.integers(len(_LANDS)))], 15.0)
                out.append(Prop("hex", (cx, cy), hs, 0.0, land, rim))
                if rng.random() < 0.75:
                    n = int(rng.choice([2, 3, 4, 5, 6, 8, 9, 10, 11, 12]))
                    ink: BGR = (40, 40, 190) if n in (6, 8) else (25, 25, 25)
                    out.append(Prop("token", (cx, cy), die * float(rng.uniform(0.8, 1.4)), 0.0,
                                    _jitter(rng, (175, 215, 235), 12.0), ink, str(n)))
    for _ in range(int(rng.integers(0, 5))):
        kind = ("card", "meeple", "coin", "token")[int(rng.integers(4))]
        at = (float(rng.uniform(0, width)), float(rng.uniform(0, height)))
        size = die * float({"card": rng.uniform(2.0, 4.0), "meeple": rng.uniform(0.8, 1.5),
                            "coin": rng.uniform(0.6, 1.2), "token": rng.uniform(0.8, 1.4)}[kind])
        bgr = _jitter(rng, (int(rng.integers(20, 235)), int(rng.integers(20, 235)),
                            int(rng.integers(20, 235))), 0.0)
        out.append(Prop(kind, at, size, float(rng.uniform(0, 360)), bgr,
                        _jitter(rng, (40, 40, 40), 30.0), str(int(rng.integers(2, 13)))))
    if tray is not None and rng.random() < 0.6:  # snaps at the corners, stitching on the rim
        x0, y0, x1, y1 = tray.inner
        w = tray.wall
        metal = _jitter(rng, (150, 150, 150), 40.0)
        for cx, cy in ((x0 - w / 2, y0 - w / 2), (x1 + w / 2, y0 - w / 2),
                       (x0 - w / 2, y1 + w / 2), (x1 + w / 2, y1 + w / 2)):
            out.append(Prop("snap", (cx, cy), max(4.0, w * 0.7), 0.0, metal, (90, 90, 90)))
        thread = _jitter(rng, tray.wall_bgr, 60.0)
        for (ax, ay), (bx, by) in (((x0, y0), (x1, y0)), ((x0, y1), (x1, y1)),
                                   ((x0, y0), (x0, y1)), ((x1, y0), (x1, y1))):
            ang = math.degrees(math.atan2(by - ay, bx - ax))
            out.append(Prop("stitch", ((ax + bx) / 2, (ay + by) / 2),
                            max(8.0, math.hypot(bx - ax, by - ay)), ang, thread))
    return tuple(out)


def random_scene(
    rng: np.random.Generator,
    *,
    width: int = 640,
    height: int = 480,
    n_dice: tuple[int, int] = (1, 8),
    colours: Sequence[str] | None = None,
    icon_set: str | None = None,
    die_size: tuple[float, float] = (34.0, 56.0),
    touching: float = 0.25,
    perspective: float = 0.0,
    clutter: int = 2,
    noise: float = 3.0,
    blur: float = 0.0,
    surface: str | None = None,
    tray: float = 0.0,
    tilt: tuple[float, float] = (0.0, 0.0),
    glare: float = 0.0,
    stacked: float = 0.0,
    cocked: float = 0.0,
    highlight: float = 0.0,
    board: float = 0.0,
    fancy: float = 0.0,
    walls: float = 0.0,
) -> Scene:
    """A random tray of dice. All choices are made here from ``rng``; the Scene is fixed.

    ``touching`` is the chance that a die is placed flush against the previous one;
    ``perspective`` (0..0.3) makes the far side of the table smaller; ``clutter`` adds that
    many non-die objects.

    The harder tables (each off by default, so the defaults draw the same scenes as before):
    ``surface`` a table top from :data:`SURFACES` or "any" (felt, cloth weave, a printed mat,
    wood grain); ``tray`` the chance of a dice tray with walls and their shadow; ``tilt`` the
    camera's angle from straight down, drawn from this range in degrees (dice show their side
    faces, the table is foreshortened); ``glare`` the chance of a ceiling lamp reflected in
    the table; ``stacked`` / ``cocked`` / ``highlight`` the chance that a die sits on another
    (neither is readable), leans on one edge (unreadable), or shows a lamp's reflection;
    ``board`` the chance of a board game beside the dice (hex tiles with round number tokens,
    cards, meeples, coins; a tray's metal snaps and stitching): things that are not dice;
    ``fancy`` the chance a die is marbled, glittery, translucent or metal (painted pips on
    some; :func:`random_die`); ``walls`` a tray's walls' height in die sizes (drawn from half
    of it to all of it; 0: flat walls, as before), seen standing on the far side when tilted.
    """
    if n_dice[0] < 0 or n_dice[1] < n_dice[0]:
        raise ValueError(f"n_dice must be (low, high) with 0 <= low <= high, got {n_dice!r}")
    if not (0.0 <= tilt[0] <= tilt[1] < 80.0):
        raise ValueError(f"tilt must be (low, high) degrees with 0 <= low <= high < 80, "
                         f"got {tilt!r}")
    if surface is not None and surface != "any" and surface not in SURFACES:
        raise ValueError(f"surface must be one of {SURFACES} or 'any', got {surface!r}")
    n = int(rng.integers(n_dice[0], n_dice[1] + 1))
    size = float(rng.uniform(*die_size))
    extras = bool(surface or tray or tilt[1] > 0 or glare or stacked or cocked or highlight)
    tilt_deg = float(rng.uniform(*tilt)) if tilt[1] > 0 else 0.0
    cos_t = math.cos(math.radians(tilt_deg))
    plane_h = round(height / cos_t) if tilt_deg > 0 else height
    area = (0.0, 0.0, float(width), float(plane_h))
    the_tray: Tray | None = None
    if tray > 0 and rng.random() < tray:
        wall = size * float(rng.uniform(0.4, 1.4))
        mx = [float(rng.uniform(-0.1, 0.12)) * width for _ in range(2)]
        my = [float(rng.uniform(-0.1, 0.12)) * plane_h for _ in range(2)]
        inner = (max(0.0, mx[0]) + wall, max(0.0, my[0]) + wall,
                 width - max(0.0, mx[1]) - wall, plane_h - max(0.0, my[1]) - wall)
        if inner[2] - inner[0] > 4 * size and inner[3] - inner[1] > 4 * size:
            wall_bgr = _jitter(rng, _FELTS[int(rng.integers(len(_FELTS)))], 40.0)
            the_tray = Tray(inner, wall, wall_bgr, float(rng.uniform(0.2, 0.55)))
            area = inner
            if walls > 0:
                tall = size * walls * float(rng.uniform(0.5, 1.0))
                t_tilt = math.tan(math.radians(tilt_deg))
                if t_tilt > 0:  # the far wall's face leaves the floor room for 4 dice
                    tall = min(tall, max(0.0, inner[3] - inner[1] - 4 * size) / t_tilt)
                the_tray = dataclasses.replace(the_tray, height=tall)
                # dice lie clear of the far wall's face
                area = (inner[0], inner[1] + tall * t_tilt, inner[2], inner[3])
    margin = size * 1.2
    lo_x, lo_y, hi_x, hi_y = area[0] + margin, area[1] + margin, area[2] - margin, \
        area[3] - margin - (size * math.tan(math.radians(tilt_deg)) if extras else 0.0)
    dice: list[SynthDie] = []
    tries = 0
    while len(dice) < n and tries < 400 and lo_x <= hi_x and lo_y <= hi_y:
        tries += 1
        on_top = bool(extras and stacked > 0 and dice and rng.random() < stacked)
        if on_top:
            below = dice[int(rng.integers(len(dice)))]
            if below.stacked or any(d.stacked and d.center == below.center for d in dice):
                continue
            c = np.asarray(below.center) + rng.uniform(-0.15, 0.15, 2) * below.size
            die = random_die(rng, (float(c[0]), float(c[1])), below.size * 1.08,
                             colours=colours, icon_set=icon_set, sides=True, fancy=fancy)
            dice.append(dataclasses.replace(die, stacked=True, lift=0.3))
            continue
        if dice and rng.random() < touching:
            prev = dice[-1]
            side = int(rng.integers(4))
            direc = _rot(prev.angle + 90 * side) @ np.array([1.0, 0.0])
            c = np.asarray(prev.center) + direc * prev.size * float(rng.uniform(1.02, 1.08))
            ang: float | None = prev.angle + float(rng.uniform(-3, 3))
        else:
            c = np.array([rng.uniform(lo_x, hi_x), rng.uniform(lo_y, hi_y)]) if extras else \
                np.array([rng.uniform(margin, width - margin),
                          rng.uniform(margin, height - margin)])
            ang = None
        if not (lo_x <= c[0] <= hi_x and lo_y <= c[1] <= hi_y):
            continue
        if any(np.hypot(*(c - np.asarray(d.center))) < size * (1.0 if ang is not None else 1.5)
               for d in dice):
            continue
        die = random_die(rng, (float(c[0]), float(c[1])), size * float(rng.uniform(0.97, 1.03)),
                         colours=colours, icon_set=icon_set, angle=ang, sides=extras,
                         fancy=fancy)
        if extras:
            die = dataclasses.replace(
                die, cocked=bool(cocked > 0 and rng.random() < cocked),
                highlight=float(rng.uniform(0.3, 0.8)) if highlight > 0 and
                rng.random() < highlight else 0.0)
        dice.append(die)
    bg_choices: list[BGR] = [(205, 205, 200), (170, 200, 215), (60, 110, 50), (70, 60, 55),
                             (150, 150, 150), (225, 225, 228)]
    bg = _jitter(rng, bg_choices[int(rng.integers(len(bg_choices)))], 6.0)
    the_surface = _random_surface(rng, surface, size) if surface else None
    if the_surface is not None:
        bg = the_surface.bgr
    cl: list[Clutter] = []
    for _ in range(clutter):
        kind = ("rect", "line")[int(rng.integers(2))]
        x0, y0 = float(rng.uniform(0, width)), float(rng.uniform(0, plane_h))
        if kind == "line":
            pts = tuple((x0 + float(rng.uniform(-150, 150)), y0 + float(rng.uniform(-150, 150)))
                        for _ in range(3))
            pts = ((x0, y0), *pts)
        else:
            wr, hr = float(rng.uniform(size * 2, size * 5)), float(rng.uniform(size * 0.3, size))
            pts = ((x0, y0), (x0 + wr, y0), (x0 + wr, y0 + hr), (x0, y0 + hr))
        tone = _jitter(rng, bg, 25.0)
        cl.append(Clutter(kind, pts, tone, int(rng.integers(1, 4))))
    hom: tuple[float, ...] | None = None
    to_image = np.diag([1.0, cos_t, 1.0])  # the table plane foreshortened by the tilt
    if perspective > 0:
        src = np.array([[0, 0], [width, 0], [width, height], [0, height]], np.float32)
        p = perspective
        dst = src + np.array([
            [rng.uniform(0, p) * width, rng.uniform(0, p / 2) * height],
            [-rng.uniform(0, p) * width, rng.uniform(0, p / 2) * height],
            [-rng.uniform(0, p / 3) * width, -rng.uniform(0, p / 4) * height],
            [rng.uniform(0, p / 3) * width, -rng.uniform(0, p / 4) * height],
        ], np.float32)
        to_image = cv2.getPerspectiveTransform(src, dst) @ to_image
    if perspective > 0 or tilt_deg > 0:
        hom = tuple(float(v) for v in to_image.ravel())
    glare_at: tuple[float, float, float, float] | None = None
    if glare > 0 and rng.random() < glare:
        glare_at = (float(rng.uniform(0, width)), float(rng.uniform(0, height)),
                    float(rng.uniform(0.08, 0.3)) * min(width, height),
                    float(rng.uniform(0.25, 0.7)))
    props = (_random_props(rng, width, plane_h, size, the_tray)
             if board > 0 and rng.random() < board else ())
    return Scene(
        width=width, height=height, dice=tuple(dice), background_bgr=bg,
        gradient=(float(rng.uniform(0, 0.5)), float(rng.uniform(0, 360))),
        light_dir=(float(rng.uniform(-0.7, 0.7)), float(rng.uniform(-0.7, 0.7))),
        shadow=float(rng.uniform(0.15, 0.45)), clutter=tuple(cl), homography=hom,
        noise=noise, blur=blur, surface=the_surface, tray=the_tray, tilt=tilt_deg,
        plane=(width, plane_h) if plane_h != height else None, glare=glare_at,
        props=props,
    )
