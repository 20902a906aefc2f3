"""The app starts on a journal whose calls table is gone (issue 42, item 8): it stopped at the
start screen with ``sqlite3.OperationalError`` (exit 1). Now the journal is set aside (kept),
the start screen says so, and a game starts and takes calls by touch."""

from __future__ import annotations

import sqlite3
from collections.abc import Generator
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.app


def test_the_app_starts_on_a_journal_whose_calls_are_gone(app_dirs: Path) -> None:
    import rules
    from companion.compose import CompanionApp
    from companion.demo.drive import Driver, ManualClock, run_app
    from companion.journal import Journal
    from rules.core import Entry

    journal_file = app_dirs / "j.sqlite3"
    with Journal(journal_file) as journal:
        gid = journal.start_game(rules.new_game("dice-ocalypse", ["Ana", "Ben"], seed=3).setup)
        journal.record_call(gid, Entry("Ana: Roll 6"))
    db = sqlite3.connect(journal_file)
    db.execute("DROP TABLE calls")
    db.close()
    app = CompanionApp(clock=ManualClock(), journal_file=journal_file)
    seen: dict[str, Any] = {}

    def script(d: Driver) -> Generator[int | None, None, None]:
        yield 3
        start = app.screens["start"]
        seen["screen"] = app.sm.current
        seen["notice"] = " ".join(getattr(w, "text", "") for w in start.notice.walk()) \
            if start.notice is not None else ""
        if start.notice is not None:
            start.notice.dismiss(animation=False)
        start.choose_game("dice-ocalypse")
        yield 1
        start._seat_names(["Cy", "Dee"])
        yield 1
        d.tap(start.start_button)
        yield 3
        session = app.session
        seen["players"] = None if session is None else session.game.setup.players
        if session is not None:
            session.call("Cy: Roll 5")
            seen["calls"] = [e.call for e in app.journal.load(session.game_id).entries]

    run_app(app, script)
    assert seen["screen"] == "start"
    assert "was damaged (its table calls is missing)" in seen["notice"]
    assert "set aside" in seen["notice"]
    assert seen["players"] == ("Cy", "Dee") and seen["calls"] == ["Cy: Roll 5"]
    assert list(app_dirs.glob("j.sqlite3.damaged-*"))
