"""`companion start` (and plain `companion`): the table app, fullscreen on a Pi.

Touch input: SDL2, under Kivy's window, already turns each touch of a touchscreen (seen through
the desktop on Raspberry Pi OS, or straight from the kernel on a console) into one mouse press,
which Kivy's ``mouse`` provider delivers. On Linux Kivy also adds ``probesysfs`` by default (and
writes it into ``~/.kivy/config.ini``), which reads the touch panel's device directly through
mtdev or hidinput: then every touch arrives twice. So the app runs with exactly one provider,
``mouse``, whatever that file says (docs/hardware.md, "Touchscreen").
"""

from __future__ import annotations

import argparse
import gc
import logging
import os
import sys
import time
from pathlib import Path
from typing import Any

HELP = "start the table app (fullscreen on a Raspberry Pi, a window on a desktop)"

#: The app's only Kivy input provider (``[input]`` name and value). ``multitouch_on_demand``:
#: a right click does not leave Kivy's red multitouch-simulation dot behind.
INPUT_PROVIDER = ("mouse", "mouse,multitouch_on_demand")
#: Kivy's report when neither xclip nor xsel is installed (Linux, at the first text field): a
#: CRITICAL line with the tracebacks of both attempts. The X cut buffer only serves middle-click
#: paste, which a touch table does not have; the clipboard itself works through SDL2.
_CUTBUFFER_REPORT = "Cutbuffer: Unable to find any valuable Cutbuffer provider"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--window", action="store_true",
                        help="use a window even on a Raspberry Pi")
    parser.add_argument("--size", default="800x480",
                        help="window size WIDTHxHEIGHT on a desktop (default 800x480)")
    parser.add_argument("--camera", metavar="SOURCE",
                        help="the camera for this run, before COMPANION_CAMERA, Settings and "
                             "the config file: auto, picamera2, opencv:N, replay:PATH or "
                             "synthetic")
    parser.add_argument("--rotation", type=int, choices=(0, 90, 180, 270), default=0,
                        help="turn the picture and the touch by this many degrees, e.g. 180 "
                             "for a screen mounted upside down (default 0)")


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


def use_one_input_provider(config: Any) -> None:
    """Make ``INPUT_PROVIDER`` the only entry of Kivy's ``[input]`` (in memory: the user's
    config.ini is not rewritten)."""
    for option in config.options("input"):
        config.remove_option("input", option)
    config.set("input", *INPUT_PROVIDER)


class _DropCutbufferReport(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        return not str(record.msg).startswith(_CUTBUFFER_REPORT)


def load_clipboard() -> str:
    """Load Kivy's clipboard now, with one plain line instead of Kivy's CRITICAL cut-buffer
    report (and its tracebacks) when xclip and xsel are absent. Returns that line."""
    from kivy.logger import Logger

    quiet = _DropCutbufferReport()
    Logger.addFilter(quiet)
    try:
        from kivy.core.clipboard import Clipboard, CutBuffer
    finally:
        Logger.removeFilter(quiet)
    line = f"clipboard: {type(Clipboard).__name__}"
    if CutBuffer is None:
        line += "; no X cut buffer (middle-click paste needs xclip or xsel; not used here)"
    Logger.info("Companion: %s", line)
    return line


def run(args: argparse.Namespace) -> int:
    if not has_display():
        print("companion: there is no display here (no DISPLAY or WAYLAND_DISPLAY, and this is "
              "not a Raspberry Pi with a screen).\n"
              "To see the app work on this machine, run:  ./start.sh demo --output DIR\n"
              "(from the companion's folder; where the companion command is installed, "
              "companion demo --output DIR).\n"
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
    from companion.appliance import datamount

    # Power-pull protection with the data stick not mounted: wait for it on the screen before
    # anything is read from it or written to it (the Kivy home too is on the stick).
    wait = datamount.needed()
    environment = dict(os.environ)
    kivy_home = os.environ.get("KIVY_HOME", "")
    if wait is not None or (kivy_home and datamount.not_mounted(Path(kivy_home))):
        os.environ["KIVY_HOME"] = datamount.kivy_home_in_ram()
    # The cyclic collector waits while the app loads (its walks of the objects the imports
    # make were a tenth of the start-up); the app turns it on again as it builds its screens,
    # having frozen what it made so far (companion.collector).
    if wait is None:  # (the waiting screen may wait for hours: its collector runs)
        gc.disable()
    from kivy.config import Config

    # Kivy redraws only what changed, so the cap mostly sets how often input is polled:
    # 60 keeps a tap's wait short; idle CPU stays low (benchmarks/app.py).
    Config.set("graphics", "maxfps", "60")
    Config.set("graphics", "fullscreen", "auto" if fullscreen else "0")
    if not fullscreen:
        Config.set("graphics", "width", str(width))
        Config.set("graphics", "height", str(height))
    Config.set("kivy", "exit_on_escape", "0")
    Config.set("graphics", "rotation", str(args.rotation))
    use_one_input_provider(Config)
    from kivy.base import EventLoop
    from kivy.clock import Clock
    from kivy.logger import Logger

    if wait is not None:
        from companion.appliance.waiting import show_wait

        outcome = show_wait(wait)
        if outcome is datamount.Outcome.CLOSED:
            return 0
        datamount.start_again(outcome, wait.waited, environment)  # never returns
    from companion.appliance import starts as starts_mod

    starts = None
    folder = starts_mod.log_dir()
    if folder is not None and datamount.not_mounted(folder):  # played without saving
        Logger.warning("Companion: no log file: its folder %s is on the data stick, which is "
                       "not mounted", folder)
        folder = None
    if folder is not None:  # the appliance: a log that outlives the RAM overlay, crash backoff
        starts_mod.log_to_file(folder)
        starts = starts_mod.Starts.load(folder)
        delay = starts.begin()
        if starts.given_up:
            Logger.error("Companion: %d crashes in a row: showing what failed", starts.crashes)
            starts.end("gave up")
            gc.enable()
            from companion.appliance.failed import show_failure

            show_failure(starts, starts_mod.last_lines(folder))
            return 0
        if delay:
            Logger.warning("Companion: %d crash(es) in a row before this start: waiting %g s",
                           starts.crashes, delay)
            time.sleep(delay)
    from hardware.audio.route import route_audio

    Logger.info("Companion: sound: %s", route_audio())
    load_clipboard()
    from companion.appliance.notify import watch_over
    from companion.compose import CompanionApp

    def report_input(_dt: float) -> None:
        names = [f"{type(p).__name__}({p.device})" for p in EventLoop.input_providers]
        Logger.info("Companion: input providers: %s", ", ".join(names))

    app = CompanionApp(camera_flag=args.camera)
    came = datamount.after_wait_notice(app.journal.path, unsaved=app.journal.readonly)
    if came:
        app.notices.insert(0, came)
    Logger.info("Companion: %s", app.open_buttons())
    Clock.schedule_once(report_input, 0)
    watch_over(Clock)
    if starts is None:
        app.run()
        return 0
    healthy = starts
    Clock.schedule_once(lambda _dt: healthy.end("healthy"), starts_mod.HEALTHY_AFTER_S)
    try:
        app.run()
    except BaseException as e:
        starts.end(f"crashed: {type(e).__name__}: {e}")
        Logger.exception("Companion: the app crashed")
        raise
    starts.end("ended")
    return 0
