"""Any journal schema: the start survives it, and `companion doctor` looks at the tables, not
only the file (issue 42, item 8).

A journal whose calls table was gone stopped the app at the start screen
(``sqlite3.OperationalError``, exit 1) while `doctor` said the journal was fine. Now the tables
are compared with what this version makes whenever the journal is opened: a table that can be
made again is (a derived one refilled, a damaged record table kept aside in the file), a
trigger is dropped, and a journal whose games or calls cannot be read is set aside (kept)
with a notice. Each damage here goes through the app's own start path and what the start
screen reads. (The whole app on the issue's journal: tests/app/test_app_journal_schema.py.)
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

import rules
from companion import startfiles, store
from companion.commands.doctor import schema_check
from companion.history import History
from companion.journal import Journal
from companion.session import TableSession
from rules.core import Entry

DAMAGES = {
    "calls dropped": ("DROP TABLE calls", "aside"),
    "games dropped": ("DROP TABLE games", "aside"),
    "a column of games dropped": ("ALTER TABLE games DROP COLUMN title", "aside"),
    "calls a view": ("ALTER TABLE calls RENAME TO c2; CREATE VIEW calls AS SELECT * FROM c2",
                     "aside"),
    "a trigger refusing every call": (
        "CREATE TRIGGER no_calls BEFORE INSERT ON calls BEGIN SELECT RAISE(ABORT, 'no'); END",
        "mended"),
    "the clock dropped": ("DROP TABLE clock", "mended"),
    "the history index dropped": ("DROP TABLE history_games", "mended"),
    "the history index a view": ("DROP TABLE history_players; "
                                 "CREATE VIEW history_players AS SELECT 1 AS x", "mended"),
    "a column of the outbox dropped": ("ALTER TABLE tournament_outbox DROP COLUMN sends",
                                       "mended"),
    "the roll log dropped": ("DROP TABLE roll_log", "mended"),
    "a stranger's table added": ("CREATE TABLE extra (x)", "sound"),
}


def _damaged(folder: Path, sql: str) -> tuple[Path, int]:
    path = folder / "data" / "journal.sqlite3"
    path.parent.mkdir(parents=True)
    with Journal(path) as j:
        gid = j.start_game(rules.new_game("dice-ocalypse", ["Ana", "Ben"], seed=3).setup)
        j.record_call(gid, Entry("Ana: Roll 6"))
    db = sqlite3.connect(path)
    db.executescript(sql)
    db.close()
    return path, gid


@pytest.mark.parametrize("damage", sorted(DAMAGES))
def test_the_start_survives_a_damaged_schema_and_says_so(tmp_path: Path, damage: str) -> None:
    sql, outcome = DAMAGES[damage]
    path, gid = _damaged(tmp_path, sql)
    assert schema_check(path).verdict == {"aside": "fail", "mended": "warn",
                                          "sound": "ok"}[outcome]
    journal, notices = startfiles.open_journal(path)
    with journal:
        # what the start screen reads, and a game started and played
        unfinished = [r.id for r in journal.unfinished()]
        journal.recent_groups()
        with History(journal) as history:
            history.refresh()
            history.resume_offer()
        session = TableSession.new(journal, rules.new_game("dice-ocalypse", ["Cy", "Dee"],
                                                           seed=4).setup)
        session.call("Cy: Roll 5")
        assert journal.load(session.game_id).entries[-1].call == "Cy: Roll 5"
    said = " ".join(notices)
    if outcome == "aside":
        assert "was damaged" in said and "set aside" in said and unfinished == []
        assert list(path.parent.glob("journal.sqlite3.damaged-*"))
    elif outcome == "mended":
        assert "was not as this version keeps it" in said and unfinished == [gid]
        assert schema_check(path).verdict == "ok"
    else:
        assert notices == [] and unfinished == [gid]


def test_a_damaged_record_table_is_kept_in_the_file(tmp_path: Path) -> None:
    path, _ = _damaged(tmp_path, "ALTER TABLE tournament_outbox DROP COLUMN sends; "
                                 "INSERT INTO tournament_outbox VALUES ('r1','tt01',1,1,'{}',0)")
    journal, notices = startfiles.open_journal(path)
    with journal:
        assert "kept as tournament_outbox_damaged_1" in " ".join(notices)
    assert store.peek(path, "SELECT report_id FROM tournament_outbox_damaged_1") == [("r1",)]
    assert store.peek(path, "SELECT COUNT(*) FROM tournament_outbox") == [(0,)]


def test_a_journal_another_companion_holds_is_read_whatever_its_schema(tmp_path: Path) -> None:
    path, _ = _damaged(tmp_path, "DROP TABLE calls")
    # read-only (another companion writes it: nothing is mended or set aside here): it
    # cannot be read, and says so, never raises
    read, problem = Journal.open_or_set_aside(path, readonly="another companion writes it")
    with read:
        assert read.unfinished() == [] and read.recent_groups() == []
    assert "cannot be read: its table calls is missing" in problem
    assert not list(path.parent.glob("*.damaged-*"))


def test_doctor_names_what_is_wrong_with_the_tables(tmp_path: Path) -> None:
    path, _ = _damaged(tmp_path, "DROP TABLE calls")
    check = schema_check(path)
    assert check.verdict == "fail" and "its table calls is missing" in check.finding
    assert "copy the journal off first" in check.action
    sound = tmp_path / "sound" / "journal.sqlite3"
    sound.parent.mkdir()
    Journal(sound).close()
    assert schema_check(sound).verdict == "ok"
    assert "as this version keeps them" in schema_check(sound).finding
