"""Train the small face classifier used by :func:`vision.read_dice` (not part of the tests).

    .venv/bin/python scripts/vision_train.py            # writes vision/models/faces.npz

Training data: die candidates found by ``vision.read.find_candidates`` on

- the shared real photos of the ``dev`` split only (sorted index % 3 != 0), each candidate
  labelled with the value of the label box it falls in, or "not a die" (class 0) when it
  matches no label;
- synthetic scenes from ``vision.synthetic`` (seeded).

Photos whose sorted index % 3 == 0 (fold 0 of ``benchmarks/vision.py``) are never used here,
so ``benchmarks/vision.py --only real --no-cnn -v`` scores this classical fallback fairly on
fold 0's photos only (its other folds' figures are on photos it trained on). Each crop is
augmented by the 8 rotations/flips of a square (a face's value does not change under them).
The model is a small numpy MLP (``vision.mlp``) over features of the crop's contrast map, so
the Pi needs nothing but numpy and OpenCV.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vision.mlp import Mlp  # noqa: E402
from vision.read import check_frame, crop_features, find_candidates  # noqa: E402
from vision.synthetic import random_scene, render  # noqa: E402

DATA = ROOT.parent / "shared" / "data" / "dice-photos"
if not DATA.exists():
    DATA = Path("/work/shared/data/dice-photos")
OUT = ROOT / "vision" / "models" / "faces.npz"
N_CLASSES = 7
WEIGHT_DECAY = 1e-3


def _labels(txt: Path, w: int, h: int) -> list[tuple[int, float, float, float]]:
    out = []
    for line in txt.read_text().split("\n"):
        p = line.split()
        if len(p) == 5:
            out.append((int(float(p[0])) + 1, float(p[1]) * w, float(p[2]) * h,
                        max(float(p[3]) * w, float(p[4]) * h)))
    return out


def _match(cx: float, cy: float, labels: list[tuple[int, float, float, float]]) -> int:
    best, best_d = 0, 1e9
    for v, lx, ly, side in labels:
        d = float(np.hypot(cx - lx, cy - ly))
        if d < 0.75 * side and d < best_d:
            best, best_d = v, d
    return best


def _augment(crop: np.ndarray, rng: np.random.Generator, n: int) -> list[np.ndarray]:
    """The crop itself plus ``n - 1`` copies turned by any angle, mirrored, shifted, scaled.

    A face's value does not change under any of these, and real crops are never perfectly
    centred or upright, so the classifier should not care either.
    """
    out = [crop]
    size = crop.shape[0]
    c = (size - 1) / 2.0
    for _ in range(n - 1):
        m = cv2.getRotationMatrix2D((c, c), float(rng.uniform(0, 360)),
                                    float(rng.uniform(0.9, 1.1)))
        m[:, 2] += rng.uniform(-0.06, 0.06, 2) * size
        a = cv2.warpAffine(crop, m, (size, size), borderMode=cv2.BORDER_REFLECT)
        if rng.random() < 0.5:
            a = cv2.flip(a, 1)
        gain = float(rng.uniform(0.8, 1.2))
        a = cv2.convertScaleAbs(a, alpha=gain, beta=float(rng.uniform(-15, 15)))
        out.append(a)
    return out


def collect(synthetic_scenes: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    xs: list[np.ndarray] = []
    ys: list[int] = []
    aug_rng = np.random.default_rng(seed + 1)

    def add(img: np.ndarray, labels: list[tuple[int, float, float, float]]) -> None:
        work, _ = check_frame(img)
        if work is None:
            return
        cands, _side, _hand = find_candidates(work, None, None)
        for cand in cands:
            y = _match(float(cand.rect[0][0]), float(cand.rect[0][1]), labels)
            for a in _augment(cand.crop, aug_rng, 8):
                xs.append(crop_features(a))
                ys.append(y)

    for folder in ("byler-train", "matteop65-train"):
        for i, jpg in enumerate(sorted((DATA / folder).glob("*.jpg"))):
            if i % 3 == 0:
                continue  # held-out split: never trained on
            img = cv2.imread(str(jpg))
            if img is not None:
                add(img, _labels(jpg.with_suffix(".txt"), img.shape[1], img.shape[0]))
    rng = np.random.default_rng(seed)
    for k in range(synthetic_scenes):
        scene = random_scene(rng, perspective=0.15 if k % 3 == 2 else 0.0,
                             die_size=(28.0, 60.0))
        img = render(scene, rng)
        add(img, [(int(t.value or 0), t.center[0], t.center[1], t.size)
                  for t in scene.truth() if t.readable])
    return np.array(xs, np.float32), np.array(ys, np.int32)


def train(x: np.ndarray, y: np.ndarray, hidden: int, epochs: int, seed: int,
          n_classes: int = N_CLASSES, weight_decay: float = WEIGHT_DECAY) -> Mlp:
    """Softmax MLP trained with Adam on mini-batches; numpy only (a few seconds on one core).
    Also trains the colour namer (``scripts/vision_train_colour.py``)."""
    rng = np.random.default_rng(seed)
    mean = x.mean(axis=0)
    std = x.std(axis=0) + 1e-3
    z = (x - mean) / std
    n_in = x.shape[1]
    params = [rng.normal(0, np.sqrt(2 / n_in), (n_in, hidden)).astype(np.float32),
              np.zeros(hidden, np.float32),
              rng.normal(0, np.sqrt(1 / hidden), (hidden, n_classes)).astype(np.float32),
              np.zeros(n_classes, np.float32)]
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    lr, b1, b2, wd = 2e-3, 0.9, 0.999, weight_decay
    step = 0
    onehot = np.eye(n_classes, dtype=np.float32)[y]
    for _epoch in range(epochs):
        order = rng.permutation(len(y))
        for s in range(0, len(y), 128):
            idx = order[s:s + 128]
            xb, tb = z[idx], onehot[idx]
            w1, c1, w2, c2 = params
            hpre = xb @ w1 + c1
            h = np.maximum(hpre, 0)
            o = h @ w2 + c2
            o -= o.max(axis=1, keepdims=True)
            p = np.exp(o)
            p /= p.sum(axis=1, keepdims=True)
            g_o = (p - tb) / len(idx)
            g_w2 = h.T @ g_o + wd * w2
            g_c2 = g_o.sum(axis=0)
            g_h = (g_o @ w2.T) * (hpre > 0)
            g_w1 = xb.T @ g_h + wd * w1
            g_c1 = g_h.sum(axis=0)
            step += 1
            for i, g in enumerate((g_w1, g_c1, g_w2, g_c2)):
                m[i] = b1 * m[i] + (1 - b1) * g
                v[i] = b2 * v[i] + (1 - b2) * g * g
                mh = m[i] / (1 - b1**step)
                vh = v[i] / (1 - b2**step)
                params[i] = params[i] - lr * mh / (np.sqrt(vh) + 1e-8)
        lr *= 0.93
    return Mlp(params[0], params[1], params[2], params[3], mean, std)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--synthetic-scenes", type=int, default=300)
    ap.add_argument("--hidden", type=int, default=48)
    ap.add_argument("--epochs", type=int, default=25)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--cache", help="keep the collected features in this .npz between runs")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    t = time.time()
    if args.cache and Path(args.cache).exists():
        with np.load(args.cache) as z:
            x, y = z["x"], z["y"]
    else:
        x, y = collect(args.synthetic_scenes, args.seed)
        if args.cache:
            np.savez(args.cache, x=x, y=y)
    print(f"{len(y)} training crops (8x augmented), classes {np.bincount(y, minlength=7)}, "
          f"{time.time() - t:.0f} s")
    # quick internal check: train on 80%, score the rest (grouped by original crop)
    rng = np.random.default_rng(args.seed)
    groups = np.arange(len(y)) // 8
    te = (rng.random(groups.max() + 1) < 0.2)[groups]
    t = time.time()
    net = train(x[~te], y[~te], args.hidden, args.epochs, args.seed)
    acc = float(np.mean(net.proba(x[te]).argmax(axis=1) == y[te]))
    print(f"internal 80/20 check: {acc:.1%} of crops right ({time.time() - t:.0f} s)")
    net = train(x, y, args.hidden, args.epochs, args.seed)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    net.save(OUT)
    print(f"wrote {OUT} ({OUT.stat().st_size / 1024:.0f} KiB)")


if __name__ == "__main__":
    main()
