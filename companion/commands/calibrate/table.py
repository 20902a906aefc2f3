"""The steps that find the table: ``snap`` (photos from the camera, to calibrate from),
``markers`` (the printable tray markers) and ``table`` (the tray region, from a photo of the
markers or four corners)."""

from __future__ import annotations

import argparse

from companion.commands.calibrate.profiles import save, target
from companion.commands.calibrate.values import fail, pair


def snap(args: argparse.Namespace) -> int:
    """Photos from the camera itself, so every other step can work from files."""
    import time

    import cv2

    from companion import settings as settings_mod
    from companion.services.standin import stand_in_camera
    from companion.startfiles import read_config
    from hardware.camera import choose, open_source
    from hardware.errors import HardwareError

    if args.count < 1:
        return fail(f"--count must be at least 1, got {args.count}")
    if args.every < 0 or args.warmup < 0:
        return fail("--every and --warmup cannot be negative")
    try:
        setting = settings_mod.load().camera
    except settings_mod.SettingsError:
        setting = ""
    if setting == "none" and args.camera is None:
        return fail("the app's camera setting is 'none': give --camera SPEC")
    config, _ = read_config()
    try:
        choice = choose(args.camera, config, setting=setting or None)
    except HardwareError as e:
        return fail(str(e))
    if choice.stand_in and not args.stand_in:
        return fail(f"the camera chosen ({choice.origin}) is the stand-in: its photos are "
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
                    return fail(f"cannot write {str(path)!r}")
                saved += 1
                h, w = frame.image.shape[:2]
                what = ", rendered dice from the stand-in" if choice.stand_in else ""
                print(f"saved {path} ({w}x{h}{what})", flush=True)
    except HardwareError as e:
        return fail(f"{e} ({saved} of {args.count} photos saved)")
    return 0


def markers(args: argparse.Namespace) -> int:
    from calibration.table import write_marker_sheet

    path = write_marker_sheet(args.output, args.marker_mm, args.dpi)
    print(f"wrote the marker sheet to {path} (print at 100%; markers {args.marker_mm:g} mm)")
    return 0


def find_table(args: argparse.Namespace) -> int:
    import dataclasses

    import cv2

    from calibration import profiles, table
    from calibration.images import read_image

    img = read_image(args.image) if args.image else None
    if args.corners:
        tray = pair(args.tray_mm, "x", "--tray-mm") if args.tray_mm else None
        cal = table.from_corners([pair(c, ",", "a corner") for c in args.corners], tray,
                                 args.die_mm or table.DEFAULT_DIE_MM)
    else:
        if img is None:
            return fail("table needs a photo of the markers, or --corners")
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
    cp = target(args)
    info = profiles.TableInfo(cal.source, cal.tray_mm, cal.px_per_mm, cal.die_mm,
                              cal.reprojection_px)
    cp = dataclasses.replace(cp, table=info,
                             profile=dataclasses.replace(
                                 cp.profile, table=r,
                                 die_size=cal.die_size if args.die_mm else None),
                             camera=args.camera if args.camera is not None else cp.camera)
    save(args, cp)
    return 0


__all__ = ["find_table", "markers", "snap"]
