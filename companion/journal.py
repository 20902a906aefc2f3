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
import shutil
import sqlite3
import struct
import time
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any

from companion import store
from companion.store import DataLock, ReadOnly, StoreError
from rules import (
    Ending,
    Entry,
    Game,
    ReplayError,
    RulesError,
    Setup,
    format_game_file,
    replay,
)


class JournalError(StoreError):
    """Raised when the journal cannot do what was asked; names the game and why. (A disk's
    refusal is one of its siblings: :class:`companion.store.DiskFull`, ``ReadOnly``.)"""


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
    problem: str | None = None  # why it cannot be resumed, once found
    ending: Ending | None = None  # ended by the players: agreed, or no result

    @property
    def calls(self) -> int:
        return len(self.entries)


class Journal:
    """The SQLite journal (opened through :mod:`companion.store`). A context manager;
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
    def unavailable(cls, path: Path | str, why: str) -> Journal:
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
    def open_or_set_aside(cls, path: Path | str, *, readonly: str = "") -> tuple[Journal, str]:
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
            kind = _odd_file(odd)
            if kind:
                moved = Path(str(aside) + suffix)
                odd.rename(moved)
                notes.append(f"{kind.capitalize()} was where the game journal's "
                             f"{suffix[1:].upper()} file {odd} should be; it was moved aside "
                             f"as {moved.name}.")
        if _bad_link(path):  # nothing is written through it (SQLite would make its file)
            why = _bad_link(path)
        elif path.is_dir():
            why = "it is a folder, not a file"
        elif path.exists() and _odd_file(path):
            why = f"it is {_odd_file(path)}, not a file"
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
        db = self._writing()
        self._check_open_game(game_id)
        with store.transaction(db, self.path):
            db.execute("DELETE FROM calls WHERE game_id=? AND undone=1", (game_id,))
            seq = db.execute("SELECT COALESCE(MAX(seq), 0) + 1 FROM calls WHERE game_id=?",
                             (game_id,)).fetchone()[0]
            db.execute("INSERT INTO calls (game_id, seq, call, at, wall) VALUES (?, ?, ?, ?, ?)",
                       (game_id, seq, entry.call, entry.at,
                        time.time() if wall is None else wall))
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

    def finish(self, game_id: int, wall: float | None = None,
               ending: Ending | None = None) -> None:
        """Mark a game finished (over, or abandoned): it is no longer offered for resume.
        ``ending``: the players ended it themselves, :attr:`Ending.AGREED` (its standings
        then are the result) or :attr:`Ending.NO_RESULT` (:mod:`companion.ending`).
        Raised when ``ending`` is another: JournalError naming it."""
        if ending is not None and ending not in (Ending.AGREED, Ending.NO_RESULT):
            raise JournalError(f"game {game_id}: ending {str(ending)!r} must be 'agreed' or "
                               "'no result'")
        self._write("UPDATE games SET finished=?, ending=? WHERE id=? AND finished IS NULL",
                    (time.time() if wall is None else wall,
                     None if ending is None else Ending(ending).value, game_id))

    def discard_empty(self, game_id: int) -> bool:
        """Forget a game that has no call at all (started by accident, or left before the
        first call): nothing of it is worth keeping. True when it was forgotten."""
        if self.readonly:
            return False  # another companion's (or a read-only card's) games are left alone
        db = self._writing()
        with store.transaction(db, self.path):
            if db.execute("SELECT 1 FROM calls WHERE game_id=? LIMIT 1",
                          (game_id,)).fetchone() is not None:
                return False
            db.execute("DELETE FROM clock WHERE game_id=?", (game_id,))
            gone = db.execute("DELETE FROM games WHERE id=?", (game_id,)).rowcount
        return bool(gone)

    def reopen(self, game_id: int) -> None:
        """Offer a finished game for resume again (a Drop taken back): not a game that is over,
        nor one that cannot be resumed."""
        self._write("UPDATE games SET finished=NULL, ending=NULL WHERE id=? AND problem IS NULL",
                    (game_id,))

    def discard_all_empty(self) -> int:
        """Forget every unfinished game with no call at all (the app does this as it starts,
        when no game is being played: one cut off before its first call, say). Returns how
        many were forgotten; none from a journal this process may not write)."""
        if self.readonly:
            return 0
        ids = [int(r[0]) for r in self.db.execute(
            "SELECT id FROM games g WHERE finished IS NULL AND NOT EXISTS "
            "(SELECT 1 FROM calls c WHERE c.game_id = g.id)")]
        return sum(self.discard_empty(i) for i in ids)

    def recent_setups(self, limit: int) -> list[tuple[int, Setup, bool]]:
        """(game id, setup, finished) of the newest ``limit`` games, newest first (a game
        whose setup cannot be read is left out)."""
        out = []
        for gid, raw, finished in self.db.execute(
                "SELECT id, setup, finished FROM games ORDER BY id DESC LIMIT ?", (limit,)):
            try:
                setup = Setup.from_json(json.loads(raw))
            except (ValueError, TypeError, RecursionError):
                continue
            out.append((int(gid), setup, finished is not None))
        return out

    def recent_groups(self, limit: int = 8) -> list[tuple[str, ...]]:
        """The groups of players of the latest games, newest first, each once (the roster the
        start screen offers: no list is kept apart from the games themselves)."""
        groups: list[tuple[str, ...]] = []
        for (setup,) in self.db.execute("SELECT setup FROM games ORDER BY id DESC LIMIT 200"):
            try:
                players = tuple(str(p) for p in json.loads(setup)["players"])
            except (ValueError, TypeError, KeyError, RecursionError):
                continue
            if players and players not in groups:
                groups.append(players)
            if len(groups) >= limit:
                break
        return groups

    def last_options(self, game: str) -> dict[str, Any] | None:
        """The options of the newest game of ``game`` kept here (what the players chose for
        it last: the start screen offers it again, after a game and after a restart; no
        choice is kept apart from the games themselves), or None when none is found."""
        for (setup,) in self.db.execute("SELECT setup FROM games ORDER BY id DESC LIMIT 200"):
            try:
                data = json.loads(setup)
                if data["game"] == game and isinstance(data.get("options", {}), dict):
                    return dict(data.get("options", {}))
            except (ValueError, TypeError, KeyError, RecursionError):
                continue
        return None

    def mark_broken(self, game_id: int, why: str) -> None:
        """A game that cannot be resumed: kept with its reason, never offered again."""
        self._write("UPDATE games SET problem=?, finished=COALESCE(finished, ?) WHERE id=?",
                    (why, time.time(), game_id))

    def check_unfinished(self, export_dir: Path) -> list[str]:
        """Try every game offered for resume; one that cannot be loaded or replayed (a row
        that is not a setup, a game this version does not know, a call the engine or an
        edited data file now refuses) is marked "cannot be resumed" with its reason, so it is
        not offered again, and what can still be read of it is written as a game file into
        ``export_dir``. Returns one notice per such game."""
        notices: list[str] = []
        if self.readonly:
            return notices  # nothing can be marked; the games are only viewed
        for (gid,) in self.db.execute(
                "SELECT id FROM games WHERE finished IS NULL ORDER BY id").fetchall():
            try:
                if self.resume(int(gid)).is_over:
                    # its last call ended it, and the power went before it was marked
                    self.finish(int(gid))
            except (JournalError, RulesError) as e:
                why = str(e)
                written = self.export_readable(int(gid), export_dir)
                self.mark_broken(int(gid), why)
                notices.append(f"Game {gid} cannot be resumed: {why}. What could be read of "
                               f"it is in {written}.")
        return notices

    # -- reading ---------------------------------------------------------------------------

    def load(self, game_id: int) -> GameRecord:
        """Everything the journal holds about one game.

        Raised when ...: JournalError naming the game when it is not there or its row cannot
        be read (a setup that is not JSON or not a game's setup).
        """
        row = self.db.execute("SELECT id, setup, title, started, finished, problem, ending "
                              "FROM games WHERE id=?", (game_id,)).fetchone()
        if row is None:
            raise JournalError(f"game {game_id}: not in the journal {self.path}")
        try:
            setup = Setup.from_json(json.loads(row[1]))
        except (ValueError, TypeError, RecursionError) as e:
            raise JournalError(f"game {game_id}: its setup cannot be read ({e})") from None
        calls = self.db.execute("SELECT call, at, undone FROM calls WHERE game_id=? ORDER BY seq",
                                (game_id,)).fetchall()
        clock_row = self.db.execute("SELECT round, elapsed, paused FROM clock WHERE game_id=?",
                                    (game_id,)).fetchone()
        try:
            clock = None if clock_row is None else ClockRecord(int(clock_row[0]),
                                                               float(clock_row[1]),
                                                               bool(clock_row[2]))
        except (ValueError, TypeError, OverflowError):
            clock = None  # a clock that cannot be read starts the round from 0; the game stands
        try:
            entries = tuple(Entry(str(c), _time(a)) for c, a, u in calls if not u)
            undone = tuple(Entry(str(c), _time(a)) for c, a, u in calls if u)
        except (RulesError, TypeError) as e:
            raise JournalError(f"game {game_id}: a call's time cannot be read ({e})") from None
        return GameRecord(
            id=int(row[0]), setup=setup, title=str(row[2]),
            started=float(row[3]), finished=None if row[4] is None else float(row[4]),
            entries=entries, undone=undone, clock=clock, problem=row[5],
            ending=read_ending(row[6]))

    def unfinished(self) -> list[GameRecord]:
        """Games not marked finished, newest first: the ones to offer for resume (a game
        whose row cannot be read is left out; :meth:`check_unfinished` says why)."""
        ids = [r[0] for r in self.db.execute(
            "SELECT id FROM games WHERE finished IS NULL ORDER BY id DESC")]
        out = []
        for i in ids:
            try:
                out.append(self.load(i))
            except JournalError:
                continue
        return out

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

    def export_readable(self, game_id: int, folder: Path) -> Path:
        """Write what can be read of a game into ``folder``: its setup and the calls that
        replay, as a game file; or, when even its setup cannot be read, the raw rows."""
        folder.mkdir(parents=True, exist_ok=True)
        try:
            record = self.load(game_id)
        except JournalError:
            raw = self.db.execute("SELECT setup FROM games WHERE id=?", (game_id,)).fetchone()
            rows = self.db.execute("SELECT call, at, undone FROM calls WHERE game_id=? "
                                   "ORDER BY seq", (game_id,)).fetchall()
            path = folder / f"game-{game_id}.txt"
            lines = [f"setup: {raw[0] if raw else ''}",
                     *(f"{c!r} at {a!r}{' (undone)' if u else ''}" for c, a, u in rows)]
            path.write_text("\n".join(lines) + "\n", encoding="utf-8")
            return path
        good: list[Entry] = []
        try:
            replay(record.setup, record.entries)
            good = list(record.entries)
        except ReplayError as e:
            good = list(record.entries[:e.index - 1])
        except RulesError:
            good = []
        path = folder / f"game-{game_id}.game"
        comment = f"journal game {record.id}: the calls that still replay ({len(good)} of " \
                  f"{len(record.entries)})"
        path.write_text(format_game_file(record.setup, good, comment), encoding="utf-8")
        return path

    def export(self, game_id: int, ending: Ending | None = None) -> str:
        """The game as a game file (setup, ``---``, one call per line) for `companion replay`,
        with how it ended when its calls do not end it: ``ending``, else the players' ending
        the journal keeps (the caller knows a game abandoned: the journal does not replay it
        here)."""
        record = self.load(game_id)
        started = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(record.started))
        comment = f"journal game {record.id}, started {started}"
        last = self.db.execute("SELECT MAX(wall) FROM calls WHERE game_id=? AND undone=0",
                               (game_id,)).fetchone()[0]
        if last is not None and float(last) > record.started:  # so an import keeps its length
            ended = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(float(last)))
            comment += f", ended {ended}"
        if record.title:
            comment = f"{record.title}\n{comment}"
        return format_game_file(record.setup, record.entries, comment, ending or record.ending)


def _bad_link(path: Path) -> str:
    """What is wrong with ``path`` being a link to something that is not a file (dangling,
    a loop, a device), or "" (not a link, or a link to a file)."""
    if not path.is_symlink():
        return ""
    try:
        target = path.resolve()
        if target.is_file():
            return ""
    except (OSError, RuntimeError) as e:  # a loop of links
        return f"it is a link that cannot be followed ({e})"
    return f"it is a link to {target}, which is not a journal file"


def _odd_file(path: Path) -> str:
    """What stands at ``path`` when it is neither absent nor a plain file (a folder, a FIFO,
    a device, a link to nowhere), in words; "" otherwise."""
    import stat

    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        return "a link to nowhere" if path.is_symlink() else ""
    except OSError as e:
        return f"a file that cannot be looked at ({e.strerror or e})"
    if stat.S_ISREG(mode):
        return ""
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "a special file"


def read_ending(value: Any) -> Ending | None:
    """The ending a games row keeps (None: none, or a word this version does not know, which
    leaves the game as the journal's other columns say)."""
    if value is None:
        return None
    try:
        return Ending(value)
    except ValueError:
        return None


def _time(at: Any) -> float | None:
    from rules.core import normalise_time

    return normalise_time(at)


#: The two WAL magic numbers (checksums big- or little-endian) and the sizes of its headers.
WAL_MAGIC = (0x377F0682, 0x377F0683)
WAL_HEADER = 32
WAL_FRAME_HEADER = 24


def _wal_checksum(data: bytes, big: bool, s0: int, s1: int) -> tuple[int, int]:
    """SQLite's WAL checksum over ``data`` (a multiple of 8 bytes), continuing from (s0, s1)."""
    words = struct.unpack((">" if big else "<") + f"{len(data) // 4}I", data)
    for i in range(0, len(words), 2):
        s0 = (s0 + words[i] + s1) & 0xFFFFFFFF
        s1 = (s1 + words[i + 1] + s0) & 0xFFFFFFFF
    return s0, s1


def wal_problem(wal: Path) -> str:
    """What is wrong with a journal's write-ahead log, in words; "" when nothing is.

    SQLite reads a WAL frame by frame and stops, silently, at the first frame whose checksum
    does not follow: committed calls saved after it are skipped. That is found here before
    the journal is opened: frames of the log's current generation (their salts match its
    header) that end a transaction (a commit frame) lying after one that does not check out.
    What a power cut or a kill leaves while a call is being saved is not a problem and is not
    reported: a log that ends in the middle of an entry, or whose last, unfinished
    transaction does not check out. That call was never acknowledged: nothing is lost.

    The log is read one entry at a time (never whole); one that is not a plain file is
    reported as such, never opened.
    """
    kind = _odd_file(wal)
    if kind:
        return f"is {kind}, not a file"
    try:
        with open(wal, "rb") as fh:
            return _wal_frames_problem(fh)
    except FileNotFoundError:
        return ""
    except OSError as e:
        return f"cannot be read ({e.strerror or e})"


def _wal_frames_problem(fh: Any) -> str:
    header = fh.read(WAL_HEADER)
    if not header:
        return ""
    if len(header) < WAL_HEADER:
        return ""  # a log whose header was being written: it held no committed call yet
    magic, _version, page, _seq, salt1, salt2, c0, c1 = struct.unpack(">8I", header)
    if magic not in WAL_MAGIC or not 512 <= page <= 65536:
        return "is not a SQLite log"
    big = magic & 1 == 1
    s0, s1 = _wal_checksum(header[:24], big, 0, 0)
    if (s0, s1) != (c0, c1):
        return "has a damaged header: the calls it held cannot be read"
    size = WAL_FRAME_HEADER + page
    frames = 0
    broken_at: int | None = None
    lost_commits = 0
    while True:
        frame = fh.read(size)
        if len(frame) < size:
            break  # the end, or an entry cut short by a power cut: never acknowledged
        frames += 1
        _pgno, commit, f1, f2, fc0, fc1 = struct.unpack(">6I", frame[:WAL_FRAME_HEADER])
        if (f1, f2) != (salt1, salt2):
            if broken_at is None:
                break  # older frames of a reused log: the current log ends here, as it should
            continue
        if broken_at is not None:
            lost_commits += commit != 0
            continue
        s0, s1 = _wal_checksum(frame[:8] + frame[WAL_FRAME_HEADER:], big, s0, s1)
        if (s0, s1) != (fc0, fc1):
            broken_at = frames
    if broken_at is not None and lost_commits:
        return (f"is damaged at entry {broken_at}: {lost_commits} saved "
                f"transaction{'s' if lost_commits != 1 else ''} after it cannot be read, so "
                "the last calls saved may be missing")
    return ""


__all__ = ["ClockRecord", "GameRecord", "Journal", "JournalError", "read_ending", "wal_problem"]
