"""No file under ``companion/`` is longer than a newcomer can hold in mind (issue 43: the
largest <= 600 lines). A file that grows past it is split by meaning, into modules whose
names say what each part is."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MOST_LINES = 600


def lines_of(path: Path) -> int:
    with path.open(encoding="utf-8") as f:
        return sum(1 for _ in f)


def test_no_file_under_companion_is_over_600_lines() -> None:
    files = sorted((ROOT / "companion").rglob("*.py"))
    assert len(files) > 100
    over = {str(p.relative_to(ROOT)): n for p in files if (n := lines_of(p)) > MOST_LINES}
    assert over == {}, f"over {MOST_LINES} lines: split them by meaning"


def test_the_count_is_of_lines(tmp_path: Path) -> None:
    f = tmp_path / "a.py"
    f.write_text("x = 1\n" * 601, encoding="utf-8")
    assert lines_of(f) == 601 > MOST_LINES
