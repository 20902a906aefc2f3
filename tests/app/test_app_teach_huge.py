"""The teaching screen at the largest text size, 800 x 480: nothing cut, nothing overlapping,
every button a finger's size, live and with a die's keypad open; its picture."""

from __future__ import annotations

import os
from collections.abc import Generator
from pathlib import Path
from typing import Any

import pytest
from teach_table import ROLL, Camera, at, photos, wait

pytestmark = pytest.mark.app


def test_teaching_at_the_largest_text_size_fits(app_dirs: Path) -> None:
    from companion import settings as settings_mod
    from companion.compose import CompanionApp
    from companion.demo.drive import Driver, ManualClock, layout_problems, run_app

    shots = Path(os.environ.get("TEACH_SHOTS", str(app_dirs / "shots")))
    camera = Camera(photos()[0])
    app = CompanionApp(clock=ManualClock(), journal_file=app_dirs / "j.sqlite3",
                       settings=settings_mod.Settings(camera="opencv:0", text_size="huge"),
                       settings_file=app_dirs / "settings.json", open_camera=lambda s: camera)
    seen: dict[str, Any] = {}

    def script(d: Driver) -> Generator[int | None, None, None]:
        app.show("dice")
        yield 2
        seen["dice_view"] = layout_problems(app.sm.current_screen, (800, 480))
        d.tap(app.screens["dice"].teach_button)
        yield 2
        teach = app.screens["teach"]
        yield from wait(lambda: teach.shown is not None and len(teach.shown.reading.dice) >= 3,
                        "a picture from the camera")
        yield 2
        seen["live"] = layout_problems(app.sm.current_screen, (800, 480))
        d.tap(teach.take_button)
        yield 2
        d.tap_at(*at(teach.picture, teach.model.taken.shape, *ROLL[0][1]))
        yield 3
        assert teach.model.selected is not None
        seen["keypad"] = layout_problems(app.sm.current_screen, (800, 480))
        d.screenshot(shots / "teach-huge-choose-face.png")

    run_app(app, script, timeout=300)
    assert seen["dice_view"] == [] and seen["live"] == [] and seen["keypad"] == []
