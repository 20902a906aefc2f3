"""SyntheticSource: roll animation (with a small local renderer) and the real vision renderer."""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import cv2
import numpy as np
import pytest

from hardware.camera import SyntheticSource


@dataclass(frozen=True)
class Die:
    center: tuple[float, float]
    angle: float
    value: int | None
    colour: str


@dataclass(frozen=True)
class Scene:
    width: int
    height: int
    dice: tuple[Die, ...]


def scene_factory(rng: np.random.Generator) -> Scene:
    n = int(rng.integers(2, 5))
    dice = tuple(
        Die((float(rng.uniform(60, 580)), float(rng.uniform(60, 420))),
            float(rng.uniform(0, 90)), int(rng.integers(1, 7)), "red")
        for _ in range(n)
    )
    return Scene(640, 480, dice)


def draw(scene: Scene, rng: np.random.Generator) -> np.ndarray:
    img = np.zeros((scene.height, scene.width, 3), np.uint8)
    for d in scene.dice:
        cv2.circle(img, (round(d.center[0]), round(d.center[1])), 12, (0, 0, 255), -1)
    return img


def make(**kw: object) -> SyntheticSource:
    return SyntheticSource(scene_factory=scene_factory, renderer=draw, realtime=False,
                           seed=3, fps=20, **kw)  # type: ignore[arg-type]


def test_a_roll_goes_empty_then_rolling_decelerating_then_resting_then_next_roll() -> None:
    with make() as src:
        frames, truths = [], []
        for _ in range(int(src.cycle_s * 20) + 10):
            frames.append(src.read())
            assert src.truth is not None
            truths.append(src.truth)
    phases = [t.phase for t in truths]
    assert phases[0] == "empty" and "rolling" in phases and "resting" in phases
    first_rest = phases.index("resting")
    assert set(phases[:first_rest]) == {"empty", "rolling"}
    assert truths[-1].roll == 1 and truths[-1].phase in ("empty", "rolling")
    # while rolling, each die closes in on its resting place, moving less every frame
    rolling = [t for t in truths if t.roll == 0 and t.phase == "rolling"]
    target = rolling[0].target
    dists = [max(math.dist(d.center, g.center) for d, g in zip(t.scene.dice, target.dice,
                                                                 strict=True)) for t in rolling]
    assert all(b <= a + 1e-9 for a, b in itertools.pairwise(dists))
    steps = [a - b for a, b in itertools.pairwise(dists)]
    assert steps[-1] < steps[0]  # decelerating
    # at rest the frame shows the target exactly, and the picture stops changing
    rest = [i for i, t in enumerate(truths) if t.roll == 0 and t.settled]
    assert all(truths[i].scene == target for i in rest)
    assert len(rest) == pytest.approx(src.rest_s * 20, abs=1)
    assert np.array_equal(frames[rest[0]].image, frames[rest[-1]].image)
    assert [f.t - frames[0].t for f in frames[:3]] == pytest.approx([0, 0.05, 0.1])


def test_faces_tumble_while_rolling_and_match_the_target_at_rest() -> None:
    with make(roll_s=2.0, empty_s=0.0) as src:
        seen = set()
        for _ in range(20):
            src.read()
            assert src.truth is not None
            seen.add(tuple(d.value for d in src.truth.scene.dice))
    assert len(seen) > 3


def test_same_seed_same_rolls_and_speed_compresses_table_time() -> None:
    with make() as a, make() as b:
        imgs_a = [a.read().image for _ in range(40)]
        imgs_b = [b.read().image for _ in range(40)]
    assert all(np.array_equal(x, y) for x, y in zip(imgs_a, imgs_b, strict=True))
    with make(speed=4.0) as fast:
        n = int(fast.cycle_s * 20 / 4) + 2
        for _ in range(n):
            fast.read()
        assert fast.truth is not None and fast.truth.roll == 1


def test_realtime_synthetic_paces_frames_on_the_clock() -> None:
    now = [5.0]
    slept: list[float] = []

    def sleep(dt: float) -> None:
        slept.append(dt)
        now[0] += dt

    src = SyntheticSource(scene_factory=scene_factory, renderer=draw, fps=10, seed=1,
                          clock=lambda: now[0], sleep=sleep)
    with src:
        ts = [src.read().t for _ in range(3)]
        now[0] += 1.0  # reader was busy for a second: the next frame is "now", not a backlog
        late = src.read()
    assert ts == pytest.approx([5.0, 5.1, 5.2]) and slept == pytest.approx([0.1, 0.1])
    assert late.t == pytest.approx(now[0]) and late.index == 3


def test_with_the_vision_renderer() -> None:
    from companion.services.standin import stand_in_camera
    from vision import synthetic as vs

    with stand_in_camera({"seed": 11, "realtime": False, "fps": 10, "width": 320,
                          "height": 240}) as src:
        frames = [src.read() for _ in range(int(src.cycle_s * 10) + 1)]
        truth = src.truth
    assert frames[0].image.shape == (240, 320, 3) and frames[0].image.dtype == np.uint8
    assert truth is not None and isinstance(truth.target, vs.Scene)
    assert all(isinstance(d, vs.SynthDie) for d in truth.target.dice)
    assert not np.array_equal(frames[len(frames) // 4].image, frames[-1].image)


def test_icon_dice_tumble_through_their_own_icon_set() -> None:
    from companion.services.standin import stand_in_camera
    from vision import synthetic as vs

    name, faces = next(iter(vs.ICON_SETS.items()))

    def icon_scene(rng: np.random.Generator) -> object:
        return vs.random_scene(rng, width=320, height=240, n_dice=(3, 3), icon_set=name)

    with stand_in_camera({"seed": 4, "realtime": False, "fps": 10, "width": 320,
                          "height": 240}, empty_s=0, scene_factory=icon_scene) as src:
        seen: set[str] = set()
        for _ in range(8):
            src.read()
            assert src.truth is not None
            seen.update(d.face for d in src.truth.scene.dice)
    assert len(seen) > 3 and seen <= set(faces)


def test_without_a_renderer_the_stand_in_says_it_has_nothing_to_draw() -> None:
    from hardware.errors import CameraUnavailable

    with pytest.raises(CameraUnavailable, match="nothing to draw"):
        SyntheticSource(realtime=False).open()


def test_hardware_imports_nothing_of_vision() -> None:
    """Devices, not dice: no module of hardware/ names vision, even through importlib."""
    import re
    from pathlib import Path

    imports = re.compile(r"^\s*(from|import)\s+vision\b|import_module\(\s*[\"']vision",
                         re.MULTILINE)
    root = Path(__file__).parents[2] / "hardware"
    for path in root.rglob("*.py"):
        assert not imports.search(path.read_text(encoding="utf-8")), path
