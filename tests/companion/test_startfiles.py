"""Nothing on disk can stop the app: every file read at start goes through one error path.

Each damaged file gives a notice naming the file and what was wrong; a file the app writes
(settings, journal) is kept aside, a file the players write (config.toml, profiles) is left as
it is; the app goes on with the defaults. A journal game that cannot be replayed is marked and
exported; a garbled or cut write-ahead log and an emptied journal are found and said.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import rules
from companion import settings as settings_mod
from companion import startfiles
from companion.journal import Journal, wal_problem
from rules import Entry


@pytest.fixture()
def folders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("COMPANION_CONFIG_DIR", str(tmp_path / "cfg"))
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.delenv("COMPANION_CONFIG", raising=False)
    (tmp_path / "cfg").mkdir()
    (tmp_path / "data").mkdir()
    return tmp_path


@pytest.mark.parametrize(("content", "why"), [
    (b"\xff\xfe not utf-8 \x80", "not UTF-8"),
    (b"a = " + b"[" * 5000 + b"]" * 5000, "nested too deeply"),
    (b"volume = 'max'", "volume: expected a number, got 'max'"),
    (b"[broken", "not valid TOML"),
    (None, "is a folder"),
])
def test_a_damaged_settings_file_is_kept_aside_and_the_defaults_used(
        folders: Path, content: bytes | None, why: str) -> None:
    path = folders / "cfg" / "settings.toml"
    if content is None:
        path.mkdir()
    else:
        path.write_bytes(content)
    s, note = startfiles.read_settings()
    assert s == settings_mod.Settings()
    assert str(path) in note and why in note and "kept as settings.toml.damaged-" in note
    aside = list(path.parent.glob("settings.toml.damaged-*"))
    assert len(aside) == 1 and not path.exists()
    if content is not None:
        assert aside[0].read_bytes() == content  # kept, never deleted


@pytest.mark.parametrize(("content", "why"), [
    (b"\xff\xfe\x00", "not UTF-8"),
    (b"x = " + b"{a = " * 3000 + b"1" + b"}" * 3000, "nested too deeply"),
    (b"[camera\n", "not valid TOML"),
    (None, "a folder, not a file"),
])
def test_a_damaged_config_file_is_left_as_it_is(folders: Path, content: bytes | None,
                                                why: str) -> None:
    path = folders / "cfg" / "config.toml"
    if content is None:
        path.mkdir()
    else:
        path.write_bytes(content)
    config, note = startfiles.read_config()
    assert config == {} and str(path) in note and why in note and "left as it is" in note
    assert path.exists()  # the players' own file: untouched


def test_an_emptied_journal_is_said_and_set_aside(folders: Path) -> None:
    path = folders / "data" / "journal.sqlite3"
    path.write_bytes(b"")
    journal, notices = startfiles.open_journal()
    with journal:
        assert journal.unfinished() == []
    assert any("empty (0 bytes)" in n and "set aside" in n for n in notices)
    assert list(path.parent.glob("journal.sqlite3.damaged-*"))


def _journal_with_calls(path: Path, calls: int) -> int:
    game = rules.new_game("dice-ocalypse", ["Ana", "Ben"], seed=3)
    with Journal(path) as j:
        gid = j.start_game(game.setup, "wal test")
        j.db.execute("PRAGMA wal_autocheckpoint=0")  # keep every call in the log
        for n in range(calls):
            j.record_call(gid, Entry("Ana: Roll 6" if n % 2 == 0 else "Ben: Roll 2"))
        # leave the WAL behind as a power cut would: copy the files before the clean close
        import shutil
        shutil.copy(str(path) + "-wal", str(path) + "-wal.keep")
        shutil.copy(path, str(path) + ".keep")
    Path(str(path) + ".keep").replace(path)
    Path(str(path) + "-wal.keep").replace(str(path) + "-wal")
    return gid


def test_a_garbled_write_ahead_log_is_found_not_silently_skipped(folders: Path) -> None:
    path = folders / "data" / "journal.sqlite3"
    _journal_with_calls(path, 40)
    wal = Path(str(path) + "-wal")
    assert wal_problem(wal) == ""  # a log SQLite reads whole
    data = bytearray(wal.read_bytes())
    data[len(data) // 3] ^= 0xFF  # one byte flipped a third of the way in
    wal.write_bytes(bytes(data))
    problem = wal_problem(wal)
    assert "damaged at entry" in problem and "cannot be read" in problem
    journal, notices = startfiles.open_journal()
    journal.close()
    assert any("log" in n and "a copy is kept" in n for n in notices)
    assert list(path.parent.glob("journal.sqlite3.damaged-*-wal"))


def test_a_log_whose_last_entry_was_being_written_is_not_a_problem(folders: Path) -> None:
    """What a power cut during a save leaves (the last entry cut short, SQLite's normal
    state after a crash) loses no acknowledged call: no warning, no `.damaged` copy."""
    path = folders / "data" / "journal.sqlite3"
    gid = _journal_with_calls(path, 30)
    wal = Path(str(path) + "-wal")
    page = 4096 + 24
    data = wal.read_bytes()
    assert (len(data) - 32) % page == 0
    # a half-written entry after the last saved call (what a power cut during a save leaves)
    wal.write_bytes(data + data[-page:-page // 2])
    assert wal_problem(wal) == ""
    journal, notices = startfiles.open_journal()
    with journal:
        assert len(journal.load(gid).entries) == 30  # every acknowledged call
    assert not any("-wal" in n for n in notices)  # (its calls are no game: said apart)
    assert not list(path.parent.glob("*.damaged-*"))


def test_a_journal_game_that_cannot_be_replayed_is_marked_exported_and_not_offered(
        folders: Path) -> None:
    path = folders / "data" / "journal.sqlite3"
    game = rules.new_game("dice-ocalypse", ["Ana", "Ben"], seed=3)
    with Journal(path) as j:
        good = j.start_game(game.setup, "good")
        j.record_call(good, Entry("Ana: Roll 6"))
        bad_call = j.start_game(game.setup, "bad call")
        j.record_call(bad_call, Entry("Ana: Roll 6"))
        j.record_call(bad_call, Entry("Ana: Frobnicate"))
        not_json = j.start_game(game.setup, "not json")
        j.db.execute("UPDATE games SET setup='{not json' WHERE id=?", (not_json,))
        unknown = j.start_game(game.setup, "unknown game")
        j.db.execute("UPDATE games SET setup=? WHERE id=?",
                     (json.dumps({**game.setup.to_json(), "game": "chess"}), unknown))
    journal, notices = startfiles.open_journal()
    with journal:
        assert [r.id for r in journal.unfinished()] == [good]  # the others are not offered
        assert journal.load(bad_call).problem is not None
    said = "\n".join(notices)
    for gid in (bad_call, not_json, unknown):
        assert f"Game {gid} cannot be resumed" in said
    assert "'Ana: Frobnicate'" in said and "unknown game 'chess'" in said
    exported = folders / "data" / "cannot-resume" / f"game-{bad_call}.game"
    assert exported.is_file() and "Ana: Roll 6" in exported.read_text(encoding="utf-8")
    assert (folders / "data" / "cannot-resume" / f"game-{not_json}.txt").is_file()
    journal, again = startfiles.open_journal()  # said once: not again at the next start
    journal.close()
    assert again == []


def test_a_damaged_calibration_profile_is_said_and_left(folders: Path) -> None:
    from companion.paths import profile_store

    store = profile_store()
    store.profiles_dir.mkdir(parents=True)
    (store.profiles_dir / "den.json").write_text('{"format": "nope"', encoding="utf-8")
    (store.folder / "current-profile").write_text("den\n", encoding="utf-8")

    def read(_: Path) -> object:
        return store.current()

    profile, note = startfiles.read_start_file(store.folder, "current calibration profile",
                                               read, None, owned=False)
    assert profile is None and "den.json" in note and "left as it is" in note
    assert (store.profiles_dir / "den.json").exists()


def test_a_locked_or_unreadable_journal_still_opens(folders: Path) -> None:
    path = folders / "data" / "journal.sqlite3"
    path.mkdir()  # a folder where the journal should be
    journal, notices = startfiles.open_journal()
    with journal:
        assert journal.unfinished() == []
        journal.start_game(rules.new_game("dice-ocalypse", ["Ana", "Ben"]).setup)
    assert any("it is a folder" in n for n in notices)
    assert path.is_file() and list(path.parent.glob("journal.sqlite3.damaged-*"))
