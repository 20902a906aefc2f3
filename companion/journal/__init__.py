"""The journal: every game and every call, in SQLite, on disk before the screen shows it.

One file holds every game played on this machine (``companion.paths.journal_path()``). It runs
in WAL mode with ``synchronous=FULL``, so a call that :meth:`Journal.record_call` returned from
survives a power cut. The history is kept as the live list the game has: an undo marks the last
live call as taken back, a redo marks it live again, and a new call forgets the taken-back ones,
exactly as :meth:`rules.Game.apply` forgets its redo stack. So :meth:`Journal.resume` gives back
the same game, redo stack included, and :meth:`Journal.export` writes the game-file format that
``companion replay`` re-scores.

Where each part lives: :mod:`~companion.journal.opening` (the file opened, whatever state it
is in, and closed), :mod:`~companion.journal.games` (games started, finished, read back),
:mod:`~companion.journal.calls` (calls, undo, redo and the round clock),
:mod:`~companion.journal.replaying` (resume, export, the check of unfinished games),
:mod:`~companion.journal.records` (what it gives back) and :mod:`~companion.journal.damage`
(what can be wrong with its files on disk, found before it is opened).
"""

from __future__ import annotations

from companion.journal.calls import CallRows
from companion.journal.damage import wal_problem
from companion.journal.records import ClockRecord, GameRecord, JournalError, read_ending
from companion.journal.replaying import GameReplays


class Journal(CallRows, GameReplays):
    """The SQLite journal (opened through :mod:`companion.store`). A context manager;
    :meth:`close` is idempotent.

    ``readonly``: "" for a journal this process writes; otherwise why it may not (a read-only
    card, another companion holding the data folder), in words for the screen: the games can
    be read, and every write raises :class:`companion.store.ReadOnly` with that reason.
    """


__all__ = ["ClockRecord", "GameRecord", "Journal", "JournalError", "read_ending", "wal_problem"]
