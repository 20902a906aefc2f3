"""The table session: one game at the table, with its journal and its round clock.

No Kivy here, and no rule of any game. Every change of the game goes one way
(:meth:`TableSession.call`): the engine checks the call, the journal takes it (on disk), the game
applies it, and only then are the listeners (the game's table screens, the sound) told. Undo
and redo go the same way. The round clock is the one of :mod:`hardware.audio.clock`; the game
says, through its prompt, when a phase is timed and how long its clock is.

Time: the round clock reads an injectable monotonic clock (``time.monotonic`` by default), so
tests and the demo can run a round in a blink. Each call carries the seconds since the round
began, which is what the engine and the journal keep.
"""

from __future__ import annotations

import contextlib
import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import Any, Generic, TypeVar

from companion.journal import Journal
from companion.store import StoreError
from hardware.audio.clock import Cue, CueName, RoundClock
from rules import Call, Entry, Event, Game, IllegalCall, RulesError, Setup, from_setup
from rules.core import Prompt

MonotonicClock = Callable[[], float]


class Change(Enum):
    """What changed at the table (the kind of a :class:`SessionChange`)."""

    CALL = "call"  # a call was taken (journaled, then applied)
    UNDO = "undo"
    REDO = "redo"
    REFUSED = "refused"  # something asked for was not done: ``session.message`` says why
    BUILDING = "building"  # a call being built by taps changed (nothing journaled yet)
    CLOCK_START = "clock-start"
    CLOCK_RESUME = "clock-resume"
    CLOCK_PAUSE = "clock-pause"
    CUE = "cue"  # a moment of the round clock: the change's ``cue``
    #: The app's own (never told by a session): a game came to the table (started or
    #: resumed), or left it.
    GAME_ON = "game-on"
    GAME_OFF = "game-off"


#: The changes after which the game is another: a call, an undo, a redo.
GAME_CHANGED = frozenset({Change.CALL, Change.UNDO, Change.REDO})


@dataclass(frozen=True)
class SessionChange:
    """One change told to a session's listeners: its kind, the events of a call (``CALL``
    only), and the round clock's :class:`~hardware.audio.clock.Cue` (``CUE`` only: its
    ``name`` is a :data:`~hardware.audio.clock.CueName`)."""

    kind: Change
    events: tuple[Event, ...] = ()
    cue: Cue | None = None

    @property
    def game_changed(self) -> bool:
        """True after a call, an undo or a redo (the game is another)."""
        return self.kind in GAME_CHANGED

    def is_cue(self, name: CueName) -> bool:
        """True for the round clock's cue of that name."""
        return self.cue is not None and self.cue.name == name


Listener = Callable[[SessionChange], None]

#: How often, in round seconds, a running clock is saved to the journal.
CLOCK_SAVE_EVERY = 2.0
#: The clock's length while no phase of the game is timed (it does not run then).
UNTIMED = 300.0

#: What a journal's write can raise besides a refusal of the engine: its own errors (a full
#: card, a read-only one, a game it does not hold), and SQLite's or the disk's own.
NOT_SAVED = (StoreError, sqlite3.Error, OSError)


def not_saved(e: BaseException, journal: Journal) -> str:
    """Why a call was not taken, for the screen: the store's words, or the error named."""
    if isinstance(e, StoreError):
        return str(e)
    return f"the call was not saved in the journal {journal.path}: {e}; nothing changed"


G = TypeVar("G", bound=Game[Any])
H = TypeVar("H", bound=Game[Any])


@dataclass(frozen=True)
class Refusal:
    """Something the players asked for was not done: ``reason`` in words (the whole message
    shown), ``illegal`` the engine's refusal when it refused a call."""

    reason: str
    illegal: IllegalCall | None = None


@dataclass(frozen=True)
class Note:
    """Something the table is told that is no refusal ("Undid: Ana: Bank")."""

    text: str


#: What a session tells the table beside the game: one type, set in one place.
Notice = Refusal | Note


class TableSession(Generic[G]):
    """One game at the table: call, journal, undo/redo, the round clock, listeners."""

    def __init__(self, game: G, journal: Journal, game_id: int, *,
                 clock: MonotonicClock = time.monotonic, elapsed: float = 0.0) -> None:
        self.game = game
        self.journal = journal
        self.game_id = game_id
        self._now = clock
        self.listeners: list[Listener] = []
        #: What the table is told beside the game (set only by :meth:`refuse`, :meth:`note`
        #: and :meth:`clear_notice`): a refusal, a note, or nothing.
        self.notice: Notice | None = None
        prompt = self.prompt()
        self._round = prompt.round
        self.clock = RoundClock(prompt.clock or UNTIMED, clock=clock, elapsed=elapsed)
        self._saved_at = -CLOCK_SAVE_EVERY
        self._clock_unsaved = False

    # -- making and finding games ----------------------------------------------------------

    @classmethod
    def new(cls, journal: Journal, setup: Setup, title: str = "", *,
            clock: MonotonicClock = time.monotonic) -> TableSession[Game[Any]]:
        """Start a new game, journal its setup, and return its session (clock at 0)."""
        game = from_setup(setup)
        gid = journal.start_game(game.setup, title)
        session: TableSession[Game[Any]] = TableSession(game, journal, gid, clock=clock)
        session.save_clock()
        return session

    @classmethod
    def resume(cls, journal: Journal, game_id: int, *,
               clock: MonotonicClock = time.monotonic) -> TableSession[Game[Any]]:
        """Bring a journaled game back: state, redo stack and round clock (paused where it
        stood). Raises :class:`companion.journal.JournalError` or :class:`rules.RulesError`
        when the journal's game cannot be replayed."""
        record = journal.load(game_id)
        game = journal.resume(game_id)
        round_number = game.prompt().round
        elapsed = 0.0
        if record.clock is not None and record.clock.round == (round_number or 1):
            elapsed = record.clock.elapsed
        if record.entries and record.entries[-1].at is not None:
            # Killed between the call and the clock save: the last call's time is newer,
            # unless that call began this round (its time is the old round's).
            game.undo()
            same_round = game.prompt().round == round_number
            game.redo()
            if same_round:
                elapsed = max(elapsed, record.entries[-1].at)
        return TableSession(game, journal, game_id, clock=clock, elapsed=elapsed)

    def typed(self, kind: type[H]) -> TableSession[H]:
        """This session, known to hold a game of ``kind`` (a game's plugin asks for its own
        engine type). Raises TypeError for another game."""
        if not isinstance(self.game, kind):
            raise TypeError(f"session holds {type(self.game).__name__}, not {kind.__name__}")
        return self  # type: ignore[return-value]

    # -- views -----------------------------------------------------------------------------

    def prompt(self) -> Prompt:
        """The game's answer to "what now?" (who acts, the phase, a clock, a roll)."""
        return self.game.prompt()

    @property
    def log(self) -> list[Entry]:
        return list(self.game.history)

    # -- listeners -------------------------------------------------------------------------

    def subscribe(self, listener: Listener) -> None:
        self.listeners.append(listener)

    def unsubscribe(self, listener: Listener) -> None:
        if listener in self.listeners:
            self.listeners.remove(listener)

    def tell(self, change: Change | SessionChange) -> None:
        """Tell every listener (a bare :class:`Change` carries no events and no cue)."""
        told = change if isinstance(change, SessionChange) else SessionChange(change)
        for listener in list(self.listeners):
            listener(told)

    # -- the one way the game changes --------------------------------------------------------

    def call(self, call: Call | str) -> list[Event]:
        """Apply a call at the round clock's time, journal it, then tell the listeners.

        Raises :class:`rules.RulesError` (and journals nothing) when the engine refuses it.
        """
        at = self.clock.elapsed
        # The engine judges the call first (a refusal changes nothing), the journal takes it
        # (on disk), and only then does the game change: a journal that fails (disk full, a
        # pulled card) leaves game, redo list and journal exactly as they were.
        prepared = self.game.prepare(call, at)
        self.journal.record_call(self.game_id, Entry(prepared.call.text(), prepared.at))
        events = self.game.commit(prepared)
        self.notice = None
        self._after_change()
        self.tell(SessionChange(Change.CALL, tuple(events)))
        return events

    def try_call(self, call: Call | str) -> list[Event] | None:
        """Like :meth:`call`, but a refused call shows its reason instead of raising: the
        engine's refusal, or the journal's (a full or read-only card, another companion
        writing the journal: see :data:`NOT_SAVED`). Either way the game is as it was."""
        try:
            return self.call(call)
        except IllegalCall as e:
            self.refuse(str(e), e)
            return None
        except RulesError as e:
            self.refuse(str(e))
            return None
        except NOT_SAVED as e:
            self.refuse(not_saved(e, self.journal))
            return None

    def refuse(self, why: str, refusal: IllegalCall | None = None) -> None:
        """Say why something the players asked for was not done (``refusal``: the engine's,
        when it refused a call); the listeners are told."""
        self.notice = Refusal(why, refusal)
        self.tell(Change.REFUSED)

    def note(self, text: str) -> None:
        """Tell the table something that is no refusal ("Undid: ...", what the camera read);
        "" clears the notice."""
        self.notice = Note(text) if text else None

    def clear_notice(self) -> None:
        """The last notice has been read: a new call, a tap that starts one."""
        self.notice = None

    @property
    def message(self) -> str:
        """The notice's words ("" with none)."""
        notice = self.notice
        return "" if notice is None else notice.reason if isinstance(notice, Refusal) \
            else notice.text

    @property
    def refused(self) -> IllegalCall | None:
        """The engine's refusal the notice says (its call and reason), if it says one."""
        notice = self.notice
        return notice.illegal if isinstance(notice, Refusal) else None

    def undo(self) -> Entry | None:
        """Take back the last call (journal first, as for a call); None when there is none."""
        if not self.game.can_undo:
            self.refuse("nothing to undo")
            return None
        try:
            self.journal.record_undo(self.game_id)
        except NOT_SAVED as e:
            self.refuse(not_saved(e, self.journal))
            return None
        entry = self.game.undo()
        self.notice = None
        self._after_change()
        self.save_clock()  # the live calls no longer carry the latest time
        self.tell(Change.UNDO)
        return entry

    def redo(self) -> Entry | None:
        if not self.game.can_redo:
            self.refuse("nothing to redo")
            return None
        try:
            self.journal.record_redo(self.game_id)
        except NOT_SAVED as e:
            self.refuse(not_saved(e, self.journal))
            return None
        entry = self.game.redo()
        self.notice = None
        self._after_change()
        self.save_clock()
        self.tell(Change.REDO)
        return entry

    def _after_change(self) -> None:
        prompt = self.prompt()
        if prompt.round != self._round:
            self._round = prompt.round
            self.clock.reset(prompt.clock or UNTIMED)
        if prompt.clock is None:
            self.clock.pause()
        if self.game.is_over:
            # a card that cannot take it: the call that ended it is saved, and the next start
            # marks the game finished (Journal.check_unfinished)
            with contextlib.suppress(*NOT_SAVED):
                self.journal.finish(self.game_id)
        # No clock save here: the call just journaled carries its time, which resume uses
        # (one fsync per call keeps a tap quick); the clock is saved on pause and every
        # CLOCK_SAVE_EVERY seconds of play.

    # -- the round clock -------------------------------------------------------------------

    @property
    def clock_may_run(self) -> bool:
        """True when the game's phase now is timed."""
        return self.prompt().clock is not None

    def start_clock(self, *, fresh: bool = False) -> bool:
        """Start the round clock (or go on after a pause); ``fresh`` starts it from 0 at the
        phase's length (a new roll in a timed phase). False when the phase is not timed."""
        prompt = self.prompt()
        if prompt.clock is None:
            return False
        if fresh or self.clock.state == "over":
            self.clock.reset(prompt.clock)
        if self.clock.running:
            return True
        first = self.clock.state == "ready"
        self.clock.start()
        self.save_clock()
        self.tell(Change.CLOCK_START if first else Change.CLOCK_RESUME)
        self.tick()  # the round's first cue is due at once
        return True

    def pause_clock(self) -> None:
        """Stop the clock (a dispute, a rules question)."""
        if self.clock.running:
            self.clock.pause()
            self.save_clock()
            self.tell(Change.CLOCK_PAUSE)

    def save_clock(self) -> None:
        """Remember the clock in the journal. One that cannot be saved (a full or read-only
        card) is said once and the game goes on: the clock is a convenience, the calls are
        what counts, and each call carries its own time."""
        self._saved_at = self.clock.elapsed
        try:
            self.journal.save_clock(self.game_id, self._round or 1, self._saved_at,
                                    not self.clock.running)
        except NOT_SAVED as e:
            if not self._clock_unsaved:
                self._clock_unsaved = True
                self.refuse(f"The round clock is not saved: {not_saved(e, self.journal)}")

    def tick(self) -> None:
        """Called often: tells the round clock's cues as they come due (start, one_minute,
        ten_seconds, end: :data:`Change.CUE`) and saves the clock now and then."""
        for cue in self.clock.due_cues():
            self.tell(SessionChange(Change.CUE, cue=cue))
        if self.clock.running and self.clock.elapsed - self._saved_at >= CLOCK_SAVE_EVERY:
            self.save_clock()


__all__ = ["CLOCK_SAVE_EVERY", "GAME_CHANGED", "NOT_SAVED", "Change", "Cue", "Listener",
           "MonotonicClock", "Note", "Notice", "Refusal", "SessionChange", "TableSession",
           "not_saved"]
