"""Colour palettes: learned from 5 dice per colour, robust to +/-30% light; separability."""

from __future__ import annotations

import numpy as np
import pytest
from calib_synth import colour_samples, relit

from calibration import palette as pal
from calibration.images import CalibrationError, die_crops, nearest
from vision.synthetic import random_scene, render


def _unseen_accuracy(palette, rng: np.random.Generator, scenes: int) -> tuple[int, int]:
    right = total = 0
    for i in range(scenes):
        sc = random_scene(rng, n_dice=(4, 8), colours=pal.RULEBOOK_COLOURS, clutter=1)
        factor = (0.7, 1.3)[i % 2] if i % 3 == 0 else float(rng.uniform(0.7, 1.3))
        img = relit(render(sc, rng), factor)
        found = die_crops(img)
        centres = [d.center for d in found]
        for t in sc.truth():
            j = nearest(centres, t.center, t.size / 3) if t.readable else None
            if j is None:
                continue
            got, _ = palette.classify_lab(pal.body_lab(found[j].crop))
            total += 1
            right += got == t.colour
    return right, total


def test_palette_from_five_dice_names_unseen_dice_under_changed_light() -> None:
    right = total = 0
    for seed in (0, 1):
        rng = np.random.default_rng(seed)
        samples = colour_samples(rng, pal.RULEBOOK_COLOURS, 5)
        stats, palette = pal.learn(samples)
        assert [s.name for s in stats] == list(pal.RULEBOOK_COLOURS)
        assert all(s.samples == 5 for s in stats)
        r, t = _unseen_accuracy(palette, rng, 45)
        right += r
        total += t
    assert total > 400
    assert right / total >= 0.99, f"{right}/{total}"


def test_learned_references_beat_plain_medians_under_dim_light() -> None:
    rng = np.random.default_rng(3)
    samples = colour_samples(rng, pal.RULEBOOK_COLOURS, 5)
    stats, fitted = pal.learn(samples)
    plain = pal.to_palette(stats)
    x, y = [], []
    for j, s in enumerate(stats):
        labs = [pal.body_lab(c.crop) for c in samples[s.name]]
        a = pal.augment(labs, s.spread, 0.3, seed=50 + j)
        x.append(a)
        y += [s.name] * len(a)
    xs = np.vstack(x)

    def acc(p) -> float:
        return float(np.mean([p.classify_lab(v)[0] == n for v, n in zip(xs, y, strict=True)]))

    assert acc(fitted) >= acc(plain)
    assert acc(fitted) > 0.97


def test_separability_flags_colours_the_camera_cannot_tell_apart() -> None:
    rng = np.random.default_rng(4)
    samples = colour_samples(rng, ("red", "blue", "orange"), 5)
    # "scarlet" is the same red dice shown again under another name
    samples["scarlet"] = samples["red"]
    stats, palette = pal.learn(samples)
    pairs = pal.separability(stats, palette)
    worst = pairs[0]
    assert {worst.a, worst.b} == {"red", "scarlet"}
    assert worst.confusable
    assert not any(p.confusable for p in pairs if {"blue"} & {p.a, p.b})
    lines = pal.describe_pairs(pairs)
    assert lines[0].startswith("cannot tell apart: red / scarlet")


def test_one_roll_clusters_named_by_the_players() -> None:
    rng = np.random.default_rng(5)
    sc = random_scene(rng, n_dice=(8, 8), colours=("green", "pink", "black"), touching=0.0,
                      clutter=0)
    img = render(sc, rng)
    found = die_crops(img)
    clusters = pal.cluster_roll(found, 3)
    truth = {}
    for t in sc.truth():
        j = nearest([d.center for d in found], t.center, t.size / 3)
        if j is not None:
            truth[j] = t.colour
    # each cluster holds one colour only
    for c in clusters:
        assert len({truth[i] for i in c.members if i in truth}) == 1
    names = {c.index: truth[c.members[0]] for c in clusters}
    named = pal.name_clusters(found, clusters, names)
    assert set(named) == {truth[i] for i in truth}
    with pytest.raises(CalibrationError, match="no cluster 7"):
        pal.name_clusters(found, clusters, {7: "red"})
    with pytest.raises(CalibrationError, match="cannot make 20 colour clusters"):
        pal.cluster_roll(found, 20)


def test_learn_rejects_bad_input() -> None:
    with pytest.raises(CalibrationError, match="light change"):
        pal.learn({"red": []}, light=1.5)
    with pytest.raises(CalibrationError, match="'red': no dice"):
        pal.learn({"red": []})
