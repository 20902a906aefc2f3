"""The arena's tribal cards at the largest text on 800x480: a card's name wraps as one ("Ready /
Floris Band III", never "Ready Floris Band / III"), every button's text whole. Screenshot to
$CARD_SHOTS when set."""

from __future__ import annotations

import os
from collections.abc import Generator
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.app


def lines_of(widget: Any) -> list[str]:
    """The lines a label or button draws its text in, as drawn."""
    widget.texture_update()
    return [" ".join(word.text for word in line.words) for line in widget._label._cached_lines]


def test_card_names_wrap_whole_in_the_tribal_cards_panel(app_dirs: Path) -> None:
    from companion import settings as settings_mod
    from companion.compose import CompanionApp
    from companion.demo.drive import Driver, ManualClock, layout_problems, run_app
    from rules import Setup
    from rules.eye_for_an_eye.calls import Ready

    shots = Path(os.environ.get("CARD_SHOTS", str(app_dirs / "shots")))
    app = CompanionApp(clock=ManualClock(), journal_file=app_dirs / "j.sqlite3",
                       settings=settings_mod.Settings(text_size="huge"))
    seen: dict[str, Any] = {}

    def script(d: Driver) -> Generator[int | None, None, None]:
        yield 2
        app.start_game(Setup("eye-for-an-eye", ("Ana", "Ben", "Cy", "Dee"),
                             {"characters": ["banksia", "riparian", "grubic", "incendiary"]}, 1))
        yield 3
        arena = app.game_screen
        cards = {c.card for calls in arena.calls.card_calls().values() for c in calls
                 if isinstance(c, Ready)}
        arena.open_more()
        yield 3
        view = arena.more_view
        seen["cards"] = cards
        seen["lines"] = {b.text: lines_of(b) for b in view.walk()
                         if type(b).__name__ == "TButton" and "Ready" in b.text}
        seen["problems"] = layout_problems(view, (800, 480))
        d.screenshot(shots / "arena-tribal-cards-huge.png")

    run_app(app, script)
    assert "Floris Band III" in seen["cards"] and seen["lines"]
    broken = []
    for text, lines in seen["lines"].items():
        card = text.removeprefix("Ready ").replace("\u00a0", " ")
        if not any(line.replace("\u00a0", " ").endswith(card) for line in lines):
            broken.append(f"{text!r} drawn as {lines}")
    assert broken == [], "\n".join(broken)
    assert seen["problems"] == [], "\n".join(seen["problems"])
