"""Faults, each against a real Mosquitto and real director and table processes on 127.0.0.1.

The broker killed mid-round, a table offline for a whole round, the director killed with
kill -9, the same report five times, two different results for one table. After each: no
report lost, none counted twice, and the standings equal a replay of the journaled events.
"""

from __future__ import annotations

import json
import os
import signal
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion
from tournament_net import Cable, Proc, get_json, new_tournament, port_open, wait_until

from companion.tournament.desk import DirectorConfig, TournamentDesk
from companion.tournament.protocol import JoinCode, Report, topic_table
from companion.tournament.store import TableStore, TournamentStore
from rules.tournament import ResultReported, Tournament

pytestmark = pytest.mark.slow


class Cup:
    """An 8-player Eye for an Eye tournament (2 tables a round) served by a real
    `companion tournament serve` process; the test plays the organiser through a desk."""

    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.db, self.config = new_tournament(tmp / "director", 8, {"rounds": 3})
        self.store = TournamentStore(self.db)
        self.desk = TournamentDesk(self.store, "tt01")
        self.procs: list[Proc] = []
        self.director: Proc | None = None

    def serve(self) -> Proc:
        self.director = self.spawn(["tournament", "serve"], self.tmp / "director", "director")
        self.director.wait_for("standings page:")
        return self.director

    def spawn(self, args: list[str], data: Path, name: str) -> Proc:
        p = Proc(args, data, name)
        self.procs.append(p)
        return p

    def code(self, table: int, port: int | None = None) -> JoinCode:
        code = self.desk.join_codes("127.0.0.1")[table - 1]
        return replace(code, port=port) if port else code

    def table(self, n: int, *, port: int | None = None, delay: float = 0.0) -> Proc:
        return self.spawn(["tournament", "table", "--join", self.code(n, port).text(),
                           "--simulate", "--resend", "0.5", "--delay", str(delay)],
                          self.tmp / f"table-{n}", f"table {n}")

    def broker_pid(self) -> int:
        path = self.tmp / "director" / "tournaments" / "tt01" / "broker" / "mosquitto.pid"
        return int(path.read_text().strip())

    def draw(self) -> int:
        return self.desk.draw_next().number

    def wait_round(self, number: int) -> None:
        def done() -> bool:
            self.desk.refresh()
            r = self.desk.tournament.rounds[number - 1]
            return r.complete
        wait_until(done, what=f"round {number}'s results")

    def check_ledger(self) -> None:
        """Every table has one result, no report counted twice, page == replay."""
        self.desk.refresh()
        events = [e for _, e in self.store.events("tt01")]
        replay = Tournament.from_events(events)
        # One journaled report per result: a repeat never becomes a second event (a different
        # result for the same table is a conflict, journaled once for the organiser).
        counted = Counter((e.round, e.table, e.placings) for e in events
                          if isinstance(e, ResultReported))
        assert set(counted.values()) <= {1}, counted
        for r in replay.rounds:
            for t in r.tables:
                assert t.number in r.results, f"round {r.number} table {t.number} lost"
        assert replay.summary() == self.desk.tournament.summary()
        want = replay.summary()

        def page_agrees() -> bool:  # the director takes in the journal within a moment
            page = get_json(f"http://127.0.0.1:{self.config.web_port}/api/standings")
            got = page["standings"]
            return bool(got["standings"] == want["standings"] and got["round"] == want["round"])
        wait_until(page_agrees, 10, "the page to show the replayed standings")

    def close(self) -> None:
        for p in reversed(self.procs):
            p.stop()
        self.store.close()


@pytest.fixture
def cup(tmp_path: Path) -> Iterator[Cup]:
    c = Cup(tmp_path)
    yield c
    c.close()
    assert not port_open(c.config.port) and not port_open(c.config.web_port)


def test_broker_killed_and_restarted_mid_round(cup: Cup) -> None:
    director = cup.serve()
    tables = [cup.table(1, delay=1.0), cup.table(2, delay=1.0)]
    cup.wait_round(cup.draw())
    n = cup.draw()
    for t in tables:
        t.wait_for(f"round {n} qualifying, table")
    first = cup.broker_pid()
    os.kill(first, signal.SIGKILL)  # reports are due in a second
    director.wait_for("the broker had stopped; started it again")
    assert cup.broker_pid() != first
    cup.wait_round(n)
    for t in tables:
        t.wait_for("recorded")
    cup.wait_round(cup.draw())
    cup.check_ledger()


def test_table_offline_for_a_whole_round_then_back(cup: Cup) -> None:
    cup.serve()
    cable = Cable(cup.config.port)
    cable.mend()
    table_1 = cup.table(1, delay=0.5)
    table_2 = cup.table(2, port=cable.port, delay=1.5)
    cup.wait_round(cup.draw())
    # Round 2: table 2 gets its seating, then loses the network and plays on its own.
    n = cup.draw()
    table_2.wait_for(f"round {n} qualifying, table 2")
    cable.cut()
    table_2.wait_for("reported")
    outbox = TableStore(cup.tmp / "table-2" / "journal.sqlite3")
    wait_until(lambda: len(outbox.pending("tt01")) == 1, what="the report in table 2's outbox")
    # ... and loses power too: the outbox is on disk, the game is not played again.
    table_2.kill()
    table_2 = cup.table(2, port=cable.port, delay=1.5)
    table_2.wait_for(f"already reported round {n}")
    table_1.wait_for("recorded")
    time.sleep(1.5)
    cup.desk.refresh()
    assert cup.desk.tournament.missing() == (2,)
    cable.mend()
    cup.wait_round(n)
    wait_until(lambda: not outbox.pending("tt01"), what="table 2's outbox to empty")
    # Round 3: table 2 is offline the whole round; the organiser types its result in.
    cable.cut()
    n = cup.draw()
    seats = cup.desk.tournament.rounds[n - 1].tables[1].seats
    assert cup.desk.report(n, 2, tuple((s,) for s in seats)).status == "recorded"
    cup.wait_round(n)
    cable.mend()
    n = cup.draw()  # elimination: table 2 hears of it when it is back
    table_2.wait_for(f"round {n}")
    cup.wait_round(n)
    cup.check_ledger()
    outbox.close()
    cable.cut()


def test_director_killed_with_kill_9_and_restarted(cup: Cup) -> None:
    director = cup.serve()
    tables = [cup.table(1, delay=1.0), cup.table(2, delay=1.0)]
    cup.wait_round(cup.draw())
    broker = cup.broker_pid()
    n = cup.draw()
    for t in tables:
        t.wait_for(f"round {n} qualifying, table")
    director.kill()  # SIGKILL: no goodbye, the broker is left running
    for t in tables:
        t.wait_for("reported")
    time.sleep(1.0)
    cup.desk.refresh()
    assert len(cup.desk.tournament.missing()) == 2  # nobody journaled them yet
    cup.serve()
    assert cup.broker_pid() == broker  # taken over, not restarted: tables stayed connected
    cup.wait_round(n)
    for t in tables:
        t.wait_for("recorded")
    cup.check_ledger()


def test_same_report_five_times_and_two_different_results(cup: Cup) -> None:
    cup.serve()
    n = cup.draw()
    config: DirectorConfig = cup.desk.config
    acks: list[dict[str, str]] = []
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="tt01-table-1")
    client.username_pw_set("table-1", config.table_secrets[1])
    client.on_message = lambda c, u, m: acks.append(json.loads(m.payload))
    client.connect("127.0.0.1", config.port, keepalive=10)
    client.loop_start()
    try:
        client.subscribe(topic_table("tt01", "table-1", "ack"), 1)
        time.sleep(0.3)
        seats = cup.desk.tournament.rounds[0].tables[0].seats
        report = Report("same-one", "tt01", n, 1, tuple((s,) for s in seats), "", time.time())
        for _ in range(5):
            client.publish(topic_table("tt01", "table-1", "report"), report.to_payload(), qos=1)
        wait_until(lambda: len(acks) == 5, what="five acknowledgements")
        assert [a["status"] for a in acks] == ["recorded"] + ["duplicate"] * 4
        other = Report("other-one", "tt01", n, 1, tuple((s,) for s in reversed(seats)))
        client.publish(topic_table("tt01", "table-1", "report"), other.to_payload(), qos=1)
        wait_until(lambda: len(acks) == 6, what="the conflict's acknowledgement")
        assert acks[-1]["status"] == "conflict"
    finally:
        client.loop_stop()
        client.disconnect()
    cup.desk.refresh()
    t = cup.desk.tournament
    assert t.rounds[0].results[1].placings == report.placings  # the first stands
    assert [c[:2] for c in t.conflicts()] == [(n, 1)]
    page = get_json(f"http://127.0.0.1:{cup.config.web_port}/api/standings")["standings"]
    assert page["round"]["tables"][0]["conflict"] is True and page["conflicts"] == 1
    assert page["round"]["tables"][0]["result"] == " > ".join(seats)
    table_2 = cup.desk.tournament.rounds[0].tables[1].seats
    cup.desk.report(n, 2, tuple((s,) for s in table_2))
    wait_until(lambda: get_json(f"http://127.0.0.1:{cup.config.web_port}/api/standings")[
        "standings"]["round"]["tables"][1]["result"] is not None, what="the page to update")
    cup.check_ledger()
    settled = cup.desk.correct(n, 1, other.placings, "table 1's scoresheet")
    assert settled.event.placings == other.placings and not cup.desk.tournament.conflicts()
    cup.check_ledger()
