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

Where each part lives: :mod:`~companion.store.opening` (connect, read-only opening, peek),
:mod:`~companion.store.schema` (the tables in versions, the migrations),
:mod:`~companion.store.health` (checking and mending a file's tables, ``inspect``),
:mod:`~companion.store.transaction` (one write), :mod:`~companion.store.errors` (the disk's
refusals in words) and :mod:`~companion.store.lock` (one companion per data folder).
"""

from __future__ import annotations

from companion.store.errors import DiskFull, ReadOnly, StoreError, disk_problem
from companion.store.health import (
    CORE,
    DERIVED,
    SchemaError,
    expected_schema,
    heal_schema,
    inspect,
    schema_problems,
)
from companion.store.lock import (
    LOCK_NAME,
    DataLock,
    LockRefused,
    hold_lock_file,
    lock_holder,
    take_journal_lock,
    take_lock,
)
from companion.store.opening import connect, healed, peek
from companion.store.schema import MIGRATIONS, SCHEMA_VERSION, migrate
from companion.store.transaction import transaction

__all__ = ["CORE", "DERIVED", "LOCK_NAME", "MIGRATIONS", "SCHEMA_VERSION", "DataLock", "DiskFull",
           "LockRefused", "ReadOnly", "SchemaError", "StoreError", "connect", "disk_problem",
           "expected_schema", "heal_schema", "healed", "hold_lock_file", "inspect",
           "lock_holder", "migrate", "peek", "schema_problems", "take_journal_lock", "take_lock",
           "transaction"]
