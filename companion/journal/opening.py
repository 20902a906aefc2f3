"""The journal's file, open: opened through :mod:`companion.store` whatever state the file
is in (a damaged one is set aside and a new one started), closed, and the one way a write
goes to it (read-only when this process may not write). :class:`JournalFile` is what the
journal's games, calls and replays build on."""

from __future__ import annotations

import shutil
import sqlite3
import time
from pathlib import Path
from types import TracebackType
from typing import Any, Self

from companion import store
from companion.journal.damage import bad_link, odd_file, wal_problem
from companion.journal.records import JournalError
from companion.store import DataLock, ReadOnly, StoreError


class JournalFile:
    """The journal's SQLite file (opened through :mod:`companion.store`). A context manager;
    :meth:`close` is idempotent.

    ``readonly``: "" for a journal this process writes; otherwise why it may not (a read-only
    card, another companion holding the data folder), in words for the screen: the games can
    be read, and every write raises :class:`companion.store.ReadOnly` with that reason.
    """

    def __init__(self, path: Path | str, *, readonly: str = "",
                 synchronous: str = "FULL") -> None:
        self.path = Path(path)
        self.readonly = readonly
        #: the data folder's lock, held while this journal is open (the app's, see startfiles)
        self.lock: DataLock | None = None
        if not readonly:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        self._db: sqlite3.Connection | None = store.connect(
            self.path, synchronous=synchronous, readonly=bool(readonly))

    @classmethod
    def unavailable(cls, path: Path | str, why: str) -> Self:
        """A journal that holds nothing and takes nothing, for an app whose data folder
        cannot be used at all (``path`` is where the journal should be; ``why`` says why
        it is not)."""
        journal = cls.__new__(cls)
        journal.path = Path(path)
        journal.readonly = why
        journal.lock = None
        journal._db = store.connect(Path(":memory:"))  # the schema, and nothing in it
        return journal

    @classmethod
    def open_or_set_aside(cls, path: Path | str, *, readonly: str = "") -> tuple[Self, str]:
        """Open the journal at ``path`` whatever state the file is in, and say what was wrong.

        - not a sound SQLite journal (a damaged SD card, a stray file), or emptied to 0 bytes:
          the file and its WAL are renamed aside as ``<name>.damaged-<time>`` (kept, never
          deleted: what can be read is still there) and a new journal is started;
        - a write-ahead log (WAL) that is garbled, whose committed calls SQLite would
          silently skip: a copy of the log is kept aside, the journal opens with what the log
          still holds, and the players are told. (A log that ends in the middle of an entry
          is what a power cut during a write leaves: that entry was never acknowledged, so
          SQLite's skipping it loses nothing and nobody is told.)
        - a folder, a FIFO or a device where the log or its index should be: that one is
          renamed aside, the journal itself is sound and kept; a link to anything but a
          file (a dangling one) where the journal should be is renamed aside too.
        - ``readonly`` (why this process may not write): nothing is renamed or written; a
          journal that cannot be read gives an empty one that takes nothing.

        Returns (journal, "" or what happened, in words for the start-up notice)."""
        path = Path(path)
        stamp = time.strftime("%Y%m%d-%H%M%S")
        aside = path.with_name(f"{path.name}.damaged-{stamp}")
        why = ""
        notes: list[str] = []
        if readonly:
            try:
                return cls(path, readonly=readonly), ""
            except (sqlite3.Error, StoreError, OSError) as e:
                gone = "" if path.exists() else " (there is none yet)"
                return cls.unavailable(path, readonly), (
                    f"The game journal {path} cannot be read{gone}: {e}.")
        for suffix in ("-wal", "-shm"):
            odd = Path(str(path) + suffix)
            kind = odd_file(odd)
            if kind:
                moved = Path(str(aside) + suffix)
                odd.rename(moved)
                notes.append(f"{kind.capitalize()} was where the game journal's "
                             f"{suffix[1:].upper()} file {odd} should be; it was moved aside "
                             f"as {moved.name}.")
        if bad_link(path):  # nothing is written through it (SQLite would make its file)
            why = bad_link(path)
        elif path.is_dir():
            why = "it is a folder, not a file"
        elif path.exists() and odd_file(path):
            why = f"it is {odd_file(path)}, not a file"
        elif path.exists() and path.stat().st_size == 0:
            why = "the file was empty (0 bytes): its games were lost"
        else:
            wal = wal_problem(Path(str(path) + "-wal"))
            if wal:
                kept = Path(str(aside) + "-wal")
                shutil.copy2(str(path) + "-wal", kept)
                notes.append(f"The game journal's log {path.name}-wal {wal}; a copy is kept "
                             f"as {kept.name}. Check the last calls of any game you resume.")
            try:
                journal = cls(path)
            except sqlite3.DatabaseError as e:
                why = str(e)
            else:
                try:
                    verdict = journal.db.execute("PRAGMA quick_check").fetchone()[0]
                except sqlite3.DatabaseError as e:
                    verdict = str(e)
                if verdict == "ok":
                    return journal, " ".join(notes)
                journal.close()
                why = str(verdict)
        for suffix in ("", "-wal", "-shm"):
            part = Path(str(path) + suffix)
            if part.exists() or part.is_symlink():
                part.rename(Path(str(aside) + suffix))
        notes.append(f"The game journal {path} was damaged ({why}); it was set aside as "
                     f"{aside.name} and a new one started. Its games cannot be resumed.")
        return cls(path), " ".join(notes)

    # -- lifecycle -------------------------------------------------------------------------

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None
        if self.lock is not None:
            self.lock.release()
            self.lock = None

    def __enter__(self) -> Self:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    @property
    def db(self) -> sqlite3.Connection:
        if self._db is None:
            raise JournalError(f"journal {self.path} is closed")
        return self._db

    def pragma(self, name: str) -> Any:
        """Read one PRAGMA (for tests and `companion doctor`)."""
        return self.db.execute(f"PRAGMA {name}").fetchone()[0]

    def _writing(self) -> sqlite3.Connection:
        """The connection, for a write; :class:`ReadOnly` when this journal takes none."""
        if self.readonly:
            raise ReadOnly(self.readonly)
        return self.db

    def _write(self, sql: str, params: tuple[Any, ...]) -> sqlite3.Cursor:
        db = self._writing()
        with store.transaction(db, self.path):
            return db.execute(sql, params)

    def _check_open_game(self, game_id: int) -> None:
        row = self.db.execute("SELECT finished FROM games WHERE id=?", (game_id,)).fetchone()
        if row is None:
            raise JournalError(f"game {game_id}: not in the journal {self.path}")
        if row[0] is not None:
            raise JournalError(f"game {game_id}: already finished, takes no more calls")


__all__ = ["JournalFile"]
