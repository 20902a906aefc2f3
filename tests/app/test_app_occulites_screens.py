"""Screenshots of every Dice of the Occulites screen at 800x480: with 3 players, with 5 (the
most the game takes) and with 5 at the "huge" text size, the players' names as long as the
start screen takes; with Lots of Interests on for the draft. Each state is reached by touch
(tests/app/table_tours.py). The pictures go to $OCCULITES_SCREENSHOTS when set (the committed
ones are docs/screenshots/occulites-{3p,5p,huge}-*.png), and every one is checked for cut
text, overlaps and small touch targets as it is taken."""

from __future__ import annotations

import os
import re
from collections.abc import Generator, Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from conftest import LONG_NAMES
from table_tours import occulites_tour

pytestmark = pytest.mark.app

DRAFT = {"lots_of_interests": True, "creatures": True}
#: (file tag, players, text size, options)
SETS = (("3p", 3, "normal", {}), ("5p", 5, "normal", {}), ("huge", 5, "huge", {}),
        ("3p", 3, "normal", DRAFT), ("5p", 5, "normal", DRAFT), ("huge", 5, "huge", DRAFT))
#: The states pictured in a game with the draft (and Creatures & Predators) on.
DRAFT_STATES = ("draft", "allocate, the keypad on a die")


def slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def test_every_occulites_screen_pictured(app_dirs: Path) -> None:
    from companion.app import CompanionApp
    from companion.drive import Driver, ManualClock, layout_problems, run_app
    from companion.settings import Settings

    app = CompanionApp(clock=ManualClock(), journal_file=app_dirs / "j.sqlite3",
                       settings=Settings(camera="none"))
    shots = Path(os.environ.get("OCCULITES_SCREENSHOTS", str(app_dirs / "shots")))
    taken: list[Path] = []
    problems: list[str] = []

    def script(d: Driver) -> Generator[int | None, None, None]:
        yield 2
        for tag, count, text_size, options in SETS:
            app.apply_settings(replace(app.settings, text_size=text_size))
            yield 2
            start = app.screens["start"]
            app.show("start")
            start.choose_game("occulites")
            yield 1
            for key in ("lots_of_interests", "creatures"):
                start.choose(key, bool(options.get(key)))
            start._seat_names(LONG_NAMES[:count])
            yield 2
            d.tap(start.start_button)
            yield 2
            assert app.sm.current == "game-occulites", start.message.text

            def shoot(name: str, tag: str = tag, drafting: bool = bool(options)
                      ) -> Iterator[int]:
                if drafting and name not in DRAFT_STATES:
                    return
                if drafting and name != "draft":
                    name = "draft game, " + name
                yield 2
                problems.extend(f"{tag} {name}: {p}"
                                for p in layout_problems(app.game_screen, (800, 480)))
                taken.append(d.screenshot(shots / f"occulites-{tag}-{slug(name)}.png"))

            for step in (0, 1, 3):
                yield from occulites_tour(app, step, shoot)
            app.end_game()
            yield 2

    run_app(app, script, timeout=900)
    names = {p.name for p in taken}
    for tag in ("3p", "5p", "huge"):
        for state in ("tribes-a-player-chosen", "draft", "allocate-waiting-for-everyone",
                      "allocate-the-keypad-on-a-die", "allocate-camera-unsure",
                      "allocate-a-refused-line-up", "card-1", "card-6", "share-give", "over"):
            assert f"occulites-{tag}-{state}.png" in names, (tag, state, sorted(names))
    assert all(p.stat().st_size > 5000 for p in taken)
    assert problems == [], "\n".join(problems)
