"""Step through a past game call by call, forwards and back: :class:`Replayer`.

The game is played again by the rules engine, one call at a time; stepping back is the engine's
own undo, stepping forward its redo (or, the first time, the call itself, whose events are kept
to show what it did). Nothing here knows a rule.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rules import Entry, Event, Game, RulesError, Setup, Standings, from_setup


@dataclass(frozen=True)
class Step:
    """Where a replay stands: after ``index`` of ``total`` calls, the call just made (None at
    the start), what it did, and the standings then."""

    index: int
    total: int
    entry: Entry | None
    events: tuple[Event, ...]
    standings: Standings

    @property
    def at_start(self) -> bool:
        return self.index == 0

    @property
    def at_end(self) -> bool:
        return self.index == self.total


class Replayer:
    """A past game at any point between its start (0) and its last call (``total``).

    Raises :class:`rules.RulesError` (from :meth:`__init__`) when the setup does not start a
    game; a call that does not replay ends the replay before it (``problem`` says why).
    """

    def __init__(self, setup: Setup, entries: Sequence[Entry]) -> None:
        self.setup = setup
        self.game: Game[Any] = from_setup(setup)
        self.entries = tuple(entries)
        self.problem = ""
        self._events: list[tuple[Event, ...]] = []
        self._position = 0
        # Check the whole game replays, so `total` is known; then go back to the start.
        for i, entry in enumerate(self.entries):
            try:
                self._events.append(tuple(self.game.apply(entry.call, entry.at)))
            except RulesError as e:
                self.problem = f"call {i + 1} ({entry.call!r}) does not replay: {e}"
                self.entries = self.entries[:i]
                break
        self._position = len(self._events)
        self.goto(0)

    @property
    def total(self) -> int:
        return len(self.entries)

    @property
    def position(self) -> int:
        return self._position

    def step(self) -> Step:
        """Where the replay stands now."""
        i = self._position
        return Step(i, self.total, self.entries[i - 1] if i else None,
                    self._events[i - 1] if i else (), self.game.standings())

    def forward(self) -> Step:
        """One call on (stays at the end)."""
        if self._position < self.total:
            self.game.redo()
            self._position += 1
        return self.step()

    def back(self) -> Step:
        """One call back (stays at the start)."""
        if self._position > 0:
            self.game.undo()
            self._position -= 1
        return self.step()

    def goto(self, index: int) -> Step:
        """Jump to after ``index`` calls (clamped to 0..total)."""
        index = max(0, min(self.total, int(index)))
        while self._position > index:
            self.game.undo()
            self._position -= 1
        while self._position < index:
            self.game.redo()
            self._position += 1
        return self.step()
