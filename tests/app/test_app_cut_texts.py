"""Texts that were cut or elided at 800x480 with the largest text, each shown whole now: the
History's dice tab before any roll ("No rolls recorded yet: the camera ... game."), the live
dice view's header with a long camera name and one die ("1 die"), and Undo drop beside the
start screen's message with six players and the most option rows (a finger-sized button that
overlaps nothing). Screenshots to $CUT_SHOTS when set."""

from __future__ import annotations

import os
from collections.abc import Generator
from pathlib import Path
from typing import Any

import pytest
from conftest import press_in

pytestmark = pytest.mark.app

CAMERA = "Pi Camera Module 3 Wide over the tray"


def _journal(path: Path) -> int:
    """One finished game (History has something to show, but no roll yet) and one
    unfinished game of six (to drop from Resume). Returns the unfinished game's id."""
    import random

    from companion.history.sample import random_game, write_game
    from companion.journal import Journal

    rng = random.Random(4)
    with Journal(path) as journal:
        write_game(journal, random_game("dice-ocalypse", rng, players=3), 1_769_000_000.0)
        game = random_game("occulites", rng, players=5, max_calls=4)
        return write_game(journal, game, 1_769_003_600.0, finish=False)


def _one_die() -> list[Any]:
    from vision.synthetic import SynthDie

    return [SynthDie((320.0, 240.0), 60.0, angle=12.0, value=4)]


def test_cut_texts_show_whole_at_the_largest_text(app_dirs: Path) -> None:
    from kivy.core.text import Label as CoreLabel
    from test_app_history import settle

    from companion import settings as settings_mod
    from companion.compose import CompanionApp
    from companion.demo.drive import Driver, ManualClock, layout_problems, run_app
    from companion.services.feed import CameraFeed
    from companion.services.standin import ThrownDice

    journal = app_dirs / "j.sqlite3"
    dropped = _journal(journal)
    tray = ThrownDice(fps=10.0, background_bgr=(60, 110, 50))
    shots = Path(os.environ.get("CUT_SHOTS", str(app_dirs / "shots")))
    app = CompanionApp(clock=ManualClock(), journal_file=journal,
                       settings=settings_mod.Settings(text_size="huge"),
                       camera=CameraFeed(CAMERA, fps=30.0, open_source=lambda spec: tray))
    seen: dict[str, Any] = {"problems": []}

    def script(d: Driver) -> Generator[int | None, None, None]:
        yield 2
        # History, dice tab, before any roll: the message wraps whole inside the chart
        app.show("history")
        h = app.screens["history"]
        yield from settle(h)
        d.tap(h.tabs["dice"])
        yield 1
        yield from settle(h)
        chart = h.chart
        message = chart.message
        drawn = [box for text, box in chart.texts if text == message]
        core = CoreLabel(text=message, font_size=app.fs(16))
        core.refresh()
        seen["chart"] = (message, drawn, chart.width, core.texture.size)
        d.screenshot(shots / "cut-history-no-rolls-huge.png")
        app.show("start")
        yield 2

        # the live dice view: a long camera name and one die, said whole
        tray.throw(_one_die())
        app.show("dice")
        dice = app.screens["dice"]
        for _ in range(600):
            if "die" in dice.status.text and "still" in dice.status.text:
                break
            yield 1
        yield 2
        seen["status"] = dice.status.text
        seen["problems"] += layout_problems(dice, (800, 480))
        d.screenshot(shots / "cut-dice-view-huge.png")
        app.back()
        yield 2

        # Undo drop beside the message, six players and Occulites' option rows
        start = app.screens["start"]
        start.choose_game("occulites")
        yield 1
        start.set_count(5)
        yield 2
        d.tap(start.resume_button)
        yield 1
        d.tap(start.drop_buttons[dropped])
        yield 1
        press_in(d, start.confirm_view, "Drop")
        yield 2
        button = start.undo_drop_button
        seen["undo"] = (button.opacity, button.disabled)
        seen["problems"] += layout_problems(start, (800, 480))
        d.screenshot(shots / "cut-undo-drop-huge.png")

    run_app(app, script)
    message, drawn, width, natural = seen["chart"]
    assert message.startswith("No rolls recorded yet") and message.endswith("game.")
    assert len(drawn) == 1, seen["chart"]
    _x, _y, w, h = drawn[0]
    assert natural[0] > width  # it cannot be one line at this size ...
    assert w <= width and h >= 1.8 * natural[1], seen["chart"]  # ... so it wraps, whole
    assert seen["status"].startswith(CAMERA) and "1 die" in seen["status"], seen["status"]
    assert seen["undo"] == (1, False)
    assert seen["problems"] == [], "\n".join(seen["problems"])
