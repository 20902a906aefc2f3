"""Every folder of real dice photos is well formed: what training and the benchmark read is data.

The loaders in ``benchmarks/vision.py`` and ``scripts/vision_train*.py`` skip a label line that
does not split into five fields and never look at a photo without a label, so a broken file
would silently drop dice from training and scoring. This checks each folder of
``../shared/data/dice-photos`` outright: every photo opens and has a label file, every label
file has its photo, every line is ``class cx cy w h`` with a value 1..6 (class 0..5) and a box
inside the image. Licence and notice files are the only other files allowed beside them.

Skipped when the shared photos are not there.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

PHOTOS = Path(__file__).parents[2].parent / "shared" / "data" / "dice-photos"
if not PHOTOS.exists():  # a worktree one level deeper than the main checkout
    PHOTOS = Path(__file__).parents[2].parent.parent / "shared" / "data" / "dice-photos"

FOLDERS = sorted(p.name for p in PHOTOS.iterdir() if p.is_dir()) if PHOTOS.exists() else []

# A box may reach past the image edge by this many pixels (rounding of the label values).
EDGE_SLACK_PX = 1.0


def _is_licence(path: Path) -> bool:
    return path.stem.upper().startswith(("LICENSE", "LICENCE", "NOTICE", "COPYING"))


def _label_problems(txt: Path, width: int, height: int) -> list[str]:
    problems = []
    for number, line in enumerate(txt.read_text().splitlines(), start=1):
        if not line.strip():
            continue
        where = f"{txt.parent.name}/{txt.name} line {number} ({line.strip()!r})"
        fields = line.split()
        if len(fields) != 5:
            problems.append(f"{where}: {len(fields)} fields, expected class cx cy w h")
            continue
        try:
            cls = int(fields[0])
            cx, cy, w, h = (float(v) for v in fields[1:])
        except ValueError:
            problems.append(f"{where}: not numbers")
            continue
        if not 0 <= cls <= 5:
            problems.append(f"{where}: class {cls} is value {cls + 1}, not 1..6")
        if w <= 0 or h <= 0:
            problems.append(f"{where}: empty box")
        left, right = (cx - w / 2) * width, (cx + w / 2) * width
        top, bottom = (cy - h / 2) * height, (cy + h / 2) * height
        overhang = max(-left, right - width, -top, bottom - height)
        if overhang > EDGE_SLACK_PX:
            problems.append(f"{where}: box reaches {overhang:.0f} px outside the "
                            f"{width}x{height} image")
    return problems


def folder_problems(folder: Path) -> list[str]:
    """Everything wrong with one folder of ``NAME.jpg`` + ``NAME.txt`` pairs, one line each."""
    problems = []
    photos = sorted(folder.glob("*.jpg"))
    if not photos:
        problems.append(f"{folder.name}: no photos")
    for jpg in photos:
        image = cv2.imread(str(jpg), cv2.IMREAD_GRAYSCALE)
        if image is None or image.size == 0:
            problems.append(f"{folder.name}/{jpg.name}: does not open as an image")
            continue
        txt = jpg.with_suffix(".txt")
        if not txt.exists():
            problems.append(f"{folder.name}/{jpg.name}: no label file {txt.name}")
            continue
        height, width = image.shape[:2]
        problems += _label_problems(txt, width, height)
    for path in sorted(folder.iterdir()):
        if path.suffix in (".jpg", ".txt") and path.with_suffix(".jpg").exists():
            continue
        if _is_licence(path):
            continue
        problems.append(f"{folder.name}/{path.name}: neither a labelled photo nor a licence")
    return problems


@pytest.mark.skipif(not PHOTOS.exists(), reason=f"no shared photos at {PHOTOS}")
@pytest.mark.parametrize("name", FOLDERS)
def test_photo_folder_is_well_formed(name: str) -> None:
    assert folder_problems(PHOTOS / name) == []


def _write_photo(path: Path, width: int = 64, height: int = 48) -> None:
    assert cv2.imwrite(str(path), np.full((height, width, 3), 128, np.uint8))


def test_a_clean_folder_passes(tmp_path: Path) -> None:
    _write_photo(tmp_path / "a.jpg")
    (tmp_path / "a.txt").write_text("0 0.5 0.5 0.2 0.2\n5 0.1 0.1 0.2 0.2\n")
    _write_photo(tmp_path / "b.jpg")
    (tmp_path / "b.txt").write_text("")  # a photo with no readable die
    (tmp_path / "LICENSE").write_text("MIT")
    (tmp_path / "NOTICE.txt").write_text("where these came from")
    assert folder_problems(tmp_path) == []


def test_each_kind_of_defect_is_named(tmp_path: Path) -> None:
    _write_photo(tmp_path / "ok.jpg")
    (tmp_path / "ok.txt").write_text(
        "6 0.5 0.5 0.2 0.2\n"  # value 7
        "0 0.5 0.5 0.2\n"  # four fields
        "1 0.95 0.5 0.2 0.2\n"  # right edge 3 px past a 64 px image
        "2 0.5 0.5 0 0.2\n"  # no width
        "x 0.5 0.5 0.2 0.2\n"  # not a number
    )
    _write_photo(tmp_path / "unlabelled.jpg")
    (tmp_path / "orphan.txt").write_text("0 0.5 0.5 0.2 0.2\n")
    (tmp_path / "broken.jpg").write_bytes(b"not a jpeg")
    (tmp_path / "broken.txt").write_text("")
    (tmp_path / "notes.md").write_text("stray")
    problems = "\n".join(folder_problems(tmp_path))
    assert "ok.txt line 1" in problems and "value 7, not 1..6" in problems
    assert "ok.txt line 2" in problems and "4 fields" in problems
    assert "ok.txt line 3" in problems and "3 px outside the 64x48 image" in problems
    assert "ok.txt line 4" in problems and "empty box" in problems
    assert "ok.txt line 5" in problems and "not numbers" in problems
    assert "unlabelled.jpg: no label file unlabelled.txt" in problems
    assert "orphan.txt: neither a labelled photo nor a licence" in problems
    assert "broken.jpg: does not open as an image" in problems
    assert "notes.md: neither a labelled photo nor a licence" in problems
    assert len(problems.splitlines()) == 9


def test_an_empty_folder_is_a_problem(tmp_path: Path) -> None:
    assert folder_problems(tmp_path) == [f"{tmp_path.name}: no photos"]
