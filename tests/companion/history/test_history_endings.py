"""Every way a game ends travels with it (issue 44, item 1): won by its calls, ended by
agreement with its standings, ended with no result, abandoned. Each is in the game file that
`history export zip` writes, so `history import` on a fresh companion gives back the same
games: the same state and winner, the same BG Stats plays, the same statistics. A game
with no result is neither a win nor a loss in a streak. And what BG Stats gets: the Dice
Forge module as the play's board, comments with only what the players wrote or would want,
and an import that says what it takes when given a BG Stats file."""

from __future__ import annotations

import json
import random
import zipfile
from pathlib import Path
from typing import Any

import pytest

import rules
from companion.cli import main
from companion.ending import AGREED, NO_RESULT, leaders
from companion.history import History, bgstats
from companion.history.stats import statistics
from companion.history.text import state
from companion.journal import Journal
from rules import Entry, Setup

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"
PLAYERS = ("Ana", "Ben", "Cy")  # the players of the Dice-ocalypse example


def _random_play(journal: Journal, calls: int, seed: int, players: tuple[str, ...] = PLAYERS,
                 wall: float = 1_700_000_000.0) -> tuple[int, Any]:
    """A Dice-ocalypse game of ``calls`` random legal calls (banking whenever it may, so
    scores differ), journaled as the app does, a minute a call."""
    game = rules.from_setup(Setup("dice-ocalypse", players, {}, seed))
    gid = journal.start_game(game.setup, ", ".join(players), wall=wall)
    rng = random.Random(seed)
    for i in range(calls):
        legal = list(game.legal_calls())
        bank = [c for c in legal if c.text().endswith("Bank")]
        call = game.check(bank[0] if bank else rng.choice(legal), None)
        journal.record_call(gid, Entry(call.text(), None), wall=wall + 60 * (i + 1))
        game.apply(call, None)
    assert not game.is_over
    return gid, game


def _won(journal: Journal, wall: float) -> int:
    """The Dice-ocalypse example, played to its end."""
    parsed = rules.parse_game_file((EXAMPLES / "dice-ocalypse.game").read_text("utf-8"))
    game = rules.from_setup(parsed.setup)
    assert game.setup.players == PLAYERS
    gid = journal.start_game(game.setup, ", ".join(PLAYERS), wall=wall)
    for i, e in enumerate(parsed.entries):
        game.apply(e.call)
        journal.record_call(gid, Entry(game.history[-1].call, None), wall=wall + 30 * (i + 1))
    assert game.is_over
    journal.finish(gid, wall=wall + 30 * (len(parsed.entries) + 1))
    return gid


@pytest.fixture
def first(tmp_path: Path) -> dict[str, Any]:
    """A companion's journal with one game of each ending: won, agreed (Ana leading),
    no result, abandoned; and one still being played."""
    path = tmp_path / "first" / "journal.sqlite3"
    path.parent.mkdir()
    ids: dict[str, Any] = {"path": path}
    with Journal(path) as journal:
        ids["won"] = _won(journal, 1_700_000_000.0)
        for seed in range(40):  # a seed where Ana leads after 40 calls
            gid, game = _random_play(journal, 40, seed, wall=1_700_100_000.0 + seed)
            if leaders(game) == ("Ana",):
                break
            journal.db.execute("DELETE FROM calls WHERE game_id=?", (gid,))
            journal.discard_empty(gid)
        assert leaders(game) == ("Ana",)
        journal.finish(gid, ending=AGREED, wall=1_700_200_000.0)
        ids["agreed"] = gid
        ids["none"] = _random_play(journal, 12, 41, wall=1_700_300_000.0)[0]
        journal.finish(ids["none"], ending=NO_RESULT, wall=1_700_301_000.0)
        ids["abandoned"] = _random_play(journal, 6, 42, wall=1_700_400_000.0)[0]
        journal.finish(ids["abandoned"], wall=1_700_401_000.0)
        ids["open"] = _random_play(journal, 5, 43, wall=1_700_500_000.0)[0]
    return ids


def _seen(path: Path) -> tuple[list[tuple[Any, ...]], list[dict[str, Any]], dict[str, Any]]:
    """What a journal's history says of its games (oldest first: state, winner, whether
    over, its ending), its BG Stats plays (without their ids in this journal) and each
    player's statistics."""
    with History(path) as history:
        history.refresh()
        games = sorted(history.games(), key=lambda g: g.started)
        rows = [(g.digest, state(g), g.winner, g.is_over, g.ending, [p.won for p in g.players],
                 [p.rank for p in g.players]) for g in games]
        plays = bgstats.bgstats_plays(games)
        stats = {p.player: (p.games, p.wins, p.no_result, p.streak.text())
                 for p in statistics(history).players}
    return rows, plays, stats


@pytest.fixture
def fresh(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A second companion with no games yet (its data folder not even made): its journal."""
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "second"))
    return tmp_path / "second" / "journal.sqlite3"


def test_every_ending_survives_the_zip_and_an_import_on_a_fresh_companion(
        first: dict[str, Any], fresh: Path, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    archive = tmp_path / "games.zip"
    assert main(["history", "export", "zip", str(archive), "--journal", str(first["path"])]) == 0
    with zipfile.ZipFile(archive) as z:
        texts = {getattr(rules.parse_game_file(z.read(n).decode()), "ending", None)
                 for n in z.namelist()}
    # the game files say how each ended; the game won by its calls and the one still being
    # played need no word (the calls say the first; the second is unfinished)
    assert texts == {None, "agreed", "no result", "abandoned"}
    assert main(["history", "import", str(archive)]) == 0  # on the companion with no games
    assert "5 of 5 game file(s) added" in capsys.readouterr().out

    before, plays_before, stats_before = _seen(first["path"])
    after, plays_after, stats_after = _seen(fresh)
    # the one still being played where it was exported comes in abandoned: it is resumed
    # only where it is being played
    assert before[-1][1] == "unfinished (resume)" and after[-1][1] == "abandoned"
    assert after[:-1] == before[:-1]
    assert [r[1] for r in after] == ["over", "ended by agreement",
                                     "ended by agreement, no result", "abandoned",
                                     "abandoned"]
    assert after[1][2] == "Ana"  # the agreed game: Ana won, on both companions
    # the same plays for BG Stats (won, agreed, no result), from either companion
    assert plays_after == plays_before
    assert len(plays_after) == 3
    assert stats_after == stats_before
    assert stats_after["Ana"][:3] == (3, 1 + ("Ana" in after[0][2]), 1)
    # and on to a third companion: the same files again
    again = tmp_path / "again.zip"
    assert main(["history", "export", "zip", str(again), "--journal", str(fresh)]) == 0
    with zipfile.ZipFile(archive) as a, zipfile.ZipFile(again) as b:
        endings = sorted(str(getattr(rules.parse_game_file(b.read(n).decode()), "ending",
                                     None)) for n in b.namelist())
        assert len(a.namelist()) == len(b.namelist()) == 5
    assert endings == sorted(["None", "agreed", "no result", "abandoned", "abandoned"])


def test_stats_and_bgstats_of_the_imported_games_from_the_command_line(
        first: dict[str, Any], fresh: Path, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    archive = tmp_path / "games.zip"
    main(["history", "export", "zip", str(archive), "--journal", str(first["path"])])
    main(["history", "import", str(archive)])
    capsys.readouterr()
    for journal in (first["path"], fresh):
        assert main(["history", "export", "bgstats", "-", "--journal", str(journal)]) == 0
        export = json.loads(capsys.readouterr().out)
        assert len(export["plays"]) == 3, journal
        assert main(["stats", "--json", "--journal", str(journal)]) == 0
        ana = next(p for p in json.loads(capsys.readouterr().out)["players"]
                   if p["player"] == "Ana")
        assert (ana["games"], ana["no_result"]) == (3, 1), journal


def _outcomes(tmp_path: Path, games: list[str]) -> Any:
    """Ana's statistics after Dice-ocalypse games ended, oldest first, as ``games`` says:
    "won" / "lost" (ended by agreement with Ana leading or not), "none" (no result)."""
    path = tmp_path / "j.sqlite3"
    with Journal(path) as journal:
        seed = 0
        for i, want in enumerate(games):
            while True:
                seed += 1
                gid, game = _random_play(journal, 30, seed, wall=1_700_000_000.0 + 10_000 * i)
                leads = leaders(game) == ("Ana",)
                if want == "none" or leads == (want == "won"):
                    break
                journal.db.execute("DELETE FROM calls WHERE game_id=?", (gid,))
                journal.discard_empty(gid)
            journal.finish(gid, ending=NO_RESULT if want == "none" else AGREED)
    with History(path) as history:
        history.refresh()
        ana = statistics(history).player("Ana")
    assert ana is not None
    return ana


def test_no_result_is_neither_a_win_nor_a_loss_in_a_streak(tmp_path: Path) -> None:
    ana = _outcomes(tmp_path, ["lost", "won", "none", "won", "none"])
    assert (ana.games, ana.wins, ana.no_result) == (5, 2, 1 + 1)
    assert ana.streak.text() == "2 won"  # the games with no result are passed over
    assert ana.longest_winning_streak == 2


def test_a_streak_of_losses_does_not_grow_with_games_of_no_result(tmp_path: Path) -> None:
    ana = _outcomes(tmp_path, ["won", "lost", "none", "none"])
    assert ana.streak.text() == "1 lost" and ana.no_result == 2


def test_the_game_file_says_how_it_ended_and_replay_shows_that_result(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with Journal(tmp_path / "j.sqlite3") as journal:
        for seed in range(40):
            gid, game = _random_play(journal, 40, seed)
            if leaders(game) == ("Ana",):
                break
        journal.finish(gid, ending=AGREED)
        text = journal.export(gid)
    assert 'ending = "agreed"' in text.split("---")[0]
    parsed = rules.parse_game_file(text)
    assert parsed.ending == "agreed" and parsed.entries == game.history
    assert rules.parse_game_file(rules.format_game_file(
        parsed.setup, parsed.entries, "", rules.Ending.AGREED)).ending == "agreed"
    path = tmp_path / "agreed.game"
    path.write_text(text, encoding="utf-8")
    assert main(["replay", str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["winner"], out["is_over"]) == ("Ana", True)
    assert out["note"].startswith("ended by agreement")
    assert main(["replay", str(path)]) == 0
    assert "Winner: Ana" in capsys.readouterr().out


def test_an_ending_the_game_file_cannot_have_is_refused_naming_it(tmp_path: Path) -> None:
    won = (EXAMPLES / "dice-ocalypse.game").read_text("utf-8")
    head, _, calls = won.partition("---")
    with pytest.raises(rules.GameFileError, match="ending = 'won': must be one of 'agreed'"):
        rules.parse_game_file(head.replace("seed = 0", 'seed = 0\nending = "won"') + "---"
                              + calls)
    with pytest.raises(rules.GameFileError, match="ending = 7: must be one of"):
        rules.parse_game_file(head.replace("seed = 0", "seed = 0\nending = 7") + "---" + calls)
    agreed = rules.parse_game_file(head.replace("seed = 0", 'seed = 0\nending = "agreed"')
                                   + "---" + calls)
    with pytest.raises(rules.GameFileError, match="the calls end the game"):
        agreed.play()  # the calls end it: an ending by the players is a contradiction


def test_importing_a_bgstats_file_says_what_the_command_takes(
        first: dict[str, Any], fresh: Path, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    plays, page, table = tmp_path / "plays.json", tmp_path / "plays.html", tmp_path / "g.csv"
    journal = str(first["path"])
    for kind, out in (("bgstats", plays), ("bgstats", page), ("csv", table)):
        assert main(["history", "export", kind, str(out), "--journal", journal]) == 0
    notes = tmp_path / "notes.txt"
    notes.write_text("Friday: Ana won twice\n", encoding="utf-8")
    capsys.readouterr()
    assert main(["history", "import", str(plays), str(page), str(table), str(notes)]) != 0
    err = capsys.readouterr().err
    assert "no '---' line between the setup and the calls" not in err  # the parser's words
    assert f"{plays}: a BG Stats export file" in err
    assert f"{page}: a web page" in err and f"{table}: a CSV export" in err
    assert f"{notes}: a file with no '---' line between a setup and calls, not a game" in err
    assert err.count("takes game files (.game") == 4 and "export zip" in err


def test_the_dice_forge_module_is_the_plays_board_and_comments_are_the_players(
        tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    with Journal(path) as journal:
        ids = {}
        for module in ("titans", "goddess", None):
            options = {} if module is None else {"module": module}
            game = rules.from_setup(Setup("dice-forge", ("Ana", "Ben"), options, 3))
            title = "Ana, Ben" if module else "Friday at the club"
            gid = journal.start_game(game.setup, title)
            rng = random.Random(3)
            for _ in range(6):
                call = game.random_call(rng)
                game.apply(call)
                journal.record_call(gid, game.history[-1])
            journal.finish(gid, ending=AGREED)
            ids[module] = gid
    with History(path) as history:
        history.refresh()
        plays = {m: bgstats.bgstats_play(history.game(g)) for m, g in ids.items()}
        export = bgstats.bgstats_export(history.games())
    assert plays["titans"]["board"] == "Titans module"
    assert plays["goddess"]["board"] == "Goddess module"
    assert "board" not in plays[None]  # the game as it comes
    assert {p["board"] for p in export["plays"]} == {"Titans module", "Goddess module", ""}
    # the players' own title is kept, the app's list of names is not; never the calls or
    # the companion's game numbers
    assert plays[None]["comments"].startswith("Friday at the club. Ended by agreement")
    assert plays["titans"]["comments"].startswith("Ended by agreement")
    for play in plays.values():
        assert "calls" not in play["comments"] and "journal" not in play["comments"]
