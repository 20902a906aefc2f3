"""`disable` undoes exactly what `enable` did, and says only what is true (issue 45, items 3, 4
and 6): in both modes, the files and the packages after `disable` are those before `enable`,
and every line either command prints is the one expected, warnings included.

The root is a temporary one (appliance_roots.py); "running" (``live=True``) sends apt, dpkg and
groupdel to a stand-in that plays them on the root's own dpkg database.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from appliance_roots import (
    USER_AUTOSTART,
    Recorder,
    StandInApt,
    apt_lines,
    make_root,
    needs_systemd,
    opts,
    packages,
    snapshot,
    stick_root,
)

from companion.appliance import disable, enable

pytestmark = needs_systemd

AUTOSTART = "/home/pi/.config/labwc/autostart"
AUTOLOGIN_OFF = ("warning: desktop autologin is off: nothing starts until pi logs in; turn it "
                 "on: sudo raspi-config > System Options > Boot / Auto Login > Desktop Autologin")
WATCHDOG = "hardware watchdog: systemd feeds it every 7 s (from the next boot)"
WATCHDOG_REMOVED = "removed /etc/systemd/system.conf.d/table-companion-watchdog.conf"
UNIT_CHECKED = "/etc/systemd/system/table-companion.service: checked with systemd-analyze verify"
UNIT_ENABLED = "table-companion.service: enabled (tty1, KMS/DRM, Restart=always, WatchdogSec=15s)"
AUTOSTART_WRITTEN = (f"{AUTOSTART}: the app under lwrespawn and a systemd user watchdog "
                     "(WatchdogSec=15s); checked with sh -n")
ALL_UNDONE = "disabled: the Pi boots as it did before `companion appliance enable`"
HOTPLUG = "/etc/systemd/system/dev-disk-by\\x2dlabel-table.device.d/table-companion-hotplug.conf"
PROTECTED = ("power-pull protection: read-only root from the next boot; journal, settings and "
             "profiles in /mnt/table (copy existing ones there: see docs/raspberry-pi.md)")


def enabled(mode: str) -> str:
    return (f"enabled ({mode} mode); the companion starts at the next boot (`sudo reboot`); "
            "`companion appliance disable` undoes all of it")


def test_desktop_mode_disable_restores_the_autostart_and_warns_of_nothing(
        tmp_path: Path) -> None:
    """Item 3: the blanking lines were recorded with enable's own prefix, so disable looked for
    them with the prefix twice and always warned they had been removed."""
    root = make_root(tmp_path / "root", desktop=True, autostart=USER_AUTOSTART)
    before, had = snapshot(root), packages(root)
    assert enable(opts(root)).lines == [
        AUTOSTART_WRITTEN, "screen blanking: 1 swayidle line(s) there turned off", AUTOLOGIN_OFF,
        WATCHDOG, enabled("desktop")]
    assert disable(root).lines == [
        WATCHDOG_REMOVED,
        f"{AUTOSTART}: the companion's block removed, 1 screen-blanking line turned on again",
        ALL_UNDONE]
    assert (root / AUTOSTART.lstrip("/")).read_text() == USER_AUTOSTART
    assert snapshot(root) == before and packages(root) == had


def test_an_older_manifests_blanking_lines_are_put_back_too(tmp_path: Path) -> None:
    """A Pi enabled by the companion before this fix keeps the lines with the prefix in its
    manifest: disable reads both."""
    import json

    from companion.appliance import MANIFEST
    from companion.appliance.files import COMMENTED

    root = make_root(tmp_path / "root", desktop=True, autostart=USER_AUTOSTART)
    enable(opts(root))
    manifest = root / MANIFEST.lstrip("/")
    data = json.loads(manifest.read_text())
    [op] = [op for op in data["ops"] if op["op"] == "autostart"]
    op["commented"] = [COMMENTED + ln for ln in op["commented"]]
    manifest.write_text(json.dumps(data))
    assert disable(root).lines[-1] == ALL_UNDONE
    assert (root / AUTOSTART.lstrip("/")).read_text() == USER_AUTOSTART


def test_console_mode_on_a_system_without_a_desktop_leaves_the_boot_target(
        tmp_path: Path) -> None:
    """Item 6: no desktop is installed, so none can take the screen: the boot target stays and
    nothing is said of a desktop."""
    root = make_root(tmp_path / "root", desktop=False)
    before = snapshot(root)
    assert enable(opts(root)).lines == [UNIT_CHECKED, UNIT_ENABLED, WATCHDOG, enabled("console")]
    assert (root / "etc/systemd/system/default.target").readlink() == Path(
        "/usr/lib/systemd/system/graphical.target")
    assert disable(root).lines == [WATCHDOG_REMOVED, "table-companion.service: disabled",
                                   "removed /etc/systemd/system/table-companion.service",
                                   ALL_UNDONE]
    assert snapshot(root) == before


def test_console_mode_on_a_desktop_image_takes_the_screen_from_its_display_manager(
        tmp_path: Path) -> None:
    root = make_root(tmp_path / "root", desktop=True)
    before = snapshot(root)
    assert enable(opts(root, mode="console")).lines == [
        UNIT_CHECKED, "boot target: multi-user.target (was graphical.target: the desktop's "
        "lightdm would take the screen)", UNIT_ENABLED, WATCHDOG, enabled("console")]
    assert disable(root).lines == [WATCHDOG_REMOVED, "table-companion.service: disabled",
                                   "boot target: as it was (graphical.target)",
                                   "removed /etc/systemd/system/table-companion.service",
                                   ALL_UNDONE]
    assert snapshot(root) == before


@pytest.mark.parametrize("desktop", [False, True], ids=["console", "desktop"])
def test_protection_removes_every_package_and_group_apt_brought(
        tmp_path: Path, other_filesystem: Path, desktop: bool) -> None:
    """Item 4: `apt-get install overlayroot` brings initramfs-tools, busybox, cryptsetup's tools,
    a group and /etc/crypttab; disable purged overlayroot alone, and said the Pi boots as
    before."""
    root = stick_root(other_filesystem, tmp_path, desktop=desktop,
                      autostart=USER_AUTOSTART if desktop else None)
    apt = StandInApt(root)
    before, had = snapshot(root), packages(root)
    report = enable(opts(root, protect=Path("/mnt/table"), live=True), apt)
    mode_lines = ([AUTOSTART_WRITTEN, "screen blanking: 1 swayidle line(s) there turned off",
                   AUTOLOGIN_OFF] if desktop else [UNIT_CHECKED, UNIT_ENABLED])
    assert report.lines == [
        *mode_lines, WATCHDOG, PROTECTED,
        f"{HOTPLUG}: LABEL=table is mounted on /mnt/table whenever it is plugged in, also after "
        "the boot",
        "ran: apt-get install -y --no-install-recommends overlayroot", "ran: update-initramfs -u",
        "ran: systemctl daemon-reload", enabled("desktop" if desktop else "console")]
    added = sorted(set(packages(root)) - set(had))
    assert added == ["busybox", "cryptsetup-bin", "initramfs-tools", "initramfs-tools-core",
                     "overlayroot"]
    report = disable(root, apt, live=True)
    undo_mode = ([f"{AUTOSTART}: the companion's block removed, 1 screen-blanking line turned "
                  "on again"] if desktop else
                 ["table-companion.service: disabled",
                  "ran: systemctl stop table-companion.service",
                  "removed /etc/systemd/system/table-companion.service"])
    assert report.lines == [
        "ran: apt-get purge -y " + " ".join(added), "ran: groupdel crypt-admins",
        "removed /etc/crypttab (made by the packages' install, left by their purge)",
        f"removed {HOTPLUG}", "removed /etc/overlayroot.local.conf", WATCHDOG_REMOVED,
        *undo_mode, "ran: systemctl daemon-reload", ALL_UNDONE]
    assert packages(root) == had
    assert snapshot(root) == before  # /etc/group, the packages' files, the drop-in's folder
    assert apt_lines(apt.ran) == [
        "apt-get install -y --no-install-recommends overlayroot", "update-initramfs -u",
        "apt-get purge -y " + " ".join(added), "groupdel crypt-admins"]


def test_a_package_something_installed_since_needs_stays_and_is_named(
        tmp_path: Path, other_filesystem: Path) -> None:
    root = stick_root(other_filesystem, tmp_path)
    apt = StandInApt(root)
    had = packages(root)
    enable(opts(root, protect=Path("/mnt/table"), live=True), apt)
    apt.install_later("mdadm")  # needs cryptsetup-bin, which came with overlayroot
    report = disable(root, apt, live=True)
    assert report.lines[0] == ("ran: apt-get purge -y busybox initramfs-tools "
                               "initramfs-tools-core overlayroot")
    assert report.lines[-1] == (
        "disabled: the Pi boots as it did before `companion appliance enable`, but for what "
        "stays: cryptsetup-bin stays installed: mdadm, installed since `enable`, needs it; the "
        "system group 'crypt-admins' (in /etc/group) stays: it came with the packages above; "
        "/etc/crypttab stays: it came with the packages above")
    assert set(packages(root)) - set(had) == {"cryptsetup-bin", "mdadm"}
    assert "crypt-admins:x:990:" in (root / "etc/group").read_text()


def test_off_the_running_system_apt_is_left_for_the_pi_and_said(
        tmp_path: Path, other_filesystem: Path) -> None:
    """A card mounted on a laptop: nothing is installed, and enable says what to run on the Pi."""
    root = stick_root(other_filesystem, tmp_path)
    runner = Recorder()
    report = enable(opts(root, protect=Path("/mnt/table")), runner)
    assert report.lines[-2] == (
        f"not the running system: on the Pi, run `sudo apt install overlayroot && sudo "
        f"update-initramfs -u` before booting ({root})")
    assert [a for a in runner.ran if a[0] != "systemctl"] == []
    assert disable(root, runner).lines[-1] == ALL_UNDONE
