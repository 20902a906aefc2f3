"""The organiser's side of the hub: the director's desk of the current tournament (made,
entrants added and dropped, rounds drawn, results reported and corrected by hand, a game of
the round played at this very table recorded) and its service (broker, director, standings
page) started and stopped on worker threads, with what the Network page shows of it."""

from __future__ import annotations

import threading
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from companion.tournament.desk import TournamentDesk, director_config
from companion.tournament.hub.core import GameKey, HubCore, game_key
from companion.tournament.protocol import JoinCode
from companion.tournament.store import StoreError
from rules.core import Game, Placings
from rules.tournament import DIRECTOR, Correction, ReportOutcome, TournamentError, format_placings

if TYPE_CHECKING:
    from companion.tournament.service import TournamentService


class OrganiserSide(HubCore):
    """The director's desk and its service, for the Tournament screen's pages."""

    # -- the director -----------------------------------------------------------------------

    def _load_director(self) -> None:
        store = self.director_store
        if any(r.current for r in store.records()):
            self.desk = TournamentDesk(store)
            self._start_watch()

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


def known_names(hub: HubCore, most: int = 40) -> list[str]:
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


__all__ = ["OrganiserSide", "known_names"]
