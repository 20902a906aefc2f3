"""Where the companion's config and data live, and reading the config file (TOML).

The file is ``config.toml`` in the user's config folder (platformdirs): on Raspberry Pi OS and
other Linux ``~/.config/table-companion/config.toml``. ``COMPANION_CONFIG`` points elsewhere.
Soundtracks go in ``~/.local/share/table-companion/soundtracks`` (or ``[audio] soundtracks``).
The hardware tables (``[camera]``, ``[buttons]``, ``[audio]``) are checked by their own modules.
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Any

import platformdirs

from hardware.errors import ConfigError

APP_NAME = "table-companion"
ENV_VAR = "COMPANION_CONFIG"


def config_dir() -> Path:
    """The user's config folder for the companion."""
    return Path(platformdirs.user_config_dir(APP_NAME))


def config_file() -> Path:
    """The config file in use: $COMPANION_CONFIG, else ``config.toml`` in :func:`config_dir`."""
    env = os.environ.get(ENV_VAR)
    return Path(env).expanduser() if env else config_dir() / "config.toml"


def data_dir() -> Path:
    """The user's data folder (journals, soundtracks)."""
    return Path(platformdirs.user_data_dir(APP_NAME))


def soundtracks_dir() -> Path:
    """Default folder of user-supplied soundtracks."""
    return data_dir() / "soundtracks"


def load_config(path: str | Path | None = None) -> dict[str, Any]:
    """Parse the config file; a missing file is an empty config.

    Raised when ...: ConfigError naming the file and TOML error for a file that does not parse.
    """
    file = Path(path) if path is not None else config_file()
    try:
        text = file.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"config file {file} is not valid TOML: {exc}") from exc
