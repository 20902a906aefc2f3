"""The app's side of a tournament: what the Tournament screen shows and does, without widgets.

One :class:`TournamentHub` per app (``app.tournaments``, made when the app starts by the
composition root, :mod:`companion.compose`; it sees the app as an
:class:`~companion.contract.AppHost`). It holds

- **the director's desk** (:class:`~companion.tournament.desk.TournamentDesk`) of the current
  tournament in the journal's file, and its :class:`~companion.tournament.service.TournamentService`
  (broker, director, standings page) while the organiser has it served;
- **the table's link** (:class:`~companion.tournament.table.TableClient`) when this companion
  joined a tournament as a table: its seating, its outbox and the state of each report.

It listens to the app's session changes (:meth:`~companion.contract.AppHost.listen`; never to
a game's screens): when a game comes to the table already over, or a call ends one, that is the
table's seated game, it is reported through the outbox; when it is a game of the director's own
round played at this very table (one box), it is recorded on the desk. A game that ended while
the link was down (a power cut between the last call and the report) is found in the journal
and reported when the link is back.

Threads: the broker, the director and the table client call back from network threads; the hub
hands every such call to Kivy's main thread with ``Clock.schedule_once``, and starting or
stopping the service (seconds: a broker process, a connection) runs on a worker thread. Only
the main thread calls the hub's methods.

A restart (or a power cut) resumes exactly: the tournament is rebuilt from its journaled
events, a service that was serving serves again, and a table rejoins with the code it kept.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from kivy.clock import Clock
from kivy.logger import Logger

from companion.contract import AppHost
from companion.session import Change, SessionChange
from companion.tournament.desk import TournamentDesk, director_config
from companion.tournament.protocol import JoinCode, ProtocolError, Seating
from companion.tournament.store import StoreError, TableStore, TournamentStore, takes_part
from rules import Setup
from rules.core import Game, Placings
from rules.tournament import DIRECTOR, Correction, ReportOutcome, TournamentError, format_placings

if TYPE_CHECKING:
    from companion.session import TableSession
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


@dataclass(frozen=True)
class ReportState:
    """What became of this table's report of a round: ``none`` (nothing to report yet),
    ``waiting`` (in the outbox, not sent: no connection), ``sent`` (waiting for the director's
    acknowledgement), ``acknowledged``, ``conflict`` or ``rejected``; and what to say."""

    word: str
    text: str


class TournamentHub:
    """The director's desk and service and the table's link, for the app's screens."""

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

    # -- start and stop ---------------------------------------------------------------------

    @classmethod
    def at_start(cls, app: AppHost) -> TournamentHub:
        """The hub as the app starts: the current tournament (served again if it was being
        served) and the tournament this table joined (rejoined). Never raises: a tournament
        table that cannot be read is said on the Tournament screen."""
        hub = cls(app)
        if not hub._has_tournament_tables():
            return hub
        try:
            hub._load_director()
            memberships = hub.table_store.memberships()
            if memberships:
                hub._connect_table(JoinCode.parse(memberships[0].code))
        except (StoreError, ProtocolError, TournamentError, OSError) as e:
            hub.problem = f"The tournament kept in {hub.path} cannot be used: {e}"
            Logger.warning(f"companion: {hub.problem}")
        desk = hub.desk
        if desk is not None:
            hub._retry_soon()  # a game of this round that ended while the app was off
            if desk.config.serving and not desk.tournament_view().is_over:
                hub.serve()
        return hub

    def _has_tournament_tables(self) -> bool:
        """Whether the journal's file holds a tournament, directed or joined (a companion
        that never took part in one opens no tournament store at start)."""
        try:
            return takes_part(self.app.journal.db)
        except Exception:  # a closed or damaged journal: nothing to rejoin
            return False

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

    def _load_director(self) -> None:
        store = self.director_store
        if any(r.current for r in store.records()):
            self.desk = TournamentDesk(store)
            self._start_watch()

    def close(self) -> None:
        """The app stops: stop serving and leave the network (what was served is served
        again at the next start), and let go of the journal's file."""
        self.closed = True
        self.stop_scan()
        if self._retry_timer is not None:
            self._retry_timer.cancel()
            self._retry_timer = None
        if self._listening:
            self.app.unlisten(self._on_change)
            self._listening = False
        service, self.service = self.service, None
        if service is not None:
            service.stop()
        table, self.table = self.table, None
        if table is not None:
            table.stop()
        for store in (self._director_store, self._table_store):
            if store is not None:
                store.close()

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

    # -- watching the app's game ------------------------------------------------------------

    def _start_watch(self) -> None:
        """A tournament is on: listen to the app's game (the table's link tells its own
        changes: ``on_link``)."""
        if self.closed:
            return
        if not self._listening:
            self._listening = True
            self.app.listen(self._on_change)
            self._on_change(SessionChange(Change.GAME_ON))  # the game on before we listened
        self._tick(0.0)

    def _retry_soon(self) -> None:
        """A finished game's report failed (or may be missing): look for it again shortly."""
        self._retry = True
        if self._retry_timer is None and not self.closed:
            self._retry_timer = Clock.schedule_once(self._retry_now, RETRY_SECONDS)

    def _retry_now(self, dt: float) -> None:
        self._retry_timer = None  # done: a new failure schedules another
        self._tick(dt)

    def _link_changed(self) -> None:
        """Network thread: the table's link came up, went down or was refused."""
        Clock.schedule_once(self._tick, 0)

    def _tick(self, dt: float) -> None:
        """Main thread, when the table's link changed or a report is to be tried again: look
        for a game whose report failed, and show the table's connection as it is now. Never
        raises: a tournament's trouble must not stop the app's clock."""
        if self.closed:
            return
        try:
            self._follow()
        except Exception as e:  # a locked or damaged journal file, a closed store...
            self.say(f"Tournament: {e}")
            Logger.warning(f"companion: tournament: {e!r}")

    def _follow(self) -> None:
        if self._retry:  # a finished game whose report failed: look for it again
            self._retry = False
            self._seen_seating = None
            self._check_seating()
            self.catch_up_director()
        table = self.table
        connected: Any = (table.connected, table.refused) if table is not None else False
        if connected != self._connected:
            self._connected = connected
            self.changed()

    def _on_change(self, change: SessionChange) -> None:
        """The app's listener (main thread): a game that comes to the table over, or a call
        that ends the game, reports it."""
        session = self.app.session
        if change.kind in (Change.GAME_ON, Change.CALL, Change.REDO) and session is not None \
                and session.game.is_over:
            self._report_over(session)

    def _report_over(self, session: TableSession[Any]) -> None:
        """Report a game that is over. Never raises: the call is journaled and applied
        already, and reporting it must not undo the table's game (what went wrong is said on
        the Tournament screen)."""
        try:
            self._game_over(session)
        except Exception as e:  # e.g. the journal's file locked by another writer
            self.say(f"The game's result was not reported yet: {e}")
            Logger.warning(f"companion: tournament report: {e!r}")
            self._retry_soon()  # found again in the journal

    def _game_over(self, session: TableSession[Any]) -> None:
        key = game_key(session.game.setup)
        seating = self.seating
        try:
            if seating is not None and seating.setup is not None and \
                    game_key(seating.setup) == key:
                self._report_table_game(session.game, session.game_id, seating)
                return
            found = self._director_table_of(key)
            if found is not None:
                self._record_here(session.game, session.game_id, *found)
        except (ValueError, TournamentError, StoreError, OSError) as e:
            self.say(f"The game's result was not reported: {e}")
            Logger.warning(f"companion: {self.message}")
        self.changed()

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

    # -- the director -----------------------------------------------------------------------

    @property
    def tournament_name(self) -> str:
        return self.desk.tournament_view().name if self.desk is not None else ""

    def create(self, name: str, fmt: Mapping[str, Any]) -> TournamentDesk:
        """A new tournament (the current one from now on). Raised for a bad name or format:
        :class:`TournamentError` naming it. Serving another tournament stops first."""
        name = name.strip()
        config, problem = director_config(self.app.config_file)
        if problem:
            self.say(problem)
        if self.service is not None:
            raise TournamentError(f"{self.tournament_name} is being served: stop serving it "
                                  "(Network) before making another tournament")
        self.desk = TournamentDesk.create(self.director_store, name, fmt, config=config)
        self.problem = ""
        self._start_watch()
        self.changed()
        return self.desk

    def _desk(self) -> TournamentDesk:
        if self.desk is None:
            raise TournamentError("no tournament yet: make one first")
        return self.desk

    def add_entrant(self, name: str, members: tuple[str, ...] = ()) -> str:
        """Add an entrant; returns a warning for a name that looks like another's, in a few
        words, or ""."""
        said = self._desk().add_entrant(name.strip(),
                                        tuple(m.strip() for m in members if m.strip()),
                                        short=True)
        self.changed()
        return said

    def drop(self, name: str) -> None:
        self._desk().drop(name, "dropped on the Tournament screen")
        self.changed()

    def draw_next(self) -> int:
        """Draw the next round; returns its number. Serving: the tables hear of it at once
        (the director publishes every change of the desk)."""
        drawn = self._desk().draw_next()
        service = self.service
        if service is not None and self._desk().tables_needed() > len(
                service.config.table_secrets):
            self.add_table(self._desk().tables_needed())  # late entrants: more tables
        self.changed()
        return drawn.number

    def report_by_hand(self, round_number: int, table: int, placings: Placings
                       ) -> ReportOutcome:
        outcome = self._desk().report(round_number, table, placings)
        self.changed()
        return outcome

    def preview(self, round_number: int, table: int, placings: Placings) -> Correction:
        return self._desk().preview_correction(round_number, table, placings,
                                               "corrected on the Tournament screen")

    def correct(self, round_number: int, table: int, placings: Placings) -> Correction:
        done = self._desk().correct(round_number, table, placings,
                                    "corrected on the Tournament screen")
        self.changed()
        return done

    def _director_table_of(self, key: GameKey) -> tuple[int, int] | None:
        """(round, table) of the director's current round whose game has this key."""
        if self.desk is None:
            return None
        with self.desk.lock:
            t = self.desk.tournament_view()
            r = t.current
            if r is None:
                return None
            for table in r.tables:
                if game_key(t.table_setup(r.number, table.number)) == key:
                    return r.number, table.number
        return None

    def _record_here(self, game: Game[Any], game_id: int, round_number: int, table: int
                     ) -> None:
        """A game of the director's round played at this very table: its result counts as
        the organiser's, and its game file is kept with the tournament."""
        desk = self._desk()
        with desk.lock:
            placings = desk.tournament_view().entrant_placings(round_number, table,
                                                               game.placings())
        rid = f"here-{game_id}-{format_placings(placings)}"[:80]
        outcome = desk.report(round_number, table, placings, DIRECTOR, rid,
                              self.app.journal.export(game_id))
        self.say(f"Played here: {outcome.text}")

    def catch_up_director(self) -> None:
        """Record the current round's games played here that ended while nothing listened
        (a power cut between the last call and the result)."""
        if self.desk is None:
            return
        with self.desk.lock:
            t = self.desk.tournament_view()
            r = t.current
            todo = [] if r is None else [
                (r.number, tb.number, t.table_setup(r.number, tb.number)) for tb in r.tables
                if tb.number not in r.results]
        for rnd, number, setup in todo:
            found = self._finished_game(game_key(setup))
            if found is not None:
                try:
                    self._record_here(found[1], found[0], rnd, number)
                except (TournamentError, StoreError) as e:
                    self.say(f"Round {rnd}, table {number}: {e}")

    # -- serving ----------------------------------------------------------------------------

    def serve(self) -> None:
        """Start the broker, the director and the standings page, on a worker thread; the
        screen hears when it is done (or why not)."""
        desk = self._desk()
        if self.service is not None or self.serve_state in ("starting", "stopping"):
            return
        from companion.tournament.broker import BrokerError
        from companion.tournament.service import ServiceError, TournamentService, lan_address

        self.serve_state = "starting"
        self.serve_error = ""
        service = TournamentService(self.director_store, desk.tid, desk=desk,
                                    on_change=self.changed_from_thread)

        def work() -> None:
            error = ""
            address = ""
            try:
                service.start()
                address = service.config.address or lan_address()
            except (ServiceError, BrokerError, StoreError, OSError) as e:
                error = str(e)
            self._later(lambda: self._served(service, error, address))

        threading.Thread(target=work, name="tournament-serve", daemon=True).start()
        self.changed()

    def _served(self, service: TournamentService, error: str, address: str) -> None:
        desk = self.desk
        if error or desk is None or desk.tid != service.tid:
            self.serve_state = "stopped"
            self.serve_error = error or "the tournament changed meanwhile"
            threading.Thread(target=service.stop, daemon=True).start()
        else:
            self.service = service
            self.address = address
            self.serve_state = "serving"
            if not desk.config.serving:
                from dataclasses import replace

                desk.set_config(replace(desk.config, serving=True))
            self.catch_up_director()
        self.changed()

    def stop_serving(self) -> None:
        """Stop the page, the director and the broker (worker thread): no port stays open."""
        service = self.service
        if service is None:
            return
        self.service = None
        self.serve_state = "stopping"
        if self.desk is not None and self.desk.config.serving:
            from dataclasses import replace

            self.desk.set_config(replace(self.desk.config, serving=False))

        def work() -> None:
            service.stop()
            self._later(self._stopped)

        threading.Thread(target=work, name="tournament-stop", daemon=True).start()
        self.changed()

    def _stopped(self) -> None:
        self.serve_state = "stopped"
        self.changed()

    def join_codes(self) -> list[JoinCode]:
        """Every table's join code while serving (none otherwise: they work only then)."""
        if self.service is None:
            return []
        return self.service.join_codes(self.address)

    def add_table(self, count: int = 0) -> None:
        """Credentials for one more table, or up to ``count`` tables (the running broker takes
        them at once; a worker thread, as the broker rereads its files)."""
        service = self.service
        if service is None:
            return
        count = max(count, len(service.config.table_secrets) + 1)

        def work() -> None:
            try:
                service.add_tables(count)
            except Exception as e:  # a broker that will not reload: say so
                self.serve_error = f"table {count} could not be added: {e}"
            self.changed_from_thread()

        threading.Thread(target=work, name="tournament-add-table", daemon=True).start()

    def page_url(self) -> str:
        return self.service.page_url(self.address) if self.service is not None else ""

    def online(self) -> dict[str, bool]:
        director = self.service.director if self.service is not None else None
        return dict(director.online) if director is not None else {}

    @property
    def receiving(self) -> bool:
        """The director's network loop runs (True when not serving: nothing to say)."""
        director = self.service.director if self.service is not None else None
        return director is None or director.receiving

    def refused(self) -> str:
        """How many table messages the director refused, and the last one ("" if none)."""
        desk = self.desk
        if desk is None:
            return ""
        try:
            count, last = desk.store.refused(desk.tid, 1)
        except Exception:  # a busy or damaged journal: the log says it
            return ""
        if not count:
            return ""
        _, source, reason, _ = last[0]
        return f"{count} message(s) refused; the last, from {source}: {reason}"

    def log(self, lines: int = 4) -> list[str]:
        director = self.service.director if self.service is not None else None
        return list(director.log[-lines:]) if director is not None else []

    # -- the table --------------------------------------------------------------------------

    @property
    def seating(self) -> Seating | None:
        return self.table.seating if self.table is not None else None

    @property
    def connected(self) -> bool:
        return self.table is not None and self.table.connected

    def join(self, text: str) -> JoinCode:
        """Join a tournament as a table with a code typed or scanned. Raised when the code
        cannot be read (:class:`ProtocolError` saying what one looks like) or this table is
        in another tournament (:class:`ValueError`)."""
        code = JoinCode.parse(text)
        if self.service is not None:
            raise ValueError(f"this companion serves {self.tournament_name}: stop serving it "
                             "(Network) before joining a tournament as a table")
        if self.table is not None:
            if self.table.code == code:
                return code
            raise ValueError(f"this table is in tournament {self.table.code.tournament}: "
                             "leave it first")
        self._connect_table(code)
        self.changed()
        return code

    def _connect_table(self, code: JoinCode) -> None:
        from companion.tournament.table import TableClient

        client = TableClient(self.table_store, code,
                             on_seating=lambda s: self.changed_from_thread(),
                             on_ack=lambda a: self.changed_from_thread(),
                             on_link=self._link_changed)
        client.start()
        self.table = client
        self._seen_seating = None
        self._start_watch()
        self._check_seating()

    def leave(self) -> None:
        """Leave the tournament this table joined (its code is forgotten; reports not yet
        acknowledged stay in the outbox, and go out if it joins again)."""
        client, self.table = self.table, None
        if client is None:
            return
        self.table_store.leave(client.code.tournament)
        self._reported.clear()
        threading.Thread(target=client.stop, name="tournament-leave", daemon=True).start()
        self.changed()

    def _check_seating(self) -> None:
        """A new seating (or the link back after a restart): report a seated game that
        ended while nothing listened."""
        seating = self.seating
        if self.table is None or seating is None or seating.table is None or \
                seating.setup is None:
            return
        key = (seating.tournament, seating.round, seating.table)
        if key == self._seen_seating:
            return
        self._seen_seating = key
        if self.table.reported(seating.round, seating.table) is not None:
            return
        found = self._finished_game(game_key(seating.setup))
        if found is not None:
            try:
                self._report_table_game(found[1], found[0], seating)
            except (ValueError, StoreError) as e:
                self.say(f"The game's result was not reported: {e}")

    def _report_table_game(self, game: Game[Any], game_id: int, seating: Seating) -> None:
        """Report the seated game through the outbox (once per result: a redo of the same
        end reports nothing new; a different end after an undo is reported, and the
        organiser sees the two disagree)."""
        client = self.table
        if client is None or seating.table is None:
            return
        from rules.tournament import placings_for_entrants

        placings = placings_for_entrants(seating.seats, seating.teams, game.placings())
        where = (seating.round, seating.table)
        if self._reported.get(where) == placings:
            return
        client.report_game(game, self.app.journal.export(game_id), seating)
        self._reported[where] = placings
        self.say(f"Round {seating.round} reported: {format_placings(placings)}")

    def report_state(self, seating: Seating | None = None) -> ReportState:
        """What became of this table's report for a seating (default: the current one)."""
        seating = seating or self.seating
        client = self.table
        if client is None or seating is None or seating.table is None:
            return ReportState("none", "")
        record = client.reported(seating.round, seating.table)
        if record is None:
            return ReportState("none", "Reported automatically when the game ends.")
        if record.status == "waiting":
            item = next((p for p in client.pending() if p.report_id == record.report_id), None)
            if item is None or item.sends == 0:
                return ReportState("waiting", "Kept in this table's outbox until the director "
                                   "is reachable: nothing is lost.")
            return ReportState("sent", f"Sent ({item.sends}x), waiting for the director's "
                               "acknowledgement.")
        if record.status in ("recorded", "duplicate"):
            return ReportState("acknowledged", f"The director counts {record.text}")
        if record.status == "conflict":
            return ReportState("conflict", record.text)
        return ReportState("rejected", f"Not counted: {record.text}")

    # -- scanning a join code ---------------------------------------------------------------

    def scan(self, found: Callable[[JoinCode], None]) -> str:
        """Read a join code from the table's camera (a worker thread reads the feed's newest
        frame a few times a second); ``found`` is called on the main thread with the code.
        Returns "" when scanning, else why it cannot."""
        camera = self.app.camera
        if camera is None:
            return "No camera: choose one in Settings, or type the code."
        self.stop_scan()
        stop = threading.Event()
        self._scan = stop
        camera.want("tournament-scan", plain=True)  # vision's overlay would spoil the code

        def work() -> None:
            from companion.tournament.join import scan_join_code

            seen = -1
            while not stop.wait(0.2):
                snap = camera.latest()
                if snap is None or snap.index == seen:
                    continue
                seen = snap.index
                code = scan_join_code(snap.plain if snap.plain is not None else snap.rgb)
                if code is not None:
                    self._later(functools.partial(found, code))
                    return

        threading.Thread(target=work, name="tournament-scan", daemon=True).start()
        return ""

    def stop_scan(self) -> None:
        if self._scan is not None:
            self._scan.set()
            self._scan = None
            if self.app.camera is not None:
                self.app.camera.release("tournament-scan")


def known_names(hub: TournamentHub, most: int = 40) -> list[str]:
    """Players' names this companion knows, newest game first: the players of the journal's
    recent games (for adding entrants by touch)."""
    names: dict[str, None] = {}
    for group in hub.app.journal.recent_groups(limit=200):
        for p in group:
            if p.strip():
                names.setdefault(p.strip())
        if len(names) >= most:
            break
    return list(names)[:most]


__all__ = ["ReportState", "TournamentHub", "game_key", "known_names"]
