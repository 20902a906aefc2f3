"""Hostile messages for a real director over a real Mosquitto (no test in here).

A table's own credentials send what no companion would: deep nesting, too large, not UTF-8,
wrong types, NaN and Infinity, ids with ``/``, replays, a different result after the final.
Used by tests/companion/tournament/test_tournament_hostile_net.py (one of each) and by
benchmarks/hostile_mqtt.py (many, for the figures).
"""

from __future__ import annotations

import json
import random
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from companion.tournament.protocol import MAX_REPORT_BYTES, Ack, Report, no_delay, topic_table
from rules.core import Placings

WAIT = 30.0


def _report(tid: str, round_number: int, table: int, placings: Placings,
            change: dict[str, Any]) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(Report(uuid.uuid4().hex, tid, round_number, table,
                                             placings).to_payload())
    data.update(change)
    return data


def hostile(tid: str, round_number: int, table: int, placings: Placings,
            rng: random.Random) -> Iterator[tuple[str, bytes]]:
    """One of every kind of hostile report, as (kind, payload), in an order ``rng`` picks."""
    names = [n for g in placings for n in g]

    def js(**change: Any) -> bytes:
        return json.dumps(_report(tid, round_number, table, placings, change)).encode()

    deep = rng.randint(1_000, 50_000)
    kinds: list[tuple[str, bytes]] = [
        ("deep list", b"[" * deep + b"]" * deep),
        ("deep in placings", js(placings=None).replace(
            b'"placings": null', b'"placings": ' + b"[" * deep + b"]" * deep)),
        ("deep object", b'{"a":' * deep + b"1" + b"}" * deep),
        ("too large", js(game_file="x" * (MAX_REPORT_BYTES + rng.randint(1, 2048)))),
        ("not UTF-8", bytes(rng.randrange(128, 256) for _ in range(rng.randint(1, 64)))),
        ("not JSON", b'{"report_id": "abc", "placings": [[' + b"1," * rng.randint(1, 99)),
        ("empty", b""),
        ("a list", b"[1, 2, 3]"),
        ("a string", b'"report"'),
        ("sent Infinity", js().replace(b'"sent": 0.0', b'"sent": Infinity')),
        ("sent NaN", js().replace(b'"sent": 0.0', b'"sent": NaN')),
        ("sent 1e999", js().replace(b'"sent": 0.0', b'"sent": 1e999')),
        ("game_file object", js(game_file={"calls": [1, 2]})),
        ("report_id object", js(report_id={"id": "x"})),
        ("report_id number", js(report_id=12345)),
        ("report_id with /", js(report_id=f"../../{rng.randrange(10**6)}/x")),
        ("report_id too long", js(report_id="a" * rng.randint(81, 500))),
        ("report_id empty", js(report_id="")),
        ("round as text", js(round=str(round_number))),
        ("round huge", js(round=10 ** rng.randint(5, 4000))),
        ("round true", js(round=True)),
        ("table 0", js(table=0)),
        ("another table", js(table=table + 1)),
        ("another tournament", js(tournament="zz99")),
        ("names are objects", js(placings=[[{"name": n}] for n in names])),
        ("names missing", js(placings=[[n] for n in names[:-1]])),
        ("names unknown", js(placings=[[f"X{i}"] for i, _ in enumerate(names)])),
        ("name huge", js(placings=[["N" * 5000]] + [[n] for n in names[1:]])),
        ("placings empty", js(placings=[])),
    ]
    rng.shuffle(kinds)
    yield from kinds


@dataclass
class Attacker:
    """An MQTT client logged in with a table's own credentials, waiting for each answer."""

    port: int
    tid: str
    user: str
    secret: str

    def __post_init__(self) -> None:
        self.acks: list[Ack] = []
        self.last_payload = b""
        self._cv = threading.Condition()
        self._up = threading.Event()
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=self.user,
                                  clean_session=True)
        self.client.username_pw_set(self.user, self.secret)
        self.client.reconnect_delay_set(1, 2)
        self.client.on_connect = self._on_connect
        self.client.on_message = self._on_message
        self.client.on_disconnect = lambda *a: self._up.clear()
        self.client.on_socket_open = no_delay
        self.client.connect("127.0.0.1", self.port, keepalive=10)
        self.client.loop_start()
        if not self._up.wait(WAIT):
            raise AssertionError(f"{self.user} could not connect to the broker")

    def _on_connect(self, c: mqtt.Client, u: Any, f: Any, rc: Any, p: Any) -> None:
        if not rc.is_failure:
            c.subscribe(topic_table(self.tid, self.user, "ack"), qos=1)
            # The subscription is in place once the broker answers it.
            c.on_subscribe = lambda *a: self._up.set()

    def _on_message(self, c: mqtt.Client, u: Any, m: mqtt.MQTTMessage) -> None:
        with self._cv:
            self.acks.append(Ack.from_payload(bytes(m.payload)))
            self._cv.notify_all()

    def send(self, payload: bytes, timeout: float = WAIT) -> Ack:
        """Publish a report on this table's topic; the director's answer to it."""
        if not self._up.wait(timeout):
            raise AssertionError(f"{self.user} lost the broker and did not get it back")
        with self._cv:
            before = len(self.acks)
        self.last_payload = payload
        self.client.publish(topic_table(self.tid, self.user, "report"), payload, qos=1)
        deadline = time.monotonic() + timeout
        with self._cv:
            while len(self.acks) == before:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"no answer to a report of {len(payload):,} bytes "
                                         f"({payload[:60]!r}) within {timeout:.0f} s")
                self._cv.wait(min(left, 0.5))
            return self.acks[before]

    def good(self, round_number: int, table: int, placings: Placings) -> Ack:
        return self.send(Report(uuid.uuid4().hex, self.tid, round_number, table,
                                placings, "a game file", time.time()).to_payload())

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


@dataclass
class Flood:
    """What :func:`flood_then_report` saw: the flooding table's client, and each other
    table's answer with the seconds it waited for it (for figures only)."""

    flooder: Attacker
    others: dict[int, tuple[Ack, float]]
    answered_then: int  # the flood's answers once every other table had its own
    clients: list[Attacker]

    def close(self) -> None:
        for client in self.clients:
            client.close()


def flood_then_report(port: int, tid: str, secrets: dict[int, str],
                      seats: dict[int, tuple[str, ...]], flood: int,
                      tables: tuple[int, ...] = (2, 3, 4)) -> Flood:
    """Table 1 queues ``flood`` reports (each one refused: another tournament's) at the
    broker, waiting until the broker has every one; then each of ``tables`` reports its
    seats' result once and waits for its answer. Close the returned :class:`Flood`."""
    flooder = Attacker(port, tid, "table-1", secrets[1])
    done = Flood(flooder, {}, 0, [flooder])
    try:
        bad = json.dumps({"report_id": "flood", "tournament": "zz99", "round": 1, "table": 1,
                          "placings": [["A"], ["B"]]}).encode()
        for info in [flooder.client.publish(topic_table(tid, "table-1", "report"), bad, qos=1)
                     for _ in range(flood)]:
            info.wait_for_publish(timeout=WAIT * 4)
        for n in tables:
            other = Attacker(port, tid, f"table-{n}", secrets[n])
            done.clients.append(other)
            asked = time.monotonic()
            ack = other.send(Report(uuid.uuid4().hex, tid, 1, n, tuple(
                (s,) for s in seats[n]), "a game file").to_payload())
            done.others[n] = (ack, time.monotonic() - asked)
        done.answered_then = len(flooder.acks)
    except BaseException:
        done.close()
        raise
    return done
