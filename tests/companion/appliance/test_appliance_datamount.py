"""A data stick that comes late or not at all (issue 45, items 1 and 2), without Kivy.

- The console service no longer requires the stick's mount (it failed with "Dependency failed"
  after systemd's 90 s and left the login prompt on the screen): the app starts and waits on the
  screen. A drop-in has the stick mounted whenever it is plugged in, also after the boot; both
  are checked with systemd's own offline tools (the fstab generator, `systemd-analyze verify`).
- The waiting screen's model (companion.appliance.datamount): the countdown, what to do when
  the stick does not come, the stick's arrival, raspi-config's overlay, against a manual clock
  and stand-in mount tables.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from appliance_roots import (
    STICK_FSTAB,
    Running,
    make_root,
    needs_systemd,
    opts,
    problems,
    snapshot,
    stick_root,
    with_mountinfo,
)

from companion.appliance import UNIT_PATH, check_unit, disable, enable, status
from companion.appliance.datamount import (
    AFTER_WAIT_VAR,
    WAIT_S,
    DataWait,
    Phase,
    after_wait_notice,
    clock_text,
)

HOTPLUG = "etc/systemd/system/dev-disk-by\\x2dlabel-table.device.d/table-companion-hotplug.conf"
GENERATOR = Path("/usr/lib/systemd/system-generators/systemd-fstab-generator")
SYSTEM_ROOT = "26 0 179:2 / / rw,relatime - ext4 /dev/mmcblk0p2 rw\n"
OVERLAY_ROOT = ("24 1 179:2 / /media/root-ro ro - ext4 /dev/mmcblk0p2 ro\n"
                "26 0 0:31 / / rw - overlay overlayroot rw,lowerdir=/media/root-ro\n")
STICK = "40 26 8:1 / /mnt/table rw,noatime - ext4 /dev/sda1 rw\n"
# raspi-config's overlay over every filesystem: the stick too is under a RAM overlay
STICK_OVERLAID = ("40 26 8:1 / /media/root-ro/mnt/table ro - ext4 /dev/sda1 ro\n"
                  "41 26 0:33 / /mnt/table rw - overlay overlayroot rw,lowerdir=/media/root-ro\n")


# -- item 2: the console service and the stick's mount --------------------------------------
@needs_systemd
def test_the_console_service_starts_without_the_stick_and_a_late_stick_is_mounted(
        tmp_path: Path, other_filesystem: Path) -> None:
    root = stick_root(other_filesystem, tmp_path)
    before = snapshot(root)
    enable(opts(root, protect=Path("/mnt/table")))
    unit = (root / UNIT_PATH.lstrip("/")).read_text().splitlines()
    # nothing ties the service to the mount: it starts, and the app shows the wait
    assert not [ln for ln in unit if ln.startswith(("RequiresMountsFor", "Requires=", "BindsTo",
                                                    "After=mnt", "Wants=mnt"))]
    assert "Environment=COMPANION_PROTECT=/mnt/table" in unit  # the app checks the mount
    assert "Environment=COMPANION_LOG_DIR=/mnt/table/logs" in unit
    assert check_unit(root) == ""
    # the hotplug drop-in, in the stick's device unit as systemd names it
    assert (root / HOTPLUG).read_text().splitlines()[-2:] == ["[Unit]", "Wants=mnt-table.mount"]
    disable(root)
    assert snapshot(root) == before


@needs_systemd
@pytest.mark.skipif(not GENERATOR.exists(), reason="systemd's fstab generator is needed")
def test_systemd_itself_reads_the_drop_in_with_the_sticks_fstab_line(
        tmp_path: Path, other_filesystem: Path) -> None:
    """The documented fstab line through systemd's own fstab generator, and the device unit
    loaded by `systemd-analyze verify` from the root: it wants the generated mount unit."""
    root = stick_root(other_filesystem, tmp_path)
    enable(opts(root, protect=Path("/mnt/table")))
    generated = root / "run/systemd/generator"
    for sub in ("", ".early", ".late"):
        Path(f"{generated}{sub}").mkdir(parents=True, exist_ok=True)
    done = subprocess.run([str(GENERATOR), str(generated), f"{generated}.early",
                           f"{generated}.late"], text=True, capture_output=True,
                          env={**os.environ, "SYSTEMD_FSTAB": str(root / "etc/fstab"),
                               "SYSTEMD_PROC_CMDLINE": ""}, check=False)
    assert done.returncode == 0, done.stderr
    assert (generated / "local-fs.target.wants/mnt-table.mount").exists()  # at boot, as before
    device = "dev-disk-by\\x2dlabel-table.device"
    verify = subprocess.run(
        ["systemd-analyze", "verify", "--man=no", f"--root={root}", device, "mnt-table.mount"],
        text=True, capture_output=True, check=False,
        env={**os.environ, "SYSTEMD_UNIT_PATH": "/run/systemd/generator:",
             "SYSTEMD_LOG_LEVEL": "debug"})
    assert verify.returncode == 0, verify.stderr[-2000:]
    dump = verify.stdout + verify.stderr
    unit_of = {}
    for block in dump.split("-> Unit ")[1:]:
        name, _sep, body = block.partition(":\n")
        unit_of[name] = body
    assert "Wants: mnt-table.mount" in unit_of[device]
    assert f"DropIn Path: {root}/{HOTPLUG.rsplit('/', 1)[0]}" in unit_of[device]
    assert "What: /dev/disk/by-label/table" in unit_of["mnt-table.mount"]
    assert "Where: /mnt/table" in unit_of["mnt-table.mount"]


@needs_systemd
def test_a_stick_without_an_fstab_line_is_warned_of_and_reported(
        tmp_path: Path, other_filesystem: Path) -> None:
    root = make_root(other_filesystem / "root", desktop=False)  # no line for /mnt/table
    (tmp_path / "stick").mkdir()
    (root / "mnt").mkdir()
    (root / "mnt/table").symlink_to(tmp_path / "stick")
    report = enable(opts(root, protect=Path("/mnt/table")))
    assert ("warning: /mnt/table is not in /etc/fstab, so nothing mounts it at boot and the "
            "companion would wait for it: add its line (docs/raspberry-pi.md, 'Power-pull "
            "protection', step 2)") in report.lines
    assert not (root / HOTPLUG).exists()
    lines = status(root).lines
    assert ("PROBLEM /etc/fstab has no line for /mnt/table: nothing mounts it at boot "
            "(docs/raspberry-pi.md, 'Power-pull protection', step 2)") in problems(lines)
    disable(root)


@needs_systemd
def test_status_names_the_sticks_fstab_line(tmp_path: Path, other_filesystem: Path) -> None:
    root = stick_root(other_filesystem, tmp_path)
    enable(opts(root, protect=Path("/mnt/table")))
    with_mountinfo(root, OVERLAY_ROOT)
    fine = Running("ActiveState=active\nSubState=running\nNRestarts=0\nResult=success\n")
    lines = status(root, fine, running=True).lines
    assert "  ok      /etc/fstab: LABEL=table on /mnt/table" in lines
    assert f"  ok      /{HOTPLUG}" in lines
    shutil.rmtree(root / "proc")  # the stand-in mount table: not under the overlay any more
    disable(root)


def test_the_fstab_line_of_the_guide_is_read_as_systemd_reads_it() -> None:
    from companion.appliance.mounts import fstab_entry

    entry = fstab_entry(Path("/mnt/table"), "# a comment\n" + STICK_FSTAB)
    assert entry is not None and entry.source == "LABEL=table" and "nofail" in entry.options
    assert entry.device == Path("/dev/disk/by-label/table")
    assert entry.describe() == 'the USB stick labelled "table"'
    assert fstab_entry(Path("/mnt/other"), STICK_FSTAB) is None
    uuid = fstab_entry(Path("/media/pi/MY STICK"), "UUID=1234-ABCD /media/pi/MY\\040STICK "
                                                   "vfat defaults,nofail 0 0\n")
    assert uuid is not None and uuid.device == Path("/dev/disk/by-uuid/1234-ABCD")


@pytest.mark.skipif(shutil.which("systemd-escape") is None, reason="systemd-escape is needed")
def test_unit_names_are_systemds_own() -> None:
    from companion.appliance.files import unit_name

    assert unit_name(Path("/media/pi/MY STICK"), "mount") == "media-pi-MY\\x20STICK.mount"
    assert unit_name(Path("/dev/disk/by-uuid/1234-ABCD"), "device") == (
        "dev-disk-by\\x2duuid-1234\\x2dABCD.device")


# -- item 1: the waiting screen's model ------------------------------------------------------
class Table:
    """A manual clock and a mount table the test changes."""

    def __init__(self, mountinfo: str = SYSTEM_ROOT) -> None:
        self.now = 1000.0
        self.mountinfo = mountinfo

    def wait(self, fstab: str = STICK_FSTAB) -> DataWait:
        return DataWait(Path("/mnt/table"), Path("/mnt/table/data"), clock=lambda: self.now,
                        mountinfo=lambda: self.mountinfo, fstab=fstab)


def test_the_countdown_then_the_stick_plugged_in() -> None:
    table = Table()
    wait = table.wait()
    view = wait.look()
    assert view.phase is Phase.WAITING and view.countdown == clock_text(WAIT_S) == "1:30"
    assert view.title == "Waiting for the data stick" and not view.may_play_unsaved
    assert view.lines[0].startswith('The games, settings and profiles of this table are kept '
                                    'on the USB stick labelled "table" (/mnt/table), which is '
                                    'not mounted yet.')
    table.now += 62.5
    assert wait.look().countdown == "0:28"
    table.mountinfo += STICK  # plugged in: fstab's line mounts it
    view = wait.look()
    assert view.phase is Phase.HERE
    assert view.lines == ('The USB stick labelled "table" (/mnt/table) is mounted after 1:03: '
                          'the companion starts, and saves every game on it.',)


def test_a_stick_that_does_not_come_gets_steps_and_the_way_to_play_unsaved() -> None:
    table = Table()
    wait = table.wait()
    table.now += WAIT_S + 5
    view = wait.look()
    assert view.phase is Phase.NOT_COME and view.countdown == "" and view.may_play_unsaved
    assert view.title == "The data stick has not come"
    assert view.lines[1] == ('1. Plug the USB stick labelled "table" into the Pi (any USB port). '
                             'It is mounted as soon as it is in, and the companion starts by '
                             'itself: this screen keeps watching.')
    assert view.lines[2].startswith("2. Plugged in, and still nothing after a minute? Over SSH: "
                                    "sudo /") and "appliance status" in view.lines[2]
    assert view.lines[-1] == ("More in docs/raspberry-pi.md, 'When the data stick is late or "
                              "missing'.")
    table.mountinfo += STICK  # still watching: plugged in an hour later
    table.now += 3600
    assert wait.look().phase is Phase.HERE


def test_no_fstab_line_says_to_add_it() -> None:
    table = Table()
    wait = table.wait(fstab="")
    table.now += WAIT_S
    assert wait.look().lines[1].startswith("1. /mnt/table has no line in /etc/fstab, so nothing "
                                           "mounts it.")


def test_raspi_configs_overlay_over_the_stick_is_not_waited_for() -> None:
    table = Table(OVERLAY_ROOT + STICK_OVERLAID)
    view = table.wait().look()
    assert view.phase is Phase.IN_RAM and view.may_play_unsaved
    assert "raspi-config's Overlay File System" in view.lines[0]
    assert view.lines[1].startswith("Waiting will not help")


def test_under_the_overlay_a_missing_stick_is_waited_for_and_a_present_one_is_here() -> None:
    table = Table(OVERLAY_ROOT)
    wait = table.wait()
    assert wait.look().phase is Phase.WAITING
    table.mountinfo += STICK
    assert wait.look().phase is Phase.HERE


def test_the_start_screen_is_told_once_when_the_stick_came(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(AFTER_WAIT_VAR, "mounted:37")
    note = after_wait_notice(Path("/mnt/table/data/journal.sqlite3"), now=0.0)
    assert note is not None and note.startswith(
        "The data stick came 0:37 after the companion started. The game journal "
        "/mnt/table/data/journal.sqlite3 was opened on it at ")
    assert note.endswith("games are saved from now on (nothing was played before it came).")
    assert AFTER_WAIT_VAR not in os.environ  # said once: a later start says nothing
    assert after_wait_notice(Path("/j")) is None
    monkeypatch.setenv(AFTER_WAIT_VAR, "mounted:5")
    assert after_wait_notice(Path("/j"), unsaved="The stick is read-only.") == (
        "The data stick came 0:05 after the companion started, but the game journal /j on it "
        "cannot take games: The stick is read-only.")
    monkeypatch.setenv(AFTER_WAIT_VAR, "play without saving")
    assert after_wait_notice(Path("/j")) is None  # the journal's own notice says it
