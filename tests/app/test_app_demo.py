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
