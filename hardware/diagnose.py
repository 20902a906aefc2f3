"""What hardware is there, and what to do about what is not: the checks behind `companion doctor`.

Each check returns :class:`Check` records with a plain verdict (ok, warn, fail), what was found
and, unless all is well, what to do. Checks look without touching: cameras are not opened unless
``probe_camera`` is asked for, pins are not claimed.
"""

from __future__ import annotations

import contextlib
import os
import time
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hardware.errors import HardwareError

if TYPE_CHECKING:
    from hardware.camera import StandIn


@dataclass(frozen=True)
class Check:
    """One finding: ``verdict`` is ok, warn or fail; ``action`` says what to do ("" if ok)."""

    area: str
    verdict: str
    finding: str
    action: str = ""


def pi_model() -> str | None:
    """The Raspberry Pi model string, or None when not on a Pi."""
    try:
        text = Path("/proc/device-tree/model").read_bytes().rstrip(b"\x00").decode()
    except OSError:
        return None
    return text if "Raspberry Pi" in text else None


def check_config(path: Path) -> tuple[list[Check], dict[str, Any]]:
    """The config file: where it is, whether it parses."""
    from hardware.config import load_config

    if not path.exists():
        return [Check("config", "ok", f"{path} not present: built-in defaults in use",
                      "")], {}
    try:
        config = load_config(path)
    except HardwareError as exc:
        return [Check("config", "fail", str(exc), f"fix {path} (or move it away to start from "
                      "the defaults)")], {}
    tables = ", ".join(f"[{k}]" for k in config) or "no tables"
    return [Check("config", "ok", f"{path} ({tables})")], config


def check_camera(config: Mapping[str, Any], *, probe: bool = False, setting: str | None = None,
                 stand_in: StandIn | None = None) -> list[Check]:
    """Which camera the companion uses and why, and what cameras are there.

    ``setting`` is the app's own camera setting (its Settings screen), ``stand_in`` what the
    stand-in camera draws with (for the probe).
    """
    from hardware.camera import choose, open_source
    from hardware.errors import ConfigError, UnknownSource

    out: list[Check] = []
    on_pi = pi_model() is not None
    try:
        choice = choose(None, config, setting=setting)
    except UnknownSource as exc:
        where = {"COMPANION_CAMERA": "unset COMPANION_CAMERA or set it to",
                 "Settings": "in Settings > Camera choose",
                 "config file": "in the config file set [camera] source to"}
        origin = next((o for o in where if f"(from {o})" in str(exc)), "config file")
        return [Check("camera", "fail", str(exc), f"{where[origin]} auto, picamera2, opencv:0, "
                      "replay:PATH or synthetic")]
    except ConfigError as exc:
        return [Check("camera", "fail", str(exc), "fix [camera] in the config file")]

    pi = check_picamera2(on_pi)
    out.extend(pi)
    pi_cameras = any(c.verdict == "ok" and "camera(s)" in c.finding for c in pi)

    videos = sorted(str(p) for p in Path("/dev").glob("video*"))
    if videos:
        shown = ", ".join(videos[:6]) + (" ..." if len(videos) > 6 else "")
        out.append(Check("camera", "ok", f"opencv: video devices {shown}"))
    else:
        out.append(Check("camera", "ok", "opencv: no /dev/video* devices (no USB webcam)"))

    why = f"from {choice.origin}"
    if choice.stand_in:
        out.insert(0, Check("camera", "ok", f"camera: the stand-in, rendered dice ({why}); "
                            "its rolls count in games because it was chosen"))
    elif choice.auto:
        if pi_cameras:
            found = "the Pi camera"
        elif "/dev/video0" in videos:
            found = "USB camera 0 (opencv:0)"
        else:
            found = ""
        if found:
            out.insert(0, Check("camera", "ok", f"camera: auto ({why}) finds {found}"))
        else:
            out.insert(0, Check("camera", "warn", f"camera: auto ({why}) finds no camera: the "
                                "screens show rendered dice, and no roll reaches a game",
                                "connect the Pi camera or a USB webcam, or enter rolls by touch; "
                                "COMPANION_CAMERA=synthetic plays with rendered dice"))
    else:
        out.insert(0, Check("camera", "ok", f"camera: {choice.spec!r} ({why})"))

    if probe:
        try:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                src = open_source(None, config, setting=setting, stand_in=stand_in)
            with src:
                start = time.monotonic()
                frames = [src.read() for _ in range(5)]
                dt = time.monotonic() - start
            h, w = frames[0].image.shape[:2]
            fell_back = [str(w_.message) for w_ in caught]
            verdict = "warn" if fell_back else "ok"
            detail = f"; {fell_back[0]}" if fell_back else ""
            out.append(Check("camera", verdict,
                             f"probe: {src.name} gave {w}x{h} frames at {5 / dt:.1f} fps{detail}",
                             "see the lines above for the camera that failed" if fell_back else ""))
        except Exception as exc:
            out.append(Check("camera", "fail", f"probe: {exc}",
                             "set COMPANION_CAMERA=synthetic to run without a camera"))
    return out


def check_picamera2(on_pi: bool) -> list[Check]:
    """Whether picamera2 loads in this Python (the real cause and fix when not), and its cameras."""
    from hardware.camera.picam import Picamera2LoadError, import_picamera2

    try:
        picamera2 = import_picamera2()
    except Picamera2LoadError as exc:
        if not on_pi and exc.kind == "missing":
            return [Check("camera", "ok", "picamera2: not installed (not a Raspberry Pi)")]
        verdict = "warn" if exc.kind == "missing" else "fail"
        return [Check("camera", verdict, exc.cause, exc.fix)]
    try:
        cams = picamera2.global_camera_info()
    except Exception as exc:
        return [Check("camera", "warn", f"picamera2: error listing cameras: {exc}",
                      "check the ribbon cable, then `rpicam-hello --list-cameras`")]
    if not cams:
        return [Check("camera", "warn", "picamera2: loads, but no camera detected",
                      "check the ribbon cable (contacts facing the right way), then "
                      "`rpicam-hello --list-cameras`")]
    models = ", ".join(str(c.get("Model", "?")) for c in cams)
    return [Check("camera", "ok", f"picamera2: {len(cams)} camera(s): {models}")]


def check_gpio(config: Mapping[str, Any]) -> list[Check]:
    """gpiozero's pin factory and the button map's pins."""
    from hardware.buttons import BCM_TO_BOARD, ButtonMap
    from hardware.errors import ConfigError

    out: list[Check] = []
    model = pi_model()
    env = os.environ.get("GPIOZERO_PIN_FACTORY")
    try:
        from gpiozero import Device

        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            factory = Device._default_pin_factory()
        name = type(factory).__name__
        fallbacks = "; ".join(str(w.message) for w in caught)
        if name == "MockFactory":
            verdict, action = ("warn", "on the Pi set GPIOZERO_PIN_FACTORY=lgpio") if model else (
                "ok", "")
            finding = f"GPIO: mock pins ({'GPIOZERO_PIN_FACTORY=' + env if env else 'default'}): "
            finding += "buttons can only be pressed in tests"
        else:
            verdict, action = "ok", ""
            finding = f"GPIO: {name}" + (f" (GPIOZERO_PIN_FACTORY={env})" if env else "")
            if fallbacks:
                finding += f" after: {fallbacks}"
            if model and "Pi 5" in model and name != "LGPIOFactory":
                verdict = "warn"
                action = "a Pi 5 needs lgpio: sudo apt install python3-lgpio; " \
                         "GPIOZERO_PIN_FACTORY=lgpio"
        with contextlib.suppress(Exception):
            factory.close()
        out.append(Check("gpio", verdict, finding, action))
    except Exception as exc:
        action = ("sudo apt install python3-lgpio, make the venv with --system-site-packages, "
                  "and set GPIOZERO_PIN_FACTORY=lgpio" if model else
                  "not a Pi: set GPIOZERO_PIN_FACTORY=mock to try the app without buttons")
        out.append(Check("gpio", "warn" if not model else "fail",
                         f"GPIO: no pin factory ({type(exc).__name__}: {exc})", action))

    source = "config file" if "buttons" in config else "built-in two-seat map"
    try:
        bmap = ButtonMap.from_config(config) if "buttons" in config else ButtonMap.default()
    except ConfigError as exc:
        out.append(Check("gpio", "fail", f"button map: {exc}", "fix [buttons] in the config file"))
        return out
    for seat in bmap.seats:
        parts = [f"{b.action}={b.pin}(pin {BCM_TO_BOARD.get(int(b.pin[4:]), '?')})"
                 for b in bmap.buttons if b.seat == seat]
        led = bmap.led_pin(seat)
        if led:
            parts.append(f"led={led}(pin {BCM_TO_BOARD.get(int(led[4:]), '?')})")
        out.append(Check("gpio", "ok", f"seat {seat}: " + ", ".join(parts)))
    special = {"GPIO0": "HAT EEPROM", "GPIO1": "HAT EEPROM", "GPIO2": "I2C (fixed pull-up)",
               "GPIO3": "I2C (fixed pull-up)", "GPIO14": "serial console",
               "GPIO15": "serial console"}
    pins = [b.pin for b in bmap.buttons] + [p for _, p in bmap.leds]
    for pin in pins:
        if pin in special:
            out.append(Check("gpio", "warn", f"{pin} is also the {special[pin]}",
                             "fine if that function is off (raspi-config); else pick another pin"))
    out.append(Check("gpio", "ok", f"button map from the {source}: {len(bmap.buttons)} buttons, "
                     f"{len(bmap.leds)} LEDs"))
    return out


def check_audio(config: Mapping[str, Any]) -> list[Check]:
    """The sound output, the built-in sounds and the soundtracks folder."""
    from hardware.audio import (
        BUILTIN_SOUNDS,
        audio_options,
        builtin_sound,
        list_soundtracks,
        open_audio,
    )
    from hardware.config import soundtracks_dir
    from hardware.errors import ConfigError, SoundMissing

    out: list[Check] = []
    try:
        audio_options(config)
    except ConfigError as exc:
        out.append(Check("audio", "fail", str(exc), "fix [audio] in the config file: volume is "
                         "a number from 0 to 1, backend is kivy or silent"))
        config = {k: v for k, v in config.items() if k != "audio"}
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            backend = open_audio(config=config)
        backend.close()
        fell = f" (after: {caught[0].message})" if caught else ""
        out.append(Check("audio", "warn" if caught else "ok", f"audio backend: {backend.name}"
                         + fell, "see docs/hardware.md (sound)" if caught else ""))
    except ConfigError as exc:
        out.append(Check("audio", "fail", str(exc), "set COMPANION_AUDIO or [audio] backend to "
                         "kivy or silent"))
    from hardware.audio.route import route_audio

    # which way the app's sound goes (the desktop's PipeWire, or ALSA straight to the card)
    out.append(Check("audio", "ok", "sound goes " + route_audio(dict(os.environ))))
    driver = os.environ.get("SDL_AUDIODRIVER")
    cards_file = Path("/proc/asound/cards")
    cards = cards_file.read_text().strip() if cards_file.exists() else ""
    card_lines = [ln.strip() for ln in cards.splitlines() if ln[:3].strip().isdigit()]
    if driver == "dummy":
        out.append(Check("audio", "warn", "SDL_AUDIODRIVER=dummy: sound goes nowhere",
                         "unset SDL_AUDIODRIVER to hear the round"))
    elif card_lines:
        out.append(Check("audio", "ok", "sound cards: " + "; ".join(card_lines)))
    elif cards_file.exists():
        out.append(Check("audio", "warn", "no sound card found",
                         "plug in a USB or HDMI speaker (a Pi 5 has no headphone jack)"))
    else:
        out.append(Check("audio", "warn", "no ALSA (/proc/asound/cards): no sound output",
                         "on a Pi: plug in a USB or HDMI speaker; else COMPANION_AUDIO=silent"))
    missing = []
    for name in BUILTIN_SOUNDS:
        try:
            builtin_sound(name)
        except SoundMissing:
            missing.append(name)
    if missing:
        out.append(Check("audio", "fail", f"built-in sounds missing: {', '.join(missing)}",
                         "reinstall, or run scripts/make_sounds.sh"))
    else:
        out.append(Check("audio", "ok", f"built-in sounds: {len(BUILTIN_SOUNDS)} present"))
    folder = soundtracks_dir(config)
    tracks = list_soundtracks(folder)
    if tracks:
        names = ", ".join(f"{t.path.name} ({t.length:.0f} s)" for t in tracks[:5])
        out.append(Check("audio", "ok", f"soundtracks in {folder}: {names}"))
    else:
        out.append(Check("audio", "ok", f"no soundtracks in {folder}: the built-in drum loop "
                         "plays", ""))
    return out


def check_microphone(config: Mapping[str, Any], *, setting: str | None = None,
                     voice_calls: str = "auto", listen: float = 1.0) -> list[Check]:
    """Which microphone voice calls use and why, and whether it hears anything: it is opened
    and listened to for ``listen`` seconds (0: not opened). ``setting`` and ``voice_calls``
    are the app's own (its Settings screen)."""
    from hardware.errors import ConfigError, MicrophoneUnavailable, UnknownMicrophone
    from hardware.microphone import choose, find_microphone, level_dbfs, make_microphone

    fix = "plug in a USB microphone (docs/voice.md: which ones, where to put it)"
    if voice_calls == "off":
        return [Check("microphone", "ok", "voice calls are off in Settings: not listened to")]
    try:
        choice = choose(None, config, setting=setting)
    except UnknownMicrophone as exc:
        return [Check("microphone", "fail", str(exc), "choose auto, alsa, pipewire, replay:PATH, "
                      "stand-in or none (Settings > Microphone, COMPANION_MICROPHONE or "
                      "[microphone] source)")]
    except ConfigError as exc:
        return [Check("microphone", "fail", str(exc), "fix [microphone] in the config file")]
    why = f"from {choice.origin}"
    if choice.kind == "none":
        return [Check("microphone", "ok", f"microphone: none ({why}): voice calls are off")]
    spec = choice.spec
    if choice.kind == "auto":
        found = find_microphone()
        if not found.spec:
            return [Check("microphone", "warn", f"microphone: auto ({why}) finds none "
                          f"({found.why}): voice calls are off", fix)]
        spec = found.spec
        out = [Check("microphone", "ok", f"microphone: auto ({why}) finds {found.label} "
                     f"({spec})")]
    else:
        out = [Check("microphone", "ok", f"microphone: {spec!r} ({why})")]
    if listen <= 0:
        return out
    try:
        mic = make_microphone(spec)
        if mic is None:
            return out
        with mic:
            got = []
            heard = 0.0
            start = time.monotonic()
            while heard < listen and time.monotonic() - start < listen + 2.0:
                block = mic.read(0.5)
                if block is None:
                    break
                got.append(block.samples)
                heard += len(block.samples) / 16000
    except (MicrophoneUnavailable, ConfigError) as exc:
        out.append(Check("microphone", "fail", f"microphone: cannot listen: {exc}",
                         "check the cable, `arecord -l`; another program holding it (the app "
                         "itself) makes it busy"))
        return out
    import numpy as np

    samples = np.concatenate(got) if got else np.zeros(0, dtype=np.float32)
    if len(samples) == 0:
        out.append(Check("microphone", "fail", f"microphone: nothing came in {listen:g} s",
                         "check the cable and `arecord -l`"))
        return out
    level = level_dbfs(samples)
    peak = 20 * float(np.log10(max(float(np.abs(samples).max()), 1e-6)))
    if level <= -90:
        out.append(Check("microphone", "warn", f"microphone hears nothing in {heard:.1f} s "
                         "(digital silence): muted?", "unmute it: alsamixer (F4: capture), "
                         "or the desktop's sound menu"))
    else:
        out.append(Check("microphone", "ok", f"microphone hears: {level:.0f} dBFS over "
                         f"{heard:.1f} s (peak {peak:.0f} dBFS)"))
    return out


def check_display() -> list[Check]:
    """Whether there is a screen Kivy can draw on."""
    out: list[Check] = []
    video = os.environ.get("SDL_VIDEODRIVER")
    desktop = os.environ.get("WAYLAND_DISPLAY") or os.environ.get("DISPLAY")
    drm = Path("/sys/class/drm")
    connected = []
    if drm.is_dir():
        for status in sorted(drm.glob("card*-*/status")):
            try:
                if status.read_text().strip() == "connected":
                    connected.append(status.parent.name.split("-", 1)[1])
            except OSError:
                continue
    if video in ("offscreen", "dummy"):
        out.append(Check("display", "warn", f"SDL_VIDEODRIVER={video}: nothing is shown",
                         "unset SDL_VIDEODRIVER to see the app"))
    elif desktop:
        out.append(Check("display", "ok", f"desktop session ({desktop})"
                         + (f"; screens: {', '.join(connected)}" if connected else "")))
    elif connected:
        out.append(Check("display", "ok", f"screens connected: {', '.join(connected)} (no "
                         "desktop: Kivy draws through KMS/DRM)"))
    else:
        out.append(Check("display", "warn", "no display found",
                         "connect the touchscreen (DSI) or HDMI, or start a desktop session"))
    return out


def run_checks(config_path: Path, *, probe_camera: bool = False,
               camera_setting: str | None = None,
               stand_in: StandIn | None = None, microphone_setting: str | None = None,
               voice_calls: str = "auto", listen: float = 1.0) -> list[Check]:
    """All checks, in the order the doctor prints them (``camera_setting`` and ``stand_in``:
    see :func:`check_camera`; ``microphone_setting``, ``voice_calls`` and ``listen``: see
    :func:`check_microphone`)."""
    checks, config = check_config(config_path)
    model = pi_model()
    checks.insert(0, Check("system", "ok", model or "not a Raspberry Pi (stand-ins will be used)"))
    steps: list[Callable[[], list[Check]]] = [
        lambda: check_camera(config, probe=probe_camera, setting=camera_setting,
                             stand_in=stand_in),
        lambda: check_gpio(config),
        lambda: check_audio(config),
        lambda: check_microphone(config, setting=microphone_setting, voice_calls=voice_calls,
                                 listen=listen),
        check_display,
    ]
    for fn in steps:
        try:
            checks.extend(fn())
        except Exception as exc:  # a broken check must not hide the others
            checks.append(Check("doctor", "fail", f"check crashed: {type(exc).__name__}: {exc}",
                                "report this as a bug"))
    return checks
