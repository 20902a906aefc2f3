"""Motion between camera frames, cheaply, and when to run the full reader: :class:`MotionMeter`,
:class:`ReadGate`.

The full reader (:func:`vision.read_dice`) costs 15-30 ms of CPU a frame here and 80-135 ms
on a Raspberry Pi, so a Pi cannot read every frame a camera gives. What it can do on every
frame is measure how much of the picture changed (:class:`MotionMeter`, well under 2 ms: a
small grey copy of the frame compared with the previous one), and let that decide when the
full reader runs (:class:`ReadGate`): at a steady rate while something moves (dice tumbling,
a hand), promptly once the motion stops (to catch the dice at rest) and a few times more to
confirm the settle, rarely while all is still, and never more often than a budget (8 full
reads a second by default, what a Pi affords). The roll tracker takes the motion level of
every frame too (:meth:`vision.RollTracker.motion`), so motion seen between two reads keeps
the dice from counting as settled. ::

    meter, gate = MotionMeter(), ReadGate(budget=8.0)
    for t, frame in camera:
        level = meter.measure(frame)               # die areas changed since the last frame
        if gate.decide(t, level, settle_at=tracker.settle_at):
            reading = read_dice(frame)
            if reading.dice:                       # levels in this table's die areas
                meter.die_size = statistics.median(d.size for d in reading.dice)
            state = tracker.update(reading, t, motion=level)
        else:
            state = tracker.motion(t, level)

The motion level is measured in **die areas**: the number of changed pixels divided by the
area of one die (``die_size`` squared, the dice's size in the last reading; a default before
any die was seen), so that "one die moved" reads about the same at every resolution and
distance. A die moving by its own size changes about two die areas (where it was and where
it is); sensor noise changes none.
"""

from __future__ import annotations

import math
import numbers
from collections import deque

import cv2
import numpy as np

#: A frame whose motion level (die areas changed) reaches this shows motion; below it, noise.
MOVING = 0.3
#: The die size assumed before any die was seen: this share of the frame's width.
DEFAULT_DIE_FRAC = 1 / 24
#: Width of the small grey copy the meter compares (pixels).
WIDTH = 160
#: A pixel of the small copy has changed when it differs by more than this (grey levels, 0-255),
#: once a change of the whole picture's brightness (the camera's exposure) is taken out.
NOISE = 12.0


class MotionMeter:
    """How much of the picture changed since the previous frame, in die areas.

    ``width``: width of the small grey copy compared (the height follows the frame's shape);
    ``noise``: a pixel of the small copy changes only by more than this many grey levels (the
    copy averages blocks of pixels, so a sensor's noise stays far below it); ``die_size``: the
    dice's size in the frame's pixels (``None``: :data:`DEFAULT_DIE_FRAC` of the frame's
    width), settable at any time (the app sets it from each full reading).
    """

    def __init__(self, width: int = WIDTH, noise: float = NOISE,
                 die_size: float | None = None) -> None:
        if not (isinstance(width, int) and width >= 8):
            raise ValueError(f"width must be a whole number >= 8, got {width!r}")
        if not (math.isfinite(noise) and noise >= 0):
            raise ValueError(f"noise must be a finite number >= 0, got {noise!r}")
        self.width = width
        self.noise = float(noise)
        self.die_size = die_size
        self._prev: np.ndarray | None = None
        self._shape: tuple[int, ...] = ()

    @property
    def die_size(self) -> float | None:
        """The dice's size in the frame's pixels (None: the default share of its width)."""
        return self._die_size

    @die_size.setter
    def die_size(self, size: float | None) -> None:
        if size is not None and not (math.isfinite(size) and size > 0):
            raise ValueError(f"die_size must be None or a finite number > 0, got {size!r}")
        self._die_size = None if size is None else float(size)

    def reset(self) -> None:
        """Forget the previous frame (the next one measures 0)."""
        self._prev = None

    def measure(self, frame: np.ndarray) -> float:
        """The motion level of ``frame`` against the previous one: die areas of the picture
        that changed (0.0 for the first frame, or one of another size than the previous).

        Raised when ``frame`` is not a BGR or grey uint8 image: ``ValueError``.
        """
        if not (isinstance(frame, np.ndarray) and frame.dtype == np.uint8
                and (frame.ndim == 2 or (frame.ndim == 3 and frame.shape[2] in (3, 4)))
                and frame.shape[0] > 0 and frame.shape[1] > 0):
            what = f"{frame.dtype} array of shape {frame.shape}" \
                if isinstance(frame, np.ndarray) else type(frame).__name__
            raise ValueError(f"measure needs a BGR or grey uint8 image, got {what}")
        h, w = frame.shape[:2]
        sw = min(self.width, w)
        sh = max(1, round(h * sw / w))
        grey = frame if frame.ndim == 2 else cv2.cvtColor(
            frame, cv2.COLOR_BGR2GRAY if frame.shape[2] == 3 else cv2.COLOR_BGRA2GRAY)
        small = cv2.resize(grey, (sw, sh), interpolation=cv2.INTER_AREA)
        prev, shape = self._prev, frame.shape
        self._prev, self._shape = small, shape
        if prev is None or prev.shape != small.shape:
            return 0.0
        # the camera's exposure may shift the whole picture's brightness: not motion
        shift = cv2.mean(small)[0] - cv2.mean(prev)[0]
        diff = np.abs(small.astype(np.int16) - prev.astype(np.int16) - np.int16(round(shift)))
        changed = int(np.count_nonzero(diff > self.noise))
        size = self._die_size if self._die_size is not None else DEFAULT_DIE_FRAC * w
        die_area = (size * sw / w) ** 2  # one die's area in the small copy's pixels
        return float(changed / max(die_area, 1.0))


class ReadGate:
    """Decides, frame by frame, whether the full reader runs.

    ``budget``: at most this many full reads in any second; ``moving_rate``: reads a second
    while frames show motion (default: the budget); ``settle_s``: the roll tracker's settling
    time. Once the motion stops, the next frame is read at once (the dice at rest), then
    frames at ``settle_rate`` (default: three quarters of the budget, so that the read when the
    settle is due is not crowded out) for ``confirm_s`` (default ``3 * settle_s``) and for as
    long as the caller's tracker has a settle to confirm (``settle_at`` given, up to ``hold_s``
    after the motion), always with the first frame at or after ``settle_at``; ``idle_s``: while
    all is still, a read every this many seconds (to see what the meter may have missed);
    ``level``: the motion level that counts as motion (:data:`MOVING`).

    Raised when a budget, rate or time is not a finite number > 0: ``ValueError``.
    """

    def __init__(self, budget: float = 8.0, *, moving_rate: float | None = None,
                 settle_rate: float | None = None, settle_s: float = 0.3,
                 confirm_s: float | None = None, hold_s: float = 4.0, idle_s: float = 2.0,
                 level: float = MOVING) -> None:
        def positive(name: str, v: float) -> float:
            if not (isinstance(v, numbers.Real) and math.isfinite(v) and v > 0):
                raise ValueError(f"{name} must be a finite number > 0, got {v!r}")
            return float(v)

        self.budget = positive("budget", budget)
        self.moving_rate = min(self.budget, positive("moving_rate", moving_rate)
                               if moving_rate is not None else self.budget)
        self.settle_rate = min(self.budget, positive("settle_rate", settle_rate)
                               if settle_rate is not None else self.budget * 0.75)
        self.settle_s = positive("settle_s", settle_s)
        self.confirm_s = positive("confirm_s", confirm_s) if confirm_s is not None \
            else 3 * self.settle_s
        self.hold_s = positive("hold_s", hold_s)
        self.idle_s = positive("idle_s", idle_s)
        self.level = positive("level", level)
        self.reset()

    def reset(self) -> None:
        """Forget every read and every motion (the next frame is read)."""
        self._reads: deque[float] = deque()  # times of the reads in the last second
        self._last_read: float | None = None
        self._motion_t: float | None = None  # the last frame that showed motion
        self._last_t: float | None = None
        self._first_t: float | None = None  # the first frame decided on
        self._due = -math.inf  # when the next read is due while frames show motion
        self.reads = 0  # full reads granted so far
        self.frames = 0  # frames decided on so far

    def decide(self, t: float, level: float, *, settle_at: float | None = None) -> bool:
        """Whether to run the full reader on the frame taken at ``t`` (seconds,
        non-decreasing) whose motion level is ``level``. ``settle_at``: when the caller's
        roll tracker could confirm a change as settled (:attr:`vision.RollTracker.settle_at`;
        None: nothing to confirm): the first frame from then on is read, and meanwhile frames
        at ``settle_rate`` while the motion is at most ``hold_s`` old. A ``True`` answer
        counts as a read.

        Raised when ``t`` is not finite or goes backwards, or ``level`` is not a finite
        number >= 0: ``ValueError``.
        """
        if not (isinstance(t, numbers.Real) and math.isfinite(t)):
            raise ValueError(f"time must be finite, got {t!r}")
        if settle_at is not None and not (isinstance(settle_at, numbers.Real)
                                          and math.isfinite(settle_at)):
            raise ValueError(f"settle_at must be None or a finite time, got {settle_at!r}")
        if self._last_t is not None and t < self._last_t:
            raise ValueError(f"time went backwards: {t} after {self._last_t}")
        if not (isinstance(level, numbers.Real) and math.isfinite(level) and level >= 0):
            raise ValueError(f"motion level must be a finite number >= 0, got {level!r}")
        dt = 0.0 if self._last_t is None else t - self._last_t  # the camera's frame interval
        self._last_t = t
        self.frames += 1
        moving = level >= self.level
        if moving:
            self._motion_t = t
        last, since = self._last_read, self._motion_t
        if self._first_t is None:
            self._first_t = t
        # the last motion, or the first frame when there was none: the settle is awaited for
        # hold_s after it at most
        ref = since if since is not None else self._first_t
        # a read is due when the frame nearest the due time comes (half a frame early at most)
        if last is None:
            want = True
        elif moving:
            want = t >= self._due - dt / 2
        elif (since is not None and t - since <= self.confirm_s) \
                or (settle_at is not None and t - ref <= self.hold_s):
            # the motion stopped: read the first still frame at once, the frame when the view
            # can be confirmed as settled, and at settle_rate meanwhile
            want = ((since is not None and last <= since)
                    or t - last >= 1 / self.settle_rate - dt / 2
                    or (settle_at is not None and last < settle_at <= t))
        else:
            want = t - last >= self.idle_s - dt / 2
        if not want or not self._allowed(t):
            return False
        self._reads.append(t)
        self._last_read = t
        # the next read while moving: evenly spaced at moving_rate
        step = 1 / self.moving_rate
        self._due = self._due + step if t - self._due < step / 2 else t + step
        self.reads += 1
        return True

    def _allowed(self, t: float) -> bool:
        """Within the budget: fewer than ``budget`` reads in the second before ``t``, and not
        sooner than half the budget's spacing after the last (no bursts)."""
        while self._reads and self._reads[0] <= t - 1.0:
            self._reads.popleft()
        if len(self._reads) + 1 > self.budget:
            return False
        return self._last_read is None or t - self._last_read >= 0.5 / self.budget - 1e-9


__all__ = ["DEFAULT_DIE_FRAC", "MOVING", "MotionMeter", "ReadGate"]
