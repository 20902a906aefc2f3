"""Eye for an Eye at five players, by touch on the start screen (issue 44, item 9): "+" from
four seats a fifth player without switching the mode behind the players' backs (it
switched to Alliances, said "Alliances (teams): 4 to 6 players", and Start then refused 5);
the message and Start's refusal say the same thing: no mode takes 5, seat 4 or 6. "+" to
six chooses Alliances and says why; a 2 vs 2 match lasts five rounds, as the rulebook counts
(players plus one), unless Rounds says otherwise. At 800x480, huge text."""

from __future__ import annotations

import os
from collections.abc import Generator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from conftest import tap_start

pytestmark = pytest.mark.app


def _button(root: Any, text: str) -> Any:
    from kivy.uix.button import Button

    return next(w for w in root.walk() if isinstance(w, Button) and w.text == text)


def test_five_players_are_told_no_mode_takes_them_and_six_choose_alliances(
        app_dirs: Path) -> None:
    from companion.compose import CompanionApp
    from companion.demo.drive import Driver, ManualClock, layout_problems, run_app

    app = CompanionApp(clock=ManualClock(), journal_file=app_dirs / "j.sqlite3")
    shots = Path(os.environ.get("EYE_FIVE_SHOTS", str(app_dirs / "shots")))
    seen: dict[str, Any] = {}

    def script(d: Driver) -> Generator[int | None, None, None]:
        app.apply_settings(replace(app.settings, text_size="huge"))
        yield 2
        start = app.screens["start"]
        start.choose_game("eye-for-an-eye")
        yield 2
        start._seat_names(["Ana", "Ben", "Cy", "Dee"])
        yield 2
        seen["four"] = (start.mode_spin.text, list(start.mode_spin.values))
        seen["rounds_words"] = start.rounds_spin.text
        plus = _button(start, "+")
        d.tap(plus)
        yield 2
        seen["five"] = (start.count, start.mode_spin.text, start.message.text,
                        tuple(start.message.color))
        seen["five_problems"] = layout_problems(start, (800, 480))
        d.screenshot(shots / "eye-five-players-huge.png")
        start.names[4].text = "Eve"
        yield 1
        d.tap(start.start_button)
        yield 2
        view = start.problem_view
        seen["refused"] = (app.session is None,
                           " ".join(getattr(w, "text", "") for w in view.walk()))
        d.screenshot(shots / "eye-five-players-start-huge.png")
        view.dismiss(animation=False)
        yield 1
        d.tap(plus)
        yield 2
        seen["six"] = (start.count, start.mode_spin.text, start.message.text)
        d.screenshot(shots / "eye-six-players-huge.png")
        d.tap(_button(start, "-"))
        d.tap(_button(start, "-"))
        yield 2
        seen["back to four"] = (start.count, start.mode_spin.text)
        for spin, team in zip(start.team_spins, ("Team 1", "Team 1", "Team 2", "Team 2"),
                              strict=True):
            spin.text = team
        yield 1
        yield from tap_start(d, start)
        yield 2
        s = app.session
        seen["match"] = (s.game.setup.options["mode"], s.game.rounds_total) if s else None

    run_app(app, script)
    assert seen["four"] == ("Every Eye for Themselves",
                            ["Every Eye for Themselves", "Alliances (teams)"])
    assert seen["rounds_words"] == "one more than players"
    count, mode, message, colour = seen["five"]
    said = ("No mode takes 5 players: seat 4 or 6 to play. Every Eye for Themselves is for "
            "2 to 4; Alliances (teams) is for 4 or 6.")
    assert (count, mode) == (5, "Every Eye for Themselves")  # not switched to Alliances
    assert message == said and "4 to 6" not in message
    from companion import theme

    assert colour == tuple(theme.DANGER)  # it stops the game: said in red
    assert seen["five_problems"] == [], seen["five_problems"]
    refused, words = seen["refused"]
    assert refused and said in words and "4 to 6" not in words
    assert seen["six"] == (6, "Alliances (teams)", "Alliances (teams) is chosen for 6: Every "
                           "Eye for Themselves is for 2 to 4 players.")
    assert seen["back to four"] == (4, "Alliances (teams)")
    assert seen["match"] == ("alliances", 5)  # 2 vs 2: four players, plus one
