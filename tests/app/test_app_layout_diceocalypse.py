"""Layout of Dice-ocalypse's table screen: 2-6 players, every text size, both displays, 16-character
names, through every state a player meets (who goes first, a roll entered, a refused die, the camera
unsure of a die, the keep, a keep below the opening score, rolling on, the Battle Zone, the card
panel, the dice-ocalypse's last turns, the tie-break, the winner): nothing a player needs is cut,
nothing overlaps, every touch target is at least 48 px (see conftest.walk_layouts)."""

from __future__ import annotations

from collections.abc import Generator
from pathlib import Path

import pytest
from conftest import walk_layouts
from layout_checks import tour_hook
from table_tours import diceocalypse_tour

pytestmark = [pytest.mark.app, pytest.mark.long]


def test_every_diceocalypse_screen_holds_its_layout(app_dirs: Path) -> None:
    from companion.compose import CompanionApp
    from companion.demo.drive import Driver, ManualClock, run_app
    from companion.settings import Settings

    app = CompanionApp(clock=ManualClock(), journal_file=app_dirs / "j.sqlite3",
                       settings=Settings(camera="none"))
    problems: list[str] = []
    checked: list[str] = []

    def script(d: Driver) -> Generator[int | None, None, None]:
        yield 2
        start = app.screens["start"]
        start.choose_game("dice-ocalypse")
        yield 1
        start.choose("target", 2000)  # the Battle Zone at 1,000
        yield 1
        extra = tour_hook("dice-ocalypse", diceocalypse_tour, problems, checked)
        yield from walk_layouts(app, "dice-ocalypse", problems, checked, extra=extra)

    run_app(app, script, timeout=900)
    names = {c.split("@")[0] for c in checked}
    wanted = {"start", "game-dice-ocalypse", "menu", "end game", "who goes first, a die entered",
              "a roll to enter", "a refused die", "camera unsure", "keep", "battle zone",
              "keep, below the opening score", "rolling on", "card panel", "last turns",
              "tie-break", "winner"}
    assert wanted <= names, wanted - names
    assert sum(c.startswith("game-dice-ocalypse@") for c in checked) >= 5 * 3 * 4 * 2
    assert problems == [], "\n".join(problems[:40]) + f"\n... {len(problems)} in all"
