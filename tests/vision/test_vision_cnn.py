"""The CNN path of read_dice: model files, detector, classifier, helpers, classical fallback."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision import DiceReader
from vision.cnn import (
    CLS,
    CLS_PATH,
    DET,
    DET_PATH,
    MODELS,
    RECHECK_BELOW,
    REF_SIDE,
    TILE_MARGIN,
    Detection,
    body_bgr,
    cover,
    crop,
    die_angle,
    load_nets,
    load_onnx,
    shrink,
    warp_down,
)
from vision.synthetic import Scene, SynthDie, random_scene, render


def test_models_are_small_onnx_files() -> None:
    assert DET_PATH.exists() and CLS_PATH.exists()
    total = sum(p.stat().st_size for p in MODELS.iterdir() if p.is_file())
    assert total <= 5 * 1024 * 1024, total


@pytest.mark.skipif(not hasattr(cv2.dnn, "ENGINE_NEW"), reason="OpenCV 4 has one engine")
@pytest.mark.parametrize(("path", "shape"), [(DET_PATH, (1, 3, DET, DET)),
                                             (CLS_PATH, (5, 3, CLS, CLS))])
def test_classic_engine_gives_the_default_engines_outputs(path: object, shape: tuple[int, ...],
                                                          ) -> None:
    """load_onnx picks OpenCV 5's classic engine for speed; it must compute the same nets."""
    x = np.random.default_rng(3).uniform(-0.5, 0.5, shape).astype(np.float32)
    outs = []
    for net in (load_onnx(path), cv2.dnn.readNetFromONNX(str(path))):  # type: ignore[arg-type]
        net.setInput(x)
        outs.append(np.asarray(net.forward()))
    assert outs[0].shape == outs[1].shape
    assert float(np.abs(outs[0] - outs[1]).max()) < 1e-3
    assert float(np.abs(outs[0]).max()) > 0.1  # real outputs, not zeros


def test_detector_finds_synthetic_dice_centres() -> None:
    n = load_nets()
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
    n = load_nets()
    assert n is not None
    img, dets = _six_dice(17, (228, 230, 232), (30, 30, 30))
    p = n.classify(img, dets)
    assert p.shape == (6, 7)
    assert np.allclose(p.sum(axis=1), 1.0, atol=1e-3)
    assert [int(np.argmax(row)) for row in p] == [1, 2, 3, 4, 5, 6]


def test_recheck_reads_only_unsure_dice_again() -> None:
    n = load_nets()
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


def test_die_angle_on_trays_with_shadows_and_neighbours() -> None:
    """Dice as the reader crops them (centre and size a little off, shadows, touching
    neighbours): the rotation is within a few degrees, never far off."""
    rng = np.random.default_rng(3)
    errs = []
    for _ in range(25):
        scene = random_scene(rng, n_dice=(3, 8))
        img = render(scene, rng)
        for t in scene.truth():
            if not t.readable:
                continue
            s = t.size * float(rng.uniform(0.9, 1.1))
            cx, cy = (float(v + rng.normal(0, 0.04 * s)) for v in t.center)
            got = die_angle(crop(img, cx, cy, s, side=32, scale=1.2))
            errs.append(abs((got - t.angle + 45) % 90 - 45))
    assert len(errs) >= 100
    assert float(np.median(errs)) < 2.0, np.median(errs)
    assert max(errs) < 12.0, max(errs)


def test_body_colour_ignores_pips() -> None:
    d = SynthDie(center=(60, 60), size=60, angle=0, value=6, colour="blue",
                 body_bgr=(190, 100, 25), pip_bgr=(235, 235, 235))
    img = render(Scene(120, 120, (d,), background_bgr=(200, 200, 200), shadow=0.0))
    b = body_bgr(crop(img, 60, 60, 60, side=48, scale=1.0))
    assert abs(b[0] - 190) < 30 and abs(b[1] - 100) < 30 and abs(b[2] - 25) < 30


def _busy(h: int, w: int) -> np.ndarray:
    """A frame full of detail at every scale (what would alias if shrunk carelessly)."""
    rng = np.random.default_rng(5)
    img = rng.integers(0, 256, (h, w, 3), dtype=np.uint8)
    img[::2] //= 3  # fine stripes
    return img


def test_warp_down_smooths_what_it_shrinks() -> None:
    img = _busy(400, 600)
    # shrinking by 2.5: halved once first (pyrDown), then bilinear
    m = np.array([[0.4, 0.0, 3.0], [0.0, 0.4, 5.0]])
    got = warp_down(img, m, 160)
    m2 = np.hstack([m[:, :2] * 2, m[:, 2:]])
    want = cv2.warpAffine(cv2.pyrDown(img), m2, (160, 160), flags=cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_REPLICATE)
    assert got.shape == (160, 160, 3)
    assert np.abs(got.astype(int) - want).max() <= 1
    # plain bilinear sampling keeps the stripes' aliasing; the smoothed copy is much calmer
    plain = cv2.warpAffine(img, m, (160, 160), flags=cv2.INTER_LINEAR)
    assert float(np.std(got[:150, :150])) < 0.5 * float(np.std(plain[:150, :150]))
    # no shrinking: exactly warpAffine
    m_up = cv2.getRotationMatrix2D((300.0, 200.0), 30.0, 0.9)
    assert np.array_equal(warp_down(img, m_up, 64), cv2.warpAffine(
        img, m_up, (64, 64), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE))


@pytest.mark.parametrize(("cx", "cy", "turn", "scale"),
                         [(300.0, 200.0, 30.0, 0.3), (2.0, 390.0, 0.0, 0.2),
                          (590.0, 10.0, 75.0, 0.12)])
def test_warp_down_of_a_small_part_equals_halving_the_frame(
        cx: float, cy: float, turn: float, scale: float) -> None:
    """A crop of a large die halves only the part of the frame it shows, with the same
    samples as halving the whole frame (also at the frame's edges)."""
    img = _busy(400, 600)
    m = cv2.getRotationMatrix2D((cx, cy), turn, scale)
    m[:, 2] += np.array([CLS / 2 - cx, CLS / 2 - cy])
    whole, m2, s = img, m.copy(), scale
    while s <= 0.5:
        whole = cv2.pyrDown(whole)
        m2[:, :2] *= 2
        s *= 2
    want = cv2.warpAffine(whole, m2, (CLS, CLS), flags=cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_REPLICATE)
    assert np.abs(warp_down(img, m, CLS).astype(int) - want).max() <= 1


@pytest.mark.parametrize(("h", "w"), [(640, 640), (480, 640), (720, 1280), (300, 200)])
def test_shrink_puts_the_frame_top_left(h: int, w: int) -> None:
    img = np.full((h, w, 3), 90, np.uint8)
    img[:, -4:] = (0, 0, 255)  # a red right edge, repeated into the padding
    box, s = shrink(img)
    assert box.shape == (DET, DET, 3)
    assert s == pytest.approx(DET / max(h, w, REF_SIDE))
    ih, iw = round(h * s), round(w * s)
    assert np.all(box[: ih - 2, : iw - 4] == 90)  # the frame, at the detector's scale
    if iw < DET - 2:
        pad = box[: ih - 2, iw + 1:]
        assert np.all(pad == pad[:, :1])  # one colour along each row: the edge, repeated
        assert pad[0, 0, 2] > 200 and pad[0, 0, 0] < 50  # ... the red edge


def test_classical_fallback_without_models() -> None:
    d = SynthDie(center=(100, 100), size=50, angle=10, value=3, colour="red",
                 body_bgr=(40, 35, 200), pip_bgr=(235, 235, 235))
    frame = render(Scene(220, 200, (d,), background_bgr=(200, 200, 200)))
    reading = DiceReader.shipped(cnn=False).read(frame)
    assert [x.value for x in reading.dice] == [3]


def test_channels_gives_numpys_reductions_over_the_last_axis() -> None:
    from vision.cnn import channels

    rng = np.random.default_rng(3)
    img8 = rng.integers(0, 256, (37, 29, 3)).astype(np.uint8)
    np.testing.assert_array_equal(channels(np.minimum, img8), img8.min(axis=2))
    np.testing.assert_array_equal(channels(np.maximum, img8), img8.max(axis=2))
    f32 = rng.normal(0, 50, (400, 3)).astype(np.float32)
    np.testing.assert_array_equal(channels(np.add, f32), f32.sum(axis=1))
    i16 = rng.integers(0, 256, (400, 3)).astype(np.int16)
    assert channels(np.add, i16).dtype == np.int16  # 3 x 255 fits: no upcast needed
    np.testing.assert_array_equal(channels(np.add, i16), i16.sum(axis=1))


def test_a_strong_peak_the_classifier_never_saw_is_a_die_said_unsure() -> None:
    """A die of a kind the classifier never saw (colour dice from above, to models trained
    without them) makes a strong detector peak that the classifier calls "not a die": it is
    reported unsure, for the players to confirm, rather than left out of the roll. A weak
    peak, or a classifier very sure it is no die (a board piece, a tray snap), still drops it."""
    from vision.read import HEAT_MIN, SURE_DIE_HEAT, SURE_DIE_NOT_DIE, verdict

    unseen = np.array([0.6, 0.05, 0.1, 0.05, 0.1, 0.05, 0.05])
    assert verdict(0.9, unseen) == (None, pytest.approx(0.02))
    assert verdict(SURE_DIE_HEAT + 0.05, unseen) is not None
    assert verdict(SURE_DIE_HEAT - 0.1, unseen) is None  # a weaker peak: not a die
    board_piece = np.array([0.95, 0.01, 0.01, 0.01, 0.0, 0.01, 0.01])
    assert SURE_DIE_NOT_DIE < 0.95 and verdict(0.9, board_piece) is None
    sure_five = np.array([0.01, 0.0, 0.0, 0.01, 0.01, 0.96, 0.01])
    value, conf = verdict(HEAT_MIN + 0.1, sure_five) or (None, 0.0)
    assert value == 5 and conf > 0.9
    assert verdict(0.9, np.array([0.1, 0.3, 0.3, 0.1, 0.1, 0.05, 0.05])) == (
        None, pytest.approx(0.06))  # a die, its value unsure


def _covered(c: tuple[float, float], o: tuple[float, float], side: float,
             frame: tuple[int, int]) -> bool:
    m = TILE_MARGIN * side
    return all(start + (m if start > 0 else 0.0) <= v
               <= start + side - (m if start + side < limit else 0.0)
               for v, start, limit in ((c[0], o[0], frame[0]), (c[1], o[1], frame[1])))


def test_zoomed_tiles_cover_every_small_die_with_few_tiles() -> None:
    """The zoomed look's tiles (vision.cnn.cover): every centre lies well inside a tile (or
    against the frame's edge), and a cluster of dice shares tiles: 40 dice in four clusters
    of a 1080p frame need 4 tiles (a tile centred on each die not yet well inside one, as
    before, took all 6 allowed)."""
    rng = np.random.default_rng(5)
    side = 256 / 0.33  # a 1080p frame's zoom: tiles of 776 px
    frame = (1920, 1080)
    centres = [(float(cx + rng.uniform(-120, 120)), float(cy + rng.uniform(-120, 120)))
               for cx, cy in ((300, 250), (1500, 260), (420, 820), (1600, 800))
               for _ in range(10)]
    tiles = cover(centres, side, frame, max_tiles=6)
    assert len(tiles) == 4
    assert all(any(_covered(c, o, side, frame) for o in tiles) for c in centres)
    assert all(0 <= ox <= frame[0] - side and 0 <= oy <= frame[1] - side for ox, oy in tiles)


def test_zoomed_tiles_stop_at_the_cap_and_handle_small_frames() -> None:
    far_apart = [(100.0 + 900.0 * i, 100.0) for i in range(8)]
    assert len(cover(far_apart, 256.0, (8000, 400), max_tiles=3)) == 3
    # a frame smaller than a tile: one tile at the origin covers everything
    assert cover([(50.0, 60.0), (150.0, 20.0)], 400.0, (200, 100), 6) == [(0.0, 0.0)]
    assert cover([], 256.0, (640, 640), 6) == []

