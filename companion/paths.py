"""Where the companion keeps its files, all under the two folders of :mod:`hardware.config`.

- the config folder (``COMPANION_CONFIG_DIR`` moves it): ``settings.toml`` written by the app,
  ``config.toml`` written by hand (``COMPANION_CONFIG`` points elsewhere), the calibration
  profiles;
- the data folder (``COMPANION_DATA_DIR`` moves it): the journal, the soundtracks.

Tests and the demo set these variables to throwaway folders, so they never read or write the
user's own files. Nothing is ever written into the package.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from hardware.config import config_dir, config_file, data_dir

if TYPE_CHECKING:  # calibration pulls in numpy and vision: only when profiles are used
    from calibration.profiles import ProfileStore

__all__ = ["config_dir", "config_file", "data_dir", "journal_path", "profile_store",
           "settings_path"]


def journal_path() -> Path:
    """The SQLite journal of every game played on this machine."""
    return data_dir() / "journal.sqlite3"


def settings_path() -> Path:
    """The settings the app's Settings screen saves."""
    return config_dir() / "settings.toml"


def profile_store() -> ProfileStore:
    """The calibration profiles of this machine."""
    from calibration.profiles import ProfileStore

    return ProfileStore(config_dir())
