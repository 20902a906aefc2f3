"""read_dice on rendered frames with known truth, on bad frames, and with a profile."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from vision import (
    Profile,
    Reading,
    ReadWarning,
    TableRegion,
    WarningKind,
    annotate,
    read_dice,
)
from vision.synthetic import Scene, SynthDie, random_scene, render


def _match(reading: Reading, scene: Scene) -> list[tuple[int | None, int | None, float]]:
    """(truth value, read value or None, confidence) for each readable die in the scene."""
    out = []
    for t in scene.truth():
        if not t.readable:
            continue
        near = [d for d in reading.dice
                if np.hypot(d.center[0] - t.center[0], d.center[1] - t.center[1]) < t.size / 2]
        out.append((t.value, near[0].value if near else None,
                    near[0].confidence if near else 0.0))
    return out


def test_reads_isolated_synthetic_dice() -> None:
    rng = np.random.default_rng(123)
    results = []
    for _ in range(25):
        scene = random_scene(rng, n_dice=(2, 6), touching=0.0, clutter=0,
                             die_size=(36.0, 56.0))
        results += _match(read_dice(render(scene, rng)), scene)
    right = sum(1 for t, v, _ in results if t == v)
    confident_wrong = [(t, v, c) for t, v, c in results if v is not None and v != t and c >= 0.5]
    assert len(results) >= 60
    assert right / len(results) >= 0.9, results
    assert not confident_wrong


def test_dark_and_light_pips_and_colours() -> None:
    dice = (
        SynthDie(center=(100, 100), size=50, angle=10, value=6, colour="black",
                 body_bgr=(35, 35, 38), pip_bgr=(235, 235, 235)),
        SynthDie(center=(250, 100), size=50, angle=35, value=2, colour="white",
                 body_bgr=(228, 230, 232), pip_bgr=(30, 30, 30)),
        SynthDie(center=(400, 100), size=50, angle=60, value=5, colour="red",
                 body_bgr=(40, 35, 200), pip_bgr=(235, 235, 235)),
        SynthDie(center=(100, 260), size=50, angle=80, value=4, colour="yellow",
                 body_bgr=(40, 210, 235), pip_bgr=(30, 30, 30)),
        SynthDie(center=(250, 260), size=50, angle=5, value=3, colour="green",
                 body_bgr=(60, 160, 40), pip_bgr=(235, 235, 235)),
        SynthDie(center=(400, 260), size=50, angle=45, value=1, colour="blue",
                 body_bgr=(190, 100, 25), pip_bgr=(235, 235, 235)),
    )
    scene = Scene(520, 360, dice, background_bgr=(150, 150, 150), shadow=0.3)
    reading = read_dice(render(scene))
    assert len(reading.dice) == 6
    by_value = {d.value: d for d in reading.dice}
    assert set(by_value) == {1, 2, 3, 4, 5, 6}
    assert by_value[6].colour == "black"
    assert by_value[2].colour == "white"
    assert by_value[5].colour == "red"
    assert by_value[4].colour == "yellow"
    assert by_value[3].colour == "green"
    assert by_value[1].colour == "blue"
    for d in reading.dice:
        assert d.face == str(d.value) and d.confidence >= 0.5
        assert len(d.corners) == 4 and d.size == pytest.approx(50, rel=0.35)


def test_touching_pair_is_split() -> None:
    a = SynthDie(center=(200, 150), size=48, angle=0, value=3, colour="red",
                 body_bgr=(40, 35, 200), pip_bgr=(235, 235, 235))
    b = dataclasses.replace(a, center=(249, 150), value=5, colour="blue", body_bgr=(190, 100, 25))
    c = SynthDie(center=(450, 300), size=48, angle=30, value=2, colour="yellow",
                 body_bgr=(40, 210, 235), pip_bgr=(30, 30, 30))
    scene = Scene(640, 480, (a, b, c), background_bgr=(200, 200, 200), shadow=0.2)
    reading = read_dice(render(scene))
    assert sorted(v for v in reading.values() if v is not None) == [2, 3, 5]


def test_perspective_scene() -> None:
    rng = np.random.default_rng(8)
    results = []
    for _ in range(25):
        scene = random_scene(rng, n_dice=(2, 5), touching=0.0, clutter=0, perspective=0.15,
                             die_size=(40.0, 56.0))
        results += _match(read_dice(render(scene, rng)), scene)
    right = sum(1 for t, v, _ in results if t == v)
    assert right / len(results) >= 0.85
    assert not [r for r in results if r[1] is not None and r[1] != r[0] and r[2] >= 0.5]


@pytest.mark.parametrize(("frame", "msg"), [
    (np.zeros((0, 0, 3), np.uint8), "frame is empty"),
    (np.zeros((100, 100, 3), np.float32), "dtype uint8"),
    (np.zeros((100, 100, 5), np.uint8), "HxWx3 BGR"),
    (np.zeros((4, 100, 100, 3), np.uint8), "HxWx3 BGR"),
    ([[1, 2], [3, 4]], "numpy array"),
    (None, "numpy array"),
])
def test_bad_frames_raise(frame: object, msg: str) -> None:
    with pytest.raises(ValueError, match=msg):
        read_dice(frame)  # type: ignore[arg-type]


@pytest.mark.parametrize(("frame", "msg"), [
    (np.zeros((480, 640, 3), np.uint8), "all black"),
    (np.full((480, 640, 3), 255, np.uint8), "all white"),
    (np.full((480, 640, 3), 128, np.uint8), "featureless"),
    (np.full((10, 10, 3), 128, np.uint8), "too small"),
])
def test_blank_frames_give_empty_reading(frame: np.ndarray, msg: str) -> None:
    r = read_dice(frame)
    assert r.dice == () and len(r.warnings) == 1 and msg in r.warnings[0].text
    assert r.warnings[0].kind is WarningKind.UNREADABLE_FRAME
    assert r.frame_shape == frame.shape[:2]


def test_grey_and_bgra_frames_are_read() -> None:
    scene = Scene(320, 240, (SynthDie(center=(160, 120), size=50, value=4, colour="white",
                                      body_bgr=(230, 230, 230), pip_bgr=(20, 20, 20)),),
                  background_bgr=(90, 90, 90), shadow=0.0)
    img = render(scene)
    import cv2
    assert read_dice(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)).values() == (4,)
    assert read_dice(cv2.cvtColor(img, cv2.COLOR_BGR2BGRA)).values() == (4,)


def test_profile_table_region_limits_search() -> None:
    left = SynthDie(center=(100, 120), size=50, value=2, colour="red", body_bgr=(40, 35, 200),
                    pip_bgr=(235, 235, 235))
    right = dataclasses.replace(left, center=(500, 120), value=6)
    scene = Scene(640, 240, (left, right), background_bgr=(200, 200, 200), shadow=0.0)
    img = render(scene)
    assert sorted(v for v in read_dice(img).values() if v) == [2, 6]
    prof = Profile(table=TableRegion(((0, 0), (320, 0), (320, 240), (0, 240))))
    assert read_dice(img, prof).values() == (2,)
    with pytest.raises(ValueError, match=r"vision\.Profile"):
        read_dice(img, {"table": None})  # type: ignore[arg-type]


def test_profile_homography_maps_back_to_image() -> None:
    rng = np.random.default_rng(21)
    scene = random_scene(rng, n_dice=(3, 3), touching=0.0, clutter=0, perspective=0.2,
                         die_size=(48.0, 52.0))
    img = render(scene)
    h = scene.matrix()
    assert h is not None
    inv = np.linalg.inv(h)  # image -> flat table plane
    prof = Profile(table=TableRegion(((0, 0), (640, 0), (640, 480), (0, 480)),
                                     tuple(float(v) for v in inv.ravel()), (640, 480)))
    reading = read_dice(img, prof)
    results = _match(reading, scene)
    assert sum(1 for t, v, _ in results if t == v) >= 2
    for d in reading.dice:  # centres are in image pixels, near a true die
        assert min(np.hypot(d.center[0] - t.center[0], d.center[1] - t.center[1])
                   for t in scene.truth()) < 10


def test_annotate_returns_new_image() -> None:
    scene = random_scene(np.random.default_rng(5), n_dice=(3, 3))
    img = render(scene)
    before = img.copy()
    reading = read_dice(img)
    out = annotate(img, reading)
    assert np.array_equal(img, before)
    assert out.shape == img.shape and out is not img and not np.array_equal(out, img)
    black = ReadWarning(WarningKind.UNREADABLE_FRAME, "frame is all black")
    blank = annotate(img, Reading.empty(img.shape[:2], black))
    assert not np.array_equal(blank, img)  # the warning is drawn
    with pytest.raises(ValueError, match="uint8"):
        annotate(img.astype(np.float32), reading)


def test_hand_warns_occlusion() -> None:
    rng = np.random.default_rng(6)
    scene = random_scene(rng, n_dice=(3, 3), touching=0.0, clutter=0)
    hand = ((250.0, 480.0), (260.0, 250.0), (330.0, 200.0), (420.0, 230.0), (430.0, 480.0))
    with_hand = dataclasses.replace(scene, hand=hand)
    assert not read_dice(render(scene)).warned(WarningKind.OCCLUSION)
    warned = read_dice(render(with_hand)).warnings
    assert [w.kind for w in warned] == [WarningKind.OCCLUSION]
    assert "a hand?" in str(warned[0])  # the words people see
