"""Train the two small CNNs of ``vision.read`` and export them to ONNX (not part of the tests).

- ``det``: a fully-convolutional centre-heatmap detector (CenterNet-style). Input a 256x256 BGR
  letterboxed frame; output at 1/4 resolution (64x64): die-centre heatmap, log die size and
  sub-cell centre offset. -> ``vision/models/dice_det.onnx``
- ``cls``: a die-crop classifier. Input a 40x40 BGR crop around a die centre (side 1.4 x die
  size); output 7 logits: "not a die / unreadable", 1..6. -> ``vision/models/dice_cls.onnx``

Trained only on the shared photos (``../shared/data/dice-photos``) and on synthetic scenes
(:mod:`vision.synthetic`). Photos whose index in the sorted file list is divisible by 3 are the
benchmark's held-out split and are NEVER used here; of the rest, index % 9 == 1 is a small
validation split (threshold calibration), the remainder is trained on. Seeds are fixed.

Needs PyTorch, outside the project's environment::

    python3 -m venv /tmp/trainenv
    /tmp/trainenv/bin/pip install torch numpy opencv-python-headless onnx
    /tmp/trainenv/bin/python scripts/vision_train_cnn.py det     # ~10-15 min on 1 core
    /tmp/trainenv/bin/python scripts/vision_train_cnn.py cls     # ~33 min on 1 core

The classifier learns from jittered crops around the labelled dice (any rotation, centre +-8%,
size x0.72-1.3, like the detector's own errors), "not a die" crops, and hard examples: crops at
the detector's own outputs on the training images (``--mine``, labelled by matching to the
labels; unmatched detections are "not a die"). Crops are augmented per batch (flip, brightness,
contrast, gamma, colour cast, blur, noise, JPEG). It prints its accuracy on the val photos'
labelled crops and on the crops at the detector's outputs ("at-detections").
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

import cv2
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vision.synthetic import random_scene, render  # noqa: E402

DATA = ROOT.parent / "shared" / "data" / "dice-photos"
if not DATA.exists():
    DATA = Path("/work/shared/data/dice-photos")
MODELS = ROOT / "vision" / "models"
OUT = [MODELS]  # where the models are written (--out)
PER_DIE = [12]  # jittered crops per real labelled die (--per-die)
MINE = [6]  # crops per detector output on the training images (--mine; 0 = off)
MINE_DET = [MODELS / "dice_det.onnx"]  # the detector mined (--mine-det)
HOLDOUT = [0]  # photos whose index % 3 is this are never used (--holdout; None = use all)
TRAIN_VAL = [False]  # train on the val photos too (--train-val; no val figures then)
TOUCHING = [0.25]  # chance a synthetic die is placed against the previous one (--touching)

DET = 256  # detector input side
STRIDE = 4
CLS = 40  # classifier crop side (--crop)
CROP_SCALE = 1.4  # crop side / die size

Label = tuple[int, float, float, float]  # value, cx, cy, size (px)


def photos(part: str) -> list[tuple[np.ndarray, list[Label], str]]:
    """(image, labels, folder) of the photos of one split: "train" or "val" (never held-out).

    By default the held-out third is index % 3 == 0 (the benchmark's honest split) and val is
    index % 9 == 1; ``--holdout K`` holds out index % 3 == K instead (k-fold), ``--holdout
    none`` holds out nothing, and ``--train-val`` trains on the val photos too.
    """
    out = []
    for folder in ("byler-train", "matteop65-train"):
        for i, jpg in enumerate(sorted((DATA / folder).glob("*.jpg"))):
            if HOLDOUT[0] is not None and i % 3 == HOLDOUT[0]:
                continue  # held-out: never trained on, never looked at
            sp = "val" if i % 9 == 1 and not TRAIN_VAL[0] else "train"
            if sp != part:
                continue
            img = cv2.imread(str(jpg))
            if img is None:
                continue
            h, w = img.shape[:2]
            labels: list[Label] = []
            for line in jpg.with_suffix(".txt").read_text().split("\n"):
                p = line.split()
                if len(p) == 5:
                    c, cx, cy, bw, bh = (float(v) for v in p)
                    labels.append((int(c) + 1, cx * w, cy * h, max(bw * w, bh * h)))
            out.append((img, labels, folder))
    return out


def synth(n: int, seed: int) -> list[tuple[np.ndarray, list[Label], list[Label]]]:
    """(image, readable dice, unreadable dice) of n synthetic scenes."""
    rng = np.random.default_rng(seed)
    out = []
    for k in range(n):
        w, h = ((640, 480), (640, 640), (800, 600))[k % 3]
        sc = random_scene(rng, width=w, height=h, n_dice=(1, 12),
                          perspective=float(rng.choice([0.0, 0.1, 0.2])),
                          die_size=(24.0, 64.0), blur=float(rng.choice([0.0, 0.0, 1.0])),
                          touching=TOUCHING[0])
        img = render(sc, rng)
        good: list[Label] = []
        bad: list[Label] = []
        for t in sc.truth():
            lab = (int(t.value or 0), t.center[0], t.center[1], t.size)
            (good if t.readable and t.value else bad).append(lab)
        out.append((img, good, bad))
    return out


# ------------------------------------------------------------------------------ detector


class Det(nn.Module):
    def __init__(self) -> None:
        super().__init__()

        def cbr(i: int, o: int, s: int = 1, d: int = 1) -> nn.Sequential:
            return nn.Sequential(nn.Conv2d(i, o, 3, s, d, dilation=d, bias=False),
                                 nn.BatchNorm2d(o), nn.ReLU(inplace=True))

        self.body = nn.Sequential(cbr(3, 16, 2), cbr(16, 16, 2), cbr(16, 16), cbr(16, 16, d=2),
                                  cbr(16, 16, d=4), cbr(16, 16, d=8), cbr(16, 16))
        self.head = nn.Conv2d(16, 4, 1)  # heat logit, log size, dx, dy
        nn.init.constant_(self.head.bias, 0.0)
        with torch.no_grad():
            self.head.bias[0] = -4.0

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(self.body(x))


def letterbox(img: np.ndarray, side: int = DET) -> tuple[np.ndarray, float]:
    """Scale so the longer side is ``side``, pad bottom/right with edge pixels."""
    h, w = img.shape[:2]
    s = side / max(h, w)
    r = cv2.resize(img, (max(1, round(w * s)), max(1, round(h * s))),
                   interpolation=cv2.INTER_AREA)
    out = cv2.copyMakeBorder(r, 0, side - r.shape[0], 0, side - r.shape[1],
                             cv2.BORDER_REPLICATE)
    return out, s


def photometric(img: np.ndarray, rng: np.random.Generator, strong: bool = False) -> np.ndarray:
    """Brightness/colour cast, blur, noise; ``strong`` adds contrast, gamma and JPEG."""
    f = img.astype(np.float32)
    if strong and rng.random() < 0.5:  # contrast about the mean, then gamma
        m = f.mean()
        f = (f - m) * rng.uniform(0.6, 1.4) + m
        f = 255.0 * (np.clip(f, 0, 255) / 255.0) ** rng.uniform(0.7, 1.4)
    f = f * rng.uniform(0.7, 1.3) + rng.uniform(-30, 30)
    f = f * rng.uniform(0.9, 1.1, size=3)[None, None, :]
    if rng.random() < 0.3:
        f = cv2.GaussianBlur(f, (0, 0), float(rng.uniform(0.5, 1.2)))
    if rng.random() < 0.5:
        f = f + rng.normal(0, rng.uniform(1, 6), f.shape)
    out = np.clip(f, 0, 255).astype(np.uint8)
    if strong and rng.random() < 0.3:
        ok, enc = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(30, 90))])
        if ok:
            out = cv2.imdecode(enc, cv2.IMREAD_COLOR)
    return out


def det_sample(img: np.ndarray, good: list[Label], bad: list[Label],
               rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """An augmented (256x256x3 input, 6x64x64 target) pair.

    Target planes: heat, log size, dx, dy, size/offset weight, heat weight (0 near unreadable).
    """
    h, w = img.shape[:2]
    # random scale (zoom) and rotation about a random point, into the letterboxed frame
    base = DET / max(h, w)
    s = base * float(np.exp(rng.uniform(math.log(0.6), math.log(1.7))))
    ang = float(rng.choice([0, 90, 180, 270])) + float(rng.uniform(-15, 15))
    cx, cy = float(rng.uniform(0.3, 0.7)) * w, float(rng.uniform(0.3, 0.7)) * h
    m = cv2.getRotationMatrix2D((cx, cy), ang, s)
    m[0, 2] += DET / 2 - cx
    m[1, 2] += DET / 2 - cy
    if s <= base * 1.0 and rng.random() < 0.5:
        # sometimes exactly the inference geometry (top-left letterbox)
        m = np.array([[base, 0, 0], [0, base, 0]], np.float64)
        s = base
    x = cv2.warpAffine(img, m, (DET, DET), flags=cv2.INTER_AREA if s < 1 else cv2.INTER_LINEAR,
                       borderMode=cv2.BORDER_REPLICATE)
    if rng.random() < 0.5:
        x = x[:, ::-1]
        flip = True
    else:
        flip = False
    x = photometric(np.ascontiguousarray(x), rng)
    o = DET // STRIDE
    t = np.zeros((6, o, o), np.float32)
    t[5] = 1.0
    yy, xx = np.mgrid[0:o, 0:o].astype(np.float32)
    for lab, is_good in [(g, True) for g in good] + [(b, False) for b in bad]:
        _v, lx, ly, size = lab
        px, py = m @ np.array([lx, ly, 1.0])
        if flip:
            px = DET - 1 - px
        sz = size * s
        gx, gy = px / STRIDE, py / STRIDE
        if not (-1 <= gx < o + 1 and -1 <= gy < o + 1):
            continue
        sig = max(0.6, sz / STRIDE / 5)
        g = np.exp(-((xx - gx) ** 2 + (yy - gy) ** 2) / (2 * sig * sig))
        if not is_good:
            t[5][g > 0.05] = 0.0
            continue
        t[0] = np.maximum(t[0], g)
        ix, iy = int(gx), int(gy)
        if 0 <= ix < o and 0 <= iy < o:
            t[0, iy, ix] = 1.0
            t[1, iy, ix] = math.log(max(sz, 1.0))
            t[2, iy, ix] = gx - ix
            t[3, iy, ix] = gy - iy
            t[4, iy, ix] = 1.0
    return x, t


def to_tensor(batch: list[np.ndarray]) -> torch.Tensor:
    a = np.stack(batch).astype(np.float32) / 255.0 - 0.5
    return torch.from_numpy(a.transpose(0, 3, 1, 2).copy())


def det_loss(out: torch.Tensor, t: torch.Tensor) -> torch.Tensor:
    heat = out[:, 0]
    gt = t[:, 0]
    wt = t[:, 5]
    p = torch.sigmoid(heat).clamp(1e-4, 1 - 1e-4)
    pos = (gt >= 1.0).float()
    neg = (1 - pos) * wt
    pos_l = -(torch.log(p) * (1 - p) ** 2 * pos).sum()
    neg_l = -(torch.log(1 - p) * p**2 * (1 - gt) ** 4 * neg).sum()
    npos = pos.sum().clamp(min=1.0)
    m = t[:, 4]
    reg = (F.smooth_l1_loss(out[:, 1], t[:, 1], reduction="none") * m).sum()
    off = ((out[:, 2] - t[:, 2]).abs() * m + (out[:, 3] - t[:, 3]).abs() * m).sum()
    return (pos_l + neg_l) / npos + (reg + off) / npos


def train_det(steps: int, seed: int) -> None:
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    real = [(im, lab, []) for im, lab, _f in photos("train")]
    syn = synth(300, seed + 1)
    data = real + real + syn  # real photos twice as often
    print(f"det: {len(real)} photos, {len(syn)} synthetic scenes", flush=True)
    net = Det()
    print("params", sum(p.numel() for p in net.parameters()), flush=True)
    opt = torch.optim.AdamW(net.parameters(), lr=3e-3, weight_decay=1e-4)
    t0 = time.time()
    step = 0
    bs = 16
    while step < steps:
        frac = step / steps
        for g in opt.param_groups:
            g["lr"] = 3e-3 * 0.5 * (1 + math.cos(math.pi * min(1.0, frac)))
        idx = rng.integers(0, len(data), bs)
        xs, ts = [], []
        for i in idx:
            x, t = det_sample(*data[i], rng)
            xs.append(x)
            ts.append(t)
        out = net(to_tensor(xs))
        loss = det_loss(out, torch.from_numpy(np.stack(ts)))
        opt.zero_grad()
        loss.backward()
        opt.step()
        step += 1
        if step % 50 == 0:
            print(f"step {step} {time.time() - t0:.0f}s loss {loss.item():.3f}", flush=True)
    net.eval()
    export(net, torch.zeros(1, 3, DET, DET), OUT[0] / "dice_det.onnx")


# ---------------------------------------------------------------------------- classifier


class Cls(nn.Module):
    def __init__(self) -> None:
        super().__init__()

        def cbr(i: int, o: int) -> nn.Sequential:
            return nn.Sequential(nn.Conv2d(i, o, 3, 1, 1, bias=False), nn.BatchNorm2d(o),
                                 nn.ReLU(inplace=True))

        self.body = nn.Sequential(cbr(3, 12), nn.MaxPool2d(2),
                                  cbr(12, 16), cbr(16, 16), nn.MaxPool2d(2),
                                  cbr(16, 32), cbr(32, 32), nn.MaxPool2d(2),
                                  cbr(32, 48), nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.fc = nn.Linear(48, 7)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.fc(self.body(x))


def cut(img: np.ndarray, cx: float, cy: float, size: float, ang: float = 0.0) -> np.ndarray:
    """The CLS x CLS crop around (cx, cy), side CROP_SCALE * size, rotated by ang degrees."""
    side = CROP_SCALE * size
    s = CLS / side
    m = cv2.getRotationMatrix2D((cx, cy), ang, s)
    m[0, 2] += CLS / 2 - cx
    m[1, 2] += CLS / 2 - cy
    return cv2.warpAffine(img, m, (CLS, CLS), flags=cv2.INTER_AREA if s < 1 else cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_REPLICATE)


def cls_crops(items: list[tuple[np.ndarray, list[Label], list[Label]]], per_die: int,
              rng: np.random.Generator, jitter: bool = True) -> tuple[np.ndarray, np.ndarray]:
    xs, ys = [], []
    for img, good, bad in items:
        h, w = img.shape[:2]
        allc = good + bad
        for v, cx, cy, size in good:
            for _ in range(per_die):
                if jitter:
                    dx, dy = rng.normal(0, 0.08 * size, 2)
                    sz = size * float(np.exp(rng.uniform(math.log(0.72), math.log(1.3))))
                    a = float(rng.uniform(0, 360))
                else:
                    dx = dy = 0.0
                    sz, a = size, 0.0
                xs.append(cut(img, cx + dx, cy + dy, sz, a))
                ys.append(v)
        # negatives: background, clutter, between dice, and dice badly off centre
        med = float(np.median([g[3] for g in allc])) if allc else 40.0
        n_neg = max(2, per_die * max(1, len(good)) // 3)
        for _ in range(n_neg):
            for _try in range(20):
                sz = med * float(rng.uniform(0.7, 1.3))
                if allc and rng.random() < 0.4:
                    _v, ax, ay, asz = allc[int(rng.integers(len(allc)))]
                    r = asz * float(rng.uniform(0.75, 1.2))
                    th = float(rng.uniform(0, 2 * math.pi))
                    x, y = ax + r * math.cos(th), ay + r * math.sin(th)
                else:
                    x, y = float(rng.uniform(0, w)), float(rng.uniform(0, h))
                if all(math.hypot(x - ax, y - ay) > 0.6 * asz for _v, ax, ay, asz in allc):
                    xs.append(cut(img, x, y, sz, float(rng.uniform(0, 360))))
                    ys.append(0)
                    break
    return np.stack(xs), np.array(ys, np.int64)


def mined_crops(items: list[tuple[np.ndarray, list[Label], list[Label]]], per_det: int,
                rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Crops where a detector (``--mine-det``, default the shipped one) puts dice.

    Hard examples in the geometry the classifier sees at run time: each detection (heat >= the
    reader's rescue threshold) matched to a labelled die within 0.5 x its size is a crop of that
    value at the detector's own centre and size (slight jitter, any rotation); a detection
    further than 0.75 x size from every labelled die is "not a die" (its false positives).
    """
    from vision.cnn import Nets
    from vision.read import RESCUE_HEAT

    nets = Nets(det=MINE_DET[0])
    xs, ys = [], []
    for img, good, bad in items:
        allc = good + bad
        for d in nets.detect(img, heat_min=RESCUE_HEAT):
            near = [(math.hypot(d.cx - cx, d.cy - cy) / sz, v) for v, cx, cy, sz in allc]
            dist, v = min(near) if near else (9.0, 0)
            if dist < 0.5:
                label = v
            elif dist > 0.75:
                label = 0
            else:
                continue
            for _ in range(per_det):
                dx, dy = rng.normal(0, 0.04 * d.size, 2)
                sz = d.size * float(rng.uniform(0.93, 1.08))
                xs.append(cut(img, d.cx + dx, d.cy + dy, sz, float(rng.uniform(0, 360))))
                ys.append(label)
    return np.stack(xs), np.array(ys, np.int64)


def aug_batch(x: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    out = np.empty_like(x)
    for i in range(len(x)):
        c = x[i]
        if rng.random() < 0.5:
            c = c[:, ::-1]
        out[i] = photometric(np.ascontiguousarray(c), rng, strong=True)
    return out


def train_cls(steps: int, seed: int) -> None:
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    tr = [(im, lab, []) for im, lab, _f in photos("train")]
    syn = synth(700, seed + 2)
    xr, yr = cls_crops(tr, PER_DIE[0], rng)
    xsy, ysy = cls_crops(syn, 3, rng)
    parts_x, parts_y = [xr, xsy], [yr, ysy]
    if MINE[0]:
        xm, ym = mined_crops(tr + syn[:200], MINE[0], rng)
        parts_x.append(xm)
        parts_y.append(ym)
        print(f"cls: {len(xm)} mined crops ({int((ym == 0).sum())} detector false positives)",
              flush=True)
    x = np.concatenate(parts_x)
    y = np.concatenate(parts_y)
    print(f"cls: {len(xr)} real crops, {len(xsy)} synthetic, classes {np.bincount(y)}", flush=True)
    val = [(im, lab, []) for im, lab, _f in photos("val")]
    if val:
        xv, yv = cls_crops(val, 1, np.random.default_rng(seed + 3), jitter=False)
        # the val photos' crops where the detector puts dice: the geometry seen at run time
        xvm, yvm = mined_crops(val, 1, np.random.default_rng(seed + 4))
    net = Cls()
    print("params", sum(p.numel() for p in net.parameters()), flush=True)
    opt = torch.optim.AdamW(net.parameters(), lr=3e-3, weight_decay=1e-4)
    t0 = time.time()
    step = 0
    bs = 128
    while step < steps:
        net.train()
        frac = step / steps
        for g in opt.param_groups:
            g["lr"] = 3e-3 * 0.5 * (1 + math.cos(math.pi * min(1.0, frac)))
        idx = rng.integers(0, len(x), bs)
        out = net(to_tensor(list(aug_batch(x[idx], rng))))
        loss = F.cross_entropy(out, torch.from_numpy(y[idx]), label_smoothing=0.05)
        opt.zero_grad()
        loss.backward()
        opt.step()
        step += 1
        if step % 500 == 0 and not val:
            print(f"step {step} {time.time() - t0:.0f}s loss {loss.item():.3f}", flush=True)
        elif step % 500 == 0:
            net.eval()
            with torch.no_grad():
                pv = net(to_tensor(list(xv))).argmax(1).numpy()
                pm = net(to_tensor(list(xvm))).softmax(1).numpy()
            sure = pm.max(1) >= 0.6
            print(f"step {step} {time.time() - t0:.0f}s loss {loss.item():.3f} "
                  f"val-acc {(pv == yv).mean():.3f} "
                  f"at-detections {(pm.argmax(1) == yvm).mean():.3f}"
                  f" sure-right {(sure & (pm.argmax(1) == yvm)).mean():.3f}"
                  f" sure-wrong {(sure & (pm.argmax(1) != yvm)).mean():.3f}", flush=True)
    net.eval()
    export(net, torch.zeros(1, 3, CLS, CLS), OUT[0] / "dice_cls.onnx")


def export(net: nn.Module, dummy: torch.Tensor, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    torch.save(net.state_dict(), path.with_suffix(".pt"))
    torch.onnx.export(net, (dummy,), str(path), input_names=["input"], output_names=["output"],
                      opset_version=13, dynamic_axes={"input": {0: "n"}, "output": {0: "n"}},
                      dynamo=False)
    print(f"wrote {path} ({path.stat().st_size} bytes)", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("what", choices=("det", "cls"))
    ap.add_argument("--steps", type=int, default=0, help="default: det 2000, cls 16000")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--crop", type=int, default=40, help="classifier crop side, px")
    ap.add_argument("--out", type=Path, default=MODELS, help="folder for the .onnx files")
    ap.add_argument("--per-die", type=int, default=12, help="cls: jittered crops per real die")
    ap.add_argument("--mine", type=int, default=6,
                    help="cls: crops per detector output on training images (hard examples)")
    ap.add_argument("--mine-det", type=Path, default=MODELS / "dice_det.onnx",
                    help="cls: the detector whose outputs are mined")
    ap.add_argument("--holdout", choices=("0", "1", "2", "none"), default="0",
                    help="photos whose index %% 3 is this are never used (k-fold); default 0, "
                    "the benchmark's held-out third; none = train on every photo")
    ap.add_argument("--train-val", action="store_true",
                    help="train on the val photos (index %% 9 == 1) too")
    ap.add_argument("--touching", type=float, default=0.25,
                    help="synthetic scenes: chance a die lies against the previous one")
    args = ap.parse_args()
    TOUCHING[0] = args.touching
    HOLDOUT[0] = None if args.holdout == "none" else int(args.holdout)
    TRAIN_VAL[0] = args.train_val
    torch.set_num_threads(args.threads)
    OUT[0] = args.out
    PER_DIE[0] = args.per_die
    MINE[0] = args.mine
    MINE_DET[0] = args.mine_det
    global CLS
    CLS = args.crop
    cv2.setNumThreads(1)
    if args.what == "det":
        train_det(args.steps or 2000, args.seed)
    else:
        train_cls(args.steps or 16000, args.seed)


if __name__ == "__main__":
    main()
