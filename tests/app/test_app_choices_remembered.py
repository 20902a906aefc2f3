"""Choices remembered (issue 44, item 8), by touch through the whole app: the round timer the
players chose for Eye for an Eye is still chosen when they come back to the start screen after
the game, and the Dice Forge module chosen before the app was restarted is chosen again when
Dice Forge is (tests/app/choices_child.py plays that game in another app process first). Both
come from the journal's newest game of that game: nothing is kept apart."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Generator
from pathlib import Path
from typing import Any

import pytest
from conftest import leave_game
from tournament_touch import choose

pytestmark = pytest.mark.app


def test_the_timer_and_the_module_are_chosen_again(app_dirs: Path) -> None:
    from companion.compose import CompanionApp
    from companion.demo.drive import Driver, ManualClock, run_app

    journal = app_dirs / "j.sqlite3"
    child = subprocess.run([sys.executable, str(Path(__file__).with_name("choices_child.py")),
                            str(journal)], capture_output=True, text=True, timeout=300,
                           env=os.environ | {"COMPANION_DATA_DIR": str(app_dirs / "data"),
                                             "COMPANION_CONFIG_DIR": str(app_dirs / "config")})
    assert child.returncode == 0 and "left" in child.stdout, child.stderr[-3000:]
    app = CompanionApp(clock=ManualClock(), journal_file=journal)  # the app started again
    seen: dict[str, Any] = {}

    def script(d: Driver) -> Generator[int | None, None, None]:
        yield 2
        start = app.screens["start"]
        yield from choose(d, start.game_spin, "Dice Forge")
        seen["module after a restart"] = start.option_spins["module"].text
        yield from choose(d, start.game_spin, "Eye for an Eye")
        start.set_count(3)
        yield 1
        yield from choose(d, start.timer_spin, "2:00")
        d.tap(start.start_button)
        yield 2
        assert app.session is not None and app.session.game.options.round_seconds == 120
        d.tap(app.screens["arena"].go)  # Yarra Mark!
        yield 1
        yield from d.call("Ana", "movement", 1)
        assert len(app.session.log) == 1
        yield from leave_game(d, app.game_screen)
        seen["timer after a game"] = app.screens["start"].timer_spin.text
        yield from choose(d, start.game_spin, "Dice Forge")
        yield from choose(d, start.game_spin, "Eye for an Eye")
        seen["timer, the game chosen again"] = start.timer_spin.text

    run_app(app, script)
    assert seen == {"module after a restart": "Goddess", "timer after a game": "2:00",
                    "timer, the game chosen again": "2:00"}
