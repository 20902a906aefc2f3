"""Which features a table's taught head should be fitted on (issue 40, part C): measured on
every candidate of every shared photo, taught from the first photos or from four fifths.

Run from the repository root (the ONNX files from ``scripts/vision_export_lite0.py --maps``)::

    .venv/bin/python benchmarks/teach_features.py --maps /tmp/lite0/lite0_maps.onnx
    .venv/bin/python benchmarks/teach_features.py --maps ... --only byler-train --models loso \
        --features b11_grid --heads own --heads partA --heads lr --heads combo --l2 0.01 \
        --l2 0.03 [--value-min 0.7] [--side 96]
    .venv/bin/python benchmarks/teach_features.py --maps ... --only byler-train --models loso \
        --timing /tmp/lite0/lite0_b11_grid.onnx       # ms a crop against the classifier
    .venv/bin/python benchmarks/teach_features.py --maps ... --only byler-train --models loso \
        --learn-time /tmp/lite0/lite0_b11_grid.onnx   # CPU s to learn the first 10 photos

Each photo of a source is looked at by the reader (:meth:`vision.DiceReader.look`, the
source's models: ``shipped`` or ``loso``, the models trained without that source) and cut
into examples as teaching cuts them (:func:`calibration.teach.examples_from_view`: each
labelled die at its candidate, or at its label where the detector saw nothing, and every
candidate far from all labels as "not a die"); cached in ``--cache``. Then, for each way of
reading a crop (features, and a head fitted on the taught examples' crops in their four
turns and four jittered copies, beside the rendered anchor dice), the examples of the photos
not taught are read by the reader's rule (:func:`calibration.teach.read_examples`: the
detector's cut 0.45, a value from 0.5 or 0.7, the second look, half-seen dice unsure):
read right, read wrong (confidently), things taken for dice, as shares of the labelled dice;
precision: of the values said (right, wrong, and things taken for dice), the share right.

- taught: the first 5 and 10 photos (sorted by name; photos that are copies of a taught one
  left out of the rest, ``vision.folds``);
- ceiling: five folds by photo, four fifths taught, each fifth read (what the features can
  do at all).

Heads (``--heads``): ``own`` the classifier untaught; ``partA`` part A's head on the
classifier's features (pulled towards its own last layer, :data:`calibration.teach.PULLS`);
``lr`` logistic regression on the features alone (standardised, L2 ``--l2``); ``combo`` on
the classifier's features and the others' together, pulled towards the classifier's own
layer (the others' weights towards 0): the untaught reader where few dice were taught.
Features: ``bK_avg`` / ``bK_grid`` / ``bK_both``: ImageNet EfficientNet-Lite0's block K
(3, 5, 8, 11) pooled globally, by quarters, or average and maximum.
"""

from __future__ import annotations

import argparse
import functools
import importlib.util
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from calibration.teach import (  # noqa: E402
    PULLS,
    TURNS,
    VARIANTS,
    Example,
    LabelledDie,
    Setting,
    Tally,
    _softmax,
    anchors,
    classifier_crops,
    examples_from_view,
    fit_layer,
    own_layer,
    read_examples,
    second_look,
)
from vision.cnn import CLS, CLS_BATCH, HEAT_MIN, Nets, _blob, load_onnx  # noqa: E402
from vision.folds import photo_groups  # noqa: E402
from vision.read import DiceReader  # noqa: E402

_spec = importlib.util.spec_from_file_location("bench_vision", ROOT / "benchmarks" / "vision.py")
assert _spec is not None and _spec.loader is not None
bv = importlib.util.module_from_spec(_spec)
sys.modules["bench_vision"] = bv
_spec.loader.exec_module(bv)

Array = np.ndarray
BLOCKS = (3, 5, 8, 11)
POOLS = ("avg", "grid", "both")


@dataclass
class Dump:
    """Every example of one source as one set of models sees it."""

    crops: Array  # N x 64 x 64 x 3
    labels: Array  # N
    heat: Array  # N
    photo: Array  # N: the photo's index in the source
    copy: Array  # N: the photo's group of copies (vision.folds)

    def examples(self, idx: Array) -> list[Example]:
        return [Example(int(self.labels[i]), self.crops[i], float(self.heat[i]),
                        int(self.photo[i]), "photo") for i in idx]


def dump(reader: DiceReader, source: str, cache: Path, models: str) -> Dump:
    path = cache / f"{source}-{models}.npz"
    if path.exists():
        z = np.load(path)
        return Dump(z["crops"], z["labels"], z["heat"], z["photo"], z["copy"])
    photos = bv.photos(source)
    groups = photo_groups([jpg for _i, jpg in photos])
    crops, labels, heat, photo, copy = [], [], [], [], []
    for i, jpg in photos:
        img = cv2.imread(str(jpg))
        if img is None:
            raise SystemExit(f"{jpg}: not an image cv2 can read")
        dice = [LabelledDie(v, (cx, cy), s) for v, cx, cy, s in
                bv.load_labels(jpg.with_suffix(".txt"), img.shape[1], img.shape[0])]
        for e in examples_from_view(reader, img, dice, i, "photo"):
            crops.append(e.crop)
            labels.append(e.label)
            heat.append(e.heat)
            photo.append(i)
            copy.append(groups[i])
    d = Dump(np.stack(crops), np.array(labels), np.array(heat), np.array(photo), np.array(copy))
    np.savez_compressed(path, crops=d.crops, labels=d.labels, heat=d.heat, photo=d.photo,
                        copy=d.copy)
    return d


class Lite0Maps:
    """Every cut and pooling of Lite0 from one run of its maps (``lite0_maps.onnx``)."""

    def __init__(self, path: Path, side: int = CLS) -> None:
        self.net = load_onnx(path)
        self.names = [f"b{b}" for b in BLOCKS]
        self.side = side

    def features(self, crops: Array) -> dict[str, Array]:
        out: dict[str, list[Array]] = {}
        for i in range(0, len(crops), CLS_BATCH):
            batch = crops[i:i + CLS_BATCH]
            if self.side != batch.shape[1]:  # the same crop, larger: ImageNet's scale
                batch = np.stack([cv2.resize(c, (self.side, self.side),
                                             interpolation=cv2.INTER_LINEAR) for c in batch])
            self.net.setInput(_blob(np.ascontiguousarray(batch)))
            for name, m in zip(self.names, self.net.forward(self.names), strict=True):
                for pool in POOLS:
                    out.setdefault(f"{name}_{pool}", []).append(pooled(np.asarray(m), pool))
        return {k: np.concatenate(v).astype(np.float64) for k, v in out.items()}


def pooled(m: Array, pool: str) -> Array:
    """As scripts/vision_export_lite0.py pools a block's output (N x C x s x s)."""
    if pool == "avg":
        avg: Array = m.mean(axis=(2, 3))
        return avg
    if pool == "both":
        return np.concatenate([m.mean(axis=(2, 3)), m.max(axis=(2, 3))], axis=1)
    side = m.shape[2]
    k = (side + 1) // 2
    st = max(1, side - k)
    q = np.stack([m[:, :, y:y + k, x:x + k].mean(axis=(2, 3))
                  for y in (0, st) for x in (0, st)], axis=2)
    return q.reshape(len(m), -1)


def all_features(nets: Nets, maps: Lite0Maps, crops: Array) -> dict[str, Array]:
    feats, logits = nets.features(crops)
    out = {"cls": feats, "logits": logits}
    out.update(maps.features(crops))
    return out


def cached(path: Path, make: Callable[[], dict[str, Array]]) -> dict[str, Array]:
    if path.exists():
        z = np.load(path)
        return {k: z[k] for k in z.files}
    got = make()
    np.savez(path, **got)  # type: ignore[arg-type]
    return got


# ----------------------------------------------------------------------------- heads


def weights_of(labels: Array) -> Array:
    counts = np.bincount(labels, minlength=7).astype(np.float64)
    w: Array = 1.0 / np.maximum(counts[labels], 1.0)
    out: Array = w / w.sum()
    return out


def head_lr(f: Array, labels: Array, af: Array, al: Array, l2: float,
            prior: tuple[Array, Array] | None = None,
            free: slice | None = None) -> Callable[[Array], Array]:
    """Logistic regression on standardised features (the ``free`` columns standardised,
    the rest as they are), pulled (L2) towards ``prior`` (else towards 0), beside the
    anchors at half the weight; returns a map from features to logits."""
    x = np.vstack([f, af])
    y = np.concatenate([labels, al])
    w = np.concatenate([weights_of(labels), 0.5 * np.full(len(al), 1.0 / len(al))])
    mu = np.zeros(x.shape[1])
    sd = np.ones(x.shape[1])
    cols = free if free is not None else slice(0, x.shape[1])
    mu[cols] = x[:, cols].mean(axis=0)
    sd[cols] = x[:, cols].std(axis=0) + 1e-6
    z = (x - mu) / sd
    w0 = np.zeros((7, x.shape[1])) if prior is None else prior[0]
    b0 = np.zeros(7) if prior is None else prior[1]
    wt, bt = fit_layer(z, y, w0, b0, w, l2)

    def logits(g: Array) -> Array:
        out: Array = ((g - mu) / sd) @ wt.T + bt
        return out
    return logits


def turns_of(idx: Array) -> Array:
    return (idx * VARIANTS)[:, None] + np.arange(TURNS)[None, :]


@dataclass
class Scored:
    tally: Tally

    def cells(self) -> str:
        t = self.tally
        if not t.dice:
            return "         -          "
        said = t.right + t.wrong + t.extra
        prec = 100 * t.right / said if said else 100.0
        return f"{100 * t.right / t.dice:5.1f} {100 * t.wrong / t.dice:4.1f} " \
               f"{100 * t.extra / t.dice:4.1f} {prec:5.1f}"


def read(logit_fn: Callable[[Array], Array] | None, feats: Array, logits: Array,
         examples: list[Example], idx: Array, value_min: float) -> Tally:
    rows = turns_of(idx)
    z = logits[rows] if logit_fn is None else logit_fn(feats[rows.ravel()]).reshape(
        len(idx), TURNS, 7)
    probs = second_look(_softmax(z))
    return read_examples(probs, [examples[i] for i in idx], Setting(None, HEAT_MIN, value_min))


def per_crop_ms(net: cv2.dnn.Net, crops: Array, side: int, rounds: int) -> list[float]:
    """Milliseconds of one thread a crop for ``net`` on ``crops`` (resized to ``side``),
    ``CLS_BATCH`` at a time as the reader runs them, once per round."""
    if side != crops.shape[1]:
        crops = np.stack([cv2.resize(c, (side, side), interpolation=cv2.INTER_LINEAR)
                          for c in crops])
    net.setInput(_blob(np.ascontiguousarray(crops[:CLS_BATCH])))
    net.forward()  # buffers made before timing
    out = []
    for _r in range(rounds):
        t0 = time.perf_counter()
        for i in range(0, len(crops), CLS_BATCH):
            net.setInput(_blob(np.ascontiguousarray(crops[i:i + CLS_BATCH])))
            net.forward()
        out.append(1000 * (time.perf_counter() - t0) / len(crops))
    return out


def timing(nets: Nets, cuts: list[Path], sides: list[int], crops: Array,
           rounds: int = 7) -> None:
    """The classifier and each Lite0 cut (one ONNX file, one pooled output) at each side on
    the same crops, interleaved round by round; medians."""
    runs: dict[str, list[float]] = {}
    named = [("classifier (today)", nets.cls, CLS)] + [
        (f"{c.stem} at {s} px", load_onnx(c), s) for c in cuts for s in sides]
    for _r in range(rounds):
        for name, net, side in named:
            runs.setdefault(name, []).extend(per_crop_ms(net, crops, side, 1))
    for name, ms in runs.items():
        print(f"{name:>28s}: {float(np.median(ms)):.2f} ms a crop (median of {rounds} runs of "
              f"{len(crops)} crops, one thread)", flush=True)


def learn_time(nets: Nets, cut: Path, side: int, examples: list[Example], l2: float,
               fits: int) -> None:
    """CPU seconds to learn ``examples`` (the first 10 photos) with a combined head on
    ``cut``: the classifier's and the cut's features of their crops and of the rendered
    anchors, and ``fits`` fits (the choice by leaving views out makes 20-30)."""
    t0 = time.process_time()
    crops, labels = classifier_crops(examples)
    ac, al = anchors()
    net = Lite0Maps.__new__(Lite0Maps)
    net.net, net.side = load_onnx(cut), side
    t1 = time.process_time()
    cf, cl = nets.features(crops)
    af, alog = nets.features(ac)
    t2 = time.process_time()
    lf = single(net, crops)
    alf = single(net, ac)
    t3 = time.process_time()
    own = own_layer(nets, np.vstack([cf, af]), np.vstack([cl, alog]))
    feats, anc = np.hstack([cf, lf]), np.hstack([af, alf])
    k = cf.shape[1]
    prior = (np.hstack([own[0], np.zeros((7, feats.shape[1] - k))]), own[1])
    for _i in range(fits):
        head_lr(feats, labels, anc, al, l2, prior, slice(k, feats.shape[1]))
    t4 = time.process_time()
    print(f"learning {len(examples)} examples ({len(crops)} crops, {len(ac)} anchors) with "
          f"{cut.stem} at {side} px: {t4 - t0:.1f} s of CPU: anchors rendered and crops cut "
          f"{t1 - t0:.1f}, classifier {t2 - t1:.1f}, Lite0 {t3 - t2:.1f}, {fits} fits "
          f"{t4 - t3:.1f}", flush=True)


def single(net: Lite0Maps, crops: Array) -> Array:
    """One cut's pooled output (a single-output ONNX file) for ``crops``."""
    out = []
    for i in range(0, len(crops), CLS_BATCH):
        batch = crops[i:i + CLS_BATCH]
        if net.side != batch.shape[1]:
            batch = np.stack([cv2.resize(c, (net.side, net.side),
                                         interpolation=cv2.INTER_LINEAR) for c in batch])
        net.net.setInput(_blob(np.ascontiguousarray(batch)))
        out.append(np.asarray(net.net.forward(), np.float64).reshape(len(batch), -1))
    return np.concatenate(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--maps", type=Path, required=True, help="lite0_maps.onnx")
    ap.add_argument("--only", choices=bv.FOLDERS, action="append")
    ap.add_argument("--models", choices=("shipped", "loso"), action="append")
    ap.add_argument("--features", action="append",
                    help="feature sets to try (default: cls and every Lite0 cut)")
    ap.add_argument("--heads", action="append", choices=("own", "partA", "lr", "combo"))
    ap.add_argument("--l2", type=float, action="append", help="lr/combo L2 (default 0.01)")
    ap.add_argument("--value-min", type=float, default=0.5)
    ap.add_argument("--cache", type=Path, default=Path("/tmp/teach-features"))
    ap.add_argument("--no-ceiling", action="store_true")
    ap.add_argument("--side", type=int, default=CLS,
                    help="Lite0's input side: the classifier's crop resized (default its own)")
    ap.add_argument("--photos", type=int, action="append", help="default 5 and 10")
    ap.add_argument("--timing", type=Path, action="append",
                    help="only time these Lite0 cuts (lite0_bK_POOL.onnx) at --side against "
                         "the classifier, on 200 crops of the first source")
    ap.add_argument("--learn-time", type=Path,
                    help="only time learning the first 10 photos with this Lite0 cut "
                         "(lite0_bK_POOL.onnx) at --side, the combined head")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    args.cache.mkdir(parents=True, exist_ok=True)
    maps = Lite0Maps(args.maps, args.side)
    tag = "" if args.side == CLS else f"-{args.side}px"
    base = DiceReader.shipped()
    feature_sets = args.features or ["cls"] + [f"b{b}_{p}" for b in BLOCKS for p in POOLS]
    heads = args.heads or ["own", "partA", "lr", "combo"]
    l2s = args.l2 or [0.01]
    ns = args.photos or [5, 10]
    ac, al = anchors()
    for source in args.only or bv.FOLDERS:
        for models in args.models or ("shipped", "loso"):
            reader = base if models == "shipped" else bv.with_nets(
                base, bv.LOSO / source.removesuffix("-train"), "loso")
            assert reader.nets is not None
            nets = reader.nets
            t0 = time.process_time()
            d = dump(reader, source, args.cache, models)
            examples = d.examples(np.arange(len(d.labels)))
            crops, labels = classifier_crops(examples)
            fe = cached(args.cache / f"{source}-{models}-feats{tag}.npz",
                        functools.partial(all_features, nets, maps, crops))
            an = cached(args.cache / f"anchors-{models}-{source}{tag}.npz",
                        functools.partial(all_features, nets, maps, ac))
            if args.learn_time:
                from threadpoolctl import threadpool_limits

                first = [e for e in examples if e.group < 10]
                with threadpool_limits(limits=1, user_api="blas"):
                    learn_time(nets, args.learn_time, args.side, first, l2s[0], 25)
                return
            if args.timing:
                timing(nets, args.timing, sorted({CLS, args.side}), crops[:200])
                return
            own = own_layer(nets, np.vstack([fe["cls"], an["cls"]]),
                            np.vstack([fe["logits"], an["logits"]]))
            print(f"\n== {source} {models}: {len(d.labels)} examples "
                  f"({int((d.labels > 0).sum())} dice) from {len(set(d.photo.tolist()))} "
                  f"photos; dumped and read in {time.process_time() - t0:.0f} s of CPU",
                  flush=True)
            splits: list[tuple[str, list[tuple[Array, Array]]]] = []
            for n in ns:
                taught = d.photo < n
                seen = set(d.copy[taught].tolist())
                rest = ~taught & ~np.isin(d.copy, list(seen))
                splits.append((f"{n} photos", [(np.nonzero(taught)[0], np.nonzero(rest)[0])]))
            if not args.no_ceiling:
                fold = d.copy % 5
                splits.append(("4/5 taught", [(np.nonzero(fold != k)[0],
                                               np.nonzero(fold == k)[0]) for k in range(5)]))
            header = " | ".join(f"{name:^20s}" for name, _s in splits)
            print(f"{'head':>22s} | {header}   (read right / wrong / extra, % of dice; "
              f"precision, % of values said)")
            rows: list[tuple[str, str, str | None, float]] = [("own", "cls", None, 0.0)]
            for h in heads:
                if h == "partA":
                    rows += [("partA", "cls", None, p) for p in PULLS]
                elif h in ("lr", "combo"):
                    rows += [(h, f, None, l2) for f in feature_sets
                             for l2 in l2s if not (h == "combo" and f == "cls")]
            for h, fname, _x, l2 in rows:
                if h == "own" and "own" not in heads:
                    continue
                cells = []
                t1 = time.process_time()
                for _name, folds in splits:
                    tally = Tally()
                    for tr, te in folds:
                        rows_tr = (tr[:, None] * VARIANTS + np.arange(VARIANTS)).ravel()
                        lab = labels[rows_tr]
                        fn: Callable[[Array], Array] | None
                        if h == "own":
                            fn = None
                            feats = fe["cls"]
                        elif h == "partA":
                            w = weights_of(lab)
                            x = np.vstack([fe["cls"][rows_tr], an["cls"]])
                            y = np.concatenate([lab, al])
                            ww = np.concatenate([w, 0.5 * np.full(len(al), 1 / len(al))])
                            wt, bt = fit_layer(x, y, own[0], own[1], ww, l2)
                            feats = fe["cls"]

                            def linear(g: Array, wt: Array = wt, bt: Array = bt) -> Array:
                                out: Array = g @ wt.T + bt
                                return out
                            fn = linear
                        elif h == "lr":
                            feats = fe[fname]
                            fn = head_lr(feats[rows_tr], lab, an[fname], al, l2)
                        else:
                            feats = np.hstack([fe["cls"], fe[fname]])
                            af = np.hstack([an["cls"], an[fname]])
                            k = fe["cls"].shape[1]
                            prior = (np.hstack([own[0], np.zeros((7, feats.shape[1] - k))]),
                                     own[1])
                            fn = head_lr(feats[rows_tr], lab, af, al, l2, prior,
                                         slice(k, feats.shape[1]))
                        tally += read(fn, feats, fe["logits"], examples, te, args.value_min)
                    cells.append(Scored(tally).cells())
                label = f"{h} {fname}" + (f" {l2:g}" if h != "own" else "")
                print(f"{label:>22s} | {' | '.join(cells)}   {time.process_time() - t1:.0f}s",
                      flush=True)


if __name__ == "__main__":
    main()
