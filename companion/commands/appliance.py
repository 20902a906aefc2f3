"""`companion appliance enable|disable|status`: boot a Raspberry Pi into the companion, and back.

See :mod:`companion.appliance` for what each step writes, and docs/raspberry-pi.md for when to
choose which option.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

HELP = "make this Raspberry Pi boot into the companion and keep it running (enable|disable|status)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("action", choices=("enable", "disable", "status"),
                        help="enable: set the Pi up as a companion; disable: undo all of it; "
                             "status: what is set up")
    parser.add_argument("--mode", choices=("auto", "desktop", "console"), default="auto",
                        help="desktop: autostart in Raspberry Pi OS's labwc desktop; console: a "
                             "system service drawing through KMS/DRM, for a Lite image (default: "
                             "desktop where labwc is installed)")
    parser.add_argument("--rotation", type=int, choices=(0, 90, 180, 270), default=0,
                        help="turn picture and touch, e.g. 180 for a screen mounted upside down, "
                             "90 or 270 for a portrait panel used landscape (default 0)")
    parser.add_argument("--audio", default="default",
                        help="sound output: default (the system's choice), hdmi, hdmi2, "
                             "headphones, usb, or an ALSA card id from `aplay -l`")
    parser.add_argument("--protect", type=Path, metavar="DIR",
                        help="power-pull protection: read-only root from the next boot, with the "
                             "journal, settings and profiles in DIR, which must be another "
                             "filesystem (a data partition or a USB stick)")
    parser.add_argument("--user", help="who the table runs as (default: the user behind sudo)")
    parser.add_argument("--root", type=Path, default=Path("/"),
                        help="set up the system mounted at ROOT (e.g. an SD card on a laptop) "
                             "instead of this one")
    parser.add_argument("--repo", type=Path,
                        help="with --root: where the companion's clone is inside ROOT, its "
                             ".venv made by ./start.sh (default: this clone's path)")


def run(args: argparse.Namespace) -> int:
    import companion
    from companion.appliance import ApplianceError, Options, default_user, disable, enable, status

    root: Path = args.root
    live = root.resolve() == Path("/")
    if args.action != "status" and live and os.geteuid() != 0:
        print("companion appliance: changing the system needs root: run\n"
              f"  sudo {sys.argv[0]} appliance {' '.join(sys.argv[2:])}", file=sys.stderr)
        return 2
    try:
        if args.action == "enable":
            here = Path(companion.__file__).resolve().parents[1]
            repo = args.repo if args.repo is not None and not live else here
            opts = Options(user=args.user or default_user(), repo=repo, venv=repo / ".venv",
                           root=root,
                           mode=args.mode, rotation=args.rotation, audio=args.audio,
                           protect=args.protect)
            report = enable(opts)
        elif args.action == "disable":
            report = disable(root)
        else:
            report = status(root)
    except ApplianceError as exc:
        print(f"companion appliance {args.action}: {exc}", file=sys.stderr)
        return 1
    print("\n".join(report.lines))
    problems = any(ln.lstrip().startswith("PROBLEM") for ln in report.lines)
    return 1 if args.action == "status" and problems else 0
