"""The camera feed: one worker thread from camera frames to vision readings and settled rolls.

It opens the camera the table chose (:func:`hardware.camera.open_source`, in the documented
order of precedence; the stand-in draws vision's rendered dice), measures the motion of every
frame (:class:`vision.motion.MotionMeter`, well under 2 ms), runs the full reader
(a :class:`vision.DiceReader`, 80-135 ms a frame on a Pi) only on the frames a
:class:`vision.motion.ReadGate` picks (while something moves, once it stops and to confirm the
settle, and every 2 s while all is still; never more than ``reads_per_s`` a second), feeds the
readings and every frame's motion to a :class:`vision.RollTracker`, and keeps the newest
picture with vision's overlay of the last reading (:func:`vision.annotate`) for the live dice
view. Real
rolls (a die seen arriving and tumbling while the game expects a roll, see :meth:`expect`) go
to ``on_roll``; every settled view, rolls and handling alike (dice moved onto a board), to
``on_settled``. Both are called on the worker thread: the app hands them to the UI thread
through ``Clock.schedule_once``.

The thread runs only while something wants it (the dice view on screen, or a game that reads
dice), so an idle companion does not spend the Pi's CPU on vision. Wanting and releasing are
race-free: the worker decides to stop only under the feed's lock, when nobody wants it, and a
new want after that starts a new worker.

A stand-in picture (rendered dice) is always said to be one (:attr:`CameraFeed.label`), and its
rolls count in games (:attr:`CameraFeed.rolls_count`) only when the players chose it.

A folder of photos (``replay:FOLDER``) is a table that waits for the game
(:attr:`CameraFeed.photo_table`): each photo is a settled throw, held until the game asks for
a roll again (the calls have moved on since the photo was given: the next roller, the next
turn) or the players ask for the next one (:meth:`CameraFeed.next_photo`: the live dice
view's Next photo, or the N key). A photo with dice in it is one roll (:class:`PhotoThrows`),
given to the game once, while it expects one; a photo of an empty tray is passed over when a
roll is asked for. ``replay:FOLDER?hold=S`` (or ``[camera] hold`` in the config file) holds
each photo S seconds instead, whatever the game does; ``hold=0`` plays the folder as a film,
one frame per image, read by the roll tracker like a live camera. When the last photo has
been shown the feed says so (:attr:`CameraFeed.ended`, logged once): no more rolls will come
from it.
"""

from __future__ import annotations

import logging
import math
import threading
import time
import warnings
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from calibration.zones import Zone
from companion.contract import Snapshot
from companion.services.standin import LABEL as STAND_IN_LABEL
from companion.services.standin import stand_in_camera
from companion.theme import PALETTES
from hardware.camera import CameraChoice
from vision import DiceReader, Profile, Reading

log = logging.getLogger(__name__)

RollListener = Callable[[Reading], None]
#: A roll the game asks for: whom it waits on (empty: anyone) and how many calls it has had
#: (a new call, an undo or a redo asks anew, even of the same roller).
Request = tuple[tuple[str, ...], int]
TRIM_EVERY = 16  # frames between handing freed memory back to the system
#: Full reads a second at most, unless configured (``[camera] reads_per_s``): what a Pi affords.
READS_PER_S = 8.0
#: The rolls and settled views whose dice's crops the feed keeps (for the players' corrections).
KEPT_CROPS = 4
#: Zone outlines in the seats' colours (BGR, as vision draws).
ZONE_COLOURS = tuple((round(b * 255), round(g * 255), round(r * 255))
                     for r, g, b, _ in PALETTES["okabe-ito"])


class Source(Protocol):
    """What the feed needs of a camera source (``name``: its spec, "synthetic" for the
    stand-in)."""

    name: str

    def read(self) -> Any: ...

    def close(self) -> None: ...


def describe(spec: str) -> str:
    """A camera spec in plain words."""
    name, _, arg = spec.partition(":")
    name = name.strip().lower()
    if name == "picamera2":
        return "Pi camera" + (f" {arg}" if arg and arg != "0" else "")
    if name == "opencv":
        if not arg or arg.strip().isdigit():
            return f"USB camera {arg.strip() or 0}"
        return f"video {arg}"
    if name == "replay":
        return f"replay of {arg.partition('?')[0]}"
    if name == "synthetic":
        return STAND_IN_LABEL
    if name == "auto":
        return "the camera found"
    return spec


class PhotoThrows:
    """A folder of photos as throws: each photo (by its number) with dice in it is one
    settled roll, given once, as soon as a roll is expected while it is shown. For a table
    that waits for the game, :meth:`wants_next` says when the next photo is due."""

    def __init__(self) -> None:
        self.photo = -1
        self.given = True
        self.given_for: Request | None = None  # the request the photo shown was given for

    def update(self, photo: int, reading: Reading, expected: tuple[str, ...] | None,
               request: Request | None = None) -> bool:
        """A new frame of ``photo``: True when it is to be given to the game as a roll now
        (``request``: the roll the game asks for, which it is given for)."""
        if photo != self.photo:
            self.photo, self.given = photo, False
        if self.given or expected is None or not reading.dice:
            return False
        self.given, self.given_for = True, request
        return True

    def wants_next(self, request: Request | None, reading: Reading | None) -> bool:
        """A table that waits: True when the game asks for a roll (``request``) that the
        photo shown cannot answer: it was given for an earlier request, or it shows no die."""
        if request is None or reading is None:
            return False
        return (self.given and self.given_for != request) or not reading.dice


def photo_table(spec: str, config: Mapping[str, Any]) -> bool:
    """Whether ``spec`` is a folder of photos that waits for the game: ``replay:FOLDER``,
    with no hold in the spec (``?hold=S``) or the config file (``[camera] hold``)."""
    from pathlib import Path

    name, _, arg = spec.partition(":")
    if name.strip().lower() != "replay":
        return False
    path, _, query = arg.partition("?")
    camera = config.get("camera")
    held = "hold" in query or (isinstance(camera, Mapping) and "hold" in camera)
    return not held and Path(path).is_dir()


def replay_ended(spec: str, error: Exception) -> str:
    """The players' words for the end of a replayed folder or video (``spec``: the camera's,
    ``replay:PATH``; ``error``: the source's EndOfStream, "...: end of replay after 7
    images")."""
    from pathlib import Path

    path = spec.partition(":")[2].partition("?")[0]
    what = Path(path).name or path
    how = str(error).rpartition(": ")[2] or "end of replay"
    return (f"The replay of {what} has ended ({how}): no more rolls will come from the "
            "camera. Enter the dice by hand.")


class CameraFeed:
    """Frames -> readings -> settled rolls, on a worker thread, while wanted.

    ``choice`` is the camera chosen (a :class:`hardware.camera.CameraChoice`, or a spec
    string: ``synthetic``, ``picamera2``, ``opencv:0``, ``replay:PATH``, ``auto``); ``config``
    the parsed config file (its ``[camera]`` options); ``profile`` a vision Profile or None;
    ``fps`` caps how many frames a second are taken from the camera (each one's motion is
    measured); ``reads_per_s`` how many of them the full reader may read in any second (None:
    the ``[camera]`` option ``reads_per_s``, else 8, a Raspberry Pi's budget); ``reader``
    the :class:`vision.DiceReader` that reads the frames (None: one with the shipped models,
    loaded by the worker when it first runs). ``open_source`` is injectable for tests.

    Raised when ``fps`` or ``reads_per_s`` is not a number > 0: ``ValueError``.
    """

    def __init__(self, choice: CameraChoice | str, *, config: Mapping[str, Any] | None = None,
                 profile: Profile | None = None, fps: float = 15.0,
                 reads_per_s: float | None = None, settle_s: float = 0.3,
                 open_source: Callable[[str], Source] | None = None,
                 reader: DiceReader | None = None) -> None:
        self.choice = choice if isinstance(choice, CameraChoice) else CameraChoice(choice,
                                                                                   "given")
        self.spec = self.choice.spec
        self.config = dict(config or {})
        self.profile = profile
        if reader is not None and not isinstance(reader, DiceReader):
            raise ValueError(f"camera feed: reader must be a vision.DiceReader, "
                             f"got {type(reader).__name__}")
        self.reader = reader
        if reads_per_s is None:
            table = self.config.get("camera", {})
            reads_per_s = table.get("reads_per_s", READS_PER_S) if isinstance(table, Mapping) \
                else READS_PER_S
        for name, value in (("fps", fps), ("reads_per_s", reads_per_s)):
            if isinstance(value, bool) or not isinstance(value, (int, float)) \
                    or not math.isfinite(value) or value <= 0:
                raise ValueError(f"camera feed: {name} must be a number > 0, got {value!r}")
        self.period = 1.0 / fps
        self.reads_per_s = float(reads_per_s)
        self.settle_s = settle_s
        self.on_roll: RollListener | None = None
        self.on_settled: RollListener | None = None
        self._expect: tuple[str, ...] | None = None  # whom a roll is expected from (None: no one)
        self._turn = 0  # calls the game has had (a roll asked again after a call is a new one)
        self._expect_changed = False
        self._next_photo = False  # the players asked for the next photo
        #: A folder of photos that waits for the game (see the module docstring).
        self.photo_table = photo_table(self.spec, self.config)
        self.zones: Sequence[Zone] = ()  # outlined on the picture
        self.label = describe(self.spec)
        self.stand_in = self.choice.stand_in
        self.error: str | None = None
        self.ended: str | None = None  # a replay has shown its last picture: why, in words
        self.why = ""  # why the stand-in is shown, when no camera was found
        self.frames = 0  # frames taken from the camera and shown (a held photo once)
        self.taken = 0  # frames taken from the camera, each frame of a held photo too
        self.reads = 0  # of them, frames read by the full reader
        self.read_times: deque[float] = deque(maxlen=256)  # frame times of the last full reads
        self._open = open_source
        self._source: Source | None = None
        self._latest: Snapshot | None = None
        #: the dice of the last rolls and settled views given to the game, as crops (the
        #: players' corrections of them teach the table: companion.teach), newest last
        self._crops: deque[tuple[Reading, list[Any]]] = deque(maxlen=KEPT_CROPS)
        self._wanted: set[str] = set()
        self._plain: set[str] = set()  # who wants frames without the overlay too
        self._closed = False
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._thread: threading.Thread | None = None

    @property
    def rolls_count(self) -> bool:
        """Its settled rolls may enter a game: a real camera, or the stand-in chosen."""
        return not self.stand_in or self.choice.stand_in

    # -- who wants the camera ---------------------------------------------------------------

    def want(self, who: str, plain: bool = False) -> None:
        """Start (or keep) the worker for ``who`` ("dice-view", "game"). ``plain``: also keep
        the frame as the camera gave it in each snapshot (:attr:`Snapshot.plain`), until
        ``who`` releases the camera (one more frame held: only while asked)."""
        with self._lock:
            if self._closed:
                return
            self._wanted.add(who)
            if plain:
                self._plain.add(who)
            if self._thread is None:
                self._wake.clear()
                self._thread = threading.Thread(target=self._work, daemon=True,
                                                name="camera-feed")
                self._thread.start()

    def release(self, who: str) -> None:
        """``who`` no longer needs frames; the worker stops when nobody does."""
        with self._lock:
            self._wanted.discard(who)
            self._plain.discard(who)
            if not self._wanted:
                self._wake.set()

    def expect(self, rollers: Sequence[str] | None, turn: int = 0) -> None:
        """Say whether the game expects a roll now and from whom (empty: anyone; None: no
        roll is expected, so dice that move and settle are handling, not a roll), and how many
        calls it has had (``turn``: a table of photos gives its next photo when the game asks
        for a roll after another call, even of the same roller)."""
        value = None if rollers is None else tuple(rollers)
        with self._lock:
            self._turn = turn
            if value != self._expect:
                self._expect, self._expect_changed = value, True

    def next_photo(self) -> bool:
        """The players ask for the next photo of a table of photos (the live dice view's Next
        photo, the N key): shown at the next frame, and given to the game if it expects a
        roll. False (nothing done) for any other camera."""
        if not self.photo_table:
            return False
        with self._lock:
            self._next_photo = True
            self._wake.set()
        return True

    @property
    def expected(self) -> tuple[str, ...] | None:
        with self._lock:
            return self._expect

    @property
    def wanted(self) -> frozenset[str]:
        with self._lock:
            return frozenset(self._wanted)

    @property
    def running(self) -> bool:
        thread = self._thread
        return thread is not None and thread.is_alive()

    def latest(self) -> Snapshot | None:
        with self._lock:
            return self._latest

    def close(self, timeout: float = 2.0) -> None:
        """Stop the worker and close the camera (idempotent)."""
        with self._lock:
            self._closed = True
            self._wanted.clear()
            self._wake.set()
            thread = self._thread
        if thread is not None:
            thread.join(timeout)
        source, self._source = self._source, None
        if source is not None:
            source.close()

    # -- the worker -------------------------------------------------------------------------

    def _open_source(self) -> Source:
        if self._open is not None:
            return self._open(self.spec)
        from hardware.camera import CameraFallback, open_source

        extra: dict[str, Any] = {}
        if self.photo_table:
            extra["step"] = True  # a folder of photos: each a settled throw, until asked
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", CameraFallback)
            source = open_source(self.spec, self.config, stand_in=stand_in_camera, **extra)
        self.stand_in = source.name == "synthetic"
        fell = [str(w.message) for w in caught if issubclass(w.category, CameraFallback)]
        if self.stand_in and not self.choice.stand_in:
            self.label = STAND_IN_LABEL
            self.why = fell[0] if fell else ""
        elif self.choice.auto:
            self.label = describe(source.name)
        return source

    def _keep_going(self) -> bool:
        """Under the lock: go on while wanted; else the worker ends here (atomically with the
        check a new want makes, so a want never finds a worker that is about to stop)."""
        with self._lock:
            if self._wanted and not self._closed:
                return True
            self._thread = None
            return False

    def _work(self) -> None:
        from hardware.errors import EndOfStream
        from vision import RollTracker
        from vision.motion import MotionMeter, ReadGate

        trim = _malloc_tamer()
        throws = PhotoThrows()
        last: Reading | None = None  # the reading of the photo held now
        # dice lying in the tray when the camera starts are last game's, not a roll
        with self._lock:
            tracker = RollTracker(settle_s=self.settle_s, emit_initial=False,
                                  expect=self._expect)
            self._expect_changed = False
        meter = MotionMeter()
        gate = ReadGate(self.reads_per_s, settle_s=self.settle_s)
        reading = Reading.empty()  # the last full reading (the gate reads the first frame)
        try:
            if self.reader is None:  # the models load here, off the UI thread, once
                self.reader = DiceReader.shipped()
            reader = self.reader
            if self._source is None:
                self._source = self._open_source()
            while self._keep_going():
                started = time.monotonic()
                source = self._source
                if source is None:  # closed while a read was in flight
                    continue
                with self._lock:
                    if self._expect_changed:
                        tracker.expect(self._expect)
                        self._expect_changed = False
                    expected = self._expect
                    request = None if expected is None else (expected, self._turn)
                    asked, self._next_photo = self._next_photo, False
                stepping = getattr(source, "step", False)
                if stepping and (asked or throws.wants_next(request, last)):
                    source.next_photo()  # type: ignore[attr-defined]
                frame = source.read()
                self.taken += 1
                held = stepping or getattr(source, "hold", None)
                photo = getattr(source, "photo", -1) if held else -1
                if photo >= 0:  # a held photo: a settled throw, not dice to follow
                    if photo != throws.photo or last is None:  # read each photo once
                        last = reader.read(frame.image, self.profile)
                        self._publish(frame, last, moving=False)
                    thrown = throws.update(photo, last, expected, request)
                    roll = settled = last if thrown else None
                else:
                    level = meter.measure(frame.image)
                    if gate.decide(frame.t, level, settle_at=tracker.settle_at):  # first: yes
                        reading = reader.read(frame.image, self.profile)
                        sizes = sorted(d.size for d in reading.dice)
                        if sizes:  # the motion is measured in this table's die areas
                            meter.die_size = sizes[len(sizes) // 2]
                        state = tracker.update(reading, frame.t, motion=level)
                        with self._lock:
                            self.reads += 1
                            self.read_times.append(frame.t)
                    else:
                        state = tracker.motion(frame.t, level)
                    # the last reading over the live picture
                    self._publish(frame, reading, moving=state.moving)
                    roll = None if state.roll is None else state.roll.reading
                    settled = state.settled
                for given in {id(r): r for r in (roll, settled) if r is not None}.values():
                    self._keep_crops(frame.image, given)
                if roll is not None and self.on_roll is not None:
                    self.on_roll(roll)
                if settled is not None and self.on_settled is not None:
                    self.on_settled(settled)
                if trim is not None and (self.frames <= 8 or self.frames % TRIM_EVERY == 0):
                    trim()
                self._wake.wait(max(0.0, self.period - (time.monotonic() - started)))
                self._wake.clear()
        except EndOfStream as e:  # a replay's last picture: a state to show, not an error
            said = replay_ended(self.spec, e)
            if self.ended != said:  # logged once, however often the view asks again
                log.warning("companion: %s", said)
            with self._lock:
                self.ended = said
                self._thread = None
        except Exception as e:  # a camera failing must not kill the app: the view says why
            with self._lock:
                self.error = f"{type(e).__name__}: {e}"
                self._thread = None

    def _keep_crops(self, image: Any, reading: Reading) -> None:
        """The worker: keep each pip die's crop of a reading given to the game (the dice lie
        still in ``image``), for :meth:`crops_of`."""
        if not reading.dice or any(d.face is not None and d.value is None
                                   for d in reading.dice):
            return  # no dice, or icon dice: nothing the table's pip dice could learn
        from companion.teach import crops_of

        crops = crops_of(image, reading)
        with self._lock:
            self._crops.append((reading, crops))

    def crops_of(self, reading: Reading) -> list[Any] | None:
        """The crops of ``reading``'s dice (in its order), if it is one of the last rolls or
        settled views the feed gave (:data:`KEPT_CROPS`); None otherwise."""
        with self._lock:
            for kept, crops in reversed(self._crops):
                if kept is reading:
                    return list(crops)
        return None

    def _publish(self, frame: Any, reading: Reading, *, moving: bool) -> None:
        """Keep the frame with vision's overlay (and the zones) as the newest snapshot."""
        import cv2

        from vision import annotate

        shown = annotate(frame.image, reading)
        zones = self.zones
        if zones:
            from calibration.zones import count_dice, draw_zones

            shown = draw_zones(shown, zones, ZONE_COLOURS, count_dice(zones, reading.dice))
        # `shown` is the overlay's own copy: turn it to RGB in place (no third frame)
        rgb = cv2.cvtColor(shown, cv2.COLOR_BGR2RGB, dst=shown)
        with self._lock:
            self.frames += 1
            plain = frame.image if self._plain else None
            self._latest = Snapshot(self.frames, rgb, reading, moving, plain)
            self.error = None


def _malloc_tamer() -> Callable[[], None] | None:
    """Keep the feed's memory flat on glibc (the Pi, this machine): every frame allocates and
    frees frame-sized buffers, which glibc would otherwise keep in its heaps. Buffers over
    256 KiB get their own mapping (returned at once on free), threads share at most two
    heaps, and the returned function hands freed heap memory back. None elsewhere."""
    import ctypes
    import ctypes.util
    import sys

    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        libc.mallopt(-3, 256 * 1024)  # M_MMAP_THRESHOLD (fixed: no dynamic growth)
        libc.mallopt(-8, 2)  # M_ARENA_MAX
        trim = libc.malloc_trim
    except (OSError, AttributeError):  # not glibc (musl, ...): nothing to tame
        return None

    def release() -> None:
        trim(0)

    return release


__all__ = ["CameraFeed", "PhotoThrows", "Request", "Snapshot", "describe", "photo_table",
           "replay_ended"]
