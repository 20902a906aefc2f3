"""Whole-app tests: each file runs in its own pytest process (see test.sh), marked ``app``.

Kivy is imported only inside the tests, so collecting these files in the main test run (where
they are deselected) never opens a window.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest


def arena_game() -> str:
    """The arena game's short name."""
    return "eye-for-an-eye"


def arena_of(app: Any) -> Any:
    """The calls of the Eye for an Eye match the app is running (its seats, pending attacks,
    parry windows, the call being built)."""
    from companion.games.eye_for_an_eye.table import EyeTable

    table = app.table
    assert isinstance(table, EyeTable), f"the app runs {type(table).__name__}, not the arena"
    return table.calls


@pytest.fixture
def app_dirs(tmp_path: Path) -> Iterator[Path]:
    """Throwaway data and config folders for the app under test."""
    old = {k: os.environ.get(k) for k in ("COMPANION_DATA_DIR", "COMPANION_CONFIG_DIR",
                                          "COMPANION_CAMERA")}
    os.environ["COMPANION_DATA_DIR"] = str(tmp_path / "data")
    os.environ["COMPANION_CONFIG_DIR"] = str(tmp_path / "config")
    # The camera is what each test's settings say (COMPANION_CAMERA would come before them).
    os.environ.pop("COMPANION_CAMERA", None)
    os.environ.setdefault("KIVY_CLIPBOARD", "dummy")
    yield tmp_path
    for k, v in old.items():
        if v is None:
            os.environ.pop(k, None)
        else:
            os.environ[k] = v


def leave_game(d: Any, screen: Any) -> Iterator[int]:
    """Menu -> End game -> the confirmation's end button, as a player leaves a game."""
    frame = screen.frame
    d.tap(frame.menu)
    yield 1
    d.tap(frame.menu_buttons["End game"])
    yield 1
    view = frame.confirm_view
    assert view is not None
    button = next(w for w in view.walk() if getattr(w, "text", "") in ("End game", "Leave")
                  and type(w).__name__ != "Label")
    d.tap(button)
    yield 2


def press_in(d: Any, view: Any, text: str) -> None:
    """Tap the button that says ``text`` in an open dialog."""
    assert view is not None and view.parent is not None, "the dialog is not open"
    button = next((w for w in view.walk() if getattr(w, "text", None) == text
                   and type(w).__name__ != "Label"), None)
    assert button is not None, f"no {text!r} button in the dialog"
    d.tap(button)
