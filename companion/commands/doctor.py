"""`companion doctor`: what hardware was found, with a plain verdict and what to do for each."""

from __future__ import annotations

import argparse
import sys

HELP = "check the camera, GPIO buttons, audio and display, and say what to fix"

MARK = {"ok": "[ok]  ", "warn": "[warn]", "fail": "[FAIL]"}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", metavar="FILE",
                        help="config file to check (default: the user's config.toml)")
    parser.add_argument("--probe-camera", action="store_true",
                        help="open the chosen camera and read a few frames")


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from hardware.config import config_file
    from hardware.diagnose import run_checks

    path = Path(args.config) if args.config else config_file()
    checks = run_checks(path, probe_camera=args.probe_camera)
    width = max(len(c.area) for c in checks)
    for c in checks:
        print(f"{MARK.get(c.verdict, c.verdict)} {c.area:<{width}}  {c.finding}")
        if c.action:
            print(f"{'':6} {'':<{width}}  -> {c.action}")
    fails = sum(c.verdict == "fail" for c in checks)
    warns = sum(c.verdict == "warn" for c in checks)
    print(f"\n{len(checks)} checks: {fails} to fix, {warns} to look at", file=sys.stdout)
    return 1 if fails else 0
