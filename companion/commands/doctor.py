"""`companion doctor`: what was found, with a plain verdict and what to do for each.

The hardware checks (camera, buttons, sound, display) come from :mod:`hardware.diagnose`; the
app's own files (settings, calibration profile, journal) are checked here, looking without
touching: nothing is moved or written.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from hardware.diagnose import Check

HELP = "check the camera, GPIO buttons, audio, display and the app's files, and say what to fix"

MARK = {"ok": "[ok]  ", "warn": "[warn]", "fail": "[FAIL]"}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", metavar="FILE",
                        help="config file to check (default: the user's config.toml)")
    parser.add_argument("--probe-camera", action="store_true",
                        help="open the chosen camera and read a few frames")


def app_checks() -> tuple[list[Check], str | None]:
    """The settings, the calibration profile and the journal; and the camera the Settings
    choose (None when they cannot be read)."""
    from companion import paths
    from companion import settings as settings_mod
    from companion.journal import wal_problem
    from hardware.diagnose import Check

    out: list[Check] = []
    camera: str | None = None
    path = paths.settings_path()
    try:
        s = settings_mod.load(path)
        camera = s.camera or None
        out.append(Check("settings", "ok", f"{path}" if path.exists() else
                         f"{path} not present: the defaults"))
        profile = s.calibration_profile
    except settings_mod.SettingsError as e:
        out.append(Check("settings", "fail", str(e), "fix the file, or move it away: the app "
                         "then starts with the defaults (and sets a damaged one aside itself)"))
        profile = "default"
    store = paths.profile_store()
    try:
        if profile in ("", "none"):
            out.append(Check("calibration", "ok", "no calibration profile used (Settings)"))
        else:
            cp = store.current() if profile == "default" else store.load(profile)
            if cp is None:
                out.append(Check("calibration", "ok", "no calibration profile yet",
                                 ""))
            else:
                out.append(Check("calibration", "ok", f"profile {cp.name!r}: "
                                 f"{len(cp.zones)} board zones"))
    except Exception as e:  # a damaged profile: the app reads uncalibrated
        out.append(Check("calibration", "fail", str(e),
                         "fix the profile with `companion calibrate`, or choose another: "
                         "`companion calibrate use NAME`"))
    journal = paths.journal_path()
    unwritable = _unwritable(journal.parent)
    if unwritable:
        out.append(Check("journal", "fail", unwritable,
                         "copy the journal off the card, then check or replace the card: "
                         "the app shows the games but takes no calls until then"))
    elif journal.is_dir():
        out.append(Check("journal", "fail", f"{journal} is a folder",
                         "move it away; the app starts a new journal"))
    elif journal.exists() and journal.stat().st_size == 0:
        out.append(Check("journal", "fail", f"{journal} is empty (0 bytes): its games are lost",
                         "the app sets it aside and starts a new one"))
    elif journal.exists():
        wal = wal_problem(Path(str(journal) + "-wal"))
        if wal:
            out.append(Check("journal", "warn", f"{journal.name}-wal {wal}",
                             "start the app: it keeps a copy of the log and says which "
                             "games to check"))
        else:
            out.append(Check("journal", "ok", f"{journal}"))
    else:
        out.append(Check("journal", "ok", f"{journal} not present yet: no games played"))
    return out, camera


def _unwritable(folder: Path) -> str:
    """Why the data folder cannot be written ("" when it can, or is not there yet), looking
    only: nothing is written."""
    import os

    if folder.exists() and not folder.is_dir():
        return f"the data folder {folder} is a file, not a folder"
    if not folder.is_dir():
        return ""
    try:
        read_only = os.statvfs(folder).f_flag & os.ST_RDONLY
    except OSError as e:
        return f"the data folder {folder} cannot be looked at ({e.strerror or e})"
    if read_only or not os.access(folder, os.W_OK):
        why = "is on a read-only card" if read_only else "is read-only"
        return f"the data folder {folder} {why}: no game can be saved"
    return ""


def run(args: argparse.Namespace) -> int:
    from companion.standin import stand_in_camera
    from hardware.config import config_file
    from hardware.diagnose import run_checks

    path = Path(args.config) if args.config else config_file()
    own, camera = app_checks()
    checks = run_checks(path, probe_camera=args.probe_camera, camera_setting=camera,
                        stand_in=stand_in_camera)
    checks = checks[:2] + own + checks[2:]
    width = max(len(c.area) for c in checks)
    for c in checks:
        print(f"{MARK.get(c.verdict, c.verdict)} {c.area:<{width}}  {c.finding}")
        if c.action:
            print(f"{'':6} {'':<{width}}  -> {c.action}")
    fails = sum(c.verdict == "fail" for c in checks)
    warns = sum(c.verdict == "warn" for c in checks)
    print(f"\n{len(checks)} checks: {fails} to fix, {warns} to look at", file=sys.stdout)
    return 1 if fails else 0
