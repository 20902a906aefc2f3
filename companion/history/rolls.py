"""The roll log: every settled roll the camera read, kept in the journal's database.

The app hands each settled roll to :meth:`RollLog.record` (plain data: one :class:`RolledDie`
per die, the journal game it belongs to, and the physical set the players named, if any), and
tells :meth:`RollLog.correct` when the players changed a die's face by touch. Each roll is one
row (``roll_log``, its dice as compact JSON); beside it ``roll_counts`` keeps, per set and
colour, how often each face was counted, updated in the same transaction as the roll, so the
fairness screen needs no scan of half a million rolls. :meth:`RollLog.recount` rebuilds the
counts from the rolls.

What counts (see docs/history.md): a die whose face the players set (a correction) counts with
that face, as *corrected*; otherwise a die counts only when the camera read its face with at
least ``CONFIDENT`` confidence; the rest are kept but counted as *unsure*.
"""

from __future__ import annotations

import json
import math
import sqlite3
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any

from companion import store
from companion.journal import Journal
from companion.words import plural
from vision.types import Die, Reading

#: The confidence from which a reading counts without the players' word: the same line below
#: which the table screens ask the players to confirm a die (``MIN_CONFIDENCE`` there).
CONFIDENT = 0.6

#: The face key under which dice that did not count (unsure, unread) are tallied.
UNSURE = "?"



class RollLogError(ValueError):
    """Raised for a roll or a correction that cannot be recorded; says which and why."""


@dataclass(frozen=True)
class RolledDie:
    """One die of a settled roll, as read: its face (``"1"``..``"6"`` for pips, an icon label
    otherwise; None when unread), its colour name (None when unknown) and the reading's
    confidence (0..1, kept to 3 decimals). ``fixed`` is the face the players set by touch, if
    they did."""

    face: str | None
    colour: str | None
    confidence: float
    fixed: str | None = None

    def __post_init__(self) -> None:
        for name in ("face", "colour", "fixed"):
            value = getattr(self, name)
            if value is not None and (not isinstance(value, str) or not value.strip()):
                raise RollLogError(f"RolledDie.{name} must be a non-empty string or None, "
                                   f"got {value!r}")
        c = self.confidence
        if isinstance(c, bool) or not isinstance(c, int | float) or not (
                math.isfinite(c) and 0.0 <= c <= 1.0):
            raise RollLogError(f"RolledDie.confidence must be within 0..1, got {c!r}")
        # Kept to 3 decimals, as stored: whether a die counts is decided on what is kept.
        object.__setattr__(self, "confidence", round(float(c), 3))

    @property
    def counted_face(self) -> str | None:
        """The face this die counts with in the statistics, or None (unsure)."""
        if self.fixed is not None:
            return self.fixed
        if self.face is not None and self.confidence >= CONFIDENT:
            return self.face
        return None

    def _plain(self) -> list[Any]:
        return [self.face, self.colour, self.confidence, self.fixed]

    @classmethod
    def _from_plain(cls, data: Sequence[Any]) -> RolledDie:
        face, colour, confidence, fixed = data
        return cls(face, colour, float(confidence), fixed)


@dataclass(frozen=True)
class Roll:
    """One settled roll for :meth:`RollLog.record_many`: its dice, the journal game it was
    rolled in, the named physical set, and when (Unix time; None: now)."""

    dice: tuple[RolledDie, ...]
    game_id: int | None = None
    dice_set: str | None = None
    wall: float | None = None


def dice_from_reading(reading: Reading) -> tuple[RolledDie, ...]:
    """The dice of a :class:`vision.Reading` as plain :class:`RolledDie`, in the reading's
    order. Raised for anything but a Reading: :class:`RollLogError` saying what it got."""
    if not isinstance(reading, Reading):
        raise RollLogError(f"a roll is read from a vision.Reading, got {type(reading).__name__}")
    return tuple(RolledDie(d.face, d.colour, d.confidence) for d in reading.dice)


def same_dice(recorded: Sequence[Die], seen: Sequence[Die]) -> dict[int, int]:
    """Which die of a recorded roll each die of a later picture is, for dice lying still:
    index in ``seen`` -> index in ``recorded``, for each seen die whose centre is within half
    a die (its ``size``) of exactly one recorded die's and nearest to it. Dice that moved, or
    that two dice could be, are left out. Raised when either holds anything but
    :class:`vision.Die`: :class:`RollLogError` saying what.
    """
    for name, dice in (("recorded", recorded), ("seen", seen)):
        odd = [type(d).__name__ for d in dice if not isinstance(d, Die)]
        if odd:
            raise RollLogError(f"same_dice: {name} must hold vision.Die values, got {odd[0]}")
    out: dict[int, int] = {}
    for i, die in enumerate(seen):
        reach = die.size / 2
        near = [j for j, old in enumerate(recorded) if math.dist(die.center, old.center) <= reach]
        if len(near) == 1:
            out[i] = near[0]
    taken = list(out.values())
    return {i: j for i, j in out.items() if taken.count(j) == 1}


@dataclass(frozen=True)
class FaceCounts:
    """How often each face was counted for one set and colour of dice.

    ``read``: faces counted as the camera read them; ``corrected``: faces the players set;
    ``unsure``: dice that did not count.
    """

    dice_set: str | None
    colour: str | None
    read: Mapping[str, int]
    corrected: Mapping[str, int]
    unsure: int

    @property
    def label(self) -> str:
        """"the red dice", "Ana's set (red)", "dice of unknown colour"."""
        colour = self.colour or "unknown colour"
        if self.dice_set:
            return f"{self.dice_set} ({colour})"
        return "dice of unknown colour" if self.colour is None else f"the {colour} dice"

    @property
    def faces(self) -> dict[str, int]:
        """Counted faces, corrected ones included."""
        out = dict(self.read)
        for face, n in self.corrected.items():
            out[face] = out.get(face, 0) + n
        return out

    @property
    def counted(self) -> int:
        return sum(self.read.values()) + sum(self.corrected.values())

    @property
    def corrected_total(self) -> int:
        return sum(self.corrected.values())


class RollLog:
    """The roll log in a journal's database file (given as a path or as the app's
    :class:`Journal`).

    It opens its own connection, usable from one thread at a time, whichever (the camera's
    worker thread, say). A roll is statistics, not the game: its writes are not synced one by
    one (``synchronous=NORMAL``: a power cut can lose the last rolls, never a journaled call),
    which keeps :meth:`record` to about a millisecond instead of an fsync. A context manager;
    :meth:`close` is idempotent.
    """

    def __init__(self, journal: Journal | Path | str) -> None:
        self.path = journal.path if isinstance(journal, Journal) else Path(journal)
        self._db: sqlite3.Connection | None = store.connect(self.path, synchronous="NORMAL")

    @property
    def db(self) -> sqlite3.Connection:
        if self._db is None:
            raise RollLogError(f"roll log {self.path} is closed")
        return self._db

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None

    def __enter__(self) -> RollLog:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    # -- writing ---------------------------------------------------------------------------

    def record(self, dice: Sequence[RolledDie], *, game_id: int | None = None,
               dice_set: str | None = None, wall: float | None = None) -> int:
        """Keep one settled roll; returns its id (for :meth:`correct`). A roll with no dice is
        refused. The write is not synced by itself (see the class): about a millisecond."""
        return self.record_many([Roll(tuple(dice), game_id, dice_set, wall)])[0]

    def record_many(self, rolls: Iterable[Roll]) -> list[int]:
        """Keep many rolls in one transaction (an import, a benchmark); returns their ids.
        Nothing is kept if any roll is refused."""
        checked = [self._check(r) for r in rolls]
        db = self.db
        ids = []
        with store.transaction(db, self.path):
            for roll, name in checked:
                cur = db.execute(
                    "INSERT INTO roll_log (wall, game_id, dice_set, corrected, dice) "
                    "VALUES (?, ?, ?, ?, ?)",
                    (time.time() if roll.wall is None else float(roll.wall), roll.game_id, name,
                     int(any(d.fixed is not None for d in roll.dice)),
                     json.dumps([d._plain() for d in roll.dice], separators=(",", ":"))))
                self._tally(name, roll.dice, +1)
                ids.append(int(cur.lastrowid or 0))
        return ids

    @staticmethod
    def _check(roll: Roll) -> tuple[Roll, str]:
        if not roll.dice:
            raise RollLogError("a roll with no dice: nothing to record")
        if not all(isinstance(d, RolledDie) for d in roll.dice):
            raise RollLogError(f"a roll takes RolledDie values, got {list(roll.dice)!r}")
        name = roll.dice_set
        if name is not None and (not isinstance(name, str) or not name.strip()):
            raise RollLogError(f"dice_set must be a non-empty name or None, got {name!r}")
        if roll.game_id is not None and (isinstance(roll.game_id, bool)
                                         or not isinstance(roll.game_id, int)):
            raise RollLogError(f"game_id must be a journal game id or None, got "
                               f"{roll.game_id!r}")
        return roll, (name or "").strip()

    def correct(self, roll_id: int, faces: Mapping[int, str]) -> None:
        """The players set the face of some dice of a roll (index in the roll -> face): the
        roll counts as corrected, those dice with the faces the players gave."""
        db = self.db
        row = db.execute("SELECT dice_set, dice FROM roll_log WHERE id=?", (roll_id,)).fetchone()
        if row is None:
            raise RollLogError(f"roll {roll_id}: not in the roll log")
        name, raw = row
        dice = [RolledDie._from_plain(d) for d in json.loads(raw)]
        for index, face in faces.items():
            if isinstance(index, bool) or not isinstance(index, int) or not (
                    0 <= index < len(dice)):
                raise RollLogError(f"roll {roll_id}: no die {index!r} (the roll has "
                                   f"{plural(len(dice), 'die', 'dice')})")
            if not isinstance(face, str) or not face.strip():
                raise RollLogError(f"roll {roll_id}, die {index}: face must be a non-empty "
                                   f"string, got {face!r}")
        new = [RolledDie(d.face, d.colour, d.confidence, faces.get(i, d.fixed))
               for i, d in enumerate(dice)]
        with store.transaction(db, self.path):
            self._tally(name, dice, -1)
            self._tally(name, new, +1)
            db.execute("UPDATE roll_log SET corrected=1, dice=? WHERE id=?",
                       (json.dumps([d._plain() for d in new], separators=(",", ":")), roll_id))

    def _tally(self, dice_set: str, dice: Iterable[RolledDie], sign: int) -> None:
        changes: dict[tuple[str, str], list[int]] = {}
        for d in dice:
            face = d.counted_face
            key = (d.colour or "", UNSURE if face is None else face)
            c = changes.setdefault(key, [0, 0])
            c[1 if d.fixed is not None else 0] += sign
        self.db.executemany(
            "INSERT INTO roll_counts (dice_set, colour, face, read, corrected) "
            "VALUES (?, ?, ?, ?, ?) ON CONFLICT (dice_set, colour, face) DO UPDATE SET "
            "read = read + excluded.read, corrected = corrected + excluded.corrected",
            [(dice_set, colour, face, r, c) for (colour, face), (r, c) in changes.items()])

    def recount(self) -> None:
        """Rebuild ``roll_counts`` from the rolls themselves."""
        db = self.db
        with store.transaction(db, self.path):
            db.execute("DELETE FROM roll_counts")
            for name, raw in db.execute("SELECT dice_set, dice FROM roll_log").fetchall():
                self._tally(name, [RolledDie._from_plain(d) for d in json.loads(raw)], +1)

    def clear(self, dice_set: str | None = None, colour: str | None = None) -> int:
        """Forget the rolls of one set (``""``: dice in no named set) and/or colour, or all
        rolls when both are None (new dice on the table); returns how many rolls went. A roll
        of several colours loses only the dice of that colour."""
        db = self.db
        gone = 0
        with store.transaction(db, self.path):
            rows = db.execute(
                "SELECT id, dice_set, dice FROM roll_log"
                + ("" if dice_set is None else " WHERE dice_set = ?"),
                () if dice_set is None else (dice_set,)).fetchall()
            for rid, name, raw in rows:
                dice = [RolledDie._from_plain(d) for d in json.loads(raw)]
                drop = [d for d in dice if colour is None or (d.colour or "") == colour]
                keep = [d for d in dice if colour is not None and (d.colour or "") != colour]
                if not drop:
                    continue
                self._tally(name, drop, -1)
                if keep:
                    db.execute("UPDATE roll_log SET dice=? WHERE id=?",
                               (json.dumps([d._plain() for d in keep], separators=(",", ":")),
                                rid))
                else:
                    db.execute("DELETE FROM roll_log WHERE id=?", (rid,))
                gone += 1
            db.execute("DELETE FROM roll_counts WHERE read = 0 AND corrected = 0")
        return gone

    # -- reading ---------------------------------------------------------------------------

    def rolls(self) -> int:
        """How many rolls are kept."""
        return int(self.db.execute("SELECT COUNT(*) FROM roll_log").fetchone()[0])

    def dice(self, roll_id: int) -> tuple[RolledDie, ...]:
        """The dice of one roll, as recorded and corrected."""
        row = self.db.execute("SELECT dice FROM roll_log WHERE id=?", (roll_id,)).fetchone()
        if row is None:
            raise RollLogError(f"roll {roll_id}: not in the roll log")
        return tuple(RolledDie._from_plain(d) for d in json.loads(row[0]))

    def count_rows(self) -> list[tuple[str, str, str, int, int]]:
        """The raw face counts (set, colour, face, read, corrected), in a fixed order: what
        a kept verdict was worked out from."""
        return [(str(a), str(b), str(c), int(d), int(e)) for a, b, c, d, e in self.db.execute(
            "SELECT dice_set, colour, face, read, corrected FROM roll_counts "
            "ORDER BY dice_set, colour, face")]

    def kept_verdicts(self, key: str) -> str | None:
        """The verdicts kept for the counts whose key is ``key`` (JSON), if any."""
        row = self.db.execute("SELECT data FROM roll_verdicts WHERE counts = ?",
                              (key,)).fetchone()
        return None if row is None else str(row[0])

    def keep_verdicts(self, key: str, data: str) -> None:
        """Keep the verdicts (JSON) of the counts whose key is ``key`` (only the last)."""
        with store.transaction(self.db, self.path):
            self.db.execute("DELETE FROM roll_verdicts")
            self.db.execute("INSERT INTO roll_verdicts (counts, data) VALUES (?, ?)",
                            (key, data))

    def counts(self) -> list[FaceCounts]:
        """Face counts per set and colour, most counted first."""
        groups: dict[tuple[str, str], tuple[dict[str, int], dict[str, int], list[int]]] = {}
        for name, colour, face, read, corrected in self.db.execute(
                "SELECT dice_set, colour, face, read, corrected FROM roll_counts"):
            g = groups.setdefault((name, colour), ({}, {}, [0]))
            if face == UNSURE:
                g[2][0] += read + corrected
                continue
            if read:
                g[0][face] = read
            if corrected:
                g[1][face] = corrected
        out = [FaceCounts(name or None, colour or None, read, corrected, unsure[0])
               for (name, colour), (read, corrected, unsure) in groups.items()]
        out.sort(key=lambda c: (-c.counted, c.label))
        return out
