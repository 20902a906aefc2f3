"""``companion appliance enable``: set the Pi up as the options say (after undoing an earlier
setup), recording each change in the manifest as it is made."""

from __future__ import annotations

import os
import re
from typing import Any

from companion.appliance.disable import disable
from companion.appliance.files import (
    APP_WATCHDOG_S,
    COMMENTED,
    HW_WATCHDOG_S,
    MODES,
    OVERLAY_CONF,
    ROTATIONS,
    UNIT,
    UNIT_PATH,
    WATCHDOG_DROPIN,
    Options,
    app_environment,
    check_ini,
    check_unit,
    detect_mode,
    hotplug_dropin,
    parse_autostart_block,
    render_autostart_block,
    render_unit,
    template,
)
from companion.appliance.manifest import Manifest, chown, make_dirs, write_new
from companion.appliance.mounts import fstab_entry
from companion.appliance.overlay import kernel_overlay, overlay_active
from companion.appliance.packages import apt_install
from companion.appliance.system import (
    DOCS,
    Account,
    ApplianceError,
    Report,
    Runner,
    desktop_autologin,
    display_manager,
    in_root,
    run,
    run_command,
    same_filesystem,
    systemctl,
    user_account,
)


def enable(opts: Options, runner: Runner = run_command) -> Report:
    """Set the appliance up as ``opts`` says (after undoing an earlier setup)."""
    root = opts.root
    report = Report()
    if opts.rotation not in ROTATIONS:
        raise ApplianceError(f"--rotation {opts.rotation}: choose one of 0, 90, 180, 270")
    if opts.mode not in MODES:
        raise ApplianceError(f"--mode {opts.mode!r}: choose auto, desktop or console")
    mode = detect_mode(root) if opts.mode == "auto" else opts.mode
    account = user_account(root, opts.user)
    if not in_root(root, "/var/lib").is_dir():
        raise ApplianceError(f"{root} does not look like a Debian root (no /var/lib)")
    exe = in_root(root, opts.venv / "bin" / "companion")
    if not os.access(exe, os.X_OK):
        raise ApplianceError(f"{exe} is not there: run ./start.sh once first (it installs the "
                             "companion), then this command")
    if overlay_active(root):
        raise ApplianceError(
            "power-pull protection is on now: the root is a RAM overlay, so whatever `enable` "
            "wrote would vanish at the next boot. Run `sudo .venv/bin/companion appliance "
            "disable`, `sudo reboot`, then `enable` again with the new options")
    cmdline_overlay = kernel_overlay(root)
    if cmdline_overlay is not None:
        problem = (f"raspi-config's Overlay File System is on (`overlayroot={cmdline_overlay}` "
                   f"on the kernel command line): it overrides {OVERLAY_CONF} and puts every "
                   "filesystem, the data folder too, under a RAM overlay, so games would be "
                   "lost at power-off. Turn it off (sudo raspi-config > Performance Options > "
                   "Overlay File System > No), reboot, then use --protect DIR instead")
        if opts.protect is not None:
            raise ApplianceError(problem)
        report.add("warning: " + problem)
    if opts.protect is not None:
        _check_protect_dir(opts)
    env = app_environment(opts, mode)  # raises on a bad --audio before anything changes
    pending: list[dict[str, Any]] = []
    if Manifest.load(root) is not None:
        report.lines += disable(root, runner, live=opts.live).lines
        left = Manifest.load(root)  # steps only the running Pi can undo (not this root)
        pending = left.ops if left is not None else []
    manifest = Manifest(root, ops=pending,
                        settings={"mode": mode, "user": opts.user,
                                  "rotation": opts.rotation, "audio": opts.audio,
                                  "protect": str(opts.protect) if opts.protect else None})
    manifest.save()
    try:
        if mode == "console":
            _enable_console(opts, env, manifest, runner, report)
        else:
            _enable_desktop(opts, account, env, manifest, report)
        text = template("runtime-watchdog.conf").substitute(hw_watchdog_s=HW_WATCHDOG_S)
        check_ini(text, "Manager")
        write_new(root, WATCHDOG_DROPIN, text, manifest)
        report.add(f"hardware watchdog: systemd feeds it every {HW_WATCHDOG_S / 2:g} s "
                   "(from the next boot)")
        if opts.protect is not None:
            _enable_protect(opts, account, manifest, runner, report)
    except BaseException:
        disable(root, runner, live=opts.live)
        raise
    if opts.running:
        run(runner, ["systemctl", "daemon-reload"], report)
    report.add(f"enabled ({mode} mode); the companion starts at the next boot "
               "(`sudo reboot`); `companion appliance disable` undoes all of it")
    return report


def _check_protect_dir(opts: Options) -> None:
    assert opts.protect is not None
    data = in_root(opts.root, opts.protect)
    if not data.is_dir():
        raise ApplianceError(f"--protect {opts.protect}: no such folder; mount a second partition "
                             "or a USB stick there first (see docs/raspberry-pi.md)")
    if same_filesystem(data, opts.root):
        raise ApplianceError(
            f"--protect {opts.protect} is on the root filesystem, which becomes read-only: "
            "games, settings and profiles written there would vanish at power-off; give the "
            "mount point of another filesystem (a data partition or a USB stick)")


def _enable_console(opts: Options, env: dict[str, str], manifest: Manifest, runner: Runner,
                    report: Report) -> None:
    root = opts.root
    text = render_unit(opts, env)
    write_new(root, UNIT_PATH, text, manifest)
    problem = check_unit(root)
    if problem:
        raise ApplianceError(f"the generated {UNIT} does not verify: {problem}")
    report.add(f"{UNIT_PATH}: checked with systemd-analyze verify")
    default = systemctl(root, runner, ["get-default"]).stdout.strip()
    desktop = display_manager(root)
    if default == "graphical.target" and desktop:
        link = in_root(root, "/etc/systemd/system/default.target")
        was = os.readlink(link) if link.is_symlink() else None
        manifest.record({"op": "default-target", "link": was})
        systemctl(root, runner, ["set-default", "multi-user.target"], check=True)
        report.add(f"boot target: multi-user.target (was graphical.target: the desktop's "
                   f"{desktop} would take the screen)")
    make_dirs(root, "/etc/systemd/system/multi-user.target.wants/" + UNIT, manifest, None)
    systemctl(root, runner, ["enable", UNIT], check=True)
    manifest.record({"op": "unit-enabled", "unit": UNIT})
    report.add(f"{UNIT}: enabled (tty1, KMS/DRM, Restart=always, WatchdogSec={APP_WATCHDOG_S}s)")


def _enable_desktop(opts: Options, account: Account, env: dict[str, str],
                    manifest: Manifest, report: Report) -> None:
    root = opts.root
    path = str(account.home / ".config/labwc/autostart")
    target = in_root(root, path)
    existed = target.exists()
    old = target.read_text(encoding="utf-8") if existed else ""
    lines = old.splitlines()
    blanking = [i for i, ln in enumerate(lines) if re.match(r"\s*(/usr/bin/)?swayidle\b", ln)]
    turned_off = [lines[i] for i in blanking]  # as they were, for disable to put back
    for i in blanking:
        lines[i] = COMMENTED + lines[i]
    block = render_autostart_block(opts, env)
    new = "\n".join([*lines, block.rstrip("\n")]).lstrip("\n") + "\n"
    argv = parse_autostart_block(new)
    exe = argv[argv.index("--working-directory=" + str(opts.repo)) + 1]
    if not os.access(in_root(root, exe), os.X_OK):
        raise ApplianceError(f"labwc autostart block: {exe} is not executable")
    if existed:
        manifest.record({"op": "autostart", "path": path, "created": False,
                         "commented": turned_off})
        target.write_text(new, encoding="utf-8")
    else:
        make_dirs(root, path, manifest, account)
        manifest.record({"op": "autostart", "path": path, "created": True, "commented": []})
        target.write_text(new, encoding="utf-8")
        chown(target, account)
    report.add(f"{path}: the app under lwrespawn and a systemd user watchdog "
               f"(WatchdogSec={APP_WATCHDOG_S}s); checked with sh -n")
    if blanking:
        report.add(f"screen blanking: {len(blanking)} swayidle line(s) there turned off")
    autologin = desktop_autologin(root)
    if autologin != opts.user:
        report.add(f"warning: desktop autologin is {'for ' + autologin if autologin else 'off'}: "
                   f"nothing starts until {opts.user} logs in; turn it on: sudo raspi-config > "
                   "System Options > Boot / Auto Login > Desktop Autologin")
    if not in_root(root, "/usr/bin/lwrespawn").exists():
        report.add("warning: lwrespawn is not installed here (Raspberry Pi OS's desktop has it)")


def _enable_protect(opts: Options, account: Account, manifest: Manifest, runner: Runner,
                    report: Report) -> None:
    assert opts.protect is not None
    root = opts.root
    text = template("overlayroot.local.conf").substitute(data=opts.protect)
    write_new(root, OVERLAY_CONF, text, manifest)
    for sub in ("data", "config", "kivy"):
        folder = in_root(root, opts.protect / sub)
        if not folder.exists():
            folder.mkdir(parents=True)
            chown(folder, account)
    report.add(f"power-pull protection: read-only root from the next boot; journal, settings "
               f"and profiles in {opts.protect} (copy existing ones there: see {DOCS})")
    try:
        fstab = in_root(root, "/etc/fstab").read_text(encoding="utf-8")
    except OSError:
        fstab = ""
    stick = fstab_entry(opts.protect, fstab)
    dropin = hotplug_dropin(opts, stick) if stick is not None else None
    if stick is None:
        report.add(f"warning: {opts.protect} is not in /etc/fstab, so nothing mounts it at boot "
                   f"and the companion would wait for it: add its line ({DOCS}, 'Power-pull "
                   "protection', step 2)")
    elif dropin is not None:
        write_new(root, dropin[0], dropin[1], manifest)
        report.add(f"{dropin[0]}: {stick.source} is mounted on {opts.protect} whenever it is "
                   "plugged in, also after the boot")
    if opts.running:
        installed = run(runner, ["dpkg-query", "-W", "-f=${Status}", "overlayroot"], report,
                         quiet=True).stdout
        if "install ok installed" not in installed:
            manifest.record(apt_install(root, runner, "overlayroot", report))
        run(runner, ["update-initramfs", "-u"], report, check=True)
    else:
        report.add(f"not the running system: on the Pi, run `sudo apt install overlayroot && "
                   f"sudo update-initramfs -u` before booting ({root})")
