"""Screenshots of every Dice of the Occulites screen at 800x480: with 3 players, with 5 (the
most the game takes) and with 5 at the "huge" text size, the players' names as long as the
start screen takes; with Lots of Interests on for the draft. Each state is reached by touch
(tests/app/table_tours.py). The pictures go to $OCCULITES_SCREENSHOTS when set (the committed
ones are docs/screenshots/occulites-{3p,5p,huge}[-draft]-*.png), and every one is checked for cut
text, overlaps and small touch targets as it is taken."""

from __future__ import annotations

import os
from collections.abc import Generator
from pathlib import Path

import pytest
from layout_checks import picture_tours
from table_tours import occulites_tour

pytestmark = [pytest.mark.app, pytest.mark.long]

DRAFT = {"lots_of_interests": True, "creatures": True}
#: The states pictured in a game with the draft (and Creatures & Predators) on.
DRAFT_STATES = ("draft", "allocate, the keypad on a die")
#: (file tag, players, text size, options, the states pictured or None for all)
SETS = (("3p", 3, "normal", {}, None), ("5p", 5, "normal", {}, None),
        ("huge", 5, "huge", {}, None), ("3p-draft", 3, "normal", DRAFT, DRAFT_STATES),
        ("5p-draft", 5, "normal", DRAFT, DRAFT_STATES),
        ("huge-draft", 5, "huge", DRAFT, DRAFT_STATES))


def test_every_occulites_screen_pictured(app_dirs: Path) -> None:
    from companion.compose import CompanionApp
    from companion.demo.drive import Driver, ManualClock, run_app
    from companion.settings import Settings

    app = CompanionApp(clock=ManualClock(), journal_file=app_dirs / "j.sqlite3",
                       settings=Settings(camera="none"))
    shots = Path(os.environ.get("OCCULITES_SCREENSHOTS", str(app_dirs / "shots")))
    taken: list[Path] = []
    problems: list[str] = []

    def script(d: Driver) -> Generator[int | None, None, None]:
        yield 2
        yield from picture_tours(d, app, "occulites", "occulites", occulites_tour, (0, 1, 3),
                                 SETS, shots, taken, problems)

    run_app(app, script, timeout=600)
    names = {p.name for p in taken}
    for tag in ("3p", "5p", "huge"):
        for state in ("tribes-a-player-chosen", "allocate-waiting-for-everyone",
                      "allocate-the-keypad-on-a-die", "allocate-camera-unsure",
                      "allocate-a-refused-line-up", "card-1", "card-6", "share-give", "over",
                      "draft-draft", "draft-allocate-the-keypad-on-a-die"):
            assert f"occulites-{tag}-{state}.png" in names, (tag, state, sorted(names))
    assert all(p.stat().st_size > 5000 for p in taken)
    assert problems == [], "\n".join(problems)
