"""`companion replay`: standings from a game file, and errors that name the line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.cli import main

EXAMPLE = Path(__file__).parents[2] / "examples" / "eye-for-an-eye-round.game"


def test_replay_prints_the_standings(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(EXAMPLE)]) == 0
    out = capsys.readouterr().out
    assert "Eye for an Eye: 8 calls" in out
    lines = {line.split()[0]: line.split() for line in out.splitlines() if line[:3] in
             ("Ana", "Ben", "Cy ")}
    # Ana: 1 token (3 hits, 2 parried), Ben: 3, Cy: 2; everyone stands (+5).
    assert lines["Ana"][:6] == ["Ana", "Grubic", "Ana", "14", "1", "standing"]
    assert lines["Ben"][3:5] == ["14", "3"]
    assert lines["Cy"][3:5] == ["12", "2"]
    assert "Winner: Ben" in out


def test_replay_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(EXAMPLE), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["winner"] == "Ben" and data["is_over"] is True and data["calls"] == 8
    assert {r["player"]: r["total"] for r in data["rows"]} == {"Ana": "1", "Ben": "4", "Cy": "2"}


def test_replay_error_names_the_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.game"
    text = EXAMPLE.read_text().replace("[0:05.100] Riparian: Parry 2",
                                       "[0:05.100] Riparian: Parry 4")
    bad.write_text(text)
    assert main(["replay", str(bad)]) == 1
    err = capsys.readouterr().err
    assert f"{bad}, line 12: Riparian: Parry 4: Parry has 3 spaces" in err


@pytest.mark.parametrize(("content", "message"), [
    ("game = 'chess'\nplayers = ['A', 'B']\n---\n", "unknown game 'chess'"),
    ("game = 'eye-for-an-eye'\nplayers = ['A', 'B']\n", "no '---' line"),
    ("game = 'eye-for-an-eye'\nplayers = ['A', 'B']\n---\nA: Fly 3\n",
     "line 4: 'A: Fly 3': Grubic has no action or card called 'Fly'"),
])
def test_replay_bad_files(tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str,
                          message: str) -> None:
    f = tmp_path / "x.game"
    f.write_text(content)
    assert main(["replay", str(f)]) == 1
    assert message in capsys.readouterr().err


def test_replay_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(tmp_path / "none.game")]) == 2
    assert "cannot read" in capsys.readouterr().err
