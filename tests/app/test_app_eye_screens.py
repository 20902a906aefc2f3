"""Eye for an Eye's arena as a player meets it, by touch: nothing moves under a finger (a
seat's controls keep their places through a call, an attack, a parry window, a refusal, an
undo, a pause and a knockout), the keypad offers only legal counts, the parry window stands
still while its target chooses a count and is "held" after an undo (never "0.0s" for ever),
refusals are shown white on red at a readable size, no call is taken while paused, the target
is white (never a seat's colour), the six die icons are on the action buttons, plurals.

EYE_SHOTS=docs/screenshots writes the docs' pictures (docs/screenshots/eye-*.png): the arena
at 3 and 6 players, choosing a count and a target, a parry window, paused, a knockout,
between rounds and the end of the match, at normal and at huge text."""

from __future__ import annotations

import os
from collections.abc import Generator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from conftest import tap_start

pytestmark = pytest.mark.app

LONG = ("Maximiliana Wolf", "Bartholomew Kemp", "Konstantinos Mar", "Gwendolynne Moss",
        "Christabel Wards", "Fitzwilliam Owen")
SIX = ("Grubic", "Riparian", "Banksia", "Pluma", "Incendiary", "Echo")


def test_the_arena_by_touch_holds_still_and_says_why(app_dirs: Path) -> None:
    from kivy.graphics.vertex_instructions import Mesh

    from companion import theme
    from companion.compose import CompanionApp
    from companion.demo.drive import Driver, ManualClock, layout_problems, run_app
    from companion.games.eye_for_an_eye.look import LIVE, REFUSED, TARGET
    from companion.games.eye_for_an_eye.table import EyeTable

    clock = ManualClock()
    app = CompanionApp(clock=clock, journal_file=app_dirs / "j.sqlite3")
    shots = Path(os.environ.get("EYE_SHOTS", str(app_dirs / "shots")))
    problems: list[str] = []
    seat_colours = {theme.player_colour(p, i) for p in theme.PALETTES for i in range(6)}

    def advance(seconds: float) -> None:
        clock.advance(seconds)
        app._tick(0.0)

    def shot(d: Driver, name: str) -> None:
        d.screenshot(shots / f"eye-{name}.png")
        problems.extend(f"{name}: {p}" for p in layout_problems(app.sm.current_screen,
                                                                 (800, 480)))

    def places(arena: Any) -> dict[str, tuple[float, ...]]:
        """Where every control a player reaches for is, in window pixels."""
        out = {}
        for player, panel in arena.panels.items():
            for key, b in panel.buttons.items():
                out[f"{player} {key}"] = (*b.to_window(b.x, b.y), b.width, b.height)
        for i, b in enumerate([*arena.count_buttons, arena.rear_b, arena.cancel_b, arena.go,
                               arena.undo_b, arena.redo_b]):
            out[f"bar {i}"] = (*b.to_window(b.x, b.y), b.width, b.height)
        return out

    def start(d: Driver, names: tuple[str, ...], chars: tuple[str, ...] = (),
              mode: str = "every-eye") -> Generator[int, None, Any]:
        begin = app.screens["start"]
        app.show("start")
        begin.choose_game("eye-for-an-eye")
        yield 1
        begin.choose("mode", mode)
        begin._seat_names(names)
        yield 1
        for spin, char in zip(begin.char_spins, chars, strict=False):
            spin.text = char
        yield from tap_start(d, begin)
        yield 2
        assert isinstance(app.table, EyeTable), begin.message.text
        return app.screens["arena"]

    def script(d: Driver) -> Generator[int | None, None, None]:
        arena = yield from start(d, ("Ana", "Ben", "Cy"), ("Grubic", "Riparian", "Echo"))
        s = app.session
        calls = arena.calls
        ana, ben, cy = (arena.panels[p] for p in ("Ana", "Ben", "Cy"))
        # The six die icons are drawn on the action buttons.
        for panel in arena.panels.values():
            for key, b in panel.buttons.items():
                group = panel.icons[key].group
                assert group is not None and group in b.canvas.after.children
                assert any(isinstance(i, Mesh) for i in group.children), key
        assert {p.icons[k].icon for p in (ana,) for k in p.buttons} == {
            "movement", "attack", "defence", "heal", "ready", "resolve"}
        # Before Yarra Mark! no call is taken, and the message box says so.
        d.tap(ana.buttons["movement"])
        yield 2
        assert "Yarra Mark!" in arena.prompt.text and not calls.builder.active
        d.tap(arena.go)
        yield 2
        before = places(arena)
        advance(2.0)
        # Tap 1: the keypad offers only Spear Thrust's three counts.
        d.action("Ana", "attack")
        yield 2
        assert [b.disabled for b in arena.count_buttons] == [False] * 3 + [True] * 3
        assert "How many dice" in arena.prompt.text
        shot(d, "3-choose-count")
        # Tap 2: the targets turn white (no seat is white); Echo offers his figures where
        # his name was, and his actions stay where they are.
        d.count(2)
        yield 2
        assert tuple(ben.header.background_color) == TARGET
        assert TARGET not in seat_colours and LIVE not in seat_colours
        assert tuple(ana.header.background_color) in seat_colours  # the attacker is not one
        assert list(cy.figure_buttons) == ["Echo", "Guard 1", "Guard 2", "Guard 3", "Guard 4"]
        assert cy.figures.parent is cy.head_box and cy.actions.parent is cy
        shot(d, "3-choose-target")
        assert places(arena) == before
        d.tap(cy.figure_buttons["Guard 2"])
        yield 2
        assert s.log[-1].call == "Grubic: Spear Thrust 2 on Guard 2"
        assert cy.header.parent is cy.head_box and places(arena) == before
        # A parry window: Riparian's Parry button counts down, nothing moves.
        advance(3.5)  # Echo does not parry Guard 2's hits
        yield from d.call("Ana", "attack", 3, "Ben")
        advance(1.2)
        yield 2
        parry = ben.buttons["defence"]
        assert parry.text == "Parry 1.8s" and tuple(parry.background_color) == LIVE
        shot(d, "3-parry-window")
        assert places(arena) == before
        # Riparian reaches for a count: the window stands still meanwhile.
        d.action("Ben", "defence")
        yield 1
        assert [b.disabled for b in arena.count_buttons] == [False] * 3 + [True] * 3
        advance(5.0)
        yield 2
        assert parry.text == "Parry 1.8s" and s.log[-1].call.startswith("Grubic:")
        d.count(2)
        yield 2
        assert s.log[-1].call == "Riparian: Parry 2" and places(arena) == before
        # A refusal is shown where the player looks, white on red, at a readable size.
        d.action("Ben", "defence")
        yield 2
        assert tuple(arena.message_box.bg) == REFUSED
        assert "no attack on Riparian is waiting" in arena.prompt.text
        assert arena.prompt.font_size >= app.fs(16) * 0.7 and arena.prompt.font_size >= 14
        # Undo takes the parry back: the window is held, never "0.0s" for ever.
        d.tap(arena.undo_b)
        yield 2
        assert calls.pending() and parry.text == "Parry held"
        advance(10.0)
        yield 2
        assert parry.text == "Parry held" and s.log[-1].call.startswith("Grubic:")
        assert places(arena) == before
        # Paused: the message box says no call is taken, and a tap is refused.
        d.tap(arena.go)
        yield 2
        assert "Paused: no calls until Resume" in arena.prompt.text
        assert "Undo and Redo still work" in arena.prompt.text
        shot(d, "3-paused")
        d.action("Cy", "movement")
        yield 2
        assert "Paused" in arena.prompt.text and not calls.builder.active
        d.tap(arena.go)
        yield 2
        # A knockout by touch: unblockable hits until Riparian is out.
        for _ in range(6):
            if calls.seat_of("Ben").knocked_out:
                break
            yield from d.call("Ana", "unblockable", 6, "Ben")
            advance(0.5)
        yield 2
        assert ben.health.text == "Knocked out" and ben.buttons["attack"].disabled
        assert ana.cup.text.endswith(" · 2 KOs")  # Guard 2, then Riparian
        shot(d, "3-knockout")
        assert places(arena) == before
        # The clock runs out: between rounds, in words and with plurals.
        advance(400.0)
        yield 3
        between = app.screens["between"]
        assert app.sm.current == "between"
        assert "Round ended: the clock ran out" in between.note.text
        total = s.game.rounds_total
        assert f"{total - 1} rounds to play" in between.note.text
        shot(d, "3-between-rounds")
        app.end_game()
        yield 2

        # Six players in alliances, the longest names.
        arena = yield from start(d, LONG, SIX, mode="alliances")
        s = app.session
        calls = arena.calls
        d.tap(arena.go)
        yield 2
        shot(d, "6-arena")
        before = places(arena)
        players = list(arena.panels)
        advance(2.0)
        d.action(players[0], "attack")
        yield 2
        shot(d, "6-choose-count")
        d.count(2)
        yield 2
        shot(d, "6-choose-target")
        d.target(players[1])
        advance(1.2)
        yield 2
        shot(d, "6-parry-window")
        assert places(arena) == before
        for _ in range(6):
            if calls.seat_of(players[1]).knocked_out:
                break
            yield from d.call(players[0], "unblockable", 6, players[1])
            advance(0.5)
        yield 2
        shot(d, "6-knockout")
        assert places(arena) == before
        advance(400.0)
        yield 3
        shot(d, "6-between-rounds")
        app.end_game()
        yield 2

        # Huge text: the same screens still hold.
        app.apply_settings(replace(app.settings, text_size="huge"))
        yield 3
        arena = yield from start(d, LONG, SIX, mode="alliances")
        s = app.session
        d.tap(arena.go)
        yield 2
        players = list(arena.panels)
        advance(2.0)
        d.action(players[0], "attack")
        yield 2
        d.count(3)
        yield 2
        shot(d, "6-huge-choose-target")
        d.target(players[-1])
        advance(1.0)
        yield 2
        shot(d, "6-huge-parry-window")
        app.end_game()
        yield 2
        arena = yield from start(d, ("Ana", "Ben", "Cy"), ("Grubic", "Riparian", "Echo"))
        d.tap(arena.go)
        yield 2
        advance(1.0)
        d.action("Ana", "attack")
        yield 2
        shot(d, "3-huge-choose-count")
        d.count(1)
        yield 2
        shot(d, "3-huge-choose-target")
        d.target("Ben")
        advance(1.0)
        yield 2
        shot(d, "3-huge-parry-window")
        from rules.eye_for_an_eye.calls import NextRound, TimeUp

        while not app.session.game.is_over:
            app.session.call(NextRound() if app.session.game.state.phase != "playing"
                             else TimeUp())
        app.show("between")
        yield 3
        assert app.screens["between"].title.text.startswith(("Winner:", "The match is over"))
        shot(d, "3-huge-game-over")

    run_app(app, script, timeout=600)
    assert problems == [], "\n".join(problems)
