"""Child process for the one-companion-per-folder tests: opens a journal as the app does.

Usage: python store_child.py JOURNAL [CALL]. Opens the journal through
``startfiles.open_journal`` (which takes the data folder's lock), resumes its newest unfinished
game and, when CALL is given, tries that call through ``TableSession.try_call``. Prints one JSON
line: {"pid", "readonly", "notices", "calls", "message"}, flushed; then holds everything open
until a line (or the end) comes on stdin.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[2]))

import os

from companion import startfiles
from companion.session import TableSession


def main() -> None:
    journal, notices = startfiles.open_journal(Path(sys.argv[1]))
    message = ""
    calls = -1
    games = journal.unfinished()
    if games:
        session = TableSession.resume(journal, games[0].id)
        if len(sys.argv) > 2:
            session.try_call(sys.argv[2])
            message = session.message
        calls = len(journal.load(games[0].id).entries)
    print(json.dumps({"pid": os.getpid(), "readonly": journal.readonly, "notices": notices,
                      "calls": calls, "message": message}), flush=True)
    sys.stdin.readline()
    journal.close()


if __name__ == "__main__":
    main()
