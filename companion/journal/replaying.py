"""A game rebuilt from its calls: resumed exactly as it was (redo stack included), written
out as a game file for ``companion replay``, and the check, as the app starts, of every game
offered for resume (one that no longer replays is marked and written out as far as it
reads)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from companion.journal.games import GameRows
from companion.journal.records import JournalError
from rules import Ending, Entry, Game, ReplayError, RulesError, format_game_file, replay


class GameReplays(GameRows):
    """The journal's games replayed by the rules."""

    def resume(self, game_id: int) -> Game[Any]:
        """The game exactly as it was: its live calls replayed, its redo stack restored."""
        record = self.load(game_id)
        game = replay(record.setup, [*record.entries, *record.undone])
        for _ in record.undone:
            game.undo()
        return game

    def export_readable(self, game_id: int, folder: Path) -> Path:
        """Write what can be read of a game into ``folder``: its setup and the calls that
        replay, as a game file; or, when even its setup cannot be read, the raw rows."""
        folder.mkdir(parents=True, exist_ok=True)
        try:
            record = self.load(game_id)
        except JournalError:
            raw = self.db.execute("SELECT setup FROM games WHERE id=?", (game_id,)).fetchone()
            rows = self.db.execute("SELECT call, at, undone FROM calls WHERE game_id=? "
                                   "ORDER BY seq", (game_id,)).fetchall()
            path = folder / f"game-{game_id}.txt"
            lines = [f"setup: {raw[0] if raw else ''}",
                     *(f"{c!r} at {a!r}{' (undone)' if u else ''}" for c, a, u in rows)]
            path.write_text("\n".join(lines) + "\n", encoding="utf-8")
            return path
        good: list[Entry] = []
        try:
            replay(record.setup, record.entries)
            good = list(record.entries)
        except ReplayError as e:
            good = list(record.entries[:e.index - 1])
        except RulesError:
            good = []
        path = folder / f"game-{game_id}.game"
        comment = f"journal game {record.id}: the calls that still replay ({len(good)} of " \
                  f"{len(record.entries)})"
        path.write_text(format_game_file(record.setup, good, comment), encoding="utf-8")
        return path

    def export(self, game_id: int, ending: Ending | None = None) -> str:
        """The game as a game file (setup, ``---``, one call per line) for `companion replay`,
        with how it ended when its calls do not end it: ``ending``, else the players' ending
        the journal keeps (the caller knows a game abandoned: the journal does not replay it
        here)."""
        record = self.load(game_id)
        started = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(record.started))
        comment = f"journal game {record.id}, started {started}"
        last = self.db.execute("SELECT MAX(wall) FROM calls WHERE game_id=? AND undone=0",
                               (game_id,)).fetchone()[0]
        if last is not None and float(last) > record.started:  # so an import keeps its length
            ended = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(float(last)))
            comment += f", ended {ended}"
        if record.title:
            comment = f"{record.title}\n{comment}"
        return format_game_file(record.setup, record.entries, comment, ending or record.ending)

    def check_unfinished(self, export_dir: Path) -> list[str]:
        """Try every game offered for resume; one that cannot be loaded or replayed (a row
        that is not a setup, a game this version does not know, a call the engine or an
        edited data file now refuses) is marked "cannot be resumed" with its reason, so it is
        not offered again, and what can still be read of it is written as a game file into
        ``export_dir``. Returns one notice per such game."""
        notices: list[str] = []
        if self.readonly:
            return notices  # nothing can be marked; the games are only viewed
        for (gid,) in self.db.execute(
                "SELECT id FROM games WHERE finished IS NULL ORDER BY id").fetchall():
            try:
                if self.resume(int(gid)).is_over:
                    # its last call ended it, and the power went before it was marked
                    self.finish(int(gid))
            except (JournalError, RulesError) as e:
                why = str(e)
                written = self.export_readable(int(gid), export_dir)
                self.mark_broken(int(gid), why)
                notices.append(f"Game {gid} cannot be resumed: {why}. What could be read of "
                               f"it is in {written}.")
        return notices


__all__ = ["GameReplays"]
