"""The director's desk, the stores, the messages and the `companion tournament` commands
(everything that needs no network)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from companion.cli import main
from companion.tournament.desk import DirectorConfig, TournamentDesk, director_config
from companion.tournament.protocol import (
    Ack,
    JoinCode,
    ProtocolError,
    Report,
    Seating,
    user_of_topic,
)
from companion.tournament.simulate import play_seating
from companion.tournament.store import StaleError, TableStore, TournamentStore
from rules.tournament import Tournament, TournamentError


def make_store(tmp_path: Path, players: int = 8, fmt: dict[str, object] | None = None
               ) -> TournamentStore:
    store = TournamentStore(tmp_path / "journal.sqlite3")
    t = Tournament.new("Club night", fmt or {"rounds": 2}, seed=5)
    for i in range(1, players + 1):
        t.add_entrant(f"P{i}")
    store.create("ab12", t, DirectorConfig().to_json())
    return store


def test_join_codes_read_as_typed_and_refuse_what_is_not_one() -> None:
    code = JoinCode.parse("AB12 - 7 - kq7m-x2po @ 10.0.0.5:1884")
    assert (code.tournament, code.table, code.secret, code.host, code.port) == (
        "ab12", 7, "KQ7MX2P0", "10.0.0.5", 1884)
    assert JoinCode.parse(code.text()) == code
    assert code.user == "table-7"
    for bad, why in [("hello", "a join code looks like"),
                     ("ab12-3-SHORT@10.0.0.5", "must be 8 letters and digits"),
                     ("ab12-3-KQ7MX2P9@10.0.0.5:99999", "port 99999"),
                     ("ab12-0-KQ7MX2P9@10.0.0.5", "a join code looks like")]:
        with pytest.raises(ProtocolError, match=why):
            JoinCode.parse(bad)


def test_messages_round_trip_and_bad_ones_name_the_field() -> None:
    report = Report("r1", "ab12", 2, 3, (("Ana",), ("Ben", "Cy")), "game text", 12.5)
    assert Report.from_payload(report.to_payload()) == report
    ack = Ack("r1", "conflict", "the organiser decides")
    assert Ack.from_payload(ack.to_payload()) == ack
    with pytest.raises(ProtocolError, match="report: not JSON"):
        Report.from_payload(b"{nope")
    with pytest.raises(ProtocolError, match="'round' missing or not int"):
        Report.from_payload(json.dumps({"report_id": "x", "tournament": "ab12", "round": "2",
                                        "table": 1, "placings": [["A"]]}))
    with pytest.raises(ProtocolError, match="report placings"):
        Report.from_payload(json.dumps({"report_id": "x", "tournament": "ab12", "round": 2,
                                        "table": 1, "placings": "A > B"}))
    with pytest.raises(ProtocolError, match="seating: must be a JSON object"):
        Seating.from_payload(b"[1, 2]")
    assert user_of_topic("ab12", "companion/ab12/tables/table-3/report") == ("table-3",
                                                                             "report")
    assert user_of_topic("ab12", "companion/zz99/tables/table-3/report") is None


def test_desk_journals_every_action_and_a_second_writer_never_interleaves(
        tmp_path: Path) -> None:
    store = make_store(tmp_path)
    desk = TournamentDesk(store)
    other = TournamentDesk(TournamentStore(tmp_path / "journal.sqlite3"))
    r = desk.draw_next()
    # The other writer has not seen the draw: its action is retried on the fresh tournament.
    other.add_entrant("Late")
    assert other.tournament.current is not None
    assert desk.refresh() and [e.name for e in desk.tournament.entrants()][-1] == "Late"
    seats = r.tables[0].seats
    outcome = desk.report(1, 1, tuple((s,) for s in seats))
    assert outcome.status == "recorded"
    assert desk.report(1, 1, tuple((s,) for s in seats)).status == "duplicate"
    with pytest.raises(TournamentError, match="must place exactly"):
        desk.report(1, 1, (("Nobody",),))
    reloaded, seq = store.load("ab12")
    assert seq == desk.seq and reloaded.summary() == desk.tournament.summary()
    with pytest.raises(StaleError):
        store.append("ab12", [], seq - 1)


def test_desk_gives_every_table_its_seating_and_setup(tmp_path: Path) -> None:
    store = make_store(tmp_path, 10)
    desk = TournamentDesk(store)
    config = desk.ensure_tables()
    assert sorted(config.table_secrets) == [1, 2, 3] and len(config.director_password) == 16
    assert desk.ensure_tables().table_secrets == config.table_secrets  # kept, not remade
    waiting = desk.seatings(3)
    assert all(s.table is None and s.stage == "waiting" for s in waiting.values())
    r = desk.draw_next()
    seatings = desk.seatings(4)
    assert seatings[4].table is None and seatings[4].round == 1
    for table in r.tables:
        s = seatings[table.number]
        assert s.seats == table.seats and s.setup is not None
        assert Seating.from_payload(s.to_payload()) == s
        placings, text = play_seating(s, seed=1)
        assert sorted(n for g in placings for n in g) == sorted(table.seats)
        assert text.splitlines()[0].startswith("# Club night: round 1")
        assert desk.report(1, table.number, placings, "table-1", "x").status == "recorded"
    codes = desk.join_codes("192.168.4.2")
    assert [c.table for c in codes] == [1, 2, 3]
    assert codes[0].text().endswith("@192.168.4.2")


def test_table_store_keeps_the_outbox_across_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    store = TableStore(path)
    store.join("ab12", "ab12-1-KQ7MX2P9@10.0.0.5")
    store.queue("r1", "ab12", 1, 1, b'{"x": 1}')
    store.queue("r1", "ab12", 1, 1, b'{"x": 1}')  # queued twice, kept once
    store.close()
    again = TableStore(path)
    assert [i.report_id for i in again.pending("ab12")] == ["r1"]
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert again.acknowledged("r1", "recorded", "ok") is True
    assert again.acknowledged("r1", "duplicate", "again") is False  # a resend's answer
    assert again.pending("ab12") == []
    assert [(r.report_id, r.status) for r in again.reports("ab12")] == [("r1", "recorded")]


# -- the commands ---------------------------------------------------------------------------


def run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["tournament", *args])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_one_box_tournament_from_the_commands(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path))
    code, out, _ = run_cli(capsys, "new", "Club night", "--game", "dice-forge", "--rounds", "1",
                           "--final-size", "2", "--seed", "3")
    assert code == 0 and "Dice Forge: 1 round of group play" in out
    assert run_cli(capsys, "add", "Ana", "Ben", "Cy", "Dee")[0] == 0
    code, out, _ = run_cli(capsys, "next")
    assert code == 0 and "Round 1: group" in out
    seats = out.splitlines()[1].split(": ", 1)[1].split(", ")
    code, out, err = run_cli(capsys, "report", "1", "1", " > ".join(seats[:3]))
    assert code == 1 and "must place exactly" in err
    code, out, _ = run_cli(capsys, "report", "1", "1", " > ".join(seats))
    assert code == 0 and out.startswith("recorded")
    code, out, _ = run_cli(capsys, "correct", "1", "1", " > ".join(reversed(seats)),
                           "--dry-run")
    assert code == 0 and out.startswith("Would change:") and f"{seats[0]}: 1st" in out
    code, out, _ = run_cli(capsys, "standings", "--json")
    assert json.loads(out)["standings"][0]["name"] == seats[0]  # the dry run changed nothing
    assert run_cli(capsys, "correct", "1", "1", " > ".join(reversed(seats)))[0] == 0
    code, out, _ = run_cli(capsys, "standings", "--json")
    data = json.loads(out)
    assert data["standings"][0]["name"] == seats[-1]
    assert run_cli(capsys, "next")[0] == 0  # the final: the top two
    code, out, _ = run_cli(capsys, "report", "1", "1", "x")
    assert code == 1
    final_seats = json.loads(run_cli(capsys, "standings", "--json")[1])["round"]["tables"][0]
    code, out, _ = run_cli(capsys, "report", "2", "1", " > ".join(final_seats["seats"]))
    code, out, _ = run_cli(capsys, "standings")
    assert f"Over. Winner: {final_seats['seats'][0]}" in out
    code, out, _ = run_cli(capsys, "export", "--output", str(tmp_path / "export"))
    assert code == 0
    events = json.loads((tmp_path / "export" / "events.json").read_text())
    assert Tournament.from_events(events).winner() == final_seats["seats"][0]
    code, out, err = run_cli(capsys, "next")
    assert code == 1 and "the tournament is over" in err
    code, out, _ = run_cli(capsys, "codes", "--address", "10.1.2.3", "--qr",
                           str(tmp_path / "qr"))
    assert code == 0 and "table 1: " in out and "@10.1.2.3" in out
    assert (tmp_path / "qr" / "table-1.svg").read_text().startswith("<?xml")
    assert run_cli(capsys, "list")[1].startswith("* ")


def test_commands_say_what_is_wrong(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path))
    code, _, err = run_cli(capsys, "standings")
    assert code == 1 and "no tournament yet: make one with `companion tournament new" in err
    code, _, err = run_cli(capsys, "new", "X", "--game", "chess")
    assert code == 1 and "unknown game 'chess'" in err
    code, _, err = run_cli(capsys, "new", "X", "--points", "three")
    assert code == 2 and "--points 'three'" in err
    code, _, err = run_cli(capsys, "table", "--join", "not a code")
    assert code == 1 and "a join code looks like" in err
    code, _, err = run_cli(capsys, "use", "zz99")
    assert code == 1 and "no tournament 'zz99'" in err


def test_a_join_code_shown_as_a_qr_code_is_read_back_from_a_camera_frame() -> None:
    import cv2
    import numpy as np

    from companion.tournament.join import qr_png, scan_join_code

    code = JoinCode("k7m2", 3, "KQ7MX2P9", "192.168.1.20", 1884)
    image = cv2.imdecode(np.frombuffer(qr_png(code), np.uint8), cv2.IMREAD_GRAYSCALE)
    # Under the camera: smaller, on a grey table, a little rotated.
    small = cv2.resize(image, None, fx=0.6, fy=0.6, interpolation=cv2.INTER_AREA)
    frame = np.full((480, 640), 150, np.uint8)
    frame[60:60 + small.shape[0], 100:100 + small.shape[1]] = small
    turn = cv2.getRotationMatrix2D((320, 240), 8, 1.0)
    frame = cv2.warpAffine(frame, turn, (640, 480), borderValue=150)
    assert scan_join_code(frame) == code
    assert scan_join_code(np.full((480, 640), 150, np.uint8)) is None


def test_a_table_reports_its_finished_game_in_entrants_names_even_offline(
        tmp_path: Path) -> None:
    import random

    import rules
    from companion.tournament.table import TableClient

    store = make_store(tmp_path, 0, {"mode": "alliances", "table-size": 2, "rounds": 1})
    desk = TournamentDesk(store)
    for team, members in (("Reds", ["a1", "a2"]), ("Blues", ["b1", "b2"])):
        desk.add_entrant(team, members)
    desk.draw_next()
    seating = desk.seatings(1)[1]
    assert seating.setup is not None
    code = JoinCode("ab12", 1, "KQ7MX2P9", "127.0.0.1", 1)  # nothing listens: offline
    client = TableClient(TableStore(tmp_path / "table.sqlite3"), code)
    game = rules.from_setup(seating.setup)
    with pytest.raises(ValueError, match="is not over yet"):
        client.report_game(game, seating=seating)
    rng = random.Random(2)
    while not game.is_over:
        game.apply(game.random_call(rng))
    report = client.report_game(game, "the game file", seating)
    assert sorted(n for g in report.placings for n in g) == ["Blues", "Reds"]
    waiting = client.pending()
    assert [Report.from_payload(i.payload) for i in waiting] == [report]  # kept until acked
    assert client.reported(1, 1) is not None and client.reported(1, 1).status == "waiting"
    other = rules.new_game("eye-for-an-eye", ["x", "y"])
    with pytest.raises(ValueError, match="not the seated ones"):
        client.report_game(other, seating=seating)


def test_the_app_serves_as_config_toml_says_and_names_what_it_cannot_use() -> None:
    """config.toml's [tournament] table: how the Tournament screen serves a new tournament.
    A bad key or value is named and not used (the defaults stand); nothing raises."""
    cfg, problem = director_config({"tournament": {
        "listen": "127.0.0.1", "port": 18830, "web_port": -1, "address": "10.0.0.2"}})
    assert problem == ""
    assert (cfg.listen, cfg.port, cfg.web_port, cfg.address) == ("127.0.0.1", 18830, -1,
                                                                "10.0.0.2")
    cfg, problem = director_config({})
    assert cfg == DirectorConfig() and problem == ""
    cfg, problem = director_config({"tournament": {"port": "1883", "prot": 1, "web_port": True,
                                                   "listen": "127.0.0.1"}})
    assert "port: expected a whole number, got '1883'" in problem
    assert "prot: unknown setting; known: address, broker, " in problem
    assert "web_port: expected a whole number, got True" in problem
    assert (cfg.port, cfg.web_port, cfg.listen) == (1883, 8080, "127.0.0.1")
    cfg, problem = director_config({"tournament": {"broker": "10.0.0.9:1883"}})
    assert "broker_password" in problem and cfg.external == ""  # our own broker, then
    cfg, problem = director_config({"tournament": "yes"})
    assert cfg == DirectorConfig() and "must be a table" in problem


def test_serving_is_remembered_with_the_config_and_old_configs_read_as_not_serving() -> None:
    on = DirectorConfig(serving=True)
    assert DirectorConfig.from_json(json.loads(json.dumps(on.to_json()))).serving is True
    old = DirectorConfig().to_json()
    del old["serving"]  # a config written before the app's screen served tournaments
    assert DirectorConfig.from_json(old).serving is False
