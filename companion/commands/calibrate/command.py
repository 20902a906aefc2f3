"""`companion calibrate STEP`: the command line of every step, and each step run by its name
with its errors said in one line (the steps: the modules beside this one)."""

from __future__ import annotations

import argparse
from pathlib import Path

from companion.commands.calibrate.dice import check_rolls, learn_faces, learn_palette, teach_dice
from companion.commands.calibrate.profiles import list_profiles, show_profile, use_profile
from companion.commands.calibrate.table import find_table, markers, snap
from companion.commands.calibrate.values import fail
from companion.commands.calibrate.zones import edit_zones

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


def run(args: argparse.Namespace) -> int:
    from calibration.images import CalibrationError
    from calibration.profiles import ProfileError

    steps = {"snap": snap, "markers": markers, "table": find_table, "palette": learn_palette,
             "faces": learn_faces, "dice": teach_dice, "zones": edit_zones, "check": check_rolls,
             "list": list_profiles, "use": use_profile, "show": show_profile}
    try:
        return steps[args.step](args)
    except (CalibrationError, ProfileError, ValueError) as e:
        return fail(str(e))
    except OSError as e:  # a file or folder the step must write or read: name it
        where = f"{e.filename!s}: " if e.filename else ""
        if isinstance(e, FileExistsError | NotADirectoryError):
            return fail(f"{where}a file is where a folder is needed")
        return fail(f"{where}{e.strerror or e}")


__all__ = ["HELP", "add_arguments", "run"]
