"""Which way the app's sound goes: through the desktop's sound server, or straight to ALSA.

On Raspberry Pi OS with the desktop, PipeWire (with WirePlumber) holds the sound cards: an app that
opens an ALSA card directly can find it busy, or take it from the desktop, and the other side
falls silent. So where a sound server runs (PipeWire, or PulseAudio on older desktops), the app
plays through it, as a PulseAudio client (PipeWire serves that protocol; Kivy's SDL speaks it):
``SDL_AUDIODRIVER=pulseaudio``, and the output chosen with ``companion appliance enable --audio``
(``COMPANION_AUDIO_OUTPUT``: hdmi, hdmi2, headphones, usb or an ALSA card id) becomes that
server's sink, found with PipeWire's own ``pw-dump`` and given as ``PULSE_SINK``. Without a sound
server (a Lite image, the console), the app opens the ALSA card itself.

:func:`route_audio` sets the environment before Kivy opens its audio, and says in words which
way it chose (the app's log, ``companion doctor``).
"""

from __future__ import annotations

import ctypes.util
import json
import os
import re
import subprocess
from collections.abc import Callable, MutableMapping
from pathlib import Path
from typing import Any

OUTPUT_VAR = "COMPANION_AUDIO_OUTPUT"
#: The output names and the ALSA card ids they mean on a Raspberry Pi.
CARD_IDS = {"hdmi": "vc4hdmi0", "hdmi2": "vc4hdmi1", "headphones": "Headphones"}


def sound_cards(cards_text: str) -> list[tuple[int, str, str]]:
    """(index, id, description) of each card in /proc/asound/cards' text."""
    return [(int(i), cid, desc.strip()) for i, cid, desc in
            re.findall(r"^\s*(\d+)\s+\[(\S+)\s*\]:\s*(.*)$", cards_text, re.MULTILINE)]


def card_for(choice: str, cards_text: str) -> tuple[int, str] | None:
    """The (index, id) of the card an output name means, if that card is present."""
    cards = sound_cards(cards_text)
    if choice == "usb":
        usb = [(i, cid) for i, cid, desc in cards if "USB" in desc]
        return usb[0] if usb else None
    wanted = CARD_IDS.get(choice, choice)
    return next(((i, cid) for i, cid, _desc in cards if cid == wanted), None)


def sink_for(card_index: int, pw_dump: str) -> str | None:
    """The name of the PipeWire sink playing on ALSA card ``card_index``, from ``pw-dump``'s
    JSON; None when there is none (or the JSON cannot be read)."""
    try:
        objects = json.loads(pw_dump)
    except ValueError:
        return None
    for obj in objects if isinstance(objects, list) else []:
        props: dict[str, Any] = ((obj.get("info") or {}).get("props") or {}) \
            if isinstance(obj, dict) else {}
        if props.get("media.class") != "Audio/Sink":
            continue
        card = props.get("api.alsa.pcm.card", props.get("alsa.card"))
        if card is not None and str(card) == str(card_index) and props.get("node.name"):
            return str(props["node.name"])
    return None


def sound_server(runtime_dir: Path | None) -> str | None:
    """"PipeWire" or "PulseAudio" when the user's sound server listens in ``runtime_dir``
    ($XDG_RUNTIME_DIR), else None."""
    if runtime_dir is None:
        return None
    if (runtime_dir / "pipewire-0").exists():
        return "PipeWire"
    if (runtime_dir / "pulse" / "native").exists():
        return "PulseAudio"
    return None


def _pw_dump() -> str:
    try:
        done = subprocess.run(["pw-dump"], text=True, capture_output=True, timeout=5,
                              check=False)
    except (OSError, subprocess.TimeoutExpired):
        return ""
    return done.stdout


def _cards_text() -> str:
    try:
        return Path("/proc/asound/cards").read_text(encoding="utf-8")
    except OSError:
        return ""


def route_audio(env: MutableMapping[str, str] | None = None, *,
                cards_text: str | None = None,
                pw_dump: Callable[[], str] = _pw_dump,
                has_libpulse: bool | None = None) -> str:
    """Set ``env`` (default: this process's environment) so SDL plays the right way; returns
    which way, in words. A driver set by hand (SDL_AUDIODRIVER) is left as it is."""
    env = os.environ if env is None else env
    choice = env.get(OUTPUT_VAR, "").strip() or "default"
    if env.get("SDL_AUDIODRIVER"):
        device = f", device {env['AUDIODEV']}" if env.get("AUDIODEV") else ""
        return f"SDL_AUDIODRIVER={env['SDL_AUDIODRIVER']} as set in the environment{device}"
    runtime = env.get("XDG_RUNTIME_DIR")
    server = sound_server(Path(runtime) if runtime else None)
    cards = _cards_text() if cards_text is None else cards_text
    card = card_for(choice, cards) if choice != "default" else None
    if server is not None:
        if has_libpulse is None:
            has_libpulse = ctypes.util.find_library("pulse") is not None
        if not has_libpulse:
            return (f"through {server} by its ALSA plugin, to the desktop's default output "
                    "(libpulse0 is not installed, so no output can be chosen: "
                    "sudo apt install libpulse0)")
        env["SDL_AUDIODRIVER"] = "pulseaudio"
        env.pop("AUDIODEV", None)
        if choice == "default":
            return f"through {server}, to the desktop's default output (its volume menu)"
        sink = sink_for(card[0], pw_dump()) if card is not None else None
        if sink is None:
            return (f"through {server}, to the desktop's default output: the {choice} output "
                    "was not found among its sinks (`wpctl status` lists them)")
        env["PULSE_SINK"] = sink
        return f"through {server}, to its sink {sink} ({choice})"
    if choice == "default":
        return "straight to ALSA (no sound server running), its default device"
    if card is None:
        return f"straight to ALSA, its default device: the {choice} output was not found"
    env["SDL_AUDIODRIVER"] = "alsa"
    env["AUDIODEV"] = f"sysdefault:CARD={card[1]}"
    return f"straight to ALSA (no sound server running), device {env['AUDIODEV']}"
