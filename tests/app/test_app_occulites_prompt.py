"""Dice of the Occulites, every word of the prompt (issue 31: "the Occulites prompt" was cut
at the huge text size): five players with the longest names, huge text, 800x480, the camera
finding the wrong number of dice in every zone and one die unsure, so the panel says the most
it ever says at once; nothing of it may be cut."""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import replace
from pathlib import Path

import pytest
from conftest import LONG_NAMES
from table_tours import held, lined_up_tray

pytestmark = pytest.mark.app


def test_the_prompt_is_whole_at_huge_text(app_dirs: Path) -> None:
    from kivy.core.window import Window

    from companion.compose import CompanionApp
    from companion.demo.drive import Driver, ManualClock, run_app
    from companion.settings import Settings
    from companion.widgets import text_overflow
    from rules import Setup

    app = CompanionApp(clock=ManualClock(), journal_file=app_dirs / "j.sqlite3",
                       settings=Settings(camera="none"))
    cut: list[str] = []

    def script(d: Driver) -> Generator[int | None, None, None]:
        Window.size = (800, 480)
        app.apply_settings(replace(app.settings, text_size="huge"))
        yield 2
        players = LONG_NAMES[:5]
        app.start_game(Setup("occulites", players, {}, 3))
        yield 2
        scr = app.game_screen
        g = app.session.game
        for p, tribe in zip(players, ("Palaudis", "Floris", "Hydris", "Nimbus", "Ignis"),
                            strict=True):
            app.session.call(f"{p}: Tribe {tribe}")
        yield 2
        assert g.phase == "allocate"
        # five dice in each zone but the last (whose card 2 is unsure): every zone's count
        # is said, and the unsure die is asked about
        dice = {p: [(c, 1 + i % 6) for i, c in enumerate(held(g, p))][:5 if p != players[-1]
                                                                      else 6]
                for p in players}
        scr.apply_reading(lined_up_tray(dice, {players[-1]: {1}}))
        yield 3
        for _ in range(3):
            yield 1
        message = scr.message
        why = text_overflow(message)
        if why is not None:
            cut.append(f"{why}: {message.text!r}")
        # and it is said at the size asked for, not shrunk to a size nobody reads
        assert message.font_size >= app.fs(15) * 0.7, (message.font_size, app.fs(15))

    run_app(app, script, timeout=600)
    assert not cut, cut
