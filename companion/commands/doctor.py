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

HELP = ("check the camera, GPIO buttons, audio, microphone, display and the app's files, and "
        "say what to fix")

MARK = {"ok": "[ok]  ", "warn": "[warn]", "fail": "[FAIL]"}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", metavar="FILE",
                        help="config file to check (default: the user's config.toml)")
    parser.add_argument("--probe-camera", action="store_true",
                        help="open the chosen camera and read a few frames")
    parser.add_argument("--listen", type=float, default=1.0, metavar="SECONDS",
                        help="listen to the microphone this long to say whether it hears "
                        "anything (0: do not open it); default 1")


def app_checks() -> tuple[list[Check], str | None]:
    """The settings, the calibration profile and the journal; and the camera the Settings
    choose (None when they cannot be read). The microphone's settings: :func:`voice_settings`."""
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
            out.append(schema_check(journal))
    else:
        out.append(Check("journal", "ok", f"{journal} not present yet: no games played"))
    out.append(secrets_check())
    out += brokers_left_running()
    out += packages_checks()
    return out, camera


def packages_checks(repo: Path | None = None) -> list[Check]:
    """The Pi's optional system packages ./start.sh could not install (from its stamp, and
    dpkg's own database: apt and the network are never asked): a line each, with what it means
    and how to add it."""
    from companion.appliance import packages
    from hardware.diagnose import Check

    if repo is None:
        import companion

        repo = Path(companion.__file__).resolve().parents[1]
    stamp = packages.Stamp.read(repo / packages.STAMP)
    return [Check("packages", "warn", f"{m.name}: {m.cause}; {m.means}", m.fix)
            for m in packages.missing_optional(stamp, packages.installed())]


def schema_check(journal: Path) -> Check:
    """The journal's tables, not only its file: what this version makes is there (a table
    dropped, a column gone, a view or a trigger put in would stop or mislead the app).
    Looks, changes nothing."""
    import sqlite3

    from companion import store
    from hardware.diagnose import Check

    try:
        version, problems, verdict = store.inspect(journal)
    except sqlite3.DatabaseError as e:
        return Check("journal", "fail", f"{journal} is not a sound journal ({e})",
                     "start the app: it sets the file aside (kept) and starts a new journal")
    if any(name in store.CORE for name in problems):
        return Check("journal", "fail", f"{journal}: " + "; ".join(problems.values()),
                     "copy the journal off first: the app sets it aside (kept) at its next "
                     "start and begins a new one, since its games cannot be read")
    if problems:
        return Check("journal", "warn", f"{journal}: " + "; ".join(problems.values()),
                     "start the app: it mends these (a damaged table is kept in the file "
                     "beside the new one) and says what it did")
    if verdict != "ok":  # (the pages: a damaged card)
        return Check("journal", "fail", f"{journal}: SQLite's check says {verdict}",
                     "start the app: it sets the file aside (kept) and starts a new journal")
    newer = "" if version >= store.SCHEMA_VERSION else (
        f" (schema {version}: brought up to {store.SCHEMA_VERSION} at the next start)")
    return Check("journal", "ok", f"{journal}: its tables are as this version keeps them"
                 + newer)


def voice_settings() -> tuple[str | None, str]:
    """The microphone the Settings choose (None: as configured) and whether voice calls are
    on ("auto") or "off"; the defaults when the settings cannot be read."""
    from companion import paths
    from companion import settings as settings_mod

    try:
        s = settings_mod.load(paths.settings_path())
    except settings_mod.SettingsError:
        return None, "auto"
    return s.microphone or None, s.voice_calls


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


def brokers_left_running() -> list[Check]:
    """A tournament's broker still running after its director was killed (kill -9, a crash)."""
    from companion import paths
    from companion.tournament.broker import orphaned
    from hardware.diagnose import Check

    out = []
    for folder in sorted((paths.data_dir() / "tournaments").glob("*/broker")):
        pid = orphaned(folder)
        if pid is not None:
            tid = folder.parent.name
            out.append(Check("tournament", "warn", f"the broker of tournament {tid} is still "
                             f"running (pid {pid}): its director was stopped without "
                             "stopping it", f"`companion tournament use {tid}` then `serve` "
                             f"takes it over (Ctrl-C stops both), or `kill {pid}`"))
    return out


def secrets_check() -> Check:
    """Files holding tournament passwords, secrets or join codes are owner-only."""
    from companion import paths
    from companion.tournament.store import readable_secrets
    from hardware.diagnose import Check

    loose = readable_secrets(paths.journal_path(), paths.data_dir() / "tournaments")
    if not loose:
        return Check("secrets", "ok", "files with tournament passwords, secrets and join "
                     "codes are readable by their owner only")
    names = ", ".join(str(p) for p in loose[:4]) + (f" and {len(loose) - 4} more"
                                                   if len(loose) > 4 else "")
    return Check("secrets", "fail", f"other users can read tournament secrets in {names}",
                 "chmod go-rwx " + " ".join(str(p) for p in loose)
                 + " (the companion does it itself the next time it opens them)")


def run(args: argparse.Namespace) -> int:
    from companion.services.standin import stand_in_camera
    from hardware.config import config_file
    from hardware.diagnose import run_checks

    path = Path(args.config) if args.config else config_file()
    own, camera = app_checks()
    microphone, voice_calls = voice_settings()
    checks = run_checks(path, probe_camera=args.probe_camera, camera_setting=camera,
                        stand_in=stand_in_camera, microphone_setting=microphone,
                        voice_calls=voice_calls, listen=max(0.0, args.listen))
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
