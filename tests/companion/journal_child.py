"""Child process for the kill -9 test: plays calls into a journal until it is killed.

Usage: python journal_child.py DB. Prints "game ID" once, then "ack N LIVE" after each journal
write has returned (N writes so far, LIVE calls in the live history), flushing each line.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parents[2]))

import rules
from companion.journal import Journal
from rules import Entry


def main() -> None:
    journal = Journal(sys.argv[1])
    game = rules.new_game("eye-for-an-eye", ["Ana", "Ben", "Cy"], {"rounds": 20}, seed=5)
    gid = journal.start_game(game.setup, "kill test")
    print(f"game {gid}", flush=True)
    writes = 0
    at = 0.0
    while True:
        at += 0.25
        k = writes % 7
        if k == 5 and game.can_undo:
            game.undo()
            journal.record_undo(gid)
        elif k == 6 and game.can_redo and writes % 3 == 0:
            game.redo()
            journal.record_redo(gid)
        else:
            text = ("Grubic: Movement 1", "Riparian: Movement 2", "Banksia: Movement 3",
                    "Grubic: Movement 3", "Riparian: Movement 1", "Banksia: Movement 1",
                    "Cy: Movement 2")[k]
            game.apply(text, at)
            journal.record_call(gid, Entry(game.history[-1].call, game.history[-1].at))
        writes += 1
        print(f"ack {writes} {len(game.history)}", flush=True)


if __name__ == "__main__":
    main()
