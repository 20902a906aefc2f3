"""Two companions on one data folder (issue 33): before the lock, both reached the start
screen, both resumed the same game, and the journal took calls from two diverging games (the
game no longer replayed). Now the second app, started while another process holds the folder,
says which process holds it, shows the game, and refuses every call and every new game in
words; the journal holds only the first one's calls and replays."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Generator
from pathlib import Path
from typing import Any

import pytest
from conftest import press_in

pytestmark = pytest.mark.app

CHILD = Path(__file__).parents[1] / "companion" / "store_child.py"


def test_a_second_app_on_the_same_folder_shows_the_game_and_takes_no_call(
        app_dirs: Path) -> None:
    import rules
    from companion.compose import CompanionApp
    from companion.demo.drive import Driver, ManualClock, run_app
    from companion.journal import Journal
    from companion.session import TableSession

    path = app_dirs / "data" / "journal.sqlite3"
    path.parent.mkdir(parents=True)
    with Journal(path) as j:
        s = TableSession.new(j, rules.new_game("dice-ocalypse", ["Ana", "Ben", "Cy"],
                                               seed=4).setup)
        s.call(s.game.legal_calls()[0])
        gid, first_calls = s.game_id, [e.call for e in s.game.history]
    # the first companion: a real process holding the folder, as the app holds it
    holder = subprocess.Popen([sys.executable, str(CHILD), str(path)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None
        first = json.loads(holder.stdout.readline())  # waits on its line: it holds the lock
        assert first["readonly"] == ""
        app = CompanionApp(clock=ManualClock(), journal_file=path)
        seen: dict[str, Any] = {}

        def script(d: Driver) -> Generator[int | None, None, None]:
            start = app.screens["start"]
            yield 2
            # said at once, plainly: who holds the folder
            said = start.notice_text.text
            assert f"Another companion (process {first['pid']})" in said, said
            press_in(d, start.notice, "OK")
            yield 1
            assert start.message.text.startswith("Read-only"), start.message.text
            # the game is there to see ...
            assert start.resume_button.text == "Resume (1)"
            d.tap(start.resume_button)
            yield 1
            d.tap(start.resume_buttons[gid])
            yield 2
            session = app.session
            assert session is not None and session.game_id == gid
            # ... but a call is refused in words, and the game stays as it was
            before = session.game.snapshot()
            assert session.try_call(session.game.legal_calls()[0]) is None
            seen["refused"] = session.message
            assert session.game.snapshot() == before
            app.end_game()
            yield 1
            # and a new game cannot be started here
            d.tap(start.start_button)
            yield 2
            if getattr(start, "confirm_view", None) is not None and \
                    start.confirm_view.parent is not None:
                press_in(d, start.confirm_view, "New game")
                yield 2
            seen["start"] = start.message.text
            assert app.session is None

        run_app(app, script)
        assert f"process {first['pid']}" in seen["refused"]
        assert f"Another companion (process {first['pid']})" in seen["start"], seen
    finally:
        assert holder.stdin is not None
        holder.stdin.write("\n")
        holder.stdin.flush()
        holder.wait(timeout=60)
    with Journal(path) as j:
        assert [e.call for e in j.load(gid).entries] == first_calls
        assert len(j.games()) == 1
        j.resume(gid)
