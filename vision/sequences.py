"""Synthetic camera sequences at the level of readings, with ground-truth events.

What :class:`~vision.tracker.RollTracker` is measured on (``benchmarks/rolls.py``): a table
session is a list of **events** (a real roll, or a piece of handling: a die picked up and put
down, dice pushed aside, swept into a cup, stacked, the camera bumped, a hand reaching in,
a die turned by hand, a roll thrown out of turn), each followed by a quiet spell. Every frame
is the :class:`~vision.types.Reading` the reader would give, with the reader's own faults
modelled: centres that wobble and hop a heatmap cell, dice dropping out for a frame, a
resting die read uncertain or (rarely) wrong for a frame, moving dice read uncertain or at a
random face (tumbling, blurred), a false die now and then, a hand warning that comes on most
of the frames a hand is in view but not all (and not at all when the hand is not
recognised), dice under a hand unseen.

Everything is drawn from the seeded ``rng``: the same seed gives the same sessions. The
rates are this module's assumptions (``Faults``), not measurements of the real reader; they
are set at or above what the benchmark's real photos and rendered sequences show.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass, field

import numpy as np

from vision.types import HAND_IN_VIEW, Die, Reading

#: Handling: never a roll. "out-of-turn" is a real throw made while no roll is expected.
HANDLING: tuple[str, ...] = (
    "pick-up-put-down", "push", "sweep", "stack", "camera-bump", "hand-reach", "turn-face",
    "out-of-turn",
)
#: Real rolls, each expected by the game when made.
ROLLS: tuple[str, ...] = ("throw", "re-roll", "throw-knocks")


@dataclass(frozen=True)
class Faults:
    """How the simulated reader errs (per die and frame unless said otherwise)."""

    wobble_px: float = 1.0  # centre noise of a resting die (sd)
    hop: float = 0.05  # a resting die's centre jumps by a heatmap cell (4 px)
    dropout: float = 0.01  # a resting die is not found
    uncertain: float = 0.01  # a resting die is read uncertain
    wrong: float = 0.003  # a resting die is read with a wrong value
    moving_dropout: float = 0.15  # a moving die is not found
    moving_blur: float = 0.5  # a tumbling die is read uncertain (else a random face)
    false_die: float = 0.01  # per frame: a die reported where there is none
    hand_seen: float = 0.85  # per event: the hand is recognised at all
    hand_frame: float = 0.9  # per frame, once recognised: the warning is on
    # the motion measure (vision.motion.MotionMeter), per frame, in die areas
    motion_noise: float = 0.08  # its floor: |N(0, this)| on every frame
    motion_miss: float = 0.1  # the frame's motion is not seen at all (the floor only)
    motion_spurious: float = 0.005  # motion where nothing moved (a shadow, the light)


@dataclass
class _Die:
    x: float
    y: float
    value: int


@dataclass(frozen=True)
class Event:
    """One ground-truth event: its ``kind``, whether it is a real roll, the frames it spans
    (``start`` to ``end``, quiet spell included), what the game expected meanwhile, and the
    values of the dice rolled (for a real roll)."""

    kind: str
    is_roll: bool
    start: int
    end: int
    expected: tuple[str, ...] | None
    rolled: tuple[int, ...] = ()


@dataclass
class Session:
    """A generated session: one reading per frame at ``fps``, the motion level of each frame
    (what :class:`vision.motion.MotionMeter` would measure against the frame before, in die
    areas), the expectation at each frame, and the events."""

    fps: float
    readings: list[Reading] = field(default_factory=list)
    motion: list[float] = field(default_factory=list)
    expected: list[tuple[str, ...] | None] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)


class _Sim:
    def __init__(self, rng: np.random.Generator, faults: Faults,
                 motion_rng: np.random.Generator) -> None:
        self.rng = rng
        self.mrng = motion_rng  # the motion signal's own draws: the readings stay as they were
        self._before: list[tuple[float, float, int | None]] = []  # what the last frame showed
        self._hand_before: tuple[float, float, float] | None = None
        self._shift_before = (0.0, 0.0)
        self.f = faults
        self.fps = float(rng.choice([10.0, 15.0, 20.0, 30.0]))
        self.size = float(rng.uniform(22, 60))
        self.w, self.h = 640.0, 480.0
        self.dice: list[_Die] = []
        self.session = Session(self.fps)
        self.expect: tuple[str, ...] | None = ("A",)

    # ------------------------------------------------------------------ frames

    def _die(self, x: float, y: float, v: int | None) -> Die:
        s = self.size * float(self.rng.uniform(0.95, 1.05))
        h = s / 2
        return Die(center=(x, y), corners=((x - h, y - h), (x + h, y - h), (x + h, y + h),
                                           (x - h, y + h)),
                   angle=0.0, size=s, value=v, face=None if v is None else str(v),
                   colour="white", confidence=0.9 if v is not None else 0.05)

    def frame(self, moving: dict[int, tuple[float, float, int | None]] | None = None,
              hand: tuple[float, float, float] | None = None, hand_seen: bool = False,
              extra: list[tuple[float, float, int | None, bool]] | None = None,
              shift: tuple[float, float] = (0.0, 0.0), blur: bool = False) -> None:
        """One reading: the resting dice (the ``moving`` ones at their given place and face
        instead), ``extra`` dice (x, y, face, moving) not on the table yet, a hand (x, y,
        radius) hiding what is under it, the whole view shifted (a bumped camera)."""
        rng, f = self.rng, self.f
        out: list[Die] = []
        items: list[tuple[float, float, int | None, bool]] = []
        for i, d in enumerate(self.dice):
            if moving and i in moving:
                x, y, v = moving[i]
                items.append((x, y, v, True))
            else:
                items.append((d.x, d.y, d.value, False))
        items += extra or []
        self._motion(items, hand, shift, blur)
        for x, y, v, mov in items:
            x, y = x + shift[0], y + shift[1]
            if hand is not None and math.dist((x, y), hand[:2]) < hand[2]:
                continue  # under the hand
            if not (0 < x < self.w and 0 < y < self.h):
                continue
            if mov or blur:
                if rng.random() < f.moving_dropout:
                    continue
                if v is None or rng.random() < f.moving_blur:
                    read: int | None = None
                else:
                    read = v
                out.append(self._die(x + float(rng.normal(0, 2)), y + float(rng.normal(0, 2)),
                                     read))
                continue
            if rng.random() < f.dropout:
                continue
            read = v
            r = rng.random()
            if r < f.uncertain:
                read = None
            elif r < f.uncertain + f.wrong and v is not None:
                read = int(rng.choice([k for k in range(1, 7) if k != v]))
            jx, jy = rng.normal(0, f.wobble_px, 2)
            if rng.random() < f.hop:
                jx += float(rng.choice([-4.0, 4.0]))
            out.append(self._die(x + float(jx), y + float(jy), read))
        if rng.random() < f.false_die:
            out.append(self._die(float(rng.uniform(30, self.w - 30)),
                                 float(rng.uniform(30, self.h - 30)),
                                 int(rng.integers(1, 7)) if rng.random() < 0.3 else None))
        warn = (HAND_IN_VIEW,) if hand is not None and hand_seen and rng.random() < f.hand_frame \
            else ()
        self.session.readings.append(Reading(dice=tuple(out), frame_shape=(480, 640),
                                             warnings=warn))
        self.session.expected.append(self.expect)

    def _motion(self, items: list[tuple[float, float, int | None, bool]],
                hand: tuple[float, float, float] | None, shift: tuple[float, float],
                blur: bool) -> None:
        """The frame's motion level: what changed since the frame before, in die areas. A die
        moving by ``s`` px changes about ``2 s / size`` die areas (at most 2: where it was and
        where it is), more when it turns over; a die appearing or leaving, one; a hand, its
        area when it comes or goes and a third of it while it moves in view; the camera
        moving, half the view for each die size it moves; then the meter's noise floor,
        misses and spurious motion (``Faults``)."""
        f, rng, size = self.f, self.mrng, self.size
        now = [(x + shift[0], y + shift[1], v) for x, y, v, _m in items
               if 0 < x + shift[0] < self.w and 0 < y + shift[1] < self.h]
        level = 0.0
        for x, y, v in now:
            near = min(self._before, key=lambda b: math.dist((x, y), b[:2]), default=None)
            if near is None or math.dist((x, y), near[:2]) > 3 * size:
                level += 1.0  # appeared
            else:
                step = math.dist((x, y), near[:2])
                level += min(2.0, 2 * step / size + (0.5 if v != near[2] else 0.0))
        for b in self._before:
            if all(math.dist(b[:2], (x, y)) > 3 * size for x, y, _v in now):
                level += 1.0  # gone
        if hand is not None or self._hand_before is not None:
            r = (hand or self._hand_before or (0.0, 0.0, 0.0))[2]
            area = math.pi * r * r / (size * size)
            level += area / 3 if hand is not None and self._hand_before is not None else area
        moved = math.dist(shift, self._shift_before) + (size if blur else 0.0)
        if moved > 0:
            level += 0.5 * self.w * self.h / (size * size) * min(1.0, moved / size)
        self._before, self._hand_before, self._shift_before = now, hand, shift
        floor = abs(float(rng.normal(0, f.motion_noise)))
        r = float(rng.random())
        if r < f.motion_miss:
            level = floor
        elif r < f.motion_miss + f.motion_spurious:
            level += floor + float(rng.uniform(0.3, 3.0))
        else:
            level += floor
        self.session.motion.append(level)

    def quiet(self, seconds: float) -> None:
        for _ in range(max(1, round(seconds * self.fps))):
            self.frame()

    def frames(self, seconds: float) -> int:
        return max(2, round(seconds * self.fps))

    # ------------------------------------------------------------------ places

    def free_spot(self) -> tuple[float, float]:
        for _ in range(200):
            x = float(self.rng.uniform(self.size * 1.2, self.w - self.size * 1.2))
            y = float(self.rng.uniform(self.size * 1.2, self.h - self.size * 1.2))
            if all(math.dist((x, y), (d.x, d.y)) > 1.6 * self.size for d in self.dice):
                return x, y
        return float(self.w / 2), float(self.h / 2)

    def edge_spot(self) -> tuple[float, float]:
        side = int(self.rng.integers(4))
        u = float(self.rng.uniform(0.1, 0.9))
        return [(u * self.w, -self.size), (u * self.w, self.h + self.size),
                (-self.size, u * self.h), (self.w + self.size, u * self.h)][side]

    def hand_over(self, x: float, y: float) -> tuple[float, float, float]:
        return (x, y, self.size * float(self.rng.uniform(1.2, 2.2)))

    # ------------------------------------------------------------------ rolls

    def throw(self, n: int, knock: bool = False) -> tuple[int, ...]:
        """``n`` dice thrown in (from a hand seen or not, or from a cup at the edge),
        tumbling and slowing down, then lying still; returns their values."""
        rng = self.rng
        start = self.edge_spot() if rng.random() < 0.6 else self.free_spot()
        seen = rng.random() < self.f.hand_seen
        with_hand = rng.random() < 0.5
        ends = []
        for _ in range(n):
            ends.append(self.free_spot())
            self.dice.append(_Die(*ends[-1], value=0))  # reserve the spot
        del self.dice[len(self.dice) - n:]
        values = tuple(int(v) for v in rng.integers(1, 7, n))
        starts = [(start[0] + float(rng.normal(0, self.size)),
                   start[1] + float(rng.normal(0, self.size))) for _ in range(n)]
        # make sure each die travels at least 1.5 dice (a throw crosses the tray)
        for k in range(n):
            if math.dist(starts[k], ends[k]) < 1.5 * self.size:
                ang = float(rng.uniform(0, 2 * math.pi))
                starts[k] = (ends[k][0] + 2.5 * self.size * math.cos(ang),
                             ends[k][1] + 2.5 * self.size * math.sin(ang))
        if with_hand:  # the throwing hand is in view a moment before the dice leave it
            for _ in range(int(rng.integers(1, 5))):
                self.frame(hand=self.hand_over(*start), hand_seen=seen)
        nf = self.frames(float(rng.uniform(0.4, 1.5)))
        knocked = int(rng.integers(len(self.dice))) if knock and self.dice else None
        kd = self.dice[knocked] if knocked is not None else None
        k_to = (kd.x + float(rng.uniform(-1.5, 1.5)) * self.size,
                kd.y + float(rng.uniform(-1.5, 1.5)) * self.size) if kd is not None else None
        k_val = int(rng.integers(1, 7)) if kd is not None and rng.random() < 0.5 else None
        for i in range(nf):
            u = (i + 1) / nf
            pos = 1 - (1 - u) ** 2  # slowing down
            extra: list[tuple[float, float, int | None, bool]] = []
            for k in range(n):
                x = starts[k][0] + (ends[k][0] - starts[k][0]) * pos
                y = starts[k][1] + (ends[k][1] - starts[k][1]) * pos
                if u < 0.75:
                    v: int | None = int(rng.integers(1, 7))  # tumbling
                else:
                    v = values[k]
                extra.append((x, y, v, u < 0.9))
            moving: dict[int, tuple[float, float, int | None]] = {}
            if kd is not None and k_to is not None and knocked is not None and u > 0.5:
                w = min(1.0, (u - 0.5) / 0.3)
                moving[knocked] = (kd.x + (k_to[0] - kd.x) * w, kd.y + (k_to[1] - kd.y) * w,
                                   (k_val or kd.value) if w >= 1 else None)
            hand = self.hand_over(*start) if with_hand and i < 2 else None
            self.frame(moving=moving, extra=extra, hand=hand, hand_seen=seen)
        if kd is not None and k_to is not None:
            kd.x, kd.y = k_to
            if k_val:
                kd.value = k_val
        for k in range(n):
            self.dice.append(_Die(ends[k][0], ends[k][1], values[k]))
        return values

    def pick_up(self, idx: list[int]) -> None:
        """Dice taken into a hand (gone)."""
        seen = self.rng.random() < self.f.hand_seen
        for i in sorted(idx, reverse=True):
            d = self.dice[i]
            for _ in range(self.frames(0.3)):
                self.frame(hand=self.hand_over(d.x, d.y), hand_seen=seen)
            del self.dice[i]
        self.quiet(float(self.rng.uniform(0.1, 0.5)))

    # ------------------------------------------------------------------ handling

    def handle(self, kind: str) -> None:
        rng = self.rng
        seen = rng.random() < self.f.hand_seen
        if not self.dice and kind not in ("hand-reach", "out-of-turn"):
            kind = "hand-reach"
        if kind == "pick-up-put-down":
            i = int(rng.integers(len(self.dice)))
            d = self.dice[i]
            to = self.free_spot()
            carried = rng.random() < 0.4  # seen in the fingers on the way, same face
            nf = self.frames(float(rng.uniform(0.3, 1.0)))
            for k in range(nf):
                u = (k + 1) / nf
                x, y = d.x + (to[0] - d.x) * u, d.y + (to[1] - d.y) * u
                extra: list[tuple[float, float, int | None, bool]] = \
                    [(x, y, d.value, True)] if carried else []
                hand = self.hand_over(x + self.size, y - self.size)
                del_dice = self.dice[:i] + self.dice[i + 1:]
                keep = self.dice
                self.dice = del_dice
                self.frame(extra=extra, hand=hand, hand_seen=seen)
                self.dice = keep
            d.x, d.y = to
            if rng.random() < 0.5:
                d.value = int(rng.integers(1, 7))
        elif kind == "push":
            idx = [int(i) for i in rng.choice(len(self.dice), int(rng.integers(1, len(self.dice)
                                                                             + 1)), False)]
            ang = float(rng.uniform(0, 2 * math.pi))
            dist = float(rng.uniform(1, 5)) * self.size
            dx, dy = dist * math.cos(ang), dist * math.sin(ang)
            nf = self.frames(float(rng.uniform(0.2, 1.2)))
            finger = rng.random() < 0.4
            fast = dist / nf > 0.4 * self.size
            for k in range(nf):
                u = (k + 1) / nf
                moving = {}
                for i in idx:
                    d = self.dice[i]
                    pv: int | None = d.value
                    if fast and rng.random() < self.f.moving_blur:
                        pv = None
                    moving[i] = (d.x + dx * u, d.y + dy * u, pv)
                d0 = self.dice[idx[0]]
                finger_at = self.hand_over(d0.x + dx * u - self.size * 2, d0.y + dy * u) \
                    if finger else None
                self.frame(moving=moving, hand=finger_at, hand_seen=seen)
            for i in idx:
                self.dice[i].x += dx
                self.dice[i].y += dy
            self.dice = [d for d in self.dice if 0 < d.x < self.w and 0 < d.y < self.h]
        elif kind == "sweep":
            n = len(self.dice)
            idx = [int(i) for i in rng.choice(n, int(rng.integers(max(1, n - 2), n + 1)), False)]
            to = self.edge_spot()
            nf = self.frames(float(rng.uniform(0.3, 1.0)))
            tip = {i: int(rng.integers(1, 7)) for i in idx if rng.random() < 0.2}
            for k in range(nf):
                u = (k + 1) / nf
                moving = {}
                for i in idx:
                    d = self.dice[i]
                    sv: int | None = tip.get(i, d.value) if u > 0.5 else d.value
                    if rng.random() < 0.3:
                        sv = None
                    moving[i] = (d.x + (to[0] - d.x) * u, d.y + (to[1] - d.y) * u, sv)
                cx = float(np.mean([m[0] for m in moving.values()]))
                cy = float(np.mean([m[1] for m in moving.values()]))
                self.frame(moving=moving, hand=(cx - self.size, cy - self.size, self.size * 1.5),
                           hand_seen=seen)
            self.dice = [d for i, d in enumerate(self.dice) if i not in idx]
        elif kind == "stack":
            if len(self.dice) < 2:
                self.dice.append(_Die(*self.free_spot(), value=int(rng.integers(1, 7))))
                self.quiet(0.5)
            i, j = (int(v) for v in rng.choice(len(self.dice), 2, False))
            a, b = self.dice[i], self.dice[j]
            nf = self.frames(float(rng.uniform(0.3, 0.8)))
            for k in range(nf):
                u = (k + 1) / nf
                moving = {i: (a.x + (b.x - a.x) * u, a.y + (b.y - a.y) * u, a.value)}
                self.frame(moving=moving, hand=self.hand_over(a.x + (b.x - a.x) * u + self.size,
                                                              a.y + (b.y - a.y) * u),
                           hand_seen=seen)
            b.value = a.value  # only the top die is seen
            del self.dice[i]
        elif kind == "camera-bump":
            sx, sy = (float(c) for c in rng.uniform(-80, 80, 2))
            for _ in range(int(rng.integers(1, 4))):  # a jolt: blurred, shaking
                jolt = float(rng.uniform(-1, 1))
                self.frame(shift=(sx * jolt, sy * jolt), blur=True)
            keep_shift = rng.random() < 0.6
            if keep_shift:  # the camera stays moved: every die lies elsewhere in the view
                for d in self.dice:
                    d.x += sx * 0.3
                    d.y += sy * 0.3
                self.dice = [d for d in self.dice if 0 < d.x < self.w and 0 < d.y < self.h]
        elif kind == "hand-reach":
            x, y = self.free_spot()
            for _ in range(self.frames(float(rng.uniform(0.3, 1.5)))):
                self.frame(hand=self.hand_over(x, y), hand_seen=seen)
        elif kind == "turn-face":
            d = self.dice[int(rng.integers(len(self.dice)))]
            for _ in range(self.frames(float(rng.uniform(0.3, 0.8)))):
                self.frame(hand=self.hand_over(d.x, d.y), hand_seen=seen)
            d.value = int(rng.choice([v for v in range(1, 7) if v != d.value]))
        elif kind == "out-of-turn":
            self.throw(int(rng.integers(1, 4)))
        else:  # pragma: no cover - the kinds are this module's own
            raise ValueError(f"unknown handling {kind!r}")


def sessions(rng: np.random.Generator, n_rolls: int, n_handling: int,
             faults: Faults | None = None) -> Iterator[Session]:
    """Sessions (about 20 events each) until ``n_rolls`` real rolls and ``n_handling``
    handling events are made, every handling kind and roll kind about equally often.

    Handling happens while a roll is expected half the time (the game waits for a roll, and
    someone pushes a die aside) and while none is the other half; "out-of-turn" throws always
    come while none is expected; real rolls always while one is.
    """
    f = faults or Faults()
    # the motion signal draws from its own generator, spawned from ``rng`` without drawing
    # from it: the readings are the same as without it
    motion_rng = rng.spawn(1)[0]
    rolls = handling = 0
    while rolls < n_rolls or handling < n_handling:
        sim = _Sim(rng, f, motion_rng)
        sim.quiet(0.5)
        for _ in range(20):
            if rolls >= n_rolls and handling >= n_handling:
                break
            start = len(sim.session.readings)
            do_roll = handling >= n_handling or (rolls < n_rolls and rng.random() < 0.5)
            if do_roll:
                kind = ROLLS[rolls % len(ROLLS)]
                sim.expect = ("A",) if rng.random() < 0.5 else ("A", "B")
                if kind == "re-roll" and sim.dice:
                    picked = [int(i) for i in rng.choice(
                        len(sim.dice), int(rng.integers(1, len(sim.dice) + 1)), False)]
                    sim.pick_up(picked)
                if len(sim.dice) > 8:  # a full tray is cleared first (not an event)
                    sim.dice = sim.dice[:4]
                    sim.quiet(0.5)
                    start = len(sim.session.readings)
                values = sim.throw(int(rng.integers(1, 7)), knock=kind == "throw-knocks")
                sim.quiet(float(rng.uniform(0.6, 1.5)))
                sim.session.events.append(Event(kind, True, start, len(sim.session.readings),
                                                sim.expect, values))
                rolls += 1
            else:
                kind = HANDLING[handling % len(HANDLING)]
                sim.expect = None if kind == "out-of-turn" or rng.random() < 0.5 else ("A",)
                sim.handle(kind)
                sim.quiet(float(rng.uniform(0.6, 1.5)))
                sim.session.events.append(Event(kind, False, start, len(sim.session.readings),
                                                sim.expect))
                handling += 1
            if len(sim.dice) > 10:
                sim.dice = sim.dice[-6:]
                sim.quiet(0.6)
        yield sim.session
