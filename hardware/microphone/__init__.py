"""Microphones and how one is chosen (the table's ears for calls said aloud: docs/voice.md).

Like the camera (:mod:`hardware.camera`), in this order (:func:`choose`): the ``source=``
argument (the command line), the ``COMPANION_MICROPHONE`` environment variable, the app's own
setting (its Settings screen), ``[microphone] source`` in the config file, else ``auto``.
Names:

- ``auto``: the desktop's PipeWire where one runs, else the first USB microphone through ALSA;
  none found: no microphone (voice calls stay off, and the doctor and Settings say so);
- ``alsa``, ``alsa:CARD`` (an ALSA card id or index) or ``alsa:hw:2,0``: a microphone through
  ALSA itself (a Lite image, the console);
- ``pipewire``: the desktop's default source, through PipeWire;
- ``replay:PATH[,PATH...]``: recordings played back at their own pace (tests, the demo);
- ``stand-in``: a quiet room that hears nothing; ``none``: no microphone.

An unknown name raises :class:`~hardware.errors.UnknownMicrophone` naming it and where it came
from; a microphone that cannot open raises :class:`~hardware.errors.MicrophoneUnavailable`
saying why (the listener then stays off and says so: a table never stops over its ears).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec
from msgspec import UNSET, UnsetType

from hardware.errors import ConfigError, UnknownMicrophone
from hardware.microphone.base import BLOCK, RATE, Block, Microphone, level_dbfs
from hardware.microphone.device import DeviceMicrophone, alsa_device, capture_cards
from hardware.microphone.replay import ReplayMicrophone, StandInMicrophone
from hardware.schema import checked

ENV_VAR = "COMPANION_MICROPHONE"
#: Stands in for /proc/asound (its ``cards`` and ``cardN/pcm*c``) in tests and checks.
ASOUND_VAR = "COMPANION_ASOUND_DIR"
CHOICES = "auto, alsa[:CARD], pipewire, replay:PATH, stand-in or none"
KNOWN = ("auto", "alsa", "pipewire", "replay", "stand-in", "none")


class MicrophoneTable(msgspec.Struct, forbid_unknown_fields=True):
    """The ``[microphone]`` table of the config file."""

    source: str | UnsetType = UNSET


#: Keys allowed in the ``[microphone]`` table.
MICROPHONE_KEYS: tuple[str, ...] = MicrophoneTable.__struct_fields__


@dataclass(frozen=True)
class MicrophoneChoice:
    """Which microphone was asked for and by whom: ``origin`` is "command line",
    "COMPANION_MICROPHONE", "Settings", "config file" or "default"."""

    spec: str
    origin: str

    @property
    def kind(self) -> str:
        return self.spec.partition(":")[0].strip().lower()


@dataclass(frozen=True)
class Found:
    """The microphone ``auto`` finds: its spec and what it is in words; ``spec`` "" when
    there is none (``why`` then says what was looked for)."""

    spec: str
    label: str
    why: str = ""


def microphone_options(config: Mapping[str, Any] | None) -> dict[str, Any]:
    """The ``[microphone]`` table of a parsed config, checked. Raised when ...: ConfigError
    naming the key for an unknown key or a value of the wrong type."""
    table = checked((config or {}).get("microphone", {}), MicrophoneTable, "[microphone]",
                    ConfigError)
    return {k: v for k in MICROPHONE_KEYS if (v := getattr(table, k)) is not UNSET}


def choose(source: str | None = None, config: Mapping[str, Any] | None = None, *,
           setting: str | None = None) -> MicrophoneChoice:
    """Which microphone applies, and why (see the module docstring for the order).

    Raised when ...: UnknownMicrophone for a name that is none of the known ones (named with
    where it came from); ConfigError for a bad [microphone] table.
    """
    for candidate, origin in ((source, "command line"), (os.environ.get(ENV_VAR), ENV_VAR),
                              (setting, "Settings"),
                              (microphone_options(config).get("source"), "config file")):
        if candidate is not None and str(candidate).strip():
            spec = str(candidate).strip()
            if spec.partition(":")[0].strip().lower() not in KNOWN:
                raise UnknownMicrophone(f"unknown microphone {spec!r} (from {origin}): choose "
                                        f"{CHOICES}")
            return MicrophoneChoice(spec, origin)
    return MicrophoneChoice("auto", "default")


def asound_dir() -> Path:
    """ALSA's view of the sound cards: /proc/asound, or $COMPANION_ASOUND_DIR."""
    return Path(os.environ.get(ASOUND_VAR) or "/proc/asound")


def _cards_text(asound: Path | None = None) -> str:
    try:
        return ((asound or asound_dir()) / "cards").read_text(encoding="utf-8")
    except OSError:
        return ""


def find_microphone(env: Mapping[str, str] | None = None, *, cards_text: str | None = None,
                    asound: Path | None = None) -> Found:
    """What ``auto`` means here: PipeWire's default source where the desktop runs PipeWire (or
    PulseAudio) and a card can record, else the first USB card that records through ALSA."""
    from hardware.audio.route import sound_server

    env = os.environ if env is None else env
    asound = asound or asound_dir()
    cards = capture_cards(_cards_text(asound) if cards_text is None else cards_text, asound)
    if not cards:
        return Found("", "", "no sound card records here")
    runtime = env.get("XDG_RUNTIME_DIR")
    server = sound_server(Path(runtime) if runtime else None)
    usb = [c for c in cards if "USB" in c[2]] or cards
    index, cid, desc = usb[0]
    if server is not None:
        return Found("pipewire", f"the desktop's microphone through {server} ({desc})")
    return Found(f"alsa:{cid}", f"{desc} through ALSA (card {index})")


def make_microphone(spec: str, *, realtime: bool = True) -> Microphone | None:
    """Build (not open) the microphone ``spec`` names; None for "none" and for "auto" when
    none is found. Raised when ...: UnknownMicrophone for an unknown name; ConfigError for a
    spec with a bad argument; MicrophoneUnavailable for an ALSA card that is not there."""
    name, _, arg = spec.partition(":")
    name = name.strip().lower()
    if name == "auto":
        found = find_microphone()
        return make_microphone(found.spec, realtime=realtime) if found.spec else None
    if name == "none":
        return None
    if name == "stand-in":
        return StandInMicrophone(realtime=realtime)
    if name == "replay":
        paths = [p for p in arg.split(",") if p.strip()]
        if not paths:
            raise ConfigError(f"microphone {spec!r}: replay needs a sound file, e.g. "
                              "replay:calls.wav")
        return ReplayMicrophone(paths, realtime=realtime)
    if name == "pipewire":
        return DeviceMicrophone(spec, arg or "pipewire", "the desktop's microphone (PipeWire)")
    if name == "alsa":
        device = alsa_device(arg, _cards_text(), asound_dir())
        return DeviceMicrophone(spec, device, f"microphone {device} through ALSA")
    raise UnknownMicrophone(f"unknown microphone {spec!r}: choose {CHOICES}")


def open_microphone(source: str | None = None, config: Mapping[str, Any] | None = None, *,
                    setting: str | None = None, realtime: bool = True) -> Microphone | None:
    """Choose, build and open a microphone (None: none chosen or found). Raised when ...:
    UnknownMicrophone, ConfigError, MicrophoneUnavailable (see :func:`make_microphone`)."""
    mic = make_microphone(choose(source, config, setting=setting).spec, realtime=realtime)
    return mic.open() if mic is not None else None


__all__ = [
    "BLOCK", "ENV_VAR", "MICROPHONE_KEYS", "RATE", "Block", "DeviceMicrophone", "Found",
    "Microphone", "MicrophoneChoice", "ReplayMicrophone", "StandInMicrophone", "choose",
    "find_microphone", "level_dbfs", "make_microphone", "microphone_options",
    "open_microphone",
]
