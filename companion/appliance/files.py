"""What the appliance writes, each file rendered from ``templates/`` and checked before it is
relied on: the console service (``systemd-analyze verify``), the labwc autostart block (``sh -n``
and a parse of the block), the drop-ins (strict INI parsing); and the app's environment in the
appliance (its screen, sound, GPIO, data and log folders)."""

from __future__ import annotations

import configparser
import re
import shlex
import shutil
import subprocess
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from string import Template

from companion.appliance.mounts import PROTECT_VAR, FstabEntry
from companion.appliance.starts import LOG_DIR_VAR
from companion.appliance.system import (
    DOCS,
    ApplianceError,
    group_names,
    in_root,
    is_live,
    user_account,
)
from hardware.audio.route import CARD_IDS, OUTPUT_VAR

UNIT = "table-companion.service"
UNIT_PATH = "/etc/systemd/system/" + UNIT
WATCHDOG_DROPIN = "/etc/systemd/system.conf.d/table-companion-watchdog.conf"
OVERLAY_CONF = "/etc/overlayroot.local.conf"
#: The drop-in, in the data stick's device unit's folder, that mounts it when plugged in.
HOTPLUG_DROPIN = "table-companion-hotplug.conf"
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
    #: whether ``root`` is the running system, where apt, update-initramfs and daemon-reload run
    #: (None: when it is "/"; the tests say True of a temporary root, with stand-in commands)
    live: bool | None = None

    @property
    def running(self) -> bool:
        return is_live(self.root) if self.live is None else self.live


def template(name: str) -> Template:
    return Template((resources.files(__package__) / "templates" / name).read_text("utf-8"))


def detect_mode(root: Path) -> str:
    """``desktop`` where labwc is installed (Raspberry Pi OS with desktop), else ``console``."""
    return "desktop" if in_root(root, "/usr/bin/labwc").exists() else "console"


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


def app_environment(opts: Options, mode: str) -> dict[str, str]:
    """The environment the app runs with in the appliance."""
    env: dict[str, str] = {}
    if mode == "console":
        env["SDL_VIDEODRIVER"] = "kmsdrm"
    site = in_root(opts.root, "/usr/lib/python3/dist-packages")
    if any(site.glob("lgpio*")):
        env["GPIOZERO_PIN_FACTORY"] = "lgpio"
    cards = opts.sound_cards
    if cards is None and is_live(opts.root):
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
        env[LOG_DIR_VAR] = str(user_account(opts.root, opts.user).home / USER_LOG_DIR)
    return env


def app_command(opts: Options) -> list[str]:
    return [str(opts.venv / "bin" / "companion"), "start", "--rotation", str(opts.rotation)]


def render_unit(opts: Options, env: dict[str, str]) -> str:
    wanted = ["video", "render", "input", "audio", "gpio"]
    present = [g for g in wanted if g in group_names(opts.root)]
    groups = f"SupplementaryGroups={' '.join(present)}" if present else ""
    environment = "\n".join(f"Environment={shlex.quote(f'{k}={v}')}" for k, v in env.items())
    return template("table-companion.service").substitute(
        docs=opts.repo / DOCS, watchdog_s=APP_WATCHDOG_S, user=opts.user, groups=groups,
        repo=opts.repo, environment=environment, command=shlex.join(app_command(opts)))


def unit_name(path: Path, suffix: str) -> str:
    """systemd's unit name for ``path`` (``/mnt/table``, ``mount`` -> ``mnt-table.mount``), as
    systemd-escape(1) makes it.

    Raised when ...: ApplianceError when systemd-escape is not installed."""
    tool = shutil.which("systemd-escape")
    if tool is None:
        raise ApplianceError("systemd-escape is not installed (it comes with systemd): the "
                             "data stick's units cannot be named")
    done = subprocess.run([tool, "--path", f"--suffix={suffix}", str(path)], text=True,
                          capture_output=True, check=False)
    if done.returncode != 0:
        raise ApplianceError(f"systemd-escape --path {path}: {done.stderr.strip()}")
    return done.stdout.strip()


def hotplug_dropin(opts: Options, stick: FstabEntry) -> tuple[str, str] | None:
    """Where the drop-in goes that mounts the data stick whenever it is plugged in, and its
    text: the stick's device unit wants the mount unit /etc/fstab's line makes. None for a
    source that is no block device."""
    device = stick.device
    if device is None:
        return None
    text = template("data-stick-hotplug.conf").substitute(
        stick=stick.source, point=stick.point, docs=opts.repo / DOCS,
        mount_unit=unit_name(stick.point, "mount"))
    check_ini(text, "Unit")
    return f"/etc/systemd/system/{unit_name(device, 'device')}.d/{HOTPLUG_DROPIN}", text


def render_autostart_block(opts: Options, env: dict[str, str]) -> str:
    setenv = " ".join(shlex.quote(f"--setenv={k}={v}") for k, v in env.items())
    return template("labwc-autostart").substitute(
        docs=opts.repo / DOCS, watchdog_s=APP_WATCHDOG_S, setenv=setenv, repo=opts.repo,
        command=shlex.join(app_command(opts)))


def check_unit(root: Path, path: str = UNIT_PATH) -> str:
    """``systemd-analyze verify`` on the unit inside ``root``; "" when clean, else its words.
    Needs systemd's own units in ``root`` (every Debian root has them)."""
    tool = shutil.which("systemd-analyze")
    if tool is None:
        return "systemd-analyze is not installed: the unit was not verified"
    argv = [tool, "verify", path] if is_live(root) else [tool, "verify", f"--root={root}", path]
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
