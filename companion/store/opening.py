"""Opening the journal's file, one way: WAL mode, the pragmas set once, the schema brought up
to date (:mod:`companion.store.schema`) and mended (:mod:`companion.store.health`); or
read-only, without writing anything (a read-only card, another companion's file, ``companion
doctor``'s :func:`peek`).
"""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path
from typing import Any
from urllib.parse import quote

from companion.store.errors import StoreError, disk_problem
from companion.store.health import CORE, SchemaError, heal_schema, schema_problems
from companion.store.schema import migrate

_HEALED: dict[str, list[str]] = {}


def healed(path: Path) -> list[str]:
    """What opening ``path`` mended in its tables (:func:`heal_schema`) since last asked, in
    words, for the start-up notice."""
    return _HEALED.pop(str(path), [])


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


__all__ = ["connect", "healed", "peek"]
