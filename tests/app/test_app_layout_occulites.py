"""Layout of Dice of the Occulites' table screen: 2-5 players, every text size, both displays,
16-character names, through every state a player meets (Tribes, the Lots of Interests draft,
the line-up keypad, dice the camera is unsure of, a refused line-up, the timer, each card
resolved, Share Knowledge, the final scores): nothing a player needs is cut, nothing
overlaps, every touch target is at least 48 px (see conftest.walk_layouts)."""

from __future__ import annotations

from collections.abc import Generator
from pathlib import Path
from typing import Any

import pytest
from conftest import walk_layouts
from layout_checks import tour_hook
from table_tours import occulites_tour

pytestmark = [pytest.mark.app, pytest.mark.long]


def walk(app_dirs: Path, options: dict[str, Any], text_sizes: tuple[str, ...]) -> None:
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
        start.choose_game("occulites")
        yield 1
        for key, value in options.items():
            start.choose(key, value)
        yield 1
        yield from walk_layouts(app, "occulites", problems, checked,
                                extra=tour_hook("occulites", occulites_tour, problems, checked),
                                text_sizes=text_sizes)

    run_app(app, script, timeout=900)
    names = {c.split("@")[0] for c in checked}
    wanted = {"start", "game-occulites", "menu", "end game", "allocate, the keypad on a die",
              "allocate, camera unsure", "allocate, a refused line-up", "card 1", "card 6",
              "share, give", "over"}
    wanted |= {"draft"} if options.get("lots_of_interests") else {"tribes, a player chosen"}
    assert wanted <= names, wanted - names
    assert sum(c.startswith("game-occulites@") for c in checked) >= 4 * len(text_sizes) * 4 * 2
    assert problems == [], "\n".join(problems[:40]) + f"\n... {len(problems)} in all"


def test_every_occulites_screen_holds_its_layout(app_dirs: Path) -> None:
    walk(app_dirs, {}, ("normal", "large", "huge"))


def test_the_draft_and_every_mode_hold_their_layout(app_dirs: Path) -> None:
    """Lots of Interests (the draft), Creatures & Predators and Conflicted Interests on."""
    walk(app_dirs, {"lots_of_interests": True, "creatures": True,
                    "conflicted_interests": True}, ("normal", "huge"))
