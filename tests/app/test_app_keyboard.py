"""Names typed on the touchscreen: with no keyboard plugged in, tapping a name field brings up
the on-screen keyboard (docked at the bottom, the field kept in sight above it); a name typed
on it starts the game; the recent groups bring back last game's players in one tap."""

from __future__ import annotations

import os
from collections.abc import Generator
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.app


def test_a_name_typed_on_the_on_screen_keyboard_starts_a_game(app_dirs: Path) -> None:
    from kivy.core.window import Window

    from companion import settings as settings_mod
    from companion.compose import CompanionApp
    from companion.demo.drive import Driver, ManualClock, run_app

    app = CompanionApp(clock=ManualClock(), journal_file=app_dirs / "j.sqlite3",
                       settings=settings_mod.Settings(keyboard="on-screen"))
    seen: dict[str, Any] = {}

    def script(d: Driver) -> Generator[int | None, None, None]:
        start = app.screens["start"]
        assert app.keyboard_mode == "systemanddock"
        start.choose_game("dice-ocalypse")
        yield 2
        start.set_count(6)
        yield 2
        field = start.names[5]  # the lowest field: under where the keyboard comes up
        d.tap(field)
        yield 3
        vk = d.on_screen_keyboard()
        assert field.focus and vk is not None  # no keyboard plugged in: one on the screen
        # the keyboard sits at the bottom of the screen; the screen's content moves up so
        # that the field it would have covered shows just above it
        (bx, by), (bw, bh) = vk.bbox
        seen["docked_at_bottom"] = abs(by) <= 1 and abs(bx) <= 1 and bw >= Window.width - 1
        _fx, fy = field.to_window(field.x, field.y)
        seen["field_was_under"] = fy - start.children[0].y < bh
        seen["field_above"] = fy >= bh - 1
        yield from d.type_on_screen("Zoe Li", erase=len(field.text))
        yield 1
        shots = os.environ.get("KEYBOARD_SHOTS")
        if shots:
            d.screenshot(Path(shots) / "16-start-on-screen-keyboard.png")
        seen["typed"] = field.text
        field.focus = False
        yield 3
        seen["keyboard_gone"] = d.on_screen_keyboard() is None or \
            d.on_screen_keyboard().parent is None
        d.tap(start.start_button)
        yield 2
        s = app.session
        assert s is not None, start.message.text
        seen["players"] = s.game.setup.players
        seen["lowered_back"] = start.children[0].y == 0
        s.try_call(s.game.legal_calls()[0])  # a game with no call is not kept, nor its group
        app.end_game()
        yield 2
        # the next game: the same group seated at once, and Recent brings back others
        seen["seated_again"] = [n.text for n in start.names]
        d.tap(start.recent_button)
        yield 2
        seen["recent"] = [b.text for b in start.recent_buttons]

    run_app(app, script)
    assert seen["typed"] == "Zoe Li"
    assert seen["players"] == ("Ana", "Ben", "Cy", "Dee", "Eli", "Zoe Li")
    assert seen["docked_at_bottom"] and seen["field_was_under"] and seen["field_above"]
    assert seen["lowered_back"]
    assert seen["keyboard_gone"]
    assert seen["seated_again"] == ["Ana", "Ben", "Cy", "Dee", "Eli", "Zoe Li"]
    assert seen["recent"][0] == "Ana, Ben, Cy, Dee, Eli, Zoe Li"
