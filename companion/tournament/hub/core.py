"""What the tournament hub holds and how it tells the screens: its state, the two stores in the
journal's file (the director's tournaments, the table's membership and outbox), the screens'
listeners and the hand-over from network threads to Kivy's main thread; and the journal's
games a tournament looks for (the seated game, one of the director's round played here)."""

from __future__ import annotations

import threading
from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from kivy.clock import Clock

from companion.contract import AppHost
from companion.tournament.desk import TournamentDesk
from companion.tournament.store import StoreError, TableStore, TournamentStore, takes_part
from rules import Setup
from rules.core import Game, Placings

if TYPE_CHECKING:
    from companion.tournament.service import TournamentService
    from companion.tournament.table import TableClient


#: How many of the journal's newest games are searched for a seated game (resume, catch-up).
RECENT_GAMES = 40
#: How soon a report that failed is tried again.
RETRY_SECONDS = 0.5

GameKey = tuple[str, tuple[str, ...], int | None]


def game_key(setup: Setup) -> GameKey:
    """What identifies a tournament table's game: the game, its players in seat order and the
    seed the tournament gave it (from its own seed, the round and the table)."""
    return (setup.game, tuple(setup.players), setup.seed)

class HubCore(ABC):
    """The hub's state, its stores, its screens' listeners and the journal's games; what
    the director's side and the table's side share."""

    def __init__(self, app: AppHost) -> None:
        self.app = app
        self.path = app.journal.path
        self.problem = ""  # what went wrong reading the tournament tables (shown on screen)
        self.message = ""  # the last thing the hub did by itself (a report...), shown a while
        self.message_until = 0.0
        self._director_store: TournamentStore | None = None
        self.desk: TournamentDesk | None = None
        self.service: TournamentService | None = None
        self.serve_state = "stopped"  # stopped, starting, serving, stopping
        self.serve_error = ""
        self.address = ""  # the address tables are given while serving
        self._table_store: TableStore | None = None
        self.table: TableClient | None = None
        self._listeners: list[Callable[[], None]] = []
        self._listening = False  # to the app's session changes
        self._retry_timer: Any = None
        self._connected: Any = False  # the table's link as last shown: (connected, refused)
        self._seen_seating: tuple[str, int, int | None] | None = None
        self._reported: dict[tuple[int, int], Placings] = {}
        self._change_lock = threading.Lock()
        self._change_due = False
        self._scan: threading.Event | None = None
        self._retry = False
        self.closed = False

    def _has_tournament_tables(self) -> bool:
        """Whether the journal's file holds a tournament, directed or joined (a companion
        that never took part in one opens no tournament store at start)."""
        try:
            return takes_part(self.app.journal.db)
        except Exception:  # a closed or damaged journal: nothing to rejoin
            return False

    @property
    def tournament_name(self) -> str:
        """The current tournament's name ("" when there is none)."""
        return self.desk.tournament_view().name if self.desk is not None else ""

    @property
    def director_store(self) -> TournamentStore:
        if self._director_store is None:
            self._director_store = TournamentStore(self.path)
        return self._director_store

    @property
    def table_store(self) -> TableStore:
        if self._table_store is None:
            self._table_store = TableStore(self.path)
        return self._table_store

    # -- telling the screen -----------------------------------------------------------------

    def say(self, text: str, seconds: float = 12.0) -> None:
        """Something the hub did by itself, for the screen's status line for a while."""
        import time

        self.message = text
        self.message_until = time.monotonic() + seconds

    def listen(self, listener: Callable[[], None]) -> None:
        self._listeners.append(listener)

    def changed(self) -> None:
        """Main thread: tell the screens something changed."""
        for listener in list(self._listeners):
            listener()

    def changed_from_thread(self) -> None:
        """Any thread: hand a change to the main thread (many changes in a row: one redraw)."""
        with self._change_lock:
            if self._change_due:
                return
            self._change_due = True
        Clock.schedule_once(self._changed_now, 0)

    def _changed_now(self, dt: float = 0.0) -> None:
        with self._change_lock:
            self._change_due = False
        if self.closed:
            return
        if self.desk is not None:
            try:
                self.desk.refresh()
            except StoreError as e:
                self.problem = str(e)
        self._check_seating()
        self.changed()

    def _later(self, work: Callable[[], None]) -> None:
        """Any thread: run ``work`` on the main thread."""
        Clock.schedule_once(lambda dt: None if self.closed else work(), 0)

    # -- the journal's games ----------------------------------------------------------------

    def recent_games(self) -> list[tuple[int, GameKey, bool]]:
        """(game id, key, finished) of the journal's newest games, newest first."""
        return [(gid, game_key(setup), finished)
                for gid, setup, finished in self.app.journal.recent_setups(RECENT_GAMES)]

    def journal_games(self, key: GameKey,
                      recent: list[tuple[int, GameKey, bool]] | None = None
                      ) -> list[tuple[int, bool]]:
        """(game id, finished) of the journal's recent games with this key, newest first
        (``recent``: :meth:`recent_games` already read, for many keys at once)."""
        return [(gid, finished) for gid, k, finished in
                (recent if recent is not None else self.recent_games()) if k == key]

    def _finished_game(self, key: GameKey) -> tuple[int, Game[Any]] | None:
        """The newest journaled game with this key that was played to its end."""
        from companion.journal import JournalError
        from rules import RulesError

        for gid, finished in self.journal_games(key):
            if not finished:
                continue
            try:
                game = self.app.journal.resume(gid)
            except (JournalError, RulesError):
                continue
            if game.is_over:
                return gid, game
        return None

    def play(self, setup: Setup) -> None:
        """Start a tournament table's game here, or go back to it: the one on now, or the
        one the journal keeps unfinished (a restart mid-game). Raised when the engine refuses
        the setup: :class:`rules.RulesError`."""
        key = game_key(setup)
        session = self.app.session
        if session is not None and game_key(session.game.setup) == key:
            self.app.back()
            return
        for gid, finished in self.journal_games(key):
            if not finished and self.app.resume_game(gid) is not None:
                return  # the app tells its listeners (GAME_ON), the hub among them
        self.app.start_game(setup)

    def game_on(self, setup: Setup | None,
                recent: list[tuple[int, GameKey, bool]] | None = None) -> str:
        """"on" when that game is the one the app runs now, "unfinished" when the journal
        keeps it unfinished, "" otherwise."""
        if setup is None:
            return ""
        key = game_key(setup)
        session = self.app.session
        if session is not None and game_key(session.game.setup) == key:
            return "on"
        return "unfinished" if any(not f for _, f in self.journal_games(key, recent)) else ""

    # -- what the whole hub does (TournamentHub, companion.tournament.hub.watching) ----------

    @abstractmethod
    def _start_watch(self) -> None:
        """A tournament is on: listen to the app's game."""

    @abstractmethod
    def _link_changed(self) -> None:
        """Network thread: the table's link came up, went down or was refused."""

    @abstractmethod
    def _check_seating(self) -> None:
        """A new seating: report a seated game that ended while nothing listened."""


__all__ = ["RECENT_GAMES", "RETRY_SECONDS", "GameKey", "HubCore", "game_key"]
