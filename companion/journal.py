"""The journal: every game and every call, in SQLite, on disk before the screen shows it.

One file holds every game played on this machine (``companion.paths.journal_path()``). It runs
in WAL mode with ``synchronous=FULL``, so a call that :meth:`Journal.record_call` returned from
survives a power cut. The history is kept as the live list the game has: an undo marks the last
live call as taken back, a redo marks it live again, and a new call forgets the taken-back ones,
exactly as :meth:`rules.Game.apply` forgets its redo stack. So :meth:`Journal.resume` gives back
the same game, redo stack included, and :meth:`Journal.export` writes the game-file format that
``companion replay`` re-scores.
"""

from __future__ import annotations

import json
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any

from rules import Entry, Game, Setup, format_game_file, replay

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id       INTEGER PRIMARY KEY AUTOINCREMENT,
    setup    TEXT NOT NULL,
    title    TEXT NOT NULL DEFAULT '',
    started  REAL NOT NULL,
    finished REAL
);
CREATE TABLE IF NOT EXISTS calls (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq     INTEGER NOT NULL,
    call    TEXT NOT NULL,
    at      REAL,
    wall    REAL NOT NULL,
    undone  INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE IF NOT EXISTS clock (
    game_id INTEGER PRIMARY KEY REFERENCES games(id),
    round   INTEGER NOT NULL,
    elapsed REAL NOT NULL,
    paused  INTEGER NOT NULL,
    wall    REAL NOT NULL
);
"""


class JournalError(RuntimeError):
    """Raised when the journal cannot do what was asked; names the game and why."""


@dataclass(frozen=True)
class ClockRecord:
    """The round clock as last saved: which round, seconds into it, and whether it was paused."""

    round: int
    elapsed: float
    paused: bool


@dataclass(frozen=True)
class GameRecord:
    """One game in the journal: setup, live calls and calls taken back (oldest first)."""

    id: int
    setup: Setup
    title: str
    started: float
    finished: float | None
    entries: tuple[Entry, ...]
    undone: tuple[Entry, ...]
    clock: ClockRecord | None

    @property
    def calls(self) -> int:
        return len(self.entries)


class Journal:
    """The SQLite journal. A context manager; :meth:`close` is idempotent."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        # isolation_level=None: we open each transaction ourselves with BEGIN IMMEDIATE.
        self._db: sqlite3.Connection | None = sqlite3.connect(
            str(self.path), isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.executescript(_SCHEMA)

    @classmethod
    def open_or_set_aside(cls, path: Path | str) -> tuple[Journal, str]:
        """Open the journal at ``path``; when the file is not a sound SQLite journal (a damaged
        SD card, a stray file), rename it and its WAL aside as ``<name>.damaged-<time>``, start
        a new journal there, and say so. Returns (journal, "" or what happened). The damaged
        file is kept, never deleted: what can be read from it is still there."""
        path = Path(path)
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
                return journal, ""
            journal.close()
            why = str(verdict)
        aside = path.with_name(f"{path.name}.damaged-{time.strftime('%Y%m%d-%H%M%S')}")
        for suffix in ("", "-wal", "-shm"):
            part = Path(str(path) + suffix)
            if part.exists():
                part.rename(Path(str(aside) + suffix))
        return cls(path), (f"The game journal {path} was damaged ({why}); it was set aside as "
                           f"{aside.name} and a new one started. Its games cannot be resumed.")

    # -- lifecycle -------------------------------------------------------------------------

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None

    def __enter__(self) -> Journal:
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

    def _write(self, sql: str, params: tuple[Any, ...]) -> sqlite3.Cursor:
        db = self.db
        db.execute("BEGIN IMMEDIATE")
        try:
            cur = db.execute(sql, params)
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
        return cur

    def _check_open_game(self, game_id: int) -> None:
        row = self.db.execute("SELECT finished FROM games WHERE id=?", (game_id,)).fetchone()
        if row is None:
            raise JournalError(f"game {game_id}: not in the journal {self.path}")
        if row[0] is not None:
            raise JournalError(f"game {game_id}: already finished, takes no more calls")

    # -- writing ---------------------------------------------------------------------------

    def start_game(self, setup: Setup, title: str = "", wall: float | None = None) -> int:
        """Record a new game's setup; returns its id."""
        cur = self._write("INSERT INTO games (setup, title, started) VALUES (?, ?, ?)",
                          (json.dumps(setup.to_json()), title,
                           time.time() if wall is None else wall))
        assert cur.lastrowid is not None
        return int(cur.lastrowid)

    def record_call(self, game_id: int, entry: Entry, wall: float | None = None) -> int:
        """Append one call (forgetting calls taken back); returns its sequence number.

        Returns only once SQLite has synced the write to disk.
        """
        self._check_open_game(game_id)
        db = self.db
        db.execute("BEGIN IMMEDIATE")
        try:
            db.execute("DELETE FROM calls WHERE game_id=? AND undone=1", (game_id,))
            seq = db.execute("SELECT COALESCE(MAX(seq), 0) + 1 FROM calls WHERE game_id=?",
                             (game_id,)).fetchone()[0]
            db.execute("INSERT INTO calls (game_id, seq, call, at, wall) VALUES (?, ?, ?, ?, ?)",
                       (game_id, seq, entry.call, entry.at,
                        time.time() if wall is None else wall))
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
        return int(seq)

    def record_undo(self, game_id: int) -> Entry:
        """Mark the last live call as taken back; returns it."""
        self._check_open_game(game_id)
        row = self.db.execute(
            "SELECT seq, call, at FROM calls WHERE game_id=? AND undone=0 "
            "ORDER BY seq DESC LIMIT 1", (game_id,)).fetchone()
        if row is None:
            raise JournalError(f"game {game_id}: undo with no call to take back")
        self._write("UPDATE calls SET undone=1 WHERE game_id=? AND seq=?", (game_id, row[0]))
        return Entry(row[1], row[2])

    def record_redo(self, game_id: int) -> Entry:
        """Mark the first call taken back as live again; returns it."""
        self._check_open_game(game_id)
        row = self.db.execute(
            "SELECT seq, call, at FROM calls WHERE game_id=? AND undone=1 "
            "ORDER BY seq ASC LIMIT 1", (game_id,)).fetchone()
        if row is None:
            raise JournalError(f"game {game_id}: redo with no call taken back")
        self._write("UPDATE calls SET undone=0 WHERE game_id=? AND seq=?", (game_id, row[0]))
        return Entry(row[1], row[2])

    def save_clock(self, game_id: int, round_number: int, elapsed: float, paused: bool,
                   wall: float | None = None) -> None:
        """Remember the round clock, so a resumed game starts it where it stood."""
        self._write(
            "INSERT INTO clock (game_id, round, elapsed, paused, wall) VALUES (?, ?, ?, ?, ?) "
            "ON CONFLICT(game_id) DO UPDATE SET round=excluded.round, "
            "elapsed=excluded.elapsed, paused=excluded.paused, wall=excluded.wall",
            (game_id, round_number, float(elapsed), int(paused),
             time.time() if wall is None else wall))

    def finish(self, game_id: int, wall: float | None = None) -> None:
        """Mark a game finished (over, or abandoned): it is no longer offered for resume."""
        self._write("UPDATE games SET finished=? WHERE id=? AND finished IS NULL",
                    (time.time() if wall is None else wall, game_id))

    # -- reading ---------------------------------------------------------------------------

    def load(self, game_id: int) -> GameRecord:
        """Everything the journal holds about one game."""
        row = self.db.execute("SELECT id, setup, title, started, finished FROM games WHERE id=?",
                              (game_id,)).fetchone()
        if row is None:
            raise JournalError(f"game {game_id}: not in the journal {self.path}")
        calls = self.db.execute("SELECT call, at, undone FROM calls WHERE game_id=? ORDER BY seq",
                                (game_id,)).fetchall()
        clock_row = self.db.execute("SELECT round, elapsed, paused FROM clock WHERE game_id=?",
                                    (game_id,)).fetchone()
        clock = None if clock_row is None else ClockRecord(int(clock_row[0]),
                                                           float(clock_row[1]),
                                                           bool(clock_row[2]))
        return GameRecord(
            id=int(row[0]), setup=Setup.from_json(json.loads(row[1])), title=str(row[2]),
            started=float(row[3]), finished=None if row[4] is None else float(row[4]),
            entries=tuple(Entry(c, a) for c, a, u in calls if not u),
            undone=tuple(Entry(c, a) for c, a, u in calls if u),
            clock=clock)

    def unfinished(self) -> list[GameRecord]:
        """Games not marked finished, newest first: the ones to offer for resume."""
        ids = [r[0] for r in self.db.execute(
            "SELECT id FROM games WHERE finished IS NULL ORDER BY id DESC")]
        return [self.load(i) for i in ids]

    def games(self) -> list[GameRecord]:
        """Every game in the journal, newest first."""
        return [self.load(r[0]) for r in self.db.execute("SELECT id FROM games ORDER BY id DESC")]

    def resume(self, game_id: int) -> Game[Any]:
        """The game exactly as it was: its live calls replayed, its redo stack restored."""
        record = self.load(game_id)
        game = replay(record.setup, [*record.entries, *record.undone])
        for _ in record.undone:
            game.undo()
        return game

    def export(self, game_id: int) -> str:
        """The game as a game file (setup, ``---``, one call per line) for `companion replay`."""
        record = self.load(game_id)
        started = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(record.started))
        comment = f"journal game {record.id}, started {started}"
        if record.title:
            comment = f"{record.title}\n{comment}"
        return format_game_file(record.setup, record.entries, comment)


__all__ = ["ClockRecord", "GameRecord", "Journal", "JournalError"]
