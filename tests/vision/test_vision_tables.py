"""Real tables beside the dice: board-game pieces and tray details are not dice, a side face
never decides a value, and a calibrated tray is read top-down at the size calibration measured.

The scenes are rendered by :mod:`vision.synthetic` from fixed seeds and read by the shipped
models, so each count below is the same on every run; the bounds leave room for a retrained
model to differ by a die or two without the test flipping.
"""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from vision import Die, Profile, Reading, TableRegion, read_dice
from vision.synthetic import Scene, TruthDie, random_scene, render


def _no_dice_scene(seed: int, **kw: object) -> tuple[np.ndarray, Scene]:
    rng = np.random.default_rng(seed)
    scene = random_scene(rng, width=640, height=480, n_dice=(0, 0), die_size=(22.0, 48.0),
                         **kw)  # type: ignore[arg-type]
    return render(scene, rng), scene


def test_board_game_pieces_are_not_dice() -> None:
    """Hex tiles with round number tokens, cards, meeples and coins on 24 tables hold no die;
    the reader reports at most one die over all of them (the shipped models before board
    pieces were learned reported 277 on 60 such tables)."""
    false_dice = 0
    pieces = 0
    for seed in range(24):
        img, scene = _no_dice_scene(5000 + seed, board=1.0, surface="any")
        pieces += len(scene.props)
        false_dice += len(read_dice(img).dice)
    assert pieces > 100  # the scenes really are full of pieces
    assert false_dice <= 1, f"{false_dice} board pieces read as dice"


def test_tray_snaps_and_stitching_are_not_dice() -> None:
    """A felt tray with metal snaps at its corners and stitching on its rim, and no die, on 24
    tables: at most 8 false dice (the shipped models before round 4 reported 171; round 4
    reports 5, most of them snaps seen as a pip; round 5 6, and 7 since a strong peak the
    classifier doubts is said an unsure die)."""
    false_dice = 0
    snaps = 0
    for seed in range(24):
        img, scene = _no_dice_scene(6000 + seed, board=1.0, tray=1.0, surface="felt")
        snaps += sum(p.kind == "snap" for p in scene.props)
        false_dice += len(read_dice(img).dice)
    assert snaps >= 16
    assert false_dice <= 8, f"{false_dice} tray details read as dice"


def test_the_same_tables_with_dice_are_read() -> None:
    """The positive side of the two tests above: dice thrown onto such tables are found and
    read (a reader that reports nothing would pass those)."""
    right = total = 0
    for seed in range(12):
        rng = np.random.default_rng(7000 + seed)
        scene = random_scene(rng, width=640, height=480, n_dice=(3, 6), die_size=(30.0, 48.0),
                             board=1.0, tray=0.5, surface="any")
        reading = read_dice(render(scene, rng))
        for t in scene.truth():
            if not t.readable:
                continue
            total += 1
            near = [d for d in reading.dice
                    if math.dist(d.center, t.center) < 0.5 * t.size]
            right += bool(near) and near[0].value == t.value
    assert total >= 40
    assert right >= 0.85 * total, f"{right} of {total} dice read right"


def test_a_side_face_never_decides_the_value() -> None:
    """Seen 35-60 degrees from straight down, each die shows side faces with other values;
    a die read with a value must show it on top: at most 3 of the 115 dice are read with a
    wrong value at confidence >= 0.5 (5 before round 4, 2 now), and most are read right."""
    wrong = right = total = 0
    for seed in range(30):
        rng = np.random.default_rng(8000 + seed)
        scene = random_scene(rng, width=640, height=480, n_dice=(2, 6), die_size=(36.0, 56.0),
                             tilt=(35.0, 60.0), surface="plain")
        assert scene.tilt >= 35.0
        reading = read_dice(render(scene, rng))
        for t in scene.truth():
            if not t.readable:
                continue
            total += 1
            near = [d for d in reading.dice if math.dist(d.center, t.center) < 0.6 * t.size]
            if not near or near[0].value is None:
                continue
            if near[0].value == t.value:
                right += 1
            elif near[0].confidence >= 0.5:
                wrong += 1
    assert total >= 80
    assert wrong <= 3, f"{wrong} of {total} dice read by a side face"
    assert right >= 0.7 * total, f"only {right} of {total} oblique dice read right"


def _tray_profile(scene: Scene, die_size: float) -> Profile:
    """What calibration would teach from this table: the tray's corners in the image, the
    homography from the image to the table plane, and the die size in that plane."""
    assert scene.tray is not None and scene.plane is not None
    to_image = scene.matrix()
    assert to_image is not None
    x0, y0, x1, y1 = scene.tray.inner
    corners = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float64).reshape(-1, 1, 2)
    poly = cv2.perspectiveTransform(corners, to_image).reshape(-1, 2)
    to_table = np.linalg.inv(to_image)
    region = TableRegion(polygon=tuple((float(x), float(y)) for x, y in poly),
                         homography=tuple(float(v) for v in (to_table / to_table[2, 2]).ravel()),
                         table_size=scene.plane)
    return Profile(table=region, die_size=die_size)


def _read_calibrated_tray(seed: int) -> tuple[list[TruthDie], Reading, Profile]:
    """A tray seen at 45-55 degrees with small dice (their top faces about 20 px in an
    800x600 image), board pieces around it, read with the tray's calibration."""
    rng = np.random.default_rng(9000 + seed)
    scene = random_scene(rng, width=800, height=600, n_dice=(3, 6), die_size=(24.0, 28.0),
                         tilt=(45.0, 55.0), tray=1.0, board=1.0, surface="felt", glare=0.0,
                         clutter=0)
    assert scene.tray is not None
    img = render(scene, rng)
    size = float(np.median([d.size for d in scene.dice]))
    profile = _tray_profile(scene, size)
    truth = [t for t in scene.truth() if t.readable]
    assert len(truth) >= 3
    return truth, read_dice(img, profile), profile


def _near(reading: Reading, t: TruthDie) -> list[Die]:
    return [d for d in reading.dice if math.dist(d.center, t.center) < 0.6 * t.size]


@pytest.mark.parametrize("seed", range(6))
def test_a_calibrated_tray_is_read_at_its_die_size(seed: int) -> None:
    """With the tray's calibration all but at most one die are found and nothing outside the
    tray is reported; centres come back in image pixels. (What is still reported inside the
    tray: some dice's side faces as dice of their own, see docs/vision.md, "What falls
    short".)"""
    truth, reading, profile = _read_calibrated_tray(seed)
    found = sum(bool(_near(reading, t)) for t in truth)
    assert found >= len(truth) - 1, f"found {found} of {len(truth)} dice"
    assert profile.table is not None
    tray = np.array(profile.table.polygon, np.float32).reshape(-1, 1, 2)
    outside = [d.center for d in reading.dice
               if cv2.pointPolygonTest(tray, d.center, True) < -2.0]
    assert outside == [], f"reported outside the tray: {outside}"


def test_calibrated_trays_read_right_in_total() -> None:
    """Over twelve such trays (56 dice) at least three in four dice are read right and at
    most three read wrong with confidence. Counted in total, not per tray: a model that
    reads one tray worse and another better is no worse (the shipped models read 83-88%,
    2-3 confidently wrong; over 40 trays rounds 4 and 5 read the same 88.6%)."""
    total = right = wrong = 0
    for seed in range(12):
        truth, reading, _profile = _read_calibrated_tray(seed)
        for t in truth:
            near = _near(reading, t)
            total += 1
            right += bool(near) and near[0].value == t.value
            wrong += bool(near) and near[0].value not in (None, t.value) \
                and near[0].confidence >= 0.5
    assert right >= 0.75 * total, f"read {right} of {total} right"
    assert wrong <= 6, f"{wrong} of {total} read wrong with confidence"
