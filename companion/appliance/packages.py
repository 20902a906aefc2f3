"""System packages: what dpkg has installed (read from its own database, never by asking apt),
the stamp ``./start.sh`` leaves of the Pi's optional packages it looked for, and what apt
installed for ``enable --protect``, recorded so that ``disable`` removes exactly that.

``apt-get install overlayroot`` brings what overlayroot needs along (on plain Debian:
initramfs-tools, busybox, cryptsetup's tools and more), and may add system groups. ``enable``
compares dpkg's database and ``/etc/group`` before and after, and records every package and group
that came. ``disable`` purges those packages, each only when apt's own simulation shows that
nothing else installed since needs it (such a package stays, and ``disable`` says which and
why), and deletes the groups that came with them once no package that stays owns them.
"""

from __future__ import annotations

import hashlib
import re
import shlex
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.appliance.system import (
    ApplianceError,
    Report,
    Runner,
    group_names,
    in_root,
    run,
)

DPKG_STATUS = "/var/lib/dpkg/status"
#: The stamp scripts/bootstrap.sh writes in the clone (``.tools/system-packages``).
STAMP = Path(".tools") / "system-packages"
#: The Pi's packages ``./start.sh`` installs where apt has them, and what their absence means.
OPTIONAL = {
    "python3-picamera2": "the Pi camera module cannot be used; a USB webcam "
                         "(COMPANION_CAMERA=opencv:0) and the synthetic stand-in still work",
    "python3-lgpio": "a Pi 5 needs it for GPIO buttons; a Pi 4 falls back to gpiozero's own "
                     "pin access",
}


def installed(root: Path = Path("/")) -> dict[str, str]:
    """Every package dpkg has installed in ``root``, with its version, from dpkg's status
    database ({} when there is none: not a Debian system)."""
    try:
        text = in_root(root, DPKG_STATUS).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return {}
    found: dict[str, str] = {}
    for para in text.split("\n\n"):
        fields = dict(ln.split(": ", 1) for ln in para.splitlines() if ": " in ln)
        if fields.get("Status", "").strip() == "install ok installed" and "Package" in fields:
            found[fields["Package"].strip()] = fields.get("Version", "").strip()
    return found


@dataclass(frozen=True)
class Stamp:
    """What ``./start.sh`` found when it last looked in apt (scripts/bootstrap.sh)."""

    release: str
    looked: str
    not_in_archive: tuple[str, ...]
    not_looked_for: tuple[str, ...]

    @classmethod
    def read(cls, path: Path) -> Stamp | None:
        """The stamp at ``path``; None when there is none (./start.sh never ran) or it cannot
        be read."""
        try:
            lines = path.read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError):
            return None
        values = dict(ln.split("=", 1) for ln in lines if "=" in ln and not ln.startswith("#"))
        return cls(values.get("release", ""), values.get("looked", ""),
                   tuple(values.get("not_in_archive", "").split()),
                   tuple(values.get("not_looked_for", "").split()))


@dataclass(frozen=True)
class MissingPackage:
    """An optional package the Pi does not have, and why ./start.sh did not install it."""

    name: str
    cause: str
    means: str
    fix: str


def missing_optional(stamp: Stamp | None, have: Iterable[str]) -> list[MissingPackage]:
    """The Pi's optional packages the stamp says ./start.sh could not install and dpkg still
    does not have (installed by hand since: not missing)."""
    if stamp is None:
        return []
    present = set(have)
    out = []
    for name, cause in [*((n, "not_in_archive") for n in stamp.not_in_archive),
                        *((n, "not_looked_for") for n in stamp.not_looked_for)]:
        if name in present:
            continue
        if cause == "not_in_archive":
            why = (f"not installed: this system's apt archive did not have it when ./start.sh "
                   f"looked ({stamp.looked}); Raspberry Pi OS's archive has it")
            fix = (f"on Raspberry Pi OS: sudo apt install {name}; elsewhere it cannot be had, "
                   "and the companion works without it")
        else:
            why = (f"not installed: there was no network when ./start.sh looked for it "
                   f"({stamp.looked}), and a start never waits on the network again")
            fix = f"with a network: sudo apt install {name}"
        out.append(MissingPackage(name, why, OPTIONAL.get(name, ""), fix))
    return out


# -- enable --protect: what apt installs, and taking exactly that back --------------------------
def passwd_names(root: Path) -> set[str]:
    try:
        text = in_root(root, "/etc/passwd").read_text(encoding="utf-8")
    except OSError:
        return set()
    return {line.split(":", 1)[0] for line in text.splitlines() if line}


def etc_files(root: Path) -> dict[str, str]:
    """Every file under ``root``/etc with its content's hash (what package scripts write
    besides their own files: /etc/crypttab, say)."""
    etc = in_root(root, "/etc")
    found = {}
    for path in sorted(etc.rglob("*")):
        if path.is_file() and not path.is_symlink():
            try:
                found["/" + str(path.relative_to(root))] = _hash(path)
            except OSError:
                continue
    return found


def _hash(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def apt_install(root: Path, runner: Runner, package: str, report: Report) -> dict[str, Any]:
    """``apt-get install`` ``package`` on the running system; returns the manifest's record of
    what came with it: the packages (``added``), the versions apt changed of packages already
    there (``upgraded``: kept by disable, said), the system groups and users, and the files
    their install scripts made in /etc (with their hashes, so disable removes only those
    nobody changed since).

    Raised when ...: ApplianceError when apt fails (with apt's words)."""
    before = installed(root)
    groups, users, files = group_names(root), passwd_names(root), etc_files(root)
    run(runner, ["apt-get", "install", "-y", "--no-install-recommends", package], report,
        check=True)
    after = installed(root)
    now = etc_files(root)
    return {"op": "apt", "package": package,
            "added": sorted(set(after) - set(before)),
            "upgraded": sorted(f"{p} {before[p]} -> {after[p]}" for p in set(before) & set(after)
                               if before[p] != after[p]),
            "groups": sorted(group_names(root) - groups),
            "users": sorted(passwd_names(root) - users),
            "files": {f: h for f, h in now.items() if f not in files}}


def removed_by(runner: Runner, packages: list[str]) -> set[str]:
    """What ``apt-get purge`` of ``packages`` would remove, by apt's own simulation (``-s``):
    the packages themselves and every package that needs one of them.

    Raised when ...: ApplianceError when apt cannot simulate it."""
    argv = ["apt-get", "-s", "purge", *packages]
    done = runner(argv)
    if done.returncode != 0:
        raise ApplianceError(f"`{shlex.join(argv)}` failed: {done.stderr.strip()}")
    return set(re.findall(r"^(?:Purg|Remv) (\S+)", done.stdout, re.MULTILINE))


def apt_purge(root: Path, runner: Runner, op: dict[str, Any], report: Report) -> list[str]:
    """Take back one ``apt`` record of the manifest on the running system: purge the packages
    it added that are still there and that nothing installed since needs, delete the groups and
    users that came with them; returns what stays, each in words (empty: all of it went)."""
    added: list[str] = list(op.get("added") or [op["package"]])  # an older manifest: one
    have = installed(root)
    still = [p for p in added if p in have]
    stays = []
    removable = []
    if still and removed_by(runner, still) <= set(still):
        removable = still  # nothing else needs any of them (one simulation: the usual case)
    else:
        for package in still:
            extra = sorted(removed_by(runner, [package]) - set(still))
            if extra:
                stays.append(f"{package} stays installed: {', '.join(extra)}, installed since "
                             f"`enable`, needs it")
            else:
                removable.append(package)
    if removable:
        run(runner, ["apt-get", "purge", "-y", *removable], report, check=True)
    for kind, where, command in (("users", "/etc/passwd", "userdel"),
                                 ("groups", "/etc/group", "groupdel")):
        now = passwd_names(root) if kind == "users" else group_names(root)
        for entry in op.get(kind) or []:
            if entry not in now:
                continue
            if removable != still:  # a package that stays may own files as this user or group
                stays.append(f"the system {kind[:-1]} {entry!r} (in {where}) stays: it came "
                             "with the packages above")
            else:
                run(runner, [command, entry], report, check=True)
    for name, digest in sorted((op.get("files") or {}).items()):
        made = in_root(root, name)
        if not made.is_file():
            continue  # the purge took it: a file of a package
        if removable != still:
            stays.append(f"{name} stays: it came with the packages above")
        elif _hash(made) != digest:
            stays.append(f"{name} stays: it came with {op['package']}'s packages, and was "
                         "changed since")
        else:
            made.unlink()
            report.add(f"removed {name} (made by the packages' install, left by their purge)")
    for line in op.get("upgraded") or []:
        stays.append(f"{line.split()[0]} stays at the version apt moved it to for "
                     f"{op['package']} ({line.split(' ', 1)[1]})")
    if in_root(root, "/usr/sbin/update-initramfs").exists():
        run(runner, ["update-initramfs", "-u"], report, check=True)
    return stays
