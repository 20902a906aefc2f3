"""The director on the network: seatings out, reports in, acknowledgements back, over MQTT.

A :class:`Director` connects to the tournament's broker as the ``director`` user with a
persistent session (QoS 1 reports sent while it was away are kept for it), publishes the
tournament's state and every table's seating as retained messages, and answers every report
with an acknowledgement once the report is journaled: ``recorded``, ``duplicate`` (the same
result again: counted once), ``conflict`` (a different result for a table that has one: kept
for the organiser, never counted over the first) or ``rejected`` (it cannot count: says why).
It also takes in what `companion tournament` commands journal meanwhile, a few times a second.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from companion.tournament.broker import DIRECTOR_USER
from companion.tournament.desk import TournamentDesk
from companion.tournament.protocol import (
    Ack,
    ProtocolError,
    Report,
    table_of_user,
    table_user,
    topic_state,
    topic_table,
    user_of_topic,
)
from rules.tournament import TournamentError

QOS = 1


class Director:
    """Serves one tournament over a broker. A context manager; :meth:`stop` is idempotent."""

    def __init__(self, desk: TournamentDesk, host: str, port: int, password: str, *,
                 on_change: Callable[[], None] | None = None, poll_seconds: float = 0.2) -> None:
        self.desk = desk
        self.tid = desk.tid
        self.host, self.port = host, port
        self.on_change = on_change
        self.poll_seconds = poll_seconds
        self.online: dict[str, bool] = {}
        self.log: list[str] = []  # the last 200 lines
        self.log_count = 0  # lines ever logged
        self._lock = threading.RLock()
        self._seen = desk.version
        self._last_state: dict[str, Any] = {}
        self._last_seating: tuple[int, int] = (-1, -1)
        self._connected = threading.Event()
        self._stop = threading.Event()
        self._poller: threading.Thread | None = None
        self._client = mqtt.Client(CallbackAPIVersion.VERSION2,
                                   client_id=f"{self.tid}-director", clean_session=False)
        self._client.username_pw_set(DIRECTOR_USER, password)
        self._client.reconnect_delay_set(1, 2)
        self._client.on_connect = self._on_connect
        self._client.on_disconnect = self._on_disconnect
        self._client.on_message = self._on_message

    # -- lifecycle ------------------------------------------------------------------------

    def start(self) -> None:
        self._client.connect_async(self.host, self.port, keepalive=10)
        self._client.loop_start()
        self._poller = threading.Thread(target=self._poll, name="director-poll", daemon=True)
        self._poller.start()

    def wait_connected(self, timeout: float) -> bool:
        return self._connected.wait(timeout)

    @property
    def connected(self) -> bool:
        return self._connected.is_set()

    def stop(self) -> None:
        self._stop.set()
        if self._poller is not None:
            self._poller.join(timeout=5)
            self._poller = None
        self._client.disconnect()
        self._client.loop_stop()

    def __enter__(self) -> Director:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- publishing -----------------------------------------------------------------------

    def publish_all(self, force: bool = True) -> None:
        """The state and every table's seating, retained (tables read them on joining).
        Without ``force``, only what changed since the last time (a result changes neither
        the seatings nor, until a round ends, the state)."""
        with self._lock, self.desk.lock:
            stations = len(self.desk.config.table_secrets)
            t = self.desk.tournament_view()
            r = t.current
            state = {"tournament": self.tid, "name": t.name,
                     "round": r.number if r else 0, "stage": r.stage if r else "waiting",
                     "over": t.is_over, "winner": t.winner()}
            if force or state != self._last_state:
                self._client.publish(topic_state(self.tid), json.dumps(state), qos=QOS,
                                     retain=True)
                self._last_state = state
            key = (r.number if r else 0, stations)
            if force or key != self._last_seating:
                for n, seating in self.desk.seatings(stations).items():
                    self._client.publish(topic_table(self.tid, table_user(n), "seating"),
                                         seating.to_payload(), qos=QOS, retain=True)
                self._last_seating = key

    def changed(self) -> None:
        """Something changed (a report, or an organiser's action): tell tables and page."""
        if self.connected:
            self.publish_all(force=False)
        if self.on_change is not None:
            self.on_change()

    # -- callbacks (paho's network thread) ---------------------------------------------------

    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any,
                    properties: Any) -> None:
        if reason.is_failure:
            self.note(f"broker refused the director: {reason}")
            return
        base = f"companion/{self.tid}/tables/+/"
        client.subscribe([(base + "report", QOS), (base + "status", QOS)])
        self._connected.set()
        self.publish_all()
        self.note("connected to the broker")

    def _on_disconnect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any,
                       properties: Any) -> None:
        self._connected.clear()
        if not self._stop.is_set():
            self.note(f"lost the broker ({reason}); reconnecting")

    def _on_message(self, client: mqtt.Client, userdata: Any, msg: mqtt.MQTTMessage) -> None:
        where = user_of_topic(self.tid, msg.topic)
        if where is None:
            return
        user, what = where
        if what == "status":
            self.online[user] = msg.payload == b"online"
            if self.on_change is not None:
                self.on_change()
            return
        if what == "report":
            ack = self.handle_report(user, bytes(msg.payload))
            client.publish(topic_table(self.tid, user, "ack"), ack.to_payload(), qos=QOS)

    def handle_report(self, user: str, payload: bytes) -> Ack:
        """Journal a table's report and say what became of it (never raises)."""
        try:
            report = Report.from_payload(payload)
        except ProtocolError as e:
            self.note(f"{user}: unreadable report: {e}")
            return Ack("?", "rejected", str(e))
        table = table_of_user(user)
        why = ""
        if report.tournament != self.tid:
            why = f"report for tournament {report.tournament}, this is {self.tid}"
        elif table is None or report.table != table:
            why = f"{user} may report only its own table, not table {report.table}"
        if why:
            self.note(f"{user}: report refused: {why}")
            return Ack(report.report_id, "rejected", why)
        with self._lock:
            try:
                outcome = self.desk.report(report.round, report.table, report.placings,
                                           user, report.report_id)
            except TournamentError as e:
                self.note(f"{user}: report refused: {e}")
                return Ack(report.report_id, "rejected", str(e))
            if report.game_file and outcome.status != "duplicate":
                self.desk.store.save_game(self.tid, report.round, report.table,
                                          report.report_id, user, report.game_file)
            self.note(f"{user}: {outcome.status}: {outcome.text}")
        self._changed_if_new()
        return Ack(report.report_id, outcome.status, outcome.text)

    def _changed_if_new(self) -> None:
        with self._lock:
            if self.desk.version == self._seen:
                return
            self._seen = self.desk.version
        self.changed()

    def _poll(self) -> None:
        """Take in what other writers (the commands) and this process's desk did."""
        while not self._stop.wait(self.poll_seconds):
            try:
                self.desk.refresh()
            except Exception as e:  # a locked or damaged store: say so, keep serving
                self.note(f"could not read the tournament store: {e}")
                continue
            self._changed_if_new()

    def note(self, text: str) -> None:
        """Add a line to the director's log (shown by `serve` and the Tournament screen)."""
        line = f"{time.strftime('%H:%M:%S')} {text}"
        self.log_count += 1
        self.log.append(line)
        del self.log[:-200]
