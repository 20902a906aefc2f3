"""Temporary Raspberry Pi OS roots for the `companion appliance` tests, never this machine's /etc.

A root holds what the steps look at on a Pi: /etc/passwd and /etc/group, systemd's own units
(copied from this machine, for `systemd-analyze verify` and the offline `systemctl --root`), the
user's home with the companion's clone and its venv, dpkg's database, and with the desktop labwc,
lwrespawn and LightDM (the display manager that takes the screen at boot).

Commands that would change this machine (apt, update-initramfs, mount) go to stand-ins: the
:class:`Recorder` notes them; :class:`StandInApt` plays apt and dpkg on the root's own
database, as Debian's apt does for overlayroot (the packages and groups it brings, and apt's
simulation of a purge), so `enable` and `disable` can be run as on the running Pi.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from companion.appliance import UNIT, Options

SYSTEM_UNITS = Path("/usr/lib/systemd/system")
needs_systemd = pytest.mark.skipif(
    not (SYSTEM_UNITS / "multi-user.target").exists() or shutil.which("systemctl") is None
    or shutil.which("systemd-analyze") is None,
    reason="systemd's tools and units are needed (./test.sh installs the systemd package)")

CARDS = """\
 0 [vc4hdmi0       ]: vc4-hdmi - vc4-hdmi-0
                      vc4-hdmi-0
 1 [Device         ]: USB-Audio - USB Audio Device
                      C-Media USB Audio Device at usb-xhci-hcd.0-1, full speed
"""
USER_AUTOSTART = """\
/usr/bin/kanshi &
swayidle -w timeout 600 'wlopm --off \\*' resume 'wlopm --on \\*' &
"""
#: The data stick's line of docs/raspberry-pi.md (power-pull protection, step 2).
STICK_FSTAB = "LABEL=table /mnt/table ext4 defaults,noatime,nofail 0 2\n"
BASE_PACKAGES = {"base-files": "12.4", "systemd": "252.38-1", "sudo": "1.9.13", "python3": "3.11.2"}


def dpkg_status(packages: dict[str, str]) -> str:
    return "".join(f"Package: {name}\nStatus: install ok installed\nVersion: {version}\n\n"
                   for name, version in sorted(packages.items()))


def make_root(root: Path, *, desktop: bool, autostart: str | None = None,
              fstab: str = "") -> Path:
    (root / "etc/systemd/system").mkdir(parents=True)
    (root / "etc/passwd").write_text("root:x:0:0:root:/root:/bin/bash\n"
                                     "pi:x:1000:1000:,,,:/home/pi:/bin/bash\n")
    (root / "etc/group").write_text("root:x:0:\nvideo:x:44:pi\ninput:x:105:pi\naudio:x:29:pi\n"
                                    "gpio:x:993:pi\npi:x:1000:\n")
    (root / "etc/fstab").write_text("proc /proc proc defaults 0 0\n" + fstab)
    (root / "var/lib/dpkg").mkdir(parents=True)
    (root / "var/lib/dpkg/status").write_text(dpkg_status(BASE_PACKAGES))
    (root / "usr/lib/systemd").mkdir(parents=True)
    shutil.copytree(SYSTEM_UNITS, root / "usr/lib/systemd/system", symlinks=True)
    (root / "etc/systemd/system/default.target").symlink_to(
        "/usr/lib/systemd/system/graphical.target")
    (root / "usr/lib/python3/dist-packages").mkdir(parents=True)
    (root / "usr/lib/python3/dist-packages/lgpio.py").write_text("")
    exe = root / "home/pi/companion/.venv/bin/companion"
    exe.parent.mkdir(parents=True)
    exe.write_text("#!/bin/sh\n")
    exe.chmod(0o755)
    if desktop:
        for tool in ("labwc", "lwrespawn"):
            (root / "usr/bin").mkdir(parents=True, exist_ok=True)
            (root / "usr/bin" / tool).write_text("#!/bin/sh\n")
        # Raspberry Pi OS with the desktop: LightDM takes the screen at boot
        (root / "etc/systemd/system/display-manager.service").symlink_to(
            "/usr/lib/systemd/system/lightdm.service")
    if autostart is not None:
        (root / "home/pi/.config/labwc").mkdir(parents=True)
        (root / "home/pi/.config/labwc/autostart").write_text(autostart)
    return root


def snapshot(root: Path) -> dict[str, str]:
    """Every path under root with its kind and content (files hashed, links' targets)."""
    out = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            p = Path(dirpath) / name
            rel = str(p.relative_to(root))
            if p.is_symlink():
                out[rel] = "-> " + os.readlink(p)
            elif p.is_dir():
                out[rel] = f"dir {p.stat().st_mode:o}"
            else:
                out[rel] = hashlib.sha256(p.read_bytes()).hexdigest()
    return out


def opts(root: Path, **kw: object) -> Options:
    base: dict[str, object] = dict(user="pi", repo=Path("/home/pi/companion"),
                                   venv=Path("/home/pi/companion/.venv"), root=root,
                                   sound_cards=CARDS)
    base.update(kw)
    return Options(**base)  # type: ignore[arg-type]


def is_enabled(root: Path) -> str:
    return subprocess.run(["systemctl", f"--root={root}", "is-enabled", UNIT], text=True,
                          capture_output=True).stdout.strip()


def installed(root: Path) -> dict[str, str]:
    """The packages dpkg has installed in root, with their versions (read here from dpkg's
    database, not through the code under test)."""
    text = (root / "var/lib/dpkg/status").read_text()
    found = {}
    for para in text.split("\n\n"):
        fields = dict(ln.split(": ", 1) for ln in para.splitlines() if ": " in ln)
        if fields.get("Status") == "install ok installed":
            found[fields["Package"]] = fields.get("Version", "")
    return found


packages = installed


def stick_root(base: Path, tmp_path: Path, *, desktop: bool = False,
               autostart: str | None = None) -> Path:
    """A root (on ``base``, another filesystem than ``tmp_path``) whose /mnt/table is the data
    stick (a folder of ``tmp_path``) with its line in /etc/fstab."""
    root = make_root(base / "root", desktop=desktop, autostart=autostart, fstab=STICK_FSTAB)
    (tmp_path / "stick").mkdir()
    (root / "mnt").mkdir()
    (root / "mnt/table").symlink_to(tmp_path / "stick")
    return root


# -- power-pull protection: the mount table, the commands of the running Pi -------------------
OVERLAY_MOUNTINFO = """\
24 1 179:2 / /media/root-ro ro,relatime - ext4 /dev/mmcblk0p2 ro
25 1 0:30 / /media/root-rw rw,relatime - tmpfs tmpfs-root rw
26 0 0:31 / / rw,relatime - overlay overlayroot rw,lowerdir=/media/root-ro
"""


def with_mountinfo(root: Path, text: str) -> Path:
    """A stand-in /proc/self/mountinfo inside a temporary root (what the kernel would show)."""
    (root / "proc/self").mkdir(parents=True, exist_ok=True)
    (root / "proc/self/mountinfo").write_text(text)
    return root


class Recorder:
    """Runs systemctl (offline, --root) for real; records every other command and says it
    worked (mount, apt-get, update-initramfs must not touch this machine)."""

    def __init__(self) -> None:
        self.ran: list[list[str]] = []

    def __call__(self, argv: object) -> subprocess.CompletedProcess[str]:
        args = [str(a) for a in argv]  # type: ignore[attr-defined]
        if args[0] == "systemctl" and any(a.startswith("--root=") for a in args):
            return subprocess.run(args, text=True, capture_output=True, check=False)
        self.ran.append(args)
        return subprocess.CompletedProcess(args, 0, "", "")


class Running(Recorder):
    """What systemctl says on the running Pi (stand-in answers to `systemctl show`)."""

    def __init__(self, service: str, watchdog: str = "14s") -> None:
        super().__init__()
        self.service, self.watchdog = service, watchdog

    def __call__(self, argv: object) -> subprocess.CompletedProcess[str]:
        args = [str(a) for a in argv]  # type: ignore[attr-defined]
        if args[:1] == ["systemctl"] and "show" in args:
            self.ran.append(args)
            out = (f"RuntimeWatchdogUSec={self.watchdog}\n" if "RuntimeWatchdogUSec" in args
                   else self.service)
            return subprocess.CompletedProcess(args, 0, out, "")
        return super().__call__(args)


def problems(report_lines: list[str]) -> list[str]:
    return [ln.strip() for ln in report_lines if ln.strip().startswith("PROBLEM")]


# A few of what `apt-get install --no-install-recommends overlayroot` brings to a plain Debian
# 12 arm64 root (there: 18 packages, from cpio and kmod to udev and cryptsetup, with
# /etc/crypttab and the groups input, sgx, kvm and render that udev's install adds; seen in
# scripts/pi-check.sh's root, where the real round trip is checked), kept to their shape:
# dependencies, files written, a group added.
ARCHIVE: dict[str, tuple[str, tuple[str, ...], tuple[str, ...], tuple[str, ...]]] = {
    "overlayroot": ("0.48", ("initramfs-tools", "cryptsetup-bin"),
                    ("/etc/overlayroot.conf",), ()),
    "initramfs-tools": ("0.142", ("initramfs-tools-core", "busybox"),
                        ("/etc/initramfs-tools/initramfs.conf", "/usr/sbin/update-initramfs"),
                        ()),
    "initramfs-tools-core": ("0.142", ("busybox",), (), ()),
    "busybox": ("1.35.0", (), (), ()),
    "cryptsetup-bin": ("2.6.1", (), (), ()),
    "mdadm": ("4.2", ("cryptsetup-bin",), (), ()),  # installed later by the user, in a test
}
#: A group an install adds (a stand-in for Debian packages that make system groups).
ADDED_GROUP = {"cryptsetup-bin": "crypt-admins"}
#: A file an install script makes, which the package's purge leaves (cryptsetup's crypttab).
MADE_BY_SCRIPT = {"cryptsetup-bin": "/etc/crypttab"}


class StandInApt(Recorder):
    """apt and dpkg on the root's own database: install (with dependencies), the simulation of a
    purge (what would go: the packages and all that depend on them), purge, groupdel."""

    def __init__(self, root: Path) -> None:
        super().__init__()
        self.root = root

    def _status(self) -> dict[str, str]:
        return installed(self.root)

    def _write(self, have: dict[str, str]) -> None:
        (self.root / "var/lib/dpkg/status").write_text(dpkg_status(have))

    def _needing(self, names: set[str], have: dict[str, str]) -> set[str]:
        gone = set(names) & set(have)
        while True:
            more = {p for p in have if p not in gone and p in ARCHIVE
                    and gone & set(ARCHIVE[p][1])}
            if not more:
                return gone
            gone |= more

    def __call__(self, argv: object) -> subprocess.CompletedProcess[str]:
        args = [str(a) for a in argv]  # type: ignore[attr-defined]
        have = self._status()
        out = ""
        if args[:2] == ["apt-get", "install"]:
            todo = [a for a in args[2:] if not a.startswith("-")]
            while todo:
                name = todo.pop()
                if name in have:
                    continue
                version, depends, files, _groups = ARCHIVE[name]
                have[name] = version
                todo += depends
                for file in files:
                    (self.root / file.lstrip("/")).parent.mkdir(parents=True, exist_ok=True)
                    (self.root / file.lstrip("/")).write_text(f"# {name}\n")
                if name in ADDED_GROUP:
                    with open(self.root / "etc/group", "a") as f:
                        f.write(f"{ADDED_GROUP[name]}:x:990:\n")
                if name in MADE_BY_SCRIPT:
                    (self.root / MADE_BY_SCRIPT[name].lstrip("/")).write_text(
                        "# <target name> <source device> <key file> <options>\n")
            self._write(have)
        elif args[:3] == ["apt-get", "-s", "purge"]:
            out = "".join(f"Purg {p} [{have[p]}]\n"
                          for p in sorted(self._needing(set(args[3:]), have)))
        elif args[:2] == ["apt-get", "purge"]:
            for name in self._needing({a for a in args[2:] if not a.startswith("-")}, have):
                del have[name]
                for file in ARCHIVE[name][2]:
                    (self.root / file.lstrip("/")).unlink()
                    folder = (self.root / file.lstrip("/")).parent
                    if not any(folder.iterdir()):
                        folder.rmdir()
            self._write(have)
        elif args[0] == "groupdel":
            group = self.root / "etc/group"
            group.write_text("".join(ln + "\n" for ln in group.read_text().splitlines()
                                     if not ln.startswith(args[1] + ":")))
        elif args[0] == "dpkg-query":
            out = "install ok installed" if args[-1] in have else ""
        else:
            return super().__call__(args)
        self.ran.append(args)
        return subprocess.CompletedProcess(args, 0, out, "")

    def install_later(self, name: str) -> None:
        """The user installs a package after `enable` (apt-get install, as they would)."""
        self(["apt-get", "install", "-y", name])


def apt_lines(ran: list[list[str]]) -> list[str]:
    return [" ".join(a) for a in ran if a[0] in ("apt-get", "groupdel", "update-initramfs")
            and not re.match(r"apt-get -s ", " ".join(a))]
