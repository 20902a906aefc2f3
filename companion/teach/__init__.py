"""Teaching the table its own dice, by touch: the teaching screen's model, and the table's
teacher (no Kivy here: tested as plain Python).

- :class:`TeachModel` is what the teaching screen shows and what each tap means: the players
  take a picture of a roll (or of six dice laid out 1 to 6, left to right), the companion shows
  what it read, and a tap on a die sets its face (or says it is no die), a tap where a die
  was missed adds one. "Right" keeps the picture as a lesson; "Learn" fits the reader to
  every lesson.
- :class:`Teacher` owns the table's profile while the app runs: it turns lessons, and the dice
  the players confirm or correct in play (:meth:`Teacher.add_play`), into examples in the
  profile (:mod:`calibration.teach`), fits the reader again, saves the profile and hands the
  new vision profile to whoever reads the dice. The slow work (cutting examples, fitting:
  seconds on a Pi) runs on its own thread, one job at a time, in order.
"""

from __future__ import annotations

import logging
import math
import threading
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, replace
from enum import Enum
from typing import Any

import numpy as np
import numpy.typing as npt

from companion.words import plural
from vision import Profile, Reading

log = logging.getLogger(__name__)

Image = npt.NDArray[Any]

#: What a die of the teaching picture is: read by the camera (and not touched), set by the
#: players, added where the camera missed it, or said to be no die.
Source = Enum("Source", "READ SET ADDED NOT_A_DIE")


class Mode(Enum):
    """How the players show their dice: rolled (each face read or tapped), or six dice laid
    out in a row showing 1 to 6, left to right (each face given by its place)."""

    ROLL = "roll"
    LAYOUT = "layout"


@dataclass(frozen=True)
class Mark:
    """One die of the teaching picture: where (frame pixels), how big, its face (None:
    unsure, or no die), and how the players left it."""

    center: tuple[float, float]
    size: float
    value: int | None
    source: Source

    @property
    def is_die(self) -> bool:
        return self.source is not Source.NOT_A_DIE


#: A tap this close to a die (in die sizes) is a tap on it.
TAP_REACH = 0.8
#: The size of a die added by a tap when no die is in the picture (px of a 640 px frame).
DEFAULT_SIZE = 40.0


class TeachModel:
    """What the teaching screen shows and what each tap does.

    ``taken`` is the picture being corrected (BGR) or None while the camera is live; ``marks``
    its dice; ``selected`` the die whose face the keypad sets (None: none). ``lessons`` counts
    the pictures kept, ``dice`` the dice in them.
    """

    def __init__(self) -> None:
        self.mode = Mode.ROLL
        self.taken: Image | None = None
        self.marks: list[Mark] = []
        self.selected: int | None = None
        self.lessons = 0
        self.dice = 0

    # -- taking a picture ---------------------------------------------------------------

    def take(self, frame: Image, reading: Reading, mode: Mode = Mode.ROLL) -> None:
        """Freeze ``frame`` with what the camera read in it, the first die it was unsure of
        chosen. Laid out (``Mode.LAYOUT``): the dice, left to right, show 1 to 6 (more than
        six: the seventh starts again at 1)."""
        self.mode = mode
        self.taken = frame
        dice = sorted(reading.dice, key=lambda d: d.center[0]) if mode is Mode.LAYOUT \
            else list(reading.dice)
        self.marks = []
        for i, d in enumerate(dice):
            if mode is Mode.LAYOUT:
                value: int | None = i % 6 + 1
                source = Source.READ if d.value == value else Source.SET
            else:
                value, source = d.value, Source.READ
            self.marks.append(Mark(d.center, d.size, value, source))
        self.selected = self._next_unsure()

    def again(self) -> None:
        """Drop the picture: back to the live camera."""
        self.taken = None
        self.marks = []
        self.selected = None

    # -- taps -----------------------------------------------------------------------------

    def tap(self, x: float, y: float) -> None:
        """A tap on the picture at (x, y), frame pixels: on a die, select it; elsewhere, add a
        die there (unsure until its face is set) and select it."""
        if self.taken is None:
            return
        near = [(math.hypot(m.center[0] - x, m.center[1] - y) / m.size, i)
                for i, m in enumerate(self.marks)]
        close = [d for d in near if d[0] <= TAP_REACH]
        if close:
            self.selected = min(close)[1]
            return
        sizes = [m.size for m in self.marks if m.is_die]
        size = float(np.median(sizes)) if sizes else DEFAULT_SIZE * self.taken.shape[1] / 640
        self.marks.append(Mark((x, y), size, None, Source.ADDED))
        self.selected = len(self.marks) - 1

    def set_value(self, value: int) -> None:
        """The selected die shows ``value`` (1..6); the next die with no face is chosen."""
        if not 1 <= value <= 6:
            raise ValueError(f"a die's face is 1..6, got {value!r}")
        if self.selected is None:
            return
        m = self.marks[self.selected]
        source = Source.ADDED if m.source is Source.ADDED else Source.SET
        self.marks[self.selected] = replace(m, value=value, source=source)
        self.selected = self._next_unsure()

    def _next_unsure(self) -> int | None:
        """The first die with no face yet (the keypad asks for it next: one tap a die)."""
        return next((i for i, m in enumerate(self.marks) if m.is_die and m.value is None),
                    None)

    def not_a_die(self) -> None:
        """The selected mark is no die (the camera took something else for one); a die the
        players added is taken away."""
        if self.selected is None:
            return
        m = self.marks[self.selected]
        if m.source is Source.ADDED:
            del self.marks[self.selected]
        else:
            self.marks[self.selected] = replace(m, value=None, source=Source.NOT_A_DIE)
        self.selected = None

    # -- what the players see -------------------------------------------------------------

    @property
    def unsure(self) -> int:
        """Dice of the picture with no face yet (the players must set them)."""
        return sum(1 for m in self.marks if m.is_die and m.value is None)

    def problem(self) -> str | None:
        """Why the picture cannot be kept yet, in words; None when it can."""
        if self.taken is None:
            return "Take a picture first."
        if not any(m.is_die for m in self.marks):
            return "No dice in this picture: tap each die to add it, or roll again."
        if self.unsure:
            return (f"{self.unsure} {'die has' if self.unsure == 1 else 'dice have'} no face "
                    "yet: tap it and choose its face.")
        return None

    def lesson(self) -> list[tuple[int, tuple[float, float], float]]:
        """The picture's dice as (value, centre, size), once :meth:`problem` is None.
        Raised before: ValueError naming the problem."""
        problem = self.problem()
        if problem is not None:
            raise ValueError(problem)
        return [(int(m.value), m.center, m.size) for m in self.marks
                if m.is_die and m.value is not None]

    def kept(self) -> None:
        """The picture was kept as a lesson: count it, back to the live camera."""
        self.lessons += 1
        self.dice += sum(1 for m in self.marks if m.is_die)
        self.again()

    def words(self) -> str:
        """What the players are asked to do now."""
        if self.taken is None:
            return ("Roll a handful of your dice into the tray and press Take, or lay six "
                    "dice in a row showing 1 to 6 (left to right) and press Take 1-6.")
        if self.selected is not None:
            return "Choose this die's face (or No die)."
        problem = self.problem()
        if problem is not None and self.marks:
            return problem
        return ("Tap a die to change its face, tap where a die was missed to add it; "
                "then press Right.")


def draw_marks(frame: Image, marks: Sequence[Mark], selected: int | None) -> Image:
    """The teaching picture (RGB): each die ringed with its face (``?`` when it has none):
    green as the camera read it, blue where the players set or added it, red crossed when it
    is no die; the selected one thicker, in yellow."""
    import cv2

    out = frame.copy()
    line = max(2, round(frame.shape[1] / 320))
    for i, m in enumerate(marks):
        x, y = round(m.center[0]), round(m.center[1])
        r = max(6, round(m.size * 0.62))
        colour = {Source.READ: (60, 200, 60), Source.SET: (255, 140, 40),
                  Source.ADDED: (255, 140, 40), Source.NOT_A_DIE: (40, 40, 230)}[m.source]
        if m.source is Source.READ and m.value is None:
            colour = (0, 160, 255)
        width = line
        if i == selected:
            colour, width = (0, 230, 255), line * 2
        cv2.circle(out, (x, y), r, colour, width, cv2.LINE_AA)
        if m.source is Source.NOT_A_DIE:
            d = round(r * 0.7)
            cv2.line(out, (x - d, y - d), (x + d, y + d), colour, width, cv2.LINE_AA)
            cv2.line(out, (x - d, y + d), (x + d, y - d), colour, width, cv2.LINE_AA)
            continue
        text = str(m.value) if m.value is not None else "?"
        scale = max(0.6, m.size / 40.0)
        (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, line)
        org = (x - tw // 2, y - r - 4) if y - r - 4 - th > 0 else (x - tw // 2, y + r + th + 4)
        cv2.putText(out, text, org, cv2.FONT_HERSHEY_SIMPLEX, scale, (0, 0, 0), line * 3,
                    cv2.LINE_AA)
        cv2.putText(out, text, org, cv2.FONT_HERSHEY_SIMPLEX, scale, colour, line, cv2.LINE_AA)
    rgb: Image = cv2.cvtColor(out, cv2.COLOR_BGR2RGB)
    return rgb


# --------------------------------------------------------------------------- the teacher


@dataclass(frozen=True)
class Taught:
    """What a teacher's job ended with, for the screen: the words to show, the profile's
    examples now (dice among them), and whether it went wrong."""

    words: str
    dice: int = 0
    failed: bool = False


class Teacher:
    """The table's own dice, taught while the app runs (see the module's docstring).

    ``store`` is the profile store; ``name`` the profile taught (made when there is none);
    ``apply`` is told each new vision profile (on the teacher's thread: hand it on to the UI's);
    ``reader`` is the dice reader whose candidates examples are cut at (None: one with the
    shipped models, loaded on the teacher's thread when first needed).
    """

    def __init__(self, store: Any, name: str, apply: Callable[[Profile], None],
                 reader: Any = None) -> None:
        self.store = store
        self.name = name
        self.apply = apply
        self.reader = reader
        self._own_reader = reader is None  # loaded for a job, let go after it (memory)
        self._jobs = ThreadPoolExecutor(max_workers=1, thread_name_prefix="teach")
        self._lock = threading.Lock()
        self._closed = False

    def _reader(self) -> Any:
        if self.reader is None:
            from vision import DiceReader

            self.reader = DiceReader.shipped()
        return self.reader

    def _submit(self, job: Callable[[], Taught]) -> Future[Taught]:
        with self._lock:
            if self._closed:
                done: Future[Taught] = Future()
                done.set_result(Taught("The companion is closing: nothing was taught.",
                                       failed=True))
                return done
            return self._jobs.submit(self._guarded, job)

    def _guarded(self, job: Callable[[], Taught]) -> Taught:
        """A job whose failure is said in words (a damaged profile, a disk that refuses a
        write), never lost on the thread; the reader it loaded is let go after it (jobs are
        rare: the models' memory goes back to the table between them)."""
        from calibration.images import CalibrationError
        from calibration.profiles import ProfileError

        try:
            return job()
        except (CalibrationError, ProfileError, ValueError, OSError) as e:
            log.warning("companion: teaching the dice failed: %s", e)
            return Taught(f"Nothing was taught: {e}", failed=True)
        finally:
            if self._own_reader:
                self.reader = None

    def _profile(self) -> Any:
        return self.store.load_or_new(self.name)

    def _save(self, cp: Any) -> None:
        self.store.save(cp)
        self.apply(cp.profile)

    def add_view(self, frame: Image, dice: Sequence[tuple[int, tuple[float, float], float]],
                 origin: str = "tap") -> Future[Taught]:
        """Keep a picture whose every die the players named (value, centre, size) as a
        lesson: its dice, and what the reader took for dice there that are not, become
        examples. Fitted at :meth:`learn`."""
        def job() -> Taught:
            from calibration import teach

            cp = self._profile()
            labelled = [teach.LabelledDie(v, c, s) for v, c, s in dice]
            new = teach.examples_from_view(self._reader(), frame, labelled, cp.dice.views,
                                           "photo" if origin == "photo" else "tap",
                                           profile=cp.profile)
            taught = cp.dice.add(new)
            self.store.save(cp.with_dice(taught, cp.profile.head))
            return Taught(f"Kept: {plural(len(labelled), 'die', 'dice')}.", taught.dice)

        return self._submit(job)

    def learn(self) -> Future[Taught]:
        """Fit the reader to every example the table holds, save, and use it."""
        def job() -> Taught:
            from calibration import teach

            cp = self._profile()
            reader = self._reader()
            if reader.nets is None:
                return Taught("The dice reader's model files are missing: nothing to learn "
                              "with.", failed=True)
            lesson = teach.fit(reader.nets, cp.dice.decoded())
            self._save(cp.with_dice(cp.dice.with_lesson(lesson), lesson.head))
            return Taught(_lesson_words(lesson), cp.dice.dice)

        return self._submit(job)

    def add_play(self, reading: Reading, corrections: Mapping[int, str],
                 crops: Sequence[Image]) -> Future[Taught]:
        """Dice the players confirmed or corrected in play (``corrections``: a die's index in
        ``reading`` to its face, "1".."6"; icon faces are not learned here), their crops cut
        by the camera feed when the reading was taken: examples of this table, then the
        reader fitted again."""
        def job() -> Taught:
            from calibration import teach

            cp = self._profile()
            new = [teach.Example(int(face), crops[i], 1.0, cp.dice.views, "play")
                   for i, face in sorted(corrections.items())
                   if face in ("1", "2", "3", "4", "5", "6") and i < len(crops)]
            if not new:
                return Taught("No pip dice to learn.", cp.dice.dice)
            taught = cp.dice.add(new)
            reader = self._reader()
            if reader.nets is None:
                self.store.save(cp.with_dice(taught, cp.profile.head))
                return Taught(f"Kept {plural(len(new), 'die', 'dice')}.", taught.dice)
            lesson = teach.fit(reader.nets, taught.decoded())
            self._save(cp.with_dice(taught.with_lesson(lesson), lesson.head))
            return Taught(f"Learned {plural(len(new), 'more die', 'more dice')}.", taught.dice)

        return self._submit(job)

    def refresh(self) -> Future[Taught]:
        """Fit the table's head again from its examples when it was fitted for other models
        (a new release's), save and use it; nothing when it fits these models."""
        def job() -> Taught:
            from calibration import teach

            cp = self._profile()
            reader = self._reader()
            if reader.nets is None or not cp.dice.dice:
                return Taught("Nothing to fit again.", cp.dice.dice)
            head, lesson = teach.refit(reader.nets, cp.dice, cp.profile.head)
            if lesson is None:
                return Taught("The table's dice are read as taught.", cp.dice.dice)
            self._save(cp.with_dice(cp.dice.with_lesson(lesson), head))
            return Taught("What the table taught was fitted again for these models.",
                          cp.dice.dice)

        return self._submit(job)

    def forget(self) -> Future[Taught]:
        """Forget everything the table taught about its dice (its examples and the fitted
        head); the reader reads as it did before any teaching."""
        def job() -> Taught:
            cp = self._profile()
            dice = cp.dice.dice
            self._save(cp.forget_dice())
            return Taught(f"Forgot {plural(dice, 'die', 'dice')}: the dice are read as before "
                          "any teaching.")

        return self._submit(job)

    def count(self) -> Future[Taught]:
        """How many dice the table's profile holds (``Taught.dice``), read on the teacher's
        thread (a profile of hundreds of examples takes a moment to check)."""
        return self._submit(lambda: Taught("", self._profile().dice.dice))

    def holds(self) -> int:
        """How many dice the table's profile holds now (0 when it cannot be read); on the
        caller's thread."""
        from calibration.profiles import ProfileError

        try:
            return int(self._profile().dice.dice)
        except (ProfileError, OSError):
            return 0

    def close(self) -> None:
        """Let the job in hand finish; no more jobs."""
        self.retire()
        self._jobs.shutdown(wait=True)

    def retire(self) -> None:
        """No more jobs; the one in hand finishes on its own (its profile is saved; whoever
        reads the dice decides whether to use it)."""
        with self._lock:
            self._closed = True
        self._jobs.shutdown(wait=False)


def _lesson_words(lesson: Any) -> str:
    """What a fit did, for the players."""
    t, u = lesson.taught.share_right, lesson.untaught.share_right
    said = f"Learned {plural(lesson.dice, 'die', 'dice')}."
    if t is not None and u is not None:
        said += (f" In rolls left out while learning: {t:.0%} read right "
                 f"(before teaching: {u:.0%}).")
    return said


def crops_of(frame: Image, reading: Reading) -> list[Image]:
    """Each die of ``reading``'s crop as the table's examples keep it (cut from ``frame``)."""
    from calibration.teach import cut

    return [cut(frame, d.center[0], d.center[1], d.size) for d in reading.dice]


__all__ = [
    "Mark",
    "Mode",
    "Source",
    "Taught",
    "TeachModel",
    "Teacher",
    "crops_of",
    "draw_marks",
]
