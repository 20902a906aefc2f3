"""Icon faces on synthetic dice: example crops for learning a :class:`FaceSet`, and a score.

Calibration learns a FaceSet from crops of the real dice; these helpers do the same with
rendered dice, for tests, the demo camera and the benchmark.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from vision.profile import FaceSet, Profile
from vision.read import DiceReader, shipped_reader
from vision.synthetic import ICON_SETS, SYNTH_COLOURS, Scene, SynthDie, random_scene, render

Image = npt.NDArray[Any]


_BACKGROUNDS: tuple[tuple[int, int, int], ...] = (
    (205, 205, 200), (170, 200, 215), (60, 110, 50), (70, 60, 55), (150, 150, 150))


def synthetic_face_crops(icon_set: str, rng: np.random.Generator, per_face: int = 4,
                         size: float = 48.0) -> dict[str, list[npt.NDArray[np.uint8]]]:
    """``{face: [crop, ...]}``: each face rendered ``per_face`` times at random angles/colours.

    The crops are what :class:`~vision.read.DiceReader` would cut out (read back from a
    rendered scene), so a FaceSet learned from them matches what it will be shown.
    """
    if icon_set not in ICON_SETS:
        raise ValueError(f"unknown icon set {icon_set!r}; known: {sorted(ICON_SETS)}")
    from vision.read import check_frame, find_candidates

    out: dict[str, list[npt.NDArray[np.uint8]]] = {f: [] for f in ICON_SETS[icon_set]}
    names = list(SYNTH_COLOURS)
    for face in ICON_SETS[icon_set]:
        while len(out[face]) < per_face:
            colour = names[int(rng.integers(len(names)))]
            dark = colour in ("black", "red", "green", "blue", "purple", "grey")
            sz = float(rng.uniform(0.85, 1.15)) * size
            die = SynthDie(center=(160.0, 120.0), size=sz, angle=float(rng.uniform(0, 90)),
                           face=face, colour=colour, body_bgr=SYNTH_COLOURS[colour],
                           pip_bgr=(235, 235, 235) if dark else (30, 30, 30))
            bg = _BACKGROUNDS[int(rng.integers(len(_BACKGROUNDS)))]
            scene = Scene(320, 240, (die,), background_bgr=bg,
                          shadow=float(rng.uniform(0.15, 0.45)), noise=3.0)
            img, _ = check_frame(render(scene, rng))
            assert img is not None
            cands, _side, _hand = find_candidates(img, None, sz)
            if cands:
                out[face].append(cands[0].crop)
    return out


def icon_accuracy(icon_set: str, rng: np.random.Generator, n_dice: int,
                  reader: DiceReader | None = None) -> tuple[float, int]:
    """Learn a FaceSet from rendered examples, then read random scenes of that set with
    ``reader`` (the shipped models by default).

    Returns (share of readable dice read with the right face, number of dice).
    """
    fs = FaceSet.learn(synthetic_face_crops(icon_set, rng, per_face=12), name=icon_set)
    profile = Profile(face_sets=(fs,))
    reader = reader if reader is not None else shipped_reader()
    right = total = 0
    while total < n_dice:
        scene = random_scene(rng, n_dice=(1, 6), icon_set=icon_set, touching=0.0,
                             die_size=(40.0, 56.0))
        reading = reader.read(render(scene, rng), profile)
        for t in scene.truth():
            if not t.readable:
                continue
            total += 1
            near = [d for d in reading.dice
                    if np.hypot(d.center[0] - t.center[0], d.center[1] - t.center[1]) < t.size / 2]
            if near and near[0].face == t.face:
                right += 1
    return right / max(1, total), total
