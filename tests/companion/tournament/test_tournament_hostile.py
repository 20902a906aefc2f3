"""A table's messages are untrusted and the organiser's secrets are private (no broker here).

The director's report handler is fed what a hostile table could send; each is answered
``rejected``, kept in the journal with the table and the reason, and later good reports still
count. Files holding secrets are owner-only. A finished tournament changes only by correction.
"""

from __future__ import annotations

import json
import os
import random
import stat
from pathlib import Path

import pytest
from hostile_mqtt import hostile
from tournament_desks import desk_with_round, good, seated

from companion.cli import main
from companion.tournament.desk import TournamentDesk
from companion.tournament.director import Director
from companion.tournament.protocol import (
    MAX_DEPTH,
    MAX_REPORT_BYTES,
    ProtocolError,
    Report,
    read_json,
)
from companion.tournament.store import TableStore, TournamentStore
from rules.tournament import TournamentError, format_placings


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_read_json_measures_before_it_parses() -> None:
    with pytest.raises(ProtocolError, match="nested 100000 deep, more than the 8"):
        read_json(b"[" * 100_000 + b"]" * 100_000, "report", 10**6)
    with pytest.raises(ProtocolError, match="more than the 65,536 allowed"):
        read_json(b" " * 70_000, "report")
    with pytest.raises(ProtocolError, match="not UTF-8"):
        read_json(b'{"a": "\xff"}', "report")
    for number in (b"NaN", b"Infinity", b"-Infinity", b"1e999"):
        with pytest.raises(ProtocolError, match="not JSON"):
            read_json(b'{"sent": ' + number + b"}", "report")
    # Brackets inside strings (escaped quotes too) do not nest; MAX_DEPTH levels are fine.
    text = '{"a": "[[[[[[[[[[\\"[[[[[[", "b": ' + "[" * (MAX_DEPTH - 1) + "]" * (
        MAX_DEPTH - 1) + "}"
    assert read_json(text, "report")["a"] == '[[[[[[[[[[\"[[[[[['


def test_every_hostile_report_is_refused_kept_and_later_good_ones_count(
        tmp_path: Path) -> None:
    desk = desk_with_round(tmp_path)
    director = Director(desk, "127.0.0.1", 1, "unused")
    placings = seated(desk, 1)
    sizes = []
    kinds = list(hostile("tt01", 1, 1, placings, random.Random(3)))
    for kind, payload in kinds:
        ack = director.handle_report("table-1", payload)
        assert ack.status == "rejected", (kind, ack)
        assert ack.text, kind
        sizes.append(len(payload))
    count, last = desk.store.refused("tt01", len(kinds))
    assert count == len(kinds)
    assert {source for _, source, _, _ in last} == {"table-1"}
    assert sorted(size for *_, size in last) == sorted(sizes)
    reasons = " | ".join(reason for _, _, reason, _ in last)
    for words in ("nested", "more than the 1,048,576 allowed", "not UTF-8",
                  "not a number a message may hold", "'game_file' must be text",
                  "'report_id'", "may report only its own table"):
        assert words in reasons
    assert all("table-1: refused a report: " in line for line in director.log)
    assert desk.store.games("tt01") == []  # nothing of theirs is kept but the refusal
    assert desk.tournament.rounds[0].results == {}
    ack = director.handle_report("table-1", good(desk, 1, placings))
    assert ack.status == "recorded"
    assert desk.tournament.rounds[0].results[1].placings == placings
    # An id that was refused can be read back from the refused message: the table learns.
    ack = director.handle_report("table-1", json.dumps({"report_id": "abc-1", "sent": 1e999}
                                                       ).encode())
    assert (ack.report_id, ack.status) == ("abc-1", "rejected")


def test_a_report_too_large_is_refused_without_being_stored(tmp_path: Path) -> None:
    desk = desk_with_round(tmp_path)
    director = Director(desk, "127.0.0.1", 1, "unused")
    journal = tmp_path / "journal.sqlite3"
    before = sum(p.stat().st_size for p in tmp_path.glob("journal.sqlite3*"))
    big = Report("big-1", "tt01", 1, 1, seated(desk, 1), "x" * (8 * MAX_REPORT_BYTES), 1.0)
    ack = director.handle_report("table-1", big.to_payload())
    assert ack.status == "rejected" and "allowed" in ack.text
    assert desk.store.games("tt01") == [] and desk.tournament.rounds[0].results == {}
    after = sum(p.stat().st_size for p in tmp_path.glob("journal.sqlite3*"))
    assert after - before < MAX_REPORT_BYTES // 4, (before, after, journal)


def test_a_table_cannot_reopen_a_finished_tournament(tmp_path: Path) -> None:
    desk = desk_with_round(tmp_path)
    director = Director(desk, "127.0.0.1", 1, "unused")
    assert director.handle_report("table-1", good(desk, 1, seated(desk, 1))).status == \
        "recorded"
    desk.draw_next()  # the final, at table 1
    final = seated(desk, 2)
    assert director.handle_report("table-1", good(desk, 2, final, "final-1")).status == \
        "recorded"
    winner = desk.tournament.winner()
    assert desk.tournament.is_over and winner == final[0][0]
    other = tuple(reversed(final))
    ack = director.handle_report("table-1", good(desk, 2, other, "final-2"))
    assert ack.status == "rejected" and "the tournament is over" in ack.text
    ack = director.handle_report("table-1", good(desk, 1, tuple(reversed(seated(desk, 1))),
                                                 "round-1-again"))
    assert ack.status == "rejected"
    assert director.handle_report("table-1", good(desk, 2, final, "final-1")).status == \
        "duplicate"  # a resend of the counted report is still answered
    desk.refresh()
    assert desk.tournament.is_over and desk.tournament.winner() == winner
    assert desk.tournament.conflicts() == []
    with pytest.raises(TournamentError, match="the tournament is over"):
        desk.report(2, 1, other)
    desk.correct(2, 1, other, "the scoresheet")  # the organiser's correction still works
    assert desk.tournament.is_over and desk.tournament.winner() == other[0][0]


def test_the_organisers_actions_are_logged_for_serve(tmp_path: Path) -> None:
    desk = desk_with_round(tmp_path)
    director = Director(desk, "127.0.0.1", 1, "unused")
    other = TournamentDesk(TournamentStore(tmp_path / "journal.sqlite3"), "tt01")
    placings = seated(desk, 1)
    other.report(1, 1, placings)
    other.correct(1, 1, tuple(reversed(placings)), "scoresheet")
    other.draw_next()
    desk.refresh()
    director._changed_if_new()
    text = "\n".join(director.log)
    assert f"correction: round 1, table 1: {format_placings(tuple(reversed(placings)))} " \
           "(scoresheet)" in text
    assert "round 2 drawn (final, 1 tables)" in text


def test_export_never_fails_for_a_stored_id(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path))
    desk = desk_with_round(tmp_path)
    # A journal from before reports were checked: ids and sources with anything in them.
    desk.store.save_game("tt01", 1, 1, "../../x/y/z", "table-1", "game one")
    desk.store.save_game("tt01", 1, 1, "a/b", "../t", "game two")
    desk.store.close()
    out = tmp_path / "export"
    assert main(["tournament", "export", "--output", str(out)]) == 0
    games = sorted((out / "games").iterdir())
    assert len(games) == 2 and {p.read_text() for p in games} == {"game one", "game two"}
    assert all(p.parent == out / "games" for p in games)
    assert not (tmp_path / "x").exists()
    capsys.readouterr()


def test_files_with_secrets_are_owner_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    os.umask(0o022)
    data = tmp_path / "new-data"
    desk = desk_with_round(data)
    desk.ensure_tables(2)  # the secrets are in the journal now
    assert mode(data) == 0o700
    for p in data.glob("journal.sqlite3*"):
        assert mode(p) == 0o600, p
    # A journal made before (0644, as the old code did) is made owner-only when opened.
    old = tmp_path / "old" / "journal.sqlite3"
    old.parent.mkdir()
    TableStore(old).close()
    os.chmod(old, 0o644)
    table = TableStore(old)
    table.join("tt01", "tt01-1-KQ7MX2P9@10.0.0.5")
    assert mode(old) == 0o600
    assert all(mode(p) == 0o600 for p in old.parent.glob("journal.sqlite3*"))
    table.close()
    # The join codes as QR codes.
    monkeypatch.setenv("COMPANION_DATA_DIR", str(data))
    desk.store.close()
    assert main(["tournament", "codes", "--address", "127.0.0.1", "--qr",
                 str(tmp_path / "qr")]) == 0
    assert mode(tmp_path / "qr") == 0o700
    svgs = list((tmp_path / "qr").glob("*.svg"))
    assert svgs and all(mode(p) == 0o600 for p in svgs)
    assert svgs[0].read_text().startswith("<?xml")
    capsys.readouterr()


def test_the_broker_files_are_owner_only(tmp_path: Path) -> None:
    from companion.tournament.broker import Broker, BrokerPlan, find_mosquitto

    find_mosquitto()
    os.umask(0o022)
    folder = tmp_path / "broker"
    broker = Broker(folder, BrokerPlan("tt01", "127.0.0.1", 1883, "DIRECTORPASSWORD1",
                                       {1: "KQ7MX2P9"}))
    config = broker.write()
    text = config.read_text()
    assert "use_username_as_clientid true" in text
    assert f"max_packet_size {MAX_REPORT_BYTES + 4096}" in text
    assert mode(folder) == 0o700
    for p in folder.rglob("*"):
        assert mode(p) == (0o700 if p.is_dir() else 0o600), p


def test_a_spare_table_gets_a_new_code_from_the_command(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path))
    desk = desk_with_round(tmp_path)
    before = desk.config.table_secrets
    desk.store.close()
    assert main(["tournament", "codes", "--address", "127.0.0.1", "--replace", "1"]) == 0
    out = capsys.readouterr().out
    after = TournamentDesk(TournamentStore(tmp_path / "journal.sqlite3"), "tt01").config
    assert after.table_secrets[1] != before[1]
    assert f"table 1: tt01-1-{after.table_secrets[1]}@127.0.0.1" in out
    assert "its old code no longer logs in" in out
    assert main(["tournament", "codes", "--replace", "9"]) == 1
    assert "table 9: no such table" in capsys.readouterr().err


def test_doctor_says_when_others_can_read_tournament_secrets(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from companion.commands import doctor

    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path))
    desk_with_round(tmp_path).store.close()
    broker = tmp_path / "tournaments" / "tt01" / "broker"
    broker.mkdir(parents=True)
    (broker / "passwords").write_text("director:$7$hashed\n")
    # As an older companion left them: readable by every local user.
    os.chmod(tmp_path / "journal.sqlite3", 0o644)
    os.chmod(broker / "passwords", 0o644)
    os.chmod(broker, 0o755)
    checks = {c.area: c for c in doctor.app_checks()[0]}
    check = checks["secrets"]
    assert check.verdict == "fail"
    assert str(tmp_path / "journal.sqlite3") in check.finding
    assert str(broker / "passwords") in check.action and str(broker) in check.finding
    for p in (tmp_path / "journal.sqlite3", broker / "passwords", broker):
        os.chmod(p, 0o700 if p.is_dir() else 0o600)
    check = doctor.secrets_check()
    assert check.verdict == "ok" and "owner only" in check.finding


def test_a_refusal_never_carries_control_characters_to_a_terminal(tmp_path: Path) -> None:
    desk = desk_with_round(tmp_path)
    director = Director(desk, "127.0.0.1", 1, "unused")
    names = [[f"\x1b[2J\x1b]0;owned\x07P{i}"] for i in range(4)]
    ack = director.handle_report("table-1", Report("esc-1", "tt01", 1, 1, tuple(
        tuple(n) for n in names)).to_payload())
    assert ack.status == "rejected" and "\\x1b[2J" in ack.text
    _, [(_, _, reason, _)] = desk.store.refused("tt01", 1)
    for text in (ack.text, reason, director.log[-1]):
        assert text.isprintable() and len(text) < 400, text


def test_a_report_is_counted_if_and_only_if_it_is_answered_counted(tmp_path: Path) -> None:
    """Issue 42: a game file holding half a surrogate pair was answered "rejected: could not
    be handled (UnicodeEncodeError)" and its result counted all the same."""
    desk = desk_with_round(tmp_path)
    director = Director(desk, "127.0.0.1", 1, "unused")
    payload = good(desk, 1, seated(desk, 1), "lone-1").replace(b'"a game file"',
                                                                b'"a game \\ud800 file"')
    ack = director.handle_report("table-1", payload)
    assert ack is not None and ack.status == "rejected" and "surrogate" in ack.text
    desk.refresh()
    assert desk.tournament.rounds[0].results == {} and desk.store.games("tt01") == []
    ack = director.handle_report("table-1", good(desk, 1, seated(desk, 1), "whole-1"))
    assert ack is not None and ack.status == "recorded"
    desk.refresh()
    assert desk.tournament.rounds[0].results[1].placings == seated(desk, 1)
    assert [g[2] for g in desk.store.games("tt01")] == ["whole-1"]


def test_a_result_and_its_game_file_are_journaled_together_or_not_at_all(
        tmp_path: Path) -> None:
    """The journal refusing the game file (here: text SQLite cannot take) keeps the result
    out too, and the desk holds what the journal holds."""
    desk = desk_with_round(tmp_path)
    with pytest.raises(UnicodeEncodeError):
        desk.report(1, 1, seated(desk, 1), "table-1", "bad-file", "half \ud800 a pair")
    assert desk.tournament.rounds[0].results == {}
    other = TournamentDesk(TournamentStore(tmp_path / "journal.sqlite3"), "tt01")
    assert other.tournament.rounds[0].results == {} and other.store.games("tt01") == []
    outcome = desk.report(1, 1, seated(desk, 1), "table-1", "good-file", "the game")
    assert outcome.status == "recorded"
    other.refresh()
    assert other.tournament.rounds[0].results[1].placings == seated(desk, 1)
    assert [(g[2], g[4]) for g in other.store.games("tt01")] == [("good-file", "the game")]
