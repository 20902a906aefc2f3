"""`companion read`: table output, one JSON object per line, errors named, exit status."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cli import main
from vision import Profile, TableRegion
from vision.synthetic import Scene, SynthDie, render


@pytest.fixture
def photo(tmp_path: Path) -> Path:
    dice = (SynthDie(center=(100.0, 120.0), size=50.0, angle=20.0, value=5, colour="red",
                     body_bgr=(40, 35, 200), pip_bgr=(235, 235, 235)),
            SynthDie(center=(260.0, 120.0), size=50.0, angle=50.0, value=2, colour="white",
                     body_bgr=(228, 230, 232), pip_bgr=(30, 30, 30)))
    path = tmp_path / "roll.png"
    cv2.imwrite(str(path), render(Scene(360, 240, dice, background_bgr=(120, 120, 120))))
    return path


def test_json_lines(photo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "broken.png"
    bad.write_bytes(b"not an image")
    missing = tmp_path / "missing.png"
    rc = main(["read", str(photo), str(missing), str(bad), str(tmp_path), str(photo), "--json"])
    out = capsys.readouterr()
    lines = out.out.strip().split("\n")
    assert rc != 0
    assert len(lines) == 5
    first, err1, err2, err3, last = (json.loads(line) for line in lines)
    assert "no such file" in err1["error"] and "not a readable image" in err2["error"]
    assert err3["image"] == str(tmp_path) and "a folder, not an image file" in err3["error"]
    assert first["image"] == str(photo) and last["image"] == str(photo)
    assert set(first) == {"image", "dice", "ms"} and first["ms"] >= 0
    assert sorted(d["value"] for d in first["dice"]) == [2, 5]
    for d in first["dice"]:
        assert set(d) == {"value", "face", "colour", "center", "confidence"}
        assert d["face"] == str(d["value"]) and 0 <= d["confidence"] <= 1
        assert len(d["center"]) == 2
    assert {d["colour"] for d in first["dice"]} == {"red", "white"}
    assert err1["image"] == str(missing) and "missing.png" in err1["error"]
    assert err2["image"] == str(bad) and "broken.png" in err2["error"]
    assert "missing.png" in out.err


def test_table_and_annotate(photo: Path, tmp_path: Path,
                            capsys: pytest.CaptureFixture[str]) -> None:
    outdir = tmp_path / "ann"
    assert main(["read", str(photo), "--annotate", str(outdir)]) == 0
    text = capsys.readouterr().out
    assert "2 dice" in text and "red" in text and "white" in text
    files = list(outdir.iterdir())
    assert len(files) == 1 and cv2.imread(str(files[0])) is not None


def test_profile_option(photo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    prof = Profile(table=TableRegion(((0, 0), (180, 0), (180, 240), (0, 240))))
    pfile = tmp_path / "p.json"
    pfile.write_text(json.dumps(prof.to_dict()))
    assert main(["read", str(photo), "--json", "--profile", str(pfile)]) == 0
    got = json.loads(capsys.readouterr().out)
    assert [d["value"] for d in got["dice"]] == [5]
    pfile.write_text("{")
    assert main(["read", str(photo), "--profile", str(pfile)]) == 2
    assert "p.json" in capsys.readouterr().err


def test_blank_image_is_not_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    p = tmp_path / "black.png"
    cv2.imwrite(str(p), np.zeros((100, 100, 3), np.uint8))
    assert main(["read", str(p)]) == 0
    assert "all black" in capsys.readouterr().out
