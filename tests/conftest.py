"""Test settings: Kivy and SDL run with no display, no sound card and a throwaway home."""

from __future__ import annotations

import os
import tempfile

os.environ.setdefault("SDL_VIDEODRIVER", "offscreen")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
os.environ.setdefault("KIVY_NO_FILELOG", "1")
os.environ.setdefault("KIVY_HOME", tempfile.mkdtemp(prefix="kivy-home-"))
os.environ.setdefault("GPIOZERO_PIN_FACTORY", "mock")
os.environ.setdefault("COMPANION_CAMERA", "synthetic")
