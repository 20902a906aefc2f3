"""The director on the network: seatings out, reports in, acknowledgements back, over MQTT.

A :class:`Director` connects to the tournament's broker as the ``director`` user, publishes
the tournament's state and every table's seating as retained messages, and answers every
report with an acknowledgement once the report is journaled: ``recorded``, ``duplicate`` (the
same result again: counted once), ``conflict`` (a different result for a table that has one:
kept for the organiser, never counted over the first) or ``rejected`` (it cannot count: says
why). A report is counted if and only if its answer says so: the result and its game file are
journaled in one transaction, and when the journal cannot take them (a full card) nothing is
counted and nothing is answered (the table sends it again). It also takes in what
`companion tournament` commands journal meanwhile, a few times a second.

**Fair service.** On the tournament's own broker every table's messages reach the director
through a session of their own (the broker user ``director-table-3``, persistent), so the
broker keeps one queue per table: a table that floods fills only its own queue, and the broker
drops only its messages. The director reads each table's messages into a queue of that table's
(:class:`~companion.tournament.inbox.FairInbox`: per-table token buckets, served in turn) and
acknowledges a message to the broker only once it is journaled and answered, so the broker
holds a table's next messages back while the director works through its last ones (at most
``max_inflight_messages`` of each table are in the director's hands). A table that sends more
than :data:`REPORTS_PER_SECOND` waits on itself; the others are served in turn. With an
existing broker (one session for all tables) the queues and buckets are the director's alone.

A table's message is untrusted: it is measured before it is parsed
(:func:`~companion.tournament.protocol.read_json`, in time linear in its size), and read
within :data:`READ_SECONDS`; one that cannot be counted is answered ``rejected`` (so it is not
delivered again), kept in the journal with the table and the reason, and logged for the
organiser. A report whose reading the director did not live through twice (killed, a power
cut) is refused unread the third time it comes (``reading`` in the tournament's folder says
which one it was reading). Each session's network loop runs in a thread of the director's own
that restarts it if it ever fails; :attr:`Director.receiving` says whether they all run.
Changes reach whoever shows the tournament at most every :data:`TELL_SECONDS`; a table going
on or off line, or a report refused, at most every :data:`STATUS_SECONDS` (a table flipping
thousands of times a second, or flooding, costs the page one update every 2 s).

The sessions themselves (each one's MQTT client, what an arriving message becomes, the
acknowledgement the broker waits for) are :mod:`companion.tournament.director_sessions`.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import threading
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt

from companion.tournament.broker import DIRECTOR_USER, intake_user
from companion.tournament.desk import TournamentDesk
from companion.tournament.director_sessions import QOS, Session
from companion.tournament.inbox import FairInbox
from companion.tournament.protocol import (
    REPORT_ID_FIELD,
    Ack,
    ProtocolError,
    Report,
    table_of_user,
    table_user,
    topic_state,
    topic_table,
)
from companion.tournament.store import StoreError
from rules.tournament import ResultCorrected, RoundDrawn, TournamentError, format_placings

#: A report not read within this many seconds is refused (reading is linear in its size: a
#: report of 1 MiB takes milliseconds).
READ_SECONDS = 5.0
#: What a table may send on average, and at once; more waits its turn (an honest table sends
#: a report when its game ends, and again every 2 s until it is answered).
REPORTS_PER_SECOND = 2.0
REPORT_BURST = 10
#: Messages of one table the director holds at most (the broker keeps the rest, per table).
QUEUE_MOST = 32
#: Changes reach the page and the screen at most this often; changes that alter no result (a
#: table going on or off line, a report refused) at most every STATUS_SECONDS.
TELL_SECONDS = 0.1
STATUS_SECONDS = 2.0
#: A report the director died reading this many times is refused unread.
READING_TRIES = 2


class _Reading:
    """Which report the director is reading, in a small file of its folder (written, not
    synced: what it guards against is the director killed while reading, and the page cache
    outlives a process). A report left there by a director that did not finish reading it
    is read once more, then refused unread."""

    def __init__(self, folder: Path | None) -> None:
        self.path = None if folder is None else folder / "reading"
        self.left: tuple[str, str, int] | None = None
        if self.path is None:
            return
        with contextlib.suppress(OSError, ValueError):
            user, digest, tries = self.path.read_text(encoding="ascii").split()
            self.left = (user, digest, int(tries))

    def tries(self, user: str, digest: str) -> int:
        """How often a director died reading this report before."""
        left = self.left
        return left[2] if left is not None and left[:2] == (user, digest) else 0

    def begin(self, user: str, digest: str) -> None:
        if self.path is None:
            return
        with contextlib.suppress(OSError):
            self.path.write_text(f"{user} {digest} {self.tries(user, digest) + 1}\n",
                                 encoding="ascii")

    def end(self, user: str, digest: str) -> None:
        if self.left is not None and self.left[:2] == (user, digest):
            self.left = None
        if self.path is not None:
            with contextlib.suppress(OSError):
                self.path.unlink(missing_ok=True)


class Director:
    """Serves one tournament over a broker. A context manager; :meth:`stop` is idempotent.

    ``per_table``: the broker has a ``director-table-N`` user for each table (the
    tournament's own broker does); otherwise one session reads every table. ``folder``: where
    the director notes which report it is reading (None: nowhere).
    """

    def __init__(self, desk: TournamentDesk, host: str, port: int, password: str, *,
                 on_change: Callable[[], None] | None = None, poll_seconds: float = 0.2,
                 per_table: bool = False, folder: Path | None = None,
                 read_seconds: float = READ_SECONDS, rate: float = REPORTS_PER_SECOND,
                 burst: int = REPORT_BURST) -> None:
        self.desk = desk
        self.tid = desk.tid
        self.host, self.port = host, port
        self.password = password
        self.on_change = on_change
        self.poll_seconds = poll_seconds
        self.per_table = per_table
        self.read_seconds = read_seconds
        self.online: dict[str, bool] = {}
        self.log: list[str] = []  # the last 200 lines
        self.log_count = 0  # lines ever logged
        self.inbox = FairInbox(rate, burst, QUEUE_MOST)
        #: Reports read (answered) and refused, by table user (for the screen and figures).
        self.read: Counter[str] = Counter()
        self._reading = _Reading(folder)
        self._lock = threading.RLock()
        self._log_lock = threading.Lock()
        self._seen = desk.version
        self._last_state: dict[str, Any] = {}
        self._last_seating: tuple[int, int] = (-1, -1)
        self._connected = threading.Event()
        self._stop = threading.Event()
        self._tell_due = threading.Event()
        self._quiet_due = False  # a status changed, or a report was refused, since told
        self._dropped_said: Counter[str] = Counter()
        self._threads: list[threading.Thread] = []
        #: Times a network loop failed and was started again (0 unless something is wrong).
        self.failures = 0
        self._events_seen = len(desk.tournament_view().events)
        base = f"companion/{self.tid}/tables/+/"
        # The broker binds the client id to the user name (use_username_as_clientid): the id
        # asked for here only matters on an existing broker that does not.
        self._main = Session(self, DIRECTOR_USER, password,
                             [] if per_table else [base + "report", base + "status"],
                             paced=False)
        self._client = self._main.client
        self._tables: dict[int, Session] = {}
        self._tables_lock = threading.Lock()
        self._started = False
        self._status_said: dict[str, tuple[float, int]] = {}  # user -> (when, flips since)

    # -- lifecycle ------------------------------------------------------------------------

    def start(self) -> None:
        self._started = True
        self._main.start()
        if self.per_table:
            self._ensure_tables(len(self.desk.config.table_secrets))
        for target, name in ((self._read_loop, "director-read"), (self._poll, "director-poll")):
            thread = threading.Thread(target=target, name=name, daemon=True)
            thread.start()
            self._threads.append(thread)

    def _ensure_tables(self, stations: int) -> None:
        """A session for each of tables 1..stations (the tournament's own broker only)."""
        if not self.per_table or not self._started or self._stop.is_set():
            return
        with self._tables_lock:  # (the caller's thread and the network's: one session each)
            for n in range(1, stations + 1):
                if n not in self._tables:
                    base = topic_table(self.tid, table_user(n), "")
                    session = Session(self, intake_user(n), self.password,
                                      [base + "report", base + "status"], paced=True,
                                      table=table_user(n))
                    self._tables[n] = session
                    session.start()

    def wait_connected(self, timeout: float) -> bool:
        """Connected, and every table's session listening (a report sent after this is
        read), within ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        for event in [self._connected] + [s.subscribed for s in
                                           [self._main, *self._tables.values()]]:
            if not event.wait(max(0.0, deadline - time.monotonic())):
                return False
        return True

    @property
    def connected(self) -> bool:
        return self._connected.is_set()

    @property
    def receiving(self) -> bool:
        """Every network loop and the reader run (reports are being read); False once
        stopped."""
        return (not self._stop.is_set() and self._main.alive
                and all(s.alive for s in self._tables.values())
                and all(t.is_alive() for t in self._threads))

    def _run_network(self, client: mqtt.Client) -> None:
        """paho's network loop, started again whenever it fails (a callback that raised, a
        bug): a message can cost one restart, never the director's ears."""
        try:
            while not self._stop.is_set():
                try:
                    client.loop_forever(retry_first_connection=True)
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
        self.inbox.close()
        self._tell_due.set()
        for thread in self._threads:
            thread.join(timeout=5)
        self._threads = []
        sessions = [*self._tables.values(), self._main]
        for session in sessions:
            session.client.disconnect()
        for session in sessions:
            if session.thread is not None:
                session.thread.join(timeout=5)

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
        self._ensure_tables(stations)

    def changed(self) -> None:
        """Something changed (a report, or an organiser's action): tell tables and page."""
        if self.connected:
            try:
                self.publish_all(force=False)
            except Exception as e:  # a busy or damaged journal: the next change tries again
                self.note(f"could not send the seatings ({type(e).__name__}: {e})")
        self._tell()

    # -- what the tables send -------------------------------------------------------------

    def status(self, user: str, online: bool) -> None:
        """A table's ``online`` / ``offline`` (any thread)."""
        if self.online.get(user) == online:
            return
        self.online[user] = online
        self._quiet_due = True
        # said at most every STATUS_SECONDS a table (a table flipping thousands of times a
        # second would fill the log, and the screen that shows it)
        now = time.monotonic()
        said, flips = self._status_said.get(user, (-STATUS_SECONDS, 0))
        if now - said < STATUS_SECONDS:
            self._status_said[user] = (said, flips + 1)
            return
        self._status_said[user] = (now, 0)
        self.note(f"{user} joined (online)" if online else f"{user} is offline")

    def _say_statuses(self) -> None:
        """Tables whose status changed while their lines were held back: where each is now."""
        now = time.monotonic()
        for user, (said, flips) in list(self._status_said.items()):
            if flips and now - said >= STATUS_SECONDS:
                self._status_said[user] = (now, 0)
                where = "online" if self.online.get(user) else "offline"
                self.note(f"{user} is {where} (it changed {flips:,} times since the line "
                          "before)")

    def _tell(self) -> None:
        """Tell whoever shows the tournament (a screen, the page) that something changed, at
        most every :data:`TELL_SECONDS` (the poll thread does)."""
        self._tell_due.set()

    def _tell_now(self) -> None:
        """A failing listener is logged, never the director's end."""
        if self.on_change is None:
            return
        try:
            self.on_change()
        except Exception as e:
            self.note(f"could not show a change ({type(e).__name__}: {str(e)[:200]})")

    def _read_loop(self) -> None:
        """Read the tables' reports in turn, answer each, then let the broker forget it."""
        said = time.monotonic()
        while not self._stop.is_set():
            delivery = self.inbox.take(0.5)
            if time.monotonic() - said >= STATUS_SECONDS:
                said = time.monotonic()
                self._say_dropped()
            if delivery is None:
                continue
            try:
                ack = self.handle_report(delivery.user, delivery.payload)
                if ack is not None:
                    self._client.publish(topic_table(self.tid, delivery.user, "ack"),
                                         ack.to_payload(), qos=QOS)
                self.read[delivery.user] += 1
            except Exception as e:  # a bug must cost this message, not the director
                self.failures += 1
                self.note(f"could not answer a report of {delivery.user} "
                          f"({type(e).__name__}: {str(e)[:200]})")
            delivery.done()

    def _say_dropped(self) -> None:
        """Messages a table's full queue dropped: one line and one kept refusal per table
        for all of them since the last (a flood is not journaled message by message)."""
        for user, count in list(self.inbox.dropped.items()):
            new = count - self._dropped_said[user]
            if new <= 0:
                continue
            self._dropped_said[user] = count
            why = (f"{new:,} message(s) dropped unread: the table sent more than its queue of "
                   f"{self.inbox.most} holds")
            self.note(f"{user}: {why}")
            with contextlib.suppress(Exception):
                self.desk.store.refuse(self.tid, user, why, 0, count=new)

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
        found = REPORT_ID_FIELD.search(payload[:4096])
        self._quiet_due = True  # (the screen counts refusals; no result changed)
        return Ack(found.group(1).decode() if found else "?", "rejected", why)

    def handle_report(self, user: str, payload: bytes) -> Ack | None:
        """Journal a table's report and say what became of it; None when the journal cannot
        take it now (nothing counted, nothing answered: the table sends it again). Never
        raises."""
        digest = hashlib.sha256(payload).hexdigest()
        tries = self._reading.tries(user, digest)
        if tries >= READING_TRIES:
            self._reading.end(user, digest)
            return self.refuse(user, payload, f"the director stopped {tries} times while "
                               "reading this report: refused unread")
        self._reading.begin(user, digest)
        try:
            return self._handle(user, payload)
        finally:
            self._reading.end(user, digest)

    def _handle(self, user: str, payload: bytes) -> Ack | None:
        try:
            report = Report.from_payload(payload,
                                         deadline=time.monotonic() + self.read_seconds)
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
                                           user, report.report_id, report.game_file)
            except TournamentError as e:
                return self.refuse(user, payload, str(e))
            except (StoreError, OSError) as e:  # the director's own trouble, not the table's
                self.note(f"{user}: could not journal its report ({e}): not answered, the "
                          "table sends it again")
                return None
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
        """Take in what other writers (the commands) and this process's desk did, and tell
        whoever shows the tournament of changes, at most every :data:`TELL_SECONDS` (and
        once more when stopped: no longer receiving)."""
        refresh = time.monotonic()
        status_told = 0.0
        try:
            while not self._stop.is_set():
                if self._tell_due.wait(max(0.0, refresh - time.monotonic())):
                    self._tell_due.clear()
                    self._quiet_due = False  # (the page reads the statuses too)
                    self._tell_now()
                    self._stop.wait(TELL_SECONDS)
                self._say_statuses()
                if self._quiet_due and time.monotonic() - status_told >= STATUS_SECONDS:
                    self._quiet_due = False
                    status_told = time.monotonic()
                    self._tell_now()
                if self._stop.is_set() or time.monotonic() < refresh:
                    continue
                refresh = time.monotonic() + self.poll_seconds
                try:
                    self.desk.refresh()
                    self._changed_if_new()
                except Exception as e:  # a locked or damaged store: say so, keep serving
                    self.note(f"could not read the tournament store: {e}")
        finally:
            self._tell_now()

    def note(self, text: str) -> None:
        """Add a line to the director's log (shown by `serve` and the Tournament screen)."""
        line = f"{time.strftime('%H:%M:%S')} {text}"
        with self._log_lock:
            self.log_count += 1
            self.log.append(line)
            del self.log[:-200]


__all__ = ["READ_SECONDS", "REPORTS_PER_SECOND", "Director"]

