"""Screens answer a tap at once (issue 44, item 3), by touch through the whole app.

How soon is measured by benchmarks/screens.py (tests never assert on time); what is checked
here is what made taps slow: the cyclic garbage collector's full walk of every object (0.2 to
0.8 s on this machine) coming due in the middle of a tap, and screens making every drop-down
list's options (a button each) before anyone opens one. So:

- through a tour of taps that build screens (Settings saved at another text size, each game
  started and left, the History and its statistics), no full collection starts while a tap is
  being handled, and one runs once the table rests;
- the Settings screen makes none of its lists until one is opened; opened, a list offers every
  choice, and the choice tapped is taken;
- what the first tap on a game, the History or the Tournament would import is imported behind
  the start screen, before anyone taps.
"""

from __future__ import annotations

import gc
import sys
import time
from collections.abc import Callable, Generator
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.app

#: Modules the app imports behind the start screen (the History, the Tournament, each game).
AHEAD = ("companion.history.screen", "companion.tournament.screen",
         "companion.games.eye_for_an_eye.table", "companion.games.occulites.screen",
         "companion.games.diceocalypse.screen", "companion.games.dice_forge.screen",
         "companion.games.tribal_village.screen")
GAMES = ("Eye for an Eye", "Dice of the Occulites", "Dice-ocalypse", "Dice Forge",
         "Tribal Village")


def wait_for(ready: Callable[[], bool], what: str, seconds: float
             ) -> Generator[int, None, None]:
    """Frames until ``ready()``; fails after ``seconds``."""
    until = time.monotonic() + seconds
    while not ready():
        assert time.monotonic() < until, f"still waiting for {what} after {seconds} s"
        yield 1


def test_no_full_collection_in_a_tap_and_lists_made_when_opened(app_dirs: Path) -> None:
    from kivy.core.window import Window
    from kivy.uix.button import Button
    from kivy.uix.dropdown import DropDown

    from companion.compose import CompanionApp
    from companion.demo.drive import Driver, run_app

    app = CompanionApp(journal_file=app_dirs / "j.sqlite3")
    tapping: list[str] = []  # the tap being handled, while it is
    full: list[str] = []  # a full collection started: inside which tap ("" for none)
    seen: dict[str, Any] = {}

    def collected(phase: str, info: dict[str, int]) -> None:
        if phase == "start" and info["generation"] == 2:
            full.append(tapping[-1] if tapping else "")

    def tap(d: Driver, what: str, widget: Any) -> None:
        tapping.append(what)
        try:
            d.tap(widget)  # the touch is handled, every handler run, before it returns
        finally:
            tapping.pop()

    def button(root: Any, text: str) -> Any:
        return next(w for w in root.walk(restrict=True) if isinstance(w, Button)
                    and str(w.text).startswith(text) and not w.disabled)

    def opened_list() -> Any:
        return next(c for c in Window.children if isinstance(c, DropDown))

    def script(d: Driver) -> Generator[int | None, None, None]:
        yield 3
        # what the first taps on a game, the History or the Tournament import, imported
        # behind the start screen before anyone taps
        yield from wait_for(lambda: getattr(app, "loading_behind", None) is not None
                            and not app.loading_behind.is_alive(),
                            "the screens' modules imported behind the start screen", 60)
        seen["imported behind"] = sorted(m for m in AHEAD if m not in sys.modules)
        start = app.screens["start"]
        tap(d, "Settings", button(start, "Settings"))
        yield 2
        settings = app.screens["settings"]
        spinners = [settings.camera, settings.profile, settings.buttons, settings.volume,
                    settings.keyboard, settings.palette, settings.text_size_spin,
                    settings.parry, settings.dice_view]
        seen["lists made before opening"] = [
            s.text for s in spinners if s._dropdown is not None
            and s._dropdown.container is not None and s._dropdown.container.children]
        tap(d, "the text size list", settings.text_size_spin)
        yield 3
        seen["text sizes offered"] = sorted(
            o.text for o in opened_list().container.children)
        option = button(opened_list(), "huge")
        tap(d, "huge", option)
        yield 3
        seen["text size chosen"] = settings.text_size_spin.text
        tap(d, "Save", button(settings, "Save"))
        yield 2
        tap(d, "Back", button(app.screens["settings"], "Back"))
        yield 2
        for title in GAMES:
            start = app.screens["start"]
            tap(d, "the game list", start.game_spin)
            yield 2
            tap(d, title, button(opened_list(), title))
            yield 2
            start.set_count(4)
            yield 1
            tap(d, f"Start {title}", start.start_button)
            yield 2
            assert app.table is not None, f"{title} did not start: {start.message.text}"
            frame = app.sm.current_screen.frame
            tap(d, "Menu", frame.menu)
            yield 1
            tap(d, "End game", frame.menu_buttons["End game"])
            yield 1
            tap(d, "Leave", button(frame.confirm_view, "Leave"))
            yield 2
        start = app.screens["start"]
        tap(d, "History", button(start, "History"))
        yield 2
        history = app.screens["history"]
        yield from wait_for(lambda h=history: not h.busy, "the History's list", 60)
        tap(d, "Players", history.tabs["players"])
        yield from wait_for(lambda h=history: not h.busy, "the History's statistics", 60)
        tap(d, "Back", history.back_button)
        yield 2
        del history  # the screen lets go of itself when left
        # At rest (no touch for a second), the collector walks everything once more.
        collector = getattr(app, "collector", None)
        if collector is not None:
            made = collector.collections
            collector.soon()
            yield from wait_for(lambda: collector.collections > made,
                                "a full collection at rest", 30)
            seen["at rest"] = full[-1]

    gc.callbacks.append(collected)
    try:
        run_app(app, script, timeout=600)
    finally:
        gc.callbacks.remove(collected)
    assert [t for t in full if t] == [], "full collections in the middle of these taps"
    assert seen["imported behind"] == [], "not imported before the first tap"
    assert seen["lists made before opening"] == []
    assert seen["text sizes offered"] == ["huge", "large", "normal"]
    assert seen["text size chosen"] == "huge"
    assert app.settings.text_size == "huge"
    assert seen.get("at rest") == ""
