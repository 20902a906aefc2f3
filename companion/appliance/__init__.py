"""Turn a Raspberry Pi into a table companion appliance, and back (`companion appliance`).

``enable`` makes the Pi boot into the app and keep it running:

- **desktop mode** (Raspberry Pi OS with its labwc desktop): a block in the user's
  ``~/.config/labwc/autostart`` runs the app under ``lwrespawn`` (restarted when it exits) as a
  ``systemd-run --user`` service with a watchdog (restarted when it hangs); the ``swayidle``
  lines raspi-config writes there for screen blanking are commented out;
- **console mode** (a Lite image, no desktop): a system service on tty1 drawing through KMS/DRM,
  ``Restart=always`` and ``WatchdogSec``, the console's blanking off;

and in both: systemd feeds the Pi's hardware watchdog (``RuntimeWatchdogSec``, at most ~15 s on a
Pi), the screen's rotation (picture and touch, through Kivy) and the audio output are passed to
the app, which uses exactly one Kivy input provider (see ``companion.commands.start``).
``--protect DIR`` adds power-pull protection: a read-only root under a RAM overlay
(``overlayroot``, ``recurse=0``) with the journal, settings and profiles moved to ``DIR``, which
must be another filesystem (docs/raspberry-pi.md explains the trade-offs).

Every file is generated from ``templates/``, checked (``systemd-analyze verify`` for the unit,
``sh -n`` and a parse of the autostart block, strict INI parsing for the drop-ins) and recorded,
with every other change, in a manifest (``/var/lib/table-companion/appliance.json``). ``disable``
undoes exactly what the manifest lists, in reverse, and leaves the system as it found it.

Everything works against another root directory (``root``): an SD card mounted on a laptop, or a
temporary folder in the tests. Commands that only make sense on the running system (apt,
update-initramfs, daemon-reload) are then reported, not run; ``systemctl --root`` works offline.
"""

from __future__ import annotations

import configparser
import json
import os
import pwd
import re
import shlex
import shutil
import subprocess
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from string import Template
from typing import Any

from companion.appliance.mounts import (
    MOUNTINFO,
    PROTECT_VAR,
    VOLATILE,
    Mount,
    mount_of,
    parse_mountinfo,
    read_mountinfo,
)
from companion.appliance.starts import LOG_DIR_VAR
from hardware.audio.route import CARD_IDS, OUTPUT_VAR

UNIT = "table-companion.service"
UNIT_PATH = "/etc/systemd/system/" + UNIT
WATCHDOG_DROPIN = "/etc/systemd/system.conf.d/table-companion-watchdog.conf"
OVERLAY_CONF = "/etc/overlayroot.local.conf"
#: Where the Pi's kernel command line is (Bookworm and Trixie; older releases: /boot).
CMDLINE_FILES = ("/boot/firmware/cmdline.txt", "/boot/cmdline.txt")
#: The lower, real root while overlayroot's RAM overlay is on.
OVERLAY_LOWER = Path("/media/root-ro")
MANIFEST = "/var/lib/table-companion/appliance.json"
BLOCK_START = "# >>> table-companion"
BLOCK_END = "# <<< table-companion"
COMMENTED = "# table-companion turned off: "
#: The app's systemd watchdog: silent this long, it is restarted (it feeds every third of it).
APP_WATCHDOG_S = 15
#: systemd's feeding of the hardware watchdog; bcm2835-wdt takes at most ~15 s.
HW_WATCHDOG_S = 14
ROTATIONS = (0, 90, 180, 270)
#: --audio names and the ALSA card ids they mean on a Raspberry Pi.
AUDIO_CARDS = CARD_IDS
MODES = ("auto", "desktop", "console")
#: The app's log folder in the user's home when protection is off (COMPANION_LOG_DIR).
USER_LOG_DIR = ".local/state/table-companion/logs"
DOCS = "docs/raspberry-pi.md"

Runner = Callable[[Sequence[str]], subprocess.CompletedProcess[str]]


class ApplianceError(Exception):
    """Raised when the appliance cannot be enabled or disabled as asked; says why and what to do."""


def run_command(argv: Sequence[str]) -> subprocess.CompletedProcess[str]:
    """Run a system command, capturing its output (the default runner)."""
    return subprocess.run(list(argv), text=True, capture_output=True, check=False)


@dataclass(frozen=True)
class Options:
    """What ``enable`` sets up. Paths are as seen inside ``root`` (the running system: "/")."""

    user: str
    repo: Path
    venv: Path
    root: Path = Path("/")
    mode: str = "auto"
    rotation: int = 0
    audio: str = "default"
    protect: Path | None = None
    #: /proc/asound/cards as text (None: read it from the running system when root is "/").
    sound_cards: str | None = None


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
def _in_root(root: Path, path: str | Path) -> Path:
    return root / str(path).lstrip("/")


def _is_live(root: Path) -> bool:
    return root.resolve() == Path("/")


def _account(root: Path, user: str) -> Account:
    passwd = _in_root(root, "/etc/passwd")
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


def _groups(root: Path) -> set[str]:
    try:
        text = _in_root(root, "/etc/group").read_text(encoding="utf-8")
    except OSError:
        return set()
    return {line.split(":", 1)[0] for line in text.splitlines() if line}


def _template(name: str) -> Template:
    return Template((resources.files(__package__) / "templates" / name).read_text("utf-8"))


def detect_mode(root: Path) -> str:
    """``desktop`` where labwc is installed (Raspberry Pi OS with desktop), else ``console``."""
    return "desktop" if _in_root(root, "/usr/bin/labwc").exists() else "console"


def audio_device(choice: str, cards_text: str) -> str | None:
    """The ALSA device for ``--audio``: None for ``default`` (the system's choice, e.g. the
    desktop's volume menu), else ``sysdefault:CARD=<id>``.

    Raised when ...: ApplianceError naming the cards present when ``usb`` finds no USB card.
    """
    if choice == "default":
        return None
    cards = re.findall(r"^\s*\d+\s+\[(\S+)\s*\]:\s*(.*)$", cards_text, re.MULTILINE)
    if choice == "usb":
        usb = [cid for cid, desc in cards if "USB" in desc]
        if not usb:
            found = ", ".join(f"{cid} ({desc.strip()})" for cid, desc in cards) or "none"
            raise ApplianceError(f"--audio usb: no USB sound card found (cards: {found}); plug "
                                 "it in, or name the card: --audio CARD (see `aplay -l`)")
        return f"sysdefault:CARD={usb[0]}"
    card = AUDIO_CARDS.get(choice, choice)
    if not re.fullmatch(r"[A-Za-z0-9_]+", card):
        raise ApplianceError(f"--audio {choice!r}: expected default, hdmi, hdmi2, headphones, usb "
                             "or an ALSA card id such as vc4hdmi0 (see `aplay -l`)")
    return f"sysdefault:CARD={card}"


def _same_filesystem(a: Path, b: Path) -> bool:
    return a.stat().st_dev == b.stat().st_dev


# -- the manifest ----------------------------------------------------------------------------
class Manifest:
    """The list of changes ``enable`` made, saved after each one so ``disable`` can undo them."""

    def __init__(self, root: Path, ops: list[dict[str, Any]] | None = None,
                 settings: dict[str, Any] | None = None) -> None:
        self.root = root
        self.ops: list[dict[str, Any]] = ops or []
        self.settings: dict[str, Any] = settings or {}

    @property
    def path(self) -> Path:
        return _in_root(self.root, MANIFEST)

    @classmethod
    def load(cls, root: Path) -> Manifest | None:
        path = _in_root(root, MANIFEST)
        if not path.exists():
            return None
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            return cls(root, list(data["ops"]), dict(data["settings"]))
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise ApplianceError(f"{path} is damaged ({exc}): the appliance's changes cannot be "
                                 f"undone from it; see {DOCS}, 'Undo by hand'") from None

    def record(self, op: dict[str, Any]) -> None:
        self.ops.append(op)
        self.save()

    def save(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_suffix(".tmp")
        tmp.write_text(json.dumps({"settings": self.settings, "ops": self.ops}, indent=1),
                       encoding="utf-8")
        os.replace(tmp, self.path)


def _make_dirs(root: Path, path: str, manifest: Manifest, owner: Account | None) -> None:
    """Create the folders above ``path`` that are missing, recording each."""
    missing = []
    parent = Path(path).parent
    while not _in_root(root, parent).exists():
        missing.append(parent)
        parent = parent.parent
    for d in reversed(missing):
        _in_root(root, d).mkdir()
        if owner is not None and str(d).startswith(str(owner.home)):
            _chown(_in_root(root, d), owner)
        manifest.record({"op": "dir", "path": str(d)})


def _chown(path: Path, owner: Account) -> None:
    if os.geteuid() == 0:
        os.chown(path, owner.uid, owner.gid)


def _write_new(root: Path, path: str, text: str, manifest: Manifest,
               owner: Account | None = None) -> None:
    target = _in_root(root, path)
    if target.exists():
        raise ApplianceError(f"{target} exists and was not written by `companion appliance`: "
                             "move it away first")
    _make_dirs(root, path, manifest, owner)
    manifest.record({"op": "file", "path": path})
    target.write_text(text, encoding="utf-8")
    if owner is not None:
        _chown(target, owner)


# -- rendering and checking ------------------------------------------------------------------
def app_environment(opts: Options, mode: str) -> dict[str, str]:
    """The environment the app runs with in the appliance."""
    env: dict[str, str] = {}
    if mode == "console":
        env["SDL_VIDEODRIVER"] = "kmsdrm"
    site = _in_root(opts.root, "/usr/lib/python3/dist-packages")
    if any(site.glob("lgpio*")):
        env["GPIOZERO_PIN_FACTORY"] = "lgpio"
    cards = opts.sound_cards
    if cards is None and _is_live(opts.root):
        try:
            cards = Path("/proc/asound/cards").read_text(encoding="utf-8")
        except OSError:
            cards = ""
    device = audio_device(opts.audio, cards or "")  # checked in both modes
    if device and mode == "desktop":
        # the desktop's PipeWire holds the cards: the app plays through it, to the sink of this
        # output, found when it starts (hardware.audio.route)
        env[OUTPUT_VAR] = opts.audio
    elif device:  # a console has no sound server: ALSA, straight to the card
        env["SDL_AUDIODRIVER"] = "alsa"
        env["AUDIODEV"] = device
    if opts.protect is not None:
        data = opts.protect
        env[PROTECT_VAR] = str(data)  # the app refuses to journal there unless it is mounted
        env[LOG_DIR_VAR] = str(data / "logs")  # the system journal is in RAM then
        env["COMPANION_DATA_DIR"] = str(data / "data")
        env["COMPANION_CONFIG_DIR"] = str(data / "config")
        env["COMPANION_CONFIG"] = str(data / "config" / "config.toml")
        env["KIVY_HOME"] = str(data / "kivy")
    else:
        env[LOG_DIR_VAR] = str(_account(opts.root, opts.user).home / USER_LOG_DIR)
    return env


def app_command(opts: Options) -> list[str]:
    return [str(opts.venv / "bin" / "companion"), "start", "--rotation", str(opts.rotation)]


def render_unit(opts: Options, env: dict[str, str]) -> str:
    wanted = ["video", "render", "input", "audio", "gpio"]
    present = [g for g in wanted if g in _groups(opts.root)]
    groups = f"SupplementaryGroups={' '.join(present)}" if present else ""
    environment = "\n".join(f"Environment={shlex.quote(f'{k}={v}')}" for k, v in env.items())
    # With protection the app starts only once the data folder is mounted (a late USB stick is
    # waited for; a missing one stops the app, not the games going into RAM).
    mounts = (f"RequiresMountsFor={shlex.quote(str(opts.protect))}"
              if opts.protect is not None else "")
    return _template("table-companion.service").substitute(
        docs=opts.repo / DOCS, watchdog_s=APP_WATCHDOG_S, user=opts.user, groups=groups,
        repo=opts.repo, environment=environment, command=shlex.join(app_command(opts)),
        mounts=mounts)


def render_autostart_block(opts: Options, env: dict[str, str]) -> str:
    setenv = " ".join(shlex.quote(f"--setenv={k}={v}") for k, v in env.items())
    return _template("labwc-autostart").substitute(
        docs=opts.repo / DOCS, watchdog_s=APP_WATCHDOG_S, setenv=setenv, repo=opts.repo,
        command=shlex.join(app_command(opts)))


def check_unit(root: Path, path: str = UNIT_PATH) -> str:
    """``systemd-analyze verify`` on the unit inside ``root``; "" when clean, else its words.
    Needs systemd's own units in ``root`` (every Debian root has them)."""
    tool = shutil.which("systemd-analyze")
    if tool is None:
        return "systemd-analyze is not installed: the unit was not verified"
    argv = [tool, "verify", path] if _is_live(root) else [tool, "verify", f"--root={root}", path]
    done = subprocess.run(argv, text=True, capture_output=True, check=False)
    problems = [ln for ln in (done.stdout + done.stderr).splitlines() if ln.strip()]
    if done.returncode != 0 or problems:
        return "; ".join(problems) or f"systemd-analyze verify exited {done.returncode}"
    return ""


def parse_autostart_block(text: str) -> list[str]:
    """The command of our block in a labwc autostart file, as argv.

    Raised when ...: ApplianceError when the file is not valid sh, or the block is missing,
    doubled, or not one ``lwrespawn ... &`` command.
    """
    done = subprocess.run(["sh", "-n"], input=text, text=True, capture_output=True, check=False)
    if done.returncode != 0:
        raise ApplianceError(f"labwc autostart is not valid sh: {done.stderr.strip()}")
    lines = text.splitlines()
    starts = [i for i, ln in enumerate(lines) if ln.startswith(BLOCK_START)]
    ends = [i for i, ln in enumerate(lines) if ln.startswith(BLOCK_END)]
    if len(starts) != 1 or len(ends) != 1 or ends[0] < starts[0]:
        raise ApplianceError(f"labwc autostart: expected one table-companion block, found "
                             f"{len(starts)} start and {len(ends)} end markers")
    body = [ln for ln in lines[starts[0] + 1:ends[0]] if not ln.lstrip().startswith("#")]
    argv = shlex.split(" ".join(ln.rstrip().removesuffix("\\") for ln in body))
    if not argv or argv[0] != "lwrespawn" or argv[-1] != "&":
        raise ApplianceError(f"labwc autostart block: expected `lwrespawn ... &`, got {argv}")
    return argv[:-1]


def check_ini(text: str, section: str) -> None:
    parser = configparser.ConfigParser(strict=True, interpolation=None)
    parser.read_string(text)
    if not parser.has_section(section):
        raise ApplianceError(f"generated file lacks its [{section}] section")


# -- enable / disable / status ---------------------------------------------------------------
def enable(opts: Options, runner: Runner = run_command) -> Report:
    """Set the appliance up as ``opts`` says (after undoing an earlier setup)."""
    root = opts.root
    report = Report()
    if opts.rotation not in ROTATIONS:
        raise ApplianceError(f"--rotation {opts.rotation}: choose one of 0, 90, 180, 270")
    if opts.mode not in MODES:
        raise ApplianceError(f"--mode {opts.mode!r}: choose auto, desktop or console")
    mode = detect_mode(root) if opts.mode == "auto" else opts.mode
    account = _account(root, opts.user)
    if not _in_root(root, "/var/lib").is_dir():
        raise ApplianceError(f"{root} does not look like a Debian root (no /var/lib)")
    exe = _in_root(root, opts.venv / "bin" / "companion")
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
        report.lines += disable(root, runner).lines
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
        text = _template("runtime-watchdog.conf").substitute(hw_watchdog_s=HW_WATCHDOG_S)
        check_ini(text, "Manager")
        _write_new(root, WATCHDOG_DROPIN, text, manifest)
        report.add(f"hardware watchdog: systemd feeds it every {HW_WATCHDOG_S / 2:g} s "
                   "(from the next boot)")
        if opts.protect is not None:
            _enable_protect(opts, account, manifest, runner, report)
    except BaseException:
        disable(root, runner)
        raise
    if _is_live(root):
        _run(runner, ["systemctl", "daemon-reload"], report)
    report.add(f"enabled ({mode} mode); the companion starts at the next boot "
               "(`sudo reboot`); `companion appliance disable` undoes all of it")
    return report


def _check_protect_dir(opts: Options) -> None:
    assert opts.protect is not None
    data = _in_root(opts.root, opts.protect)
    if not data.is_dir():
        raise ApplianceError(f"--protect {opts.protect}: no such folder; mount a second partition "
                             "or a USB stick there first (see docs/raspberry-pi.md)")
    if _same_filesystem(data, opts.root):
        raise ApplianceError(
            f"--protect {opts.protect} is on the root filesystem, which becomes read-only: "
            "games, settings and profiles written there would vanish at power-off; give the "
            "mount point of another filesystem (a data partition or a USB stick)")


def _enable_console(opts: Options, env: dict[str, str], manifest: Manifest, runner: Runner,
                    report: Report) -> None:
    root = opts.root
    text = render_unit(opts, env)
    _write_new(root, UNIT_PATH, text, manifest)
    problem = check_unit(root)
    if problem:
        raise ApplianceError(f"the generated {UNIT} does not verify: {problem}")
    report.add(f"{UNIT_PATH}: checked with systemd-analyze verify")
    default = _systemctl(root, runner, ["get-default"]).stdout.strip()
    if default == "graphical.target":
        link = _in_root(root, "/etc/systemd/system/default.target")
        was = os.readlink(link) if link.is_symlink() else None
        manifest.record({"op": "default-target", "link": was})
        _systemctl(root, runner, ["set-default", "multi-user.target"], check=True)
        report.add("boot target: multi-user.target (was graphical.target: the desktop would "
                   "take the screen)")
    _make_dirs(root, "/etc/systemd/system/multi-user.target.wants/" + UNIT, manifest, None)
    _systemctl(root, runner, ["enable", UNIT], check=True)
    manifest.record({"op": "unit-enabled", "unit": UNIT})
    report.add(f"{UNIT}: enabled (tty1, KMS/DRM, Restart=always, WatchdogSec={APP_WATCHDOG_S}s)")


def _enable_desktop(opts: Options, account: Account, env: dict[str, str],
                    manifest: Manifest, report: Report) -> None:
    root = opts.root
    path = str(account.home / ".config/labwc/autostart")
    target = _in_root(root, path)
    existed = target.exists()
    old = target.read_text(encoding="utf-8") if existed else ""
    lines = old.splitlines()
    blanking = [i for i, ln in enumerate(lines) if re.match(r"\s*(/usr/bin/)?swayidle\b", ln)]
    for i in blanking:
        lines[i] = COMMENTED + lines[i]
    block = render_autostart_block(opts, env)
    new = "\n".join([*lines, block.rstrip("\n")]).lstrip("\n") + "\n"
    argv = parse_autostart_block(new)
    exe = argv[argv.index("--working-directory=" + str(opts.repo)) + 1]
    if not os.access(_in_root(root, exe), os.X_OK):
        raise ApplianceError(f"labwc autostart block: {exe} is not executable")
    if existed:
        manifest.record({"op": "autostart", "path": path, "created": False,
                         "commented": [lines[i] for i in blanking]})
        target.write_text(new, encoding="utf-8")
    else:
        _make_dirs(root, path, manifest, account)
        manifest.record({"op": "autostart", "path": path, "created": True, "commented": []})
        target.write_text(new, encoding="utf-8")
        _chown(target, account)
    report.add(f"{path}: the app under lwrespawn and a systemd user watchdog "
               f"(WatchdogSec={APP_WATCHDOG_S}s); checked with sh -n")
    if blanking:
        report.add(f"screen blanking: {len(blanking)} swayidle line(s) there turned off")
    autologin = _desktop_autologin(root)
    if autologin != opts.user:
        report.add(f"warning: desktop autologin is {'for ' + autologin if autologin else 'off'}: "
                   f"nothing starts until {opts.user} logs in; turn it on: sudo raspi-config > "
                   "System Options > Boot / Auto Login > Desktop Autologin")
    if not _in_root(root, "/usr/bin/lwrespawn").exists():
        report.add("warning: lwrespawn is not installed here (Raspberry Pi OS's desktop has it)")


def _enable_protect(opts: Options, account: Account, manifest: Manifest, runner: Runner,
                    report: Report) -> None:
    assert opts.protect is not None
    root = opts.root
    text = _template("overlayroot.local.conf").substitute(data=opts.protect)
    _write_new(root, OVERLAY_CONF, text, manifest)
    for sub in ("data", "config", "kivy"):
        folder = _in_root(root, opts.protect / sub)
        if not folder.exists():
            folder.mkdir(parents=True)
            _chown(folder, account)
    report.add(f"power-pull protection: read-only root from the next boot; journal, settings "
               f"and profiles in {opts.protect} (copy existing ones there: see {DOCS})")
    if _is_live(root):
        installed = _run(runner, ["dpkg-query", "-W", "-f=${Status}", "overlayroot"], report,
                         quiet=True).stdout
        if "install ok installed" not in installed:
            _run(runner, ["apt-get", "install", "-y", "overlayroot"], report, check=True)
            manifest.record({"op": "apt", "package": "overlayroot"})
        _run(runner, ["update-initramfs", "-u"], report, check=True)
    else:
        report.add(f"not the running system: on the Pi, run `sudo apt install overlayroot && "
                   f"sudo update-initramfs -u` before booting ({root})")


def disable(root: Path = Path("/"), runner: Runner = run_command) -> Report:
    """Undo everything ``enable`` recorded, newest first; a no-op when nothing was enabled."""
    report = Report()
    if overlay_active(root):
        # The running root is a RAM overlay: the real one is mounted read-only below it.
        lower = _in_root(root, OVERLAY_LOWER)
        _run(runner, ["mount", "-o", "remount,rw", str(lower)], report, check=True)
        try:
            report.lines += disable(lower, runner).lines
        finally:
            _run(runner, ["mount", "-o", "remount,ro", str(lower)], report)
        report.add("power-pull protection stays on until the next boot: `sudo reboot`")
        return report
    manifest = Manifest.load(root)
    if manifest is None:
        report.add("the appliance is not enabled here: nothing to undo")
        return report
    pending: list[dict[str, Any]] = []
    for op in reversed(manifest.ops):
        if op["op"] == "apt" and not _is_live(root):
            pending.insert(0, op)  # apt works on the running system only: kept for later
            continue
        _undo(root, op, runner, report)
        manifest.ops.remove(op)
        manifest.save()
    if pending:
        manifest.settings = {"disabled": True}
        manifest.save()
        names = ", ".join(op["package"] for op in pending)
        report.add(f"disabled, but {names} is still installed (apt works only on the running "
                   "system, without the overlay): after the next boot run `sudo "
                   ".venv/bin/companion appliance disable` once more to remove it")
        return report
    manifest.path.unlink()
    parent = manifest.path.parent
    if parent.exists() and not any(parent.iterdir()):
        parent.rmdir()
    if _is_live(root):
        _run(runner, ["systemctl", "daemon-reload"], report)
    report.add("disabled: the Pi boots as it did before `companion appliance enable`")
    return report


def _undo(root: Path, op: dict[str, Any], runner: Runner, report: Report) -> None:
    kind = op["op"]
    if kind == "file":
        _in_root(root, op["path"]).unlink(missing_ok=True)
        report.add(f"removed {op['path']}")
    elif kind == "dir":
        folder = _in_root(root, op["path"])
        if folder.is_dir() and not any(folder.iterdir()):
            folder.rmdir()
    elif kind == "unit-enabled":
        _systemctl(root, runner, ["disable", op["unit"]])
        report.add(f"{op['unit']}: disabled")
        if _is_live(root):
            _run(runner, ["systemctl", "stop", op["unit"]], report)
    elif kind == "default-target":
        link = _in_root(root, "/etc/systemd/system/default.target")
        link.unlink(missing_ok=True)
        if op["link"] is not None:
            link.symlink_to(op["link"])
        report.add("boot target: as it was (graphical.target)")
    elif kind == "autostart":
        path = _in_root(root, op["path"])
        if op["created"]:
            path.unlink(missing_ok=True)
        elif path.exists():
            lines = path.read_text(encoding="utf-8").splitlines()
            gone = [ln for ln in op["commented"] if COMMENTED + ln not in lines]
            if gone:
                report.add(f"{op['path']}: {len(gone)} screen-blanking line(s) turned off by "
                           "enable were removed since (raspi-config's Screen Blanking switch "
                           "does that) and cannot be restored: turn blanking on there if you "
                           "want it")
            keep: list[str] = []
            inside = False
            for line in lines:
                if line.startswith(BLOCK_START):
                    inside = True
                elif line.startswith(BLOCK_END):
                    inside = False
                elif not inside:
                    keep.append(line.removeprefix(COMMENTED))
            path.write_text("\n".join(keep) + ("\n" if keep else ""), encoding="utf-8")
        report.add(f"{op['path']}: the companion's block removed")
    elif kind == "apt":
        if _is_live(root):
            _run(runner, ["apt-get", "purge", "-y", op["package"]], report)
            _run(runner, ["update-initramfs", "-u"], report)
    else:
        raise ApplianceError(f"{MANIFEST}: unknown change {kind!r}; see {DOCS}, 'Undo by hand'")


def overlay_active(root: Path = Path("/")) -> bool:
    """True when ``root`` is running under overlayroot's RAM overlay (read from its
    /proc/self/mountinfo: a temporary root in the tests holds a stand-in one)."""
    mounts = parse_mountinfo(read_mountinfo(_in_root(root, MOUNTINFO)))
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
            words = _in_root(root, name).read_text(encoding="utf-8").split()
        except OSError:
            continue
        for word in words:
            if word.startswith("overlayroot="):
                value = word.split("=", 1)[1].strip('"')
                return value if value not in ("", "disabled") else None
        return None
    return None


def status(root: Path = Path("/"), runner: Runner = run_command,
           running: bool | None = None) -> Report:
    """What the appliance setup is, and whether it is what runs: each line ``ok``, ``PROBLEM``
    (with what to do) or ``note``. What was written is read back (the files, the boot target,
    the desktop's autologin, the overlay's configuration and package, the kernel command line);
    on the running system (``running``, default: ``root`` is "/") also what runs: the service
    or the user service with its restart count, the hardware watchdog, the overlay, the data
    folder's mount, the last start of the app."""
    report = Report()
    manifest = Manifest.load(root)
    if manifest is None:
        report.add("appliance: not enabled (`sudo .venv/bin/companion appliance enable`)")
        return report
    s = manifest.settings
    if s.get("disabled"):
        names = ", ".join(op.get("package", "?") for op in manifest.ops)
        report.add(f"appliance: disabled; one step left: {names} is still installed (run `sudo "
                   ".venv/bin/companion appliance disable` once more, without the overlay)")
        return report
    live = _is_live(root) if running is None else running
    protect = Path(s["protect"]) if s.get("protect") else None
    mode = s.get("mode")
    report.add(f"appliance: enabled, {mode} mode, user {s.get('user')}, rotation "
               f"{s.get('rotation')}, audio {s.get('audio')}, power-pull protection "
               f"{'on, data in ' + str(protect) if protect else 'off'}")

    def line(ok: bool | None, text: str) -> None:
        report.add(f"  {'note    ' if ok is None else 'ok      ' if ok else 'PROBLEM '}{text}")

    for op in manifest.ops:
        if op["op"] in ("file", "autostart"):
            there = _in_root(root, op["path"]).exists()
            line(there, op["path"] + ("" if there else ": missing (run `enable` again)"))
        elif op["op"] == "unit-enabled":
            state = _systemctl(root, runner, ["is-enabled", op["unit"]]).stdout.strip()
            line(state == "enabled", f"{op['unit']}: {state or 'unknown'} at boot")
    target = _default_target(root)
    wanted = "multi-user.target" if mode == "console" else "graphical.target"
    line(target == wanted, f"boot target: {target or 'unknown'}" + (
        "" if target == wanted else f" (the {mode} mode needs {wanted}: run `enable` again)"))
    if mode == "desktop":
        user = _desktop_autologin(root)
        ok = user == s.get("user")
        line(ok, f"desktop autologin: {user or 'off'}" + ("" if ok else (
            f" (nothing starts until {s.get('user')} logs in: sudo raspi-config > System "
            "Options > Boot / Auto Login > Desktop Autologin)")))
    if live:
        _status_running(root, runner, s, line)
    if protect is not None:
        _status_protection(root, protect, live, line)
    cmdline = kernel_overlay(root)
    if cmdline is not None:
        line(False, f"raspi-config's Overlay File System is on (overlayroot={cmdline} on the "
                    "kernel command line): it puts the data folder in RAM too; turn it off in "
                    "raspi-config")
    folder = _app_log_dir(root, s)
    if folder is not None and live:
        from companion.appliance.starts import Starts

        record = Starts.load(folder)
        line(record.crashes == 0 if record.started else None,
             f"the app: {record.describe()} (log: {folder / 'companion.log'})")
    return report


def _default_target(root: Path) -> str:
    for where in ("/etc/systemd/system/default.target", "/usr/lib/systemd/system/default.target",
                  "/lib/systemd/system/default.target"):
        link = _in_root(root, where)
        if link.is_symlink():
            return Path(os.readlink(link)).name
    return ""


def _desktop_autologin(root: Path) -> str:
    """The user LightDM logs in automatically (raspi-config's Desktop Autologin), or ""."""
    files = [_in_root(root, "/etc/lightdm/lightdm.conf"),
             *sorted(_in_root(root, "/etc/lightdm/lightdm.conf.d").glob("*.conf"))]
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


def _show(runner: Runner, argv: list[str]) -> dict[str, str]:
    done = runner(argv)
    return dict(ln.split("=", 1) for ln in done.stdout.splitlines() if "=" in ln)


def _status_running(root: Path, runner: Runner, s: dict[str, Any],
                    line: Callable[[bool | None, str], None]) -> None:
    props = ["-p", "ActiveState", "-p", "SubState", "-p", "NRestarts", "-p", "Result"]
    if s.get("mode") == "console":
        what, got = "the app's service", _show(runner, ["systemctl", "show", UNIT, *props])
    else:
        what = f"the app's user service (of {s.get('user')})"
        got = _show(runner, ["systemctl", "--user", f"--machine={s.get('user')}@", "show",
                             "table-companion.service", *props])
    state = f"{got.get('ActiveState', 'unknown')}/{got.get('SubState', 'unknown')}"
    restarts = got.get("NRestarts", "?")
    good = got.get("ActiveState") == "active" and got.get("SubState") == "running"
    line(good, f"{what}: {state}, restarted {restarts} time(s) since boot, last result "
               f"{got.get('Result', 'unknown')}" + ("" if good else " (see the app's log below)"))
    manager = _show(runner, ["systemctl", "show", "-p", "RuntimeWatchdogUSec"])
    dog = manager.get("RuntimeWatchdogUSec", "")
    line(dog not in ("", "0", "infinity") and _in_root(root, WATCHDOG_DROPIN).exists(),
         f"hardware watchdog: fed by systemd every half of {dog or 'nothing'}"
         if dog not in ("", "0") else "hardware watchdog: not fed (reboot once after `enable`)")


def _status_protection(root: Path, protect: Path, live: bool,
                       line: Callable[[bool | None, str], None]) -> None:
    installed = _dpkg_installed(root, "overlayroot")
    line(installed, "overlayroot package: " + ("installed" if installed else
                                               "NOT installed (sudo apt install overlayroot && "
                                               "sudo update-initramfs -u)"))
    if not live:
        return
    active = overlay_active(root)
    line(active, "read-only root (RAM overlay) now: " + (
        "on" if active else "off (it starts at the next boot: `sudo reboot`)"))
    mounts = parse_mountinfo(read_mountinfo(_in_root(root, MOUNTINFO)))
    on = mount_of(protect, mounts) if mounts else None
    if on is None or on.point != protect:
        line(False, f"data folder {protect}: NOT mounted (plug in the USB stick or data "
                    "partition; until then the app saves no games)")
    elif on.fstype in VOLATILE:
        line(False, f"data folder {protect}: mounted, but in RAM ({on.fstype}): games would be "
                    "lost (raspi-config's overlay?)")
    else:
        writable = os.access(_in_root(root, protect), os.W_OK)
        line(writable, f"data folder {protect}: mounted ({on.fstype}, {on.source})"
                       + (", writable" if writable else ", NOT writable"))


def _dpkg_installed(root: Path, package: str) -> bool:
    try:
        text = _in_root(root, "/var/lib/dpkg/status").read_text(encoding="utf-8",
                                                                 errors="replace")
    except OSError:
        return False
    for para in text.split("\n\n"):
        fields = dict(ln.split(": ", 1) for ln in para.splitlines() if ": " in ln)
        if fields.get("Package") == package:
            return fields.get("Status", "").strip() == "install ok installed"
    return False


def _app_log_dir(root: Path, s: dict[str, Any]) -> Path | None:
    """Where the app keeps its log and start record (COMPANION_LOG_DIR of app_environment)."""
    if s.get("protect"):
        return _in_root(root, Path(s["protect"]) / "logs")
    try:
        home = _account(root, str(s.get("user"))).home
    except ApplianceError:
        return None
    return _in_root(root, home / USER_LOG_DIR)


def _systemctl(root: Path, runner: Runner, args: list[str],
               check: bool = False) -> subprocess.CompletedProcess[str]:
    argv = ["systemctl", *args] if _is_live(root) else ["systemctl", f"--root={root}", *args]
    done = runner(argv)
    if check and done.returncode != 0:
        raise ApplianceError(f"`{shlex.join(argv)}` failed: {done.stderr.strip()}")
    return done


def _run(runner: Runner, argv: list[str], report: Report, *, check: bool = False,
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
