"""Test settings: Kivy and SDL run with no display, no sound card and a throwaway home."""

from __future__ import annotations

import os
import tempfile

os.environ.setdefault("SDL_VIDEODRIVER", "offscreen")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
os.environ.setdefault("KIVY_NO_FILELOG", "1")
# A Kivy home of this process's own, made before anything imports Kivy: pytest-xdist's workers
# inherit the controller's environment, and two processes importing Kivy at once into one new
# home fail (FileExistsError on its `mods` folder), so an inherited KIVY_HOME is not kept.
os.environ["KIVY_HOME"] = tempfile.mkdtemp(prefix=f"kivy-home-{os.getpid()}-")
os.environ.setdefault("GPIOZERO_PIN_FACTORY", "mock")
os.environ.setdefault("COMPANION_CAMERA", "synthetic")

# Never the user's own files: the companion's folders, and the platform folders behind them,
# point into a throwaway home for the whole run (tests that need others set their own).
_home = tempfile.mkdtemp(prefix="companion-test-home-")
os.environ["XDG_CONFIG_HOME"] = os.path.join(_home, "xdg-config")
os.environ["XDG_DATA_HOME"] = os.path.join(_home, "xdg-data")
os.environ["COMPANION_CONFIG_DIR"] = os.path.join(_home, "config")
os.environ["COMPANION_DATA_DIR"] = os.path.join(_home, "data")
os.environ.pop("COMPANION_CONFIG", None)
os.environ.pop("COMPANION_AUDIO", None)


def pytest_addoption(parser: object) -> None:
    """``--long``: the fault suite's long mode (tests/faults: 1,000 power cuts, 10^5 fuzzed
    calls per game), to run before resolving an issue that touches the journal or the rules."""
    parser.addoption("--long", action="store_true", default=False,  # type: ignore[attr-defined]
                     help="run the fault suite (tests/faults) at its long size and print "
                          "its figures")
