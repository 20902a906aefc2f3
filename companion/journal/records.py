"""What the journal gives back: a game as it keeps it (:class:`GameRecord`, with its round
clock, :class:`ClockRecord`), and :class:`JournalError` for what it cannot do."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.store import StoreError
from rules import Ending, Entry, Setup


class JournalError(StoreError):
    """Raised when the journal cannot do what was asked; names the game and why. (A disk's
    refusal is one of its siblings: :class:`companion.store.DiskFull`, ``ReadOnly``.)"""


@dataclass(frozen=True)
class ClockRecord:
    """The round clock as last saved: which round, seconds into it, and whether it was paused."""

    round: int
    elapsed: float
    paused: bool


@dataclass(frozen=True)
class GameRecord:
    """One game in the journal: setup, live calls and calls taken back (oldest first)."""

    id: int
    setup: Setup
    title: str
    started: float
    finished: float | None
    entries: tuple[Entry, ...]
    undone: tuple[Entry, ...]
    clock: ClockRecord | None
    problem: str | None = None  # why it cannot be resumed, once found
    ending: Ending | None = None  # ended by the players: agreed, or no result

    @property
    def calls(self) -> int:
        return len(self.entries)


def read_ending(value: Any) -> Ending | None:
    """The ending a games row keeps (None: none, or a word this version does not know, which
    leaves the game as the journal's other columns say)."""
    if value is None:
        return None
    try:
        return Ending(value)
    except ValueError:
        return None


def entry_time(at: Any) -> float | None:
    """A call's time as the journal keeps it, read as the rules read it."""
    from rules.core import normalise_time

    return normalise_time(at)


__all__ = ["ClockRecord", "GameRecord", "JournalError", "entry_time", "read_ending"]
