"""What the history's charts show (the data both the screen and the CLI draw), the dice
verdicts worked out in a child process, and exports written into a folder."""

from __future__ import annotations

import csv
import zipfile
from pathlib import Path

import pytest
from history_night import PER_GAME, night_journal

from companion.history import History, Roll, RolledDie, RollLog, assess, statistics
from companion.history import chartdata as cd
from companion.history.export import export_to_folder
from companion.history.fairness import Fairness, verdicts_apart
from companion.history.sample import GAMES
from companion.history.summary import HistoryError


@pytest.fixture
def journal(tmp_path: Path) -> Path:
    return night_journal(tmp_path)


def test_axis_ends_on_a_round_number_past_the_largest_value() -> None:
    for value, top in ((0.4, 1.0), (3, 4.0), (22, 25.0), (90, 100.0), (1740, 2000.0)):
        end, ticks = cd.axis(value)
        assert end == top and end >= value * 1.1 - 1e-9 and ticks[0][0] == 0
        assert ticks[-1][0] == end and len(ticks) <= 6


def test_win_rates_best_first_with_wins_of_games(journal: Path) -> None:
    with History(journal) as h:
        stats = statistics(h)
    chart = cd.wins(stats.players, most=5)
    rates = [b.value for b in chart.bars]
    assert len(chart.bars) == 5 and rates == sorted(rates, reverse=True)
    first = stats.player(chart.bars[0].label)
    assert first is not None and chart.bars[0].text == f"{first.wins} of {first.games}"
    assert chart.top == 100 and chart.horizontal
    assert cd.wins([]).empty == "No finished games yet." and not cd.wins([]).bars


def test_game_charts_count_lengths_and_each_role_played_and_won(journal: Path) -> None:
    with History(journal) as h:
        stats = statistics(h)
    lengths = cd.game_lengths(stats.games)
    assert {b.label for b in lengths.bars} == {g.title for g in stats.games}
    assert all(b.value <= lengths.top for b in lengths.bars)
    eye = stats.game("eye-for-an-eye")
    assert eye is not None
    roles = cd.roles(eye)
    assert roles.legend == ("played", "won")
    assert [(b.label, b.value, b.inner) for b in roles.bars] == \
        [(c.name, c.played, c.won) for c in eye.roles[:10]]
    assert sum(b.value for b in roles.bars) == sum(c.played for c in eye.roles[:10])
    one = next(p for p in stats.players if len(p.per_game) > 1)
    per = cd.player_games(one)
    assert len(per.bars) == len(one.per_game) and per.title.startswith(one.player)


def test_scores_are_lines_within_one_game_only(journal: Path) -> None:
    with History(journal) as h:
        forge = h.games(game="dice-forge")
        mixed = h.games()
    chart = cd.scores(forge)
    assert chart.count == PER_GAME and chart.lines
    assert all(1 <= x <= chart.count for line in chart.lines for x, _ in line.points)
    assert "do not compare" in cd.scores(mixed).empty and not cd.scores(mixed).lines


def test_dice_chart_shares_intervals_fair_line_and_verdict() -> None:
    counts = {"1": 90, "2": 100, "3": 95, "4": 105, "5": 100, "6": 150}
    result = assess(counts, "the red dice")
    chart = cd.dice(result)
    assert not chart.horizontal and [b.label for b in chart.bars] == list("123456")
    six = chart.bars[5]
    assert six.highlight and result.status == "biased" and result.face == "6"
    assert six.low is not None and six.high is not None
    assert six.low < six.value < six.high <= chart.top
    assert chart.reference == pytest.approx(100 / 6)
    assert chart.note.startswith("The red dice show 6 too often")


def test_a_verdict_comes_back_whole_from_json() -> None:
    result = assess({"1": 40, "2": 51, "3": 47, "4": 50, "5": 45, "6": 60}, "the white dice",
                    corrected=3, unsure=2)
    back = Fairness.from_json(result.to_json())
    assert (back.label, back.rolls, back.status, back.verdict, back.face, back.needed) == \
        (result.label, result.rolls, result.status, result.verdict, result.face, result.needed)
    assert [f.face for f in back.faces] == [f.face for f in result.faces]
    assert back.faces[5].share == pytest.approx(result.faces[5].share, abs=1e-4)
    with pytest.raises(ValueError, match=r"not a dice verdict.*'faces'"):
        Fairness.from_json({"label": "x"})


def test_the_dice_are_judged_in_a_child_process(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    with RollLog(path) as log:
        log.record_many([Roll((RolledDie(str(i % 6 + 1), "red", 0.9),)) for i in range(120)])
    found = verdicts_apart(path)
    assert [f.label for f in found] == ["the red dice"]
    assert found[0].rolls == 120 and found[0].status == "fair"
    assert found[0].verdict.startswith("the red dice: no evidence of bias after 120 rolls")
    with pytest.raises(RuntimeError, match="no journal at"):
        verdicts_apart(tmp_path / "missing.sqlite3")


def test_exports_go_whole_into_the_folder_named_by_filters_and_time(journal: Path,
                                                                    tmp_path: Path) -> None:
    folder = tmp_path / "exports"
    out, what = export_to_folder(journal, folder, "csv", game="dice-forge")
    assert out.parent == folder and out.name.startswith("history-dice-forge-")
    with out.open(encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    assert {r["game"] for r in rows} == {"dice-forge"} and what.startswith(f"{len(rows)} rows")
    again, _ = export_to_folder(journal, folder, "csv", game="dice-forge")
    assert again != out and again.exists() and out.exists()  # never over the last one
    page, what = export_to_folder(journal, folder, "bgstats", player="Ana")
    assert page.name.endswith("-bgstats.html") and "Ana" in page.name
    assert page.read_text(encoding="utf-8").count("createPlay.html?data=") == int(what.split()[0])
    archive, what = export_to_folder(journal, folder, "zip")
    with zipfile.ZipFile(archive) as z:
        assert len(z.namelist()) == len(GAMES) * PER_GAME + 2 == int(what.split()[0])
    assert not list(folder.glob(".part-*"))
    with pytest.raises(HistoryError, match="export kind 'pdf'"):
        export_to_folder(journal, folder, "pdf")


def test_the_dice_verdicts_are_kept_until_the_counts_change(tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch
                                                            ) -> None:
    import subprocess

    from companion.history.fairness import kept_verdicts

    path = tmp_path / "journal.sqlite3"
    with RollLog(path) as log:
        log.record_many([Roll((RolledDie(str(i % 6 + 1), "red", 0.9),)) for i in range(60)])
    assert kept_verdicts(path) is None
    first = verdicts_apart(path)
    assert kept_verdicts(path) == first

    def no_child(*args: object, **kwargs: object) -> None:
        raise AssertionError("a child process for verdicts that were kept")

    monkeypatch.setattr(subprocess, "run", no_child)
    assert verdicts_apart(path) == first  # a lookup: no child process
    monkeypatch.undo()
    with RollLog(path) as log:
        log.record_many([Roll((RolledDie("6", "red", 0.9),))])
    assert kept_verdicts(path) is None  # one more roll: worked out again
    again = verdicts_apart(path)
    assert again[0].rolls == 61 and kept_verdicts(path) == again
