"""`companion appliance` against a temporary root directory, never this machine's own /etc.

The root holds what the steps look at on a Raspberry Pi OS system: /etc/passwd and /etc/group,
systemd's own units (copied from this machine, for `systemd-analyze verify` and the offline
`systemctl --root`), the user's home with the companion's clone and its venv, labwc and lwrespawn
for the desktop. `disable` must leave the tree exactly as it was before `enable`.
"""

from __future__ import annotations

import json
import os
import socket
import threading
from pathlib import Path

import pytest
from appliance_roots import (
    CARDS,
    OVERLAY_MOUNTINFO,
    USER_AUTOSTART,
    Recorder,
    Running,
    is_enabled,
    make_root,
    needs_systemd,
    opts,
    problems,
    snapshot,
    with_mountinfo,
)

from companion import cli
from companion.appliance import (
    APP_WATCHDOG_S,
    MANIFEST,
    OVERLAY_CONF,
    UNIT,
    UNIT_PATH,
    WATCHDOG_DROPIN,
    ApplianceError,
    check_unit,
    disable,
    enable,
    notify,
    parse_autostart_block,
    status,
)

pytestmark = needs_systemd


def test_console_mode_writes_a_verified_service_and_disable_leaves_nothing(
        tmp_path: Path) -> None:
    root = make_root(tmp_path / "root", desktop=False)
    before = snapshot(root)
    report = enable(opts(root, rotation=180, audio="hdmi"))
    unit = (root / UNIT_PATH.lstrip("/")).read_text()
    for line in ("Type=notify", f"WatchdogSec={APP_WATCHDOG_S}s", "Restart=always",
                 "StartLimitIntervalSec=0", "User=pi", "PAMName=login", "TTYPath=/dev/tty1",
                 "Conflicts=getty@tty1.service", "SupplementaryGroups=video input audio gpio",
                 "Environment=SDL_VIDEODRIVER=kmsdrm", "Environment=GPIOZERO_PIN_FACTORY=lgpio",
                 "Environment=SDL_AUDIODRIVER=alsa",
                 "Environment=AUDIODEV=sysdefault:CARD=vc4hdmi0",
                 "Environment=COMPANION_LOG_DIR=/home/pi/.local/state/table-companion/logs",
                 "ExecStart=/home/pi/companion/.venv/bin/companion start --rotation 180",
                 "setterm --blank 0 --powerdown 0", "WantedBy=multi-user.target"):
        assert line in unit.splitlines() or line in unit, line
    assert check_unit(root) == ""
    assert is_enabled(root) == "enabled"
    # no desktop on this root to take the screen: the boot target is left as it is
    assert os.readlink(root / "etc/systemd/system/default.target").endswith("graphical.target")
    dropin = (root / WATCHDOG_DROPIN.lstrip("/")).read_text()
    assert "[Manager]\nRuntimeWatchdogSec=14s" in dropin
    assert any("checked with systemd-analyze verify" in ln for ln in report.lines)
    assert status(root).lines[0].startswith("appliance: enabled, console mode, user pi, "
                                            "rotation 180, audio hdmi")
    disable(root)
    assert snapshot(root) == before
    assert "not enabled" in status(root).lines[0]


def test_desktop_mode_adds_a_block_to_the_users_autostart_and_takes_it_back(
        tmp_path: Path) -> None:
    root = make_root(tmp_path / "root", desktop=True, autostart=USER_AUTOSTART)
    before = snapshot(root)
    enable(opts(root, rotation=90, audio="usb"))
    autostart = (root / "home/pi/.config/labwc/autostart").read_text()
    argv = parse_autostart_block(autostart)
    assert argv[:5] == ["lwrespawn", "systemd-run", "--user", "--wait", "--collect"]
    for arg in ("--service-type=notify", f"--property=WatchdogSec={APP_WATCHDOG_S}s",
                "--setenv=COMPANION_AUDIO_OUTPUT=usb", "--setenv=GPIOZERO_PIN_FACTORY=lgpio"):
        assert arg in argv, arg
    # the desktop's PipeWire holds the cards: never ALSA straight to the card there
    assert not [a for a in argv if "AUDIODEV" in a or "SDL_AUDIODRIVER" in a]
    assert argv[-4:] == ["/home/pi/companion/.venv/bin/companion", "start", "--rotation", "90"]
    assert '--setenv=WAYLAND_DISPLAY="${WAYLAND_DISPLAY}"' in autostart  # expanded by labwc's sh
    assert "/usr/bin/kanshi &\n" in autostart  # the user's own lines stay
    assert "\n# table-companion turned off: swayidle -w timeout 600" in autostart  # no blanking
    assert not (root / UNIT_PATH.lstrip("/")).exists()  # no console service in desktop mode
    disable(root)
    assert (root / "home/pi/.config/labwc/autostart").read_text() == USER_AUTOSTART
    assert snapshot(root) == before


def test_a_new_autostart_and_its_folders_are_removed_again(tmp_path: Path) -> None:
    root = make_root(tmp_path / "root", desktop=True)
    before = snapshot(root)
    enable(opts(root))
    assert parse_autostart_block((root / "home/pi/.config/labwc/autostart").read_text())
    assert (root / MANIFEST.lstrip("/")).exists()
    enable(opts(root, rotation=180))  # enabling again replaces the first setup
    assert parse_autostart_block(
        (root / "home/pi/.config/labwc/autostart").read_text())[-1] == "180"
    disable(root)
    assert snapshot(root) == before
    assert disable(root).lines == ["the appliance is not enabled here: nothing to undo"]


def test_protection_needs_another_filesystem_and_keeps_data_there(
        tmp_path: Path, other_filesystem: Path) -> None:
    root = make_root(other_filesystem / "root", desktop=False)
    (root / "srv/on-root").mkdir(parents=True)
    with pytest.raises(ApplianceError, match="is on the root filesystem, which becomes read-only"):
        enable(opts(root, protect=Path("/srv/on-root")))
    assert not (root / MANIFEST.lstrip("/")).exists()  # refused before any change
    (tmp_path / "stick").mkdir()
    (root / "media/stick").parent.mkdir(parents=True)
    (root / "media/stick").symlink_to(tmp_path / "stick")
    before = snapshot(root)
    report = enable(opts(root, protect=Path("/media/stick")))
    overlay = (root / OVERLAY_CONF.lstrip("/")).read_text()
    assert 'overlayroot="tmpfs:recurse=0"' in overlay.splitlines()
    unit = (root / UNIT_PATH.lstrip("/")).read_text()
    for env in ("COMPANION_DATA_DIR=/media/stick/data", "COMPANION_CONFIG_DIR=/media/stick/config",
                "COMPANION_CONFIG=/media/stick/config/config.toml", "KIVY_HOME=/media/stick/kivy"):
        assert f"Environment={env}" in unit
    assert sorted(p.name for p in (tmp_path / "stick").iterdir()) == ["config", "data", "kivy"]
    assert any("apt install overlayroot" in ln for ln in report.lines)  # not the running system
    disable(root)
    assert snapshot(root) == before  # the data folders on the stick are the user's: kept


@pytest.mark.parametrize(("change", "message"), [
    ({"rotation": 45}, "--rotation 45: choose one of 0, 90, 180, 270"),
    ({"user": "ghost"}, "user 'ghost' is not in"),
    ({"venv": Path("/home/pi/elsewhere/.venv")}, "run ./start.sh once first"),
    ({"audio": "usb", "sound_cards": CARDS.split(" 1 [")[0]},
     r"--audio usb: no USB sound card found \(cards: vc4hdmi0"),
    ({"audio": "my speaker"}, "expected default, hdmi, hdmi2, headphones, usb or an ALSA card"),
    ({"mode": "kiosk"}, "--mode 'kiosk': choose auto, desktop or console"),
])
def test_bad_options_are_named_and_change_nothing(tmp_path: Path, change: dict[str, object],
                                                  message: str) -> None:
    root = make_root(tmp_path / "root", desktop=False)
    before = snapshot(root)
    with pytest.raises(ApplianceError, match=message):
        enable(opts(root, **change))
    assert snapshot(root) == before


def test_the_checks_can_fail(tmp_path: Path) -> None:
    root = make_root(tmp_path / "root", desktop=False)
    broken = root / UNIT_PATH.lstrip("/")
    broken.write_text("[Unit]\nDescription=x\n[Service]\nExecStart=/nowhere/app\n"
                      "StartLimitIntervalSec=0\n")
    problem = check_unit(root)
    assert "Unknown key 'StartLimitIntervalSec' in section [Service]" in problem
    assert "/nowhere/app" in problem
    block = "# >>> table-companion\nlwrespawn /bin/app &\n# <<< table-companion\n"
    assert parse_autostart_block(block) == ["lwrespawn", "/bin/app"]
    with pytest.raises(ApplianceError, match="expected one table-companion block"):
        parse_autostart_block(block + block)
    with pytest.raises(ApplianceError, match=r"expected `lwrespawn \.\.\. &`"):
        parse_autostart_block(block.replace("lwrespawn ", ""))
    with pytest.raises(ApplianceError, match="not valid sh"):
        parse_autostart_block(block + "if then fi\n")


def test_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = make_root(tmp_path / "root", desktop=False)
    args = ["appliance", "enable", "--root", str(root), "--repo", "/home/pi/companion",
            "--user", "pi", "--mode", "console", "--rotation", "270"]
    assert cli.main(args) == 0
    assert "enabled (console mode)" in capsys.readouterr().out
    assert is_enabled(root) == "enabled"
    assert cli.main(["appliance", "status", "--root", str(root)]) == 0
    assert "rotation 270" in capsys.readouterr().out
    assert cli.main(["appliance", "enable", "--root", str(root), "--user", "ghost"]) == 1
    assert "companion appliance enable: user 'ghost' is not in" in capsys.readouterr().err
    assert cli.main(["appliance", "disable", "--root", str(root)]) == 0
    assert is_enabled(root) != "enabled"


# -- the watchdog feed the app calls ----------------------------------------------------------
def test_feed_watchdog_says_ready_then_alive(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(notify, "_ready_sent", False)
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    assert notify.feed_watchdog() is False  # not under systemd: nothing, no error
    path = tmp_path / "notify.sock"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as server:
        server.bind(str(path))
        server.settimeout(5)
        monkeypatch.setenv("NOTIFY_SOCKET", str(path))
        assert notify.feed_watchdog() is True
        first = server.recv(4096).decode().splitlines()
        assert first[:2] == ["READY=1", "WATCHDOG=1"]
        assert notify.feed_watchdog() is True
        assert server.recv(4096) == b"WATCHDOG=1"
    monkeypatch.setenv("NOTIFY_SOCKET", str(tmp_path / "gone.sock"))
    assert notify.feed_watchdog() is False  # a vanished socket never raises


def test_abstract_notify_socket_and_interval(monkeypatch: pytest.MonkeyPatch) -> None:
    name = f"companion-test-{os.getpid()}"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as server:
        server.bind("\0" + name)
        server.settimeout(5)
        monkeypatch.setenv("NOTIFY_SOCKET", "@" + name)
        assert notify.notify("STATUS=testing")
        assert server.recv(4096) == b"STATUS=testing"
    monkeypatch.setenv("WATCHDOG_USEC", str(APP_WATCHDOG_S * 1_000_000))
    monkeypatch.delenv("WATCHDOG_PID", raising=False)
    assert notify.watchdog_interval() == APP_WATCHDOG_S / 3
    monkeypatch.setenv("WATCHDOG_PID", str(os.getpid() + 1))
    assert notify.watchdog_interval() is None  # meant for another process
    monkeypatch.setenv("WATCHDOG_USEC", "soon")
    monkeypatch.delenv("WATCHDOG_PID")
    assert notify.watchdog_interval() is None


def test_a_full_notify_socket_never_blocks_the_app(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """systemd reads promptly, but a datagram queue holds only a few messages (10 by default):
    a blocking send would freeze the app's main loop, the very thing the watchdog watches."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as server:  # never read
        server.bind(str(tmp_path / "full.sock"))
        monkeypatch.setenv("NOTIFY_SOCKET", str(tmp_path / "full.sock"))
        results: list[bool] = []
        sender = threading.Thread(
            target=lambda: results.extend(notify.notify("WATCHDOG=1") for _ in range(200)),
            daemon=True)
        sender.start()
        sender.join(timeout=60)
        assert not sender.is_alive(), "notify() blocked on a full socket"
    assert results[0] is True and results[-1] is False  # the overflow is dropped, not waited on


# -- power-pull protection: the mount, the overlay, raspi-config's own overlay ---------------
def test_enable_refuses_while_the_ram_overlay_is_on(tmp_path: Path) -> None:
    """Its files would go into RAM, and the disable it starts with would empty the real root."""
    root = with_mountinfo(make_root(tmp_path / "root", desktop=False), OVERLAY_MOUNTINFO)
    before = snapshot(root)
    with pytest.raises(ApplianceError, match=r"power-pull protection is on now: the root is a RAM "
                                             r"overlay.*disable`, `sudo reboot`"):
        enable(opts(root))
    assert snapshot(root) == before


def test_disable_under_the_overlay_undoes_the_real_root_and_keeps_the_apt_step(
        tmp_path: Path, other_filesystem: Path) -> None:
    running = with_mountinfo(tmp_path / "running", OVERLAY_MOUNTINFO)
    lower = make_root(other_filesystem / "root", desktop=False)
    (running / "media").mkdir()
    (running / "media/root-ro").symlink_to(lower)
    (tmp_path / "stick").mkdir()
    (lower / "media").mkdir()
    (lower / "media/stick").symlink_to(tmp_path / "stick")
    before = snapshot(lower)
    enable(opts(lower, protect=Path("/media/stick")))
    # what enable on the running Pi records as well: the package it installed
    data = json.loads((lower / MANIFEST.lstrip("/")).read_text())
    data["ops"].append({"op": "apt", "package": "overlayroot"})
    (lower / MANIFEST.lstrip("/")).write_text(json.dumps(data))
    runner = Recorder()
    report = disable(running, runner)
    mounts = [a for a in runner.ran if a[0] == "mount"]
    assert mounts == [["mount", "-o", "remount,rw", str(running / "media/root-ro")],
                      ["mount", "-o", "remount,ro", str(running / "media/root-ro")]]
    assert not any(a[0] == "apt-get" for a in runner.ran)  # apt under the overlay: useless
    assert not (lower / UNIT_PATH.lstrip("/")).exists()
    assert not (lower / OVERLAY_CONF.lstrip("/")).exists()
    assert any("overlayroot is still installed" in ln and "once more" in ln
               for ln in report.lines)
    assert status(lower).lines[0].startswith("appliance: disabled; one step left: overlayroot")
    left = snapshot(lower)
    assert set(left) - set(before) == {"var/lib/table-companion",
                                       "var/lib/table-companion/appliance.json"}


def test_raspi_configs_overlay_on_the_kernel_command_line_is_refused_with_protection(
        tmp_path: Path) -> None:
    root = make_root(tmp_path / "root", desktop=False)
    (root / "boot/firmware").mkdir(parents=True)
    (root / "boot/firmware/cmdline.txt").write_text(
        "console=tty1 root=PARTUUID=1234-02 rootfstype=ext4 fsck.repair=yes rootwait "
        "overlayroot=tmpfs\n")
    (root / "media/stick").mkdir(parents=True)
    before = snapshot(root)
    with pytest.raises(ApplianceError, match=r"raspi-config's Overlay File System is on "
                                             r"\(`overlayroot=tmpfs`.*Overlay File System > No"):
        enable(opts(root, protect=Path("/media/stick")))
    assert snapshot(root) == before
    report = enable(opts(root))  # without protection: allowed, with the warning
    assert any(ln.startswith("warning: raspi-config's Overlay File System is on")
               and "games would be lost at power-off" in ln for ln in report.lines)
    disable(root)


def test_a_blanking_line_raspi_config_removed_is_reported_not_silently_lost(
        tmp_path: Path) -> None:
    root = make_root(tmp_path / "root", desktop=True, autostart=USER_AUTOSTART)
    enable(opts(root))
    autostart = root / "home/pi/.config/labwc/autostart"
    autostart.write_text("\n".join(ln for ln in autostart.read_text().splitlines()
                                   if "swayidle" not in ln) + "\n")
    report = disable(root)
    assert report.lines[-1] == (
        "disabled: the Pi boots as it did before `companion appliance enable`, but for what "
        "stays: 1 screen-blanking line that enable turned off in "
        "/home/pi/.config/labwc/autostart was removed since (raspi-config's Screen Blanking "
        "switch does that) and cannot be put back: turn blanking on there if you want it")
    assert autostart.read_text() == "/usr/bin/kanshi &\n"


# -- status: what was written, compared with what runs ------------------------------------------
def test_status_checks_the_desktop_autologin_and_boot_target(tmp_path: Path) -> None:
    root = make_root(tmp_path / "root", desktop=True)
    report = enable(opts(root))
    assert any(ln.startswith("warning: desktop autologin is off: nothing starts until pi logs "
                             "in") for ln in report.lines)
    [problem] = problems(status(root).lines)
    assert problem.startswith("PROBLEM desktop autologin: off (nothing starts until pi logs in")
    assert "Desktop Autologin" in problem
    (root / "etc/lightdm").mkdir(parents=True)
    (root / "etc/lightdm/lightdm.conf").write_text(
        "[LightDM]\n[Seat:*]\ngreeter-session=pi-greeter-labwc\nautologin-user=pi\n")
    lines = status(root).lines
    assert problems(lines) == []
    assert "  ok      desktop autologin: pi" in lines
    assert "  ok      boot target: graphical.target" in lines
    disable(root)


def test_status_tells_a_crash_looping_service_from_a_running_one(tmp_path: Path) -> None:
    root = make_root(tmp_path / "root", desktop=False)
    enable(opts(root))
    looping = Running("ActiveState=activating\nSubState=auto-restart\nNRestarts=7\n"
                      "Result=exit-code\n", watchdog="0")
    lines = status(root, looping, running=True).lines
    found = problems(lines)
    assert ("PROBLEM the app's service: activating/auto-restart, restarted 7 time(s) since "
            "boot, last result exit-code (see the app's log below)") in found
    assert "PROBLEM hardware watchdog: not fed (reboot once after `enable`)" in found
    assert ["systemctl", "show", UNIT, "-p", "ActiveState", "-p", "SubState", "-p", "NRestarts",
            "-p", "Result"] in looping.ran
    fine = Running("ActiveState=active\nSubState=running\nNRestarts=0\nResult=success\n")
    lines = status(root, fine, running=True).lines
    assert [p for p in problems(lines) if "service" in p or "watchdog" in p] == []
    assert ("  ok      boot target: graphical.target (no desktop installed to take the "
            "screen)") in lines
    disable(root)


def test_status_checks_the_overlay_the_data_mount_and_the_last_start(
        tmp_path: Path, other_filesystem: Path) -> None:
    root = make_root(other_filesystem / "root", desktop=False)
    stick = tmp_path / "stick"
    stick.mkdir()
    (root / "media").mkdir()
    (root / "media/stick").symlink_to(stick)
    enable(opts(root, protect=Path("/media/stick")))
    (root / "var/lib/dpkg/status").write_text(
        "Package: overlayroot\nStatus: install ok installed\nVersion: 0.48\n\n"
        "Package: sudo\nStatus: install ok installed\n")
    fine = Running("ActiveState=active\nSubState=running\nNRestarts=0\nResult=success\n")
    # the stick missing under the overlay
    with_mountinfo(root, OVERLAY_MOUNTINFO)
    lines = status(root, fine, running=True).lines
    assert "  ok      overlayroot package: installed" in lines
    assert "  ok      read-only root (RAM overlay) now: on" in lines
    assert ("PROBLEM data folder /media/stick: NOT mounted (plug in the USB stick or data "
            "partition; until then the app waits for it on its screen and saves no games)"
            ) in problems(lines)
    assert ("PROBLEM /etc/fstab has no line for /media/stick: nothing mounts it at boot "
            "(docs/raspberry-pi.md, 'Power-pull protection', step 2)") in problems(lines)
    # the stick mounted, and the app crashed three times in a row
    with_mountinfo(root, OVERLAY_MOUNTINFO + "40 26 8:1 / /media/stick rw - ext4 /dev/sda1 rw\n")
    (stick / "logs").mkdir()
    (stick / "logs/starts.json").write_text(
        '{"crashes": 3, "started": 1764000000, "outcome": "crashed: OSError: no camera"}')
    lines = status(root, fine, running=True).lines
    assert "  ok      data folder /media/stick: mounted (ext4, /dev/sda1), writable" in lines
    [crashes] = [p for p in problems(lines) if p.startswith("PROBLEM the app: last start")]
    assert "crashed: OSError: no camera; crashes in a row: 3" in crashes
    assert "/media/stick/logs/companion.log" in crashes
    # raspi-config's overlay as well
    (root / "boot/firmware").mkdir(parents=True)
    (root / "boot/firmware/cmdline.txt").write_text("console=tty1 rootwait overlayroot=tmpfs\n")
    assert any(p.startswith("PROBLEM raspi-config's Overlay File System is on")
               for p in problems(status(root, fine, running=True).lines))
