"""The journal's games: a game started, finished, ended by the players, reopened, forgotten
when it has no call, marked as one that cannot be resumed; and read back, one or all, with
what the start screen offers again (the latest groups of players, a game's last options)."""

from __future__ import annotations

import json
import time
from typing import Any

from companion import store
from companion.journal.opening import JournalFile
from companion.journal.records import (
    ClockRecord,
    GameRecord,
    JournalError,
    entry_time,
    read_ending,
)
from rules import Ending, Entry, RulesError, Setup


class GameRows(JournalFile):
    """The journal's games (the ``games`` table, and the clock and calls each one has)."""

    # -- writing ---------------------------------------------------------------------------

    def start_game(self, setup: Setup, title: str = "", wall: float | None = None) -> int:
        """Record a new game's setup; returns its id."""
        cur = self._write("INSERT INTO games (setup, title, started) VALUES (?, ?, ?)",
                          (json.dumps(setup.to_json()), title,
                           time.time() if wall is None else wall))
        assert cur.lastrowid is not None
        return int(cur.lastrowid)

    def finish(self, game_id: int, wall: float | None = None,
               ending: Ending | None = None) -> None:
        """Mark a game finished (over, or abandoned): it is no longer offered for resume.
        ``ending``: the players ended it themselves, :attr:`Ending.AGREED` (its standings
        then are the result) or :attr:`Ending.NO_RESULT` (:mod:`companion.ending`).
        Raised when ``ending`` is another: JournalError naming it."""
        if ending is not None and ending not in (Ending.AGREED, Ending.NO_RESULT):
            raise JournalError(f"game {game_id}: ending {str(ending)!r} must be 'agreed' or "
                               "'no result'")
        self._write("UPDATE games SET finished=?, ending=? WHERE id=? AND finished IS NULL",
                    (time.time() if wall is None else wall,
                     None if ending is None else Ending(ending).value, game_id))

    def discard_empty(self, game_id: int) -> bool:
        """Forget a game that has no call at all (started by accident, or left before the
        first call): nothing of it is worth keeping. True when it was forgotten."""
        if self.readonly:
            return False  # another companion's (or a read-only card's) games are left alone
        db = self._writing()
        with store.transaction(db, self.path):
            if db.execute("SELECT 1 FROM calls WHERE game_id=? LIMIT 1",
                          (game_id,)).fetchone() is not None:
                return False
            db.execute("DELETE FROM clock WHERE game_id=?", (game_id,))
            gone = db.execute("DELETE FROM games WHERE id=?", (game_id,)).rowcount
        return bool(gone)

    def reopen(self, game_id: int) -> None:
        """Offer a finished game for resume again (a Drop taken back): not a game that is over,
        nor one that cannot be resumed."""
        self._write("UPDATE games SET finished=NULL, ending=NULL WHERE id=? AND problem IS NULL",
                    (game_id,))

    def discard_all_empty(self) -> int:
        """Forget every unfinished game with no call at all (the app does this as it starts,
        when no game is being played: one cut off before its first call, say). Returns how
        many were forgotten; none from a journal this process may not write)."""
        if self.readonly:
            return 0
        ids = [int(r[0]) for r in self.db.execute(
            "SELECT id FROM games g WHERE finished IS NULL AND NOT EXISTS "
            "(SELECT 1 FROM calls c WHERE c.game_id = g.id)")]
        return sum(self.discard_empty(i) for i in ids)

    def mark_broken(self, game_id: int, why: str) -> None:
        """A game that cannot be resumed: kept with its reason, never offered again."""
        self._write("UPDATE games SET problem=?, finished=COALESCE(finished, ?) WHERE id=?",
                    (why, time.time(), game_id))

    # -- reading ---------------------------------------------------------------------------

    def load(self, game_id: int) -> GameRecord:
        """Everything the journal holds about one game.

        Raised when ...: JournalError naming the game when it is not there or its row cannot
        be read (a setup that is not JSON or not a game's setup).
        """
        row = self.db.execute("SELECT id, setup, title, started, finished, problem, ending "
                              "FROM games WHERE id=?", (game_id,)).fetchone()
        if row is None:
            raise JournalError(f"game {game_id}: not in the journal {self.path}")
        try:
            setup = Setup.from_json(json.loads(row[1]))
        except (ValueError, TypeError, RecursionError) as e:
            raise JournalError(f"game {game_id}: its setup cannot be read ({e})") from None
        calls = self.db.execute("SELECT call, at, undone FROM calls WHERE game_id=? ORDER BY seq",
                                (game_id,)).fetchall()
        clock_row = self.db.execute("SELECT round, elapsed, paused FROM clock WHERE game_id=?",
                                    (game_id,)).fetchone()
        try:
            clock = None if clock_row is None else ClockRecord(int(clock_row[0]),
                                                               float(clock_row[1]),
                                                               bool(clock_row[2]))
        except (ValueError, TypeError, OverflowError):
            clock = None  # a clock that cannot be read starts the round from 0; the game stands
        try:
            entries = tuple(Entry(str(c), entry_time(a)) for c, a, u in calls if not u)
            undone = tuple(Entry(str(c), entry_time(a)) for c, a, u in calls if u)
        except (RulesError, TypeError) as e:
            raise JournalError(f"game {game_id}: a call's time cannot be read ({e})") from None
        return GameRecord(
            id=int(row[0]), setup=setup, title=str(row[2]),
            started=float(row[3]), finished=None if row[4] is None else float(row[4]),
            entries=entries, undone=undone, clock=clock, problem=row[5],
            ending=read_ending(row[6]))

    def unfinished(self) -> list[GameRecord]:
        """Games not marked finished, newest first: the ones to offer for resume (a game
        whose row cannot be read is left out; :meth:`check_unfinished` says why)."""
        ids = [r[0] for r in self.db.execute(
            "SELECT id FROM games WHERE finished IS NULL ORDER BY id DESC")]
        out = []
        for i in ids:
            try:
                out.append(self.load(i))
            except JournalError:
                continue
        return out

    def games(self) -> list[GameRecord]:
        """Every game in the journal, newest first."""
        return [self.load(r[0]) for r in self.db.execute("SELECT id FROM games ORDER BY id DESC")]

    def recent_setups(self, limit: int) -> list[tuple[int, Setup, bool]]:
        """(game id, setup, finished) of the newest ``limit`` games, newest first (a game
        whose setup cannot be read is left out)."""
        out = []
        for gid, raw, finished in self.db.execute(
                "SELECT id, setup, finished FROM games ORDER BY id DESC LIMIT ?", (limit,)):
            try:
                setup = Setup.from_json(json.loads(raw))
            except (ValueError, TypeError, RecursionError):
                continue
            out.append((int(gid), setup, finished is not None))
        return out

    def recent_groups(self, limit: int = 8) -> list[tuple[str, ...]]:
        """The groups of players of the latest games, newest first, each once (the roster the
        start screen offers: no list is kept apart from the games themselves)."""
        groups: list[tuple[str, ...]] = []
        for (setup,) in self.db.execute("SELECT setup FROM games ORDER BY id DESC LIMIT 200"):
            try:
                players = tuple(str(p) for p in json.loads(setup)["players"])
            except (ValueError, TypeError, KeyError, RecursionError):
                continue
            if players and players not in groups:
                groups.append(players)
            if len(groups) >= limit:
                break
        return groups

    def last_options(self, game: str) -> dict[str, Any] | None:
        """The options of the newest game of ``game`` kept here (what the players chose for
        it last: the start screen offers it again, after a game and after a restart; no
        choice is kept apart from the games themselves), or None when none is found."""
        for (setup,) in self.db.execute("SELECT setup FROM games ORDER BY id DESC LIMIT 200"):
            try:
                data = json.loads(setup)
                if data["game"] == game and isinstance(data.get("options", {}), dict):
                    return dict(data.get("options", {}))
            except (ValueError, TypeError, KeyError, RecursionError):
                continue
        return None


__all__ = ["GameRows"]
