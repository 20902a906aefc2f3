"""The journal: WAL + FULL sync, undo/redo as the live list, resume, export, and kill -9."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

import pytest

import rules
from companion import paths
from companion.journal import Journal, JournalError
from rules import Entry, parse_game_file


def _play(journal: Journal, gid: int, game: rules.Game, text: str, at: float) -> None:
    game.apply(text, at)
    journal.record_call(gid, game.history[-1])


def test_pragmas_are_wal_and_full(tmp_path: Path) -> None:
    with Journal(tmp_path / "j.sqlite3") as j:
        assert j.pragma("journal_mode") == "wal"
        assert j.pragma("synchronous") == 2  # FULL


def test_a_damaged_journal_is_set_aside_and_a_sound_one_is_kept(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    game = rules.new_game("eye-for-an-eye", ["Ana", "Ben", "Cy"], seed=2)
    journal, problem = Journal.open_or_set_aside(path)  # new: nothing to say
    with journal:
        gid = journal.start_game(game.setup, "friday")
    journal, problem = Journal.open_or_set_aside(path)  # sound: opened as it is
    with journal:
        assert problem == "" and [g.id for g in journal.unfinished()] == [gid]
    junk = b"SQLite format 3\x00" + bytes(4000)  # a header, then a wiped card
    path.write_bytes(junk)
    Path(str(path) + "-wal").write_bytes(b"half a page")
    journal, problem = Journal.open_or_set_aside(path)
    with journal:
        assert journal.unfinished() == [] and journal.pragma("journal_mode") == "wal"
        journal.start_game(game.setup, "saturday")  # the new one takes calls
    aside = sorted(tmp_path.glob("j.sqlite3.damaged-*"))
    # the file is kept; its 11-byte log held no entry (no complete header): SQLite drops it
    assert "" in {p.name.removeprefix(aside[0].name) for p in aside}
    assert aside[0].read_bytes() == junk  # kept, never deleted
    assert f"set aside as {aside[0].name}" in problem and str(path) in problem


def test_resume_equals_live_game_with_undo_and_redo(tmp_path: Path) -> None:
    game = rules.new_game("eye-for-an-eye", ["Ana", "Ben", "Cy"], seed=2)
    with Journal(tmp_path / "j.sqlite3") as j:
        gid = j.start_game(game.setup, "friday")
        _play(j, gid, game, "Grubic: Spear Thrust 3 on Riparian", 1.5)
        _play(j, gid, game, "Riparian: Parry 1", 2.25)
        _play(j, gid, game, "Banksia: Movement 2", 3.0)
        game.undo()
        assert j.record_undo(gid) == Entry("Banksia: Movement 2", 3.0)
        game.undo()
        j.record_undo(gid)
        game.redo()
        assert j.record_redo(gid).call == "Riparian: Parry 1"
        resumed = j.resume(gid)
        assert resumed.snapshot() == game.snapshot()
        assert resumed.history == game.history
        assert resumed.can_redo and resumed.redo() == game.redo()
        j.record_redo(gid)
        assert resumed.snapshot() == game.snapshot() == j.resume(gid).snapshot()
        # A new call forgets what was taken back, in the journal as in the game.
        game.undo()
        j.record_undo(gid)
        _play(j, gid, game, "Cy: Movement 1", 4.0)
        record = j.load(gid)
        assert record.undone == ()
        assert record.entries == game.history
        assert not j.resume(gid).can_redo


def test_unfinished_and_finish(tmp_path: Path) -> None:
    setup = rules.new_game("eye-for-an-eye", ["Ana", "Ben"]).setup
    with Journal(tmp_path / "j.sqlite3") as j:
        a = j.start_game(setup, "a")
        b = j.start_game(setup, "b")
        assert [g.id for g in j.unfinished()] == [b, a]
        j.finish(a)
        assert [g.title for g in j.unfinished()] == ["b"]
        with pytest.raises(JournalError, match=f"game {a}: already finished"):
            j.record_call(a, Entry("Grubic: Movement 1"))
        with pytest.raises(JournalError, match="game 99: not in the journal"):
            j.load(99)
        with pytest.raises(JournalError, match=f"game {b}: undo with no call"):
            j.record_undo(b)


def test_clock_is_saved(tmp_path: Path) -> None:
    setup = rules.new_game("eye-for-an-eye", ["Ana", "Ben"]).setup
    with Journal(tmp_path / "j.sqlite3") as j:
        gid = j.start_game(setup)
        assert j.load(gid).clock is None
        j.save_clock(gid, 1, 12.5, False)
        j.save_clock(gid, 2, 3.25, True)
        clock = j.load(gid).clock
        assert clock is not None and (clock.round, clock.elapsed, clock.paused) == (2, 3.25, True)


def test_export_is_a_game_file_that_replays(tmp_path: Path) -> None:
    game = rules.new_game("eye-for-an-eye", ["Ana", "Ben", "Cy"], {"rounds": 1}, seed=9)
    with Journal(tmp_path / "j.sqlite3") as j:
        gid = j.start_game(game.setup, "export me")
        for t, text in enumerate(["Grubic: Unblockable 15 on Banksia",
                                  "Riparian: Unblockable 15 on Grubic"]):
            _play(j, gid, game, text, t * 1.125)
        text = j.export(gid)
    assert text.startswith("# export me\n")
    parsed = parse_game_file(text)
    replayed = parsed.play()
    assert replayed.snapshot() == game.snapshot()
    assert replayed.is_over and replayed.standings() == game.standings()


def test_data_dir_override(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "data"))
    assert paths.journal_path() == tmp_path / "data" / "journal.sqlite3"
    with Journal(paths.journal_path()):  # the folder is made when the journal is first opened
        assert (tmp_path / "data").is_dir()


def test_kill_dash_nine_mid_game_loses_nothing_acknowledged(tmp_path: Path) -> None:
    db = tmp_path / "j.sqlite3"
    child = subprocess.Popen([sys.executable, str(Path(__file__).parents[1] / "journal_child.py"),
                              str(db)], stdout=subprocess.PIPE, text=True)
    assert child.stdout is not None
    gid = int(child.stdout.readline().split()[1])
    acked_live = -1
    writes = 0
    for line in child.stdout:
        _, n, live = line.split()
        writes, acked_live = int(n), int(live)
        if writes >= 40:
            break
    child.send_signal(signal.SIGKILL)
    child.wait()
    assert child.returncode == -signal.SIGKILL
    with Journal(db) as j:
        record = j.load(gid)
        resumed = j.resume(gid)
    # Every acknowledged write is on disk; the child may have written a little more.
    assert len(record.entries) + len(record.undone) >= acked_live
    assert resumed.history == record.entries
    assert rules.replay(record.setup, record.entries).snapshot() == resumed.snapshot()
    assert len(resumed.history) >= 20


def test_the_last_options_of_a_game_are_its_newest_games(tmp_path: Path) -> None:
    """What the start screen offers again for a game: the options of its newest game kept."""
    with Journal(tmp_path / "j.sqlite3") as j:
        assert j.last_options("dice-forge") is None
        j.start_game(rules.Setup("dice-forge", ("Ana", "Ben"), {"module": "titans"}, 1))
        j.start_game(rules.Setup("eye-for-an-eye", ("Ana", "Ben"), {"round_seconds": 120.0}, 2))
        j.start_game(rules.Setup("dice-forge", ("Ana", "Ben"), {"module": "goddess"}, 3))
        j.start_game(rules.Setup("occulites", ("Ana", "Ben"), {}, 4))
        assert j.last_options("dice-forge") == {"module": "goddess"}
        assert j.last_options("eye-for-an-eye") == {"round_seconds": 120.0}
        assert j.last_options("occulites") == {}
        assert j.last_options("tribal-village") is None
