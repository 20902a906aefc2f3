"""Benchmark of teaching a table (issue 40): the first photos of a source taught, the rest read.

Run from the repository root:

    .venv/bin/python benchmarks/teach.py                  # every source, 5 and 10 photos
    .venv/bin/python benchmarks/teach.py --only byler-train --photos 10 --models loso

For each shared source (``../shared/data/dice-photos``) the first N labelled photos (sorted by
file name) are taught (:func:`calibration.teach.examples_from_view` on each, then
:func:`calibration.teach.fit`), and the rest of the source is read untaught and taught, with
the same matching rule as ``benchmarks/vision.py`` (a die matches a label within 0.75 of the
label box's larger side). Photos of the rest that are copies of a taught photo (the same
photograph under two names: visdice-train holds 79 pairs; ``vision.folds``, as the folds
group them) are left out of the reading.

Models: ``shipped`` (``vision/models``: they trained on every shared photo, so this says how
well teaching does on a table like those they learned on), ``loso`` (each source read by the
models trained without it, ``benchmarks/models/loso/<source>``: a kind of table never seen),
and ``folds`` (each photo read by the fold models that never saw it, each fold taught alike;
a photo whose copy its fold trained on is not read).

Printed per source, models and N: the untaught and taught figures (read right, found,
precision, unsure, confident wrong), what the teaching kept (head or not, the detector's cut)
and its cross-validated accuracy, and the CPU seconds teaching took (cutting the examples from
the photos, and fitting).

``--taps`` prints instead what teaching the N photos by touch would ask of the players: the
taps to put right what the untaught reader shows on each (a die read unsure: its face, the
keypad asks for it; a die read wrong or missed: the die, then its face; a thing taken for a
die: it, then No die; Take and Right for each picture), and the time that takes at
**provisional** rates: 5 s to throw the dice and let them settle, 1 s a tap (not measured:
no players here).
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import time
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from calibration.teach import Example, LabelledDie, examples_from_view, fit  # noqa: E402
from vision import DiceReader, Profile  # noqa: E402
from vision.folds import folds_of, photo_groups, split_of  # noqa: E402

_spec = importlib.util.spec_from_file_location("bench_vision", ROOT / "benchmarks" / "vision.py")
assert _spec is not None and _spec.loader is not None
bv = importlib.util.module_from_spec(_spec)
sys.modules["bench_vision"] = bv
_spec.loader.exec_module(bv)

MODELS = ("shipped", "loso", "folds")
#: Provisional: seconds to throw a handful of dice and let them settle, and a tap's.
THROW_S = 5.0
TAP_S = 1.0


def readers(base: DiceReader, source: str, models: str) -> list[DiceReader]:
    """The reader of each fold (three alike but for folds)."""
    if models == "shipped":
        return [base] * 3
    if models == "loso":
        r = bv.with_nets(base, bv.LOSO / source.removesuffix("-train"), "--models loso")
        return [r] * 3
    return [bv.with_nets(base, bv.FOLDS / f"f{k}", "--models folds") for k in range(3)]


def labelled(jpg: Path) -> tuple[np.ndarray, list[tuple[int, float, float, float]]]:
    img = cv2.imread(str(jpg))
    if img is None:
        raise SystemExit(f"cannot read {jpg}")
    return img, bv.load_labels(jpg.with_suffix(".txt"), img.shape[1], img.shape[0])


def teach(reader: DiceReader, photos: list[tuple[np.ndarray, list[tuple[int, float, float,
                                                                          float]]]]) -> tuple[
        Profile, str, float]:
    """A profile taught from ``photos`` for ``reader``'s models, the lesson in words, and the
    CPU seconds it took (cutting the examples and fitting)."""
    t0 = time.process_time()
    examples: list[Example] = []
    for group, (img, labels) in enumerate(photos):
        dice = [LabelledDie(v, (cx, cy), side) for v, cx, cy, side in labels]
        examples += examples_from_view(reader, img, dice, group, "photo")
    lesson = fit(reader.nets, examples) if reader.nets is not None else None
    seconds = time.process_time() - t0
    if lesson is None:
        return Profile(), "no CNNs: nothing taught", seconds
    return Profile(head=lesson.head), "; ".join(lesson.lines()), seconds


def run(source: str, models: str, n: int, verbose: bool) -> None:
    base = DiceReader.shipped()
    per_fold = readers(base, source, models)
    photos = bv.photos(source)
    groups = photo_groups([jpg for _i, jpg in photos])
    fold = folds_of(split_of(bv.FOLDS / "f0") if models == "folds" else "index", groups)
    taught_photos = [labelled(jpg) for _i, jpg in photos[:n]]
    profiles: dict[int, Profile] = {}
    for reader in {id(r): r for r in per_fold}.values():
        profile, words, seconds = teach(reader, taught_photos)
        profiles[id(reader)] = profile
        print(f"  taught {n} photos for {models} models in {seconds:.1f} s of CPU: {words}",
              flush=True)
    untaught, taught = bv.Score(), bv.Score()
    copies = 0
    for i, jpg in photos[n:]:
        if groups[i] in groups[:n]:
            copies += 1  # the same photograph as a taught one
            continue
        if models == "folds" and any(fold[j] != fold[i] for j in range(len(photos))
                                     if groups[j] == groups[i]):
            continue  # its fold's models trained on its copy
        img, labels = labelled(jpg)
        reader = per_fold[fold[i]]
        for score, profile in ((untaught, None), (taught, profiles[id(reader)])):
            t = time.perf_counter()
            reading = reader.read(img, profile)
            score.ms += (time.perf_counter() - t) * 1000
            score.frames += 1
            bv._score_reading(reading, labels, [], score, verbose and profile is not None,
                              jpg.name)
    left = f", {copies} copies of taught photos left out" if copies else ""
    print(untaught.line(f"{source} {models} untaught"))
    print(taught.line(f"{source} {models} taught {n}") + left, flush=True)


def taps(source: str, models: str, n: int) -> None:
    """The players' taps and time to teach the first ``n`` photos by touch (see --taps)."""
    reader = readers(DiceReader.shipped(), source, models)[0]
    count = 0
    for _i, jpg in bv.photos(source)[:n]:
        img, labels = labelled(jpg)
        s = bv.Score()
        bv._score_reading(reader.read(img), labels, [], s)
        extra = s.reported - s.true_reports
        wrong_or_missed = s.labelled - s.correct - s.uncertain
        count += 2 + s.uncertain + 2 * wrong_or_missed + 2 * extra  # Take, Right; put right
    seconds = n * THROW_S + count * TAP_S
    print(f"{source} {models} teaching {n} photos by touch: {count} taps, about {seconds:.0f} s "
          f"of the players' time ({THROW_S:g} s a throw, {TAP_S:g} s a tap: provisional)",
          flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--only", choices=bv.FOLDERS, action="append",
                    help="this source only (repeat for more)")
    ap.add_argument("--models", choices=MODELS, action="append",
                    help="these models only (default: shipped and loso; folds on request)")
    ap.add_argument("--photos", type=int, action="append",
                    help="photos taught (default: 5 and 10)")
    ap.add_argument("-v", "--verbose", action="store_true", help="list every taught miss")
    ap.add_argument("--taps", action="store_true",
                    help="only what teaching the photos by touch asks of the players")
    args = ap.parse_args()
    cv2.setNumThreads(1)
    if not bv.DATA.exists():
        raise SystemExit(f"no shared photos at {bv.DATA}")
    for source in args.only or bv.FOLDERS:
        for models in args.models or ("shipped", "loso"):
            for n in args.photos or (5, 10):
                if args.taps:
                    taps(source, models, n)
                else:
                    run(source, models, n, args.verbose)


if __name__ == "__main__":
    main()
