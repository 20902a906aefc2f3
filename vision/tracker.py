"""Turning a stream of readings into rolls: :class:`RollTracker`.

Fed one :class:`~vision.types.Reading` per frame with its time, the tracker follows each die
from frame to frame and tells a **roll** from **handling**. It emits a roll only when all of
these hold:

1. **A roll is expected now.** The caller says so with :meth:`RollTracker.expect`: ``None``
   when the game waits for no roll, or the names of the players a roll may come from (an
   empty tuple: from anyone, unnamed). The game decides this ("is a roll expected now, and
   from whom"); vision only takes the plain value. A roll is emitted only if it settles while
   one is expected; a roll that settled earlier is never emitted later.
2. **The dice have settled**: every die stayed within ``move_px`` (or ``move_frac`` of its
   size) with the same face for ``settle_s`` seconds, and no frame in that time warned of a
   hand (or was blank). A moving die or a hand in view restarts the clock.
3. **At least one die was rolled**: it *arrived* (it is not one of the dice that lay still
   before, nor followed continuously from one of them), it *travelled* at least
   ``roll_travel`` of its own size across the table (camera shake taken out), and it
   *tumbled*: it was read with at least two different faces on the way (or it travelled
   twice as far, fast and blurred: read uncertain on two frames while moving half a size or
   more a frame; or it showed three different faces however far it went; or, over half a
   size, it was read moving with a face other than the one it came to rest on). Once one die of
   a roll shows all that, every die that arrived since the last rest belongs to the roll
   (dice tumbling in a clump lose their tracks; so does a die crossing the view fast between
   sparse reads, whose tumbling track, once lost, still counts until the next rest). A
   reading that differs from the still view on a single frame only (a die not found, read
   uncertain or wrong, a centre hopping a heatmap cell, a false die) is taken for a glitch of
   the reader, not a change.

Reads taken while the whole view moves (a motion level over ``VIEW_MOVED`` of the view: the
camera bumped) are not followed die by die. So a die picked up and put down (appears
still), dice pushed aside or swept into a cup (they followed from dice that lay still, and
kept their faces), a die stacked on another, a camera bumped (every die shifted alike), a
hand reaching in: never a roll. Two exceptions: dice
already lying still when tracking starts are a roll with ``emit_initial`` (the default, as
before), and with ``empty_tray`` (off by default) dice appearing after the tray was seen
empty are a roll (a roll under a cup lifted off shows no motion; but so does a hand the
reader does not recognise covering every die, which is why it is off).

Every update returns a :class:`TrackerState`. ``roll`` is set on the one update where a real,
expected roll settles. ``settled`` keeps its earlier meaning: set on the one update where the
view settles after any change (a roll or handling) with at least ``min_dice`` dice: what lies
on the table now, for tracking dice on the players' boards (allocation is handling, not
rolling). A caller that took ``settled`` for a roll should take ``roll`` instead.

A caller that reads only some frames (a :class:`vision.motion.ReadGate`: a Pi cannot read
every frame) gives every frame's motion level too: ``update(reading, t, motion=level)`` for a
frame read, :meth:`RollTracker.motion` for one that was not. Motion seen on any frame restarts
the stillness clock (for up to ``MOTION_HOLD_S`` after the readings last changed), a difference
read right after motion is a change at once, and, with no motion seen, a reading that differs
from the still view by a glitch of the reader only does not hold the settle back (nor does
a die missed, or a false one seen, on the read that took the view, once later reads show
otherwise with no motion seen since);
:attr:`RollTracker.settle_at` says when the next read could confirm a settle. ::

    tracker = RollTracker(settle_s=0.3)
    tracker.expect(("Ana",))            # the game now waits for Ana's roll
    state = tracker.update(reading, t)
    if state.roll is not None:          # exactly once per real roll
        state.roll.reading              # every die in view
        state.roll.dice                 # the dice that were rolled
        state.roll.rollers              # ("Ana",): whom the roll was expected from
    tracker.expect(None)                # no roll expected: nothing is emitted
"""

from __future__ import annotations

import math
import numbers
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field

from vision.motion import MOVING
from vision.types import Die, Reading, WarningKind


@dataclass(frozen=True)
class Roll:
    """A settled roll: ``reading`` (every die in view), ``rolled`` (indices into
    ``reading.dice`` of the dice that were rolled; the others lay there before), ``rollers``
    (whom the roll was expected from; empty: anyone) and ``t`` (when it settled)."""

    reading: Reading
    rolled: tuple[int, ...]
    rollers: tuple[str, ...]
    t: float

    @property
    def dice(self) -> tuple[Die, ...]:
        """The rolled dice."""
        return tuple(self.reading.dice[i] for i in self.rolled)


@dataclass(frozen=True)
class TrackerState:
    """What the tracker knows after one update.

    ``roll`` is set only on the one update where a real, expected roll settles; ``settled``
    on the one update where the view settles after any change, rolls and handling alike (with
    at least ``min_dice`` dice; the roll's reading when there is a roll).
    """

    moving: bool
    occluded: bool
    still_for: float
    settled: Reading | None = None
    roll: Roll | None = None


def _blocked(reading: Reading) -> bool:
    return reading.warned(WarningKind.OCCLUSION)


def _blank(reading: Reading) -> bool:
    return reading.warned(WarningKind.UNREADABLE_FRAME)


@dataclass
class _Track:
    """One die followed from frame to frame during an episode of change."""

    center: tuple[float, float]
    size: float
    seen_t: float
    from_rest: bool  # it lay still before the change, or follows from one that did
    travel: float = 0.0  # px moved, camera shake taken out
    step: float = 0.0  # px moved on its last frame
    seen: int = 1  # frames it was seen on
    face: str | None = None  # the face it showed last
    blurred: int = 0  # frames it was read uncertain while moving fast (half a size a frame)
    faces: set[str] = field(default_factory=set)
    moving_faces: set[str] = field(default_factory=set)  # faces read while it moved


#: A difference from the still view seen on this many frames in a row is a change (fewer: a
#: glitch of the reader, see ``RollTracker._judge``).
GLITCH_FRAMES = 2
#: Dice settle only if none was read as another face on more than one frame in this many.
GLITCH_SHARE = 3
#: How long a die that dropped out of the readings is remembered (seconds).
LOST_S = 0.4
#: Motion (:meth:`RollTracker.motion`) keeps the view from settling only this long after the
#: view last changed: motion that goes on longer while the readings stay the same is taken for
#: something moving beside the dice (a player, a screen), and the readings alone decide.
MOTION_HOLD_S = 2.0
#: A frame whose motion level (in die areas) covers this share of the view or more was taken
#: while the camera itself moved (bumped): its reading is not followed.
VIEW_MOVED = 0.3
#: Times this close count as equal (frame times are sums of float steps).
TIME_EPS = 1e-6


class RollTracker:
    """Watches readings over time and emits one roll per real roll.

    ``settle_s``: how long dice must stay still; ``move_px``: how far a die may wander (centre,
    pixels) and still count as still, or ``move_frac`` of its size if that is more (the
    detector's centres wobble by a few percent of a die between frames); ``min_dice``: an
    emitted roll has at least this many dice in view; ``emit_initial``: whether dice already
    lying still when tracking starts count as a roll (of all of them); ``roll_travel``: how
    far (in die sizes) an arriving die must travel to count as rolled; ``empty_tray``:
    whether dice appearing after the tray was seen empty (since the last rest) count as
    rolled without being seen move (a roll under a cup lifted off, or one faster than the
    camera); ``expect``: the
    expectation at start (see :meth:`expect`; by default a roll is expected from anyone);
    ``moving_level``: the motion level (:class:`vision.motion.MotionMeter`, die areas changed)
    that counts as motion when one is given (:meth:`motion`, ``update(..., motion=)``).
    """

    def __init__(self, settle_s: float = 0.3, move_px: float = 4.0, *, min_dice: int = 1,
                 emit_initial: bool = True, move_frac: float = 0.2, roll_travel: float = 1.0,
                 empty_tray: bool = False, expect: Sequence[str] | None = (),
                 moving_level: float = MOVING) -> None:
        if not (math.isfinite(settle_s) and settle_s >= 0):
            raise ValueError(f"settle_s must be a finite number >= 0, got {settle_s!r}")
        if not (math.isfinite(move_px) and move_px > 0):
            raise ValueError(f"move_px must be a finite number > 0, got {move_px!r}")
        if not (math.isfinite(move_frac) and move_frac >= 0):
            raise ValueError(f"move_frac must be a finite number >= 0, got {move_frac!r}")
        if not (math.isfinite(roll_travel) and roll_travel >= 0):
            raise ValueError(f"roll_travel must be a finite number >= 0, got {roll_travel!r}")
        if min_dice < 1:
            raise ValueError(f"min_dice must be >= 1, got {min_dice!r}")
        if not (math.isfinite(moving_level) and moving_level > 0):
            raise ValueError(f"moving_level must be a finite number > 0, got {moving_level!r}")
        self.moving_level = float(moving_level)
        self.settle_s = float(settle_s)
        self.move_px = float(move_px)
        self.move_frac = float(move_frac)
        self.roll_travel = float(roll_travel)
        self.min_dice = int(min_dice)
        self.emit_initial = bool(emit_initial)
        self.empty_tray = bool(empty_tray)
        self._expected: tuple[str, ...] | None = None
        self.expect(expect)
        self._init()

    def _init(self) -> None:
        self._anchor: Reading | None = None  # the view the stillness clock compares against
        self._anchor_sum: list[tuple[float, float, int]] = []  # its dice's centres, summed
        self._still_since: float | None = None
        self._last_t: float | None = None
        self._motion_t: float | None = None  # the last frame that showed motion
        self._read_t = -math.inf  # the last frame read
        self._motion_fed = False  # a motion level was given (then stillness is seen between reads)
        self._clean: tuple[Reading, list[_Track | None]] = (Reading.empty((1, 1)), [])
        self._anchor_face: list[str | None] = []  # its dice's faces (learnt when uncertain)
        self._occluded = False  # the last reading was blank or warned of a hand
        self._settled: Reading | None = None
        self._rest: Reading | None = None  # the view at the last rest
        self._rested = False  # the current view has been reported as rest
        self._seen_rest = False  # any rest at all yet (emit_initial)
        self._emptied = False  # the tray was seen empty since the last rest (empty_tray)
        self._prev_t = -math.inf  # the time of the previous update
        self._tracks: list[_Track] = []
        self._current: list[_Track | None] = []  # the track of each die of the last reading
        self._pending: dict[tuple[str, int], int] = {}  # glitches: frames seen in a row
        self._frames = 0  # frames since the view went still
        self._odd_faces: dict[int, int] = {}  # frames a still die was read as another face
        self._tumbled = False  # a die lost since the last rest had tumbled
        self._die_area: float | None = None  # the dice's area in px (the last reading's)

    # ------------------------------------------------------------------ the caller's side

    def expect(self, rollers: Sequence[str] | None) -> None:
        """Say whether a roll is expected now, and from whom.

        ``None``: no roll is expected (dice may move, ``settled`` is still reported, no roll is
        emitted). A sequence of player names: a roll is expected from one of them (an empty
        sequence: from anyone); the emitted :class:`Roll` carries them as ``rollers``.
        Raised when ``rollers`` is a single string or holds something else than non-empty
        strings: ``ValueError``.
        """
        if rollers is None:
            self._expected = None
            return
        if isinstance(rollers, str) or not all(isinstance(r, str) and r for r in rollers):
            raise ValueError(f"expect needs None or a sequence of player names, got {rollers!r}")
        self._expected = tuple(rollers)

    @property
    def expected(self) -> tuple[str, ...] | None:
        """Whom a roll is expected from now (empty: anyone), or None when none is."""
        return self._expected

    @property
    def is_moving(self) -> bool:
        """True while dice are moving (or have not yet been still for ``settle_s``)."""
        if self._still_since is None or self._last_t is None:
            return True
        return self._last_t - self._still_start() < self.settle_s - TIME_EPS

    @property
    def settle_at(self) -> float | None:
        """When the view could next be confirmed as settled, if nothing moves till then (what a
        :class:`vision.motion.ReadGate` is told, to read that frame). None when there is nothing
        to confirm: the view now has been seen still and reported already (``settled``, or the
        same as the last rest), or the last reading was blank or showed a hand (what ends that
        is motion, which the gate reads anyway)."""
        if self._anchor is None or self._still_since is None or self._rested:
            return None
        return max(self._still_start() + self.settle_s - TIME_EPS, self._last_t or 0.0)

    def _still_start(self) -> float:
        """Since when the view has been still: since it last changed in the readings, or
        since the last motion seen after that (for at most ``MOTION_HOLD_S``)."""
        start = self._still_since
        assert start is not None
        m = self._motion_t
        if m is not None and start < m <= start + MOTION_HOLD_S:
            return m
        return start

    @property
    def last_roll(self) -> Reading | None:
        """The reading of the most recent roll, if any."""
        return self._settled

    def reset(self) -> None:
        """Forget everything; the dice in view next are judged afresh (``emit_initial``)."""
        self._init()

    # ------------------------------------------------------------------ following dice

    def _limit(self, size: float) -> float:
        return max(self.move_px, self.move_frac * size)

    def _changed(self, a: Reading, b: Reading) -> bool:
        """Whether the dice of ``b`` differ from those of ``a`` (moved, appeared, turned)."""
        if len(a.dice) != len(b.dice):
            return True
        free = list(b.dice)
        for d in a.dice:
            best = min(free, key=lambda e: math.dist(d.center, e.center))
            limit = self._limit(min(d.size, best.size))
            if math.dist(d.center, best.center) > limit or best.face != d.face:
                return True
            free.remove(best)
        return False

    def _judge(self, reading: Reading, moved: bool) -> tuple[bool, bool, set[str]]:
        """(changed, clean, kinds): whether ``reading`` differs from the still view (the
        anchor) for real, whether it equals it exactly, and how it differs ("missing",
        "moved", "face", "extra").

        The reader errs for a frame now and then (a die not found, read uncertain or wrong, a
        centre hopping, a false die); such a difference is a glitch, and counts as a change
        only when the same difference is seen on ``GLITCH_FRAMES`` frames in a row, or at once
        when motion was seen since the last reading (``moved``: something did move). A die of
        the still view read uncertain there and now read with a face is not a difference: the
        still view learns its face.
        """
        a = self._anchor
        assert a is not None
        seen: set[tuple[str, int]] = set()
        free = list(range(len(reading.dice)))
        for i, d in enumerate(a.dice):
            sx, sy, n = self._anchor_sum[i]
            at = (sx / n, sy / n)  # where it lies: the mean of its centres while still
            best = min(free, key=lambda k: math.dist(at, reading.dice[k].center),
                       default=None)
            if best is None or math.dist(at, reading.dice[best].center) > \
                    2 * self._limit(d.size):
                seen.add(("missing", i))
                continue
            e = reading.dice[best]
            free.remove(best)
            self._anchor_sum[i] = (sx + e.center[0], sy + e.center[1], n + 1)
            if math.dist(at, e.center) > self._limit(min(d.size, e.size)):
                seen.add(("moved", i))
            if self._anchor_face[i] is None and e.face is not None and ("moved", i) not in seen:
                self._anchor_face[i] = e.face  # its face, read uncertain in the still view
            if e.face != self._anchor_face[i]:
                seen.add(("face", i))
                if e.face is not None:  # read as another face: counts against settling
                    self._odd_faces[i] = self._odd_faces.get(i, 0) + 1
        if free:
            seen.add(("extra", 0))
        for key in list(self._pending):
            if key not in seen:
                del self._pending[key]
        kinds = {kind for kind, _i in seen}
        for key in seen:
            self._pending[key] = self._pending.get(key, 0) + 1
            if self._pending[key] >= GLITCH_FRAMES or moved:
                return True, False, kinds
        return False, not seen, kinds

    def _follow(self, reading: Reading, t: float) -> None:
        """Match the reading's dice to the tracks, start tracks for the others, and add up how
        far each travelled and which faces it showed.

        Dice lying still are matched first, within twice the stillness limit; then moving
        dice, each within reach of its last step (at least two sizes). A die not seen for a
        frame or two may have gone further.
        """
        live = [k for k in self._tracks if t - k.seen_t <= LOST_S]
        match: dict[int, int] = {}
        used: set[int] = set()
        for first in (True, False):
            pairs = []
            for i, d in enumerate(reading.dice):
                if i in match:
                    continue
                for j, k in enumerate(live):
                    if j in used:
                        continue
                    dist = math.dist(d.center, k.center)
                    if (k.seen_t < self._prev_t and k.from_rest
                            and None not in (k.face, d.face) and k.face != d.face):
                        continue  # lay still, gone a while, back with another face: another die
                    if first:
                        reach = 2 * self._limit(d.size)
                    else:
                        # frames the die may have moved for since it was seen (reads may be
                        # sparse: a motion gate); a die just found may be flying in at any
                        # speed, one seen before moves on or starts to move (a shove)
                        frames = min(4.0, max(1.0, (t - k.seen_t) * 20.0))
                        base = (3.0 if k.seen == 1 else 2.0) * k.size
                        reach = max(base, 2.5 * k.step) * frames
                    if dist <= reach:
                        pairs.append((dist, i, j))
            pairs.sort()
            for _dist, i, j in pairs:
                if i not in match and j not in used:
                    match[i] = j
                    used.add(j)
        # camera shake: the dice that lay still all shifted alike
        moves = [(reading.dice[i].center[0] - live[j].center[0],
                  reading.dice[i].center[1] - live[j].center[1])
                 for i, j in match.items() if live[j].from_rest]
        shift = (0.0, 0.0)
        if len(moves) >= 2:
            mx = sorted(m[0] for m in moves)[len(moves) // 2]
            my = sorted(m[1] for m in moves)[len(moves) // 2]
            tol = max(self._limit(d.size) for d in reading.dice)
            if all(math.dist(m, (mx, my)) <= tol for m in moves):
                shift = (mx, my)
        matched = [reading.dice[i].center for i in match]
        current: list[_Track | None] = []
        for i, d in enumerate(reading.dice):
            if i in match:
                k = live[match[i]]
                step = math.dist(d.center, (k.center[0] + shift[0], k.center[1] + shift[1]))
                k.step = step
                if step > self._limit(d.size):
                    k.travel += step
                    k.blurred += d.face is None and step > 0.5 * d.size
                    if d.face is not None:
                        k.moving_faces.add(d.face)
                k.center, k.size, k.seen_t = d.center, d.size, t
                k.seen += 1
                k.face = d.face if d.face is not None else k.face
            else:
                # where a die lay still, showing its face, and no die followed from it: that
                # die, seen again
                at_rest = self._rest is not None and any(
                    math.dist(d.center, e.center) <= 0.6 * max(d.size, e.size)
                    and (d.face in (e.face, None) or e.face is None)
                    and not any(math.dist(c, e.center) <= 0.6 * e.size for c in matched)
                    for e in self._rest.dice)
                k = _Track(d.center, d.size, t, from_rest=at_rest, face=d.face)
                self._tracks.append(k)
            if d.face is not None:
                k.faces.add(d.face)
            current.append(k)
        # a die seen on one frame only and gone again was a false detection
        keep = [k for k in self._tracks
                if t - k.seen_t <= LOST_S and (k.seen > 1 or k.seen_t == t)]
        if not self._tumbled:  # a die that tumbled, then lost its track (sparse reads)
            kept = {id(k) for k in keep}
            self._tumbled = any(not k.from_rest and self._tumble(k, k.size)
                                for k in self._tracks if id(k) not in kept)
        self._tracks = keep
        self._current = current
        self._prev_t = t

    def _rolled(self, reading: Reading) -> tuple[int, ...]:
        """The dice of a settled reading that were rolled: if any die arrived, travelled and
        tumbled, every die that arrived since the last rest (none otherwise)."""
        if self.emit_initial and not self._seen_rest:
            return tuple(range(len(reading.dice)))
        arrived = [(i, d, k) for i, (d, k) in enumerate(zip(reading.dice, self._current,
                                                            strict=True))
                   if k is not None and not k.from_rest]
        if arrived and self.empty_tray and self._emptied:
            # dice in a tray that was empty: a roll under a cup, or one faster than the camera
            return tuple(i for i, _d, _k in arrived)
        if not arrived or not (self._tumbled or any(self._tumble(k, d.size)
                                                    for _i, d, k in arrived)):
            return ()
        # a roll: every die that arrived with it was rolled (a die whose track was lost in
        # a tumbling clump has travelled less on its new track)
        return tuple(i for i, _d, _k in arrived)

    def _tumble(self, k: _Track, size: float) -> bool:
        """Whether the track shows a die that tumbled: it travelled and showed two faces, or
        travelled twice as far blurred, or showed three faces, or travelled half as far and
        was read moving with a face other than its last."""
        return ((k.travel >= self.roll_travel * size and len(k.faces) >= 2)
                or (k.travel >= 0.5 * self.roll_travel * size
                    and bool(k.moving_faces - {k.face}))
                or (k.travel >= 2 * self.roll_travel * size and k.blurred >= 2)
                or len(k.faces) >= 3)

    def _come_to_rest(self, reading: Reading) -> None:
        """The view settled: it is the new rest; every die now lies still."""
        self._tumbled = False
        self._rest = reading
        self._seen_rest = True
        self._emptied = not reading.dice
        self._tracks = [k for k in self._current if k is not None]  # gone dice are forgotten
        for track in self._tracks:
            track.from_rest, track.travel, track.blurred = True, 0.0, 0
            track.faces, track.moving_faces = set(), set()
        for d, k in zip(reading.dice, self._current, strict=True):
            if k is not None and d.face is not None:
                k.faces.add(d.face)

    # ------------------------------------------------------------------ one frame

    def _time(self, t: float, motion: float | None) -> None:
        """Check and take the time of a frame and its motion level."""
        if not (isinstance(t, numbers.Real) and math.isfinite(t)):
            raise ValueError(f"time must be finite, got {t!r}")
        if self._last_t is not None and t < self._last_t:
            raise ValueError(f"time went backwards: {t} after {self._last_t}")
        if motion is not None and not (isinstance(motion, numbers.Real)
                                       and math.isfinite(motion) and motion >= 0):
            raise ValueError(f"motion level must be a finite number >= 0, got {motion!r}")
        self._last_t = t
        if motion is not None:
            self._motion_fed = True
            if motion >= self.moving_level:
                self._motion_t = t

    def _view_moved(self, reading: Reading, motion: float | None) -> bool:
        """Whether the frame's motion covers ``VIEW_MOVED`` of the view or more: the camera
        itself moved (bumped), and every die in the reading is smeared and shifted; such a
        reading is not followed (its dice would be matched to the wrong tracks)."""
        if motion is None or self._die_area is None:
            return False
        h, w = reading.frame_shape
        return motion * self._die_area >= VIEW_MOVED * h * w

    def motion(self, t: float, level: float) -> TrackerState:
        """Feed the motion level (:meth:`vision.motion.MotionMeter.measure`) of a frame taken
        at ``t`` that was not read. Motion (``level >= moving_level``) keeps the view from
        settling: the dice must then be seen still for ``settle_s`` after it (see
        ``MOTION_HOLD_S``). Nothing settles on such a frame (there is no reading to report).

        Raised when ``t`` is not finite or goes backwards, or ``level`` is not a finite number
        >= 0: ``ValueError``.
        """
        self._time(t, level)
        if self._still_since is None:
            return TrackerState(moving=True, occluded=self._occluded, still_for=0.0)
        still_for = t - self._still_start()
        return TrackerState(moving=still_for < self.settle_s - TIME_EPS, occluded=False,
                            still_for=still_for)

    def update(self, reading: Reading, t: float, motion: float | None = None) -> TrackerState:
        """Feed the reading of the frame taken at time ``t`` (seconds, non-decreasing), and
        optionally the frame's motion level (as :meth:`motion`).

        Raised when ``reading`` is not a :class:`Reading`, ``t`` is not finite or goes
        backwards, or ``motion`` is not a finite number >= 0: ``ValueError``.
        """
        if not isinstance(reading, Reading):
            raise ValueError(f"update needs a vision.Reading, got {type(reading).__name__}")
        self._time(t, motion)
        # motion seen since the last reading (on this frame, or one not read)
        moved = self._motion_t is not None and self._motion_t > self._read_t
        self._read_t = t
        self._occluded = True
        if reading.dice:
            self._die_area = statistics.median(d.size for d in reading.dice) ** 2
        if _blank(reading) or self._view_moved(reading, motion):
            self._still_since = None
            self._anchor = None
            self._occluded = _blank(reading)
            return TrackerState(moving=True, occluded=self._occluded, still_for=0.0)
        self._follow(reading, t)
        if not reading.dice and not _blocked(reading) and self._seen_rest:
            self._emptied = True  # the tray was seen empty since the last rest
        if _blocked(reading):
            self._still_since = None
            self._anchor = None
            return TrackerState(moving=True, occluded=True, still_for=0.0)
        self._occluded = False
        changed, clean, kinds = ((True, True, set()) if self._anchor is None
                                 else self._judge(reading, moved))
        if changed:
            # a difference the readings alone showed, with no motion seen since the view went
            # still (the reader missed a die, or saw a false one, when the view was taken):
            # the view is taken again, but nothing moved, so the stillness clock goes on
            quiet = (self._motion_fed and not moved and self._still_since is not None
                     and self._anchor is not None and kinds <= {"extra", "missing"}
                     and (self._motion_t is None or self._motion_t <= self._still_since))
            self._anchor = reading
            self._anchor_face = [d.face for d in reading.dice]
            self._anchor_sum = [(d.center[0], d.center[1], 1) for d in reading.dice]
            if not quiet:
                self._still_since = t
            self._rested = False
            self._frames = 0
            self._odd_faces.clear()
            self._pending.clear()
            self._clean = (reading, self._current)
        self._frames += 1
        if clean:  # the still view exactly, with the tracks of its dice
            self._clean = (reading, self._current)
        still_for = t - self._still_start()
        moving = still_for < self.settle_s - TIME_EPS
        flicker = any(n * GLITCH_SHARE > self._frames for n in self._odd_faces.values())
        if not clean and self._motion_fed and not moving:
            # a glitch of the reader on this frame, and no motion seen: the view is still, as
            # the last frame that showed it exactly showed it
            reading, self._current = self._clean
            clean = True
        if moving or self._rested or not clean or flicker:
            return TrackerState(moving=moving, occluded=False, still_for=still_for)
        self._rested = True
        rest: Reading | None = None
        if self._rest is None or self._changed(self._rest, reading):
            rest = reading
        roll: Roll | None = None
        if rest is not None and self._expected is not None and len(reading.dice) >= self.min_dice:
            rolled = self._rolled(reading)
            if rolled:
                roll = Roll(reading, rolled, self._expected, t)
                self._settled = reading
        if rest is not None:
            self._come_to_rest(reading)
        settled = rest if rest is not None and len(rest.dice) >= self.min_dice else None
        return TrackerState(moving=False, occluded=False, still_for=still_for,
                            settled=settled, roll=roll)
