"""`companion start` (and plain `companion`): the table app, fullscreen on a Pi."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

HELP = "start the table app (fullscreen on a Raspberry Pi, a window on a desktop)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--window", action="store_true",
                        help="use a window even on a Raspberry Pi")
    parser.add_argument("--size", default="800x480",
                        help="window size WIDTHxHEIGHT on a desktop (default 800x480)")
    parser.add_argument("--camera", metavar="SOURCE",
                        help="the camera for this run, before COMPANION_CAMERA, Settings and "
                             "the config file: auto, picamera2, opencv:N, replay:PATH or "
                             "synthetic")


def is_raspberry_pi() -> bool:
    try:
        model = Path("/proc/device-tree/model").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return False
    return "Raspberry Pi" in model


def has_display() -> bool:
    """True when SDL can open a screen: a desktop session, a Pi's own display, or a driver
    chosen by the user (SDL_VIDEODRIVER)."""
    if sys.platform in ("darwin", "win32"):
        return True
    if os.environ.get("SDL_VIDEODRIVER"):
        return True
    if os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"):
        return True
    return is_raspberry_pi() and Path("/dev/dri").exists()


def run(args: argparse.Namespace) -> int:
    if not has_display():
        print("companion: there is no display here (no DISPLAY or WAYLAND_DISPLAY, and this is "
              "not a Raspberry Pi with a screen).\n"
              "To see the app work on this machine, run:  companion demo --output DIR\n"
              "It plays a round offscreen and writes screenshots of every screen into DIR.")
        return 2
    try:
        width, height = (int(v) for v in args.size.lower().split("x"))
    except ValueError:
        print(f"companion: --size {args.size!r}: expected WIDTHxHEIGHT, e.g. 800x480")
        return 2
    if args.camera is not None:
        from hardware.camera import choose
        from hardware.errors import HardwareError

        try:
            choose(args.camera)
        except HardwareError as e:
            print(f"companion: --camera {args.camera!r}: {e}", file=sys.stderr)
            return 2
    fullscreen = is_raspberry_pi() and not args.window
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    os.environ.setdefault("KIVY_LOG_MODE", "MIXED")
    from kivy.config import Config

    # Kivy redraws only what changed, so the cap mostly sets how often input is polled:
    # 60 keeps a tap's wait short; idle CPU stays low (benchmarks/app.py).
    Config.set("graphics", "maxfps", "60")
    Config.set("graphics", "fullscreen", "auto" if fullscreen else "0")
    if not fullscreen:
        Config.set("graphics", "width", str(width))
        Config.set("graphics", "height", str(height))
    Config.set("kivy", "exit_on_escape", "0")
    from kivy.logger import Logger

    from companion.app import CompanionApp

    app = CompanionApp(camera_flag=args.camera)
    Logger.info("Companion: %s", app.open_buttons())
    app.run()
    return 0
