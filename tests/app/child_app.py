"""Imported first by the whole-app tests' child processes (app_child.py, choices_child.py,
tournament_child.py), before anything imports Kivy: the app offscreen and silent, its own Kivy
home (two processes making one home at once fail), and the repository importable."""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "offscreen")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
os.environ.setdefault("KIVY_NO_FILELOG", "1")
os.environ.setdefault("KIVY_CLIPBOARD", "dummy")
os.environ["KIVY_HOME"] = tempfile.mkdtemp(prefix="kivy-child-")
sys.path.insert(0, str(Path(__file__).parents[2]))
