"""`companion read IMAGE...`: read the dice in photos and print what was seen."""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import time
from pathlib import Path
from typing import Any

from companion.words import plural

HELP = "read the dice in image files (a table per image, or one JSON object per line)"

#: The most pixels an image may have to be decoded: a camera frame is a few megapixels, a
#: 40-megapixel photo still reads on a 1 GB Pi; a 20000 x 20000 image (400 MP, 1.2 GB
#: decoded) would not, so it is refused from its header, before a byte is decoded.
MAX_PIXELS = 40_000_000


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("images", nargs="+", metavar="IMAGE", help="image files to read")
    parser.add_argument("--json", action="store_true",
                        help="print one JSON object per image and line")
    parser.add_argument("--annotate", metavar="DIR", type=Path,
                        help="also write each image with the reading drawn on it into DIR")
    parser.add_argument("--profile", metavar="FILE", type=Path,
                        help="a calibration profile (JSON) to read with")


def _load_profile(path: Path, nets: Any = None) -> Any:
    """The vision profile in ``path``: a calibration profile (``companion calibrate``'s
    versioned file, read strictly; what its table taught is fitted again for ``nets`` when
    it was fitted for other models), or a bare ``vision.Profile.to_dict()``. Raised when it
    cannot be used: ValueError naming the file and what is wrong."""
    from calibration import profiles, teach
    from vision import Profile

    try:
        text = profiles.read_bounded(path, profiles.MAX_PROFILE_BYTES).decode("utf-8")
        data = json.loads(text)
    except profiles.NotAPlainFile as e:
        raise ValueError(f"cannot read profile {str(path)!r}: {e.strerror}") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise ValueError(f"cannot read profile {str(path)!r}: {e}") from e
    if isinstance(data, dict) and data.get("format") == profiles.FORMAT:
        cp = profiles.loads(text, repr(str(path)))  # ProfileError is a ValueError
        if nets is None:
            return cp.profile
        head, lesson = teach.refit(nets, cp.dice, cp.profile.head)
        if lesson is not None:
            print(f"companion read: {str(path)!r}: what the table taught was fitted again for "
                  "these models", file=sys.stderr)
        return dataclasses.replace(cp.profile, head=head)
    try:
        return Profile.from_dict(data)
    except (KeyError, TypeError, ValueError) as e:
        raise ValueError(f"profile {str(path)!r} is not valid: {e}") from e


def image_problem(name: str) -> str:
    """Why ``name`` is not read (not there, a folder, not a plain file, over the pixel
    budget from its header), in words; "" when it may be decoded. Only the header is read
    (Pillow's lazy open), never the pixels."""
    import os
    import stat
    import warnings

    from PIL import Image, UnidentifiedImageError

    try:
        mode = os.stat(name).st_mode
    except FileNotFoundError:
        return "no such file"
    except OSError as e:
        return f"cannot be looked at ({e.strerror or e})"
    if stat.S_ISDIR(mode):
        return "a folder, not an image file"
    if not stat.S_ISREG(mode):
        return "not a plain file (a FIFO or a device)"
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(name) as image:
                width, height = image.size
    except Image.DecompressionBombError as e:  # its header already says far too many
        return (f"more pixels than `companion read` decodes ({MAX_PIXELS / 1e6:,.0f} "
                f"megapixels): {e}")
    except (UnidentifiedImageError, OSError, ValueError, SyntaxError):
        return ""  # not a format Pillow knows: OpenCV says whether it reads it
    if width * height > MAX_PIXELS:
        return (f"{width} x {height} pixels ({width * height / 1e6:,.0f} megapixels), more "
                f"than `companion read` decodes ({MAX_PIXELS / 1e6:,.0f} megapixels): "
                "scale it down first")
    return ""


def run(args: argparse.Namespace) -> int:
    import cv2

    from vision import DiceReader, annotate

    reader = DiceReader.shipped()
    profile = None
    if args.profile is not None:
        try:
            profile = _load_profile(args.profile, reader.nets)
        except ValueError as e:
            print(f"companion read: {e}", file=sys.stderr)
            return 2
    if args.annotate is not None:
        args.annotate.mkdir(parents=True, exist_ok=True)
    failed = 0
    for name in args.images:
        why = image_problem(name)
        frame = None if why else cv2.imread(name, cv2.IMREAD_COLOR)
        if frame is None:
            failed += 1
            why = why or "not a readable image"
            if args.json:
                print(json.dumps({"image": name, "error": f"cannot read {name!r}: {why}"}))
            else:
                print(f"{name}: error: cannot read image ({why})")
            print(f"companion read: cannot read {name!r}: {why}", file=sys.stderr)
            continue
        t0 = time.perf_counter()
        try:
            reading = reader.read(frame, profile)
        except ValueError as e:
            failed += 1
            msg = f"cannot read dice in {name!r}: {e}"
            print(json.dumps({"image": name, "error": msg}) if args.json else f"{name}: error: {e}")
            continue
        ms = (time.perf_counter() - t0) * 1000.0
        if args.json:
            dice = [{"value": d.value, "face": d.face, "colour": d.colour,
                     "center": [round(d.center[0], 1), round(d.center[1], 1)],
                     "confidence": round(d.confidence, 3)} for d in reading.dice]
            print(json.dumps({"image": name, "dice": dice, "ms": round(ms, 2)}))
        else:
            print(f"{name}: {plural(len(reading.dice), 'die', 'dice')} ({ms:.1f} ms)")
            for w in reading.warnings:
                print(f"  warning: {w.text}")
            if reading.dice:
                print(f"  {'face':>9}  {'colour':8}  {'x':>7} {'y':>7}  conf")
            for d in reading.dice:
                face = d.face if d.face is not None else "?"
                print(f"  {face:>9}  {d.colour or '-':8}  {d.center[0]:7.1f} {d.center[1]:7.1f}"
                      f"  {d.confidence:.2f}")
        if args.annotate is not None:
            out = args.annotate / (Path(name).stem + ".annotated.png")
            cv2.imwrite(str(out), annotate(frame, reading))
    return 1 if failed else 0
