"""Whole-app tests: each file runs in its own pytest process (see test.sh), marked ``app``.

Kivy is imported only inside the tests, so collecting these files in the main test run (where
they are deselected) never opens a window.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parents[1] / "companion"))


def arena_game() -> str:
    """The Eye for an Eye engine when it is installed, else the test stand-in of its contract."""
    import rules

    if "eye-for-an-eye" in rules.game_names():
        return "eye-for-an-eye"
    import arena_standin

    arena_standin.register()
    return "arena-standin"


@pytest.fixture
def app_dirs(tmp_path: Path) -> Iterator[Path]:
    """Throwaway data and config folders for the app under test."""
    old = {k: os.environ.get(k) for k in ("COMPANION_DATA_DIR", "COMPANION_CONFIG_DIR")}
    os.environ["COMPANION_DATA_DIR"] = str(tmp_path / "data")
    os.environ["COMPANION_CONFIG_DIR"] = str(tmp_path / "config")
    os.environ.setdefault("KIVY_CLIPBOARD", "dummy")
    yield tmp_path
    for k, v in old.items():
        if v is None:
            os.environ.pop(k, None)
        else:
            os.environ[k] = v
