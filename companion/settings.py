"""The table's settings: a small TOML file the Settings screen writes, read strictly.

Unknown keys and wrong types are refused with a message naming the key, so a typo in a
hand-edited file is found at once instead of silently ignored. Two settings may be left to the
hand-written config file (``config.toml``): the camera (empty: ``COMPANION_CAMERA``, else
``[camera] source``, else the camera found) and the volume (unset: ``[audio] volume``, else
80%). What a damaged file does at start is :mod:`companion.startfiles`'s business.
"""

from __future__ import annotations

import dataclasses
import os
import tomllib
from dataclasses import dataclass, fields
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal, TypeAlias, get_type_hints

import msgspec

from companion import paths
from hardware.files import NotAPlainFile, read_bounded
from hardware.schema import checked

PALETTES = ("okabe-ito", "classic")
TEXT_SIZES = {"normal": 1.0, "large": 1.2, "huge": 1.45}
DICE_VIEWS = ("full screen", "beside the arena")
#: The keyboard for typing names and folders: the on-screen one unless a keyboard is plugged in,
#: always the on-screen one, or only a plugged-in one.
KEYBOARDS = ("auto", "on-screen", "physical")
#: Voice calls (docs/voice.md): listened for when a microphone is found, or never.
VOICE_CALLS = ("auto", "off")
#: How readily a phrase heard is believed: the recogniser's sensitivity 0..1.
VOICE_SENSITIVITY = {"careful": 0.25, "normal": 0.5, "eager": 0.75}
#: The microphones the Settings screen offers; "" leaves the choice to the config file.
MICROPHONES = ("", "auto", "alsa", "pipewire", "none")
if TYPE_CHECKING:  # text to the type checker: the Settings screen builds Settings from its
    Palette: TypeAlias = str  # spinners' text, and check() refuses what is not a choice
    TextSize: TypeAlias = str
    DiceView: TypeAlias = str
    Keyboard: TypeAlias = str
    VoiceCalls: TypeAlias = str
    Sensitivity: TypeAlias = str
else:  # the choices, to the schema
    Palette = Literal[PALETTES]
    TextSize = Literal[tuple(TEXT_SIZES)]
    DiceView = Literal[DICE_VIEWS]
    Keyboard = Literal[KEYBOARDS]
    VoiceCalls = Literal[VOICE_CALLS]
    Sensitivity = Literal[tuple(VOICE_SENSITIVITY)]
#: The cameras the Settings screen offers; "" leaves the choice to the config file.
CAMERAS = ("", "auto", "picamera2", "opencv:0", "synthetic", "none")
#: A text setting: one line of at most 1000 characters.
Line = Annotated[str, msgspec.Meta(max_length=1000, pattern=r"^[^\n\x00]*$",
                                   description="one line of at most 1000 characters")]
#: A settings file is a few hundred bytes; anything near this is not one.
MAX_BYTES = 100_000
DEFAULT_VOLUME = 0.8


class SettingsError(ValueError):
    """Raised for a settings file that cannot be used; names the key and what was wrong."""


@dataclass
class Settings:
    """Everything the settings screen changes."""

    camera: Line = ""  # "" (as configured) | auto | picamera2 | opencv:N | replay:PATH | ...
    calibration_profile: Line = "default"
    button_map: Line = "default"
    # None: [audio] volume of the config file, else 80%
    volume: Annotated[float, msgspec.Meta(ge=0, le=1)] | None = None
    soundtrack_folder: Line = ""
    palette: Palette = "okabe-ito"
    text_size: TextSize = "normal"
    parry_seconds: Annotated[float, msgspec.Meta(ge=0.5, le=30)] = 3.0
    round_seconds: Annotated[float, msgspec.Meta(ge=10, le=3600)] = 180.0
    # the live dice view: its own screen, or also in the arena
    dice_view: DiceView = "full screen"
    keyboard: Keyboard = "auto"
    # calls heard aloud: on when a microphone is found ("auto"), or "off"; which microphone
    # ("" as configured: COMPANION_MICROPHONE, else [microphone] source, else one found)
    voice_calls: VoiceCalls = "auto"
    microphone: Line = ""
    voice_sensitivity: Sensitivity = "normal"

    def check(self) -> Settings:
        """These settings, checked against the schema (:data:`SCHEMA`) as a file's are."""
        checked(dataclasses.asdict(self), SCHEMA, "settings:", SettingsError)
        return self

    @property
    def font_scale(self) -> float:
        return TEXT_SIZES[self.text_size]

    @classmethod
    def from_mapping(cls, data: dict[str, Any], source: str = "settings") -> Settings:
        """The settings of a parsed file (``parry-seconds`` is read as ``parry_seconds``).
        Raised when ...: SettingsError naming ``source``, the key and what was wrong."""
        table = checked({str(key).replace("-", "_"): value for key, value in data.items()},
                        SCHEMA, f"{source}:", SettingsError)
        return cls(**msgspec.structs.asdict(table))

    def to_toml(self) -> str:
        lines = []
        for key, value in dataclasses.asdict(self).items():
            if value is None:
                continue
            if isinstance(value, str):
                escaped = value.replace("\\", "\\\\").replace('"', '\\"')
                lines.append(f'{key} = "{escaped}"')
            else:
                lines.append(f"{key} = {value!r}")
        return "\n".join(lines) + "\n"


#: The settings file's schema: the fields of :class:`Settings`, with their types and bounds,
#: no other key.
SCHEMA = msgspec.defstruct(
    "SettingsFile",
    [(f.name, hint, f.default) for f in fields(Settings)
     for hint in [get_type_hints(Settings, include_extras=True)[f.name]]],
    forbid_unknown_fields=True)


def load(path: Path | None = None) -> Settings:
    """The saved settings, or the defaults when there is no file yet.

    Raised when ...: SettingsError naming the file and what is wrong with it (not TOML, not
    UTF-8, a folder, nested too deeply, an unknown key, a value of the wrong kind).
    """
    path = path or paths.settings_path()
    try:
        data = read_bounded(path, MAX_BYTES)
    except FileNotFoundError:
        return Settings()
    except IsADirectoryError:
        raise SettingsError(f"{path}: is a folder, not a settings file") from None
    except NotAPlainFile as e:
        raise SettingsError(f"{path}: {e.strerror}") from None
    except OSError as e:
        raise SettingsError(f"{path}: cannot be read ({e.strerror or e})") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise SettingsError(f"{path}: not UTF-8 text (byte {e.start})") from None
    try:
        table = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise SettingsError(f"{path}: not valid TOML: {e}") from e
    except RecursionError:
        raise SettingsError(f"{path}: nested too deeply to be a settings file") from None
    return Settings.from_mapping(table, str(path))


def save(settings: Settings, path: Path | None = None) -> Path:
    """Write the settings atomically: a temporary file, flushed to disk, renamed over the old
    one, so a power cut leaves either the old file or the new one."""
    path = path or paths.settings_path()
    text = settings.check().to_toml()
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    with open(tmp, "w", encoding="utf-8") as fh:
        fh.write(text)
        fh.flush()
        os.fsync(fh.fileno())
    tmp.replace(path)
    return path


def soundtrack_dir(settings: Settings, config: dict[str, Any] | None = None) -> Path:
    """Where the app looks for soundtracks and cue sounds: the setting's folder when given,
    else the config's ``[audio] soundtracks`` or ``soundtracks/`` in the data folder, which is
    where the README and `companion doctor` tell players to put their music."""
    if settings.soundtrack_folder:
        return Path(settings.soundtrack_folder).expanduser()
    from hardware.config import soundtracks_dir

    return soundtracks_dir(config or {})


__all__ = ["CAMERAS", "DEFAULT_VOLUME", "DICE_VIEWS", "KEYBOARDS", "MICROPHONES", "PALETTES",
           "SCHEMA", "TEXT_SIZES", "VOICE_CALLS", "VOICE_SENSITIVITY", "Settings",
           "SettingsError", "load", "save", "soundtrack_dir"]
