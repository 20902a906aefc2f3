"""The read-only root: overlayroot's RAM overlay (what ``--protect`` turns on from the next boot)
and raspi-config's own Overlay File System switch (which must stay off: it overlays the data
folder too)."""

from __future__ import annotations

import os
from pathlib import Path

from companion.appliance.mounts import MOUNTINFO, Mount, mount_of, parse_mountinfo, read_mountinfo
from companion.appliance.system import in_root

#: Where the Pi's kernel command line is (Bookworm and Trixie; older releases: /boot).
CMDLINE_FILES = ("/boot/firmware/cmdline.txt", "/boot/cmdline.txt")
#: The lower, real root while overlayroot's RAM overlay is on.
OVERLAY_LOWER = Path("/media/root-ro")


def overlay_active(root: Path = Path("/")) -> bool:
    """True when ``root`` is running under overlayroot's RAM overlay (read from its
    /proc/self/mountinfo: a temporary root in the tests holds a stand-in one)."""
    mounts = parse_mountinfo(read_mountinfo(in_root(root, MOUNTINFO)))
    real = Path(os.path.realpath(root))
    on = mount_of(real, [Mount(real / str(m.point).lstrip("/"), m.fstype, m.source)
                         for m in mounts]) if mounts else None
    return (on is not None and on.point == real and on.fstype == "overlay"
            and on.source == "overlayroot")  # not a container's own overlay root


def kernel_overlay(root: Path = Path("/")) -> str | None:
    """The value of ``overlayroot=`` on the Pi's kernel command line (what raspi-config's
    Overlay File System switch writes, e.g. ``tmpfs``), or None when it is not set there."""
    for name in CMDLINE_FILES:
        try:
            words = in_root(root, name).read_text(encoding="utf-8").split()
        except OSError:
            continue
        for word in words:
            if word.startswith("overlayroot="):
                value = word.split("=", 1)[1].strip('"')
                return value if value not in ("", "disabled") else None
        return None
    return None
