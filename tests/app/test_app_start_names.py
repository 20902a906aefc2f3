"""Names at the start screen, by touch (issue 42, item 7): a name holding a character that
cannot be seen is refused in players' words; a name typed with a combining accent is the same
name as the one typed with the accented letter; a name that looks like another seated one (a
Cyrillic "Аna" beside "Ana") is asked about, whole at huge text, and "Start anyway" starts."""

from __future__ import annotations

import os
from collections.abc import Generator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.app

CYRILLIC_ANA = "\u0410na"


def test_names_that_cannot_be_seen_or_look_alike_at_the_start_screen(app_dirs: Path) -> None:
    from companion.compose import CompanionApp
    from companion.demo.drive import Driver, ManualClock, layout_problems, run_app

    shots = Path(os.environ.get("START_SHOTS", str(app_dirs / "shots")))
    app = CompanionApp(clock=ManualClock(), journal_file=app_dirs / "j.sqlite3")
    seen: dict[str, Any] = {"problems": []}

    def text_of(view: Any) -> str:
        return " ".join(getattr(w, "text", "") for w in view.walk())

    def button(view: Any, words: str) -> Any:
        return next(w for w in view.walk() if getattr(w, "text", None) == words)

    def script(d: Driver) -> Generator[int | None, None, None]:
        app.apply_settings(replace(app.settings, text_size="huge"))
        yield 3
        start = app.screens["start"]
        start.choose_game("dice-ocalypse")
        yield 1
        start._seat_names(["Ana", "B\u3164en", "Cy"])
        yield 1
        d.tap(start.start_button)
        yield 2
        seen["hidden"] = text_of(start.problem_view)
        seen["started_hidden"] = app.session is not None
        start.problem_view.dismiss(animation=False)
        start._seat_names(["Jose\u0301", "José", "Cy"])
        yield 1
        d.tap(start.start_button)
        yield 2
        seen["same"] = text_of(start.problem_view)
        start.problem_view.dismiss(animation=False)
        start._seat_names(["Ana", CYRILLIC_ANA, "Cy"])
        yield 1
        d.tap(start.start_button)
        yield 2
        seen["started_early"] = app.session is not None
        view = start.confirm_view
        seen["warned"] = text_of(view)
        seen["problems"] += layout_problems(view, (800, 480))
        d.screenshot(shots / "start-names-look-alike-huge.png")
        d.tap(button(view, "Start anyway"))
        yield 3
        session = app.session
        seen["players"] = None if session is None else tuple(session.game.setup.players)

    run_app(app, script)
    assert "The name of player 2 holds U+3164 HANGUL FILLER" in seen["hidden"]
    assert not seen["started_hidden"]
    assert "Players 1 and 2 are both called José" in seen["same"]
    assert not seen["started_early"]
    assert "Names that look alike" in seen["warned"]
    assert f"'{CYRILLIC_ANA}' looks like 'Ana'" in seen["warned"]
    assert f"its 1st letter, {CYRILLIC_ANA[0]}, is Cyrillic" in seen["warned"]
    assert seen["players"] == ("Ana", CYRILLIC_ANA, "Cy")
    assert seen["problems"] == [], "\n".join(seen["problems"])
