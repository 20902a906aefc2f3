"""Icon-face sets: learned from <= 10 captures per face, tested on unseen rolls."""

from __future__ import annotations

import numpy as np
import pytest
from calib_synth import face_samples, relit

from calibration import faces
from calibration.images import CalibrationError, die_crops, nearest
from vision.profile import FaceSet, Profile
from vision.read import read_dice
from vision.synthetic import ICON_SETS, random_scene, render


def _unseen(fs: FaceSet, icon_set: str, rng: np.random.Generator, scenes: int,
            ) -> tuple[int, int]:
    """Faces named right among unseen dice: random turns, +/-30% light, no touching dice."""
    right = total = 0
    for _ in range(scenes):
        sc = random_scene(rng, n_dice=(3, 7), icon_set=icon_set, clutter=0, touching=0.0)
        img = relit(render(sc, rng), float(rng.uniform(0.7, 1.3)))
        found = die_crops(img)
        centres = [d.center for d in found]
        for t in sc.truth():
            j = nearest(centres, t.center, t.size / 3) if t.readable else None
            if j is None:
                continue
            total += 1
            right += fs.classify(found[j].crop)[0] == t.face
    return right, total


def test_eye_for_an_eye_set_from_ten_captures_reads_unseen_rolls() -> None:
    rng = np.random.default_rng(5)
    labels = faces.template("eye-for-an-eye")
    samples = face_samples(rng, labels, 10, "eye-for-an-eye")
    cv = faces.cross_validate(samples)
    assert cv.tested == 60
    assert cv.accuracy >= 0.98
    fs = faces.learn(samples, "eye-for-an-eye")
    assert fs.labels == labels
    right, total = _unseen(fs, "eye-for-an-eye", rng, 45)
    assert total > 150
    # the target: at least 99% of unseen dice (measured 99.3-100% over seeds, see
    # docs/calibration.md)
    assert right / total >= 0.99, f"{right}/{total}"


def test_dice_forge_set_from_ten_captures() -> None:
    rng = np.random.default_rng(6)
    labels = ICON_SETS["dice-forge"]  # the faces the renderer can draw
    assert faces.check_labels(labels, "dice-forge")  # a subset: some faces still missing
    samples = face_samples(rng, labels, 10, "dice-forge")
    fs = faces.learn(samples, "dice-forge")
    right, total = _unseen(fs, "dice-forge", rng, 40)
    assert total > 150
    # the target, also for the small glyphs (measured 98.2-100% over seeds, the misses
    # are crops the die finder cut badly), see docs/calibration.md
    assert right / total >= 0.99, f"{right}/{total}"


def test_read_dice_uses_the_learned_set() -> None:
    rng = np.random.default_rng(7)
    labels = faces.template("eye-for-an-eye")
    fs = faces.learn(face_samples(rng, labels, 8, "eye-for-an-eye"), "e4e")
    right = total = 0
    for _ in range(10):
        sc = random_scene(rng, n_dice=(3, 6), icon_set="eye-for-an-eye", clutter=0,
                          touching=0.0)
        reading = read_dice(render(sc, rng), Profile(face_sets=(fs,)))
        centres = [d.center for d in reading.dice]
        for t in sc.truth():
            j = nearest(centres, t.center, t.size / 3) if t.readable else None
            total += 1
            right += j is not None and reading.dice[j].face == t.face
    assert right / total >= 0.97, f"{right}/{total}"


def test_adding_samples_later_improves_the_set() -> None:
    rng = np.random.default_rng(8)
    labels = faces.template("eye-for-an-eye")
    first = face_samples(rng, labels, 1, "eye-for-an-eye")
    later = face_samples(rng, labels, 6, "eye-for-an-eye")
    small = faces.learn(first, "e4e")
    grown = faces.learn(later, "e4e", base=small)
    assert grown.labels == small.labels
    assert len(grown.examples) == len(small.examples) + 6 * len(labels) * faces.AUGMENT
    assert faces.samples_per_label(grown) == dict.fromkeys(labels, 7)
    r_small, n = _unseen(small, "eye-for-an-eye", np.random.default_rng(80), 25)
    r_grown, n2 = _unseen(grown, "eye-for-an-eye", np.random.default_rng(80), 25)
    assert n == n2
    # one capture per face already reads these rolls (nearly) right; more captures make the
    # answers surer and the threshold tighter, so dice of another game are left unknown more
    assert r_grown >= r_small >= 0.95 * n
    assert _mean_confidence(grown) > _mean_confidence(small)
    assert grown.threshold < small.threshold
    assert _labelled(grown, "dice-forge") < _labelled(small, "dice-forge")


def _crops(icon_set: str, seed: int, scenes: int) -> list[tuple[str, np.ndarray]]:
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(scenes):
        sc = random_scene(rng, n_dice=(3, 7), icon_set=icon_set, clutter=0, touching=0.0)
        found = die_crops(relit(render(sc, rng), float(rng.uniform(0.7, 1.3))))
        centres = [d.center for d in found]
        for t in sc.truth():
            j = nearest(centres, t.center, t.size / 3) if t.readable else None
            if j is not None and t.face is not None:
                out.append((t.face, found[j].crop))
    return out


def _mean_confidence(fs: FaceSet) -> float:
    got = [fs.classify(c) for _f, c in _crops("eye-for-an-eye", 81, 20)]
    return float(np.mean([conf for _lab, conf in got]))


def _labelled(fs: FaceSet, icon_set: str) -> int:
    """How many dice of another game the set gives a label (it should say unknown)."""
    return sum(fs.classify(c)[0] is not None for _f, c in _crops(icon_set, 82, 20))


def test_cross_validation_reports_confusions_and_keeps_base() -> None:
    rng = np.random.default_rng(9)
    samples = face_samples(rng, ("attack", "heal"), 3, "eye-for-an-eye")
    # a mislabelled capture shows up as a confusion
    bad = dict(samples)
    bad["heal"] = [*samples["heal"][:2], samples["attack"][0]]
    cv = faces.cross_validate(bad)
    assert cv.accuracy < 1.0
    assert any(t == "heal" for t, _g, _n in cv.confusions)
    assert "cross-validated accuracy" in cv.lines()[0]


def test_templates_and_label_checks() -> None:
    assert faces.template("eye-for-an-eye") == ICON_SETS["eye-for-an-eye"]
    forge = faces.template("dice-forge")
    assert set(ICON_SETS["dice-forge"]) <= set(forge)
    assert "shield-red" in forge and "chaos-red" not in forge
    assert "chaos-red" in faces.template("dice-forge-rebellion")
    with pytest.raises(CalibrationError, match=r"\['sword'\] are not faces of 'eye-for-an-eye'"):
        faces.check_labels(["attack", "sword"], "eye-for-an-eye")
    assert faces.check_labels(["attack"], "eye-for-an-eye") == [
        "movement", "defence", "heal", "ready", "resolve"]
    with pytest.raises(CalibrationError, match="no face template for game 'chess'"):
        faces.template("chess")
    with pytest.raises(CalibrationError, match="has no example crops"):
        faces.learn({"attack": [], "heal": []}, "x")
