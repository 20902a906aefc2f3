"""Power cut: the app is killed with SIGKILL mid-round; a new app offers the game for resume
and brings it back exactly: state, call log and round clock, equal to the journal."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Generator
from pathlib import Path
from typing import Any

import pytest
from conftest import arena_game, press_in

pytestmark = pytest.mark.app


def test_resume_after_kill_dash_nine(app_dirs: Path) -> None:
    arena_game()  # the parent must know the game the child plays
    db = app_dirs / "j.sqlite3"
    child = subprocess.Popen([sys.executable, str(Path(__file__).with_name("app_child.py")),
                              str(db)], stdout=subprocess.PIPE, text=True, env=dict(os.environ))
    assert child.stdout is not None
    acked = 0
    for line in child.stdout:
        acked = int(line.split()[1])
        if acked >= 12:
            break
    child.send_signal(signal.SIGKILL)
    child.wait(timeout=30)
    assert child.returncode == -signal.SIGKILL
    assert acked >= 12

    from companion.compose import CompanionApp
    from companion.demo.drive import Driver, ManualClock, run_app
    from companion.journal import Journal
    from rules import replay

    with Journal(db) as journal:
        [record] = journal.unfinished()
    assert len(record.entries) >= acked  # every acknowledged call survived
    expected = replay(record.setup, record.entries)

    app = CompanionApp(clock=ManualClock(), journal_file=db)
    seen: dict[str, Any] = {}

    def script(d: Driver) -> Generator[int | None, None, None]:
        start = app.screens["start"]
        yield 2
        assert start.resume_button.text == "Resume (1)"
        d.tap(start.resume_button)
        yield 1
        offer = start.resume_buttons[record.id]
        assert f"{len(record.entries)} calls" in start.describe(record)
        d.tap(offer)
        yield 2
        s = app.session
        assert s is not None and app.sm.current == "arena"
        seen["snapshot"] = s.game.snapshot()
        seen["log"] = s.log
        seen["elapsed"] = s.clock.elapsed
        seen["paused"] = (not s.clock.running)
        arena = app.screens["arena"]
        seen["log_text"] = arena.log_label.text
        seen["go"] = arena.go.text
        app.end_game()  # leave it: it is offered again, until dropped
        yield 2
        assert start.resume_button.text == "Resume (1)"
        d.tap(start.resume_button)
        yield 1
        d.tap(start.drop_buttons[record.id])
        yield 1
        press_in(d, start.confirm_view, "Drop")  # asked first
        yield 2
        seen["offers_after_drop"] = len(app.journal.unfinished())
        seen["resume_off"] = start.resume_button.disabled

    run_app(app, script)
    assert seen["snapshot"] == expected.snapshot()
    assert seen["offers_after_drop"] == 0 and seen["resume_off"]
    assert seen["log"] == list(record.entries)
    assert seen["log_text"].splitlines()[0].endswith(" " + record.entries[-1].call)
    # The clock comes back where it stood (at least the last call's time), paused.
    assert seen["paused"] and seen["go"] == "Resume"
    assert seen["elapsed"] >= (record.entries[-1].at or 0)
    assert record.clock is not None and seen["elapsed"] == pytest.approx(
        max(record.clock.elapsed, record.entries[-1].at or 0))
