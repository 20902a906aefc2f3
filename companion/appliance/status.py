"""``companion appliance status``: what was written, read back, and whether it is what runs."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.appliance import packages
from companion.appliance.files import UNIT, USER_LOG_DIR, WATCHDOG_DROPIN
from companion.appliance.manifest import Manifest
from companion.appliance.mounts import (
    MOUNTINFO,
    VOLATILE,
    fstab_entry,
    mount_of,
    parse_mountinfo,
    read_mountinfo,
)
from companion.appliance.overlay import kernel_overlay, overlay_active
from companion.appliance.system import (
    ApplianceError,
    Report,
    Runner,
    default_target,
    desktop_autologin,
    display_manager,
    in_root,
    is_live,
    run_command,
    systemctl,
    user_account,
)


def status(root: Path = Path("/"), runner: Runner = run_command,
           running: bool | None = None) -> Report:
    """What the appliance setup is, and whether it is what runs: each line ``ok``, ``PROBLEM``
    (with what to do) or ``note``. What was written is read back (the files, the boot target,
    the desktop's autologin, the overlay's configuration and package, the kernel command line);
    on the running system (``running``, default: ``root`` is "/") also what runs: the service
    or the user service with its restart count, the hardware watchdog, the overlay, the data
    folder's mount, the last start of the app."""
    report = Report()
    manifest = Manifest.load(root)
    if manifest is None:
        report.add("appliance: not enabled (`sudo .venv/bin/companion appliance enable`)")
        return report
    s = manifest.settings
    if s.get("disabled"):
        names = ", ".join(op.get("package", "?") for op in manifest.ops)
        report.add(f"appliance: disabled; one step left: {names} is still installed (run `sudo "
                   ".venv/bin/companion appliance disable` once more, without the overlay)")
        return report
    live = is_live(root) if running is None else running
    protect = Path(s["protect"]) if s.get("protect") else None
    mode = s.get("mode")
    report.add(f"appliance: enabled, {mode} mode, user {s.get('user')}, rotation "
               f"{s.get('rotation')}, audio {s.get('audio')}, power-pull protection "
               f"{'on, data in ' + str(protect) if protect else 'off'}")

    def line(ok: bool | None, text: str) -> None:
        report.add(f"  {'note    ' if ok is None else 'ok      ' if ok else 'PROBLEM '}{text}")

    for op in manifest.ops:
        if op["op"] in ("file", "autostart"):
            there = in_root(root, op["path"]).exists()
            line(there, op["path"] + ("" if there else ": missing (run `enable` again)"))
        elif op["op"] == "unit-enabled":
            state = systemctl(root, runner, ["is-enabled", op["unit"]]).stdout.strip()
            line(state == "enabled", f"{op['unit']}: {state or 'unknown'} at boot")
    target = default_target(root)
    desktop = display_manager(root)
    if mode == "console" and not desktop:  # nothing but the app wants the screen
        line(target in ("multi-user.target", "graphical.target"),
             f"boot target: {target or 'unknown'} (no desktop installed to take the screen)")
    else:
        wanted = "multi-user.target" if mode == "console" else "graphical.target"
        line(target == wanted, f"boot target: {target or 'unknown'}" + (
            "" if target == wanted else f" (the {mode} mode needs {wanted}: run `enable` again)"))
    if mode == "desktop":
        user = desktop_autologin(root)
        ok = user == s.get("user")
        line(ok, f"desktop autologin: {user or 'off'}" + ("" if ok else (
            f" (nothing starts until {s.get('user')} logs in: sudo raspi-config > System "
            "Options > Boot / Auto Login > Desktop Autologin)")))
    if live:
        _status_running(root, runner, s, line)
    if protect is not None:
        _status_protection(root, protect, live, line)
    cmdline = kernel_overlay(root)
    if cmdline is not None:
        line(False, f"raspi-config's Overlay File System is on (overlayroot={cmdline} on the "
                    "kernel command line): it puts the data folder in RAM too; turn it off in "
                    "raspi-config")
    folder = _app_log_dir(root, s)
    if folder is not None and live:
        from companion.appliance.starts import Starts

        record = Starts.load(folder)
        line(record.crashes == 0 if record.started else None,
             f"the app: {record.describe()} (log: {folder / 'companion.log'})")
    return report


def _show(runner: Runner, argv: list[str]) -> dict[str, str]:
    done = runner(argv)
    return dict(ln.split("=", 1) for ln in done.stdout.splitlines() if "=" in ln)


def _status_running(root: Path, runner: Runner, s: dict[str, Any],
                    line: Callable[[bool | None, str], None]) -> None:
    props = ["-p", "ActiveState", "-p", "SubState", "-p", "NRestarts", "-p", "Result"]
    if s.get("mode") == "console":
        what, got = "the app's service", _show(runner, ["systemctl", "show", UNIT, *props])
    else:
        what = f"the app's user service (of {s.get('user')})"
        got = _show(runner, ["systemctl", "--user", f"--machine={s.get('user')}@", "show",
                             "table-companion.service", *props])
    state = f"{got.get('ActiveState', 'unknown')}/{got.get('SubState', 'unknown')}"
    restarts = got.get("NRestarts", "?")
    good = got.get("ActiveState") == "active" and got.get("SubState") == "running"
    line(good, f"{what}: {state}, restarted {restarts} time(s) since boot, last result "
               f"{got.get('Result', 'unknown')}" + ("" if good else " (see the app's log below)"))
    manager = _show(runner, ["systemctl", "show", "-p", "RuntimeWatchdogUSec"])
    dog = manager.get("RuntimeWatchdogUSec", "")
    line(dog not in ("", "0", "infinity") and in_root(root, WATCHDOG_DROPIN).exists(),
         f"hardware watchdog: fed by systemd every half of {dog or 'nothing'}"
         if dog not in ("", "0") else "hardware watchdog: not fed (reboot once after `enable`)")


def _status_protection(root: Path, protect: Path, live: bool,
                       line: Callable[[bool | None, str], None]) -> None:
    installed = "overlayroot" in packages.installed(root)
    line(installed, "overlayroot package: " + ("installed" if installed else
                                               "NOT installed (sudo apt install overlayroot && "
                                               "sudo update-initramfs -u)"))
    try:
        fstab = in_root(root, "/etc/fstab").read_text(encoding="utf-8")
    except OSError:
        fstab = ""
    stick = fstab_entry(protect, fstab)
    line(stick is not None, f"/etc/fstab: {stick.source} on {protect}" if stick is not None else
         f"/etc/fstab has no line for {protect}: nothing mounts it at boot (docs/raspberry-pi.md, "
         "'Power-pull protection', step 2)")
    if not live:
        return
    active = overlay_active(root)
    line(active, "read-only root (RAM overlay) now: " + (
        "on" if active else "off (it starts at the next boot: `sudo reboot`)"))
    mounts = parse_mountinfo(read_mountinfo(in_root(root, MOUNTINFO)))
    on = mount_of(protect, mounts) if mounts else None
    if on is None or on.point != protect:
        line(False, f"data folder {protect}: NOT mounted (plug in the USB stick or data "
                    "partition; until then the app waits for it on its screen and saves no "
                    "games)")
    elif on.fstype in VOLATILE:
        line(False, f"data folder {protect}: mounted, but in RAM ({on.fstype}): games would be "
                    "lost (raspi-config's overlay?)")
    else:
        writable = os.access(in_root(root, protect), os.W_OK)
        line(writable, f"data folder {protect}: mounted ({on.fstype}, {on.source})"
                       + (", writable" if writable else ", NOT writable"))


def _app_log_dir(root: Path, s: dict[str, Any]) -> Path | None:
    """Where the app keeps its log and start record (COMPANION_LOG_DIR of app_environment)."""
    if s.get("protect"):
        return in_root(root, Path(s["protect"]) / "logs")
    try:
        home = user_account(root, str(s.get("user"))).home
    except ApplianceError:
        return None
    return in_root(root, home / USER_LOG_DIR)
