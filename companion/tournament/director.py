"""The director on the network: seatings out, reports in, acknowledgements back, over MQTT.

A :class:`Director` connects to the tournament's broker as the ``director`` user with a
persistent session (QoS 1 reports sent while it was away are kept for it), publishes the
tournament's state and every table's seating as retained messages, and answers every report
with an acknowledgement once the report is journaled: ``recorded``, ``duplicate`` (the same
result again: counted once), ``conflict`` (a different result for a table that has one: kept
for the organiser, never counted over the first) or ``rejected`` (it cannot count: says why).
It also takes in what `companion tournament` commands journal meanwhile, a few times a second.

A table's message is untrusted: it is measured before it is parsed
(:func:`~companion.tournament.protocol.read_json`), and one that cannot be counted is answered
``rejected`` (so the broker does not deliver it again), kept in the journal with the table and
the reason, and logged for the organiser. The network loop runs in a thread of the director's
own that restarts it if it ever fails; :attr:`Director.receiving` says whether it runs.
"""

from __future__ import annotations

import json
import re
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
    no_delay,
    table_of_user,
    table_user,
    topic_state,
    topic_table,
    user_of_topic,
)
from rules.tournament import ResultCorrected, RoundDrawn, TournamentError, format_placings

QOS = 1
_REPORT_ID = re.compile(rb'"report_id"\s*:\s*"([A-Za-z0-9._-]{1,80})"')


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
        self._network: threading.Thread | None = None
        #: Times the network loop failed and was started again (0 unless something is wrong).
        self.failures = 0
        self._events_seen = len(desk.tournament_view().events)
        # The broker binds the client id to the user name (use_username_as_clientid): the id
        # asked for here only matters on an existing broker that does not.
        self._client = mqtt.Client(CallbackAPIVersion.VERSION2,
                                   client_id=f"{self.tid}-director", clean_session=False)
        self._client.username_pw_set(DIRECTOR_USER, password)
        self._client.reconnect_delay_set(1, 2)
        self._client.on_connect = self._on_connect
        self._client.on_disconnect = self._on_disconnect
        self._client.on_message = self._on_message
        self._client.on_socket_open = no_delay

    # -- lifecycle ------------------------------------------------------------------------

    def start(self) -> None:
        self._client.connect_async(self.host, self.port, keepalive=10)
        self._network = threading.Thread(target=self._run_network, name="director-network",
                                         daemon=True)
        self._network.start()
        self._poller = threading.Thread(target=self._poll, name="director-poll", daemon=True)
        self._poller.start()

    def wait_connected(self, timeout: float) -> bool:
        return self._connected.wait(timeout)

    @property
    def connected(self) -> bool:
        return self._connected.is_set()

    @property
    def receiving(self) -> bool:
        """The network loop runs (reports are being read); False once stopped."""
        return self._network is not None and self._network.is_alive() and (
            not self._stop.is_set())

    def _run_network(self) -> None:
        """paho's network loop, started again whenever it fails (a callback that raised, a
        bug): a message can cost one restart, never the director's ears."""
        try:
            while not self._stop.is_set():
                try:
                    self._client.loop_forever(retry_first_connection=True)
                except Exception as e:
                    self.failures += 1
                    self.note(f"the network loop failed ({type(e).__name__}: "
                              f"{str(e)[:200]}); started it again ({self.failures})")
                    self._tell()
                self._stop.wait(1.0)
        finally:
            self._tell()  # no longer receiving: the page and the screen say so

    def stop(self) -> None:
        self._stop.set()
        if self._poller is not None:
            self._poller.join(timeout=5)
            self._poller = None
        self._client.disconnect()
        if self._network is not None:
            self._network.join(timeout=5)

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
            try:
                self.publish_all(force=False)
            except Exception as e:  # a busy or damaged journal: the next change tries again
                self.note(f"could not send the seatings ({type(e).__name__}: {e})")
        self._tell()

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
        payload = bytes(msg.payload)
        try:
            if what == "status":
                online = payload == b"online"
                if self.online.get(user) != online:
                    self.note(f"{user} joined (online)" if online else f"{user} is offline")
                self.online[user] = online
                self._tell()
                return
            if what != "report":
                return
            ack = self.handle_report(user, payload)
        except Exception as e:  # a bug must cost this message, not the director
            ack = self.refuse(user, payload, f"could not be handled ({type(e).__name__}: "
                                             f"{str(e)[:200]})")
        client.publish(topic_table(self.tid, user, "ack"), ack.to_payload(), qos=QOS)

    def _tell(self) -> None:
        """Tell whoever shows the tournament (a screen, the page) that something changed; a
        failing listener is logged, never the director's end."""
        if self.on_change is None:
            return
        try:
            self.on_change()
        except Exception as e:
            self.note(f"could not show a change ({type(e).__name__}: {str(e)[:200]})")

    def refuse(self, user: str, payload: bytes, why: str) -> Ack:
        """Answer a report that cannot count ``rejected``, keep it in the journal (who, why,
        how large) and log it; never raises."""
        # What a table sent may be quoted in the reason: no control characters reach a
        # terminal or a screen, and no reason is longer than a line or two.
        why = "".join(c if c.isprintable() else repr(c)[1:-1] for c in why[:300])
        why = why if len(why) <= 300 else why[:299] + "…"
        self.note(f"{user}: refused a report: {why}")
        try:
            self.desk.store.refuse(self.tid, user, why, len(payload))
        except Exception as e:
            self.note(f"could not keep the refusal in the journal: {e}")
        found = _REPORT_ID.search(payload[:4096])
        self._tell()
        return Ack(found.group(1).decode() if found else "?", "rejected", why)

    def handle_report(self, user: str, payload: bytes) -> Ack:
        """Journal a table's report and say what became of it (never raises)."""
        try:
            report = Report.from_payload(payload)
        except ProtocolError as e:
            return self.refuse(user, payload, str(e))
        table = table_of_user(user)
        why = ""
        if report.tournament != self.tid:
            why = f"report for tournament {report.tournament}, this is {self.tid}"
        elif table is None or report.table != table:
            why = f"{user} may report only its own table, not table {report.table}"
        if why:
            return self.refuse(user, payload, why)
        with self._lock:
            try:
                outcome = self.desk.report(report.round, report.table, report.placings,
                                           user, report.report_id)
            except TournamentError as e:
                return self.refuse(user, payload, str(e))
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
            self._note_new_events()
        self.changed()

    def _note_new_events(self) -> None:
        """Log the organiser's actions (from the screen or a command): draws, corrections."""
        with self.desk.lock:
            events = self.desk.tournament_view().events
            new = events[self._events_seen:] if len(events) >= self._events_seen else ()
            self._events_seen = len(events)
        for e in new:
            if isinstance(e, RoundDrawn):
                self.note(f"round {e.number} drawn ({e.stage}, {len(e.tables)} tables)")
            elif isinstance(e, ResultCorrected):
                self.note(f"correction: round {e.round}, table {e.table}: "
                          f"{format_placings(e.placings)}"
                          + (f" ({e.reason})" if e.reason else ""))

    def _poll(self) -> None:
        """Take in what other writers (the commands) and this process's desk did."""
        while not self._stop.wait(self.poll_seconds):
            try:
                self.desk.refresh()
                self._changed_if_new()
            except Exception as e:  # a locked or damaged store: say so, keep serving
                self.note(f"could not read the tournament store: {e}")

    def note(self, text: str) -> None:
        """Add a line to the director's log (shown by `serve` and the Tournament screen)."""
        line = f"{time.strftime('%H:%M:%S')} {text}"
        self.log_count += 1
        self.log.append(line)
        del self.log[:-200]
