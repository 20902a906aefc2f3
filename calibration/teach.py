"""Teaching a table its own dice: examples kept as small crops, and the reader fitted to them.

A group shows the companion its dice (labelled photos, a roll corrected by touch, dice laid
out 1 to 6, or the dice the players confirm or correct in play). Each die seen, and each thing
the reader took for a die that is not one, becomes an :class:`Example`: a small crop around it
(:data:`EXAMPLE_SIDE` px spanning :data:`EXAMPLE_SPAN` die sizes, so the classifier's crop and
its jitter fit inside), its label (0 = not a die, 1..6), the detector's heat there, and which
labelled view it came from.

:func:`fit` turns the examples into a :class:`vision.profile.TableHead` for one pair of models:

1. every example's crop is read by the classifier (its :data:`vision.cnn.CLS_FEATURES`) as
   cut in its four right-angle turns (what the reader's second look at an unsure die reads),
   and in jittered copies (turned any way, shifted and scaled like the detector's errors);
2. a new last layer is fitted on those features (multinomial logistic regression, L-BFGS from
   scipy), held near the classifier's own (an L2 pull towards its weights, :data:`PULLS`),
   each label weighed alike, with rendered dice of every value (:func:`anchors`) beside the
   table's; only when every face was shown (:data:`MIN_PER_FACE`; nor, without, is the
   probability a value needs changed);
3. the setting the table reads with is chosen by leaving each labelled view out in turn: heads
   fitted on the other views (or the classifier's own last layer) read its examples by the
   reader's own rule (:func:`vision.read.verdict`, the second look included) at each
   detector's cut (:data:`HEAT_CHOICES`) and each probability a value needs
   (:data:`VALUE_CHOICES`); the setting that reads the left-out views best (dice right, less
   :data:`WRONG_COST` for each die read wrong, :data:`EXTRA_COST` for each thing taken for a
   die) is the table's when it beats the untaught reader's own by :data:`MIN_GAIN` of the
   dice, from :data:`MIN_DICE` dice taught (ties go to the setting nearest the untaught
   reader's).

The examples are kept, not the features: when the models change (a new release), the head is
fitted again from the crops (:attr:`vision.cnn.Nets.identity` names the models a head was
fitted for). Numbers chosen on the shared photos: see docs/vision.md, "Teach the table".
"""

from __future__ import annotations

import base64
import math
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, Protocol, TypeVar

import cv2
import numpy as np
import numpy.typing as npt

from calibration.images import CalibrationError
from vision.cnn import CLS, HEAT_MIN, RECHECK_BELOW, Nets, crop
from vision.profile import Profile, TableHead
from vision.read import NOT_DIE_MIN, VALUE_MIN, DiceReader, Look, half_seen, verdict

Image = npt.NDArray[Any]

#: Side (px) of an example's stored crop, and how many die sizes it spans.
EXAMPLE_SIDE = 64
EXAMPLE_SPAN = 2.0
#: An example's die in its stored crop is this many px.
EXAMPLE_DIE = EXAMPLE_SIDE / EXAMPLE_SPAN
#: At most this many examples of each label are kept (the newest); 7 labels.
MAX_PER_LABEL = 60
MAX_EXAMPLES = 7 * MAX_PER_LABEL
#: An example's stored crop (JPEG, base64) is at most this many characters.
MAX_CROP_CHARS = 32_000
JPEG_QUALITY = 92
#: Where an example came from: labelled photos (``companion calibrate dice --from``), the
#: teaching screen's taps, or dice the players confirmed or corrected in play.
Origin = Literal["photo", "tap", "play"]
ORIGINS: tuple[Origin, ...] = ("photo", "tap", "play")
#: Crops read per example when fitting: as cut in its four right-angle turns (what the
#: reader's second look reads), and jittered copies.
VARIANTS = 8
TURNS = 4
#: The pulls (L2) of the head towards the classifier's own last layer that teaching tries.
PULLS = (0.003, 0.03)
#: A head, or another probability a value needs, is tried only when every face was shown at
#: least this often: leaving views out cannot tell how a setting reads a face it never saw (a
#: table that showed only 1s would get a head that reads a 3 as a 1).
MIN_PER_FACE = 3
#: The weight of the rendered anchor dice, against the table's examples (1.0 = as much).
ANCHOR_WEIGHT = 0.5
ANCHOR_PER_VALUE = 24
#: The detector's cuts a table may take (HEAT_MIN, 0.45, is the untaught reader's), and the
#: probabilities a value may need (VALUE_MIN, 0.5, is the untaught reader's).
HEAT_CHOICES = (0.3, HEAT_MIN, 0.65)
VALUE_CHOICES = (VALUE_MIN, 0.6, 0.7, 0.8)
#: Left-out views' reading: what a wrong value and a thing taken for a die cost, in dice read
#: right. As the issue's targets weigh them: of the 3% of dice a reader may not read right,
#: 0.5% may be read wrong (a wrong value is 6 times as bad as one to tap in); 1% of what it
#: reports may be no die (3 times).
WRONG_COST = 6
EXTRA_COST = 3
#: A setting other than the untaught reader's is kept only when it reads the left-out views
#: better by this share of their dice (and by 2 dice at least), and only from this many dice
#: taught: a few views tell little (visdice's first 10 photos, 15 dice, chose the 0.65 cut
#: that read one more of them and 9 points fewer of the rest).
MIN_GAIN = 0.02
MIN_DICE = 24
#: A candidate this far (in die sizes) from every labelled die of a fully labelled view is a
#: thing that is not a die; nearer, it is left alone (a side face, a die's corner).
NOT_DIE_APART = 1.0
#: A label matches a candidate within this share of the label's size (benchmarks/vision.py).
MATCH = 0.75


@dataclass(frozen=True)
class Example:
    """One die (label 1..6) or one thing that is not a die (label 0) at this table: its crop
    (:data:`EXAMPLE_SIDE` px square, the die :data:`EXAMPLE_DIE` px in the middle), the
    detector's heat at it (0.0: the detector did not see it), which labelled view it came
    from (``group``) and how (``origin``)."""

    label: int
    crop: Image
    heat: float
    group: int
    origin: Origin

    def __post_init__(self) -> None:
        if isinstance(self.label, bool) or not isinstance(self.label, int) \
                or not 0 <= self.label <= 6:
            raise CalibrationError(f"an example's label must be 0 (not a die) or 1..6, "
                                   f"got {self.label!r}")
        c = self.crop
        if not (isinstance(c, np.ndarray) and c.dtype == np.uint8
                and c.shape == (EXAMPLE_SIDE, EXAMPLE_SIDE, 3)):
            raise CalibrationError(f"an example's crop must be {EXAMPLE_SIDE}x{EXAMPLE_SIDE} "
                                   f"BGR uint8, got {_describe(c)}")
        if not (isinstance(self.heat, int | float) and math.isfinite(self.heat)
                and 0.0 <= self.heat <= 1.0):
            raise CalibrationError(f"an example's heat must be within 0..1, got {self.heat!r}")
        if isinstance(self.group, bool) or not isinstance(self.group, int) or self.group < 0:
            raise CalibrationError(f"an example's group must be a number >= 0, "
                                   f"got {self.group!r}")
        if self.origin not in ORIGINS:
            raise CalibrationError(f"an example's origin must be one of {', '.join(ORIGINS)}, "
                                   f"got {self.origin!r}")

    def encoded(self) -> str:
        """The crop as JPEG in base64, as a profile keeps it."""
        ok, buf = cv2.imencode(".jpg", self.crop, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
        if not ok:
            raise CalibrationError("cannot encode an example's crop as JPEG")
        return base64.b64encode(buf.tobytes()).decode("ascii")


def decode_example_crop(text: str, where: str) -> Image:
    """An example's crop from its stored text; CalibrationError naming ``where`` when it is
    not a small image of the right size."""
    if not isinstance(text, str) or len(text) > MAX_CROP_CHARS:
        raise CalibrationError(f"{where}: not an example crop (at most {MAX_CROP_CHARS} "
                               "characters of base64)")
    try:
        raw = base64.b64decode(text.encode("ascii"), validate=True)
    except (ValueError, UnicodeEncodeError) as e:
        raise CalibrationError(f"{where}: not base64 ({e})") from e
    size = _header_size(raw, where)
    if size != (EXAMPLE_SIDE, EXAMPLE_SIDE):
        raise CalibrationError(f"{where}: a {size[0]}x{size[1]} image, not "
                               f"{EXAMPLE_SIDE}x{EXAMPLE_SIDE}")
    img = cv2.imdecode(np.frombuffer(raw, np.uint8), cv2.IMREAD_COLOR)
    if img is None or img.size == 0:
        raise CalibrationError(f"{where}: not an image")
    if img.shape != (EXAMPLE_SIDE, EXAMPLE_SIDE, 3):
        raise CalibrationError(f"{where}: a {img.shape[1]}x{img.shape[0]} image, not "
                               f"{EXAMPLE_SIDE}x{EXAMPLE_SIDE}")
    out: Image = img
    return out


def _header_size(raw: bytes, where: str) -> tuple[int, int]:
    """The (width, height) a JPEG or PNG says it is, read from its header alone (Pillow's
    lazy open), so that a small file claiming a huge image is never decoded. Raised when it
    is neither, or claims an image of a decompression bomb's size: CalibrationError naming
    ``where``."""
    import io
    import warnings

    from PIL import Image as PilImage
    from PIL import UnidentifiedImageError

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", PilImage.DecompressionBombWarning)
            with PilImage.open(io.BytesIO(raw)) as im:
                if im.format in ("JPEG", "PNG"):
                    return int(im.size[0]), int(im.size[1])
    except PilImage.DecompressionBombError:
        raise CalibrationError(f"{where}: claims an image far larger than "
                               f"{EXAMPLE_SIDE}x{EXAMPLE_SIDE}") from None
    except (UnidentifiedImageError, OSError, ValueError, SyntaxError):
        pass
    raise CalibrationError(f"{where}: not a JPEG or PNG image")


def _describe(x: object) -> str:
    if isinstance(x, np.ndarray):
        return f"an array of shape {x.shape} and dtype {x.dtype}"
    return type(x).__name__


@dataclass(frozen=True)
class LabelledDie:
    """A die the players (or a label file) say lies at ``center`` (frame pixels), about
    ``size`` px, showing ``value`` (1..6)."""

    value: int
    center: tuple[float, float]
    size: float

    def __post_init__(self) -> None:
        if isinstance(self.value, bool) or not isinstance(self.value, int) \
                or not 1 <= self.value <= 6:
            raise CalibrationError(f"a die's value must be 1..6, got {self.value!r}")
        x, y = self.center
        if not all(isinstance(v, int | float) and math.isfinite(v) for v in (x, y, self.size)) \
                or self.size <= 0:
            raise CalibrationError(f"a die needs a finite centre and a size > 0, got "
                                   f"{self.center!r} and {self.size!r}")


def cut(image: Image, cx: float, cy: float, size: float) -> Image:
    """An example's stored crop of the die at (cx, cy), ``size`` px, in ``image``."""
    return crop(image, cx, cy, size, side=EXAMPLE_SIDE, scale=EXAMPLE_SPAN)


def _in_image(look: Look, die: LabelledDie) -> tuple[float, float, float]:
    """A labelled die's centre and size in the look's image (through a top-down warp)."""
    x, y = die.center
    cx, cy = look.at(x, y)
    if look.to_image is None:
        return cx, cy, die.size
    h = die.size / 2
    ends = [look.at(x - h, y), look.at(x + h, y), look.at(x, y - h), look.at(x, y + h)]
    size = (math.dist(ends[0], ends[1]) + math.dist(ends[2], ends[3])) / 2
    return cx, cy, max(size, 1.0)


def examples_from_view(reader: DiceReader, frame: Image, dice: Sequence[LabelledDie],
                       group: int, origin: Origin, *, profile: Profile | None = None,
                       complete: bool = True) -> list[Example]:
    """The examples one labelled view of the table gives: each labelled die cut where the
    reader's detector put it (its own centre and size: what the reader reads) or, where the
    detector saw nothing, at the label (heat 0); and, when ``complete`` (every die in view is
    labelled), every candidate far from all of them as a thing that is not a die."""
    look = reader.look(frame, profile)
    cands = list(look.candidates)
    placed = [_in_image(look, d) for d in dice]
    pairs = sorted((math.hypot(c.cx - x, c.cy - y), ci, di)
                   for ci, c in enumerate(cands) for di, (x, y, s) in enumerate(placed)
                   if math.hypot(c.cx - x, c.cy - y) < MATCH * s)
    used_c: set[int] = set()
    found: dict[int, int] = {}
    for _d, ci, di in pairs:
        if ci in used_c or di in found:
            continue
        used_c.add(ci)
        found[di] = ci
    # a die the detector missed is cut at its label, scaled as the detector sizes this
    # table's dice (labels may box only the pips: matteop65's do)
    ratios = [cands[ci].size / placed[di][2] for di, ci in found.items()]
    ratio = float(np.median(ratios)) if ratios else 1.0
    out: list[Example] = []
    for di, (x, y, s) in enumerate(placed):
        value = dice[di].value
        if di in found:
            c = cands[found[di]]
            out.append(Example(value, cut(look.image, c.cx, c.cy, c.size), float(c.score),
                               group, origin))
        else:
            out.append(Example(value, cut(look.image, x, y, s * ratio), 0.0, group, origin))
    if complete:
        for ci, c in enumerate(cands):
            if ci in used_c:
                continue
            if all(math.hypot(c.cx - x, c.cy - y) > NOT_DIE_APART * max(s, c.size)
                   for x, y, s in placed):
                out.append(Example(0, cut(look.image, c.cx, c.cy, c.size), float(c.score),
                                   group, origin))
    return out


class _Labelled(Protocol):
    @property
    def label(self) -> int: ...


L = TypeVar("L", bound=_Labelled)


def bounded(examples: Iterable[L], per_label: int = MAX_PER_LABEL) -> list[L]:
    """The newest ``per_label`` examples of each label (the list is oldest first), in
    order."""
    kept: list[L] = []
    count = [0] * 7
    for e in reversed(list(examples)):
        if count[e.label] < per_label:
            count[e.label] += 1
            kept.append(e)
    return kept[::-1]


# --------------------------------------------------------------------------- fitting


def classifier_crops(examples: Sequence[Example],
                     seed: int = 0) -> tuple[Image, npt.NDArray[np.int64]]:
    """The classifier's crops (N x CLS x CLS x 3) of each example: ``TURNS`` crops as cut,
    turned by right angles (the reader's second look at an unsure die reads these four),
    then ``VARIANTS`` - ``TURNS`` jittered copies (turned any way, centre moved by about 6% of
    the die, size by about 10%: the detector's own errors); with each crop's label."""
    rng = np.random.default_rng(seed)
    crops, labels = [], []
    mid = EXAMPLE_SIDE / 2
    for e in examples:
        as_cut = crop(e.crop, mid, mid, EXAMPLE_DIE)
        for k in range(VARIANTS):
            if k < TURNS:
                c = np.ascontiguousarray(np.rot90(as_cut, k))
            else:
                dx, dy = rng.normal(0.0, 0.06 * EXAMPLE_DIE, 2)
                size = EXAMPLE_DIE * math.exp(float(rng.normal(0.0, 0.1)))
                c = crop(e.crop, mid + dx, mid + dy, size, angle=float(rng.uniform(0, 360)))
            crops.append(c)
            labels.append(e.label)
    if not crops:
        return np.zeros((0, CLS, CLS, 3), np.uint8), np.zeros(0, np.int64)
    return np.stack(crops), np.array(labels, np.int64)


_ANCHORS: dict[str, tuple[Image, npt.NDArray[np.int64]]] = {}


def anchors(per_value: int = ANCHOR_PER_VALUE, seed: int = 40) -> tuple[
        Image, npt.NDArray[np.int64]]:
    """Rendered dice of every value (and table around them, "not a die"), cut as the
    classifier cuts them (:mod:`vision.synthetic`, seeded: the same every time): they keep
    a head fitted on a table that showed few values reading the others. Made once a process
    (about a second)."""
    key = f"{per_value}:{seed}"
    if key in _ANCHORS:
        return _ANCHORS[key]
    from vision.synthetic import HARD_TABLES, random_scene, render

    rng = np.random.default_rng(seed)
    crops: list[Image] = []
    labels: list[int] = []
    count = [0] * 7
    while min(count[1:]) < per_value:
        hard = rng.random() < 0.5
        scene = random_scene(rng, width=480, height=360, n_dice=(2, 7), die_size=(24.0, 56.0),
                             **(HARD_TABLES if hard else {}))
        image = render(scene, rng)
        truth = scene.truth()
        for t in truth:
            if t.readable and t.value and count[t.value] < per_value:
                size = t.size * math.exp(float(rng.normal(0.0, 0.08)))
                crops.append(crop(image, t.center[0], t.center[1], size))
                labels.append(int(t.value))
                count[t.value] += 1
        x, y = float(rng.uniform(40, 440)), float(rng.uniform(40, 320))
        if truth and all(math.hypot(x - t.center[0], y - t.center[1]) > t.size for t in truth):
            crops.append(crop(image, x, y, float(np.median([t.size for t in truth]))))
            labels.append(0)
            count[0] += 1
    got = (np.stack(crops), np.array(labels, np.int64))
    _ANCHORS[key] = got
    return got


def _softmax(z: Image) -> Image:
    z = z - z.max(axis=-1, keepdims=True)
    e = np.exp(z)
    out: Image = e / e.sum(axis=-1, keepdims=True)
    return out


def fit_layer(features: Image, labels: npt.NDArray[np.int64], weights: Image, bias: Image,
              sample_weight: Image, pull: float) -> tuple[Image, Image]:
    """A last layer (7 x F weights, 7 biases) for ``features``: weighted multinomial
    logistic regression pulled (L2, ``pull``) towards ``weights`` / ``bias``, by L-BFGS."""
    from scipy.optimize import minimize

    width = features.shape[1]
    onehot = np.eye(7)[labels]
    sw = sample_weight / sample_weight.sum()

    def loss(theta: Image) -> tuple[float, Image]:
        w = theta[:7 * width].reshape(7, width)
        b = theta[7 * width:]
        p = _softmax(features @ w.T + b)
        dw, db = w - weights, b - bias
        value = -float(np.sum(sw[:, None] * onehot * np.log(p + 1e-12)))
        value += 0.5 * pull * float(np.sum(dw * dw) + np.sum(db * db))
        g = (p - onehot) * sw[:, None]
        grad = np.concatenate([(g.T @ features + pull * dw).ravel(), g.sum(axis=0) + pull * db])
        return value, grad

    start = np.concatenate([weights.ravel(), bias])
    res = minimize(loss, start, jac=True, method="L-BFGS-B", options={"maxiter": 500})
    theta = np.asarray(res.x, np.float64)
    return theta[:7 * width].reshape(7, width), theta[7 * width:]


def own_layer(nets: Nets, features: Image, logits: Image) -> tuple[Image, Image]:
    """The classifier's own last layer, found from its features and logits of more crops
    than it has weights per value, which use every feature (the logits are a linear map of
    them: what :data:`vision.cnn.CLS_FEATURES` promises). Raised when the crops are too few or
    leave a feature unused, or the logits are not a linear map: ``ValueError``."""
    if len(features) <= features.shape[1] + 1:
        raise ValueError(f"the classifier's own layer needs more than {features.shape[1] + 1} "
                         f"crops to be found, got {len(features)}")
    x = np.hstack([features, np.ones((len(features), 1))])
    sol, _res, rank, _sv = np.linalg.lstsq(x, logits, rcond=None)
    if rank < x.shape[1]:
        raise ValueError(f"the classifier's own layer cannot be found from these crops: they "
                         f"leave {x.shape[1] - rank} of its features unused")
    if float(np.abs(x @ sol - logits).max()) > 1e-3:
        raise ValueError("the classifier's logits are not a linear map of its features "
                         f"({nets.identity}): no head can be fitted on them")
    return sol[:-1].T, sol[-1]


def second_look(turns: Image) -> Image:
    """The probabilities the reader ends with for crops whose four right-angle turns the
    classifier scored ``turns`` (N x 4 x 7): the first turn's, or, for a crop it is unsure
    of (best value under :data:`vision.cnn.RECHECK_BELOW`, not called "not a die"), the
    four turns' mean (:meth:`vision.cnn.Nets.recheck`)."""
    first = turns[:, 0]
    unsure = (first[:, 1:].max(axis=1) < RECHECK_BELOW) & (first[:, 0] < NOT_DIE_MIN)
    out: Image = np.where(unsure[:, None], turns.mean(axis=1), first)
    return out


@dataclass(frozen=True)
class Tally:
    """How a setting reads a set of examples (the reader's own rule on each, no re-read):
    dice labelled, read right, read wrong (confidently), said unsure, things that are not
    dice taken for dice."""

    dice: int = 0
    right: int = 0
    wrong: int = 0
    unsure: int = 0
    extra: int = 0

    def __add__(self, other: Tally) -> Tally:
        return Tally(self.dice + other.dice, self.right + other.right,
                     self.wrong + other.wrong, self.unsure + other.unsure,
                     self.extra + other.extra)

    @property
    def score(self) -> float:
        return float(self.right - WRONG_COST * self.wrong - EXTRA_COST * self.extra)

    @property
    def share_right(self) -> float | None:
        return self.right / self.dice if self.dice else None


@dataclass(frozen=True)
class Setting:
    """One way to read a table: a head fitted with this pull (None: the classifier's own
    last layer), the detector's cut, and the probability a value needs."""

    pull: float | None
    heat_min: float
    value_min: float

    @property
    def plainness(self) -> int:
        """How close to the untaught reader (higher: closer); wins ties."""
        return (2 * (self.pull is None) + (self.heat_min == HEAT_MIN)
                + (self.value_min == VALUE_MIN))


def read_examples(probs: Image, examples: Sequence[Example], setting: Setting) -> Tally:
    """How the reader's rule (:func:`vision.read.verdict`, and a die half-seen under the cut
    said unsure: :func:`vision.read.half_seen`) reads ``examples`` whose crops the classifier
    (or the head) scored ``probs``, at ``setting``'s cuts."""
    dice = right = wrong = unsure = extra = 0
    for p, e in zip(probs, examples, strict=True):
        dice += e.label > 0
        said = verdict(e.heat, p, heat_min=setting.heat_min, value_min=setting.value_min) \
            if e.heat > 0 else None
        if said is None and e.heat > 0 and half_seen(e.heat, p, setting.heat_min):
            said = (None, 0.0)
        if said is None:
            continue
        value, conf = said
        if e.label == 0:
            extra += 1
        elif value == e.label:
            right += 1
        elif value is None:
            unsure += 1
        elif conf >= 0.5:
            wrong += 1
    return Tally(dice, right, wrong, unsure, extra)


@dataclass(frozen=True)
class Lesson:
    """What teaching gave: the head (:class:`vision.profile.TableHead`) and how it was chosen:
    the dice and views taught, how the left-out views read untaught and taught (each view read
    by a head fitted without it, the reader's rule), the setting kept, and the CPU seconds it
    took."""

    head: TableHead
    dice: int
    views: int
    untaught: Tally = field(default_factory=Tally)
    taught: Tally = field(default_factory=Tally)
    setting: Setting = field(default_factory=lambda: Setting(None, HEAT_MIN, VALUE_MIN))
    seconds: float = 0.0

    def lines(self) -> list[str]:
        """The lesson in words, for the command line."""
        out = []
        u, t = self.untaught.share_right, self.taught.share_right
        if u is None or t is None:
            out.append("cross-validated accuracy: unknown (it needs two views or more, with "
                       "dice)")
        else:
            out.append(f"cross-validated accuracy {t:.1%} of {self.taught.dice} dice in views "
                       f"left out ({self.taught.wrong} read wrong, {self.taught.extra} things "
                       f"taken for dice); untaught {u:.1%} ({self.untaught.wrong} wrong, "
                       f"{self.untaught.extra} extra)")
        s = self.setting
        kept = "the classifier's own last layer" if s.pull is None else \
            "this table's head on the classifier"
        out.append(f"reads with {kept}, the detector's cut at {s.heat_min:g}, a value said "
                   f"from {s.value_min:g} ({self.seconds:.1f} s of CPU)")
        return out


def _labels_weight(labels: npt.NDArray[np.int64]) -> Image:
    """Each label weighed alike: a sample's weight is 1 / its label's count."""
    counts = np.bincount(labels, minlength=7).astype(np.float64)
    out: Image = 1.0 / np.maximum(counts[labels], 1.0)
    return out


def _fit_on(feats: Image, labels: npt.NDArray[np.int64], own: tuple[Image, Image],
            anchor: tuple[Image, npt.NDArray[np.int64]] | None,
            pull: float) -> tuple[Image, Image]:
    w = _labels_weight(labels)
    w = w / w.sum()
    if anchor is not None:
        af, al = anchor
        feats = np.vstack([feats, af])
        labels = np.concatenate([labels, al])
        w = np.concatenate([w, ANCHOR_WEIGHT * np.full(len(al), 1.0 / len(al))])
    return fit_layer(feats, labels, own[0], own[1], w, pull)


def settings(every_face: bool = True) -> list[Setting]:
    """Every setting teaching chooses from, the untaught reader's first (``every_face``
    False, a face was not shown: only the detector's cut may change)."""
    plain = Setting(None, HEAT_MIN, VALUE_MIN)
    out = [plain]
    for pull in (None, *(PULLS if every_face else ())):
        for heat in HEAT_CHOICES:
            for value in (VALUE_CHOICES if every_face else (VALUE_MIN,)):
                s = Setting(pull, heat, value)
                if s != plain:
                    out.append(s)
    return out


def fit(nets: Nets, examples: Sequence[Example], *, use_anchors: bool = True) -> Lesson:
    """The table's head for ``nets`` from its ``examples`` (see the module's docstring), on
    one BLAS thread (many small products: OpenBLAS's threads cost ten times as much here).
    Raised when there is no die to learn from: CalibrationError."""
    from threadpoolctl import threadpool_limits

    with threadpool_limits(limits=1, user_api="blas"):
        return _fit(nets, examples, use_anchors)


def _fit(nets: Nets, examples: Sequence[Example], use_anchors: bool) -> Lesson:
    t0 = time.process_time()
    examples = list(examples)
    dice = sum(1 for e in examples if e.label > 0)
    if not dice:
        raise CalibrationError("no dice to learn from: show the companion some dice first")
    groups = sorted({e.group for e in examples})
    crops, labels = classifier_crops(examples)
    feats, logits = nets.features(crops)
    ac, al = anchors()  # rendered dice: enough crops to find the classifier's own layer by
    af, alog = nets.features(ac)
    own = own_layer(nets, np.vstack([feats, af]), np.vstack([logits, alog]))
    anchor = (af, al) if use_anchors else None
    owner = np.repeat(np.array([e.group for e in examples]), VARIANTS)
    turns = (np.arange(len(examples)) * VARIANTS)[:, None] + np.arange(TURNS)[None, :]
    shown = np.bincount([e.label for e in examples], minlength=7)
    heads = bool(np.all(shown[1:] >= MIN_PER_FACE))
    every = settings(heads)
    pulls = PULLS if heads else ()
    tally = {s: Tally() for s in every}
    for g in groups if len(groups) > 1 else ():
        train = owner != g
        if not np.any(labels[train] > 0):
            continue
        held = [i for i, e in enumerate(examples) if e.group == g]
        held_ex = [examples[i] for i in held]
        rows = turns[held]  # n x TURNS
        probs: dict[float | None, Image] = {None: second_look(_softmax(logits[rows]))}
        for pull in pulls:
            w, b = _fit_on(feats[train], labels[train], own, anchor, pull)
            probs[pull] = second_look(_softmax(feats[rows] @ w.T + b))
        for s in every:
            tally[s] += read_examples(probs[s.pull], held_ex, s)
    plain = every[0]
    if len(groups) > 1:
        best = max(every, key=lambda s: (tally[s].score, s.plainness))
        if dice < MIN_DICE or tally[best].score - tally[plain].score < max(2.0,
                                                                           MIN_GAIN * dice):
            best = plain  # not clearly better than the untaught reader: keep that
    else:  # one view: nothing to leave out; the head held closest to the classifier's own
        best = Setting(PULLS[-1] if heads else None, HEAT_MIN, VALUE_MIN)
    if best.pull is not None:
        w, b = _fit_on(feats, labels, own, anchor, best.pull)
        head = TableHead.build(nets.identity, best.heat_min, w, b, dice, best.value_min)
    else:
        head = TableHead.build(nets.identity, best.heat_min, None, None, dice, best.value_min)
    return Lesson(head, dice, len(groups), tally[plain], tally[best], best,
                  time.process_time() - t0)


# --------------------------------------------------------------------------- kept in a profile


@dataclass(frozen=True)
class StoredExample:
    """An :class:`Example` as a profile keeps it: its crop as JPEG in base64."""

    label: int
    heat: float
    group: int
    origin: Origin
    crop: str

    @classmethod
    def of(cls, e: Example) -> StoredExample:
        return cls(e.label, round(float(e.heat), 4), e.group, e.origin, e.encoded())

    def example(self, where: str = "example") -> Example:
        """The example with its crop decoded; CalibrationError naming ``where`` when the
        crop is damaged."""
        return Example(self.label, decode_example_crop(self.crop, f"{where}.crop"),
                       self.heat, self.group, self.origin)


@dataclass(frozen=True)
class TaughtDice:
    """What a table taught the reader about its dice, as its profile keeps it: the examples
    (oldest first, at most :data:`MAX_PER_LABEL` of each label), how many labelled views were
    taught (the next view's ``group``), and how the last fit read the views left out
    (:attr:`Lesson.taught` / :attr:`Lesson.untaught`, share of dice right; None: unknown)."""

    examples: tuple[StoredExample, ...] = ()
    views: int = 0
    cv_accuracy: float | None = None
    cv_untaught: float | None = None

    @property
    def dice(self) -> int:
        """How many of the examples are dice (the rest are things that are not dice)."""
        return sum(1 for e in self.examples if e.label > 0)

    def decoded(self) -> list[Example]:
        """The examples with their crops; CalibrationError naming a damaged one."""
        return [e.example(f"dice.examples[{i}]") for i, e in enumerate(self.examples)]

    def add(self, new: Sequence[Example]) -> TaughtDice:
        """These examples with ``new`` ones (as the next views: their groups are taken as
        they are), the oldest of a label dropped past :data:`MAX_PER_LABEL`."""
        stored = [*self.examples, *(StoredExample.of(e) for e in new)]
        views = max([self.views, *(e.group + 1 for e in new)])
        return TaughtDice(tuple(bounded(stored)), views, self.cv_accuracy,
                          self.cv_untaught)

    def with_lesson(self, lesson: Lesson) -> TaughtDice:
        """These examples with what fitting them said (how the left-out views read)."""
        t, u = lesson.taught.share_right, lesson.untaught.share_right
        return TaughtDice(self.examples, self.views,
                          None if t is None else round(t, 4), None if u is None else round(u, 4))


# --------------------------------------------------------------------------- from files


def _label_line(line: str, where: str, width: int, height: int) -> LabelledDie:
    parts = line.split()
    if len(parts) != 5:
        raise CalibrationError(f"{where}: expected 'class cx cy w h' (5 numbers), "
                               f"got {line.strip()!r}")
    try:
        cls = int(parts[0])
        cx, cy, bw, bh = (float(v) for v in parts[1:])
    except ValueError:
        raise CalibrationError(f"{where}: expected 'class cx cy w h' (a whole class, then 4 "
                               f"numbers), got {line.strip()!r}") from None
    if not 0 <= cls <= 5:
        raise CalibrationError(f"{where}: class {cls} is not a die's face (0..5: the value is "
                               "the class + 1)")
    if not all(math.isfinite(v) and 0.0 <= v <= 1.0 for v in (cx, cy, bw, bh)) \
            or bw <= 0 or bh <= 0:
        raise CalibrationError(f"{where}: the box must lie within 0..1 of the image, with a "
                               f"width and height > 0, got {line.strip()!r}")
    return LabelledDie(cls + 1, (cx * width, cy * height), max(bw * width, bh * height))


def labelled_photos(folder: Path) -> list[tuple[Path, Image, list[LabelledDie]]]:
    """The photos of a folder with their dice: ``NAME.jpg`` (or another image) with
    ``NAME.txt`` beside it, one die a line, ``class cx cy w h`` (the box as fractions of the
    image; value = class + 1: the layout of YOLO labels), sorted by file name. Raised when a
    photo has no label file, or a file is damaged: CalibrationError naming it (and the line)."""
    from calibration.images import image_files, read_image

    out = []
    for path in image_files(folder):
        labels = path.with_suffix(".txt")
        if not labels.is_file():
            raise CalibrationError(f"photo {path.name!r} has no label file {labels.name!r} "
                                   "beside it (one die a line: class cx cy w h)")
        image = read_image(path)
        h, w = image.shape[:2]
        try:
            text = labels.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            raise CalibrationError(f"label file {labels.name!r} cannot be read: {e}") from e
        dice = [_label_line(line, f"{labels.name} line {n}", w, h)
                for n, line in enumerate(text.splitlines(), start=1) if line.strip()]
        out.append((path, image, dice))
    if not out:
        raise CalibrationError(f"folder {str(folder)!r} holds no photos")
    return out


def refit(nets: Nets, dice: TaughtDice, head: TableHead | None) -> tuple[
        TableHead | None, Lesson | None]:
    """The table's head for ``nets``: ``head`` as it is when it was fitted for them (or there
    is nothing to fit it from), else fitted again from the stored examples (the models
    changed), with the lesson. CalibrationError when a stored crop is damaged."""
    if head is not None and head.model == nets.identity:
        return head, None
    if not dice.dice:
        return head, None
    lesson = fit(nets, dice.decoded())
    return lesson.head, lesson
