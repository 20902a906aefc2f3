"""`calibrate check`: read a few rolls with a profile and report accuracy and confusions.

Each image may have a label file beside it, ``<image>.json``, in one of two forms:

- ``{"dice": [{"x": 120, "y": 80, "face": "3", "colour": "red"}, ...]}``: where each die is
  (image pixels) and what it shows; ``face`` and ``colour`` are each optional;
- ``{"faces": ["3", "5", "attack"]}``: just what was rolled, in any order.

Without a label file the image still counts its dice and how many were uncertain.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from calibration.images import CalibrationError, nearest, read_image
from vision.profile import Profile
from vision.read import DiceReader


@dataclass
class CheckReport:
    """Totals over the checked images."""

    images: int = 0
    dice_seen: int = 0
    uncertain: int = 0
    faces_right: int = 0
    faces_total: int = 0
    colours_right: int = 0
    colours_total: int = 0
    missed: int = 0
    extra: int = 0
    confusions: Counter[tuple[str, str]] = field(default_factory=Counter)

    @property
    def face_accuracy(self) -> float | None:
        return self.faces_right / self.faces_total if self.faces_total else None

    @property
    def colour_accuracy(self) -> float | None:
        return self.colours_right / self.colours_total if self.colours_total else None

    def lines(self) -> list[str]:
        out = [f"{self.images} image(s), {self.dice_seen} dice seen, {self.uncertain} uncertain"]
        if self.face_accuracy is not None:
            out.append(f"faces right: {self.faces_right}/{self.faces_total} "
                       f"({self.face_accuracy:.1%})")
        if self.colour_accuracy is not None:
            out.append(f"colours right: {self.colours_right}/{self.colours_total} "
                       f"({self.colour_accuracy:.1%})")
        if self.missed or self.extra:
            out.append(f"labelled dice not found: {self.missed}; dice found but not labelled: "
                       f"{self.extra}")
        for (truth, got), n in self.confusions.most_common():
            out.append(f"  {truth} read as {got}: {n}")
        return out

    def to_dict(self) -> dict[str, Any]:
        return {
            "images": self.images, "dice_seen": self.dice_seen, "uncertain": self.uncertain,
            "face_accuracy": self.face_accuracy, "colour_accuracy": self.colour_accuracy,
            "faces_total": self.faces_total, "colours_total": self.colours_total,
            "missed": self.missed, "extra": self.extra,
            "confusions": [[t, g, n] for (t, g), n in self.confusions.most_common()],
        }


def _labels(path: Path) -> dict[str, Any] | None:
    side = path.with_name(path.name + ".json")
    if not side.exists():
        side = path.with_suffix(".json")
        if not side.exists():
            return None
    try:
        data = json.loads(side.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise CalibrationError(f"label file {str(side)!r} cannot be read: {e}") from e
    if not isinstance(data, dict) or set(data) - {"dice", "faces"} or not data:
        got = sorted(data) if isinstance(data, dict) else data
        raise CalibrationError(f"label file {str(side)!r} must be an object with 'dice' or "
                               f"'faces', got {got!r}")
    if "dice" in data:
        dice = data["dice"]
        if not isinstance(dice, list):
            raise CalibrationError(f"{str(side)!r}: 'dice' must be a list")
        for i, d in enumerate(dice):
            if not isinstance(d, dict) or not {"x", "y"} <= set(d) or set(d) - {
                    "x", "y", "face", "colour"}:
                raise CalibrationError(f"{str(side)!r}: dice[{i}] must have x, y and optional "
                                       f"face, colour; got {d!r}")
            if not all(isinstance(d[k], int | float) and not isinstance(d[k], bool)
                       for k in ("x", "y")):
                raise CalibrationError(f"{str(side)!r}: dice[{i}] x and y must be numbers")
    if "faces" in data and not (isinstance(data["faces"], list)
                                and all(isinstance(f, str | int) for f in data["faces"])):
        raise CalibrationError(f"{str(side)!r}: 'faces' must be a list of face labels")
    return data


def check(images: Sequence[Path], profile: Profile | None,
          reader: DiceReader | None = None) -> CheckReport:
    """Read each image with ``profile`` by ``reader`` (None: one with the shipped models) and
    compare with its label file, if any."""
    if not images:
        raise CalibrationError("no images to check")
    reader = reader if reader is not None else DiceReader.shipped()
    rep = CheckReport()
    for path in images:
        reading = reader.read(read_image(path), profile)
        rep.images += 1
        rep.dice_seen += len(reading.dice)
        rep.uncertain += sum(1 for d in reading.dice if d.face is None)
        labels = _labels(path)
        if labels is None:
            continue
        if "dice" in labels:
            used: set[int] = set()
            centres = [d.center for d in reading.dice]
            size = max((d.size for d in reading.dice), default=40.0)
            for want in labels["dice"]:
                j = nearest(centres, (float(want["x"]), float(want["y"])), size * 0.6)
                if j is None or j in used:
                    rep.missed += 1
                    continue
                used.add(j)
                got = reading.dice[j]
                if "face" in want:
                    rep.faces_total += 1
                    if got.face == str(want["face"]):
                        rep.faces_right += 1
                    else:
                        rep.confusions[(f"face {want['face']}", str(got.face))] += 1
                if "colour" in want:
                    rep.colours_total += 1
                    if got.colour == want["colour"]:
                        rep.colours_right += 1
                    else:
                        rep.confusions[(f"colour {want['colour']}", str(got.colour))] += 1
            rep.extra += len(reading.dice) - len(used)
        else:
            want_c = Counter(str(f) for f in labels["faces"])
            got_c = Counter(str(d.face) for d in reading.dice)
            right = sum((want_c & got_c).values())
            rep.faces_total += sum(want_c.values())
            rep.faces_right += right
            rep.missed += max(0, sum(want_c.values()) - sum(got_c.values()))
            rep.extra += max(0, sum(got_c.values()) - sum(want_c.values()))
            for f, n in (want_c - got_c).items():
                wrong = ", ".join(sorted((got_c - want_c).elements())) or "nothing"
                rep.confusions[(f"face {f}", wrong)] += n
    return rep
