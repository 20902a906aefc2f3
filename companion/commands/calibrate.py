"""`companion calibrate ...`: teach the companion a table, step by step, headless from images.

Steps: ``markers`` (print the tray markers), ``table`` (tray region from a photo of the
markers, or four corners), ``palette`` (die colours), ``faces`` (icon faces), ``dice`` (the
table's own dice, from labelled photos: the reader adapts to them), ``check`` (read a few rolls
and score them), ``list`` and ``use`` (stored profiles). Each step updates one
profile (``--profile NAME``, default the current one, else "default").
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from pathlib import Path
from typing import Any

from companion import paths
from companion.words import plural

HELP = ("calibrate a table: markers, table region, colour palette, icon faces, its own dice, "
        "check, profiles")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="step", metavar="STEP", required=True)

    def prof(p: argparse.ArgumentParser) -> None:
        p.add_argument("--profile", metavar="NAME",
                       help="profile to update (default: the current one, else 'default')")
        p.add_argument("--dry-run", action="store_true", help="report only; save nothing")

    p = sub.add_parser("snap", help="save photos from the camera, to calibrate from")
    p.add_argument("--output", "-o", type=Path, required=True, metavar="FILE|DIR",
                   help="a .png/.jpg file for one photo, else a folder (made if needed) for "
                   "snap-001.png, snap-002.png ...")
    p.add_argument("--camera", metavar="SPEC",
                   help="auto, picamera2, opencv:N or replay:PATH (default: as the app "
                   "chooses: COMPANION_CAMERA, Settings, the config file, the camera found)")
    p.add_argument("--stand-in", action="store_true",
                   help="allow the stand-in camera's rendered dice (to try the steps without "
                   "a camera: such photos do not calibrate a real table)")
    p.add_argument("--count", type=int, default=1, help="how many photos (default 1)")
    p.add_argument("--every", type=float, default=2.0, metavar="S",
                   help="seconds between photos, to roll or turn the dice (default 2)")
    p.add_argument("--warmup", type=int, default=8, metavar="N",
                   help="frames dropped first while the camera settles its exposure")

    p = sub.add_parser("markers", help="write a printable sheet of the four tray markers")
    p.add_argument("--output", "-o", type=Path, required=True, metavar="FILE",
                   help="PNG or PDF file to write (A4)")
    p.add_argument("--marker-mm", type=float, default=40.0, help="printed marker side (mm)")
    p.add_argument("--dpi", type=int, default=300)

    p = sub.add_parser("table", help="find the tray: markers in a photo, or four corners")
    p.add_argument("image", nargs="?", type=Path, help="photo of the tray with its markers")
    p.add_argument("--corners", metavar="X,Y", nargs=4,
                   help="four tapped tray corners in image pixels instead of markers")
    p.add_argument("--tray-mm", metavar="WxH", help="tray size in mm (with --corners)")
    p.add_argument("--marker-mm", type=float, default=40.0, help="printed marker side (mm)")
    p.add_argument("--die-mm", type=float, default=None,
                   help="side of the dice (mm); sets the expected die size vision looks for "
                   "(without it vision measures the dice itself)")
    p.add_argument("--camera", default=None, help="a note naming the camera")
    p.add_argument("--preview", type=Path, metavar="FILE",
                   help="also write the top-down view of the image here")
    prof(p)

    p = sub.add_parser("palette", help="learn die colours from example dice")
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--from", dest="folder", type=Path, metavar="DIR",
                     help="a folder with one subfolder of images per colour (red/, blue/, ...)")
    src.add_argument("--roll", type=Path, metavar="IMAGE",
                     help="one roll of all the dice; name its colour clusters with --name")
    p.add_argument("--clusters", type=int, metavar="K", help="colour clusters in --roll")
    p.add_argument("--name", action="append", default=[], metavar="K=COLOUR",
                   help="name cluster K (repeat); without names the clusters are listed")
    p.add_argument("--light", type=float, default=0.3,
                   help="light change to stay robust to (0.3 = +/-30%%)")
    prof(p)

    p = sub.add_parser("faces", help="learn an icon-face set from labelled crops")
    src = p.add_mutually_exclusive_group()
    src.add_argument("--from", dest="folder", type=Path, metavar="DIR",
                     help="a folder with one subfolder of images per face label")
    src.add_argument("--taps", type=Path, metavar="FILE",
                     help='JSON {"taps": [{"image", "x", "y", "face"}]}: tapped dice')
    p.add_argument("--game", help="face template to check labels against "
                   "(see --templates)")
    p.add_argument("--set", dest="set_name", metavar="NAME",
                   help="face-set name (default: the game, else 'faces')")
    p.add_argument("--add", action="store_true",
                   help="add these samples to the set already in the profile")
    p.add_argument("--no-augment", action="store_true",
                   help="learn the crops as they are (no turned/relit variants)")
    p.add_argument("--min-accuracy", type=float, default=0.0,
                   help="do not save when cross-validated accuracy is below this (0..1)")
    p.add_argument("--templates", action="store_true", help="list the face templates")
    prof(p)

    p = sub.add_parser("dice", help="teach the table's own dice from labelled photos (or "
                       "forget what it learned)")
    p.add_argument("--from", dest="folder", type=Path, metavar="DIR",
                   help="photos NAME.jpg, each with NAME.txt beside it: one die a line, "
                   "'class cx cy w h' (the box as fractions of the photo; value = class + 1)")
    p.add_argument("--forget", action="store_true",
                   help="forget every die this table taught first (alone: just forget)")
    prof(p)

    p = sub.add_parser("zones", help="board zones: each player's action spaces on the picture")
    p.add_argument("--add", action="append", nargs="+", default=[],
                   metavar="SEAT SPACE X,Y",
                   help="a zone: seat (1 = first player), space name, then 3+ corners in image "
                   "pixels (repeat --add for more zones; quote names with spaces)")
    p.add_argument("--rect", action="append", nargs=3, default=[],
                   metavar=("SEAT", "SPACE", "X,Y,W,H"),
                   help="a rectangular zone from its top-left corner and size in pixels")
    p.add_argument("--remove", action="append", nargs=2, default=[],
                   metavar=("SEAT", "SPACE"), help="remove the zone of this seat and space")
    p.add_argument("--clear", action="store_true", help="remove every zone first")
    p.add_argument("--draw", type=Path, metavar="IMAGE",
                   help="draw the zones (and the dice read in each) on this photo")
    p.add_argument("--output", "-o", type=Path, metavar="FILE",
                   help="where --draw writes its picture (default: IMAGE.zones.png)")
    prof(p)

    p = sub.add_parser("check", help="read labelled rolls and report accuracy and confusions")
    p.add_argument("images", nargs="+", type=Path, metavar="IMAGE|DIR")
    p.add_argument("--profile", metavar="NAME", help="stored profile (default: current)")
    p.add_argument("--file", type=Path, metavar="FILE", help="a profile file instead")
    p.add_argument("--json", action="store_true", help="print the report as JSON")

    sub.add_parser("list", help="list the stored profiles (* marks the current one)")

    p = sub.add_parser("use", help="make a stored profile the current one")
    p.add_argument("name")

    p = sub.add_parser("show", help="print a stored profile's summary")
    p.add_argument("name", nargs="?")


def _err(msg: str) -> int:
    print(f"companion calibrate: {msg}", file=sys.stderr)
    return 2


def _target(args: argparse.Namespace) -> Any:

    name = args.profile or paths.profile_store().current_name() or "default"
    return paths.profile_store().load_or_new(name)


def _save(args: argparse.Namespace, cp: Any) -> None:

    if args.dry_run:
        print("dry run: nothing saved")
        return
    path = paths.profile_store().save(cp)
    print(f"saved profile {cp.name!r} to {path}")
    if paths.profile_store().current_name() is None:
        paths.profile_store().use(cp.name)
        print(f"{cp.name!r} is now the current profile")


def _pair(text: str, sep: str, what: str) -> tuple[float, float]:
    try:
        a, b = text.lower().split(sep)
        return float(a), float(b)
    except ValueError as e:
        raise ValueError(f"{what} must look like 12{sep}34, got {text!r}") from e


def _snap(args: argparse.Namespace) -> int:
    """Photos from the camera itself, so every other step can work from files."""
    import time

    import cv2

    from companion import settings as settings_mod
    from companion.services.standin import stand_in_camera
    from companion.startfiles import read_config
    from hardware.camera import choose, open_source
    from hardware.errors import HardwareError

    if args.count < 1:
        return _err(f"--count must be at least 1, got {args.count}")
    if args.every < 0 or args.warmup < 0:
        return _err("--every and --warmup cannot be negative")
    try:
        setting = settings_mod.load().camera
    except settings_mod.SettingsError:
        setting = ""
    if setting == "none" and args.camera is None:
        return _err("the app's camera setting is 'none': give --camera SPEC")
    config, _ = read_config()
    try:
        choice = choose(args.camera, config, setting=setting or None)
    except HardwareError as e:
        return _err(str(e))
    if choice.stand_in and not args.stand_in:
        return _err(f"the camera chosen ({choice.origin}) is the stand-in: its photos are "
                    "rendered dice, not your table, and would calibrate nothing. Connect the "
                    "camera and give --camera picamera2 or opencv:0, or add --stand-in to save "
                    "rendered dice anyway (to try the steps)")
    spec = choice.spec
    single = args.output.suffix.lower() in (".png", ".jpg", ".jpeg") and args.count == 1
    folder = args.output.parent if single else args.output
    folder.mkdir(parents=True, exist_ok=True)
    saved = 0
    try:
        # No silent stand-in: photos of rendered dice would calibrate the wrong table.
        with open_source(spec, config, fallback=False, stand_in=stand_in_camera) as source:
            for _ in range(args.warmup):
                source.read()
            for i in range(args.count):
                if i:
                    time.sleep(args.every)
                frame = source.read()
                path = args.output if single else folder / f"snap-{i + 1:03d}.png"
                if not cv2.imwrite(str(path), frame.image):
                    return _err(f"cannot write {str(path)!r}")
                saved += 1
                h, w = frame.image.shape[:2]
                what = ", rendered dice from the stand-in" if choice.stand_in else ""
                print(f"saved {path} ({w}x{h}{what})", flush=True)
    except HardwareError as e:
        return _err(f"{e} ({saved} of {args.count} photos saved)")
    return 0


def _markers(args: argparse.Namespace) -> int:
    from calibration.table import write_marker_sheet

    path = write_marker_sheet(args.output, args.marker_mm, args.dpi)
    print(f"wrote the marker sheet to {path} (print at 100%; markers {args.marker_mm:g} mm)")
    return 0


def _table(args: argparse.Namespace) -> int:
    import dataclasses

    import cv2

    from calibration import profiles, table
    from calibration.images import read_image

    img = read_image(args.image) if args.image else None
    if args.corners:
        tray = _pair(args.tray_mm, "x", "--tray-mm") if args.tray_mm else None
        cal = table.from_corners([_pair(c, ",", "a corner") for c in args.corners], tray,
                                 args.die_mm or table.DEFAULT_DIE_MM)
    else:
        if img is None:
            return _err("table needs a photo of the markers, or --corners")
        cal = table.from_markers(img, args.marker_mm, args.die_mm or table.DEFAULT_DIE_MM)
    r = cal.region
    print(f"table from {cal.source}: top-down view {r.table_size[0]}x{r.table_size[1]} px"
          if r.table_size else f"table from {cal.source}")
    if cal.tray_mm:
        print(f"tray {cal.tray_mm[0]:.1f} x {cal.tray_mm[1]:.1f} mm, {cal.px_per_mm} px/mm, "
              f"a {cal.die_mm:g} mm die is {cal.die_size} px"
              + ("" if args.die_mm else " (not set: give --die-mm to fix the die size)"))
    if cal.reprojection_px is not None:
        print(f"reprojection error: {cal.reprojection_px:.3f} px RMS, "
              f"{cal.max_reprojection_px:.3f} px worst")
    matrix = r.matrix()
    if args.preview and img is not None and matrix is not None and r.table_size:
        top = cv2.warpPerspective(img, matrix, r.table_size)
        args.preview.parent.mkdir(parents=True, exist_ok=True)
        cv2.imwrite(str(args.preview), top)
        print(f"wrote the top-down view to {args.preview}")
    cp = _target(args)
    info = profiles.TableInfo(cal.source, cal.tray_mm, cal.px_per_mm, cal.die_mm,
                              cal.reprojection_px)
    cp = dataclasses.replace(cp, table=info,
                             profile=dataclasses.replace(
                                 cp.profile, table=r,
                                 die_size=cal.die_size if args.die_mm else None),
                             camera=args.camera if args.camera is not None else cp.camera)
    _save(args, cp)
    return 0


def _palette(args: argparse.Namespace) -> int:
    import dataclasses

    from calibration import palette, profiles
    from calibration.images import die_crops, labelled_folders, read_image

    cp = _target(args)
    region, die_size = cp.profile.table, cp.profile.die_size
    if args.folder:
        samples = {}
        for colour, files in labelled_folders(args.folder).items():
            samples[colour] = [c for f in files for c in die_crops(read_image(f), region,
                                                                     die_size)]
            dice = plural(len(samples[colour]), "die", "dice")
            print(f"{colour}: {dice} in {len(files)} image(s)")
    else:
        crops = die_crops(read_image(args.roll), region, die_size)
        k = args.clusters or len(args.name)
        if not k:
            return _err("--roll needs --clusters K (how many colours are in the roll)")
        clusters = palette.cluster_roll(crops, k)
        if not args.name:
            for c in clusters:
                xs = ", ".join(f"({crops[i].center[0]:.0f},{crops[i].center[1]:.0f})"
                               for i in c.members)
                print(f"cluster {c.index}: {plural(len(c.members), 'die', 'dice')} at {xs}; "
                      f"Lab {tuple(round(v) for v in c.lab)}")
            print("name them: --name 0=red --name 1=blue ...")
            return 0
        names = {}
        for item in args.name:
            idx, _, colour = item.partition("=")
            if not idx.isdigit() or not colour:
                return _err(f"--name must look like 0=red, got {item!r}")
            names[int(idx)] = colour
        samples = palette.name_clusters(crops, clusters, names)
    stats, pal = palette.learn(samples, args.light)
    for s, m in zip(stats, pal.colours, strict=True):
        print(f"  {s.name:10s} Lab {tuple(round(v) for v in s.lab)} spread "
              f"{tuple(round(v, 1) for v in s.spread)} -> reference BGR {m.bgr}, "
              f"tolerance {m.tolerance}")
    for line in palette.describe_pairs(palette.separability(stats, pal, args.light)):
        print(line)
    info = profiles.PaletteInfo(args.light, tuple(
        profiles.ColourInfo(s.name, s.lab, s.spread, s.samples) for s in stats))
    cp = dataclasses.replace(cp, palette=info,
                             profile=dataclasses.replace(cp.profile, palette=pal))
    _save(args, cp)
    return 0


def _face_samples(args: argparse.Namespace, region: Any, die_size: Any) -> dict[str, list[Any]]:
    from calibration.images import (
        CalibrationError,
        die_crops,
        labelled_folders,
        nearest,
        read_image,
    )

    out: dict[str, list[Any]] = {}
    if args.folder:
        for label, files in labelled_folders(args.folder).items():
            out[label] = [c.crop for f in files for c in die_crops(read_image(f), region,
                                                                     die_size)]
        return out
    try:
        data = json.loads(args.taps.read_text(encoding="utf-8"))
        taps = data["taps"]
        assert isinstance(taps, list)
    except (OSError, ValueError, KeyError, TypeError, AssertionError) as e:
        raise CalibrationError(f"taps file {str(args.taps)!r} must be JSON "
                               '{"taps": [{"image", "x", "y", "face"}]}: ' f"{e}") from e
    cache: dict[str, list[Any]] = {}
    for i, t in enumerate(taps):
        if not (isinstance(t, dict) and {"image", "x", "y", "face"} <= set(t)):
            raise CalibrationError(f"{str(args.taps)!r}: taps[{i}] needs image, x, y, face")
        img_path = args.taps.parent / str(t["image"])
        key = str(img_path)
        if key not in cache:
            cache[key] = die_crops(read_image(img_path), region, die_size)
        crops = cache[key]
        j = nearest([c.center for c in crops], (float(t["x"]), float(t["y"])), 60.0)
        if j is None:
            raise CalibrationError(f"taps[{i}]: no die near ({t['x']}, {t['y']}) in "
                                   f"{str(img_path)!r}")
        out.setdefault(str(t["face"]), []).append(crops[j].crop)
    return out


def _faces(args: argparse.Namespace) -> int:
    from calibration import faces, profiles

    if args.templates:
        for game, labels in faces.TEMPLATES.items():
            print(f"{game}: {', '.join(labels)}")
        return 0
    if not (args.folder or args.taps):
        return _err("faces needs --from DIR or --taps FILE (or --templates)")
    cp = _target(args)
    set_name = args.set_name or args.game or "faces"
    samples = _face_samples(args, cp.profile.table, cp.profile.die_size)
    for label, crops in samples.items():
        print(f"{label}: {len(crops)} crop(s)")
    empty = [k for k, v in samples.items() if not v]
    if empty:
        return _err(f"no dice found for face(s) {empty}")
    missing = faces.check_labels(list(samples), args.game)
    base = None
    if args.add:
        base = next((f for f in cp.profile.face_sets if f.name == set_name), None)
        if base is None:
            return _err(f"--add: profile {cp.name!r} has no face set {set_name!r}")
        missing = [m for m in missing if m not in base.labels]
    if missing:
        print(f"not shown yet ({len(missing)}): {', '.join(missing)}")
    rotate = not args.no_augment
    cv = faces.cross_validate(samples, base=base, rotate=rotate)
    for line in cv.lines():
        print(line)
    if cv.accuracy < args.min_accuracy:
        return _err(f"accuracy {cv.accuracy:.1%} is below --min-accuracy "
                    f"{args.min_accuracy:.1%}; not saved. Show more samples of the weak faces")
    fs = faces.learn(samples, set_name, base=base, rotate=rotate)
    captures = faces.encode_captures(samples)
    if base is not None:
        old = next((i for i in cp.face_sets if i.name == set_name), None)
        kept = dict(old.captures) if old is not None else {}
        captures = {lab: kept.get(lab, ()) + captures.get(lab, ())
                    for lab in dict.fromkeys([*kept, *captures])}
    info = profiles.FaceSetInfo(set_name, args.game, faces.samples_per_label(fs, rotate),
                                round(cv.accuracy, 4), profiles.features_id(), captures)
    _save(args, cp.with_face_set(fs, info))
    return 0


def _check(args: argparse.Namespace) -> int:
    from calibration import check, profiles
    from calibration.images import image_files

    cp = None
    if args.file:
        cp = profiles.load_file(args.file)
    else:
        name = args.profile or paths.profile_store().current_name()
        cp = paths.profile_store().load(name) if name else None
        if cp is None:
            print("no profile chosen: checking with the defaults", file=sys.stderr)
    vp = cp.profile if cp is not None else None
    reader = None
    if cp is not None and cp.dice.dice:  # what the table taught, for these models
        from calibration import teach
        from vision import DiceReader

        reader = DiceReader.shipped()
        if reader.nets is not None:
            head, lesson = teach.refit(reader.nets, cp.dice, cp.profile.head)
            if lesson is not None:
                print("what the table taught was fitted again for these models",
                      file=sys.stderr)
            vp = dataclasses.replace(cp.profile, head=head)
    if cp is not None and profiles.stale_face_sets(cp):
        print(f"warning: face sets {', '.join(profiles.stale_face_sets(cp))} were learned with "
              "other face features; re-run `companion calibrate faces`", file=sys.stderr)
    files: list[Path] = []
    for p in args.images:
        files += image_files(p) if p.is_dir() else [p]
    rep = check.check(files, vp, reader)
    if args.json:
        print(json.dumps(rep.to_dict()))
    else:
        for line in rep.lines():
            print(line)
    return 0


def _dice(args: argparse.Namespace) -> int:
    """Teach the table's own dice from labelled photos: each photo's dice (and what the
    reader takes for dice that are not) become examples in the profile, and the reader's
    head is fitted to them (calibration.teach)."""
    from calibration import teach
    from vision import DiceReader

    if not (args.folder or args.forget):
        return _err("dice needs --from DIR (labelled photos) or --forget")
    cp = _target(args)
    if args.forget:
        print(f"forgot {plural(cp.dice.dice, 'die', 'dice')} this table had taught "
              f"({plural(len(cp.dice.examples), 'example', 'examples')})")
        cp = cp.forget_dice()
    if args.folder:
        reader = DiceReader.shipped()
        if reader.nets is None:
            return _err("the dice reader's model files are missing: nothing to teach")
        photos = teach.labelled_photos(args.folder)
        new: list[teach.Example] = []
        for k, (_path, image, dice) in enumerate(photos):
            new += teach.examples_from_view(reader, image, dice, cp.dice.views + k, "photo",
                                            profile=cp.profile)
        shown = sum(1 for e in new if e.label > 0)
        print(f"learned {plural(shown, 'die', 'dice')} from "
              f"{plural(len(photos), 'photo', 'photos')}, and "
              f"{plural(len(new) - shown, 'thing', 'things')} the reader took for dice that "
              "are not")
        taught = cp.dice.add(new)
        lesson = teach.fit(reader.nets, taught.decoded())
        for line in lesson.lines():
            print(line)
        cp = cp.with_dice(taught.with_lesson(lesson), lesson.head)
        print(f"the table now holds {plural(taught.dice, 'die', 'dice')} "
              f"(at most {teach.MAX_PER_LABEL} of each face are kept, the newest)")
    _save(args, cp)
    return 0


def _seat(text: str) -> int:
    try:
        return int(text)
    except ValueError as e:
        raise ValueError(f"seat must be a number 1..6, got {text!r}") from e


def _zones(args: argparse.Namespace) -> int:
    from dataclasses import replace

    from calibration import zones as Z

    cp = _target(args)
    zones: tuple[Any, ...] = () if args.clear else cp.zones
    for seat, space in args.remove:
        zones = Z.remove_zone(zones, _seat(seat), space)
    for item in args.add:
        if len(item) < 5:
            raise ValueError(f"--add {' '.join(item)}: give SEAT SPACE and at least 3 "
                             "corners X,Y")
        pts = tuple(_pair(t, ",", f"--add {item[1]!r} corner") for t in item[2:])
        zones = Z.replace_zone(zones, Z.Zone(_seat(item[0]), item[1], pts))
    for seat, space, box in args.rect:
        try:
            x, y, w, h = (float(v) for v in box.split(","))
        except ValueError as e:
            raise ValueError(f"--rect {space!r}: expected X,Y,W,H, got {box!r}") from e
        zones = Z.replace_zone(zones, Z.rectangle(_seat(seat), space, x, y, w, h))
    changed = zones != cp.zones
    if changed:
        cp = replace(cp, zones=zones)
    for z in cp.zones:
        corners = " ".join(f"{x:.0f},{y:.0f}" for x, y in z.polygon)
        print(f"seat {z.seat}  {z.space:<16} {corners}")
    if not cp.zones:
        print("no zones (add one with --add SEAT SPACE X,Y X,Y X,Y or --rect)")
    if args.draw is not None:
        import cv2
        import numpy as np

        from vision.read import DiceReader

        image = cv2.imread(str(args.draw), cv2.IMREAD_COLOR)
        if image is None:
            raise ValueError(f"cannot read image {str(args.draw)!r}")
        frame = np.asarray(image, dtype=np.uint8)
        reading = DiceReader.shipped().read(frame, cp.profile)
        counts = Z.count_dice(cp.zones, reading.dice)
        out = args.output or args.draw.with_suffix(".zones.png")
        cv2.imwrite(str(out), Z.draw_zones(frame, cp.zones, counts=counts))
        for z in cp.zones:
            print(f"  {plural(counts[z.key], 'die', 'dice')} on seat {z.seat} {z.space}")
        print(f"wrote {out}")
    if changed:
        _save(args, cp)
    return 0


def _list(_args: argparse.Namespace) -> int:
    from calibration.profiles import ProfileError

    try:
        cur = paths.profile_store().current_name()
    except ProfileError as e:  # a bad pointer does not hide the profiles themselves
        print(f"the current-profile choice cannot be read: {e}")
        cur = None
    names = paths.profile_store().names()
    if not names:
        print(f"no profiles yet in {paths.profile_store().profiles_dir}")
        return 0
    for n in names:
        s = paths.profile_store().summary(n)
        mark = "*" if n == cur else " "
        if "error" in s:
            print(f"{mark} {n}: BROKEN - {s['error']}")
        else:
            print(f"{mark} {n}: camera {s['camera'] or '-'}, table {s['table']}, "
                  f"{s['colours']} colours, face sets {', '.join(s['face_sets']) or '-'}, "
                  f"{plural(s['dice_taught'], 'die', 'dice')} taught")
            if s["stale_face_sets"]:
                print(f"    re-learn face sets {', '.join(s['stale_face_sets'])}: they were "
                      "learned with other face features than this version of vision uses")
    return 0


def _use(args: argparse.Namespace) -> int:

    p = paths.profile_store().use(args.name)
    print(f"using profile {p.name!r}")
    return 0


def _show(args: argparse.Namespace) -> int:

    name = args.name or paths.profile_store().current_name()
    if name is None:
        return _err("no profile chosen; give a name")
    summary = paths.profile_store().summary(name)
    if "error" in summary:  # a missing or unreadable profile is a failure, not a summary
        return _err(str(summary["error"]))
    print(json.dumps(summary, indent=1))
    return 0


def run(args: argparse.Namespace) -> int:
    from calibration.images import CalibrationError
    from calibration.profiles import ProfileError

    steps = {"snap": _snap, "markers": _markers, "table": _table, "palette": _palette,
             "faces": _faces, "dice": _dice, "zones": _zones, "check": _check, "list": _list,
             "use": _use, "show": _show}
    try:
        return steps[args.step](args)
    except (CalibrationError, ProfileError, ValueError) as e:
        return _err(str(e))
    except OSError as e:  # a file or folder the step must write or read: name it
        where = f"{e.filename!s}: " if e.filename else ""
        if isinstance(e, FileExistsError | NotADirectoryError):
            return _err(f"{where}a file is where a folder is needed")
        return _err(f"{where}{e.strerror or e}")
