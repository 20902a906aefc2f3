"""A journal of game nights for the history tests: games of every game, built once per
process (random play is slow) and copied for each test that changes it."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from companion.history import History
from companion.history.sample import game_night
from companion.journal import Journal

#: Finished games of each of the five games in the shared journal, and unfinished ones.
PER_GAME = 3
UNFINISHED = 2

_built: Path | None = None


def night_journal(into: Path) -> Path:
    """A copy, in ``into``, of a journal holding PER_GAME finished games of every game and
    UNFINISHED unfinished ones (seed 7), as the app writes them, its history index built."""
    global _built
    if _built is None:
        folder = Path(tempfile.mkdtemp(prefix="history-night-"))
        path = folder / "journal.sqlite3"
        with Journal(path) as journal:
            journal.db.execute("PRAGMA synchronous=OFF")  # a fixture: no need to fsync
            game_night(journal, per_game=PER_GAME, seed=7, unfinished=UNFINISHED)
        with History(path) as history:  # copies start with an index that is up to date
            history.refresh()
            history.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        _built = path
    target = into / "journal.sqlite3"
    shutil.copy(_built, target)
    return target
