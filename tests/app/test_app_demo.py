"""`companion demo`: the scripted round writes a screenshot of every screen at 800x480, the
standings, and a game file that `companion replay` re-scores to the same standings."""

from __future__ import annotations

import struct
from pathlib import Path

import pytest
from conftest import arena_game

pytestmark = pytest.mark.app


def _png_size(path: Path) -> tuple[int, int]:
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    width, height = struct.unpack(">II", head[16:24])
    return width, height


def test_demo_writes_every_screen_and_standings(app_dirs: Path) -> None:
    from companion.demo import run_demo
    from rules import parse_game_file

    game = arena_game()
    written = run_demo(app_dirs / "out", game=game)
    shots = sorted(p for name, p in written.items() if p.suffix == ".png")
    names = {p.stem.split("-", 1)[1] for p in shots}
    assert {"start", "arena-ready", "arena-parry-window", "arena-knockout", "between-rounds",
            "settings", "live-dice"} <= names
    for shot in shots:
        assert _png_size(shot) == (800, 480)
        assert shot.stat().st_size > 5000  # a drawn screen, not an empty frame
    replayed = parse_game_file(written["game"].read_text(encoding="utf-8")).play()
    standings = written["standings"].read_text(encoding="utf-8")
    assert standings.startswith(replayed.standings().format())
    assert replayed.phase == "between-rounds"
    assert replayed.history[-1].call == "Yarra Bung!"
    assert any(s.knocked_out for s in replayed.seats())


BLOCK_TEST_PACKAGES = """
import importlib.abc, sys
class NoTestPackages(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split('.')[0] in ('pytest', '_pytest', 'hypothesis'):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None
sys.meta_path.insert(0, NoTestPackages())
for name in [m for m in sys.modules if m.split('.')[0] in ('pytest', '_pytest', 'hypothesis')]:
    del sys.modules[name]
from companion.cli import main
sys.exit(main(sys.argv[1:]))
"""


def test_demo_runs_where_only_the_app_is_installed(app_dirs: Path) -> None:
    """`./start.sh demo` installs no test packages: nothing the demo imports may need them
    (it crashed with "No module named 'pytest'" through kivy.tests)."""
    import os
    import subprocess
    import sys

    out = app_dirs / "demo"
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[2])}
    done = subprocess.run([sys.executable, "-c", BLOCK_TEST_PACKAGES, "demo", "--output",
                           str(out)], env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "No module named" not in done.stderr
    assert (out / "01-start.png").is_file() and (out / "standings.txt").is_file()
