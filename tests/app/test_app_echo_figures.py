"""Tap 3 on Echo is one of his five figures: his panel offers them while an attack wants its
target, and the call names the figure hit."""

from __future__ import annotations

import os
from collections.abc import Generator
from pathlib import Path

import pytest
from conftest import arena_of

pytestmark = pytest.mark.app


def test_attack_on_a_guard_by_touch(app_dirs: Path) -> None:
    from companion.compose import CompanionApp
    from companion.demo.drive import Driver, ManualClock, run_app

    app = CompanionApp(clock=ManualClock(), journal_file=app_dirs / "j.sqlite3")
    # FIGURE_SHOTS=docs/screenshots writes the picture of an attack on a figure.
    shots = Path(os.environ.get("FIGURE_SHOTS", str(app_dirs / "shots")))

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
        # Tap 3 is the figure itself: Echo's panel shows his standing figures where his name
        # and health were; his actions stay where they are.
        ben = d.arena.panels["Ben"]
        actions = {k: tuple(b.to_window(*b.pos)) for k, b in ben.buttons.items()}
        assert list(ben.figure_buttons) == ["Echo", "Guard 1", "Guard 2", "Guard 3", "Guard 4"]
        assert ben.figures.parent is ben.head_box and ben.header.parent is None
        assert ben.actions.parent is ben
        assert ben.figure_buttons["Guard 1"].text == "Guard 1\n2/2"
        d.screenshot(shots / "13-arena-target-a-figure.png")
        d.tap(ben.figure_buttons["Guard 2"])
        yield 2
        assert s.log[-1].call == "Grubic: Spear Thrust 2 on Guard 2"
        assert ben.header.parent is ben.head_box and ben.figures.parent is None  # name back
        assert {k: tuple(b.to_window(*b.pos)) for k, b in ben.buttons.items()} == actions
        # A knocked-out Guard is offered no more.
        s.call("Hits land on Guard 2")
        yield from d.call("Ana", "attack", 1)
        yield 1
        assert list(ben.figure_buttons) == ["Echo", "Guard 1", "Guard 3", "Guard 4"]
        d.tap(ben.figure_buttons["Guard 3"])
        yield 2
        assert s.log[-1].call == "Grubic: Spear Thrust 1 on Guard 3"
        # Cancel leaves the call being built and makes no call.
        yield from d.call("Ana", "attack", 1)
        d.tap(d.arena.cancel_b)
        yield 1
        assert ben.header.parent is ben.head_box and not arena_of(app).builder.active
        assert s.log[-1].call == "Grubic: Spear Thrust 1 on Guard 3"

    run_app(app, script)
