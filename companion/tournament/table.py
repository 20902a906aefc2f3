"""A table in a tournament: join with a code, receive seatings, report results through an outbox.

A report is written to the outbox in the table's journal (fsynced) before anything is sent,
then published (QoS 1) and published again every few seconds until the director acknowledges
it; only the acknowledgement deletes it. So a table that is off the network, or whose broker
or director restarts, reports as soon as it is back, and a report is never lost; the director
counts a repeat once. The client connects with its own credentials and a persistent session,
announces itself ``online`` and leaves ``offline`` as its last will.
"""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Callable
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from companion.tournament.protocol import (
    MAX_REPORT_BYTES,
    Ack,
    JoinCode,
    ProtocolError,
    Report,
    Seating,
    no_delay,
    read_json,
    topic_state,
    topic_table,
)
from companion.tournament.store import OutboxItem, ReportRecord, TableStore
from rules.core import Game, Placings
from rules.tournament import placings_for_entrants

QOS = 1


class TableClient:
    """One table's link to the director. A context manager; :meth:`stop` is idempotent.

    ``on_seating(seating)``, ``on_ack(ack)`` and ``on_link()`` (the link came up, went down
    or was refused: read :attr:`connected` and :attr:`refused`) are called from the network
    thread (a Kivy screen hands them on with ``Clock.schedule_once``).
    """

    def __init__(self, store: TableStore, code: JoinCode, *,
                 on_seating: Callable[[Seating], None] | None = None,
                 on_ack: Callable[[Ack], None] | None = None,
                 on_link: Callable[[], None] | None = None,
                 resend_seconds: float = 2.0) -> None:
        self.store = store
        self.code = code
        self.on_seating = on_seating
        self.on_ack = on_ack
        self.on_link = on_link
        self.resend_seconds = resend_seconds
        self.acks: dict[str, Ack] = {}
        self.seating: Seating | None = None
        #: The tournament's state as the director last published it (round, stage, over).
        self.state: dict[str, Any] = {}
        self.changed = threading.Condition()
        #: Why the broker refused this table's login ("" while it has not): a wrong or
        #: replaced code is said at once, not shown as "connecting" forever.
        self.refused = ""
        self.connects = 0  # connections made (a flapping session shows here)
        self._connected = threading.Event()
        self._stop = threading.Event()
        self._sent: dict[str, float] = {}
        self._resender: threading.Thread | None = None
        for m in store.memberships():
            if m.tournament == code.tournament and m.seating:
                try:
                    self.seating = Seating.from_payload(m.seating)
                except ProtocolError:
                    self.seating = None
        self._client = mqtt.Client(CallbackAPIVersion.VERSION2,
                                   client_id=f"{code.tournament}-{code.user}",
                                   clean_session=False)
        self._client.username_pw_set(code.user, code.secret)
        self._client.will_set(self._topic("status"), b"offline", qos=QOS, retain=True)
        self._client.reconnect_delay_set(1, 2)
        self._client.on_connect = self._on_connect
        self._client.on_disconnect = self._on_disconnect
        self._client.on_message = self._on_message
        self._client.on_socket_open = no_delay

    def _topic(self, what: str) -> str:
        return topic_table(self.code.tournament, self.code.user, what)

    # -- lifecycle ------------------------------------------------------------------------

    def start(self) -> None:
        """Remember the tournament in the journal and connect (in the background, retrying
        until the broker answers)."""
        self.store.join(self.code.tournament, self.code.text())
        self._client.connect_async(self.code.host, self.code.port, keepalive=10)
        self._client.loop_start()
        self._resender = threading.Thread(target=self._resend_loop, name="table-outbox",
                                          daemon=True)
        self._resender.start()

    def stop(self) -> None:
        self._stop.set()
        if self._resender is not None:
            self._resender.join(timeout=5)
            self._resender = None
        if self._connected.is_set():
            self._client.publish(self._topic("status"), b"offline", qos=QOS, retain=True)
        self._client.disconnect()
        self._client.loop_stop()

    def __enter__(self) -> TableClient:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def connected(self) -> bool:
        return self._connected.is_set()

    def wait_connected(self, timeout: float) -> bool:
        return self._connected.wait(timeout)

    def wait_for(self, predicate: Callable[[], bool], timeout: float) -> bool:
        """Wait until ``predicate()`` holds (checked on every seating and ack)."""
        deadline = time.monotonic() + timeout
        with self.changed:
            while not predicate():
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self.changed.wait(min(left, 0.25))
        return True

    # -- reporting ------------------------------------------------------------------------

    def report(self, placings: Placings, game_file: str = "", seating: Seating | None = None
               ) -> Report:
        """Report this table's result for ``seating`` (default: the current one): into the
        outbox first, then to the director. Raised when there is no game to report:
        :class:`ValueError` saying so."""
        seating = seating or self.seating
        if seating is None or seating.table is None:
            raise ValueError("no game to report: this table has no seating in this round")
        report = Report(uuid.uuid4().hex, seating.tournament, seating.round, seating.table,
                        placings, game_file, time.time())
        if len(report.to_payload()) > MAX_REPORT_BYTES:  # the director would refuse it all
            report = Report(report.report_id, report.tournament, report.round, report.table,
                            placings, "", report.sent)
        self.store.queue(report.report_id, report.tournament, report.round, report.table,
                         report.to_payload())
        self._send(report.report_id, report.to_payload())
        return report

    def report_game(self, game: Game[Any], game_file: str = "",
                    seating: Seating | None = None) -> Report:
        """Report a finished game of this table's seating: its own placings
        (:meth:`rules.Game.placings`) in entrants' names (Alliances: teams), and its game
        file (``Journal.export``). Raised when the game is not over or is not the seated
        one: :class:`ValueError` saying so."""
        seating = seating or self.seating
        if seating is None or seating.table is None or seating.setup is None:
            raise ValueError("no game to report: this table has no seating in this round")
        if tuple(game.setup.players) != tuple(seating.setup.players):
            raise ValueError(f"this game's players ({', '.join(game.setup.players)}) are not "
                             f"the seated ones ({', '.join(seating.setup.players)})")
        if not game.is_over:
            raise ValueError(f"{game.title} is not over yet: finish it, or type the result in")
        placings = placings_for_entrants(seating.seats, seating.teams, game.placings())
        return self.report(placings, game_file, seating)

    def pending(self) -> list[OutboxItem]:
        """Reports not yet acknowledged by the director."""
        return self.store.pending(self.code.tournament)

    def reported(self, round_number: int, table: int) -> ReportRecord | None:
        """This table's last report for a round's game (acknowledged or not), if any."""
        found = [r for r in self.store.reports(self.code.tournament)
                 if (r.round, r.table) == (round_number, table)]
        return found[-1] if found else None

    def _send(self, report_id: str, payload: bytes) -> None:
        if not self._connected.is_set():
            return
        self._client.publish(self._topic("report"), payload, qos=QOS)
        self._sent[report_id] = time.monotonic()
        self.store.mark_sent(report_id)

    def _resend_loop(self) -> None:
        while not self._stop.wait(min(0.5, self.resend_seconds)):
            if not self._connected.is_set():
                continue
            now = time.monotonic()
            for item in self.pending():
                if now - self._sent.get(item.report_id, -1e9) >= self.resend_seconds:
                    self._send(item.report_id, item.payload)

    # -- callbacks ------------------------------------------------------------------------

    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any,
                    properties: Any) -> None:
        if reason.is_failure:
            self.refused = (f"the director's broker refused table {self.code.table}'s code "
                            f"({reason}): the code is wrong or was replaced by a new one; "
                            "ask the organiser for this table's code")
            with self.changed:
                self.changed.notify_all()
            self._tell_link()
            return
        self.refused = ""
        self.connects += 1
        client.subscribe([(self._topic("seating"), QOS), (self._topic("ack"), QOS),
                          (topic_state(self.code.tournament), QOS)])
        client.publish(self._topic("status"), b"online", qos=QOS, retain=True)
        self._connected.set()
        self._sent.clear()  # send everything waiting now
        for item in self.pending():
            self._send(item.report_id, item.payload)
        with self.changed:
            self.changed.notify_all()
        self._tell_link()

    def _on_disconnect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any,
                       properties: Any) -> None:
        self._connected.clear()
        self._tell_link()

    def _tell_link(self) -> None:
        if self.on_link is not None:
            self.on_link()

    def _on_message(self, client: mqtt.Client, userdata: Any, msg: mqtt.MQTTMessage) -> None:
        try:
            if msg.topic == self._topic("seating"):
                seating = Seating.from_payload(bytes(msg.payload))
                if seating.tournament != self.code.tournament:
                    return
                self.store.save_seating(self.code.tournament, bytes(msg.payload).decode())
                self.seating = seating
                if self.on_seating is not None:
                    self.on_seating(seating)
            elif msg.topic == topic_state(self.code.tournament):
                state = read_json(bytes(msg.payload), "state")
                if isinstance(state, dict):
                    self.state = state
            elif msg.topic == self._topic("ack"):
                ack = Ack.from_payload(bytes(msg.payload))
                self.store.acknowledged(ack.report_id, ack.status, ack.text)
                self.acks.setdefault(ack.report_id, ack)  # the first answer stands
                if self.on_ack is not None:
                    self.on_ack(ack)
        except (ProtocolError, ValueError):
            return
        with self.changed:
            self.changed.notify_all()
