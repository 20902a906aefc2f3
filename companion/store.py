"""The one store: the SQLite file that holds the journal and everything kept beside it.

Every module that keeps something in the journal's file (the journal's games and calls, the
history index, the roll log, the kept fairness verdicts, a director's tournaments and a
table's outbox) opens it here, through
:func:`connect`, so it is opened one way: WAL mode, the pragmas set once, and the schema brought
up to date by versioned migrations (SQLite's ``user_version``: a journal written by an older
version gets the newer tables and columns the first time this version opens it).

Here too is what protects the file:

- **one companion per data folder**: :func:`take_lock` holds an exclusive ``flock`` on
  ``<data folder>/companion.lock`` (with the holder's process id written in it) for as long as
  the app runs. A second app finds it held, says which process holds it, and opens the journal
  read-only: it shows the games but takes no calls. The kernel lets the lock go when the
  process ends, however it ends (a crash, kill -9, a power cut leaves no stale lock);
- **a read-only data folder** (an SD card the kernel remounted read-only after I/O errors):
  the journal is opened read-only, the games can be viewed, every write is refused with a
  :class:`ReadOnly` that says so;
- **a full card**: a write that does not fit is rolled back (nothing half-written, nothing
  acknowledged lost) and refused with a :class:`DiskFull` ("the SD card is full").
"""

from __future__ import annotations

import errno
import functools
import logging
import os
import sqlite3
import stat
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

#: The lock file in the data folder.
LOCK_NAME = "companion.lock"

# SQLite's primary result codes (an extended code's low byte).
SQLITE_READONLY = 8
SQLITE_IOERR = 10
SQLITE_FULL = 13
SQLITE_CANTOPEN = 14


class StoreError(RuntimeError):
    """The journal's file cannot do what was asked; the message names the file and why."""


class DiskFull(StoreError):
    """A write did not fit on the card: it was rolled back, nothing was saved."""


class ReadOnly(StoreError):
    """The journal is open read-only (a read-only card, or another companion writes it)."""


# -- the schema, in versions ---------------------------------------------------------------

_V1_JOURNAL = """
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
CREATE TABLE IF NOT EXISTS history_games (
    game_id     INTEGER PRIMARY KEY,
    version     INTEGER NOT NULL,
    game        TEXT NOT NULL,
    title       TEXT NOT NULL,
    started     REAL NOT NULL,
    ended       REAL,
    finished    INTEGER NOT NULL,
    is_over     INTEGER NOT NULL,
    calls       INTEGER NOT NULL,
    fingerprint TEXT NOT NULL,
    digest      TEXT NOT NULL,
    winner      TEXT,
    note        TEXT NOT NULL DEFAULT '',
    error       TEXT
);
CREATE INDEX IF NOT EXISTS history_games_started ON history_games(started);
CREATE INDEX IF NOT EXISTS history_games_digest ON history_games(digest);
CREATE TABLE IF NOT EXISTS history_players (
    game_id INTEGER NOT NULL,
    seat    INTEGER NOT NULL,
    player  TEXT NOT NULL,
    key     TEXT,
    score   REAL,
    rank    INTEGER,
    won     INTEGER NOT NULL,
    role    TEXT,
    team    TEXT,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX IF NOT EXISTS history_players_key ON history_players(key, game_id);
CREATE TABLE IF NOT EXISTS history_cards (
    game_id INTEGER NOT NULL,
    seat    INTEGER NOT NULL,
    card    TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS history_cards_game ON history_cards(game_id);
CREATE TABLE IF NOT EXISTS history_meta (
    key   TEXT PRIMARY KEY,
    value INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS history_stats (
    filters TEXT PRIMARY KEY,
    version INTEGER NOT NULL,
    data    TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS history_forgotten (
    game_id INTEGER NOT NULL,
    name    TEXT NOT NULL,
    PRIMARY KEY (game_id, name)
);
CREATE TABLE IF NOT EXISTS roll_log (
    id        INTEGER PRIMARY KEY AUTOINCREMENT,
    wall      REAL NOT NULL,
    game_id   INTEGER,
    dice_set  TEXT NOT NULL DEFAULT '',
    corrected INTEGER NOT NULL DEFAULT 0,
    dice      TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS roll_counts (
    dice_set  TEXT NOT NULL,
    colour    TEXT NOT NULL,
    face      TEXT NOT NULL,
    read      INTEGER NOT NULL DEFAULT 0,
    corrected INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (dice_set, colour, face)
);
CREATE TABLE IF NOT EXISTS roll_verdicts (
    counts TEXT PRIMARY KEY,
    data   TEXT NOT NULL
)
"""


def _v1(db: sqlite3.Connection) -> None:
    """Every table as the journals of before schema versions have them (``user_version``
    0): created where missing, and the ``problem`` column the oldest journals lack."""
    for statement in _V1_JOURNAL.split(";"):
        db.execute(statement)
    columns = {row[1] for row in db.execute("PRAGMA table_info(games)")}
    if "problem" not in columns:  # journals from before "cannot be resumed" was kept
        db.execute("ALTER TABLE games ADD COLUMN problem TEXT")


def _v2(db: sqlite3.Connection) -> None:
    """Games the players ended themselves: ``ending`` is "agreed" or "no result"."""
    columns = {row[1] for row in db.execute("PRAGMA table_info(games)")}
    if "ending" not in columns:
        db.execute("ALTER TABLE games ADD COLUMN ending TEXT")


# The director's tournaments (their events, reported game files, refused messages) and a
# table's side (the tournament it joined, its outbox, its reports): companion.tournament.store.
_V3_TOURNAMENTS = """
CREATE TABLE IF NOT EXISTS tournament_list (
    id      TEXT PRIMARY KEY,
    name    TEXT NOT NULL,
    config  TEXT NOT NULL,
    created REAL NOT NULL,
    current INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS tournament_events (
    tournament TEXT NOT NULL REFERENCES tournament_list(id),
    seq        INTEGER NOT NULL,
    event      TEXT NOT NULL,
    wall       REAL NOT NULL,
    PRIMARY KEY (tournament, seq)
);
CREATE TABLE IF NOT EXISTS tournament_games (
    tournament TEXT NOT NULL,
    round      INTEGER NOT NULL,
    table_no   INTEGER NOT NULL,
    report_id  TEXT NOT NULL,
    source     TEXT NOT NULL,
    text       TEXT NOT NULL,
    wall       REAL NOT NULL,
    PRIMARY KEY (tournament, report_id)
);
CREATE TABLE IF NOT EXISTS tournament_refused (
    tournament TEXT NOT NULL,
    source     TEXT NOT NULL,
    reason     TEXT NOT NULL,
    size       INTEGER NOT NULL,
    wall       REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS tournament_refused_count (
    tournament TEXT PRIMARY KEY,
    refused    INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS tournament_membership (
    tournament TEXT PRIMARY KEY,
    code       TEXT NOT NULL,
    joined     REAL NOT NULL,
    seating    TEXT
);
CREATE TABLE IF NOT EXISTS tournament_outbox (
    report_id  TEXT PRIMARY KEY,
    tournament TEXT NOT NULL,
    round      INTEGER NOT NULL,
    table_no   INTEGER NOT NULL,
    payload    TEXT NOT NULL,
    created    REAL NOT NULL,
    sends      INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS tournament_reports (
    report_id  TEXT PRIMARY KEY,
    tournament TEXT NOT NULL,
    round      INTEGER NOT NULL,
    table_no   INTEGER NOT NULL,
    created    REAL NOT NULL,
    status     TEXT NOT NULL DEFAULT 'waiting',
    text       TEXT NOT NULL DEFAULT ''
)
"""


def _v3(db: sqlite3.Connection) -> None:
    """The tournament tables, which companion.tournament.store made itself before; a journal
    that already has them (from that opening) keeps them as they are."""
    for statement in _V3_TOURNAMENTS.split(";"):
        db.execute(statement)


#: (version, step): each step brings a file of the version before up to its own.
MIGRATIONS: tuple[tuple[int, Callable[[sqlite3.Connection], None]], ...] = (
    (1, _v1), (2, _v2), (3, _v3))
SCHEMA_VERSION = MIGRATIONS[-1][0]


#: Tables the companion builds again from the others (the history index, the kept dice
#: verdicts): one missing or not as this version makes it is made again, empty, and refilled
#: as it is read. Every other table holds a record that exists nowhere else.
DERIVED = frozenset({"history_games", "history_players", "history_cards", "history_meta",
                     "history_stats", "roll_verdicts"})
#: Without these the journal's games cannot be read at all.
CORE = frozenset({"games", "calls"})


class SchemaError(sqlite3.DatabaseError):
    """Raised when a journal's tables are not what this version makes (a table gone, a
    column missing, a view where a table should be): not a sound journal. Names each
    problem."""


@functools.cache
def expected_schema() -> dict[str, tuple[tuple[str, ...], str, tuple[str, ...]]]:
    """Every table the migrations make: name -> (its columns, its CREATE statement, the CREATE
    statements of its indexes), read from a journal made new in memory."""
    db = sqlite3.connect(":memory:", isolation_level=None)
    try:
        migrate(db, Path(":memory:"))
        out = {}
        for name, sql in db.execute("SELECT name, sql FROM sqlite_master WHERE type='table' "
                                    "AND name NOT LIKE 'sqlite_%'").fetchall():
            columns = tuple(r[1] for r in db.execute(f"PRAGMA table_info({name})"))
            indexes = tuple(str(r[0]) for r in db.execute(
                "SELECT sql FROM sqlite_master WHERE type='index' AND tbl_name=? AND sql IS "
                "NOT NULL", (name,)))
            out[str(name)] = (columns, str(sql), indexes)
        return out
    finally:
        db.close()


def schema_problems(db: sqlite3.Connection) -> dict[str, str]:
    """What is wrong with the file's tables against what this version makes: table (or
    trigger) -> the problem in words; {} for a sound schema. Reads only."""
    have = {str(n): str(t) for n, t in db.execute(
        "SELECT name, type FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'")}
    problems: dict[str, str] = {}
    for table, (columns, _, _) in expected_schema().items():
        kind = have.get(table)
        if kind is None:
            problems[table] = f"its table {table} is missing"
        elif kind != "table":
            problems[table] = f"{table} is a {kind}, not a table"
        else:
            got = {r[1] for r in db.execute(f"PRAGMA table_info({table})")}
            lacks = [c for c in columns if c not in got]
            if lacks:
                problems[table] = f"its table {table} lacks {', '.join(lacks)}"
    for name, kind in have.items():
        if kind == "trigger":  # this companion makes none: one could refuse every call
            problems[name] = f"it holds a trigger {name}, which this companion never makes"
    return problems


def heal_schema(db: sqlite3.Connection, path: Path) -> list[str]:
    """Make the journal's tables what this version makes, losing nothing: a trigger is
    dropped (this companion makes none: one could refuse every call), a derived table
    (:data:`DERIVED`) made again empty (it is refilled from the games), a record table that
    is missing made again (its rows are gone already), one that is damaged (a column gone)
    renamed aside in the file (``<name>_damaged_<n>``, kept) and made again, a view where a
    table should be dropped. Returns what was done, in words. Raised, changing nothing, when
    the games or their calls cannot be read (:data:`CORE`): :class:`SchemaError` naming
    each problem."""
    if not schema_problems(db):
        return []
    expected = expected_schema()
    done = []
    with transaction(db, path):  # looked at again inside: another process may have mended
        problems = schema_problems(db)
        fatal = [why for name, why in problems.items() if name in CORE]
        if fatal:
            raise SchemaError("; ".join(fatal))
        for name, why in problems.items():
            if name not in expected:  # a trigger
                db.execute(f'DROP TRIGGER IF EXISTS "{name}"')
                done.append(f"{why}: dropped")
                continue
            kind = db.execute("SELECT type FROM sqlite_master WHERE name=?", (name,)).fetchone()
            kept = ""
            if kind is not None and kind[0] == "table" and name not in DERIVED:
                n = 1
                while db.execute("SELECT 1 FROM sqlite_master WHERE name=?",
                                 (f"{name}_damaged_{n}",)).fetchone():
                    n += 1
                kept = f"{name}_damaged_{n}"
                db.execute(f'ALTER TABLE "{name}" RENAME TO "{kept}"')
            elif kind is not None:
                db.execute(f'DROP {"VIEW" if kind[0] == "view" else "TABLE"} "{name}"')
            _, create, indexes = expected[name]
            db.execute(create)
            for index in indexes:
                db.execute(index.replace("CREATE INDEX ", "CREATE INDEX IF NOT EXISTS ", 1))
            done.append(f"{why}: made again" + (
                " (it is rebuilt from the games)" if name in DERIVED else
                f", the old one kept as {kept}" if kept else " (empty)"))
    return done


_HEALED: dict[str, list[str]] = {}


def healed(path: Path) -> list[str]:
    """What opening ``path`` mended in its tables (:func:`heal_schema`) since last asked, in
    words, for the start-up notice."""
    return _HEALED.pop(str(path), [])


def inspect(path: Path) -> tuple[int, dict[str, str], str]:
    """A journal file's schema version, what is wrong with its tables
    (:func:`schema_problems`) and SQLite's own check of its pages ("ok", when its tables are
    sound), read without writing anything (``companion doctor``). A file of an older version
    lacks newer tables by right: only the games and their calls are looked at then. Raised
    for a file that is not SQLite: sqlite3.DatabaseError."""
    uri = f"file:{quote(str(path.resolve()))}?mode=ro&immutable=1"
    db = sqlite3.connect(uri, uri=True, timeout=1.0)
    try:
        version = int(db.execute("PRAGMA user_version").fetchone()[0])
        problems = schema_problems(db)
        if version < SCHEMA_VERSION:
            problems = {k: v for k, v in problems.items() if k in CORE}
        verdict = "" if problems else str(db.execute("PRAGMA quick_check").fetchone()[0])
    finally:
        db.close()
    return version, problems, verdict


def migrate(db: sqlite3.Connection, path: Path) -> int:
    """Bring the file up to :data:`SCHEMA_VERSION`, one version per transaction; returns the
    version it had. A file from a newer version is refused (its tables may mean more)."""
    found = int(db.execute("PRAGMA user_version").fetchone()[0])
    if found > SCHEMA_VERSION:
        raise StoreError(f"the journal {path} was written by a newer version of the "
                         f"companion (schema {found}, this one knows {SCHEMA_VERSION}): "
                         "update the companion")
    for version, step in MIGRATIONS:
        if version > found:
            with transaction(db, path):
                step(db)
                db.execute(f"PRAGMA user_version={int(version)}")
    return found


# -- opening -------------------------------------------------------------------------------

def connect(path: Path, *, synchronous: str = "FULL", readonly: bool = False,
            busy_timeout: float = 5.0) -> sqlite3.Connection:
    """A connection to the journal's file, pragmas set and schema up to date.

    ``synchronous``: "FULL" for the journal's calls (each on disk before the call returns),
    "NORMAL" for what is derived and can be rebuilt (the history index, the roll log).
    ``readonly``: open without writing anything (a read-only card, another companion's
    file); the schema is then left as it is.

    Raised when ...: sqlite3.DatabaseError for a file that is not a sound journal,
    :class:`StoreError` when it cannot be opened (read-only, full, a newer version).
    """
    if readonly:
        return _connect_readonly(path, busy_timeout)
    # isolation_level=None: each transaction is opened with BEGIN IMMEDIATE (transaction()).
    db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False,
                         timeout=busy_timeout)
    try:
        db.execute("PRAGMA journal_mode=WAL")
        db.execute(f"PRAGMA synchronous={'FULL' if synchronous == 'FULL' else 'NORMAL'}")
        db.execute("PRAGMA foreign_keys=ON")
        migrate(db, path)
        for done in heal_schema(db, path):
            logging.getLogger(__name__).warning("companion: the journal %s: %s", path, done)
            _HEALED.setdefault(str(path), []).append(done)
    except SchemaError:
        db.close()
        raise
    except sqlite3.DatabaseError as e:
        db.close()
        problem = disk_problem(e, path)
        if problem is not None:
            raise problem from None
        raise
    except BaseException:
        db.close()
        raise
    return db


def _connect_readonly(path: Path, busy_timeout: float) -> sqlite3.Connection:
    """Read-only, through a ``file:`` URI. When the WAL index cannot be made (a read-only
    folder with no ``-shm`` beside the file), the file is read as immutable: nothing else
    can write it then."""
    if not path.is_file():
        raise StoreError(f"the journal {path} is not there and cannot be made here")
    uri = f"file:{quote(str(path.resolve()))}?mode=ro"
    last: sqlite3.Error | None = None
    for extra in ("", "&immutable=1"):
        db = sqlite3.connect(uri + extra, uri=True, isolation_level=None,
                             check_same_thread=False, timeout=busy_timeout)
        try:
            db.execute("SELECT count(*) FROM sqlite_master").fetchone()
        except sqlite3.OperationalError as e:
            db.close()
            last = e
            continue
        # Read as it is (an older version's file lacks newer tables): only what no version
        # lacks is required, the games and their calls.
        core = [why for name, why in schema_problems(db).items() if name in CORE]
        if core:
            db.close()
            raise SchemaError("; ".join(core))
        return db
    raise StoreError(f"the journal {path} cannot be read: {last}")


def peek(path: Path, sql: str) -> list[tuple[Any, ...]]:
    """The rows of one query on a journal's file, read without writing anything, not even
    SQLite's ``-shm`` beside it (``companion doctor`` looks at files this way); no rows for a
    file that is not a journal, cannot be read, or lacks what the query asks for."""
    uri = f"file:{quote(str(path.resolve()))}?mode=ro&immutable=1"
    try:
        db = sqlite3.connect(uri, uri=True, timeout=1.0)
    except (sqlite3.Error, OSError):
        return []
    try:
        return [tuple(row) for row in db.execute(sql)]
    except sqlite3.Error:
        return []
    finally:
        db.close()


# -- writing -------------------------------------------------------------------------------

def disk_problem(e: BaseException, path: Path) -> StoreError | None:
    """The plain words for a write that the card refused (full, read-only, failing), or
    None for an error that is not the disk's."""
    code = getattr(e, "sqlite_errorcode", None)
    primary = code & 0xFF if isinstance(code, int) else None
    number = e.errno if isinstance(e, OSError) else None
    if primary == SQLITE_FULL or number in (errno.ENOSPC, errno.EDQUOT):
        return DiskFull(f"the SD card is full: nothing was saved in {path}. Free some space "
                        "(old pictures, logs) and try again")
    if primary == SQLITE_READONLY or number in (errno.EROFS, errno.EACCES, errno.EPERM):
        return ReadOnly(f"the journal {path} cannot be written (the card or the data folder "
                        "is read-only): games can be viewed, no call is taken")
    if primary in (SQLITE_IOERR, SQLITE_CANTOPEN) or number == errno.EIO:
        return StoreError(f"the SD card could not save to {path} ({e}): nothing was saved; "
                          "check the card (`companion doctor`)")
    return None


@contextmanager
def transaction(db: sqlite3.Connection, path: Path) -> Iterator[sqlite3.Connection]:
    """One write transaction (BEGIN IMMEDIATE ... COMMIT). Anything that fails inside is
    rolled back, and a disk's refusal comes out as :class:`DiskFull`, :class:`ReadOnly` or
    :class:`StoreError` in plain words: never hidden behind SQLite's "cannot rollback - no
    transaction is active" (a full disk may already have ended the transaction)."""
    try:
        db.execute("BEGIN IMMEDIATE")
    except sqlite3.Error as e:
        problem = disk_problem(e, path)
        if problem is not None:
            raise problem from None
        raise
    try:
        yield db
        db.execute("COMMIT")
    except BaseException as e:
        if db.in_transaction:
            # the disk's own error below says more than the rollback's
            with suppress(sqlite3.Error):
                db.execute("ROLLBACK")
        problem = disk_problem(e, path)
        if problem is not None:
            raise problem from None
        raise


# -- one companion per data folder ----------------------------------------------------------

@dataclass
class DataLock:
    """The exclusive lock on a data folder (and on the folder its journal is a link into,
    when it is one), held until :meth:`release` or the process ends."""

    path: Path
    fd: int | None
    more: list[int] = field(default_factory=list)

    def release(self) -> None:
        for fd in [*([self.fd] if self.fd is not None else []), *self.more]:
            os.close(fd)  # closing the file lets the flock go
        self.fd = None
        self.more = []


def lock_holder(path: Path) -> int | None:
    """The process id written in a lock file, or None when it cannot be read."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW)
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        text = os.read(fd, 32).decode("ascii", "replace").strip()
    finally:
        os.close(fd)
    return int(text) if text.isdigit() else None


def _live_holder(path: Path, wait: float = 2.0) -> int | None:
    """The id of the live process holding the lock: it writes its id just after taking the
    lock, so a companion started at the same moment may find the file still empty (or with
    the id of a holder gone before): it looks again for up to ``wait`` seconds."""
    import time

    end = time.monotonic() + wait
    while True:
        pid = lock_holder(path)
        if pid is not None and pid != os.getpid():
            try:
                os.kill(pid, 0)
                return pid
            except PermissionError:
                return pid  # alive, another user's
            except OSError:
                pass  # gone: the file still holds an earlier holder's id
        if time.monotonic() >= end:
            return None
        time.sleep(0.01)


class LockRefused(Exception):
    """Raised when a lock file cannot be held: ``held`` when another process holds it
    (``holder``: its id, when known), else the OSError's words in ``why``."""

    def __init__(self, held: bool, holder: int | None = None, why: str = "",
                 errno_: int | None = None) -> None:
        super().__init__(why or (f"held by process {holder}" if holder else "held"))
        self.held, self.holder, self.why, self.errno = held, holder, why, errno_


def hold_lock_file(path: Path) -> int:
    """An exclusive ``flock`` on ``path`` (a plain file, made owner-writable if missing,
    never opened through a link), with this process's id written in it; returns its
    descriptor: closing it lets the lock go, and so does the process ending however it
    ends (no stale lock). Raised when it cannot be held: :class:`LockRefused`."""
    import fcntl

    flags = os.O_RDWR | os.O_CREAT | os.O_NONBLOCK | os.O_NOFOLLOW | os.O_CLOEXEC
    try:
        fd = os.open(path, flags, 0o644)
    except OSError as e:
        raise LockRefused(False, why=e.strerror or str(e), errno_=e.errno) from None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise LockRefused(False, why="not a plain file")
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as e:
        os.close(fd)
        if e.errno not in (errno.EAGAIN, errno.EWOULDBLOCK, errno.EACCES):
            raise LockRefused(False, why=f"cannot be locked ({e.strerror or e})",
                              errno_=e.errno) from None
        raise LockRefused(True, _live_holder(path)) from None
    try:
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode("ascii"))
    except OSError:
        pass  # a full card: the lock holds all the same, only its note of who is missing
    return fd


def take_lock(folder: Path, *, refused: str = "this one shows the games but takes no calls"
              ) -> tuple[DataLock | None, str]:
    """Take the data folder's lock: (the lock, "") when this process may write the journal;
    (None, why, in words naming the folder) when it may not: another process holds it (its
    id is said, and ``refused`` says what this one does then), or the folder cannot be
    written."""
    path = folder / LOCK_NAME
    try:
        return DataLock(path, hold_lock_file(path)), ""
    except LockRefused as e:
        if e.held:
            who = f"process {e.holder}" if e.holder is not None else "another process"
            return None, (f"Another companion ({who}) is using the data folder {folder}: "
                          f"{refused}. Close the other one first.")
        if e.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
            return None, (f"The data folder {folder} is read-only (the SD card may be "
                          "failing): games can be viewed, but no call is taken or saved. "
                          "Copy the journal off the card, then check or replace the card.")
        if e.why == "not a plain file":
            return None, (f"The lock file {path} is not a plain file: games can be viewed, "
                          "but no call is taken. Move it away.")
        if e.why.startswith("cannot be locked"):
            return None, (f"The lock file {path} {e.why}: games can be viewed, but no call "
                          "is taken.")
        return None, (f"The lock file {path} cannot be opened ({e.why}): games can be "
                      "viewed, but no call is taken. Move it away.")


def take_journal_lock(journal: Path, *,
                      refused: str = "this one shows the games but takes no calls"
                      ) -> tuple[DataLock | None, str]:
    """The lock of the journal's data folder (:func:`take_lock`), and, when the journal is a
    link to a file in another folder, the lock of that folder too: whatever the path
    resolves to is held, so two companions whose data folders link to one journal never
    both write it. A journal with more than one name (hard links: SQLite keeps its log beside
    each name, so two writers would damage it) is not written. (None, why) as
    :func:`take_lock`."""
    folder = journal.parent
    lock, why = take_lock(folder, refused=refused)
    if lock is None:
        return None, why
    try:
        target = journal.resolve()
        plain = target.is_file()
        names = target.stat().st_nlink if plain else 1
        elsewhere = target.parent != folder.resolve()
    except (OSError, RuntimeError) as e:  # a loop of links, a folder not to be entered
        lock.release()
        return None, (f"The journal {journal} cannot be followed ({e}): games can be "
                      "viewed, but no call is taken.")
    if names > 1:
        lock.release()
        return None, (f"The journal {journal} has {names} names (hard links): a companion "
                      "could write it under each, which damages it. Games can be viewed, "
                      "but no call is taken: keep one name (copy the file, then remove the "
                      "others).")
    if elsewhere and plain:  # (a link to anything else is set aside by the journal)
        other, why = take_lock(target.parent, refused=refused)
        if other is None:
            lock.release()
            return None, (f"The journal {journal} is a link to {target}: {why}")
        assert other.fd is not None
        lock.more.append(other.fd)
    return lock, ""


__all__ = ["CORE", "DERIVED", "LOCK_NAME", "MIGRATIONS", "SCHEMA_VERSION", "DataLock", "DiskFull",
           "LockRefused", "ReadOnly", "SchemaError", "StoreError", "connect", "disk_problem",
           "expected_schema", "heal_schema", "healed", "hold_lock_file", "inspect",
           "lock_holder", "migrate", "peek", "schema_problems", "take_journal_lock", "take_lock",
           "transaction"]
