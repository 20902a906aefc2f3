"""The director, tables and broker together, against a real Mosquitto on 127.0.0.1."""

from __future__ import annotations

import http.client
import json
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion
from tournament_net import get_json, new_tournament, port_open, wait_until

from companion.tournament.protocol import Report, topic_table
from companion.tournament.service import TournamentService
from companion.tournament.simulate import play_seating
from companion.tournament.store import TableStore, TournamentStore
from companion.tournament.table import TableClient
from rules.tournament import Tournament


def raw_client(port: int, user: str | None, password: str | None) -> tuple[mqtt.Client, Any]:
    """A bare MQTT client; returns it and its CONNACK reason (None: no answer)."""
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"raw-{user}-{time.time()}")
    if user is not None:
        client.username_pw_set(user, password)
    answered = threading.Event()
    reason: list[Any] = []

    def on_connect(c: mqtt.Client, u: Any, f: Any, rc: Any, p: Any) -> None:
        reason.append(rc)
        answered.set()

    client.on_connect = on_connect
    client.connect("127.0.0.1", port, keepalive=10)
    client.loop_start()
    answered.wait(5)
    return client, reason[0] if reason else None


@pytest.fixture
def service(tmp_path: Path) -> Any:
    db, config = new_tournament(tmp_path / "director", 8, {"rounds": 2})
    assert not port_open(config.port) and not port_open(config.web_port)
    service = TournamentService(TournamentStore(db), folder=tmp_path / "director" / "t")
    service.start()
    yield service
    service.stop()
    # No port is open once the tournament is off.
    assert not port_open(config.port) and not port_open(config.web_port)


def test_security_one_credential_per_table_and_no_one_else(service: TournamentService) -> None:
    config = service.config
    port = config.port
    _, reason = raw_client(port, None, None)
    assert reason is not None and reason.is_failure  # anonymous: refused
    _, reason = raw_client(port, "table-1", "WRONGPW1")
    assert reason is not None and reason.is_failure
    _, reason = raw_client(port, "table-1", config.table_secrets[2])  # another table's secret
    assert reason is not None and reason.is_failure
    service.desk.draw_next()
    t1, reason = raw_client(port, "table-1", config.table_secrets[1])
    assert reason is not None and not reason.is_failure
    got: list[str] = []
    acks: list[bytes] = []

    def on_message(c: mqtt.Client, u: Any, m: mqtt.MQTTMessage) -> None:
        got.append(m.topic)
        if m.topic.endswith("/ack"):
            acks.append(bytes(m.payload))

    t1.on_message = on_message
    t1.subscribe([(topic_table("tt01", "table-2", "seating"), 1),
                  (topic_table("tt01", "table-1", "seating"), 1),
                  (topic_table("tt01", "table-1", "ack"), 1)])
    wait_until(lambda: topic_table("tt01", "table-1", "seating") in got, 10, "own seating")
    time.sleep(0.3)
    assert topic_table("tt01", "table-2", "seating") not in got  # cannot read another's
    table2 = service.desk.tournament.rounds[0].tables[1]
    forged = Report("forged", "tt01", 1, 2, tuple((s,) for s in table2.seats))
    t1.publish(topic_table("tt01", "table-2", "report"), forged.to_payload(), qos=1)
    own_topic_other_table = Report("other", "tt01", 1, 2, tuple((s,) for s in table2.seats))
    t1.publish(topic_table("tt01", "table-1", "report"), own_topic_other_table.to_payload(),
               qos=1)
    wait_until(lambda: bool(acks), 10, "an acknowledgement")
    ack = json.loads(acks[0])
    assert ack["report_id"] == "other" and ack["status"] == "rejected"
    assert ack["text"] == "table-1 may report only its own table, not table 2"
    time.sleep(0.3)
    assert len(acks) == 1  # the forged report on table 2's topic never reached the director
    assert 2 not in service.desk.tournament.rounds[0].results  # nothing counted for table 2
    t1.loop_stop()
    # The page only reads.
    url = service.page_url()
    request = urllib.request.Request(url, data=b"x", method="POST")
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=5)
    assert refused.value.code == 405


def test_tables_play_a_whole_tournament_over_the_broker(service: TournamentService,
                                                         tmp_path: Path) -> None:
    desk = service.desk
    clients = [TableClient(TableStore(tmp_path / f"table-{c.table}.sqlite3"), c,
                           resend_seconds=0.5) for c in service.join_codes("127.0.0.1")]
    assert len(clients) == 2
    for c in clients:
        c.start()
    try:
        for c in clients:
            assert c.wait_connected(10)
        wait_until(lambda: all(service.director and service.director.online.get(c.code.user)
                               for c in clients), 10, "tables online")
        rounds = 0
        while not desk.tournament.is_over:
            r = desk.draw_next()
            rounds += 1
            for c in clients:
                if not any(t.number == c.code.table for t in r.tables):
                    assert c.wait_for(lambda c=c, n=r.number: c.seating is not None and
                                      c.seating.round == n, 10)
                    assert c.seating is not None and c.seating.table is None
                    continue
                assert c.wait_for(lambda c=c, n=r.number: c.seating is not None and
                                  c.seating.round == n, 10)
                assert c.seating is not None
                placings, text = play_seating(c.seating)
                c.report(placings, text)
            wait_until(lambda: not desk.tournament.missing(), 10, f"round {r.number} results")
            for c in clients:
                assert c.wait_for(lambda c=c: not c.pending(), 10)
        assert rounds == 4  # 2 qualifying, AD and BC, the final
        reports = [e for e in desk.tournament.events if e.kind == "result-reported"]
        assert len(reports) == 2 + 2 + 2 + 1
        assert len(desk.store.games("tt01")) == 7
        replay = Tournament.from_events(e for _, e in desk.store.events("tt01"))
        page = get_json(service.page_url() + "api/standings")["standings"]
        assert page["standings"] == replay.summary()["standings"]
        assert page["winner"] == replay.winner() and page["over"]
        assert all(r.status == "recorded" for c in clients
                   for r in c.store.reports("tt01"))
    finally:
        for c in clients:
            c.stop()
    assert service.director is not None
    wait_until(lambda: not any(service.director.online.values()), 10, "tables offline")


def read_event(reply: http.client.HTTPResponse) -> dict[str, Any]:
    """The next server-sent event's data (comment lines, the server's keep-alives, skipped)."""
    event: list[str] = []
    while True:
        line = reply.readline().decode()
        if not line:
            raise AssertionError("the page's event stream ended")
        if line.startswith(": "):
            continue
        if line == "\n" and event:
            break
        event.append(line)
    data: dict[str, Any] = json.loads(next(x for x in event if x.startswith("data: "))[6:])
    return data


def test_the_page_hears_of_a_report_without_asking(service: TournamentService) -> None:
    r = service.desk.draw_next()
    assert service.web is not None
    conn = http.client.HTTPConnection("127.0.0.1", service.web.port, timeout=10)
    version = get_json(service.page_url() + "api/standings")["version"]
    conn.request("GET", f"/events?after={version}")
    reply = conn.getresponse()
    assert reply.status == 200 and reply.getheader("Content-Type", "").startswith(
        "text/event-stream")
    assert reply.readline() == b"retry: 1000\n"
    reply.readline()
    seats = r.tables[0].seats
    service.desk.report(1, 1, tuple((s,) for s in seats))
    # The director may still be sending the draw's own update (a version after the one fetched
    # above, with no result yet): the page hears of the report in the first event that holds it.
    deadline = time.monotonic() + 20
    while True:
        data = read_event(reply)
        assert data["version"] > version
        if data["standings"]["round"]["tables"][0]["result"]:
            break
        assert time.monotonic() < deadline, "no event with the report's result within 20 s"
    assert data["standings"]["round"]["tables"][0]["result"] == " > ".join(seats)
    assert f"result: {seats[0]} &gt; {seats[1]}" in data["html"]
    conn.close()


def test_an_existing_broker_named_in_the_config(tmp_path: Path) -> None:
    """The director uses a broker it did not start (its admin added our users and ACL)."""
    from dataclasses import replace

    from companion.tournament.broker import Broker, BrokerPlan
    from companion.tournament.desk import TournamentDesk

    db, config = new_tournament(tmp_path / "director", 4, {"rounds": 1})
    store = TournamentStore(db)
    desk = TournamentDesk(store, "tt01")
    config = desk.ensure_tables(1)
    existing = Broker(tmp_path / "venue-broker", BrokerPlan(
        "tt01", "127.0.0.1", config.port, config.director_password, config.table_secrets))
    with existing:
        desk.set_config(replace(config, external=f"127.0.0.1:{config.port}"))
        service = TournamentService(store, "tt01", folder=tmp_path / "director" / "t")
        with service:
            assert service.broker is None  # nothing of its own started
            code = service.join_codes("10.9.9.9")[0]
            assert (code.host, code.port) == ("127.0.0.1", config.port)  # the broker's address
            table = TableClient(TableStore(tmp_path / "table.sqlite3"), code)
            with table:
                r = service.desk.draw_next()
                assert table.wait_for(lambda: table.seating is not None and
                                      table.seating.round == r.number, 10)
                assert table.seating is not None
                table.report(tuple((s,) for s in table.seating.seats))
                wait_until(lambda: not service.desk.tournament.missing(), 10, "the result")
        assert existing.running  # the director leaves a broker it did not start alone
