"""A synthetic renderer of dice scenes with ground truth, for tests and the demo camera.

A :class:`Scene` is a frozen description (every random choice already made by
:func:`random_scene`), so :func:`render` draws the same picture for the same scene; only optional
sensor noise comes from the ``rng`` given to :func:`render`. Animating a roll is just
``dataclasses.replace`` on the dice and another ``render``.

Dice are drawn in a flat "table plane"; a scene ``homography`` then warps the whole picture to
give perspective, and :meth:`Scene.truth` reports where each die ends up in the image.
"""

from __future__ import annotations

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

    def __post_init__(self) -> None:
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

    def __post_init__(self) -> None:
        if not (isinstance(self.width, int) and isinstance(self.height, int)
                and self.width >= 16 and self.height >= 16):
            raise ValueError(f"Scene size must be ints >= 16, got {self.width}x{self.height}")
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
            out.append(TruthDie((cx, cy), side, ang, d.value, d.face, d.colour,
                                readable=inside and not d.cocked))
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


def _draw_die(img: Frame, d: SynthDie) -> None:
    body = np.asarray(d.body_bgr, np.float64)
    edge = tuple(int(v) for v in body * 0.72)
    outline = _to_px(_rounded_unit(d.corner_round), d)
    cv2.fillPoly(img, [outline], edge, cv2.LINE_AA, _SHIFT)
    inner = _to_px(_rounded_unit(d.corner_round) * 0.9, d)
    cv2.fillPoly(img, [inner], tuple(int(v) for v in body), cv2.LINE_AA, _SHIFT)
    ink = tuple(int(v) for v in d.pip_bgr)
    body_c = tuple(int(v) for v in body)
    if d.value is not None:
        r = 0.17 * d.pip_scale * (d.size / 2)
        pts = _to_px(np.array(PIP_LAYOUT[d.value]) * 1.05, d)
        for p in pts:
            cv2.circle(img, (int(p[0]), int(p[1])), round(r * _ONE), ink, -1,
                       cv2.LINE_AA, _SHIFT)
    else:
        for poly, is_ink in _glyph(str(d.face)):
            cv2.fillPoly(img, [_to_px(poly, d)], ink if is_ink else body_c, cv2.LINE_AA, _SHIFT)


_NOISE_ROWS = 96  # rows of sensor noise made at a time


def render(scene: Scene, rng: np.random.Generator | None = None) -> Frame:
    """Draw ``scene`` as a BGR uint8 image; ``rng`` (optional) adds sensor noise only."""
    w, h = scene.width, scene.height
    img: AnyArray = _background(w, h, scene.background_bgr, scene.gradient).copy()
    for c in scene.clutter:
        pts = np.round(np.array(c.points) * _ONE).astype(np.int32)
        if c.kind == "line":
            cv2.polylines(img, [pts], False, c.bgr, c.thickness, cv2.LINE_AA, _SHIFT)
        else:
            cv2.fillPoly(img, [pts], c.bgr, cv2.LINE_AA, _SHIFT)
    if scene.shadow > 0 and scene.dice:
        shade: AnyArray = np.zeros((h, w), np.uint8)
        lx, ly = scene.light_dir
        for d in scene.dice:
            off = d.size * (0.12 + d.lift)
            sd = SynthDie(center=(d.center[0] + lx * off, d.center[1] + ly * off), size=d.size,
                          angle=d.angle, value=1)
            cv2.fillPoly(shade, [_to_px(_rounded_unit(0.2), sd)], 255, cv2.LINE_AA, _SHIFT)
        k = int(max(3, (scene.dice[0].size * 0.25)) // 2 * 2 + 1)
        shade = cv2.GaussianBlur(shade, (k, k), 0)
        factor = cv2.convertScaleAbs(shade, alpha=-scene.shadow, beta=255.0)
        img = cv2.multiply(img, cv2.merge([factor, factor, factor]), scale=1.0 / 255.0)
    for d in scene.dice:
        _draw_die(img, d)
    if scene.hand is not None:
        pts = np.round(np.array(scene.hand) * _ONE).astype(np.int32)
        cv2.fillPoly(img, [pts], scene.hand_bgr, cv2.LINE_AA, _SHIFT)
    hm = scene.matrix()
    if hm is not None:
        img = cv2.warpPerspective(img, hm, (w, h), flags=cv2.INTER_LINEAR,
                                  borderMode=cv2.BORDER_REPLICATE)
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
               angle: float | None = None) -> SynthDie:
    """One random die at ``center``: random colour, face, pip colour and style."""
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
    return SynthDie(
        center=center, size=size,
        angle=float(rng.uniform(0, 90)) if angle is None else angle,
        value=value, face=face, colour=colour, body_bgr=body, pip_bgr=pip,
        pip_scale=float(rng.uniform(0.85, 1.15)), corner_round=float(rng.uniform(0.1, 0.25)),
    )


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
) -> Scene:
    """A random tray of dice. All choices are made here from ``rng``; the Scene is fixed.

    ``touching`` is the chance that a die is placed flush against the previous one;
    ``perspective`` (0..0.3) tilts the camera; ``clutter`` adds that many non-die objects.
    """
    if n_dice[0] < 0 or n_dice[1] < n_dice[0]:
        raise ValueError(f"n_dice must be (low, high) with 0 <= low <= high, got {n_dice!r}")
    n = int(rng.integers(n_dice[0], n_dice[1] + 1))
    size = float(rng.uniform(*die_size))
    margin = size * 1.2
    dice: list[SynthDie] = []
    tries = 0
    while len(dice) < n and tries < 400:
        tries += 1
        if dice and rng.random() < touching:
            prev = dice[-1]
            side = int(rng.integers(4))
            direc = _rot(prev.angle + 90 * side) @ np.array([1.0, 0.0])
            c = np.asarray(prev.center) + direc * prev.size * float(rng.uniform(1.02, 1.08))
            ang: float | None = prev.angle + float(rng.uniform(-3, 3))
        else:
            c = np.array([rng.uniform(margin, width - margin),
                          rng.uniform(margin, height - margin)])
            ang = None
        if not (margin <= c[0] <= width - margin and margin <= c[1] <= height - margin):
            continue
        if any(np.hypot(*(c - np.asarray(d.center))) < size * (1.0 if ang is not None else 1.5)
               for d in dice):
            continue
        dice.append(random_die(rng, (float(c[0]), float(c[1])),
                               size * float(rng.uniform(0.97, 1.03)),
                               colours=colours, icon_set=icon_set, angle=ang))
    bg_choices: list[BGR] = [(205, 205, 200), (170, 200, 215), (60, 110, 50), (70, 60, 55),
                             (150, 150, 150), (225, 225, 228)]
    bg = _jitter(rng, bg_choices[int(rng.integers(len(bg_choices)))], 6.0)
    cl: list[Clutter] = []
    for _ in range(clutter):
        kind = ("rect", "line")[int(rng.integers(2))]
        x0, y0 = float(rng.uniform(0, width)), float(rng.uniform(0, height))
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
    if perspective > 0:
        src = np.array([[0, 0], [width, 0], [width, height], [0, height]], np.float32)
        p = perspective
        dst = src + np.array([
            [rng.uniform(0, p) * width, rng.uniform(0, p / 2) * height],
            [-rng.uniform(0, p) * width, rng.uniform(0, p / 2) * height],
            [-rng.uniform(0, p / 3) * width, -rng.uniform(0, p / 4) * height],
            [rng.uniform(0, p / 3) * width, -rng.uniform(0, p / 4) * height],
        ], np.float32)
        hom = tuple(float(v) for v in cv2.getPerspectiveTransform(src, dst).ravel())
    return Scene(
        width=width, height=height, dice=tuple(dice), background_bgr=bg,
        gradient=(float(rng.uniform(0, 0.5)), float(rng.uniform(0, 360))),
        light_dir=(float(rng.uniform(-0.7, 0.7)), float(rng.uniform(-0.7, 0.7))),
        shadow=float(rng.uniform(0.15, 0.45)), clutter=tuple(cl), homography=hom,
        noise=noise, blur=blur,
    )
