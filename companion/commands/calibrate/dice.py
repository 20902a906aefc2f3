"""The steps that learn the table's dice: ``palette`` (their colours), ``faces`` (icon faces),
``dice`` (its own dice, from labelled photos: the reader adapts to them) and ``check`` (read
labelled rolls and score them)."""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from pathlib import Path
from typing import Any

from companion import paths
from companion.commands.calibrate.profiles import save, target
from companion.commands.calibrate.values import fail
from companion.words import plural


def learn_palette(args: argparse.Namespace) -> int:
    import dataclasses

    from calibration import palette, profiles
    from calibration.images import die_crops, labelled_folders, read_image

    cp = target(args)
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
            return fail("--roll needs --clusters K (how many colours are in the roll)")
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
                return fail(f"--name must look like 0=red, got {item!r}")
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
    save(args, cp)
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


def learn_faces(args: argparse.Namespace) -> int:
    from calibration import faces, profiles

    if args.templates:
        for game, labels in faces.TEMPLATES.items():
            print(f"{game}: {', '.join(labels)}")
        return 0
    if not (args.folder or args.taps):
        return fail("faces needs --from DIR or --taps FILE (or --templates)")
    cp = target(args)
    set_name = args.set_name or args.game or "faces"
    samples = _face_samples(args, cp.profile.table, cp.profile.die_size)
    for label, crops in samples.items():
        print(f"{label}: {len(crops)} crop(s)")
    empty = [k for k, v in samples.items() if not v]
    if empty:
        return fail(f"no dice found for face(s) {empty}")
    missing = faces.check_labels(list(samples), args.game)
    base = None
    if args.add:
        base = next((f for f in cp.profile.face_sets if f.name == set_name), None)
        if base is None:
            return fail(f"--add: profile {cp.name!r} has no face set {set_name!r}")
        missing = [m for m in missing if m not in base.labels]
    if missing:
        print(f"not shown yet ({len(missing)}): {', '.join(missing)}")
    rotate = not args.no_augment
    cv = faces.cross_validate(samples, base=base, rotate=rotate)
    for line in cv.lines():
        print(line)
    if cv.accuracy < args.min_accuracy:
        return fail(f"accuracy {cv.accuracy:.1%} is below --min-accuracy "
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
    save(args, cp.with_face_set(fs, info))
    return 0


def check_rolls(args: argparse.Namespace) -> int:
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


def teach_dice(args: argparse.Namespace) -> int:
    """Teach the table's own dice from labelled photos: each photo's dice (and what the
    reader takes for dice that are not) become examples in the profile, and the reader's
    head is fitted to them (calibration.teach)."""
    from calibration import teach
    from vision import DiceReader

    if not (args.folder or args.forget):
        return fail("dice needs --from DIR (labelled photos) or --forget")
    cp = target(args)
    if args.forget:
        print(f"forgot {plural(cp.dice.dice, 'die', 'dice')} this table had taught "
              f"({plural(len(cp.dice.examples), 'example', 'examples')})")
        cp = cp.forget_dice()
    if args.folder:
        reader = DiceReader.shipped()
        if reader.nets is None:
            return fail("the dice reader's model files are missing: nothing to teach")
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
    save(args, cp)
    return 0


__all__ = ["check_rolls", "learn_faces", "learn_palette", "teach_dice"]
