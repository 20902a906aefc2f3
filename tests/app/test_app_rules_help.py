"""Menu -> Rules help in every game, at huge text on 800x480: the players' help (what you are
trying to do, the round in order, the calls with examples, the rulings), whole, scrolling,
with no file paths or markdown."""

from __future__ import annotations

import os
from collections.abc import Generator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from conftest import press_in

pytestmark = pytest.mark.app

SEATS = {"eye-for-an-eye": 6, "occulites": 5, "dice-ocalypse": 6, "dice-forge": 4,
         "tribal-village": 6}


def test_rules_help_is_written_for_players_and_fits(app_dirs: Path) -> None:
    from kivy.uix.label import Label

    import rules
    from companion.compose import CompanionApp
    from companion.demo.drive import Driver, ManualClock, layout_problems, run_app

    shots = Path(os.environ.get("HELP_SHOTS", str(app_dirs / "shots")))
    app = CompanionApp(clock=ManualClock(), journal_file=app_dirs / "j.sqlite3")
    seen: dict[str, Any] = {"problems": [], "texts": {}}
    names = ["Ana", "Ben", "Cy", "Dee", "Eli", "Fay"]

    def script(d: Driver) -> Generator[int | None, None, None]:
        yield 2
        app.apply_settings(replace(app.settings, text_size="huge"))
        yield 2
        for game, count in SEATS.items():
            options = {"mode": "alliances", "teams": [names[0::2], names[1::2]]} \
                if game == "eye-for-an-eye" else {}
            app.start_game(rules.new_game(game, names[:count], options=options, seed=3).setup)
            yield 2
            frame = app.sm.current_screen.frame
            d.tap(frame.menu)
            yield 1
            d.tap(frame.menu_buttons["Rules help"])
            yield 2
            view = next(w for w in app.root_window.children if type(w).__name__ == "ModalView")
            seen["texts"][game] = " ".join(w.text for w in view.walk() if isinstance(w, Label))
            seen["problems"] += [f"{game}: {p}" for p in layout_problems(view, (800, 480))]
            d.screenshot(shots / f"rules-help-{game}-huge.png")
            press_in(d, view, "Close")
            yield 1
            app.end_game()
            yield 1

    run_app(app, script)
    assert seen["problems"] == [], "\n".join(seen["problems"])
    for game, text in seen["texts"].items():
        assert "What you are trying to do" in text and "Calls" in text, game
        assert "shared/" not in text and "`" not in text and ".md" not in text, game
    assert "Grubic: Spear Thrust 3 on Riparian" in seen["texts"]["eye-for-an-eye"]
