"""Hostile tables against a real Mosquitto and a real director on 127.0.0.1.

A table's own credentials send one of every kind of hostile report (deep nesting, too large,
not UTF-8, wrong types, NaN and Infinity, bad ids, replays, a different result after the
final): every one is answered and refused, the director never stops, and later good reports
count. No login takes over another's session; a wrong or replaced code is said at the table;
the page says when the director is not receiving. `benchmarks/hostile_mqtt.py` sends many more.
"""

from __future__ import annotations

import random
import subprocess
import sys
import threading
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from hostile_mqtt import Attacker, hostile
from paho.mqtt.enums import CallbackAPIVersion
from tournament_net import WAIT, Proc, new_tournament, port_open, wait_until

from companion.tournament.broker import Broker, BrokerError, BrokerPlan, free_port
from companion.tournament.desk import TournamentDesk
from companion.tournament.director import Director
from companion.tournament.protocol import JoinCode, topic_table
from companion.tournament.service import TournamentService
from companion.tournament.store import TableStore, TournamentStore
from companion.tournament.table import TableClient
from rules.core import Placings

pytestmark = pytest.mark.slow
FORMAT = {"game": "dice-forge", "rounds": 1, "final-size": 2}  # one table, then a final of 2


@pytest.fixture
def service(tmp_path: Path) -> Iterator[TournamentService]:
    db, config = new_tournament(tmp_path / "director", 4, FORMAT)
    s = TournamentService(TournamentStore(db), folder=tmp_path / "director" / "t")
    s.start()
    yield s
    s.stop()
    assert not port_open(config.port) and not port_open(config.web_port)


def seated(service: TournamentService, round_number: int) -> Placings:
    seats = service.desk.tournament.rounds[round_number - 1].table(1).seats
    return tuple((s,) for s in seats)


def attacker(service: TournamentService, table: int = 1) -> Attacker:
    config = service.config
    return Attacker(config.port, service.tid, f"table-{table}", config.table_secrets[table])


def test_hostile_reports_never_stop_the_director(service: TournamentService) -> None:
    director = service.director
    assert director is not None
    service.desk.draw_next()
    first = seated(service, 1)
    bad = attacker(service)
    try:
        kinds = list(hostile(service.tid, 1, 1, first, random.Random(11)))
        # Deep nesting first: it once killed the director's network thread for good.
        kinds.sort(key=lambda kind: not kind[0].startswith("deep"))
        for kind, payload in kinds:
            ack = bad.send(payload)
            assert ack.status == "rejected", (kind, ack)
        ack = bad.good(1, 1, first)  # the same credentials, a good report: counted
        assert ack.status == "recorded", ack
        for _ in range(3):  # replays of the counted report: once
            assert bad.send(bad.last_payload).status == "duplicate"
        service.desk.draw_next()  # the final
        final = seated(service, 2)
        assert bad.good(2, 1, final).status == "recorded"
        assert service.desk.tournament.is_over
        winner = service.desk.tournament.winner()
        for _ in range(2):  # conflicting finals: refused, the tournament stays over
            ack = bad.good(2, 1, tuple(reversed(final)))
            assert ack.status == "rejected" and "the tournament is over" in ack.text
    finally:
        bad.close()
    service.desk.refresh()
    assert service.desk.tournament.is_over and service.desk.tournament.winner() == winner
    count, _ = service.desk.store.refused(service.tid, 1)
    assert count == len(kinds) + 2
    assert director.failures == 0 and director.receiving
    assert service.snapshot()["receiving"] is True
    assert sum("table-1: refused a report" in line for line in director.log) == count


def test_a_message_larger_than_a_report_never_reaches_the_journal(
        service: TournamentService) -> None:
    service.desk.draw_next()
    journal = service.desk.store.path
    before = sum(p.stat().st_size for p in journal.parent.glob(journal.name + "*"))
    big = attacker(service)
    try:  # 8 MB: the broker drops it (and the connection) before the director sees it
        big.client.publish(topic_table(service.tid, "table-1", "report"), b"[" * (8 << 20),
                           qos=0)
        wait_until(lambda: not big.client.is_connected(), what="the broker to drop 8 MB")
    finally:
        big.close()
    good = attacker(service)
    try:  # the director is still there and counts the next report
        assert good.good(1, 1, seated(service, 1)).status == "recorded"
    finally:
        good.close()
    after = sum(p.stat().st_size for p in journal.parent.glob(journal.name + "*"))
    assert after - before < 1 << 20
    assert service.desk.store.games(service.tid)[0][4] == "a game file"


def test_no_login_takes_over_the_directors_or_another_tables_session(
        service: TournamentService, tmp_path: Path) -> None:
    director = service.director
    assert director is not None
    service.desk.ensure_tables(2)
    service.add_tables(2)
    codes = {c.table: c for c in service.join_codes("127.0.0.1")}
    table2 = TableClient(TableStore(tmp_path / "t2.sqlite3"), codes[2])
    table2.start()
    try:
        assert table2.wait_connected(30)
        config = service.config
        # Table 1's credentials, asking for the director's and table 2's client ids, with a
        # clean session (which would wipe the session it took over).
        for victim in (f"{service.tid}-director", "director", f"{service.tid}-table-2",
                       "table-2"):
            c = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=victim, clean_session=True)
            c.username_pw_set("table-1", config.table_secrets[1])
            up = threading.Event()
            c.on_connect = lambda *a, up=up: up.set()
            c.connect("127.0.0.1", config.port, keepalive=10)
            c.loop_start()
            assert up.wait(30)
            c.disconnect()
            c.loop_stop()
        # A round trip through the director after the logins: had one thrown it off, its
        # "lost the broker" would be logged before the answer (it reconnects first).
        service.desk.draw_next()
        wait_until(lambda: table2.seating is not None and table2.seating.round == 1,
                   what="table 2's seating")
        bad = attacker(service)
        try:
            assert bad.good(1, 1, seated(service, 1)).status == "recorded"
        finally:
            bad.close()
        assert not any("lost the broker" in line for line in director.log), director.log
        assert director.connected and table2.connected and table2.connects == 1
    finally:
        table2.stop()
        table2.store.close()


def test_a_wrong_or_replaced_code_is_said_at_the_table(service: TournamentService,
                                                       tmp_path: Path) -> None:
    code = service.join_codes("127.0.0.1")[0]
    # What each link told of itself (the app's hub redraws on these, never polling).
    told: dict[str, list[tuple[bool, bool]]] = {"wrong": [], "old": []}

    def teller(name: str, client: Callable[[], TableClient]) -> Callable[[], None]:
        return lambda: told[name].append((client().connected, bool(client().refused)))

    wrong = TableClient(TableStore(tmp_path / "wrong.sqlite3"),
                        replace(code, secret="00000000"),
                        on_link=teller("wrong", lambda: wrong))
    wrong.start()
    try:
        assert wrong.wait_for(lambda: bool(wrong.refused), 30)
        assert "refused table 1's code" in wrong.refused and "ask the organiser" in \
            wrong.refused
        assert not wrong.connected
        wait_until(lambda: (False, True) in told["wrong"], 10, "the refusal told")
    finally:
        wrong.stop()
        wrong.store.close()
    # A spare companion takes table 1's place: a new code; the old one no longer logs in.
    old = TableClient(TableStore(tmp_path / "old.sqlite3"), code,
                      on_link=teller("old", lambda: old))
    old.start()
    try:
        assert old.wait_connected(30)
        wait_until(lambda: (True, False) in told["old"], 10, "the link up told")
        new = service.replace_code(1)
        assert new.secret != code.secret
        spare = TableClient(TableStore(tmp_path / "spare.sqlite3"), new)
        spare.start()
        try:
            assert spare.wait_connected(30)
            # The spare's login throws the old one off, and the old code is refused since:
            # the old link told both.
            assert old.wait_for(lambda: bool(old.refused), 30)
            wait_until(lambda: told["old"][-1] == (False, True), 10, "the refusal told")
            assert (False, False) in told["old"]  # thrown off, before the refusal
            assert spare.connected and spare.connects == 1
        finally:
            spare.stop()
            spare.store.close()
    finally:
        old.stop()
        old.store.close()


def test_a_code_replaced_by_the_command_reaches_the_running_broker(tmp_path: Path) -> None:
    db, config = new_tournament(tmp_path / "director", 4, FORMAT)
    with TournamentStore(db) as store:
        before = TournamentDesk(store, "tt01").config.table_secrets[1]
    serve = Proc(["tournament", "serve"], tmp_path / "director", "director")
    try:
        serve.wait_for("standings page:")
        command = Proc(["tournament", "codes", "--address", "127.0.0.1", "--replace", "1"],
                       tmp_path / "director", "codes")
        command.wait_for("its old code no longer logs in")
        serve.wait_for("the broker has the new table codes")
        with TournamentStore(db) as store:
            secret = TournamentDesk(store, "tt01").config.table_secrets[1]
        assert secret != before
        new = TableClient(TableStore(tmp_path / "t1.sqlite3"),
                          JoinCode("tt01", 1, secret, "127.0.0.1", config.port))
        new.start()
        try:
            assert new.wait_connected(30)
            serve.wait_for("table-1 joined (online)")
        finally:
            new.stop()
            new.store.close()
    finally:
        serve.stop()
    assert not port_open(config.port)


def test_the_page_says_when_the_director_is_not_receiving(service: TournamentService) -> None:
    url = f"http://127.0.0.1:{service.config.web_port}/"

    def page() -> str:
        with urllib.request.urlopen(url, timeout=5) as reply:
            return str(reply.read().decode())

    assert "director not receiving" not in page()
    assert service.director is not None
    service.director.stop()  # its network loop ends; the page stays up and is told
    wait_until(lambda: "director not receiving" in page(), what="the page to say so")


def test_a_failing_network_callback_restarts_the_loop_and_says_so(tmp_path: Path) -> None:
    db, config = new_tournament(tmp_path / "director", 4, FORMAT)
    desk = TournamentDesk(TournamentStore(db), "tt01")
    plan = BrokerPlan("tt01", "127.0.0.1", config.port, desk.config.director_password,
                      desk.config.table_secrets)
    with Broker(tmp_path / "broker", plan):
        # The director's journal is gone when it connects: its first callback fails.
        director = Director(desk, "127.0.0.1", config.port, plan.director_password)
        desk.store.close()
        director.start()
        try:
            wait_until(lambda: director.failures >= 1, what="the failure to be seen")
            assert director.receiving
            assert any("the network loop failed (StoreError" in line for line in director.log)
        finally:
            director.stop()
        assert not director.receiving
    assert not port_open(config.port)


def test_after_a_director_kill_9_doctor_names_the_broker_and_serve_takes_it_over(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from companion.commands import doctor

    data = tmp_path / "director"
    _, config = new_tournament(data, 4, FORMAT)
    monkeypatch.setenv("COMPANION_DATA_DIR", str(data))
    serve = Proc(["tournament", "serve"], data, "director")
    again: Proc | None = None
    try:
        serve.wait_for("standings page:")
        assert doctor.brokers_left_running() == []
        serve.kill()  # kill -9: its broker is left running, tables stay connected
        assert port_open(config.port)
        [check] = doctor.brokers_left_running()
        assert check.verdict == "warn" and "tournament tt01 is still running" in check.finding
        again = Proc(["tournament", "serve"], data, "director again")
        again.wait_for("took over the broker left running")
        again.wait_for("standings page:")
    finally:
        if again is not None:
            again.stop()
        serve.stop()
    wait_until(lambda: not port_open(config.port), what="the broker to stop with serve")
    assert doctor.brokers_left_running() == []


def test_the_table_command_says_its_code_was_refused(service: TournamentService,
                                                     tmp_path: Path) -> None:
    code = replace(service.join_codes("127.0.0.1")[0], secret="00000000")
    table = Proc(["tournament", "table", "--join", code.text()], tmp_path / "table", "table")
    try:
        table.wait_for("refused table 1's code")
        assert table.saw("ask the organiser for this table's code")
    finally:
        table.stop()


def test_one_director_per_tournament_a_second_serve_is_refused_in_words(
        tmp_path: Path) -> None:
    """Issue 42: two serves on one data folder threw each other off the broker about once a
    second, and the second stopped the first one's broker before failing on the port."""
    data = tmp_path / "director"
    db, config = new_tournament(data, 4, FORMAT)
    first = Proc(["tournament", "serve"], data, "director")
    try:
        first.wait_for("standings page:")
        second = Proc(["tournament", "serve"], data, "second director")
        assert second.p.wait(timeout=WAIT * 4) == 1
        text = "\n".join(second.lines)
        assert f"tournament tt01 is already being served by process {first.p.pid}" in text
        assert "one director per tournament" in text
        assert first.p.poll() is None and port_open(config.port)
        # The first director still counts a report, and never lost its broker.
        with TournamentStore(db) as store:
            desk = TournamentDesk(store, "tt01")
            desk.draw_next()
            secret = desk.config.table_secrets[1]
            placings = tuple((s,) for s in desk.tournament.rounds[0].table(1).seats)
        bad = Attacker(config.port, "tt01", "table-1", secret)
        try:
            assert bad.good(1, 1, placings).status == "recorded"
        finally:
            bad.close()
        assert not first.saw("lost the broker")
    finally:
        first.stop()
    assert not port_open(config.port)


def test_serve_never_stops_a_broker_another_director_runs(tmp_path: Path) -> None:
    folder = tmp_path / "broker"
    plan = BrokerPlan("tt01", "127.0.0.1", free_port(), "DIRECTORPASSWORD1", {1: "KQ7MX2P9"})
    running = Broker(folder, plan)
    running.start()
    other = subprocess.Popen([sys.executable, "-c", "import sys; sys.stdin.read()"],
                             stdin=subprocess.PIPE)
    try:
        # As another live director (another process) runs it:
        (folder / "director.pid").write_text(f"{other.pid}\n")
        second = Broker(folder, plan)
        with pytest.raises(BrokerError, match=f"run by another director \\(process "
                                              f"{other.pid}\\): it is left alone"):
            second.start()
        second.stop()
        assert running.running and port_open(plan.port)
        assert (folder / "director.pid").read_text().strip() == str(other.pid)
    finally:
        other.communicate(b"", timeout=30)
        running.stop()
    assert not port_open(plan.port)
