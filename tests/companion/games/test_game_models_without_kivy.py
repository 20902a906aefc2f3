"""The games' models are plain Python: importing them (and playing through them, as their
tests do) never loads Kivy (issue 34)."""

from __future__ import annotations

import subprocess
import sys

import pytest


@pytest.mark.parametrize("module", ["companion.games.eye_for_an_eye.model",
                                    "companion.games.dice_forge.model"])
def test_a_games_model_imports_no_kivy(module: str) -> None:
    code = f"import sys, {module}; print(sorted(m for m in sys.modules if m.startswith('kivy')))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120, check=True)
    assert out.stdout.strip() == "[]", out.stdout
