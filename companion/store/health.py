"""Whether a journal's tables are what this version makes, and mending them when they are not.

:func:`schema_problems` names what is wrong (a table gone, a column missing, a view where a
table should be, a trigger this companion never makes); :func:`heal_schema` mends it losing
nothing (a derived table is made again empty and refilled, a damaged record table is kept
aside); :func:`inspect` reads a file's version and soundness without writing (``companion
doctor``).
"""

from __future__ import annotations

import functools
import sqlite3
from pathlib import Path
from urllib.parse import quote

from companion.store.schema import SCHEMA_VERSION, migrate
from companion.store.transaction import transaction

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


__all__ = ["CORE", "DERIVED", "SchemaError", "expected_schema", "heal_schema", "inspect",
           "schema_problems"]
