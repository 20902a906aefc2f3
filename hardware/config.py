"""Where the companion's config and data live, and reading the config file (TOML).

These are the only functions that decide where the user's files are; everything else (the
app's settings, journal and calibration profiles, the doctor) asks them:

- the config folder: ``COMPANION_CONFIG_DIR``, else the user's config folder (platformdirs; on
  Raspberry Pi OS and other Linux ``~/.config/table-companion``);
- the config file: ``COMPANION_CONFIG``, else ``config.toml`` in the config folder;
- the data folder (journals, soundtracks): ``COMPANION_DATA_DIR``, else the user's data folder
  (``~/.local/share/table-companion``); soundtracks in its ``soundtracks`` (or ``[audio]
  soundtracks``).

The hardware tables (``[camera]``, ``[buttons]``, ``[audio]``) are checked by their own modules.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import platformdirs

from hardware.errors import ConfigError
from hardware.files import NotAPlainFile, read_bounded

APP_NAME = "table-companion"
ENV_VAR = "COMPANION_CONFIG"
CONFIG_DIR_VAR = "COMPANION_CONFIG_DIR"
DATA_DIR_VAR = "COMPANION_DATA_DIR"
#: A config is a few hundred bytes; anything near this is not one.
MAX_CONFIG_BYTES = 1_000_000


def config_dir() -> Path:
    """The companion's config folder: $COMPANION_CONFIG_DIR, else the user's (platformdirs)."""
    env = os.environ.get(CONFIG_DIR_VAR)
    return Path(env).expanduser() if env else Path(platformdirs.user_config_dir(APP_NAME))


def config_file() -> Path:
    """The config file in use: $COMPANION_CONFIG, else ``config.toml`` in :func:`config_dir`."""
    env = os.environ.get(ENV_VAR)
    return Path(env).expanduser() if env else config_dir() / "config.toml"


def data_dir() -> Path:
    """The user's data folder (journals, soundtracks); ``COMPANION_DATA_DIR`` moves it, as it
    moves the app's journals."""
    env = os.environ.get(DATA_DIR_VAR)
    return Path(env).expanduser() if env else Path(platformdirs.user_data_dir(APP_NAME))


def soundtracks_dir(config: Mapping[str, Any] | None = None) -> Path:
    """The folder of user-supplied soundtracks: ``[audio] soundtracks`` in ``config`` when set,
    else ``soundtracks`` in :func:`data_dir`. The doctor, the round player and the app all look
    here, so music put where the doctor says is music the app offers."""
    audio = (config or {}).get("audio") or {}
    folder = audio.get("soundtracks") if isinstance(audio, Mapping) else None
    return Path(str(folder)).expanduser() if folder else data_dir() / "soundtracks"


def load_config(path: str | Path | None = None) -> dict[str, Any]:
    """Parse the config file; a missing file is an empty config.

    Raised when ...: ConfigError naming the file and what is wrong with it: not TOML, not
    UTF-8 text, a folder, unreadable, or nested too deeply to be a config.
    """
    file = Path(path) if path is not None else config_file()
    try:
        data = read_bounded(file, MAX_CONFIG_BYTES)
    except FileNotFoundError:
        return {}
    except IsADirectoryError:
        raise ConfigError(f"config file {file} is a folder, not a file") from None
    except NotAPlainFile as exc:
        raise ConfigError(f"config file {file} {exc.strerror}") from None
    except OSError as exc:
        raise ConfigError(f"config file {file} cannot be read: {exc.strerror or exc}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ConfigError(f"config file {file} is not UTF-8 text (byte {exc.start}): "
                          "save it as UTF-8") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"config file {file} is not valid TOML: {exc}") from exc
    except RecursionError:
        raise ConfigError(f"config file {file} is nested too deeply to be a config") from None
