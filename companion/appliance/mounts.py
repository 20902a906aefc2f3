"""Is a folder safe for the journal under power-pull protection? (read from the mount table)

With ``companion appliance enable --protect DIR`` the root filesystem is a RAM overlay and the
journal, settings and profiles live on DIR, another filesystem (a data partition or a USB stick).
If DIR is not mounted when the app starts (a late or missing stick: the documented fstab line has
``nofail``), or raspi-config's own overlay put DIR under a RAM overlay too, every game written
there vanishes at power-off. :func:`data_folder_problem` says so, from the kernel's mount table
(``/proc/self/mountinfo``), so the app can refuse to journal there and tell the players why.

The appliance passes DIR to the app as ``COMPANION_PROTECT``; without it nothing is checked.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

PROTECT_VAR = "COMPANION_PROTECT"
MOUNTINFO = Path("/proc/self/mountinfo")
MOUNTINFO_VAR = "COMPANION_MOUNTINFO"
#: Filesystems whose contents are gone at power-off.
VOLATILE = frozenset({"overlay", "tmpfs", "ramfs"})


@dataclass(frozen=True)
class Mount:
    """One line of mountinfo: where, what kind, from what."""

    point: Path
    fstype: str
    source: str


def _unescape(field: str) -> str:
    """mountinfo writes space, tab, newline and backslash as octal escapes (\\040 ...)."""
    return re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), field)


def parse_mountinfo(text: str) -> list[Mount]:
    """The mounts of a mountinfo text (proc(5)), in order; malformed lines are skipped."""
    mounts = []
    for line in text.splitlines():
        before, sep, after = line.partition(" - ")
        fields, tail = before.split(), after.split()
        if not sep or len(fields) < 5 or len(tail) < 2:
            continue
        mounts.append(Mount(Path(_unescape(fields[4])), tail[0], _unescape(tail[1])))
    return mounts


def mount_of(path: Path, mounts: list[Mount]) -> Mount | None:
    """The mount ``path`` lies on (the last-mounted of the deepest mount points above it); a
    path that does not exist yet is placed by its folders."""
    real = Path(os.path.realpath(path))
    best: Mount | None = None
    for m in mounts:  # later lines are mounted over earlier ones at the same point
        above = real == m.point or m.point in real.parents
        if above and (best is None or len(m.point.parts) >= len(best.point.parts)):
            best = m
    return best


@dataclass(frozen=True)
class FstabEntry:
    """One line of /etc/fstab: what is mounted (``LABEL=table``, ``UUID=...``, ``/dev/sda1``),
    where, as what, with which options."""

    source: str
    point: Path
    fstype: str
    options: tuple[str, ...]

    @property
    def device(self) -> Path | None:
        """The device node udev makes for ``source`` (``LABEL=table`` ->
        /dev/disk/by-label/table), or None when it is not a block device (a network share)."""
        tag, sep, value = self.source.partition("=")
        links = {"LABEL": "by-label", "UUID": "by-uuid", "PARTUUID": "by-partuuid",
                 "PARTLABEL": "by-partlabel"}
        if sep and tag in links and value:
            return Path("/dev/disk") / links[tag] / value.strip('"')
        return Path(self.source) if self.source.startswith("/dev/") else None

    def describe(self) -> str:
        """The stick in words for the players: 'the USB stick labelled "table"'."""
        tag, _sep, value = self.source.partition("=")
        if tag == "LABEL":
            return f'the USB stick labelled "{value.strip(chr(34))}"'
        return f"the USB stick or partition {self.source}"


def fstab_entry(point: Path, text: str) -> FstabEntry | None:
    """The line of an fstab text (fstab(5)) that mounts ``point``; None when there is none."""
    for line in text.splitlines():
        fields = line.split()
        if len(fields) < 3 or fields[0].startswith("#"):
            continue
        where = Path(_unescape(fields[1]))
        if where == point:
            options = tuple(fields[3].split(",")) if len(fields) > 3 else ()
            return FstabEntry(_unescape(fields[0]), where, fields[2], options)
    return None


def read_mountinfo(file: Path | None = None) -> str:
    """The kernel's mount table (``COMPANION_MOUNTINFO`` names a stand-in file for tests, whose
    lines the test changes to plug a stick in); "" when it cannot be read."""
    if file is None:
        file = Path(os.environ.get(MOUNTINFO_VAR) or MOUNTINFO)
    try:
        return file.read_text(encoding="utf-8")
    except OSError:
        return ""


def data_folder_problem(folder: Path, protect: Path | None,
                        mountinfo: str | None = None) -> str | None:
    """Why ``folder`` must not hold the journal under power-pull protection of ``protect``
    (the data mount point), in words for the players; None when it is safe, or when protection
    is off (``protect`` None). ``mountinfo`` stands in for /proc/self/mountinfo in tests."""
    if protect is None:
        return None
    mounts = parse_mountinfo(read_mountinfo() if mountinfo is None else mountinfo)
    if not mounts:
        return None  # no mount table to read (not Linux): nothing to say
    where = mount_of(folder, mounts)
    data = mount_of(protect, mounts)
    if where is not None and where.fstype in VOLATILE:
        if data is not None and data.point == Path(os.path.realpath(protect)):
            how = (f"{protect} is mounted, but under a RAM {where.fstype} ({where.source}): "
                   "raspi-config's Overlay File System is probably on as well; turn it off "
                   "there (the companion's protection keeps the data folder writable)")
        else:
            how = (f"{protect} is not mounted (is the USB stick or data partition plugged in "
                   "and in /etc/fstab?)")
        return (f"Games are NOT being saved: the data folder {folder} is in RAM "
                f"({where.fstype}) and would be lost at power-off. {how}. "
                "Fix it, then restart the companion (docs/raspberry-pi.md, 'Power-pull "
                "protection').")
    if data is None or data.point != Path(os.path.realpath(protect)):
        return (f"Games are NOT being saved: power-pull protection keeps them on {protect}, "
                f"which is not mounted, so the data folder {folder} would be on the system's "
                "card and hidden once the stick is back. Plug in the USB stick or data "
                "partition, then restart the companion (docs/raspberry-pi.md, 'Power-pull "
                "protection').")
    return None


def protect_dir() -> Path | None:
    """The data mount point the appliance protects (``COMPANION_PROTECT``), or None."""
    value = os.environ.get(PROTECT_VAR, "").strip()
    return Path(value) if value else None
