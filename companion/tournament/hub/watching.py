"""The whole hub: made as the app starts (the current tournament served again, the joined one
rejoined), stopped as it stops, and watching the app's game: a game that ends is the table's
seated game (reported through the outbox) or one of the director's round played here
(recorded on the desk); a report that failed is tried again."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kivy.clock import Clock
from kivy.logger import Logger

from companion.contract import AppHost
from companion.session import Change, SessionChange
from companion.tournament.hub.core import RETRY_SECONDS, game_key
from companion.tournament.hub.organiser import OrganiserSide
from companion.tournament.hub.table_link import TableLink
from companion.tournament.protocol import JoinCode, ProtocolError
from companion.tournament.store import StoreError
from rules.tournament import TournamentError

if TYPE_CHECKING:
    from companion.session import TableSession


class TournamentHub(OrganiserSide, TableLink):
    """The director's desk and service and the table's link, for the app's screens."""

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


__all__ = ["TournamentHub"]
