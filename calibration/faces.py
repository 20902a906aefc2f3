"""Icon-face sets: the faces of Eye for an Eye's and Dice Forge's dice, learned per table.

Guided capture gives labelled die crops, either "roll and tap the face you see" (a tap picks
the die under the finger and names it) or "show each face N times" (a folder per face). A
vision :class:`~vision.profile.FaceSet` is learned from them; before it is saved, k-fold
cross-validation says how often it names a face it has not seen. Adding samples later keeps
the examples already learned and adds the new ones.

Templates list the labels each game's dice carry, so a capture can say which faces are still
missing and reject a misspelt face name.
"""

from __future__ import annotations

import base64
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from calibration.images import CalibrationError, DieCrop
from vision.profile import FACE_VARIANTS, FaceSet, face_features, face_variants

Image = npt.NDArray[Any]

_FORGE_BASE = (
    # Sanctuary faces (dice-forge-reference.md section 3.1) and the starting faces (section 2)
    "1-gold", "3-gold", "4-gold", "6-gold", "1-sun", "2-sun", "1-moon", "2-moon",
    "2-glory", "3-glory", "4-glory",
    "gold-sun-moon-choice", "1-glory-1-sun", "2-gold-1-moon", "3-gold-2-glory-choice",
    "2-glory-2-moon", "2-gold-2-sun-2-moon-choice", "1-gold-1-sun-1-moon-1-glory",
    # Garden faces (section 3.2)
    "mirror", "ship", "triple",
    "shield-red", "shield-blue", "shield-yellow", "shield-green",
    "boar-red", "boar-yellow", "boar-green", "boar-blue",
)
_FORGE_REBELLION = (
    # Titans and Goddess starting faces (section 2) and Forest faces (section 3.3)
    "1-ancient-shard", "1-loyalty-1-glory", "moon-golem", "sun-golem",
    "misfortune-red", "misfortune-blue", "misfortune-yellow", "misfortune-green",
    "2-gold-1-loyalty-1-glory", "3-gold-1-ancient-shard",
    "chaos-red", "chaos-blue", "chaos-yellow", "chaos-green",
)

#: Face labels per game. Eye for an Eye: the rulebook's four actions and the two advanced
#: icons; Dice Forge: every face of /work/shared/rulebooks/dice-forge-reference.md.
TEMPLATES: dict[str, tuple[str, ...]] = {
    "eye-for-an-eye": ("movement", "attack", "defence", "heal", "ready", "resolve"),
    "dice-forge": _FORGE_BASE,
    "dice-forge-rebellion": _FORGE_BASE + _FORGE_REBELLION,
}

MAX_FOLDS = 5


def template(game: str) -> tuple[str, ...]:
    """The face labels of ``game``'s template; CalibrationError naming the known games."""
    if game not in TEMPLATES:
        raise CalibrationError(f"no face template for game {game!r}; known: {sorted(TEMPLATES)}")
    return TEMPLATES[game]


def check_labels(labels: Sequence[str], game: str | None) -> list[str]:
    """Reject labels the game's template lacks; return the template labels still missing."""
    if game is None:
        return []
    allowed = template(game)
    unknown = [lab for lab in labels if lab not in allowed]
    if unknown:
        raise CalibrationError(f"face label(s) {unknown} are not faces of {game!r}; its faces "
                               f"are: {', '.join(allowed)}")
    return [lab for lab in allowed if lab not in labels]


AUGMENT = FACE_VARIANTS  # synthetic variants learned per captured crop


def augment(crop: Image, n: int = AUGMENT, seed: int = 0) -> list[Image]:
    """The crop and ``n - 1`` variants a die could also show (vision's
    :func:`~vision.profile.face_variants`: turned, shifted, scaled and relit)."""
    return face_variants(crop, n, seed)


def build(name: str, labels: Sequence[str], feats: Sequence[tuple[int, Image]],
          groups: Sequence[int] | None = None) -> FaceSet:
    """A FaceSet from (label index, feature vector) examples, normalised to its stored form.

    ``groups`` says which examples are variants of one capture (for the threshold).
    """
    if len(labels) < 2:
        raise CalibrationError(f"a face set needs at least 2 faces, got {list(labels)}")
    return FaceSet.build(name, labels, feats, groups)


def _features(crops: Sequence[Image], rotate: bool, seed: int = 0) -> list[Image]:
    out = []
    for i, c in enumerate(crops):
        for a in (augment(c, seed=seed + i) if rotate else [c]):
            out.append(face_features(a))
    return out


@dataclass(frozen=True)
class CrossValidation:
    """Held-out accuracy of a face set: per face and the confusions (true, named, count)."""

    accuracy: float
    tested: int
    per_label: dict[str, float]
    confusions: tuple[tuple[str, str, int], ...]

    def lines(self) -> list[str]:
        out = [f"cross-validated accuracy {self.accuracy:.1%} over {self.tested} held-out crops"]
        weak = [f"{k} {v:.0%}" for k, v in self.per_label.items() if v < 1.0]
        if weak:
            out.append("weaker faces: " + ", ".join(weak))
        for t, g, n in self.confusions:
            out.append(f"  {t} read as {g}: {n}")
        return out


def _merge(base: FaceSet | None, samples: Mapping[str, Sequence[Image]],
           ) -> tuple[list[str], list[tuple[int, Image]]]:
    labels = list(base.labels) if base else []
    feats: list[tuple[int, Image]] = []
    if base is not None:
        feats = [(li, np.array(f, np.float32)) for li, f in base.examples]
    for lab in samples:
        if lab not in labels:
            labels.append(lab)
    return labels, feats


def cross_validate(samples: Mapping[str, Sequence[Image]], base: FaceSet | None = None,
                   rotate: bool = True, folds: int = MAX_FOLDS) -> CrossValidation:
    """k-fold accuracy on the new crops (the ``base`` set's examples always stay in training).

    Each crop is held out once; the set learned from the other folds (plus ``base``) names it.
    A face with a single crop is tested against the others but never left without examples.
    """
    labels, base_feats = _merge(base, samples)
    items = [(lab, c) for lab, crops in samples.items() for c in crops]
    if not items:
        raise CalibrationError("no crops to cross-validate")
    k = max(2, min(folds, max(len(v) for v in samples.values())))
    fold_of: list[int] = []
    counters: dict[str, int] = {}
    for lab, _ in items:
        fold_of.append(counters.get(lab, 0) % k)
        counters[lab] = counters.get(lab, 0) + 1
    feats_all = [_features([c], rotate, seed=i) for i, (_, c) in enumerate(items)]
    right = 0
    tested = 0
    per: dict[str, list[int]] = {lab: [0, 0] for lab in samples}
    conf: dict[tuple[str, str], int] = {}
    for f in range(k):
        train = list(base_feats)
        groups = [-1 - n for n in range(len(base_feats))]
        test_idx = []
        for i, (lab, _) in enumerate(items):
            li = labels.index(lab)
            if fold_of[i] == f and counters[lab] > 1:
                test_idx.append(i)
            else:
                train += [(li, v) for v in feats_all[i]]
                groups += [i] * len(feats_all[i])
        if not test_idx or len({li for li, _ in train}) < 2:
            continue
        present = sorted({li for li, _ in train})
        remap = {li: n for n, li in enumerate(present)}
        fs = FaceSet.build("cv", [labels[li] for li in present],
                           [(remap[li], vec) for li, vec in train], groups)
        for i in test_idx:
            lab, crop = items[i]
            got, _ = fs.classify(crop)
            tested += 1
            per[lab][1] += 1
            if got == lab:
                right += 1
                per[lab][0] += 1
            else:
                key = (lab, got or "unknown")
                conf[key] = conf.get(key, 0) + 1
    if tested == 0:
        raise CalibrationError("cross-validation needs at least two crops of some face")
    return CrossValidation(
        accuracy=right / tested, tested=tested,
        per_label={lab: (r / n if n else math.nan) for lab, (r, n) in per.items()},
        confusions=tuple(sorted(((t, g, n) for (t, g), n in conf.items()),
                                key=lambda v: -v[2])),
    )


def learn(samples: Mapping[str, Sequence[Image]], name: str, base: FaceSet | None = None,
          rotate: bool = True) -> FaceSet:
    """A FaceSet from ``{label: [crops]}``, added to ``base``'s examples when given."""
    if not samples and base is None:
        raise CalibrationError("no face crops to learn from")
    for lab, crops in samples.items():
        if not (isinstance(lab, str) and lab):
            raise CalibrationError(f"face labels must be non-empty strings, got {lab!r}")
        if not crops:
            raise CalibrationError(f"face {lab!r} has no example crops")
    labels, feats = _merge(base, samples)
    groups = [-1 - n for n in range(len(feats))]
    seed = 0
    for lab, crops in samples.items():
        li = labels.index(lab)
        for c in crops:
            vs = _features([c], rotate, seed=seed)
            feats += [(li, v) for v in vs]
            groups += [seed] * len(vs)
            seed += 1
    return build(name, labels, feats, groups)


def samples_per_label(fs: FaceSet, rotate: bool = True) -> dict[str, int]:
    """How many captured crops each face of a set was learned from."""
    per = AUGMENT if rotate else 1
    counts = dict.fromkeys(fs.labels, 0)
    for li, _ in fs.examples:
        counts[fs.labels[li]] += 1
    return {k: math.ceil(v / per) for k, v in counts.items()}


def encode_crop(crop: Image) -> str:
    """A crop as PNG bytes in base64: how profiles keep captures to learn a set again."""
    ok, buf = cv2.imencode(".png", crop)
    if not ok:
        raise CalibrationError(f"cannot encode a crop of shape {crop.shape} as PNG")
    return base64.b64encode(buf.tobytes()).decode("ascii")


def decode_crop(text: str, where: str = "capture") -> Image:
    """The crop :func:`encode_crop` wrote; CalibrationError naming ``where`` if damaged."""
    try:
        raw = base64.b64decode(text.encode("ascii"), validate=True)
    except (ValueError, UnicodeEncodeError) as e:
        raise CalibrationError(f"{where}: not base64 ({e})") from e
    img = cv2.imdecode(np.frombuffer(raw, np.uint8), cv2.IMREAD_COLOR)
    if img is None or img.size == 0:
        raise CalibrationError(f"{where}: not a PNG image")
    out: Image = img
    return out


def encode_captures(samples: Mapping[str, Sequence[Image]]) -> dict[str, tuple[str, ...]]:
    """``{label: (PNG base64, ...)}`` of captured crops, for a profile's face set info."""
    return {lab: tuple(encode_crop(c) for c in crops) for lab, crops in samples.items()}


def crops_by_label(found: Mapping[str, Sequence[DieCrop]]) -> dict[str, list[Image]]:
    """``{label: [crop images]}`` from found dice."""
    return {lab: [d.crop for d in dice] for lab, dice in found.items()}
