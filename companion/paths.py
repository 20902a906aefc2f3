"""Where the companion keeps its files: journals in the user's data folder, settings in config.

Both can be moved with environment variables (``COMPANION_DATA_DIR``, ``COMPANION_CONFIG_DIR``),
which tests use to work in a throwaway folder. Nothing is ever written into the package.
"""

from __future__ import annotations

import os
from pathlib import Path

APP_NAME = "table-companion"


def data_dir() -> Path:
    """The folder holding the journal; created on first use."""
    override = os.environ.get("COMPANION_DATA_DIR")
    if override:
        path = Path(override)
    else:
        import platformdirs

        path = Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))
    path.mkdir(parents=True, exist_ok=True)
    return path


def config_dir() -> Path:
    """The folder holding settings.toml; created on first use."""
    override = os.environ.get("COMPANION_CONFIG_DIR")
    if override:
        path = Path(override)
    else:
        import platformdirs

        path = Path(platformdirs.user_config_dir(APP_NAME, appauthor=False))
    path.mkdir(parents=True, exist_ok=True)
    return path


def journal_path() -> Path:
    """The SQLite journal of every game played on this machine."""
    return data_dir() / "journal.sqlite3"
