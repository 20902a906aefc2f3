"""Tours of the table games' screens: each state a player meets, reached by touch (and by
calls where a state takes many), with ``at(name)`` called at each so that a test can check the
layout there (tests/app/test_app_layout_*.py) or take a screenshot (the screenshot tests)."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

from conftest import press_in

from vision.types import Die, Reading

#: ``at(name)`` or ``at(name, widget)``: a state reached (the widget to look at when it is
#: not the game's screen: an open dialog).
At = Callable[..., Iterator[int]]


def die_at(x: float, y: float, value: int | None, colour: str | None = None,
           confidence: float = 0.95, size: float = 40.0) -> Die:
    """A die at rest at (x, y) as vision reads it (its outline a square of ``size`` px)."""
    h = size / 2
    return Die((x, y), ((x - h, y - h), (x + h, y - h), (x + h, y + h), (x - h, y + h)), 0.0,
               size, value, None if value is None else str(value), colour, confidence)


def lined_up_tray(dice: dict[str, list[tuple[str, int]]], unsure: dict[str, set[int]]) -> Any:
    """A reading of line-ups laid in rows (seat 1 at the top); ``unsure`` cards (0-5) are read
    with doubt."""
    out = []
    for r, (player, row) in enumerate(dice.items()):
        for i, (colour, pips) in enumerate(row):
            doubt = i in unsure.get(player, set())
            out.append(die_at(60.0 + 90 * i, 40.0 + 80 * r, pips, colour,
                              0.3 if doubt else 0.95))
    return Reading(tuple(out), (480, 640))


def held(game: Any, player: str) -> list[str]:
    return [c for c, n in game.state.dice[player].items() for _ in range(n)]


def occulites_tour(app: Any, step: int, check: At) -> Iterator[int]:
    """Dice of the Occulites: step 0 from the start (Tribes or the draft) through the line-ups
    (the keypad, the camera unsure, a refusal); step 1 on to a Reveal, each card, Share
    Knowledge; step 3 on to the final scores."""
    from companion.demo.drive import Driver

    d = Driver(app)
    scr = app.game_screen
    s = app.session
    g = s.game
    rng = random.Random(step)

    if step == 0:
        if g.phase == "tribes":  # the last player taps their header to choose first
            d.tap(scr.rows[scr.players[-1]].header)
            yield 1
            yield from check("tribes, a player chosen")
            while g.phase == "tribes":
                d.tap(next(b for b in scr.tribe_buttons.values() if not b.disabled))
                yield 1
        else:
            yield from check("draft")
            while g.phase == "draft":
                d.tap(next(b for b in scr.take_colour_buttons.values() if not b.disabled))
                yield 1
        assert g.phase == "allocate"
        yield from check("allocate, waiting for everyone")
        d.tap(scr.roll_button)  # the timer
        yield 1
        last = scr.players[-1]
        d.tap(scr.rows[last].slots[5])
        yield 1
        yield from check("allocate, the keypad on a die")
        # The camera reads everyone; the last player's cards 2 and 5 are unsure.
        dice = {p: [(c, 1 + (i + k) % 6) for i, c in enumerate(held(g, p))]
                for k, p in enumerate(scr.players)}
        scr.apply_reading(lined_up_tray(dice, {last: {1, 4}}))
        yield 1
        assert scr.model.sel == (last, 1), scr.model.sel
        yield from check("allocate, camera unsure")
        d.tap(scr.confirm_button)
        yield 1
        d.tap(scr.confirm_button)
        yield 1
        assert set(g.state.lineups) == set(scr.players)
        # A line-up the engine refuses: its reason where the players look.
        first = scr.players[0]
        other = next(c for c in ("pink", "white") if c not in held(g, first))
        s.try_call(f"{first}: Line-up " + ", ".join(f"{other} {n}" for n in range(1, 7)))
        yield 1
        yield from check("allocate, a refused line-up")
    if step == 1:
        # Play on to a Reveal: each card resolved, then Share Knowledge.
        while g.phase != "allocate" and not g.is_over:
            s.try_call(g.random_call(rng))
            yield 1
        for p in scr.players:
            if p not in g.state.lineups:
                s.try_call(next(c for c in g.legal_calls() if str(c).startswith(f"{p}:")))
        yield 1
        d.tap(scr.reveal_button)
        yield 2
        assert scr.model.resolving is not None
        yield from check("card 1")
        while scr.model.resolving is not None and scr.model.resolving.step < 6:
            d.tap(scr.next_button)
            yield 1
        yield from check("card 6")
        d.tap(scr.next_button)
        yield 1
        if g.phase == "share":
            yield from check("share, give")
            give = next((b for b in scr.share_colour_buttons.values()
                         if not b.disabled), None)
            if give is not None:
                d.tap(give)
                yield 1
                yield from check("share, from where")
                d.tap(next(b for b in scr.source_buttons.values() if not b.disabled))
                yield 1
                yield from check("share, take")
    if step == 3:  # to the final scores
        while not g.is_over:
            s.try_call(g.random_call(rng))
            yield 1
        while scr.model.resolving is not None:
            d.tap(scr.next_button)
            yield 1
        yield from check("over")


def camera(*values: int, unsure: tuple[int, ...] = ()) -> Reading:
    """A settled reading of dice in one row across the tray, as vision gives it; those in
    ``unsure`` read with doubt."""
    return Reading(tuple(die_at(60.0 * i + 30, 100.0, v, None, 0.3 if i in unsure else 0.95)
                         for i, v in enumerate(values)), (480, 640))


def diceocalypse_tour(app: Any, step: int, check: At) -> Iterator[int]:
    """Dice-ocalypse (a target of 2,000): step 0 from who goes first through a refused die, the
    camera unsure, the keep, the Battle Zone, a keep below the opening score, rolling on and the
    card panel, taken back by Undo (so a walk's own random game goes on from the start); step 2 the
    last turns and the tie-break (taken back); step 3 the winner."""
    from companion.demo.drive import Driver

    d = Driver(app)
    scr = app.game_screen
    s = app.session
    g = s.game
    players = list(g.setup.players)
    first, last = players[0], players[-1]

    def call(*texts: str) -> Iterator[int]:
        for text in texts:
            s.call(text)
        yield 1

    def back_to_the_start() -> Iterator[int]:
        while g.history:
            s.undo()
        yield 1

    if step == 0:
        d.tap(scr.rows[last].button)  # the last player rolls first for who goes first
        yield 1
        d.tap(scr.number_buttons[0])
        yield 1
        yield from check("who goes first, a die entered")
        yield from call(*(f"{p}: Roll {6 - i}" for i, p in enumerate(players)))
        yield from check("a roll to enter")
        for _ in range(7):  # one number too many: refused in the message box
            d.tap(scr.number_buttons[5])
            yield 1
        assert "entered: tap a die to change it, or Clear" in scr.hint.text, scr.hint.text
        yield from check("a refused die")
        d.tap(scr.clear_button)
        yield 1
        assert "Clear" not in scr.hint.text.split("\n")[0]
        scr.on_reading(camera(1, 1, 1, 5, 5, 2, unsure=(3,)))
        yield 1
        yield from check("camera unsure")
        d.tap(scr.secondary)  # Confirm
        yield 2
        assert g.history[-1].call == f"{first}: Roll 1 1 1 5 5 2", g.history[-1].call
        yield from check("keep")
        d.tap(scr.primary)  # keep the best (1 1 1 5 5) and bank: the Battle Zone
        yield 2
        assert g.state.stage is not None and g.state.stage.kind == "battle"
        yield from check("battle zone")
        yield from call(*(f"{p}: Roll 2 3" for p in players))
        who = g.state.turn.player if g.state.turn is not None else g.state.current
        yield from call(f"{who}: Roll 5 2 3 4 6 6")
        yield from check("keep, below the opening score")
        d.tap(scr.secondary)  # keep the 5 and roll on
        yield 2
        yield from check("rolling on")
        d.tap(scr.cards_button)
        yield 2
        assert scr.cards_open
        yield from check("card panel", scr.cards_view)
        press_in(d, scr.cards_view, "Close")
        yield 2
        assert not scr.cards_open
        yield from back_to_the_start()
    if step in (2, 3) and not g.is_over:
        # The dice-ocalypse: the first player banks 4,000 over the 2,000 target; the
        # others bust but the last, who ties; the tie-break (taken back at step 2), then
        # the winner (a finished game takes no undo: at the last step only).
        yield from back_to_the_start()
        yield from call(*(f"{p}: Roll {6 - i}" for i, p in enumerate(players)),
                        f"{first}: Roll 1 1 1 1 1 2", f"{first}: Keep 1 1 1 1 1",
                        f"{first}: Bank")
        yield from check("last turns")
        for p in players[1:-1]:
            yield from call(f"{p}: Roll 2 2 3 3 4 6")
        yield from call(f"{last}: Roll 1 1 1 1 1 2", f"{last}: Keep 1 1 1 1 1", f"{last}: Bank")
        assert g.state.stage is not None and g.state.stage.kind == "tiebreak"
        yield from check("tie-break")
        if step == 2:
            yield from back_to_the_start()
        else:
            yield from call(f"{first}: Roll 1 1 1 1 1 1", f"{last}: Roll 6 6 6 6 6 6")
            assert g.is_over
    if step == 3:
        yield from check("winner")


