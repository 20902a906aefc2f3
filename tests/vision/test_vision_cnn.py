"""The CNN path of read_dice: model files, detector, classifier, helpers, classical fallback."""

from __future__ import annotations

import numpy as np
import pytest

import vision.read as read_mod
from vision import read_dice
from vision.cnn import (
    CLS_PATH,
    DET_PATH,
    MODELS,
    RECHECK_BELOW,
    Detection,
    body_bgr,
    crop,
    die_angle,
    nets,
)
from vision.synthetic import Scene, SynthDie, random_scene, render


def test_models_are_small_onnx_files() -> None:
    assert DET_PATH.exists() and CLS_PATH.exists()
    total = sum(p.stat().st_size for p in MODELS.iterdir() if p.is_file())
    assert total <= 5 * 1024 * 1024, total


def test_detector_finds_synthetic_dice_centres() -> None:
    n = nets()
    assert n is not None
    rng = np.random.default_rng(99)
    found = total = 0
    size_err: list[float] = []
    for _ in range(6):
        scene = random_scene(rng, n_dice=(3, 8), die_size=(36.0, 56.0))
        img = render(scene, rng)
        dets = n.detect(img)
        for t in scene.truth():
            if not t.readable:
                continue
            total += 1
            near = [d for d in dets if np.hypot(d.cx - t.center[0], d.cy - t.center[1])
                    < 0.3 * t.size]
            if near:
                found += 1
                size_err.append(abs(near[0].size / t.size - 1))
    assert total >= 15
    assert found / total >= 0.9, (found, total)
    assert float(np.median(size_err)) < 0.15, size_err
    assert sum(e < 0.35 for e in size_err) >= 0.85 * len(size_err), size_err


def _six_dice(turn: float, body: tuple[int, int, int],
              pips: tuple[int, int, int]) -> tuple[np.ndarray, list[Detection]]:
    """A row of dice showing 1..6, turned ``turn`` degrees per pip, and where they are."""
    dice = tuple(
        SynthDie(center=(70 + 100 * (v - 1), 80), size=50, angle=turn * v, value=v,
                 colour="any", body_bgr=body, pip_bgr=pips)
        for v in range(1, 7))
    img = render(Scene(660, 170, dice, background_bgr=(90, 120, 90)))
    return img, [Detection(70 + 100 * (v - 1), 80, 50, 1.0) for v in range(1, 7)]


def test_classifier_reads_each_value() -> None:
    n = nets()
    assert n is not None
    img, dets = _six_dice(17, (228, 230, 232), (30, 30, 30))
    p = n.classify(img, dets)
    assert p.shape == (6, 7)
    assert np.allclose(p.sum(axis=1), 1.0, atol=1e-3)
    assert [int(np.argmax(row)) for row in p] == [1, 2, 3, 4, 5, 6]


def test_recheck_reads_only_unsure_dice_again() -> None:
    n = nets()
    assert n is not None
    img, dets = _six_dice(11, (40, 35, 200), (235, 235, 235))
    given = np.full((6, 7), 1 / 7, np.float32)  # unsure rows: nothing likely
    given[0] = [0.0, 0.95, 0.01, 0.01, 0.01, 0.01, 0.01]  # sure (and wrong: left alone)
    given[1] = [0.9, 0.02, 0.02, 0.02, 0.02, 0.01, 0.01]  # called "not a die"
    before = given.copy()
    got = n.recheck(img, dets, given, not_die=0.5)
    assert np.array_equal(given, before)  # the input is not changed
    assert np.array_equal(got[:2], given[:2])
    four = n.classify(img, dets[2:], turns=4)  # the four quarter-turns, averaged
    assert np.allclose(got[2:], four, atol=1e-5)
    assert [int(np.argmax(row)) for row in got[2:]] == [3, 4, 5, 6]
    assert all(float(row[1:].max()) >= RECHECK_BELOW for row in got[2:])


@pytest.mark.parametrize("angle", [0.0, 20.0, 37.0, 65.0])
def test_die_angle_follows_rotation(angle: float) -> None:
    d = SynthDie(center=(60, 60), size=50, angle=angle, value=5, colour="red",
                 body_bgr=(40, 35, 200), pip_bgr=(235, 235, 235))
    img = render(Scene(120, 120, (d,), background_bgr=(200, 200, 200), shadow=0.0))
    got = die_angle(crop(img, 60, 60, 50, side=48, scale=1.2))
    diff = abs((got - angle + 45) % 90 - 45)
    assert diff < 8, (got, angle)


def test_body_colour_ignores_pips() -> None:
    d = SynthDie(center=(60, 60), size=60, angle=0, value=6, colour="blue",
                 body_bgr=(190, 100, 25), pip_bgr=(235, 235, 235))
    img = render(Scene(120, 120, (d,), background_bgr=(200, 200, 200), shadow=0.0))
    b = body_bgr(crop(img, 60, 60, 60, side=48, scale=1.0))
    assert abs(b[0] - 190) < 30 and abs(b[1] - 100) < 30 and abs(b[2] - 25) < 30


def test_classical_fallback_without_models(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(read_mod, "nets", lambda: None)
    d = SynthDie(center=(100, 100), size=50, angle=10, value=3, colour="red",
                 body_bgr=(40, 35, 200), pip_bgr=(235, 235, 235))
    reading = read_dice(render(Scene(220, 200, (d,), background_bgr=(200, 200, 200))))
    assert [x.value for x in reading.dice] == [3]
