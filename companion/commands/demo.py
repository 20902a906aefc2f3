"""`companion demo`: play a scripted 3-player round through the real app, offscreen."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

HELP = "play a scripted 3-player round offscreen; write screenshots and standings"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--output", type=Path, default=Path("companion-demo"),
                        help="folder for the screenshots, standings.txt and game.txt "
                             "(default: ./companion-demo)")
    parser.add_argument("--size", default="800x480",
                        help="window size WIDTHxHEIGHT (default 800x480, the Pi's 7\" display)")
    parser.add_argument("--game", default="eye-for-an-eye", help=argparse.SUPPRESS)


def run(args: argparse.Namespace) -> int:
    try:
        width, height = (int(v) for v in args.size.lower().split("x"))
    except ValueError:
        print(f"companion demo: --size {args.size!r}: expected WIDTHxHEIGHT, e.g. 800x480",
              file=sys.stderr)
        return 2
    if args.output.exists() and not args.output.is_dir():
        print(f"companion demo: --output {str(args.output)!r} is a file; give a folder "
              "(it is created if missing)", file=sys.stderr)
        return 2
    try:
        args.output.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        print(f"companion demo: --output {str(args.output)!r}: cannot create the folder "
              f"({e.strerror or e})", file=sys.stderr)
        return 2
    from companion.demo import run_demo

    written = run_demo(args.output, game=args.game, size=(width, height))
    for name, path in written.items():
        print(f"{name}: {path}")
    print((args.output / "standings.txt").read_text(encoding="utf-8"), end="")
    return 0
