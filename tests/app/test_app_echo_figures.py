"""Tap 3 on Echo asks which of his five figures is hit, then makes the call on it."""

from __future__ import annotations

import os
from collections.abc import Generator
from pathlib import Path

import pytest

pytestmark = pytest.mark.app


def test_attack_on_a_guard_by_touch(app_dirs: Path) -> None:
    from companion.app import CompanionApp
    from companion.drive import Driver, ManualClock, run_app

    app = CompanionApp(clock=ManualClock(), journal_file=app_dirs / "j.sqlite3")
    # FIGURE_SHOTS=docs/screenshots writes the picture of an attack on a figure.
    shots = Path(os.environ.get("FIGURE_SHOTS", str(app_dirs / "shots")))

    def buttons(view: object) -> dict[str, object]:
        from kivy.uix.button import Button

        return {b.text.split(":")[0]: b for b in view.walk() if isinstance(b, Button)}

    def script(d: Driver) -> Generator[int | None, None, None]:
        start = app.screens["start"]
        start.choose_game("eye-for-an-eye")
        yield 2
        start.set_count(2)
        start.char_spins[0].text = "Grubic"
        start.char_spins[1].text = "Echo"
        d.tap(start.start_button)
        yield 2
        s = app.session
        assert s is not None and app.sm.current == "arena", start.message.text
        d.tap(d.arena.go)  # Yarra Mark!
        yield 1
        yield from d.call("Ana", "attack", 2)
        yield 1
        # Tap 3 can be the figure itself: Echo's panel shows his standing figures.
        ben = d.arena.panels["Ben"]
        assert list(ben.figure_buttons) == ["Echo", "Guard 1", "Guard 2", "Guard 3", "Guard 4"]
        assert ben.figures.parent is ben and ben.actions.parent is None
        assert ben.figure_buttons["Guard 1"].text == "Guard 1  2/2"
        d.screenshot(shots / "13-arena-target-a-figure.png")
        d.tap(ben.figure_buttons["Guard 2"])
        yield 2
        assert s.log[-1].call == "Grubic: Spear Thrust 2 on Guard 2"
        assert ben.actions.parent is ben and ben.figures.parent is None  # actions are back
        # Or tap 3 on the header: a chooser asks which figure.
        yield from d.call("Ana", "attack", 2)
        d.target("Ben")
        yield 2
        view = d.arena.figure_view
        found = buttons(view)
        assert list(found) == ["Echo", "Guard 1", "Guard 2", "Guard 3", "Guard 4", "Cancel"]
        assert found["Guard 1"].text == "Guard 1: 2/2"
        d.tap(found["Guard 3"])
        yield 2
        assert s.log[-1].call == "Grubic: Spear Thrust 2 on Guard 3"
        assert view.parent is None  # the chooser is closed
        # Cancel leaves the call being built and makes no call.
        yield from d.call("Ana", "attack", 1)
        d.target("Ben")
        yield 2
        d.tap(buttons(d.arena.figure_view)["Cancel"])
        yield 1
        assert s.log[-1].call == "Grubic: Spear Thrust 2 on Guard 3"

    run_app(app, script)
