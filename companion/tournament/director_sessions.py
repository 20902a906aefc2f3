"""The director's sessions on the broker: one MQTT session each (the ``director`` user's, and
on the tournament's own broker one more per table, ``director-table-N``), its network loop in a
supervised thread of the :class:`~companion.tournament.director.Director`, and what a message
that arrives becomes: a table's status taken at once, a report put in the director's fair inbox
with the acknowledgement (:class:`Done`) the broker waits for until it is read and answered.
"""

from __future__ import annotations

import threading
import time
from typing import Any, Protocol

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from companion.tournament.broker import DIRECTOR_USER
from companion.tournament.inbox import Delivery, FairInbox
from companion.tournament.protocol import no_delay, user_of_topic

#: The quality of service of every message the director sends and takes (at least once).
QOS = 1


class SessionOwner(Protocol):
    """What a session asks of the director it belongs to (:class:`Director`)."""

    tid: str
    host: str
    port: int
    inbox: FairInbox
    _connected: threading.Event
    _stop: threading.Event

    def _run_network(self, client: mqtt.Client) -> None: ...

    def publish_all(self, force: bool = True) -> None: ...

    def status(self, user: str, online: bool) -> None: ...

    def note(self, text: str) -> None: ...


class Session:
    """One MQTT session of the director's, its network loop in a supervised thread.
    ``paced``: messages are acknowledged to the broker only once read (the broker holds the
    rest back); otherwise at once."""

    def __init__(self, director: SessionOwner, user: str, password: str, topics: list[str],
                 paced: bool, table: str | None = None) -> None:
        self.director = director
        self.user = user
        self.table = table  # the table user whose messages this session alone reads
        self.topics = topics
        self.paced = paced
        #: Goes up with every connection: an acknowledgement for a message of an earlier
        #: connection is not sent (the broker delivers that message again).
        self.generation = 0
        self.subscribed = threading.Event()
        self.thread: threading.Thread | None = None
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2,
                                  client_id=f"{director.tid}-{user}", clean_session=False,
                                  manual_ack=True)
        self.client.username_pw_set(user, password)
        self.client.reconnect_delay_set(1, 2)
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_subscribe = lambda *a: self.subscribed.set()
        self.client.on_message = self._on_message
        self.client.on_socket_open = no_delay

    def start(self) -> None:
        self.client.connect_async(self.director.host, self.director.port, keepalive=10)
        self.thread = threading.Thread(target=self.director._run_network, args=(self.client,),
                                       name=f"director-{self.user}", daemon=True)
        self.thread.start()

    @property
    def alive(self) -> bool:
        return self.thread is not None and self.thread.is_alive()

    def ack(self, mid: int, generation: int) -> None:
        if generation == self.generation:
            self.client.ack(mid, QOS)

    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any,
                    properties: Any) -> None:
        director = self.director
        if reason.is_failure:
            director.note(f"broker refused the director's {self.user} session: {reason}")
            return
        self.generation += 1
        if self.topics:
            client.subscribe([(t, QOS) for t in self.topics])
        else:
            self.subscribed.set()
        if self.user == DIRECTOR_USER:
            director._connected.set()
            director.publish_all()
            director.note("connected to the broker")

    def _on_disconnect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any,
                       properties: Any) -> None:
        self.subscribed.clear()
        director = self.director
        if self.paced and self.table is not None:  # the broker delivers them again
            gone = self.generation
            director.inbox.forget(self.table, lambda d: not (
                isinstance(d.done, Done) and d.done.session is self
                and d.done.generation == gone))
        if self.user == DIRECTOR_USER:
            director._connected.clear()
        if not director._stop.is_set():
            director.note(f"lost the broker ({reason}); reconnecting"
                          + ("" if self.user == DIRECTOR_USER else f" ({self.user})"))

    def _on_message(self, client: mqtt.Client, userdata: Any, msg: mqtt.MQTTMessage) -> None:
        """The network thread: a status is taken at once; a report is queued (never read
        here: reading is the reader thread's, so no message holds up the network)."""
        director = self.director
        generation = self.generation
        later = self.paced and msg.qos > 0
        if not later and msg.qos > 0:
            client.ack(msg.mid, QOS)
        where = user_of_topic(director.tid, msg.topic)
        if where is None or where[1] not in ("status", "report"):
            if later:
                client.ack(msg.mid, QOS)
            return
        user, what = where
        if self.table is not None and user != self.table:  # (the access list forbids it)
            if later:
                client.ack(msg.mid, QOS)
            return
        if what == "status":
            if later:
                client.ack(msg.mid, QOS)
            director.status(user, bytes(msg.payload) == b"online")
            return
        done = Done(self, msg.mid, generation) if later else Done(None, 0, generation)
        if not director.inbox.put(Delivery(user, bytes(msg.payload), time.monotonic(), done)):
            done()  # dropped unread (its table's queue is full): the broker may forget it


class Done:
    """Acknowledge one message to the broker (callable; nothing for one acknowledged at
    once)."""

    def __init__(self, session: Session | None, mid: int, generation: int) -> None:
        self.session, self.mid, self.generation = session, mid, generation

    def __call__(self) -> None:
        if self.session is not None:
            self.session.ack(self.mid, self.generation)


__all__ = ["QOS", "Done", "Session", "SessionOwner"]
