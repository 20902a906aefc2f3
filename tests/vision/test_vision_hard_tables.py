"""Hard tables in the synthetic renderer (felt, mats, trays, oblique views, glare, stacked and
cocked dice), and the "hand in view" warning staying quiet on them."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from vision import WarningKind, read_dice
from vision.synthetic import (
    HARD_TABLES,
    SURFACES,
    Scene,
    Surface,
    SynthDie,
    random_scene,
    render,
)


def _warns_hand(img: np.ndarray) -> bool:
    return read_dice(img).warned(WarningKind.OCCLUSION)


@pytest.mark.parametrize("kind", SURFACES)
def test_each_surface_renders_and_is_fixed_by_its_seed(kind: str) -> None:
    die = SynthDie(center=(80.0, 60.0), size=30.0, value=5)
    scene = Scene(160, 120, (die,), surface=Surface(kind, (60, 40, 140), (200, 200, 90), seed=3))
    a, b = render(scene), render(scene)
    assert np.array_equal(a, b)
    other = render(dataclasses.replace(scene, surface=Surface(kind, (60, 40, 140),
                                                              (200, 200, 90), seed=4)))
    if kind != "plain":  # a texture: another seed, another texture
        assert not np.array_equal(a, other)
        assert float(a[:30, :30].std()) > 1.0  # the table top is not flat


def test_oblique_view_shows_side_faces() -> None:
    """Seen at 50 degrees, a die's side face lies below its top face in the image."""
    die = SynthDie(center=(100.0, 80.0), size=40.0, value=1, body_bgr=(230, 230, 230))
    top = render(Scene(200, 200, (die,), background_bgr=(40, 40, 40), shadow=0.0))
    side = render(Scene(200, 200, (die,), background_bgr=(40, 40, 40), shadow=0.0, tilt=50.0))
    below = (slice(104, 120), slice(90, 110))  # just under the top face
    assert float(top[below].mean()) < 60 < float(side[below].mean())


def test_stacked_and_cocked_dice_are_not_readable() -> None:
    rng = np.random.default_rng(5)
    seen = {"stacked": 0, "cocked": 0}
    for _ in range(30):
        scene = random_scene(rng, n_dice=(4, 8), stacked=0.3, cocked=0.3)
        truth = scene.truth()
        for d, t in zip(scene.dice, truth, strict=True):
            if d.stacked:
                seen["stacked"] += 1
                assert not t.readable
                below = [u for e, u in zip(scene.dice, truth, strict=True)
                         if e is not d and not e.stacked
                         and np.hypot(e.center[0] - d.center[0], e.center[1] - d.center[1])
                         < 0.5 * e.size]
                assert below and not any(u.readable for u in below)
            if d.cocked:
                seen["cocked"] += 1
                assert not t.readable
    assert seen["stacked"] > 5 and seen["cocked"] > 5


def test_default_scenes_unchanged_by_the_new_options() -> None:
    """The hard-table options draw nothing from the rng unless asked for."""
    a = random_scene(np.random.default_rng(9))
    b = random_scene(np.random.default_rng(9), surface=None, tray=0.0, tilt=(0.0, 0.0))
    assert a == b and a.surface is None and a.tray is None and a.tilt == 0.0


def test_bad_hard_table_options() -> None:
    rng = np.random.default_rng(1)
    with pytest.raises(ValueError, match="surface"):
        random_scene(rng, surface="velvet")
    with pytest.raises(ValueError, match="tilt"):
        random_scene(rng, tilt=(10.0, 85.0))
    with pytest.raises(ValueError, match=r"Surface\.kind"):
        Surface("velvet", (0, 0, 0))
    with pytest.raises(ValueError, match="tilt"):
        Scene(100, 100, (), tilt=-5.0)


def test_no_hand_warning_on_textured_tables() -> None:
    """Felt, mats, wood, tray walls and lamp glare are not hands (7 of these 30 scenes warned
    before the glare, edge and wall tests; round 4's detector, whose die sizes the check
    scales by, warns on 1 of them, and on 5 of the 367 hard-table frames of the benchmark
    where round 3's warned on 8)."""
    rng = np.random.default_rng(24)
    warned = 0
    for _ in range(30):
        # the textured tables this test was written for: no board game beside them (its
        # pieces came into HARD_TABLES later and would change every scene drawn here)
        scene = random_scene(rng, width=320, height=240, n_dice=(2, 6), die_size=(16.0, 30.0),
                             **{**HARD_TABLES, "board": 0.0})
        warned += _warns_hand(render(scene, rng))
    assert warned <= 2


@pytest.mark.parametrize("surface", ["felt", "mat", "cloth"])
def test_hand_reaching_in_still_warns_on_textured_tables(surface: str) -> None:
    rng = np.random.default_rng(8)
    scene = random_scene(rng, width=320, height=240, n_dice=(3, 3), die_size=(22.0, 22.0),
                         surface=surface)
    assert not _warns_hand(render(scene, rng))
    hand = ((110.0, 240.0), (105.0, 130.0), (150.0, 95.0), (205.0, 120.0), (200.0, 240.0))
    assert _warns_hand(render(dataclasses.replace(scene, hand=hand), rng))
