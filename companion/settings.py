"""The table's settings: a small TOML file the Settings screen writes, read strictly.

Unknown keys and wrong types are refused with a message naming the key, so a typo in a
hand-edited file is found at once instead of silently ignored. Two settings may be left to the
hand-written config file (``config.toml``): the camera (empty: ``COMPANION_CAMERA``, else
``[camera] source``, else the camera found) and the volume (unset: ``[audio] volume``, else
80%). What a damaged file does at start is :mod:`companion.startfiles`'s business.
"""

from __future__ import annotations

import dataclasses
import math
import os
import tomllib
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from companion import paths
from hardware.files import NotAPlainFile, read_bounded

PALETTES = ("okabe-ito", "classic")
TEXT_SIZES = {"normal": 1.0, "large": 1.2, "huge": 1.45}
DICE_VIEWS = ("full screen", "beside the arena")
#: The keyboard for typing names and folders: the on-screen one unless a keyboard is plugged in,
#: always the on-screen one, or only a plugged-in one.
KEYBOARDS = ("auto", "on-screen", "physical")
#: The cameras the Settings screen offers; "" leaves the choice to the config file.
CAMERAS = ("", "auto", "picamera2", "opencv:0", "synthetic", "none")
#: A settings file is a few hundred bytes; anything near this is not one.
MAX_BYTES = 100_000
DEFAULT_VOLUME = 0.8


class SettingsError(ValueError):
    """Raised for a settings file that cannot be used; names the key and what was wrong."""


@dataclass
class Settings:
    """Everything the settings screen changes."""

    camera: str = ""  # "" (as configured) | auto | picamera2 | opencv:N | replay:PATH | ...
    calibration_profile: str = "default"
    button_map: str = "default"
    volume: float | None = None  # None: [audio] volume of the config file, else 80%
    soundtrack_folder: str = ""
    palette: str = "okabe-ito"
    text_size: str = "normal"
    parry_seconds: float = 3.0
    round_seconds: float = 180.0
    dice_view: str = "full screen"  # the live dice view: its own screen, or also in the arena
    keyboard: str = "auto"

    def check(self) -> Settings:
        if self.volume is not None and not 0.0 <= self.volume <= 1.0:
            raise SettingsError(f"volume={self.volume!r}: must be between 0 and 1")
        if self.palette not in PALETTES:
            raise SettingsError(f"palette={self.palette!r}: choose one of {', '.join(PALETTES)}")
        if self.text_size not in TEXT_SIZES:
            raise SettingsError(f"text_size={self.text_size!r}: choose one of "
                                f"{', '.join(TEXT_SIZES)}")
        if not 0.5 <= self.parry_seconds <= 30:
            raise SettingsError(f"parry_seconds={self.parry_seconds!r}: must be 0.5 to 30")
        if self.dice_view not in DICE_VIEWS:
            raise SettingsError(f"dice_view={self.dice_view!r}: choose one of "
                                f"{', '.join(DICE_VIEWS)}")
        if self.keyboard not in KEYBOARDS:
            raise SettingsError(f"keyboard={self.keyboard!r}: choose one of "
                                f"{', '.join(KEYBOARDS)}")
        if not 10 <= self.round_seconds <= 3600:
            raise SettingsError(f"round_seconds={self.round_seconds!r}: must be 10 to 3600")
        for name in ("camera", "calibration_profile", "button_map", "soundtrack_folder"):
            value = getattr(self, name)
            if len(value) > 1000 or "\n" in value or "\x00" in value:
                raise SettingsError(f"{name}={value[:40]!r}...: not a setting (one line of "
                                    "at most 1000 characters)")
        return self

    @property
    def font_scale(self) -> float:
        return TEXT_SIZES[self.text_size]

    @classmethod
    def from_mapping(cls, data: dict[str, Any], source: str = "settings") -> Settings:
        known = {f.name: f for f in fields(cls)}
        values: dict[str, Any] = {}
        for key, value in data.items():
            name = key.replace("-", "_")
            if name not in known:
                raise SettingsError(f"{source}: unknown key {key!r}; known: "
                                    + ", ".join(known))
            if name in ("volume", "parry_seconds", "round_seconds"):
                if isinstance(value, bool) or not isinstance(value, int | float) \
                        or not math.isfinite(value):
                    raise SettingsError(f"{source}: {key}={value!r} must be a number")
                value = float(value)
            elif not isinstance(value, str):
                raise SettingsError(f"{source}: {key}={value!r} must be text")
            values[name] = value
        try:
            return cls(**values).check()
        except SettingsError as e:
            raise SettingsError(f"{source}: {e}") from None

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


__all__ = ["CAMERAS", "DEFAULT_VOLUME", "DICE_VIEWS", "KEYBOARDS", "PALETTES", "TEXT_SIZES",
           "Settings", "SettingsError", "load", "save", "soundtrack_dir"]
