"""Child process of the fault suite: a companion that plays until it is killed.

Usage: python fault_child.py JOURNAL SEED. Opens the journal as the app does
(``startfiles.open_journal``: the data folder's lock, the store, the start-up checks), resumes
its newest unfinished game or starts one (the five games in turn), and makes random legal calls
through ``TableSession`` (undo and redo now and then), for ever. After each change the journal
has acknowledged it prints ``ack GAME_ID call|undo|redo LIVE TEXT`` (LIVE: the calls in the
live history; TEXT: the call as journaled), flushed;
a line ``start GAME_ID`` when it begins a game and ``notice TEXT`` for each start-up notice.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[2]))

import rules
from companion import startfiles
from companion.session import TableSession


def main() -> None:
    journal, notices = startfiles.open_journal(Path(sys.argv[1]))
    rng = random.Random(int(sys.argv[2]))
    for n in notices:
        print("notice", n.replace("\n", " "), flush=True)
    if journal.readonly:
        print("readonly", journal.readonly, flush=True)
        return
    names = rules.game_names()
    while True:
        waiting = journal.unfinished()
        if waiting:
            session = TableSession.resume(journal, waiting[0].id)
        else:
            done = int(journal.db.execute("SELECT count(*) FROM games").fetchone()[0])
            cls = rules.game_class(names[done % len(names)])
            session = TableSession.new(journal, cls.random_setup(rng))
        print(f"start {session.game_id}", flush=True)
        while not session.game.is_over:
            roll = rng.random()
            if roll < 0.08 and session.game.can_undo:
                op = "undo"
                entry = session.undo()
            elif roll < 0.12 and session.game.can_redo:
                op = "redo"
                entry = session.redo()
            else:
                op = "call"
                session.call(session.game.random_call(rng))
                entry = session.game.history[-1]
            assert entry is not None
            print(f"ack {session.game_id} {op} {len(session.game.history)} {entry.call}",
                  flush=True)


if __name__ == "__main__":
    main()
