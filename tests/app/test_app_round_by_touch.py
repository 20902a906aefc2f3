"""A round by touch through the real app: three-tap calls, the parry window, a knockout,
undo and redo, the last player standing, the between-rounds screen and the next round."""

from __future__ import annotations

from collections.abc import Generator
from pathlib import Path
from typing import Any

import pytest
from conftest import arena_game, arena_of

pytestmark = pytest.mark.app


def test_round_by_touch(app_dirs: Path) -> None:
    from companion.compose import CompanionApp
    from companion.demo.drive import Driver, ManualClock, run_app
    from companion.games.eye_for_an_eye.look import TARGET
    from companion.journal import Journal
    from rules import replay

    game = arena_game()
    clock = ManualClock()
    app = CompanionApp(clock=clock, journal_file=app_dirs / "j.sqlite3")
    seen: dict[str, Any] = {}

    def advance(seconds: float) -> None:
        clock.advance(seconds)
        app._tick(0.0)

    def script(d: Driver) -> Generator[int | None, None, None]:
        start = app.screens["start"]
        start.choose_game(game)
        yield 2
        start.rounds_spin.text = "2"
        assert [n.text for n in start.names] == ["Ana", "Ben", "Cy"]
        d.tap(start.start_button)
        yield 2
        assert app.sm.current == "arena" and app.session is not None
        s = app.session
        arena = app.screens["arena"]
        assert arena.go.text == "Yarra Mark!"
        d.tap(arena.go)
        yield 2
        assert "yarra_mark" in app.heard and s.clock.running
        ben_health = arena_of(app).seat_of("Ben").health
        # Three taps: action -> count -> target.
        advance(2.0)
        d.action("Ana", "attack")
        yield 1
        assert "How many dice" in arena.prompt.text
        d.count(2)
        yield 1
        assert "Tap the target" in arena.prompt.text
        assert tuple(arena.panels["Ben"].header.background_color) == TARGET
        d.target("Ben")
        yield 2
        assert arena_of(app).pending() and arena_of(app).pending()[0].hits == 2
        assert arena.panels["Ben"].buttons["defence"].text.startswith("Parry 3.0s")
        # Nobody parries: the window closes and the hits land.
        advance(arena_of(app).parry_seconds + 0.1)
        yield 2
        assert arena_of(app).pending() == []
        assert arena_of(app).seat_of("Ben").health == ben_health - 2
        assert f"Health {ben_health - 2}/" in arena.panels["Ben"].health.text
        assert arena.panels["Ben"].buttons["defence"].text == "Parry"
        # An attack parried inside its window.
        yield from d.call("Cy", "attack", 1, "Ana")
        ana_health = arena_of(app).seat_of("Ana").health
        advance(1.0)
        yield from d.call("Ana", "defence", 1)
        yield 2
        assert arena_of(app).pending() == [] and arena_of(app).seat_of("Ana").health == ana_health
        # An attack from the rear: no parry window, the hits land at the next tick.
        ana_health = arena_of(app).seat_of("Ana").health
        d.action("Cy", "attack")
        yield 1
        d.count(1)
        yield 1
        d.tap(arena.rear_b)
        yield 1
        assert "from the rear" in arena.prompt.text
        d.target("Ana")
        yield 1
        assert any(e.call.endswith(" from the rear") for e in s.log[-2:])
        advance(0.1)
        yield 1
        assert s.log[-1].call.startswith("Hits land on ")
        assert arena_of(app).seat_of("Ana").health == ana_health - 1
        # Undo and redo by touch.
        calls = len(s.log)
        d.tap(arena.undo_b)
        yield 2
        assert len(s.log) == calls - 1 and arena_of(app).pending()
        d.tap(arena.redo_b)
        yield 2
        assert len(s.log) == calls and not arena_of(app).pending()
        # A knockout: unblockable hits until Ben is out.
        for _ in range(30):
            if arena_of(app).seat_of("Ben").knocked_out:
                break
            yield from d.call("Ana", "unblockable", 3, "Ben")
            advance(0.5)
        yield 2
        assert arena_of(app).seat_of("Ben").knocked_out
        assert arena.panels["Ben"].health.text == "Knocked out"
        assert arena.panels["Ben"].buttons["attack"].disabled
        assert "knockout" in app.heard
        # Last one standing ends the round.
        for _ in range(30):
            if s.game.state.phase != "playing":
                break
            yield from d.call("Ana", "unblockable", 3, "Cy")
            advance(0.5)
        yield 2
        assert s.game.state.phase == "between-rounds" and app.sm.current == "between"
        between = app.screens["between"]
        assert between.title.text == "Round 1 results"
        texts = [w.text for w in between.table.walk() if hasattr(w, "text")]
        assert "Ana\nGrubic" in texts and "Cy\nBanksia" in texts
        seen["results"] = s.game.round_results()[0].rows
        d.tap(between.next_b)
        yield 2
        assert app.sm.current == "arena" and s.game.state.round_number == 2
        assert s.clock.elapsed == 0 and arena.go.text == "Yarra Mark!"
        assert arena.round_label.text == "Round 2/2"
        seen["log"] = list(s.log)
        seen["snapshot"] = s.game.snapshot()
        seen["id"] = s.game_id

    run_app(app, script)
    assert seen["results"][0].side == "Ana"  # the one left standing ranks first
    with Journal(app_dirs / "j.sqlite3") as journal:
        record = journal.load(seen["id"])
        assert list(record.entries) == seen["log"]
        assert replay(record.setup, record.entries).snapshot() == seen["snapshot"]
