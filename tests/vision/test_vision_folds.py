"""Honest folds: the same photograph under two names lands in one fold (vision.folds)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.folds import (
    duplicate_groups,
    folds_of,
    grouped_folds,
    near_identical,
    photo_groups,
    split_of,
    thumbnail,
)
from vision.synthetic import Scene, random_scene, render

PHOTOS = Path(__file__).parents[2].parent / "shared" / "data" / "dice-photos"
if not PHOTOS.exists():  # a worktree one level deeper than the main checkout
    PHOTOS = Path(__file__).parents[2].parent.parent / "shared" / "data" / "dice-photos"


def _jpeg(img: np.ndarray, quality: int) -> np.ndarray:
    ok, enc = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, quality])
    assert ok
    return np.asarray(cv2.imdecode(enc, cv2.IMREAD_COLOR), np.uint8)


def _table(seed: int) -> tuple[np.ndarray, Scene]:
    rng = np.random.default_rng(seed)
    scene = random_scene(rng, width=640, height=640, n_dice=(3, 3), die_size=(20.0, 26.0),
                         clutter=0)
    return render(scene, rng), scene


def test_a_photo_re_encoded_is_the_same_photo() -> None:
    img, _ = _table(1)
    assert near_identical(thumbnail(_jpeg(img, 95)), thumbnail(_jpeg(img, 60)))


def test_the_same_plain_sheet_with_one_small_die_moved_is_another_photo() -> None:
    """A white sheet with three small dice, and the same sheet with one of them moved by a
    few sizes: the average thumbnail differs by less than re-encoding noise, but these are
    two photographs (byler-train has dozens of such pairs)."""
    _img, scene = _table(2)
    first = scene.dice[0]
    shifted = dataclasses.replace(first, center=(first.center[0] + 90, first.center[1]))
    moved = dataclasses.replace(scene, dice=(shifted, *scene.dice[1:]))
    a, b = thumbnail(_jpeg(render(scene), 90)), thumbnail(_jpeg(render(moved), 90))
    assert float(np.abs(a - b).mean()) < 2.0  # an average alone would call them the same
    assert not near_identical(a, b)


def test_copies_share_the_fold_of_the_first_and_others_keep_theirs() -> None:
    a, _ = _table(3)
    b, _ = _table(4)
    c, _ = _table(5)
    thumbs = [thumbnail(x) for x in (a, b, c, _jpeg(a, 80), b, _jpeg(c, 60))]
    groups = duplicate_groups(thumbs)
    assert groups == [0, 1, 2, 0, 1, 2]
    assert grouped_folds(groups) == [0, 1, 2, 0, 1, 2]  # index % 3 would be 0 1 2 0 1 2 too
    # the copies moved: at indices 4 and 5 by index, with their originals by group
    assert folds_of("index", [0, 1, 2, 3, 1, 2]) == [0, 1, 2, 0, 1, 2]
    assert folds_of("grouped", [0, 1, 2, 3, 1, 0]) == [0, 1, 2, 0, 1, 0]


def test_a_copy_of_a_copy_joins_one_group() -> None:
    t = np.full((64, 64), 100.0, np.float32)
    assert near_identical(t, t + 1.5) and not near_identical(t, t + 3.0)
    assert duplicate_groups([t, t + 1.5, t + 3.0, t + 60.0]) == [0, 0, 0, 3]
    spot = t.copy()
    spot[30, 30] += 20.0  # one pixel of the thumbnail differs: another photo
    assert not near_identical(t, spot)


def test_bad_thumbnail_input_names_the_problem() -> None:
    with pytest.raises(ValueError, match="uint8"):
        thumbnail(np.zeros((8, 8), np.float32))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="HxW"):
        thumbnail(np.zeros((8, 8, 2), np.uint8))


def test_unreadable_files_have_no_copy(tmp_path: Path) -> None:
    img, _ = _table(6)
    cv2.imwrite(str(tmp_path / "a.png"), img)
    cv2.imwrite(str(tmp_path / "b.png"), img)
    (tmp_path / "c.png").write_bytes(b"not an image")
    (tmp_path / "d.png").write_bytes(b"not one either")
    paths = sorted(tmp_path.iterdir())
    assert photo_groups(paths) == [0, 0, 2, 3]


def test_the_split_of_fold_models_is_read_from_their_folder(tmp_path: Path) -> None:
    assert split_of(tmp_path) == "index"  # rounds 2-6 have no file
    (tmp_path / "split.txt").write_text("grouped\n")
    assert split_of(tmp_path) == "grouped"
    (tmp_path / "split.txt").write_text("random")
    with pytest.raises(ValueError, match=r"split\.txt.*'random'"):
        split_of(tmp_path)


@pytest.mark.skipif(not PHOTOS.exists(), reason=f"no shared photos at {PHOTOS}")
def test_the_shared_sets_copies_are_found() -> None:
    """visdice-train holds 79 photos that are another photo under a new name (its README);
    byler-train's many photos of the same white sheet are not copies."""
    for folder, copies in (("visdice-train", 79), ("byler-train", 0)):
        jpgs = sorted((PHOTOS / folder).glob("*.jpg"))
        groups = photo_groups(jpgs)
        assert sum(g != i for i, g in enumerate(groups)) == copies, folder
        assert all(groups.count(g) <= 2 for g in set(groups))
