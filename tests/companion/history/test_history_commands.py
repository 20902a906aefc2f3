"""`companion history` and `companion stats` on a journal with several games of each of the
five games, as a player would run them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from history_night import PER_GAME, UNFINISHED, night_journal
from lock_holder import Child
from PIL import Image

import rules
from companion.cli import main
from companion.history import History, Roll, RolledDie, RollLog, statistics
from companion.history.sample import GAMES


@pytest.fixture
def journal(tmp_path: Path) -> Path:
    return night_journal(tmp_path)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_history_lists_every_game_of_every_game(journal: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "history", "--journal", str(journal))
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0].split()[:3] == ["id", "date", "game"]
    assert len(lines) == 2 + 5 * PER_GAME + UNFINISHED
    for name in GAMES:
        title = rules.game_class(name).title
        assert sum(title in line for line in lines) >= PER_GAME
    assert sum("unfinished (resume)" in line for line in lines) == UNFINISHED
    code, out, _ = run(capsys, "history", "--journal", str(journal), "--json")
    listed = json.loads(out)
    with History(journal) as h:
        assert listed["games"] == [g.to_json() for g in h.games()]
        assert listed["total"] == h.count()
        name = h.players()[0]
        forge = [g.id for g in h.games(game="dice-forge", player=name)]
    code, out, _ = run(capsys, "history", "--journal", str(journal), "--json",
                       "--game", "dice-forge", "--player", name.lower())
    assert [g["id"] for g in json.loads(out)["games"]] == forge
    code, out, _ = run(capsys, "history", "--journal", str(journal), "--limit", "2")
    assert len(out.splitlines()) == 2 + 2 + 1 and "--limit shows more" in out


def test_history_shows_a_game_and_steps_through_it(journal: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    with History(journal) as h:
        h.refresh()
        g = next(x for x in h.games() if x.is_over and x.game == "eye-for-an-eye")
        record = h.journal.load(g.id)
    code, out, _ = run(capsys, "history", "show", str(g.id), "--journal", str(journal))
    assert code == 0
    assert f"Game {g.id}: Eye for an Eye" in out and f"Winner: {g.winner}" in out
    code, out, _ = run(capsys, "history", "show", str(g.id), "--at", "3", "--journal",
                       str(journal))
    expected = rules.replay(record.setup, record.entries[:3]).standings().format()
    assert f"After call 3 of {g.calls} ({record.entries[2].call}):" in out
    assert expected in out
    code, out, _ = run(capsys, "history", "show", str(g.id), "--steps", "--journal",
                       str(journal))
    steps = out.splitlines()[-g.calls:]
    assert [int(line[:4]) for line in steps] == list(range(1, g.calls + 1))
    assert [line[6:].split("  -> ")[0] for line in steps] == [
        e.line() for e in record.entries]
    code, out, _ = run(capsys, "history", "show", str(g.id), "--at", "0", "--json",
                       "--journal", str(journal))
    shown = json.loads(out)
    assert shown["at"] == 0 and shown["standings"]["winner"] is None
    assert shown["calls"] == [e.call for e in record.entries]
    code, _, err = run(capsys, "history", "show", "999", "--journal", str(journal))
    assert code == 2 and "game 999: not in the journal" in err
    code, _, err = run(capsys, "history", "show", str(g.id), "--at", "5000", "--journal",
                       str(journal))
    assert code == 2 and f"has {g.calls} calls (give 0 to {g.calls})" in err


def test_export_and_import_through_the_command(journal: Path, tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    total = 5 * PER_GAME + UNFINISHED
    code, out, _ = run(capsys, "history", "export", "csv", str(tmp_path / "g.csv"),
                       "--journal", str(journal))
    assert code == 0 and "rows (one per player per game)" in out
    assert (tmp_path / "g.csv").read_text().count("\n") > total
    code, out, _ = run(capsys, "history", "export", "bgstats", str(tmp_path / "g.json"),
                       "--journal", str(journal), "--game", "dice-forge")
    export = json.loads((tmp_path / "g.json").read_text())
    assert code == 0 and len(export["plays"]) == PER_GAME
    assert [g["name"] for g in export["games"]] == ["Dice Forge"]
    code, out, _ = run(capsys, "history", "export", "zip", str(tmp_path / "g.zip"),
                       "--journal", str(journal))
    assert code == 0 and f"Wrote {total} game files" in out
    assert len(zipfile.ZipFile(tmp_path / "g.zip").namelist()) == total
    other = tmp_path / "other" / "journal.sqlite3"
    other.parent.mkdir()
    code, out, _ = run(capsys, "history", "import", str(tmp_path / "g.zip"), "--journal",
                       str(other))
    assert code == 0 and f"{total} of {total} game file(s) added" in out
    code, out, err = run(capsys, "history", "import", str(tmp_path / "g.zip"), "--journal",
                         str(other))
    assert code == 1 and f"0 of {total} game file(s) added" in out and "already in" in err
    code, _, err = run(capsys, "history", "export", "zip", "-", "--journal", str(journal))
    assert code == 2 and "a zip needs a file name" in err


def test_forget_through_the_command(journal: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with History(journal) as h:
        h.refresh()
        name = next(p.player for p in statistics(h).players if p.unfinished == 0)
    code, out, _ = run(capsys, "history", "--journal", str(journal), "--forget", name)
    assert code == 0 and f"{name} forgotten in" in out
    code, out, _ = run(capsys, "history", "--journal", str(journal))
    assert name not in out
    code, out, _ = run(capsys, "stats", "--journal", str(journal))
    assert name not in out


def test_import_and_forget_refuse_while_a_running_companion_holds_the_folder(
        journal: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The commands that write the history take the data folder's lock, as the app does: while
    an app runs on the folder they change nothing and say which process holds it."""
    total = 5 * PER_GAME + UNFINISHED
    zipped = tmp_path / "games.zip"
    assert run(capsys, "history", "export", "zip", str(zipped), "--journal", str(journal))[0] == 0
    with History(journal) as h:
        h.refresh()
        name = next(p.player for p in statistics(h).players if p.unfinished == 0)
    other = tmp_path / "other" / "journal.sqlite3"
    other.parent.mkdir()
    apps = [Child(journal), Child(other)]  # a companion running on each data folder
    try:
        for app, argv in ((apps[0], ["history", "--journal", str(journal), "--forget", name]),
                          (apps[1], ["history", "import", str(zipped), "--journal", str(other)])):
            code, out, err = run(capsys, *argv)
            assert code == 2 and out == "", (out, err)
            folder = Path(argv[argv.index("--journal") + 1]).parent
            assert f"process {app.said['pid']}" in err and str(folder) in err, err
            assert "nothing was changed" in err and "Traceback" not in err
        code, out, _ = run(capsys, "history", "--journal", str(journal))
        assert code == 0 and name in out  # still there
        code, out, _ = run(capsys, "history", "--journal", str(other))
        assert code == 0 and "No games" in out  # nothing was imported
    finally:
        for app in apps:
            app.close()
    # the apps closed, the same commands write
    code, out, _ = run(capsys, "history", "--journal", str(journal), "--forget", name)
    assert code == 0 and f"{name} forgotten in" in out
    code, out, _ = run(capsys, "history", "import", str(zipped), "--journal", str(other))
    assert code == 0 and f"{total} of {total} game file(s) added" in out


def test_stats_tables_for_players_games_roles_and_cards(
        journal: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "stats", "--journal", str(journal))
    assert code == 0 and err == ""
    with History(journal) as h:
        stats = statistics(h)
    for heading in ("Players\n", "Players per game\n", "Games\n",
                    "Eye for an Eye: each character", "Dice Forge: each feat card",
                    "Tribal Village: each objective"):
        assert heading in out
    for p in stats.players:
        assert any(line.startswith(p.player + " ") and f" {p.games} " in line
                   for line in out.splitlines())
    for name in GAMES:
        assert rules.game_class(name).title in out
    code, out, _ = run(capsys, "stats", "--journal", str(journal), "--json")
    assert json.loads(out) == json.loads(json.dumps(stats.to_json()))
    name = stats.players[0].player
    code, out, _ = run(capsys, "stats", "--journal", str(journal), "--player", name.upper(),
                       "--json")
    assert [p["player"] for p in json.loads(out)["players"]] == [name]
    code, _, err = run(capsys, "stats", "--journal", str(journal), "--player", "Zed")
    assert code == 2 and "no player 'Zed' in the history; players:" in err
    code, _, err = run(capsys, "stats", "--journal", str(journal), "--game", "chess")
    assert code == 2 and "unknown game 'chess'; choose one of: eye-for-an-eye" in err


def test_dice_fairness_through_the_command(journal: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    with RollLog(journal) as log:
        log.record_many([Roll((RolledDie(str(i % 6 + 1), "white", 0.9),
                               RolledDie("6" if i % 2 else str(i % 6 + 1), "red", 0.9)), 1)
                         for i in range(120)])
    code, out, _ = run(capsys, "stats", "--dice", "--journal", str(journal))
    assert code == 0
    assert "The white dice: no evidence of bias after 120 rolls (p = 1.00)" in out
    assert "The red dice show 6 too often: p < 0.001 after 120 rolls" in out
    code, out, _ = run(capsys, "stats", "--dice", "--json", "--journal", str(journal))
    groups = {g["label"]: g for g in json.loads(out)["groups"]}
    assert groups["the red dice"]["status"] == "biased"
    assert groups["the white dice"]["more_needed"] > 0
    code, out, _ = run(capsys, "stats", "--clear-dice", "The Red Dice", "--journal",
                       str(journal))
    assert code == 0 and out == "Forgot the rolls of the red dice (120 rolls)\n"
    code, out, _ = run(capsys, "stats", "--dice", "--json", "--journal", str(journal))
    assert [g["label"] for g in json.loads(out)["groups"]] == ["the white dice"]
    code, _, err = run(capsys, "stats", "--clear-dice", "the red dice", "--journal",
                       str(journal))
    assert code == 2 and "no dice called 'the red dice'; recorded: 'the white dice'" in err
    code, out, _ = run(capsys, "stats", "--clear-dice", "all", "--journal", str(journal))
    assert code == 0 and out == "Forgot all 120 rolls\n"


@pytest.mark.parametrize("kind", ["wins", "scores", "lengths", "roles", "dice"])
def test_charts_are_pngs_for_the_screen(kind: str, journal: Path, tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    with RollLog(journal) as log:
        log.record([RolledDie(str(i % 6 + 1), "white", 0.9) for i in range(60)])
    out = tmp_path / f"{kind}.png"
    extra = ["--game", "dice-forge"] if kind in ("scores", "roles") else []
    code, text, err = run(capsys, "stats", "--journal", str(journal), "--chart", kind,
                          "--output", str(out), *extra)
    assert code == 0, err
    assert text == f"Wrote {out} (800x480)\n"
    with Image.open(out) as im:
        assert im.size == (800, 480)
        colours = im.convert("RGB").getcolors(maxcolors=1 << 16)
    assert colours is not None and len(colours) > 20  # a drawn chart, not a blank page
    code, _, err = run(capsys, "stats", "--journal", str(journal), "--chart", "roles")
    assert code == 2 and "--chart roles needs --game" in err


def test_missing_or_bad_journals_are_named(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str],
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    code, _, err = run(capsys, "history", "--journal", str(tmp_path / "none.sqlite3"))
    assert code == 2 and f"no journal at {tmp_path / 'none.sqlite3'}" in err
    junk = tmp_path / "junk.sqlite3"
    junk.write_bytes(b"this is not a database, just some text" * 100)
    code, _, err = run(capsys, "stats", "--journal", str(junk))
    assert code == 2 and f"{junk} is not a readable journal" in err
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "data"))
    code, out, _ = run(capsys, "history")
    assert code == 0 and out == "No games have been played on this machine yet.\n"
    assert not (tmp_path / "data" / "journal.sqlite3").exists()


def test_listing_games_imports_no_plotting_or_statistics_library(journal: Path) -> None:
    script = ("import sys\nfrom companion.cli import main\n"
              f"main(['history', '--journal', {str(journal)!r}])\n"
              f"main(['stats', '--journal', {str(journal)!r}])\n"
              "print('matplotlib' in sys.modules, 'scipy' in sys.modules)\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=120, env={**os.environ})
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "False False"


def test_import_works_on_a_machine_with_no_games_yet(
        journal: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A new Pi takes another companion's games: no data folder, no journal, yet."""
    code, _, _ = run(capsys, "history", "export", "zip", str(tmp_path / "g.zip"),
                     "--journal", str(journal))
    assert code == 0
    fresh = tmp_path / "new-pi" / "data"
    monkeypatch.setenv("COMPANION_DATA_DIR", str(fresh))
    code, out, err = run(capsys, "history", "import", str(tmp_path / "g.zip"))
    total = 5 * PER_GAME + UNFINISHED
    assert code == 0, err
    assert "No games have been played" not in out
    assert f"{total} of {total} game file(s) added to the history, 0 refused" in out
    assert any(fresh.rglob("*.sqlite3"))
