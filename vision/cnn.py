"""The two CNNs that find and read pip dice, run through ``cv2.dnn`` from ONNX.

- **Detector** (``models/dice_det.onnx``, 153k parameters): the frame shrunk into a 256x256
  square (:func:`shrink`) gives, at 1/4 resolution, a heatmap of die centres, the log die size
  and the sub-cell centre offset (CenterNet-style), from a small feature pyramid (strides 2 to
  16 and back up to 4, so a die's neighbours and the tray around it are in view). Local maxima
  of the heatmap above a threshold are dice.
- **Classifier** (``models/dice_cls.onnx``, 126k parameters): a 48x48 crop around each die
  centre (side 1.3 x die size, :func:`crop`) gives 7 scores: "not a die / unreadable", 1..6
  (trained on crops at any rotation, so no die alignment is needed).

Both are trained by ``scripts/vision_train_cnn.py`` on the shared photos and synthetic scenes
only. Inference needs only OpenCV and numpy.

**What a classifier must keep** (a new one, however it is trained, so a table's taught head,
:class:`vision.profile.TableHead`, can be fitted on it): input N x 3 x CLS x CLS (BGR,
``/ 255 - 0.5``, :func:`_blob`); one output, N x 7 logits ("not a die", 1..6); and a layer
named :data:`CLS_FEATURES` whose output (N x F, or N x F x 1 x 1) the logits are a linear
map of (``logits = features @ W.T + b``; F any width). A taught head is fitted for one pair
of model files (:attr:`Nets.identity`) and fitted again from the table's stored crops when
the files change.
"""

from __future__ import annotations

import copy
import hashlib
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

Image = npt.NDArray[Any]

MODELS = Path(__file__).parent / "models"
DET_PATH = MODELS / "dice_det.onnx"
CLS_PATH = MODELS / "dice_cls.onnx"
DET = 256  # detector input side
REF_SIDE = 640  # frame side the detector was trained at (longer side)
STRIDE = 4  # detector output cell, px of its input
CLS = 48  # classifier crop side
CROP_SCALE = 1.3  # classifier crop side / die size
HEAT_MIN = 0.45  # heatmap peak that counts as a die candidate
TURNS = 1  # quarter-turns each crop is read at (test-time augmentation; 1 = none)
#: a die whose best value is less likely than this gets a second look: its crop read in the
#: four right-angle turns and the probabilities averaged (``Nets.recheck``)
RECHECK_BELOW = 0.9
#: Dice smaller than this at the detector's input (px) get a second, zoomed look
#: (``Nets.detect_zoomed``, from ``vision.read``): at the whole frame's scale a 20 px die of a
#: 640 px photo is 8 px there, too few for its pips.
ZOOM_BELOW = 10.5
#: ... which brings them to this size at the detector's input (at most ZOOM_MAX_SCALE x)
ZOOM_TO = 18.0
ZOOM_MAX_SCALE = 2.5
#: the zoomed look keeps dice up to this size at its input (bigger: the whole-frame look's)
ZOOM_MAX = 32.0
ZOOM_TILES = 6  # at most this many zoomed tiles a frame
DET_BATCH = 4  # detector tiles per run
CLS_BATCH = 4  # crops per classifier run (memory: see Nets._logits; the time per crop is the same)
#: The classifier's penultimate layer (its global average of the last convolution, 96 numbers
#: a crop in today's models), read by name through ``cv2.dnn``: a table's taught head is a
#: linear map from it to the 7 logits (see the module's docstring for what a classifier must
#: keep). The one place the name is written.
CLS_FEATURES = "onnx_node!/body/body.9/GlobalAveragePool"


@dataclass(frozen=True)
class Detection:
    """A die centre found by the detector, in frame pixels."""

    cx: float
    cy: float
    size: float
    score: float


class Nets:
    """The detector and classifier networks, loaded once.

    ``identity`` names the pair of model files (a digest of their bytes): what a table's
    taught head was fitted for. :meth:`with_head` gives the same networks reading with a
    table's head on the classifier's features instead of its own last layer.
    """

    def __init__(self, det: Path = DET_PATH, cls: Path = CLS_PATH) -> None:
        self.det = load_onnx(det)
        self.cls = load_onnx(cls)
        digest = hashlib.sha256()
        for path in (det, cls):
            digest.update(Path(path).read_bytes())
        self.identity = digest.hexdigest()[:16]
        self.head: tuple[Image, Image] | None = None  # (weights 7 x F, bias 7): a table's
        self._width: int | None = None

    def with_head(self, weights: Image, bias: Image) -> Nets:
        """These networks (shared, not loaded again) reading every crop's 7 scores as
        ``features @ weights.T + bias`` (:data:`CLS_FEATURES`): a table's taught head.
        Raised when the shapes do not fit the classifier: ``ValueError``."""
        w = np.asarray(weights, np.float64)
        b = np.asarray(bias, np.float64)
        width = self.feature_width()
        if w.shape != (7, width) or b.shape != (7,):
            raise ValueError(f"a head for these models needs weights 7 x {width} and 7 biases, "
                             f"got {w.shape} and {b.shape}")
        out = copy.copy(self)  # the same cv2.dnn networks
        out.head = (w, b)
        return out

    def feature_width(self) -> int:
        """How many numbers :data:`CLS_FEATURES` gives a crop."""
        if self._width is None:
            self._width = int(self.features(np.zeros((1, CLS, CLS, 3), np.uint8))[0].shape[1])
        return self._width

    def features(self, crops: Image) -> tuple[Image, Image]:
        """The classifier's features (N x F, :data:`CLS_FEATURES`) and its own logits (N x 7)
        for N crops (N x CLS x CLS x 3 uint8, as :func:`crop` cuts them), ``CLS_BATCH`` at
        a time. Raised when the classifier has no layer of that name: ``ValueError``."""
        if CLS_FEATURES not in self.cls.getLayerNames():
            raise ValueError(f"the classifier has no layer {CLS_FEATURES!r}: a table's head "
                             "cannot be fitted on it (vision/cnn.py says what it must keep)")
        out_name = self.cls.getUnconnectedOutLayersNames()[0]
        feats, logits = [], []
        for i in range(0, len(crops), CLS_BATCH):
            part = np.ascontiguousarray(crops[i:i + CLS_BATCH])
            self.cls.setInput(_blob(part))
            f, o = self.cls.forward([CLS_FEATURES, out_name])
            feats.append(np.asarray(f, np.float64).reshape(len(part), -1))
            logits.append(np.asarray(o, np.float64).reshape(len(part), 7))
        if not feats:
            return np.zeros((0, 0)), np.zeros((0, 7))
        return np.concatenate(feats), np.concatenate(logits)

    def detect(self, img: Image, heat_min: float = HEAT_MIN) -> list[Detection]:
        """Die centres and sizes in a BGR frame (any size)."""
        box, s = shrink(img)
        return self.detect_shrunk(box, s, img.shape[:2], heat_min)

    def detect_shrunk(self, box: Image, s: float, shape: tuple[int, ...],
                      heat_min: float = HEAT_MIN) -> list[Detection]:
        """Die centres and sizes from a frame of ``shape`` (h, w) already shrunk by
        :func:`shrink` to ``box`` at scale ``s``; in the frame's pixels."""
        h, w = int(shape[0]), int(shape[1])
        self.det.setInput(_blob(box[None]))
        out = np.asarray(self.det.forward())[0]
        return _suppress(_peaks(out, heat_min, s, (0.0, 0.0), (0.0, 0.0, w, h)))

    def detect_zoomed(self, img: Image, scale: float, centres: list[tuple[float, float]],
                      heat_min: float = HEAT_MIN, max_size: float = ZOOM_MAX,
                      max_tiles: int = ZOOM_TILES) -> list[Detection]:
        """Die centres and sizes around ``centres`` (frame pixels) looked at ``scale`` (frame
        to detector input, larger than :func:`shrink`'s): DET x DET tiles at that scale are
        placed so each centre lies well inside one, as few as will do (:func:`cover`; at most
        ``max_tiles``, all run in small batches). Only dice up to ``max_size`` px at the
        detector's input are kept (a bigger die belongs to the whole-frame look, and a tile's
        edge may cut it). In frame pixels."""
        h, w = img.shape[:2]
        origins = cover(centres, DET / scale, (w, h), max_tiles)
        return self._detect_tiles(img, scale, origins, heat_min, max_size)

    def detect_covering(self, img: Image, scale: float,
                        region: tuple[float, float, float, float], heat_min: float = HEAT_MIN,
                        max_size: float = ZOOM_MAX, max_tiles: int = 12) -> list[Detection]:
        """As :meth:`detect_zoomed`, over the whole of ``region`` (x0, y0, x1, y1 in frame
        pixels): tiles overlapping by a quarter cover it, at ``scale`` or, where that would
        take more than ``max_tiles``, at the largest scale that covers it with that many."""
        h, w = img.shape[:2]
        x0, y0 = max(0.0, region[0]), max(0.0, region[1])
        x1, y1 = min(float(w), region[2]), min(float(h), region[3])
        if x1 <= x0 or y1 <= y0:
            return []
        while True:
            side = DET / scale

            def starts(a: float, b: float, side: float = side) -> list[float]:
                if b - a <= side:
                    return [max(0.0, min((a + b - side) / 2, max(0.0, b - side)))]
                n = math.ceil((b - a - side) / (0.75 * side)) + 1
                return [a + (b - a - side) * i / (n - 1) for i in range(n)]

            origins = [(tx, ty) for ty in starts(y0, y1) for tx in starts(x0, x1)]
            if len(origins) <= max_tiles:
                return self._detect_tiles(img, scale, origins, heat_min, max_size)
            scale *= 0.9

    def _detect_tiles(self, img: Image, scale: float, origins: list[tuple[float, float]],
                      heat_min: float, max_size: float) -> list[Detection]:
        """The detector on DET x DET tiles of ``img`` at ``scale`` from each origin, in small
        batches; a die found in a tile's border strip is left to its neighbour."""
        if not origins:
            return []
        h, w = img.shape[:2]
        side = DET / scale
        boxes = np.stack([warp_down(img, np.array([[scale, 0.0, -tx * scale],
                                                    [0.0, scale, -ty * scale]]), DET)
                          for tx, ty in origins])
        dets: list[Detection] = []
        for i in range(0, len(boxes), DET_BATCH):
            self.det.setInput(_blob(boxes[i:i + DET_BATCH]))
            outs = np.asarray(self.det.forward())
            for out, (ox, oy) in zip(outs, origins[i:i + DET_BATCH], strict=True):
                # a tile's own border strip is left to the neighbouring tile or the frame's edge
                m = 0.08 * side
                bounds = (ox + (m if ox > 0 else 0.0), oy + (m if oy > 0 else 0.0),
                          min(float(w), ox + side - (m if ox + side < w else 0.0)),
                          min(float(h), oy + side - (m if oy + side < h else 0.0)))
                dets += [d for d in _peaks(out, heat_min, scale, (ox, oy), bounds)
                         if d.size * scale <= max_size]
        return _suppress(dets)

    def classify(self, img: Image, dets: list[Detection], turns: int = TURNS) -> Image:
        """Probabilities (N x 7: not-a-die, 1..6) for the dice at ``dets`` in ``img``.

        With ``turns`` > 1 each crop is also read turned by quarter-turns and the
        probabilities averaged (slower, slightly surer).
        """
        if not dets:
            return np.zeros((0, 7), np.float32)
        crops = np.stack([crop(img, d.cx, d.cy, d.size) for d in dets])
        both = np.concatenate([np.rot90(crops, k, axes=(1, 2)) for k in range(turns)])
        logits = self._logits(both).reshape(turns, len(dets), 7)
        e = np.exp(logits - logits.max(axis=2, keepdims=True))
        p = e / e.sum(axis=2, keepdims=True)
        out: Image = p.mean(axis=0).astype(np.float32)
        return out

    def _logits(self, crops: Image) -> Image:
        """The classifier's N x 7 logits for N crops (N x CLS x CLS x 3 uint8), run
        ``CLS_BATCH`` crops at a time: ``cv2.dnn`` keeps buffers for the largest batch it has
        seen, so a frame with many unsure dice would otherwise cost ~0.5 MB per crop for good.
        With a table's head (:meth:`with_head`), the logits are the head's."""
        if self.head is not None:
            w, b = self.head
            out_head: Image = self.features(crops)[0] @ w.T + b
            return out_head
        parts = []
        for i in range(0, len(crops), CLS_BATCH):
            self.cls.setInput(_blob(np.ascontiguousarray(crops[i:i + CLS_BATCH])))
            parts.append(np.asarray(self.cls.forward(), np.float64).reshape(-1, 7))
        out: Image = np.concatenate(parts)
        return out

    def recheck(self, img: Image, dets: list[Detection], probs: Image,
                not_die: float = 0.5) -> Image:
        """``probs`` with the unsure dice (best value < ``RECHECK_BELOW``) read again.

        Each unsure die's crop is read in its four right-angle turns (the classifier was
        trained on every rotation) and the probabilities are averaged, which
        settles crops the single view left in between. Sure dice are not read again, so a
        frame of clear dice costs nothing extra; nor do crops already called "not a die" with
        probability ``not_die`` or more. Returns a new array.
        """
        out: Image = np.array(probs, np.float32, copy=True)
        unsure = [i for i in range(len(dets))
                  if float(out[i, 1:].max()) < RECHECK_BELOW and float(out[i, 0]) < not_die]
        if not unsure:
            return out
        out[unsure] = self.classify(img, [dets[i] for i in unsure], turns=4)
        return out


#: a centre counts as inside a zoomed tile this far (a share of the tile's side) from its edges:
#: clear of the border strip a tile leaves to its neighbour (0.08) by more than a zoomed die's
#: half side (ZOOM_TO / 2 of DET, 0.035)
TILE_MARGIN = 0.3


def cover(centres: list[tuple[float, float]], side: float, frame: tuple[int, int],
          max_tiles: int) -> list[tuple[float, float]]:
    """Origins of ``side`` x ``side`` tiles (frame pixels) inside a frame of ``frame`` (w, h)
    such that each centre lies at least ``TILE_MARGIN * side`` inside one (or against the
    frame's edge), greedily few: the first centre not yet covered (``centres`` come surest
    first) takes the tile that also covers the most other uncovered centres. At most
    ``max_tiles``; centres left over are not covered.

    >>> cover([(100.0, 100.0), (200.0, 150.0), (900.0, 100.0)], 256.0, (1000, 400), 6)
    [(61.6, 61.6), (744.0, 61.6)]
    """
    w, h = frame
    m = TILE_MARGIN * side
    span = side - 2 * m  # the part of a tile whose centres count as inside it

    def place(lo: float, limit: float) -> float:
        """A tile's origin on one axis: its inner span starting at ``lo``, kept in the frame."""
        return float(min(max(0.0, lo - m), max(0.0, limit - side)))

    def inside(c: tuple[float, float], o: tuple[float, float]) -> bool:
        ok = True
        for v, start, limit in ((c[0], o[0], w), (c[1], o[1], h)):
            lo = start + (m if start > 0 else 0.0)
            hi = start + side - (m if start + side < limit else 0.0)
            ok = ok and lo <= v <= hi
        return ok

    origins: list[tuple[float, float]] = []
    left = list(centres)
    while left and len(origins) < max_tiles:
        seed = left[0]
        best: tuple[float, float] | None = None
        best_n = -1
        xs = sorted({c[0] for c in left if seed[0] - span <= c[0] <= seed[0]})
        ys = sorted({c[1] for c in left if seed[1] - span <= c[1] <= seed[1]})
        for x0 in xs:
            for y0 in ys:
                o = (place(x0, w), place(y0, h))
                if not inside(seed, o):
                    continue
                n = sum(inside(c, o) for c in left)
                if n > best_n:
                    best, best_n = o, n
        if best is None:  # the seed against an edge: the tile centred on it, in the frame
            best = (place(seed[0] - span / 2, w), place(seed[1] - span / 2, h))
        origins.append(best)
        left = [c for c in left if not inside(c, best) and c != seed]
    return origins


def shrink(img: Image) -> tuple[Image, float]:
    """The detector's input: the frame scaled into a DET x DET square at its top left (longer
    side to DET px; frames up to REF_SIDE px by DET / REF_SIDE, so dice keep the size the net
    was trained at), the rest filled by repeating the edge pixels; and the scale."""
    h, w = img.shape[:2]
    s = DET / max(h, w, REF_SIDE)
    return warp_down(img, np.array([[s, 0.0, 0.0], [0.0, s, 0.0]], np.float64), DET), s


def warp_down(img: Image, m: Image, side: int) -> Image:
    """``cv2.warpAffine`` of ``img`` by the 2x3 matrix ``m`` into a ``side`` x ``side`` image,
    bilinear, edges repeated; halved first by ``cv2.pyrDown`` while ``m`` shrinks by 2 or
    more, so small copies are smoothed, not aliased (cheaper than area interpolation).

    The training script cuts its examples with this too, so the nets see what they learnt on.
    """
    m = np.asarray(m, np.float64)
    scale = math.sqrt(abs(float(np.linalg.det(m[:, :2]))))
    if scale <= 0.5:
        # only the part of the frame the output shows (plus the smoothing's reach) is halved
        inv = cv2.invertAffineTransform(m)
        corners = np.array([[0, 0, 1], [side, 0, 1], [0, side, 1], [side, side, 1]], np.float64)
        src = corners @ inv.T
        pad = 4.0 / scale
        h, w = img.shape[:2]
        # start on a multiple of 2^halvings: the same samples as halving the whole frame
        a = 1 << max(1, math.floor(-math.log2(scale)))
        x0 = int(np.clip(math.floor(src[:, 0].min() - pad), 0, w - 1)) // a * a
        y0 = int(np.clip(math.floor(src[:, 1].min() - pad), 0, h - 1)) // a * a
        x1 = int(np.clip(math.ceil(src[:, 0].max() + pad), x0 + 1, w))
        y1 = int(np.clip(math.ceil(src[:, 1].max() + pad), y0 + 1, h))
        img = img[y0:y1, x0:x1]
        m = np.hstack([m[:, :2], m[:, 2:] + m[:, :2] @ np.array([[x0], [y0]], np.float64)])
    while scale <= 0.5 and min(img.shape[:2]) >= 4:
        img = cv2.pyrDown(img)
        m = np.hstack([m[:, :2] * 2.0, m[:, 2:]])
        scale *= 2.0
    out: Image = cv2.warpAffine(img, m, (side, side), flags=cv2.INTER_LINEAR,
                                borderMode=cv2.BORDER_REPLICATE)
    return out


def load_onnx(path: Path) -> cv2.dnn.Net:
    """An ONNX network for ``cv2.dnn``, on OpenCV 5's classic engine where there is a choice.

    The classic engine runs 3x3 convolutions by Winograd's method; OpenCV 5's default (new)
    engine does not, and is about 1.8x slower on the classifier and 1.15x on the detector here,
    for the same outputs (within 1e-4). OpenCV 4 has only the classic engine.
    """
    engine = getattr(cv2.dnn, "ENGINE_CLASSIC", None)
    if engine is None:
        return cv2.dnn.readNetFromONNX(str(path))
    return cv2.dnn.readNetFromONNX(str(path), engine=engine)


def _blob(batch: Image) -> Image:
    """NHWC uint8 BGR -> NCHW float32 in -0.5..0.5 (as in training)."""
    a: Image = batch.astype(np.float32) * (1.0 / 255.0) - 0.5
    return np.ascontiguousarray(a.transpose(0, 3, 1, 2))


def _peaks(out: Image, heat_min: float, s: float, origin: tuple[float, float],
           bounds: tuple[float, float, float, float]) -> list[Detection]:
    """Local maxima of one detector output (4 x 64 x 64) at least ``heat_min``, as dice in
    frame pixels: the input showed the frame at scale ``s`` from ``origin``; dice outside
    ``bounds`` (x0, y0, x1, y1) are left out."""
    heat = 1.0 / (1.0 + np.exp(-out[0]))
    peaks = (heat >= heat_min) & (heat >= cv2.dilate(heat, np.ones((3, 3), np.uint8)))
    ys, xs = np.nonzero(peaks)
    dets: list[Detection] = []
    for y, x in zip(ys.tolist(), xs.tolist(), strict=True):
        cx, cy = x + float(out[2, y, x]), y + float(out[3, y, x])  # cell + offset head
        px, py = origin[0] + cx * STRIDE / s, origin[1] + cy * STRIDE / s
        size = math.exp(float(np.clip(out[1, y, x], 0.0, 7.0))) / s
        if bounds[0] <= px < bounds[2] and bounds[1] <= py < bounds[3]:
            dets.append(Detection(px, py, size, float(heat[y, x])))
    return dets


def _suppress(dets: list[Detection]) -> list[Detection]:
    """Drop weaker detections whose centre lies inside a stronger one's die."""
    keep: list[Detection] = []
    for d in sorted(dets, key=lambda d: -d.score):
        if all(math.hypot(d.cx - k.cx, d.cy - k.cy) > 0.5 * max(k.size, d.size) for k in keep):
            keep.append(d)
    return keep


def crop(img: Image, cx: float, cy: float, size: float, side: int = CLS,
         scale: float = CROP_SCALE, angle: float = 0.0) -> Image:
    """The ``side`` x ``side`` crop centred on (cx, cy) spanning ``scale`` x ``size`` px,
    turned by ``angle`` degrees (counter-clockwise, as ``cv2.getRotationMatrix2D``)."""
    s = side / max(1.0, scale * size)
    a = math.radians(angle)
    c, sn = s * math.cos(a), s * math.sin(a)
    m = np.array([[c, sn, side / 2 - (c * cx + sn * cy)],
                  [-sn, c, side / 2 - (-sn * cx + c * cy)]], np.float64)
    return warp_down(img, m, side)


def die_angle(patch: Image) -> float:
    """The die's rotation in degrees (0..90) from the edge directions of a crop around it.

    Square dice and their pip rows have edges at θ and θ + 90°; the orientation that
    dominates the gradients modulo 90° (angle quadrupling) is the die's. Each pixel's vote is
    weighted by the square root of its gradient's strength, so the die's long soft edges
    outvote the few hard ones (a neighbour's corner, a shadow's rim, bright pips): on
    synthetic trays with shadows the median error is about 1 degree, the worst under 10
    (weighting by the squared strength, as before, left one die in ten off by more than 10).
    """
    g = cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY).astype(np.float32)
    gx = cv2.Sobel(g, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(g, cv2.CV_32F, 0, 1, ksize=3)
    w = np.sqrt(np.sqrt(gx * gx + gy * gy))
    phi = np.arctan2(gy, gx)
    a = math.atan2(float((w * np.sin(4 * phi)).sum()), float((w * np.cos(4 * phi)).sum()))
    return math.degrees(a / 4.0) % 90.0


def channels(op: Any, img: Image) -> Image:
    """``op`` (``np.minimum``, ``np.maximum``, ``np.add``) over the 3 channels of an
    ... x 3 array, pixel by pixel: the same as ``img.min(axis=-1)`` (``max``, ``sum`` for
    float32) several times faster (numpy reduces a last axis of 3 slowly); ``np.add`` keeps
    the array's dtype."""
    out: Image = op(op(img[..., 0], img[..., 1]), img[..., 2])
    return out


def body_bgr(patch: Image) -> tuple[float, float, float]:
    """The die body's colour: the median of the crop's middle, pips (far colours) left out."""
    q = patch.shape[0] // 5
    mid = patch[q:-q, q:-q].reshape(-1, 3).astype(np.int16)
    med = _middle(mid)
    dist = channels(np.add, np.abs(mid - med))
    k = (len(dist) * 3) // 5
    near = mid[dist <= np.partition(dist, k)[k]]
    b = _middle(near if len(near) else mid)
    return float(b[0]), float(b[1]), float(b[2])


def _middle(px: Image) -> Image:
    """Per-channel median of an N x 3 array (the upper middle value for even N; by
    partition, several times faster than ``np.median`` on the few hundred pixels of a die)."""
    n = len(px) // 2
    out: Image = np.partition(px, n, axis=0)[n]
    return out


def load_nets(folder: Path = MODELS) -> Nets | None:
    """The CNNs in ``folder`` (``dice_det.onnx``, ``dice_cls.onnx``), or None when either file
    is missing there (the shipped ones by default)."""
    det, cls = folder / DET_PATH.name, folder / CLS_PATH.name
    if not (det.exists() and cls.exists()):
        return None
    return Nets(det=det, cls=cls)
