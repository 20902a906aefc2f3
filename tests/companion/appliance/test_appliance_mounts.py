"""Power-pull protection never journals into RAM: the data folder's mount, from stand-in
mountinfo texts as a Raspberry Pi would show them (overlayroot's RAM overlay on /, the USB stick
present or missing, raspi-config's own overlay on every filesystem)."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.appliance.mounts import (
    PROTECT_VAR,
    data_folder_problem,
    mount_of,
    parse_mountinfo,
)
from companion.startfiles import open_journal

# overlayroot with recurse=0: / is an overlay, the stick on /mnt/data is left as it is
OVERLAY_ROOT = """\
24 1 179:2 / /media/root-ro ro,relatime - ext4 /dev/mmcblk0p2 ro
25 1 0:30 / /media/root-rw rw,relatime - tmpfs tmpfs-root rw
26 0 0:31 / / rw,relatime - overlay overlayroot rw,lowerdir=/media/root-ro,upperdir=/media/root-rw
27 26 0:5 / /dev rw,nosuid - devtmpfs udev rw
"""
STICK = "40 26 8:1 / /mnt/data rw,noatime - ext4 /dev/sda1 rw\n"
# raspi-config's overlay (overlayroot=tmpfs on the kernel command line, recurse on): the stick
# too is a RAM overlay
STICK_OVERLAID = ("40 26 8:1 / /media/root-ro/mnt/data ro - ext4 /dev/sda1 ro\n"
                  "41 26 0:33 / /mnt/data rw - overlay overlayroot rw,lowerdir=/media/root-ro\n")
PLAIN_ROOT = "26 0 179:2 / / rw,relatime - ext4 /dev/mmcblk0p2 rw\n"
DATA = Path("/mnt/data")


def test_the_stick_mounted_under_an_overlay_root_is_safe() -> None:
    assert data_folder_problem(DATA / "data", DATA, OVERLAY_ROOT + STICK) is None


def test_a_missing_stick_under_the_overlay_puts_games_in_ram_and_is_refused() -> None:
    why = data_folder_problem(DATA / "data", DATA, OVERLAY_ROOT)
    assert why is not None
    assert why.startswith("Games are NOT being saved: the data folder /mnt/data/data is in RAM")
    assert "/mnt/data is not mounted" in why and "docs/raspberry-pi.md" in why


def test_raspi_configs_overlay_over_the_stick_is_named() -> None:
    why = data_folder_problem(DATA / "data", DATA, OVERLAY_ROOT + STICK_OVERLAID)
    assert why is not None and "in RAM (overlay)" in why
    assert "raspi-config's Overlay File System" in why


def test_a_missing_stick_without_the_overlay_is_refused_too() -> None:
    """Written on the card under /mnt/data, the games would be hidden when the stick is back."""
    why = data_folder_problem(DATA / "data", DATA, PLAIN_ROOT)
    assert why is not None and "/mnt/data, which is not mounted" in why


def test_without_protection_nothing_is_checked() -> None:
    assert data_folder_problem(DATA / "data", None, OVERLAY_ROOT) is None


def test_mountinfo_escapes_and_the_deepest_mount_win() -> None:
    stick = "41 26 8:1 / /media/pi/MY\\040STICK rw - vfat /dev/sda1 rw\n"
    mounts = parse_mountinfo(PLAIN_ROOT + stick + "garbage line\n")
    assert [str(m.point) for m in mounts] == ["/", "/media/pi/MY STICK"]
    on = mount_of(Path("/media/pi/MY STICK/data/journal.sqlite3"), mounts)
    assert on is not None and on.fstype == "vfat"


def test_the_app_opens_no_journal_file_in_an_unmounted_data_folder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Through the app's own start path: the stick's mount point is a plain folder here."""
    stick = tmp_path / "stick"
    stick.mkdir()
    monkeypatch.setenv(PROTECT_VAR, str(stick))
    journal, notices = open_journal(stick / "data" / "journal.sqlite3")
    try:
        assert not (stick / "data").exists()  # nothing written where it would be lost
        assert len(notices) == 1 and notices[0].startswith("Games are NOT being saved")
        assert str(stick) in notices[0]
    finally:
        journal.close()
