"""A game's calls as they are played: each one on disk before the call returns, an undo
marking the last live call as taken back, a redo marking it live again, a new call
forgetting the taken-back ones (as :meth:`rules.Game.apply` forgets its redo stack); and the
round clock beside them, so a resumed game starts it where it stood."""

from __future__ import annotations

import time

from companion import store
from companion.journal.opening import JournalFile
from companion.journal.records import JournalError
from rules import Entry


class CallRows(JournalFile):
    """A game's calls and its round clock (the ``calls`` and ``clock`` tables)."""

    def record_call(self, game_id: int, entry: Entry, wall: float | None = None) -> int:
        """Append one call (forgetting calls taken back); returns its sequence number.

        Returns only once SQLite has synced the write to disk.
        """
        db = self._writing()
        self._check_open_game(game_id)
        with store.transaction(db, self.path):
            db.execute("DELETE FROM calls WHERE game_id=? AND undone=1", (game_id,))
            seq = db.execute("SELECT COALESCE(MAX(seq), 0) + 1 FROM calls WHERE game_id=?",
                             (game_id,)).fetchone()[0]
            db.execute("INSERT INTO calls (game_id, seq, call, at, wall) VALUES (?, ?, ?, ?, ?)",
                       (game_id, seq, entry.call, entry.at,
                        time.time() if wall is None else wall))
        return int(seq)

    def record_undo(self, game_id: int) -> Entry:
        """Mark the last live call as taken back; returns it."""
        self._check_open_game(game_id)
        row = self.db.execute(
            "SELECT seq, call, at FROM calls WHERE game_id=? AND undone=0 "
            "ORDER BY seq DESC LIMIT 1", (game_id,)).fetchone()
        if row is None:
            raise JournalError(f"game {game_id}: undo with no call to take back")
        self._write("UPDATE calls SET undone=1 WHERE game_id=? AND seq=?", (game_id, row[0]))
        return Entry(row[1], row[2])

    def record_redo(self, game_id: int) -> Entry:
        """Mark the first call taken back as live again; returns it."""
        self._check_open_game(game_id)
        row = self.db.execute(
            "SELECT seq, call, at FROM calls WHERE game_id=? AND undone=1 "
            "ORDER BY seq ASC LIMIT 1", (game_id,)).fetchone()
        if row is None:
            raise JournalError(f"game {game_id}: redo with no call taken back")
        self._write("UPDATE calls SET undone=0 WHERE game_id=? AND seq=?", (game_id, row[0]))
        return Entry(row[1], row[2])

    def save_clock(self, game_id: int, round_number: int, elapsed: float, paused: bool,
                   wall: float | None = None) -> None:
        """Remember the round clock, so a resumed game starts it where it stood."""
        self._write(
            "INSERT INTO clock (game_id, round, elapsed, paused, wall) VALUES (?, ?, ?, ?, ?) "
            "ON CONFLICT(game_id) DO UPDATE SET round=excluded.round, "
            "elapsed=excluded.elapsed, paused=excluded.paused, wall=excluded.wall",
            (game_id, round_number, float(elapsed), int(paused),
             time.time() if wall is None else wall))


__all__ = ["CallRows"]
