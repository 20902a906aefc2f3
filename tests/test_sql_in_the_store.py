"""The journal's SQL only in the store (issue 43, item 5; issue 42).

One SQLite file holds the journal and what is kept beside it, and it is read and written
through the modules that own its tables: the package ``companion.store`` (its ``opening``:
the connection and its pragmas; ``schema``: the tables and their migrations; ``health``: the
schema's check and mending; ``transaction``: one write), the package ``companion.journal``
(its ``opening``: the file and its integrity check; ``games``, ``calls`` with the clock,
``replaying``: resume and export), ``companion.history.index`` (the
history index; adding and rewriting games for imports and forgetting),
``companion.history.rolls`` (the roll log and the kept verdicts) and
``companion.tournament.store`` (tournaments, a table's outbox). No other product module runs
a statement: it asks one of these. Checked on the source's syntax tree, every module of the
product packages.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("companion", "rules", "hardware", "calibration", "vision")
STORE = {"companion/store/opening.py", "companion/store/schema.py", "companion/store/health.py",
         "companion/store/transaction.py", "companion/journal/opening.py",
         "companion/journal/games.py", "companion/journal/calls.py",
         "companion/journal/replaying.py", "companion/history/index.py",
         "companion/history/rolls.py", "companion/tournament/store.py"}
RUNS_SQL = {"execute", "executemany", "executescript"}


def _statements(path: Path) -> list[str]:
    """Where a module runs SQL: a cursor's or connection's execute*, sqlite3.connect, or a
    statement handed to the store's peek."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        owner = func.value if isinstance(func, ast.Attribute) else None
        first = node.args[0] if node.args else None
        sql_text = isinstance(first, ast.Constant | ast.JoinedStr)
        if name in RUNS_SQL and sql_text:
            found.append(f"{name} at line {node.lineno}")
        elif name == "connect" and isinstance(owner, ast.Name) and owner.id == "sqlite3":
            found.append(f"sqlite3.connect at line {node.lineno}")
        elif name == "peek":
            found.append(f"peek at line {node.lineno}")
    return found


def test_no_module_outside_the_store_runs_sql() -> None:
    modules = sorted(str(p.relative_to(ROOT)) for package in PACKAGES
                     for p in (ROOT / package).rglob("*.py"))
    assert len(modules) > 100 and set(modules) >= STORE
    outside = {m: found for m in modules if m not in STORE and (found := _statements(ROOT / m))}
    assert outside == {}, "these run SQL: ask the store instead"


def test_the_check_sees_sql_where_the_store_runs_it() -> None:
    for module in STORE:
        assert _statements(ROOT / module), module
