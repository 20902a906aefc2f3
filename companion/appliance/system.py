"""The system the appliance changes: a root directory (the running Pi, or a card mounted on a
laptop, or a temporary folder in the tests), its users and groups, the boot target and desktop
autologin it is set to, and the commands run on it.

Commands that only make sense on the running system (apt, update-initramfs, daemon-reload) are
run only when the root is "/" (:func:`is_live`); ``systemctl --root`` works offline.
"""

from __future__ import annotations

import configparser
import os
import pwd
import shlex
import subprocess
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

DOCS = "docs/raspberry-pi.md"

Runner = Callable[[Sequence[str]], subprocess.CompletedProcess[str]]


class ApplianceError(Exception):
    """Raised when the appliance cannot be enabled or disabled as asked; says why and what to do."""


def run_command(argv: Sequence[str]) -> subprocess.CompletedProcess[str]:
    """Run a system command, capturing its output (the default runner)."""
    return subprocess.run(list(argv), text=True, capture_output=True, check=False)


@dataclass
class Account:
    name: str
    uid: int
    gid: int
    home: Path


@dataclass
class Report:
    """What a step did or would do, line by line, for the command to print."""

    lines: list[str] = field(default_factory=list)

    def add(self, line: str) -> None:
        self.lines.append(line)


# -- helpers on the root ---------------------------------------------------------------------
def in_root(root: Path, path: str | Path) -> Path:
    return root / str(path).lstrip("/")


def is_live(root: Path) -> bool:
    return root.resolve() == Path("/")


def user_account(root: Path, user: str) -> Account:
    passwd = in_root(root, "/etc/passwd")
    try:
        lines = passwd.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise ApplianceError(f"cannot read {passwd}: {exc.strerror or exc}") from None
    for line in lines:
        parts = line.split(":")
        if len(parts) >= 7 and parts[0] == user:
            return Account(user, int(parts[2]), int(parts[3]), Path(parts[5]))
    raise ApplianceError(f"user {user!r} is not in {passwd}: give --user NAME of the person the "
                         "table runs as (on Raspberry Pi OS, the first user made at setup)")


def group_names(root: Path) -> set[str]:
    try:
        text = in_root(root, "/etc/group").read_text(encoding="utf-8")
    except OSError:
        return set()
    return {line.split(":", 1)[0] for line in text.splitlines() if line}


def same_filesystem(a: Path, b: Path) -> bool:
    return a.stat().st_dev == b.stat().st_dev


def default_target(root: Path) -> str:
    for where in ("/etc/systemd/system/default.target", "/usr/lib/systemd/system/default.target",
                  "/lib/systemd/system/default.target"):
        link = in_root(root, where)
        if link.is_symlink():
            return Path(os.readlink(link)).name
    return ""


def display_manager(root: Path) -> str:
    """The desktop's login manager that takes the screen at boot (lightdm on Raspberry Pi OS with
    the desktop), or "" when none is installed (a Lite image, plain Debian)."""
    link = in_root(root, "/etc/systemd/system/display-manager.service")
    if not link.is_symlink():
        return ""
    return Path(os.readlink(link)).name.removesuffix(".service")


def desktop_autologin(root: Path) -> str:
    """The user LightDM logs in automatically (raspi-config's Desktop Autologin), or ""."""
    files = [in_root(root, "/etc/lightdm/lightdm.conf"),
             *sorted(in_root(root, "/etc/lightdm/lightdm.conf.d").glob("*.conf"))]
    user = ""
    for file in files:
        parser = configparser.ConfigParser(strict=False, interpolation=None)
        try:
            parser.read_string(file.read_text(encoding="utf-8"))
        except (OSError, configparser.Error):
            continue
        for section in parser.sections():
            if section.startswith("Seat") and parser.has_option(section, "autologin-user"):
                user = parser.get(section, "autologin-user").strip()
    return user


def systemctl(root: Path, runner: Runner, args: list[str],
               check: bool = False) -> subprocess.CompletedProcess[str]:
    argv = ["systemctl", *args] if is_live(root) else ["systemctl", f"--root={root}", *args]
    done = runner(argv)
    if check and done.returncode != 0:
        raise ApplianceError(f"`{shlex.join(argv)}` failed: {done.stderr.strip()}")
    return done


def run(runner: Runner, argv: list[str], report: Report, *, check: bool = False,
         quiet: bool = False) -> subprocess.CompletedProcess[str]:
    done = runner(argv)
    if not quiet:
        report.add(f"ran: {shlex.join(argv)}" + ("" if done.returncode == 0
                                                  else f" (exit {done.returncode})"))
    if check and done.returncode != 0:
        raise ApplianceError(f"`{shlex.join(argv)}` failed: {done.stderr.strip()}")
    return done


def default_user() -> str:
    """Who the table runs as: the user behind sudo, else the current one."""
    return os.environ.get("SUDO_USER") or pwd.getpwuid(os.getuid()).pw_name
