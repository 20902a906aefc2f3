"""The arena's "More" panel: tribal cards and a dispute by touch, each landing in the journal."""

from __future__ import annotations

import os
from collections.abc import Generator
from pathlib import Path
from typing import Any

import pytest
from conftest import arena_of

pytestmark = pytest.mark.app


def _button(root: Any, text: str) -> Any:
    todo = [root]
    while todo:
        w = todo.pop()
        todo.extend(w.children)
        if getattr(w, "text", None) == text:
            return w
    raise AssertionError(f"no button {text!r} on screen")


def open_more(d: Any, arena: Any) -> Generator[int | None, None, None]:
    """Menu -> Tribal cards & disputes (the panel a player needs less often)."""
    d.tap(arena.frame.menu)
    yield 1
    d.tap(arena.frame.menu_buttons["Tribal cards & disputes"])
    yield 2


def test_cards_and_dispute_by_touch(app_dirs: Path) -> None:
    import rules

    if "eye-for-an-eye" not in rules.game_names():
        pytest.skip("needs the Eye for an Eye engine (tribal cards are its rule)")
    from companion.compose import CompanionApp
    from companion.demo.drive import Driver, ManualClock, run_app, touch_problems

    app = CompanionApp(clock=ManualClock(), journal_file=app_dirs / "j.sqlite3")
    shots = Path(os.environ.get("MORE_SHOTS", str(app_dirs / "shots")))

    def script(d: Driver) -> Generator[int | None, None, None]:
        start = app.screens["start"]
        start.choose_game("eye-for-an-eye")
        yield 2
        start.set_count(2)
        d.tap(start.start_button)
        yield 2
        s = app.session
        arena = app.screens["arena"]
        d.tap(arena.go)
        yield 1
        yield from open_more(d, arena)
        view = arena.more_view
        assert touch_problems(view, (800, 480)) == []
        d.screenshot(shots / "10-arena-more.png")
        d.tap(_button(view, "Ready Leap"))  # on Grubic's row
        yield 2
        assert [e.call for e in s.game.history] == ["Grubic: Ready Leap"]
        yield from open_more(d, arena)
        view = arena.more_view
        d.tap(_button(view, "Leap"))
        yield 2
        assert s.game.history[-1].call == "Grubic: Leap"
        yield from d.call("Ana", "attack", 2, "Ben")
        yield 1
        assert arena_of(app).pending()
        yield from open_more(d, arena)
        view = arena.more_view
        d.tap(_button(view, "Grubic"))
        d.tap(_button(view, "Riparian"))
        d.tap(_button(view, "Clear their dice"))
        yield 2
        assert s.game.history[-1].call == "Dispute: Grubic, Riparian"
        assert arena_of(app).pending() == []
        assert "Dispute: Grubic, Riparian" in arena.log_label.text.splitlines()[0]
        # Paused, a card is refused; the dispute (what a pause is for) is still taken.
        d.tap(arena.go)
        yield 1
        yield from open_more(d, arena)
        d.tap(_button(arena.more_view, "Ready Leap"))
        yield 2
        assert s.game.history[-1].call == "Dispute: Grubic, Riparian"
        assert "Paused" in arena.prompt.text
        yield from open_more(d, arena)
        d.tap(_button(arena.more_view, "Riparian"))
        d.tap(_button(arena.more_view, "Clear their dice"))
        yield 2
        assert s.game.history[-1].call == "Dispute: Riparian"
        # Every call of the match, newest first: Menu -> Call log.
        d.tap(arena.frame.menu)
        yield 1
        d.tap(arena.frame.menu_buttons["Call log"])
        yield 2
        assert arena.log_view is not None and arena.log_view.parent is not None
        texts = [getattr(w, "text", "") for w in arena.log_view.walk()]
        body = next(t for t in texts if "Ready Leap" in t)
        assert body.splitlines()[0].endswith("Dispute: Riparian")
        assert body.splitlines()[-1].endswith("Grubic: Ready Leap")
        journal = app.journal.resume(s.game_id)
        assert journal.snapshot() == s.game.snapshot()

    run_app(app, script)
