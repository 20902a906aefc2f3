"""Tournament tables in SQLite, beside the game journal: the director's events, a table's outbox.

Both live in the journal's file by default (``companion.paths.journal_path()``), in tables of
their own, opened the one way (:mod:`companion.store`, whose migrations make the tables): WAL
and ``synchronous=FULL``, so a write that returned survives a power cut. The director's
tournament is its list of events (append-only; each append names the sequence number it
follows, so two writers never interleave); a table keeps every report in its outbox until the
director acknowledges it.

The journal holds secrets (the director's broker password and every table's secret; a table's
join code), so it is owner-only: :func:`private_file` makes it 0600 (its ``-wal`` and ``-shm``
too: SQLite gives them the journal's mode) and a folder it creates 0700, and puts an older
journal that others could read back to 0600.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any

from companion import store
from rules.tournament import (
    Tournament,
    TournamentError,
    TournamentEvent,
    event_from_json,
    event_to_json,
)

#: Refused messages kept per tournament (the newest; all are counted).
REFUSED_KEPT = 1000


class StoreError(RuntimeError):
    """Raised when the tournament store cannot do what was asked; names the file and why."""


class StaleError(StoreError):
    """Raised when another writer appended events first: reload and try again."""


def private_folder(folder: Path) -> None:
    """Make ``folder`` (and missing parents) owner-only (0700) if it does not exist yet."""
    if not folder.is_dir():
        folder.mkdir(parents=True, exist_ok=True)
        os.chmod(folder, 0o700)


def private_file(path: Path) -> None:
    """Create ``path`` owner-only (0600) if missing, and make an existing one (and SQLite's
    ``-wal`` and ``-shm`` beside it) owner-only. A read-only folder is left as it is."""
    private_folder(path.parent)
    if not path.exists():  # (an existing journal on a read-only card is only read)
        with contextlib.suppress(FileExistsError):
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    for p in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        with contextlib.suppress(OSError):
            if p.is_file() and p.stat().st_mode & 0o077:
                os.chmod(p, 0o600)


def readable_secrets(journal: Path, tournaments: Path) -> list[Path]:
    """Files and folders holding tournament secrets that others than the owner can read:
    a journal with tournament tables (and its ``-wal``/``-shm``), and everything under the
    tournaments' folder (broker config, passwords, access list). Looks, changes nothing."""
    found: list[Path] = []
    # every journal has the tournament tables (the store's migrations): does it use them?
    holds = journal.is_file() and store.peek(
        journal, "SELECT 1 FROM tournament_list UNION ALL SELECT 1 FROM tournament_membership")
    if holds:
        found += [p for p in (journal, journal.with_name(journal.name + "-wal"),
                              journal.with_name(journal.name + "-shm"))
                  if p.is_file() and p.stat().st_mode & 0o077]
    if tournaments.is_dir():
        with contextlib.suppress(OSError):
            found += [p for p in sorted(tournaments.rglob("*"))
                      if p.name in ("broker", "mosquitto.conf", "passwords", "acl",
                                    "passwords.new") and p.stat().st_mode & 0o077]
    return found


def takes_part(db: sqlite3.Connection) -> bool:
    """Whether the journal (an open connection to it: the app's) holds a tournament this
    companion directs or a table joined."""
    return bool(db.execute("SELECT 1 FROM tournament_list UNION ALL "
                           "SELECT 1 FROM tournament_membership LIMIT 1").fetchall())


def _connect(path: Path) -> sqlite3.Connection:
    """The journal's file, opened the one way (:func:`companion.store.connect`: WAL,
    ``synchronous=FULL``, its migrations make the tournament tables), owner-only."""
    try:
        if str(path) != ":memory:":  # SQLite's own name for no file (a journal that saves
            private_file(path)  # nothing): no file to make, no folder to close
    except OSError as e:
        raise StoreError(f"the journal {path} cannot be created: {e}") from None
    try:
        return store.connect(path, synchronous="FULL", busy_timeout=10.0)
    except (sqlite3.DatabaseError, store.StoreError) as e:
        raise StoreError(f"the journal {path} cannot hold tournaments: {e}") from None


class _Base:
    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self._db: sqlite3.Connection | None = _connect(self.path)
        # One connection, used from several threads (a network thread, the screen's): one
        # statement or transaction at a time.
        self._lock = threading.RLock()

    @property
    def db(self) -> sqlite3.Connection:
        if self._db is None:
            raise StoreError(f"tournament store {self.path} is closed")
        return self._db

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """One write (:func:`companion.store.transaction`); a card that refuses it (full,
        read-only, failing) is a :class:`StoreError` in its plain words."""
        with self._lock:
            db = self.db
            try:
                with store.transaction(db, self.path):
                    yield db
            except StoreError:
                raise
            except store.StoreError as e:
                raise StoreError(str(e)) from None

    def _query(self, sql: str, params: tuple[Any, ...] = ()) -> list[Any]:
        with self._lock:
            return self.db.execute(sql, params).fetchall()

    def close(self) -> None:
        with self._lock:
            if self._db is not None:
                self._db.close()
                self._db = None

    def __enter__(self) -> Any:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()


@dataclass(frozen=True)
class SavedGame:
    """A reported game file, kept with the tournament (once per report id)."""

    round: int
    table: int
    report_id: str
    source: str
    text: str


@dataclass(frozen=True)
class TournamentRecord:
    id: str
    name: str
    config: dict[str, Any]
    created: float
    current: bool


class TournamentStore(_Base):
    """The director's tournaments and their events. A context manager."""

    def create(self, tid: str, tournament: Tournament, config: dict[str, Any]) -> None:
        """Record a new tournament (its events so far) and make it the current one."""
        with self._transaction() as db:
            if db.execute("SELECT 1 FROM tournament_list WHERE id=?", (tid,)).fetchone():
                raise StoreError(f"tournament {tid} already exists in {self.path}")
            db.execute("UPDATE tournament_list SET current=0")
            db.execute("INSERT INTO tournament_list (id, name, config, created, current) "
                       "VALUES (?, ?, ?, ?, 1)",
                       (tid, tournament.name, json.dumps(config), time.time()))
            for seq, event in enumerate(tournament.events, start=1):
                db.execute("INSERT INTO tournament_events VALUES (?, ?, ?, ?)",
                           (tid, seq, json.dumps(event_to_json(event)), time.time()))

    def records(self) -> list[TournamentRecord]:
        rows = self._query("SELECT id, name, config, created, current FROM tournament_list "
                               "ORDER BY created DESC")
        return [TournamentRecord(r[0], r[1], json.loads(r[2]), float(r[3]), bool(r[4]))
                for r in rows]

    def record(self, tid: str | None = None) -> TournamentRecord:
        """One tournament by id, or the current one. Raised when there is none:
        :class:`StoreError` saying how to make one."""
        for r in self.records():
            if (tid is None and r.current) or r.id == tid:
                return r
        if tid is None:
            raise StoreError("no tournament yet: make one with `companion tournament new NAME`")
        known = ", ".join(r.id for r in self.records()) or "none"
        raise StoreError(f"no tournament {tid!r} in {self.path} (known: {known})")

    def use(self, tid: str) -> None:
        self.record(tid)
        with self._transaction() as db:
            db.execute("UPDATE tournament_list SET current=(id=?)", (tid,))

    def set_config(self, tid: str, config: dict[str, Any]) -> None:
        with self._transaction() as db:
            db.execute("UPDATE tournament_list SET config=? WHERE id=?", (json.dumps(config), tid))

    def events(self, tid: str, after: int = 0) -> list[tuple[int, TournamentEvent]]:
        rows = self._query("SELECT seq, event FROM tournament_events WHERE tournament=? "
                               "AND seq>? ORDER BY seq", (tid, after))
        out = []
        for seq, text in rows:
            try:
                out.append((int(seq), event_from_json(json.loads(text))))
            except (ValueError, TournamentError) as e:
                raise StoreError(f"tournament {tid}, event {seq} in {self.path} cannot be "
                                 f"read: {e}") from None
        return out

    def last_seq(self, tid: str) -> int:
        rows = self._query("SELECT MAX(seq) FROM tournament_events WHERE tournament=?", (tid,))
        return int(rows[0][0] or 0)

    def load(self, tid: str) -> tuple[Tournament, int]:
        """The tournament rebuilt from its events, and the last sequence number."""
        events = self.events(tid)
        try:
            t = Tournament.from_events(e for _, e in events)
        except TournamentError as e:
            raise StoreError(f"tournament {tid} in {self.path}: {e}") from None
        return t, (events[-1][0] if events else 0)

    def append(self, tid: str, events: Sequence[TournamentEvent], after: int,
               games: Sequence[SavedGame] = ()) -> int:
        """Append events after sequence number ``after`` (and keep ``games``, reported game
        files, in the same transaction: all of it or none); returns the new last number.
        Raised when someone else appended first: :class:`StaleError`."""
        with self._transaction() as db:
            row = db.execute("SELECT MAX(seq) FROM tournament_events WHERE tournament=?",
                             (tid,)).fetchone()
            if int(row[0] or 0) != after:
                raise StaleError(f"tournament {tid}: events were added meanwhile")
            seq = after
            for event in events:
                seq += 1
                db.execute("INSERT INTO tournament_events VALUES (?, ?, ?, ?)",
                           (tid, seq, json.dumps(event_to_json(event)), time.time()))
            for game in games:
                self._save_game(db, tid, game)
        return seq

    def save_game(self, tid: str, round_number: int, table: int, report_id: str, source: str,
                  text: str) -> None:
        """Keep a reported game file (once per report id)."""
        with self._transaction() as db:
            self._save_game(db, tid, SavedGame(round_number, table, report_id, source, text))

    @staticmethod
    def _save_game(db: sqlite3.Connection, tid: str, game: SavedGame) -> None:
        db.execute("INSERT OR IGNORE INTO tournament_games VALUES (?, ?, ?, ?, ?, ?, ?)",
                   (tid, game.round, game.table, game.report_id, game.source, game.text,
                    time.time()))

    def refuse(self, tid: str, source: str, reason: str, size: int, count: int = 1) -> None:
        """Keep a message that was refused (who sent it, why, how large) for the organiser;
        the newest :data:`REFUSED_KEPT` are kept, every one is counted (``count``: this
        many messages, said once)."""
        with self._transaction() as db:
            db.execute("INSERT INTO tournament_refused VALUES (?, ?, ?, ?, ?)",
                       (tid, source[:80], reason[:300], size, time.time()))
            db.execute("INSERT INTO tournament_refused_count VALUES (?, ?) ON CONFLICT"
                       "(tournament) DO UPDATE SET refused=refused+excluded.refused",
                       (tid, count))
            db.execute("DELETE FROM tournament_refused WHERE tournament=? AND rowid <= (SELECT "
                       "rowid FROM tournament_refused WHERE tournament=? ORDER BY rowid DESC "
                       "LIMIT 1 OFFSET ?)", (tid, tid, REFUSED_KEPT))

    def refused(self, tid: str, last: int = 20) -> tuple[int, list[tuple[float, str, str, int]]]:
        """How many messages were refused, and the last ``last`` of them, newest first:
        (time, source, reason, size)."""
        count = self._query("SELECT refused FROM tournament_refused_count WHERE tournament=?",
                            (tid,))
        rows = self._query("SELECT wall, source, reason, size FROM tournament_refused WHERE "
                           "tournament=? ORDER BY rowid DESC LIMIT ?", (tid, last))
        return (int(count[0][0]) if count else 0,
                [(float(a), str(b), str(c), int(d)) for a, b, c, d in rows])

    def games(self, tid: str) -> list[tuple[int, int, str, str, str]]:
        """(round, table, report id, source, game file) of every reported game file."""
        rows = self._query("SELECT round, table_no, report_id, source, text FROM "
                           "tournament_games WHERE tournament=? ORDER BY round, table_no, wall",
                           (tid,))
        return [(int(a), int(b), str(c), str(d), str(e)) for a, b, c, d, e in rows]


@dataclass(frozen=True)
class OutboxItem:
    report_id: str
    tournament: str
    round: int
    table: int
    payload: bytes
    created: float
    sends: int


@dataclass(frozen=True)
class ReportRecord:
    report_id: str
    round: int
    table: int
    created: float
    status: str
    text: str


@dataclass
class Membership:
    tournament: str
    code: str
    joined: float
    seating: str | None = None


class TableStore(_Base):
    """A table's side: the tournament it joined, its last seating, and its outbox."""

    def join(self, tournament: str, code: str) -> None:
        with self._transaction() as db:
            db.execute("INSERT INTO tournament_membership (tournament, code, joined) "
                       "VALUES (?, ?, ?) ON CONFLICT(tournament) DO UPDATE SET code=excluded.code",
                       (tournament, code, time.time()))

    def memberships(self) -> list[Membership]:
        rows = self._query("SELECT tournament, code, joined, seating FROM "
                               "tournament_membership ORDER BY joined DESC")
        return [Membership(str(a), str(b), float(c), d) for a, b, c, d in rows]

    def leave(self, tournament: str) -> None:
        with self._transaction() as db:
            db.execute("DELETE FROM tournament_membership WHERE tournament=?", (tournament,))

    def save_seating(self, tournament: str, payload: str) -> None:
        with self._transaction() as db:
            db.execute("UPDATE tournament_membership SET seating=? WHERE tournament=?",
                       (payload, tournament))

    def queue(self, report_id: str, tournament: str, round_number: int, table: int,
              payload: bytes) -> None:
        """Put a report in the outbox (and in the table's list of reports); returns once it
        is on disk."""
        now = time.time()
        with self._transaction() as db:
            db.execute("INSERT OR IGNORE INTO tournament_outbox (report_id, tournament, round, "
                       "table_no, payload, created) VALUES (?, ?, ?, ?, ?, ?)",
                       (report_id, tournament, round_number, table, payload.decode(), now))
            db.execute("INSERT OR IGNORE INTO tournament_reports (report_id, tournament, round, "
                       "table_no, created) VALUES (?, ?, ?, ?, ?)",
                       (report_id, tournament, round_number, table, now))

    def pending(self, tournament: str | None = None) -> list[OutboxItem]:
        rows = self._query(
            "SELECT report_id, tournament, round, table_no, payload, created, sends FROM "
            "tournament_outbox WHERE ? IS NULL OR tournament=? ORDER BY created",
            (tournament, tournament))
        return [OutboxItem(str(a), str(b), int(c), int(d), str(e).encode(), float(f), int(g))
                for a, b, c, d, e, f, g in rows]

    def mark_sent(self, report_id: str) -> None:
        with self._transaction() as db:
            db.execute("UPDATE tournament_outbox SET sends=sends+1 WHERE report_id=?",
                       (report_id,))

    def acknowledged(self, report_id: str, status: str = "recorded", text: str = "") -> bool:
        """The director has the report: take it out of the outbox and keep what became of it.
        False if it was not in the outbox (an acknowledgement repeated)."""
        with self._transaction() as db:
            cur = db.execute("DELETE FROM tournament_outbox WHERE report_id=?", (report_id,))
            # The first answer stands: a resend crossing the acknowledgement is answered
            # "duplicate", which must not hide that the report was recorded.
            db.execute("UPDATE tournament_reports SET status=?, text=? WHERE report_id=? AND "
                       "status='waiting'", (status, text, report_id))
        return cur.rowcount > 0

    def reports(self, tournament: str) -> list[ReportRecord]:
        """Every report this table made in a tournament, oldest first, with its fate
        (``waiting`` until acknowledged)."""
        rows = self._query("SELECT report_id, round, table_no, created, status, text FROM "
                               "tournament_reports WHERE tournament=? ORDER BY created",
                               (tournament,))
        return [ReportRecord(str(a), int(b), int(c), float(d), str(e), str(f))
                for a, b, c, d, e, f in rows]


__all__ = ["REFUSED_KEPT", "Membership", "OutboxItem", "ReportRecord", "SavedGame", "StaleError",
           "StoreError", "TableStore", "TournamentRecord", "TournamentStore", "private_file",
           "private_folder", "readable_secrets", "takes_part"]
