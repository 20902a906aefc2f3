"""`companion demo`: bad arguments get a clear error before any window is opened."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.cli import main


def test_demo_output_that_is_a_file_is_refused(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "notes.txt"
    target.write_text("keep me")
    assert main(["demo", "--output", str(target)]) == 2
    err = capsys.readouterr().err
    assert f"--output {str(target)!r} is a file" in err
    assert target.read_text() == "keep me"


def test_demo_size_must_be_width_x_height(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--output", str(tmp_path / "out"), "--size", "big"]) == 2
    assert "--size 'big': expected WIDTHxHEIGHT" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()  # nothing written for a refused call
