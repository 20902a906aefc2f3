"""The roll log kept during play (docs/history.md): each settled roll the game expects, and the
dice the players confirmed or corrected by touch, written on a thread of its own (a write may
wait on the disk; the table never does).

A service of the app (``companion.compose`` makes it): the app hands it the rolls it lets
through and the corrections a game reports; it knows nothing of screens or games.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Mapping
from concurrent.futures import Future, ThreadPoolExecutor

from companion.history.rolls import RolledDie, RollLog, RollLogError, dice_from_reading, same_dice
from companion.journal import Journal
from companion.words import plural
from vision import Reading

log = logging.getLogger(__name__)


class RollRecorder:
    """Keeps the rolls of the games on ``journal``'s roll log, one thread, in order."""

    def __init__(self, journal: Journal) -> None:
        self.journal = journal
        self._writer: ThreadPoolExecutor | None = None
        self._log: RollLog | None = None
        #: The last roll given: the reading, and its roll id once written (None when not).
        self.recorded: tuple[Reading, Future[int | None]] | None = None

    def record(self, game_id: int, reading: Reading) -> None:
        """Keep one settled roll of game ``game_id`` (written behind, on the log's thread)."""
        dice = dice_from_reading(reading)
        self.recorded = (reading, self._thread().submit(self._write, game_id, dice))

    def correct(self, reading: Reading, corrections: Mapping[int, str]) -> None:
        """The players confirmed or corrected dice of ``reading`` (its index -> the face
        they gave): the recorded roll's dice are marked so (matched by position when the
        reading is not the one recorded last). Raises ValueError naming a die that is not in
        the reading or a face that is no text."""
        check_corrections(reading, corrections)
        recorded = self.recorded
        if recorded is None or not corrections:
            return
        known, written = recorded
        match = ({i: i for i in range(len(reading.dice))} if reading is known
                 else same_dice(known.dice, reading.dice))
        faces = {match[i]: face for i, face in corrections.items() if i in match}
        if faces:
            self._thread().submit(self._write_correction, written, faces)

    def close(self) -> None:
        """Finish what was given (waits for the writes), then close the log."""
        if self._writer is not None:
            self._writer.shutdown(wait=True)
        if self._log is not None:
            self._log.close()

    def _thread(self) -> ThreadPoolExecutor:
        if self._writer is None:
            self._writer = ThreadPoolExecutor(1, thread_name_prefix="roll-log")
        return self._writer

    def _write(self, game_id: int, dice: tuple[RolledDie, ...]) -> int | None:
        """The log's thread: keep one roll; its id, or None when it could not be kept (the
        game goes on: the statistics lose one roll, and the log says why)."""
        if self.journal.readonly:
            return None  # a read-only companion writes nothing, rolls included
        try:
            if self._log is None:
                self._log = RollLog(self.journal.path)
            return self._log.record(dice, game_id=game_id)
        except (RollLogError, sqlite3.Error, OSError) as e:
            log.warning("companion: a settled roll was not recorded: %s", e)
            return None

    def _write_correction(self, written: Future[int | None], faces: dict[int, str]) -> None:
        """The log's thread, after the roll's own write (one thread, in order)."""
        roll_id = written.result()
        if roll_id is None or self._log is None:
            return
        try:
            self._log.correct(roll_id, faces)
        except (RollLogError, sqlite3.Error, OSError) as e:
            log.warning("companion: a correction of roll %s was not recorded: %s", roll_id, e)


def check_corrections(reading: Reading, corrections: Mapping[int, str]) -> None:
    """Raise ValueError, in words, for a die that is not in ``reading`` or a face that is not
    a non-empty text."""
    for index, face in corrections.items():
        if isinstance(index, bool) or not isinstance(index, int) or not (
                0 <= index < len(reading.dice)):
            raise ValueError(f"correct_roll: no die {index!r} in a reading of "
                             f"{plural(len(reading.dice), 'die', 'dice')}")
        if not isinstance(face, str) or not face.strip():
            raise ValueError(f"correct_roll: die {index}: the face must be a non-empty "
                             f"string, got {face!r}")


__all__ = ["RollRecorder", "check_corrections"]
