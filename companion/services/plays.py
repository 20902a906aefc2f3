"""What the app asks of the journal about one game, outside play: its BG Stats link once it is
a play, and what is kept of a game that cannot be resumed.

Plain Python over the journal (no Kivy): the app calls these on its main thread.
"""

from __future__ import annotations

from companion.journal import Journal
from companion.session import NOT_SAVED, not_saved


def play_link(journal: Journal, game_id: int) -> str | None:
    """The BG Stats link of a game the journal holds as a play (over, or ended by the
    players), None when it is none."""
    from companion.history import History
    from companion.history.bgstats import bgstats_link, bgstats_play

    with History(journal) as history:
        history.summarise(game_id)
        summary = history.game(game_id)
        return bgstats_link(bgstats_play(summary)) if summary.is_over else None


def set_aside(journal: Journal, game_id: int, why: Exception) -> str:
    """A journaled game that cannot be replayed: what could be read of it is written beside
    the journal (``cannot-resume/``) and it is marked so, never offered again. Returns what
    the players are told of it (also when the card could not take it: nothing changed)."""
    try:
        folder = journal.path.parent / "cannot-resume"
        kept = journal.export_readable(game_id, folder)
        written = f"What could be read of it is in {kept}."
        journal.mark_broken(game_id, str(why))
    except NOT_SAVED as not_kept:  # a read-only or full card: say it, change nothing
        written = f"It could not be marked so: {not_saved(not_kept, journal)}"
    return f"Game {game_id} cannot be resumed: {why}. {written}"
