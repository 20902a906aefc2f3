"""The table's side of the hub: this companion joined a tournament as a table (a join code
typed or read from the camera), its seating, the seated game reported through the outbox
once per result, and what became of each report."""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from companion.tournament.hub.core import HubCore, game_key
from companion.tournament.protocol import JoinCode, Seating
from companion.tournament.store import StoreError
from rules.core import Game
from rules.tournament import format_placings


@dataclass(frozen=True)
class ReportState:
    """What became of this table's report of a round: ``none`` (nothing to report yet),
    ``waiting`` (in the outbox, not sent: no connection), ``sent`` (waiting for the director's
    acknowledgement), ``acknowledged``, ``conflict`` or ``rejected``; and what to say."""

    word: str
    text: str

class TableLink(HubCore):
    """The table's link to a tournament it joined, for the Tournament screen."""

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


__all__ = ["ReportState", "TableLink"]
