"""Export (CSV, BG Stats JSON and links, zip of game files) and import of game files."""

from __future__ import annotations

import csv
import io
import json
import urllib.parse
import zipfile
from pathlib import Path

import pytest
from history_night import night_journal

import rules
from companion.history import History, HistoryError, bgstats, export, importing, summary

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"


@pytest.fixture
def history(tmp_path: Path) -> History:
    h = History(night_journal(tmp_path))
    h.refresh()
    return h


def test_csv_has_one_row_per_player_per_game(history: History) -> None:
    games = history.games()
    rows = list(csv.DictReader(io.StringIO(export.csv_text(games))))
    assert len(rows) == sum(len(g.players) for g in games)
    assert tuple(rows[0]) == export.CSV_COLUMNS
    by_game = {g.id: g for g in games}
    for row in rows:
        g = by_game[int(row["game_id"])]
        p = g.players[int(row["seat"]) - 1]
        assert row["player"] == p.player and row["game"] == g.game
        assert row["won"] == str(int(p.won)) and row["winner"] == (g.winner or "")
        assert row["score"] == ("" if p.score is None else str(summary.plain_number(p.score)))
        assert row["role"] == (p.role or "") and int(row["players"]) == len(g.players)
        assert row["over"] == str(int(g.is_over))


def test_bgstats_plays_carry_the_documented_fields(history: History) -> None:
    games = history.games()
    plays = bgstats.bgstats_plays(games)
    assert len(plays) == sum(g.is_over for g in games)  # unfinished games are no plays
    over = [g for g in games if g.is_over]
    for play, g in zip(plays, over, strict=True):
        # no app name as the location; comments only when the players have something to say
        assert set(play) - {"comments", "board"} == {"sourceName", "sourcePlayId", "playDate",
                                                     "durationMin", "game", "players"}
        assert "calls" not in play.get("comments", "") and "journal" not in play.get(
            "comments", "")
        assert play["sourceName"] == bgstats.SOURCE_NAME
        assert play["sourcePlayId"] == f"tc-{g.digest}"
        assert set(play["game"]) - {"bggId"} == {"name", "sourceGameId", "highestWins"}
        assert ("bggId" in play["game"]) == (g.game == "dice-forge")
        assert play["game"]["name"] == rules.game_class(g.game).title
        assert play["game"]["sourceGameId"] == g.game and play["game"]["highestWins"] is True
        assert len(play["playDate"]) == 19 and play["playDate"][4] == "-"
        assert play["durationMin"] == round((g.duration or 0) / 60) or play["durationMin"] == 1
        assert [q["name"] for q in play["players"]] == list(g.names)
        for q, p in zip(play["players"], g.players, strict=True):
            assert set(q) - {"role"} == {"name", "sourcePlayerId", "score", "winner", "rank"}
            assert q.get("role") == p.role  # sent only when the game has roles
            assert q["winner"] is p.won and q["rank"] == p.rank and q["score"] == p.score
        assert any(q["winner"] for q in play["players"])
        json.dumps(play)
    assert len({p["sourcePlayId"] for p in plays}) == len(plays)  # one id per game


def test_bgstats_links_and_page_decode_back_to_the_plays(history: History,
                                                        tmp_path: Path) -> None:
    plays = bgstats.bgstats_plays(history.games())
    link = bgstats.bgstats_link(plays[0])
    assert link.startswith("https://app.bgstatsapp.com/createPlay.html?data=")
    data = urllib.parse.unquote(link.split("data=", 1)[1])
    assert json.loads(data) == plays[0]
    page = tmp_path / "plays.html"
    assert export.export_file(history, history.games(), "bgstats", page)[0] == len(plays)
    text = page.read_text(encoding="utf-8")
    assert text.count("<li><a href=") == len(plays)
    listed = tmp_path / "plays.json"
    export.export_file(history, history.games(), "bgstats", listed)
    exported = json.loads(listed.read_text(encoding="utf-8"))
    assert exported == bgstats.bgstats_export(history.games())
    assert [p["sourcePlayId"] for p in exported["plays"]] == [p["sourcePlayId"] for p in plays]


def _journaled(path: Path, example: str, start: float, minutes: float) -> int:
    """The example game file journaled as the app does: begun at ``start`` (Unix time), a
    call every so often, the last ``minutes`` after the start."""
    from companion.journal import Journal

    parsed = rules.parse_game_file((EXAMPLES / f"{example}.game").read_text(encoding="utf-8"))
    game = parsed.play()
    entries = list(game.history)
    with Journal(path) as journal:
        gid = journal.start_game(game.setup, wall=start)
        for i, e in enumerate(entries, start=1):
            journal.record_call(gid, e, wall=start + minutes * 60 * i / len(entries))
        journal.finish(gid, wall=start + minutes * 60)
    return gid


def test_an_exported_play_field_by_field_and_the_same_play_from_another_companion(
        tmp_path: Path) -> None:
    """A finished Dice Forge game: the link's play and the export file's play, field by field
    (docs/history.md); exported again from another companion that imported its game file (a
    machine with no games yet), it is the same play: same sourcePlayId, uuid, date, length."""
    import calendar

    start = calendar.timegm((2026, 11, 20, 19, 5, 0, 0, 0, 0))  # 19:05 UTC
    gid = _journaled(tmp_path / "a.sqlite3", "dice-forge", start, 47)
    with History(tmp_path / "a.sqlite3") as a:
        a.refresh()
        g = a.game(gid)
        play = bgstats.bgstats_play(g)
        exported = bgstats.bgstats_export(a.games())
        archive = tmp_path / "games.zip"
        export.export_file(a, a.games(), "zip", archive)
    assert play == {
        "sourceName": "Table companion",
        "sourcePlayId": f"tc-{g.digest}",
        "playDate": "2026-11-20 19:52:00",  # the end, in UTC
        "durationMin": 47,
        "game": {"name": "Dice Forge", "sourceGameId": "dice-forge", "highestWins": True,
                 "bggId": 194594},
        "players": [
            {"name": "Ana", "sourcePlayerId": "ana", "winner": True, "score": 9, "rank": 1},
            {"name": "Ben", "sourcePlayerId": "ben", "winner": False, "score": 4, "rank": 2}],
    }
    assert len(g.digest) == 32
    assert set(exported) == {"players", "locations", "games", "plays"}
    assert exported["players"] == [
        {"id": 1, "uuid": exported["players"][0]["uuid"], "name": "Ana", "isAnonymous": False},
        {"id": 2, "uuid": exported["players"][1]["uuid"], "name": "Ben", "isAnonymous": False}]
    assert exported["locations"] == []
    assert exported["games"] == [{
        "id": 1, "uuid": exported["games"][0]["uuid"], "name": "Dice Forge", "bggId": 194594,
        "sourceGameId": "dice-forge", "highestWins": True, "noPoints": False,
        "cooperative": False, "usesTeams": False}]
    [row] = exported["plays"]
    assert row == {
        "uuid": row["uuid"], "sourcePlayId": play["sourcePlayId"],
        "playDate": "2026-11-20 19:52:00", "durationMin": 47, "gameRefId": 1,
        "ignored": False, "manualWinner": False, "rounds": 0, "board": "",
        "usesTeams": False, "comments": "",
        "playerScores": [
            {"playerRefId": 1, "score": "9", "winner": True, "rank": 1, "seatOrder": 1,
             "startPlayer": False, "newPlayer": False, "role": "", "team": ""},
            {"playerRefId": 2, "score": "4", "winner": False, "rank": 2, "seatOrder": 2,
             "startPlayer": False, "newPlayer": False, "role": "", "team": ""}]}
    assert len(row["uuid"]) == 36
    # another companion, no games yet, takes the game file: the same play for BG Stats
    with History(tmp_path / "b.sqlite3") as b:
        assert [r.game_id is not None for r in importing.import_paths(b, [archive])] == [True]
        again = bgstats.bgstats_export(b.games())
        [other] = b.games()
        assert bgstats.bgstats_play(other)["sourcePlayId"] == play["sourcePlayId"]
    assert again["plays"][0]["uuid"] == row["uuid"]
    assert again["plays"][0]["sourcePlayId"] == row["sourcePlayId"]
    assert again["plays"][0]["playDate"] == "2026-11-20 19:52:00"
    assert again["plays"][0]["durationMin"] == 47


def test_zip_round_trip_into_another_companion(history: History, tmp_path: Path) -> None:
    games = history.games()
    archive = tmp_path / "games.zip"
    assert export.export_file(history, games, "zip", archive)[0] == len(games)
    with zipfile.ZipFile(archive) as z:
        names = z.namelist()
        assert all(n.endswith(".game") for n in names) and len(names) == len(games)
        first = z.read(names[0]).decode()
    assert rules.parse_game_file(first).play() is not None
    with History(tmp_path / "other.sqlite3") as other:
        results = importing.import_paths(other, [archive])
        assert [r.game_id is not None for r in results] == [True] * len(games)
        imported = {(g.game, g.names, g.winner, g.calls, g.started) for g in other.games()}
        original = {(g.game, g.names, g.winner, g.calls, g.started) for g in games}
        assert imported == original  # the start time comes back from the file's comment
        assert all(g.finished and not g.can_resume for g in other.games())
        again = importing.import_paths(other, [archive])
        assert all(r.game_id is None and "already in the history as game" in r.message
                   for r in again)
        assert other.count() == len(games)


def test_import_refuses_bad_files_naming_them(history: History, tmp_path: Path) -> None:
    bad = tmp_path / "bad.game"
    bad.write_text('game = "dice-forge"\nplayers = ["Ana", "Ben"]\n---\nAna: Juggle\n')
    empty = tmp_path / "empty.zip"
    with zipfile.ZipFile(empty, "w") as z:
        z.writestr("notes.txt", "hello")
    results = importing.import_paths(history, [bad, empty, tmp_path / "missing.game", tmp_path])
    assert all(r.game_id is None for r in results)
    messages = [r.message for r in results]
    assert messages[0].startswith(f"{bad}, line 4: ")
    assert "a zip with no .game file" in messages[1]
    assert "cannot read" in messages[2] and "cannot read" in messages[3]
    with pytest.raises(HistoryError, match="already in the history"):
        importing.import_game_text(history, history.journal.export(history.games()[0].id))


def test_import_keeps_title_and_start(history: History) -> None:
    setup = rules.Setup("dice-forge", ("Ana", "Ben"))
    game = rules.from_setup(setup)
    text = rules.format_game_file(game.setup, (), "Friday at the club\njournal game 4, "
                                                  "started 2025-03-07 20:15:00")
    gid = importing.import_game_text(history, text, "friday.game")
    g = history.game(gid)
    assert g.title == "Friday at the club"
    assert g.date == "2025-03-07 20:15" and g.calls == 0 and g.duration is None


# -- hostile files (issue 33): every entry judged before it is read, a summary, no traceback --

def _game_text(n: int) -> str:
    setup = rules.Setup("dice-forge", (f"Ana{n}", "Ben"))
    return rules.format_game_file(rules.from_setup(setup).setup, (), f"game {n}")


def _patched_zip(path: Path, names: list[str], patch: dict[str, tuple[int, int]]) -> None:
    """A zip of game files where the entries in ``patch`` get (flag bits, method) written in
    both their local and central headers (what an encrypting or deflate64 zipper writes)."""
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_STORED) as z:
        for n, name in enumerate(names):
            z.writestr(name, _game_text(n))
    data = bytearray(path.read_bytes())
    with zipfile.ZipFile(path) as z:
        infos = {i.filename: i for i in z.infolist()}
    central = data.index(b"PK\x01\x02")
    for name, (flags, method) in patch.items():
        local = infos[name].header_offset
        data[local + 6:local + 10] = flags.to_bytes(2, "little") + method.to_bytes(2, "little")
        at = data.index(b"PK\x01\x02", central)
        while data[at + 46:at + 46 + len(name)] != name.encode():
            at = data.index(b"PK\x01\x02", at + 4)
        data[at + 8:at + 12] = flags.to_bytes(2, "little") + method.to_bytes(2, "little")
    path.write_bytes(bytes(data))


def test_import_refuses_encrypted_and_unreadable_entries_and_takes_the_rest(
        history: History, tmp_path: Path) -> None:
    archive = tmp_path / "mixed.zip"
    _patched_zip(archive, ["a.game", "b.game", "c.game"],
                 {"a.game": (0x1, 0), "b.game": (0, 9)})  # encrypted; deflate64
    before = history.count()
    results = importing.import_paths(history, [archive])
    said = {r.source.rsplit(":", 1)[1]: r for r in results}
    assert "encrypted" in said["a.game"].message and said["a.game"].game_id is None
    assert "method 9" in said["b.game"].message and said["b.game"].game_id is None
    assert said["c.game"].game_id is not None
    assert history.count() == before + 1


def test_import_never_reads_a_huge_entry_or_a_device_whole(history: History,
                                                           tmp_path: Path) -> None:
    bomb = tmp_path / "bomb.zip"
    with zipfile.ZipFile(bomb, "w", compression=zipfile.ZIP_DEFLATED) as z:
        z.writestr("big.game", b"#" * (importing.MAX_GAME_FILE_BYTES * 4))
        z.writestr("ok.game", _game_text(1))
    fifo = tmp_path / "pipe.game"
    import os

    os.mkfifo(fifo)
    results = importing.import_paths(history, [bomb, Path("/dev/zero"), fifo])
    messages = [r.message for r in results]
    assert "too large to be a game file" in messages[0]
    assert results[1].game_id is not None  # the zip's other game is taken
    assert "not a plain file" in messages[2] and "not a plain file" in messages[3]


def test_import_refuses_a_start_that_is_not_a_date(history: History, tmp_path: Path) -> None:
    path = tmp_path / "feb30.game"
    game = rules.from_setup(rules.Setup("dice-forge", ("Ana", "Ben")))
    path.write_text(rules.format_game_file(
        game.setup, (), "journal game 4, started 2024-02-30 20:15:00"), encoding="utf-8")
    [result] = importing.import_paths(history, [path])
    assert result.game_id is None and "2024-02-30" in result.message
    assert "not a date" in result.message


def test_import_of_a_file_is_one_transaction(history: History, tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """A disk that fails on a file's games leaves none of them; the next file goes on."""
    from companion import store

    first = tmp_path / "first.zip"
    with zipfile.ZipFile(first, "w") as z:
        for n in range(3):
            z.writestr(f"{n}.game", _game_text(n))
    second = tmp_path / "second.game"
    second.write_text(_game_text(9), encoding="utf-8")
    before = history.count()
    real = history.add_games
    calls = []

    def flaky(games: list[object]) -> list[int]:
        calls.append(len(games))
        if len(calls) == 1:
            with store.transaction(history.db, history.journal.path):
                history.db.execute("INSERT INTO games (setup, title, started) "
                                   "VALUES ('x', '', 0)")
                raise store.DiskFull("the SD card is full: nothing was saved")
        return real(games)  # type: ignore[arg-type]

    monkeypatch.setattr(history, "add_games", flaky)
    results = importing.import_paths(history, [first, second])
    assert calls == [3, 1]
    assert [r.game_id is None for r in results] == [True, True, True, False]
    assert all("the SD card is full" in r.message for r in results[:3])
    history.refresh()
    assert history.count() == before + 1


def test_an_import_read_by_worker_processes_adds_what_one_process_adds(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A big zip is replayed by one process per core (`companion history import`): the same
    games, the same digests, in the same order, as when read here."""
    from history_night import night_journal

    source = night_journal(tmp_path)
    archive = tmp_path / "games.zip"
    with History(source) as h:
        export.export_file(h, h.games(), "zip", archive)
    monkeypatch.setattr(importing, "POOL_FROM", 2)
    got = {}
    for workers in (1, 2):
        with History(tmp_path / f"into-{workers}.sqlite3") as into:
            [batch] = importing.prepare_paths(into, [archive], workers=workers)
            got[workers] = [(x.source, getattr(x, "digest", None)) for x in batch]
            results = importing.write_prepared(into, [batch])
            assert all(r.game_id is not None for r in results)
    assert got[1] == got[2] and len(got[1]) > 10
