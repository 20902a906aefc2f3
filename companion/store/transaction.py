"""One write transaction on the journal's file: everything inside it is saved, or nothing is,
and a disk's refusal comes out in plain words (:mod:`companion.store.errors`)."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

from companion.store.errors import disk_problem


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


__all__ = ["transaction"]
