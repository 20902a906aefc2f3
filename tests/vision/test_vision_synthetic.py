"""The synthetic renderer: deterministic, truthful, valid input checked."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from vision.synthetic import ICON_SETS, Scene, SynthDie, random_scene, render


def test_icon_sets() -> None:
    assert ICON_SETS["eye-for-an-eye"] == ("movement", "attack", "defence", "heal", "ready",
                                           "resolve")
    assert len(ICON_SETS["dice-forge"]) >= 6
    assert len(set(ICON_SETS["dice-forge"])) == len(ICON_SETS["dice-forge"])


def test_render_is_deterministic_and_bgr() -> None:
    scene = random_scene(np.random.default_rng(1), perspective=0.2)
    a = render(scene)
    assert a.dtype == np.uint8 and a.shape == (480, 640, 3)
    assert np.array_equal(a, render(scene))
    n1 = render(scene, np.random.default_rng(5))
    n2 = render(scene, np.random.default_rng(5))
    assert np.array_equal(n1, n2) and not np.array_equal(n1, a)


def test_random_scene_is_seeded() -> None:
    assert random_scene(np.random.default_rng(3)) == random_scene(np.random.default_rng(3))
    assert random_scene(np.random.default_rng(3)) != random_scene(np.random.default_rng(4))


def test_die_drawn_where_truth_says() -> None:
    die = SynthDie(center=(100.0, 80.0), size=40.0, angle=20.0, value=5, colour="red",
                   body_bgr=(40, 35, 200), pip_bgr=(240, 240, 240))
    scene = Scene(200, 160, (die,), background_bgr=(200, 200, 200), shadow=0.0)
    img = render(scene)
    # body colour at the die (between pips), background far away
    assert tuple(img[80 + 10, 100]) != (200, 200, 200)
    assert tuple(img[5, 5]) == (200, 200, 200)
    (t,) = scene.truth()
    assert t.center == pytest.approx((100.0, 80.0)) and t.size == pytest.approx(40.0)
    assert t.value == 5 and t.readable


def test_moving_a_die_moves_pixels() -> None:
    scene = random_scene(np.random.default_rng(2), n_dice=(1, 1), clutter=0)
    d = scene.dice[0]
    moved = dataclasses.replace(scene, dice=(dataclasses.replace(
        d, center=(d.center[0] + 10, d.center[1])),))
    assert not np.array_equal(render(scene), render(moved))


def test_perspective_truth_moves_centres() -> None:
    rng = np.random.default_rng(9)
    scene = random_scene(rng, perspective=0.25, n_dice=(3, 3))
    flat = dataclasses.replace(scene, homography=None)
    assert scene.homography is not None
    moved = [np.hypot(a.center[0] - b.center[0], a.center[1] - b.center[1])
             for a, b in zip(scene.truth(), flat.truth(), strict=True)]
    assert max(moved) > 1.0


def test_icon_scene() -> None:
    scene = random_scene(np.random.default_rng(4), icon_set="dice-forge", n_dice=(3, 3))
    assert all(d.face in ICON_SETS["dice-forge"] and d.value is None for d in scene.dice)
    assert render(scene).shape == (480, 640, 3)


@pytest.mark.parametrize(("kw", "msg"), [
    ({"value": 3, "face": "heal"}, "exactly one of value or face"),
    ({"value": 9}, "SynthDie.value must be 1..6"),
    ({"face": "dragon"}, "in no ICON_SETS entry"),
])
def test_synth_die_validation(kw: dict[str, object], msg: str) -> None:
    with pytest.raises(ValueError, match=msg):
        SynthDie(center=(1.0, 1.0), size=10.0, **kw)  # type: ignore[arg-type]


def test_random_scene_rejects_unknowns() -> None:
    with pytest.raises(ValueError, match="unknown icon set"):
        random_scene(np.random.default_rng(0), icon_set="chess", n_dice=(1, 1))
    with pytest.raises(ValueError, match="unknown synthetic colour"):
        random_scene(np.random.default_rng(0), colours=["plaid"], n_dice=(1, 1))
