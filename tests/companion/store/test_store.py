"""The one store: the journal's file opened one way, one companion per data folder, and any
disk state at start (read-only, full, odd files) gives a notice, never a traceback or a hang.

The lock is tried with two real processes; a read-only card is a real read-only mount where
this machine allows one (root), a folder without write permission otherwise; a full card is a
real full filesystem where a small one can be mounted, and SQLite's own page limit (the same
"database or disk is full" error from the same code path) everywhere.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from lock_holder import DEADLINE, Child
from other_user import NOBODY, as_nobody, readable_copy, stdlib_only_python

import rules
from companion import startfiles, store
from companion.history.index import History
from companion.history.rolls import RollLog
from companion.journal import Journal
from companion.session import TableSession
from companion.tournament import store as tournament_store
from companion.tournament.store import TableStore, TournamentStore
from rules import Entry

HERE = Path(__file__).parents[1]  # tests/companion, beside its children
#: A journal written by the companion before the store (schema versions) existed: a finished
#: game, an unfinished one with a call and its clock, the history index, a roll, the kept
#: fairness verdicts' table. Made with that version's own code (see the commit that adds it).
OLD_JOURNAL = HERE / "files" / "journal-2026-11-before-store.sqlite3"
#: A journal written by the companion of schema version 2 (the last before the tournament
#: tables joined the store's migrations): a finished game, an unfinished one with two calls,
#: the history index, a roll, a director's tournament of 4 entrants, a table's membership and
#: one report in its outbox. Made with that version's own code (see the commit that adds it).
SCHEMA_2_JOURNAL = HERE / "files" / "journal-2026-11-schema-2.sqlite3"


def _eye_game() -> rules.Game[Any]:
    return rules.new_game("eye-for-an-eye", ["Ana", "Ben", "Cy"], {"rounds": 20}, seed=5)


def _journal_with_game(path: Path) -> int:
    path.parent.mkdir(parents=True, exist_ok=True)
    with Journal(path) as j:
        gid = j.start_game(_eye_game().setup, "two apps")
        j.record_call(gid, Entry("Grubic: Movement 1", 0.5))
    return gid


# -- one companion per data folder ----------------------------------------------------------

def test_a_second_companion_says_who_holds_the_folder_and_takes_no_call(
        tmp_path: Path) -> None:
    path = tmp_path / "data" / "journal.sqlite3"
    gid = _journal_with_game(path)
    first = Child(path)
    try:
        assert first.said["readonly"] == "" and first.said["notices"] == []
        journal, notices = startfiles.open_journal(path)
        with journal:
            why = journal.readonly
            assert f"process {first.said['pid']}" in why and str(path.parent) in why
            assert why in notices
            # the games are there to see ...
            assert [g.id for g in journal.unfinished()] == [gid]
            session = TableSession.resume(journal, gid)
            # ... but a call is refused, in words, and nothing is written
            assert session.try_call("Riparian: Movement 2") is None
            assert f"process {first.said['pid']}" in session.message
            assert len(journal.load(gid).entries) == 1
            with pytest.raises(store.ReadOnly):
                journal.start_game(_eye_game().setup)
    finally:
        first.close()
    # the first one gone, the folder is free again
    journal, notices = startfiles.open_journal(path)
    with journal:
        assert journal.readonly == "" and notices == []


def test_two_companions_resume_the_same_game_and_only_the_first_writes(
        tmp_path: Path) -> None:
    """The campaign's case: both apps resume the same game and each makes a different call.
    Before the lock both were journaled and the game no longer replayed."""
    path = tmp_path / "data" / "journal.sqlite3"
    gid = _journal_with_game(path)
    first = Child(path, "Riparian: Movement 2")
    try:
        second = Child(path, "Riparian: Movement 3")
        try:
            assert first.said["message"] == "" and first.said["calls"] == 2
            assert f"process {first.said['pid']}" in second.said["message"]
            assert second.said["calls"] == 2  # it sees the first one's call, adds none
        finally:
            second.close()
    finally:
        first.close()
    with Journal(path) as j:
        assert [e.call for e in j.load(gid).entries] == ["Grubic: Movement 1",
                                                        "Riparian: Movement 2"]
        j.resume(gid)  # replays


def test_a_killed_companion_leaves_no_stale_lock(tmp_path: Path) -> None:
    path = tmp_path / "data" / "journal.sqlite3"
    _journal_with_game(path)
    first = Child(path)
    first.proc.send_signal(signal.SIGKILL)
    first.proc.wait(timeout=DEADLINE)
    journal, notices = startfiles.open_journal(path)
    with journal:
        assert journal.readonly == "" and notices == []
        lock = path.parent / store.LOCK_NAME
        assert store.lock_holder(lock) == os.getpid()


def test_a_lock_file_that_is_a_fifo_is_said_not_opened(tmp_path: Path) -> None:
    path = tmp_path / "data" / "journal.sqlite3"
    gid = _journal_with_game(path)
    os.mkfifo(path.parent / store.LOCK_NAME)
    journal, _notices = startfiles.open_journal(path)
    with journal:
        assert "not a plain file" in journal.readonly and journal.unfinished()[0].id == gid


def test_a_journal_that_is_a_link_is_locked_where_it_leads(tmp_path: Path) -> None:
    """Issue 42: a data folder whose journal is a link to another folder's journal took only
    its own folder's lock: two writers on one file, and the game no longer replayed."""
    path = tmp_path / "data" / "journal.sqlite3"
    gid = _journal_with_game(path)
    other = tmp_path / "other" / "journal.sqlite3"
    other.parent.mkdir()
    other.symlink_to(path)
    first = Child(path, "Riparian: Movement 2")
    try:
        second = Child(other, "Riparian: Movement 3")
        try:
            assert first.said["message"] == "" and first.said["calls"] == 2
            said = second.said["readonly"]
            assert f"The journal {other} is a link to {path}" in said
            assert f"process {first.said['pid']}" in said
            assert second.said["calls"] == 2  # it reads the first one's call, adds none
        finally:
            second.close()
    finally:
        first.close()
    # the other way round: the link's companion first, the folder it leads to is held
    first = Child(other, "Riparian: Movement 3")
    try:
        second = Child(path)
        try:
            assert first.said["readonly"] == "" and first.said["calls"] == 3
            assert f"process {first.said['pid']}" in second.said["readonly"]
        finally:
            second.close()
    finally:
        first.close()
    with Journal(path) as j:
        assert [e.call for e in j.load(gid).entries] == [
            "Grubic: Movement 1", "Riparian: Movement 2", "Riparian: Movement 3"]
        j.resume(gid)  # replays


def test_a_journal_with_two_names_is_not_written(tmp_path: Path) -> None:
    path = tmp_path / "data" / "journal.sqlite3"
    gid = _journal_with_game(path)
    (tmp_path / "other").mkdir()
    os.link(path, tmp_path / "other" / "journal.sqlite3")
    journal, notices = startfiles.open_journal(tmp_path / "other" / "journal.sqlite3")
    with journal:
        assert "has 2 names (hard links)" in journal.readonly and notices
        assert journal.unfinished()[0].id == gid  # still shown


def test_a_dangling_link_where_the_journal_goes_is_set_aside_never_written_through(
        tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    (data / "journal.sqlite3").symlink_to(tmp_path / "elsewhere.sqlite3")
    journal, notices = startfiles.open_journal(data / "journal.sqlite3")
    with journal:
        assert journal.readonly == ""
        assert any("is a link to" in n and "not a journal file" in n for n in notices)
    assert not (tmp_path / "elsewhere.sqlite3").exists()
    assert (data / "journal.sqlite3").is_file() and not (data / "journal.sqlite3").is_symlink()
    assert [p for p in data.glob("journal.sqlite3.damaged-*") if p.is_symlink()]


# -- a read-only card ---------------------------------------------------------------------

@pytest.fixture()
def read_only(tmp_path: Path) -> Iterator[Path]:
    """A data folder holding a journal with one unfinished game, then made read-only: a real
    read-only mount when this process may mount (root), else a folder it may not write."""
    folder = tmp_path / "card"
    folder.mkdir()
    mounted = False
    if os.geteuid() == 0:
        mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs",
                                  str(folder)], capture_output=True).returncode == 0
        if not mounted:
            pytest.skip("root, but no tmpfs can be mounted here: no read-only card to test")
    _journal_with_game(folder / "journal.sqlite3")
    if mounted:
        subprocess.run(["mount", "-o", "remount,ro", str(folder)], check=True)
    else:
        folder.chmod(0o555)
    try:
        yield folder
    finally:
        if mounted:
            subprocess.run(["umount", "-l", str(folder)], check=False)
        else:
            folder.chmod(0o755)


def test_a_read_only_card_starts_shows_its_games_and_takes_no_call(read_only: Path) -> None:
    path = read_only / "journal.sqlite3"
    before = sorted(p.name for p in read_only.iterdir())
    journal, notices = startfiles.open_journal(path)
    with journal:
        assert "read-only" in journal.readonly and str(read_only) in journal.readonly
        assert any("read-only" in n for n in notices)
        games = journal.unfinished()
        assert len(games) == 1 and games[0].entries[0].call == "Grubic: Movement 1"
        session = TableSession.resume(journal, games[0].id)
        assert session.try_call("Riparian: Movement 2") is None
        assert "read-only" in session.message
        with History(journal) as history:  # the history opens read-only too
            assert history.journal.readonly
    assert sorted(p.name for p in read_only.iterdir()) == before  # nothing moved aside


def test_doctor_does_not_say_ok_on_a_read_only_card(read_only: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    from companion.commands.doctor import app_checks

    monkeypatch.setenv("COMPANION_DATA_DIR", str(read_only))
    monkeypatch.setenv("COMPANION_CONFIG_DIR", str(read_only.parent / "cfg"))
    checks, _ = app_checks()
    journal = [c for c in checks if c.area == "journal"]
    assert journal and journal[0].verdict == "fail" and "read-only" in journal[0].finding


# -- a full card ----------------------------------------------------------------------------

def _fill_until_refused(journal: Journal, gid: int) -> tuple[TableSession[Any], int, str]:
    session = TableSession.resume(journal, gid)
    calls = ("Riparian: Movement 2", "Banksia: Movement 3", "Grubic: Movement 3",
             "Riparian: Movement 1", "Banksia: Movement 1", "Grubic: Movement 1")
    for n in range(100_000):
        if n % 2 == 0:
            if session.try_call(calls[(n // 2) % len(calls)]) is None:
                return session, n, session.message
            session.undo()
        else:
            session.redo()
        if "full" in session.message:
            return session, n, session.message
    raise AssertionError("the card never filled")


def test_a_full_journal_refuses_the_call_in_plain_words_and_loses_nothing(
        tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    gid = _journal_with_game(path)
    with Journal(path) as journal:
        journal.db.execute("PRAGMA wal_autocheckpoint=0")
        pages = journal.pragma("page_count")
        journal.db.execute(f"PRAGMA max_page_count={pages + 2}")  # as good as a full card
        journal.db.execute("PRAGMA cache_size=1")
        # a big setup row per game fills the pages quickly
        big = rules.Setup("eye-for-an-eye", ("Ana", "Ben", "Cy"), {"rounds": 20}, 5)
        with pytest.raises(store.DiskFull, match="the SD card is full"):
            for _ in range(1000):
                journal.start_game(big, "x" * 3000)
        session, _, message = _fill_until_refused(journal, gid)
        assert message.startswith("the SD card is full") or "SD card is full" in message
        assert "cannot rollback" not in message
        live = session.game.history
    with Journal(path) as again:  # every acknowledged call is there, and it replays
        assert again.resume(gid).history == live


def test_a_really_full_filesystem_refuses_the_call(tmp_path: Path) -> None:
    if os.geteuid() != 0:
        pytest.skip("needs root to mount a small filesystem")
    folder = tmp_path / "small"
    folder.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", str(folder)],
                      capture_output=True).returncode != 0:
        pytest.skip("no tmpfs can be mounted here")
    try:
        path = folder / "journal.sqlite3"
        gid = _journal_with_game(path)
        with Journal(path) as journal:
            journal.db.execute("PRAGMA wal_autocheckpoint=0")  # the log grows until full
            session, _, message = _fill_until_refused(journal, gid)
            assert "the SD card is full" in message and "cannot rollback" not in message
            live = session.game.history
        (folder / "ballast").unlink(missing_ok=True)
        with Journal(path, readonly="check") as again:
            assert again.resume(gid).history == live
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)


# -- odd files at start ----------------------------------------------------------------------

def test_a_data_folder_that_is_a_file_still_starts(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    folder.write_text("not a folder", encoding="utf-8")
    journal, notices = startfiles.open_journal(folder / "journal.sqlite3")
    with journal:
        assert journal.unfinished() == [] and journal.readonly
        with pytest.raises(store.ReadOnly, match="is a file, not a folder"):
            journal.start_game(_eye_game().setup)
    assert any(str(folder) in n and "is a file" in n for n in notices)


@pytest.mark.parametrize("what", ["folder", "fifo"])
def test_an_odd_file_where_the_log_should_be_is_moved_and_the_games_kept(
        tmp_path: Path, what: str) -> None:
    path = tmp_path / "journal.sqlite3"
    gid = _journal_with_game(path)
    wal = Path(str(path) + "-wal")
    wal.unlink(missing_ok=True)
    if what == "folder":
        wal.mkdir()
    else:
        os.mkfifo(wal)
    journal, notices = startfiles.open_journal(path)
    with journal:
        assert [g.id for g in journal.unfinished()] == [gid]  # a healthy journal is kept
    assert any("WAL file" in n and str(wal) in n for n in notices)
    assert not list(tmp_path.glob("journal.sqlite3.damaged-*[!l]"))  # the journal itself stays


def test_a_clock_row_whose_round_is_not_a_number_does_not_stop_the_start(
        tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    gid = _journal_with_game(path)
    with Journal(path) as j:
        j.save_clock(gid, 1, 3.0, True)
        j.db.execute("UPDATE clock SET round='three' WHERE game_id=?", (gid,))
    journal, _notices = startfiles.open_journal(path)
    with journal:
        assert [g.id for g in journal.unfinished()] == [gid]
        assert journal.load(gid).clock is None  # the clock starts again; the game stands
        TableSession.resume(journal, gid)


def test_a_game_ended_by_its_last_call_is_not_offered_for_resume(tmp_path: Path) -> None:
    """The power went after the call that ended the game was journaled, before the game was
    marked finished."""
    path = tmp_path / "journal.sqlite3"
    game = rules.new_game("dice-ocalypse", ["Ana", "Ben"], seed=3)
    calls = _calls_to_the_end(game)
    with Journal(path) as j:
        gid = j.start_game(game.setup)
        for entry in calls:
            j.record_call(gid, entry)
        assert j.resume(gid).is_over
        assert [g.id for g in j.unfinished()] == [gid]  # as the power cut left it
    journal, _ = startfiles.open_journal(path)
    with journal:
        assert journal.unfinished() == []
        assert journal.load(gid).finished is not None


def _calls_to_the_end(game: rules.Game[Any]) -> list[Entry]:
    """Legal calls that end ``game`` (the first legal call of each prompt)."""
    import random

    rng = random.Random(7)
    for _ in range(5000):
        if game.is_over:
            return list(game.history)
        game.apply(game.random_call(rng))
    raise AssertionError("no ending found")


@pytest.mark.parametrize("name", ["settings.toml", "config.toml"])
@pytest.mark.parametrize("kind", ["fifo", "zero"])
def test_a_special_settings_file_is_said_never_read_endlessly(
        tmp_path: Path, name: str, kind: str) -> None:
    """Read in a child process with a deadline: before, a FIFO hung the start for ever and
    /dev/zero ate the memory."""
    cfg = tmp_path / "cfg"
    cfg.mkdir()
    target = cfg / name
    if kind == "fifo":
        os.mkfifo(target)
    else:
        target.symlink_to("/dev/zero")
    code = ("from companion import startfiles; import json; "
            "s, a = startfiles.read_settings(); c, b = startfiles.read_config(); "
            "print(json.dumps([a, b]))")
    env = {**os.environ, "COMPANION_CONFIG_DIR": str(cfg),
           "COMPANION_DATA_DIR": str(tmp_path / "data")}
    env.pop("COMPANION_CONFIG", None)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, timeout=DEADLINE, cwd=HERE.parents[1])
    assert done.returncode == 0, done.stderr
    notes = " ".join(json.loads(done.stdout))
    assert str(target) in notes
    assert ("FIFO" in notes) if kind == "fifo" else ("a device" in notes)
    if name == "config.toml":  # the players' own file: left where it is
        assert target.exists() or target.is_symlink()
    else:  # the app's own: moved aside (the link itself, not /dev/zero), a new one written
        assert len(list(cfg.glob("settings.toml.damaged-*"))) == 1


# -- versions --------------------------------------------------------------------------------

def _kept_journal(kept: Path, version: int, tmp_path: Path) -> Path:
    """A copy of a kept journal file, checked to be of schema ``version``."""
    path = tmp_path / "journal.sqlite3"
    shutil.copy(kept, path)
    raw = sqlite3.connect(path)
    assert raw.execute("PRAGMA user_version").fetchone()[0] == version
    raw.close()
    return path


def test_a_journal_from_before_the_store_opens_and_migrates(tmp_path: Path) -> None:
    path = _kept_journal(OLD_JOURNAL, 0, tmp_path)
    with Journal(path) as j:
        assert j.pragma("user_version") == store.SCHEMA_VERSION
        assert j.pragma("journal_mode") == "wal" and j.pragma("synchronous") == 2  # FULL
        games = j.games()
        assert len(games) == 2 and games[1].finished is not None
        unfinished = j.unfinished()
        assert len(unfinished) == 1 and unfinished[0].entries[0].call == "Ana: Roll 6"
        assert unfinished[0].clock is not None and unfinished[0].clock.elapsed == 2.0
        j.resume(unfinished[0].id)
        j.record_call(unfinished[0].id, Entry("Ana: Roll 5"))  # and it takes calls
    with History(path) as h:
        h.refresh()
        assert h.version() >= 1
    with RollLog(path) as log:
        assert log.db.execute("SELECT count(*) FROM roll_log").fetchone()[0] == 1


def test_a_journal_of_schema_2_opens_and_migrates(tmp_path: Path) -> None:
    path = _kept_journal(SCHEMA_2_JOURNAL, 2, tmp_path)
    with Journal(path) as j:
        assert j.pragma("user_version") == store.SCHEMA_VERSION
        games = j.games()
        assert len(games) == 2 and games[1].finished is not None
        unfinished = j.unfinished()
        assert len(unfinished) == 1
        assert [e.call for e in unfinished[0].entries] == ["Grubic: Movement 1",
                                                           "Riparian: Movement 2"]
        j.resume(unfinished[0].id)
        j.record_call(unfinished[0].id, Entry("Grubic: Movement 1", 3.0))  # and it takes calls
    with History(path) as h:
        h.refresh()
        assert len(h.games()) == 2
    with RollLog(path) as log:
        assert log.db.execute("SELECT count(*) FROM roll_log").fetchone()[0] == 1
    with TournamentStore(path) as director:
        tournament, seq = director.load("ab12")
        assert tournament.name == "Club night" and len(tournament.entrants()) == 4 and seq >= 5
    with TableStore(path) as table:
        assert [m.tournament for m in table.memberships()] == ["cd34"]
        assert [(i.report_id, i.payload) for i in table.pending()] == [("r1", b'{"x": 1}')]


def test_the_tournament_tables_are_opened_and_migrated_by_the_one_store(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    with Journal(path) as j:  # one schema: the journal's opening makes every table
        tables = {r[0] for r in j.db.execute("SELECT name FROM sqlite_master")}
        assert {"tournament_list", "tournament_events", "tournament_membership",
                "tournament_outbox", "tournament_reports"} <= tables
    fresh = tmp_path / "tournament.sqlite3"
    for kind in (TournamentStore, TableStore):
        with kind(fresh) as tournaments:  # the pragmas and the version, set the one way
            db = tournaments.db
            assert db.execute("PRAGMA user_version").fetchone()[0] == store.SCHEMA_VERSION
            assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
            assert db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
            assert db.execute("PRAGMA foreign_keys").fetchone()[0] == 1


def test_only_the_store_opens_sqlite() -> None:
    """Every module reaches the journal's file through companion.store: no other opens it."""
    import ast

    root = HERE.parents[1]
    openers = []
    for package in ("companion", "hardware", "calibration", "vision", "rules"):
        for source in sorted((root / package).rglob("*.py")):
            tree = ast.parse(source.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                opens = (isinstance(node, ast.Attribute) and node.attr == "connect"
                         and isinstance(node.value, ast.Name) and node.value.id == "sqlite3")
                opens |= (isinstance(node, ast.ImportFrom) and node.module == "sqlite3"
                          and any(a.name == "connect" for a in node.names))
                if opens:
                    openers.append(f"{source.relative_to(root)}:{node.lineno}")
    assert openers and all(o.startswith("companion/store/") for o in openers), openers


def test_doctor_finds_secrets_in_a_journal_that_holds_a_tournament_only(tmp_path: Path) -> None:
    """Every journal has the tournament tables now; only one that uses them holds secrets."""
    path = tmp_path / "data" / "journal.sqlite3"
    _journal_with_game(path)
    os.chmod(path, 0o644)
    assert tournament_store.readable_secrets(path, tmp_path / "none") == []
    with TableStore(path) as table:
        table.join("cd34", "cd34-1-KQ7MX2P9@10.0.0.5")
    os.chmod(path, 0o644)
    assert tournament_store.readable_secrets(path, tmp_path / "none") == [path]


def test_a_full_card_refuses_a_tournament_report_in_plain_words_and_keeps_the_others(
        tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    with TableStore(path) as table:
        table.join("cd34", "cd34-1-KQ7MX2P9@10.0.0.5")
        table.db.execute("PRAGMA wal_autocheckpoint=0")
        pages = table.db.execute("PRAGMA page_count").fetchone()[0]
        table.db.execute(f"PRAGMA max_page_count={pages + 2}")  # as good as a full card
        table.db.execute("PRAGMA cache_size=1")
        queued = []
        with pytest.raises(tournament_store.StoreError, match="the SD card is full") as refused:
            for i in range(1000):
                table.queue(f"r{i}", "cd34", 1, 1, b"x" * 3000)
                queued.append(f"r{i}")
        assert "cannot rollback" not in str(refused.value) and queued
    with TableStore(path) as again:  # every report that was taken is there, no other
        assert [i.report_id for i in again.pending()] == queued


def test_a_journal_from_a_newer_version_is_refused_in_words(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    _journal_with_game(path)
    raw = sqlite3.connect(path)
    raw.execute(f"PRAGMA user_version={store.SCHEMA_VERSION + 1}")
    raw.close()
    with pytest.raises(store.StoreError, match="newer version"):
        Journal(path)


@pytest.fixture()
def open_tmp() -> Iterator[Path]:
    """A folder another user may enter (pytest's own tmp_path is its owner's only)."""
    import tempfile

    folder = Path(tempfile.mkdtemp(prefix="companion-store-"))
    folder.chmod(0o755)
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def test_a_journal_file_that_cannot_be_written_is_opened_read_only(open_tmp: Path) -> None:
    """A journal file the app's user may not write (a copy from another user, a card's
    permissions gone wrong): said at start, games viewable, calls refused in words. Run as
    the `nobody` user when the tests run as root (root may write any file)."""
    tmp_path = open_tmp
    folder = tmp_path / "data"
    path = folder / "journal.sqlite3"
    _journal_with_game(path)
    path.chmod(0o444)
    command = [sys.executable, "-c",
               "import json, sys; sys.path.insert(0, sys.argv[2]); from pathlib import Path; "
               "from companion import startfiles; from companion.session import TableSession; "
               "j, n = startfiles.open_journal(Path(sys.argv[1])); g = j.unfinished(); "
               "s = TableSession.resume(j, g[0].id); r = s.try_call('Riparian: Movement 2'); "
               "print(json.dumps([j.readonly, n, len(g), r is None, s.message]))",
               str(path), str(HERE.parents[1])]
    if os.geteuid() == 0:
        # nobody may not enter the clone: the code runs from a copy it can read
        copy = readable_copy(tmp_path, ["companion.startfiles", "companion.session",
                                        "platformdirs"])
        command = as_nobody([*stdlib_only_python(), *command[1:-1], str(copy)])
        for p in (folder, *folder.iterdir()):
            os.chown(p, NOBODY, NOBODY)
    done = subprocess.run(command, capture_output=True, text=True, timeout=DEADLINE,
                          env={**os.environ, "HOME": str(tmp_path)})
    assert done.returncode == 0, done.stderr
    readonly, notices, games, refused, message = json.loads(done.stdout)
    assert "cannot be written" in readonly and readonly in notices
    assert games == 1 and refused and "cannot be written" in message


def test_a_data_folder_the_app_may_not_enter_still_starts(tmp_path: Path,
                                                          open_tmp: Path) -> None:
    """A data folder below a folder the app's user may not enter: a notice, not a
    PermissionError from looking at it (found running the test above as another user)."""
    closed = tmp_path / "closed"
    closed.mkdir(mode=0o700)
    command = [sys.executable, "-c",
               "import json, sys; sys.path.insert(0, sys.argv[2]); from pathlib import Path; "
               "from companion import startfiles; "
               "j, n = startfiles.open_journal(Path(sys.argv[1])); "
               "print(json.dumps([j.readonly, n, len(j.unfinished())]))",
               str(closed / "data" / "journal.sqlite3"), str(HERE.parents[1])]
    if os.geteuid() == 0:
        copy = readable_copy(open_tmp, ["companion.startfiles", "platformdirs"])
        command = as_nobody([*stdlib_only_python(), *command[1:-1], str(copy)])
    else:
        closed.chmod(0o000)
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=DEADLINE,
                              env={**os.environ, "HOME": "/tmp"}, cwd="/")
    finally:
        closed.chmod(0o700)
    assert done.returncode == 0, done.stderr
    readonly, notices, games = json.loads(done.stdout)
    assert readonly and games == 0 and "cannot be used" in notices[0]
