"""Dice-ocalypse's table screen through the whole app. Screenshots of every screen at 800x480:
with 3 players, with 6 (the most the game takes) and with 6 at the "huge" text size, the
players' names as long as the start screen takes, a target of 2,000. Each state is reached by
touch where a player would tap, by calls where it takes many (tests/app/table_tours.py). The
pictures go to $DICEOCALYPSE_SHOTS when set (the committed ones are
docs/screenshots/diceocalypse-{3p,6p,huge}-*.png), and every one is checked for cut text,
overlaps and small touch targets as it is taken. Then: no tap lost while the camera hands
rolls, and no button that moves during a game."""

from __future__ import annotations

import os
from collections.abc import Generator, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from conftest import press_in
from fingers import CameraFinger
from layout_checks import picture_tours
from table_tours import diceocalypse_tour

pytestmark = pytest.mark.app

SHORT = {"target": 2000}
#: (file tag, players, text size, options, the states pictured or None for all)
SETS = (("3p", 3, "normal", SHORT, None), ("6p", 6, "normal", SHORT, None),
        ("huge", 6, "huge", SHORT, None))
STATES = ("who-goes-first-a-die-entered", "a-roll-to-enter", "a-refused-die", "camera-unsure",
          "keep",
          "battle-zone", "keep-below-the-opening-score", "rolling-on", "card-panel",
          "last-turns", "tie-break", "winner")


@pytest.mark.long
def test_every_diceocalypse_screen_pictured(app_dirs: Path) -> None:
    from companion.compose import CompanionApp
    from companion.demo.drive import Driver, ManualClock, run_app
    from companion.settings import Settings

    app = CompanionApp(clock=ManualClock(), journal_file=app_dirs / "j.sqlite3",
                       settings=Settings(camera="none"))
    shots = Path(os.environ.get("DICEOCALYPSE_SHOTS", str(app_dirs / "shots")))
    taken: list[Path] = []
    problems: list[str] = []

    def script(d: Driver) -> Generator[int | None, None, None]:
        yield 2
        yield from picture_tours(d, app, "dice-ocalypse", "diceocalypse", diceocalypse_tour,
                                 (0, 3), SETS, shots, taken, problems)

    run_app(app, script, timeout=600)
    names = {p.name for p in taken}
    for tag, *_ in SETS:
        for state in STATES:
            assert f"diceocalypse-{tag}-{state}.png" in names, (tag, state, sorted(names))
    assert all(p.stat().st_size > 5000 for p in taken)
    assert problems == [], "\n".join(problems)


def start_game(app: Any, count: int, text_size: str = "normal") -> Iterator[int]:
    """Dice-ocalypse for ``count`` players (a target of 2,000) started from the start screen
    by touch."""
    from companion.demo.drive import Driver

    if app.settings.text_size != text_size:
        app.apply_settings(replace(app.settings, text_size=text_size))
        yield 2
    app.show("start")
    start = app.screens["start"]
    start.choose_game("dice-ocalypse")
    yield 1
    start.choose("target", 2000)
    start.set_count(count)
    yield 1
    Driver(app).tap(start.start_button)
    yield 2
    assert app.sm.current == "game-dice-ocalypse", start.message.text


def test_no_tap_lost_while_the_camera_reads(app_dirs: Path) -> None:
    """The camera feed runs over a tray where dice are thrown again and again, too few for the
    roll the game waits for (each throw settles into a roll the screen reads and shows, and
    cannot call), while the players tap: 6 numbers on the pad, then, in the Cards & dice
    dialog, 7 taps on the players' tabs. Each finger lands in the very frame a roll arrives
    (after the screen has drawn it, before the next layout) and lifts after the next one.
    Every tap counts: a roll read changes texts and colours in place and makes no button again
    (a button made again lies unplaced until the next layout pass, so a finger landing then
    touches nothing: the old screen made the card panel's buttons again at every roll)."""
    from companion.compose import CompanionApp
    from companion.demo.drive import Driver, ManualClock, run_app
    from companion.services.feed import CameraFeed
    from companion.services.standin import ThrownDice
    from vision.synthetic import SynthDie

    tray = ThrownDice(fps=10.0, background_bgr=(60, 110, 50))
    feed = CameraFeed("test tray", fps=30.0, settle_s=0.2, open_source=lambda spec: tray)
    app = CompanionApp(clock=ManualClock(), journal_file=app_dirs / "j.sqlite3", camera=feed)
    taps: list[str] = []
    seen: dict[str, Any] = {}
    next_throw: list[int | None] = [None]  # the tray read after which to throw again
    thrown: list[int] = [0, 0]  # the tray read of the last throw, the rolls heard by then

    def throw() -> None:
        n = tray.throws
        next_throw[0] = None
        thrown[:] = [tray.reads, finger.events]
        tray.throw([SynthDie((120.0 + 110.0 * i, 200.0 + 40.0 * (n % 3)), 56.0,
                             angle=11.0 * i, value=1 + (i + n) % 6) for i in range(3)],
                   roll_s=0.4)

    def pick_up() -> None:
        """After each roll the players pick the dice up; once the camera has seen the tray
        empty (so the next roll is a new one) they are thrown again."""
        tray.clear()
        next_throw[0] = tray.reads + 3

    def keep_throwing() -> None:
        """A throw the camera did not take for a roll (the tracker may see one as handling)
        is picked up and thrown again."""
        if next_throw[0] is None and finger.events == thrown[1] and \
                tray.reads > thrown[0] + 40:
            pick_up()
        if next_throw[0] is not None and tray.reads >= next_throw[0]:
            throw()

    finger = CameraFinger(between=keep_throwing, after=pick_up)

    def script(d: Driver) -> Generator[int | None, None, None]:
        yield from start_game(app, 3)
        s = app.session
        g = s.game
        # Cy busts in the Battle Zone's aftermath: Ana must roll six dice, Ana may play
        # Bloodshed and Cy may roll the Zombie die.
        for text in ("Ana: Roll 6", "Ben: Roll 2", "Cy: Roll 1", "Ana: Roll 1 1 1 5 5 2",
                     "Ana: Keep 1 1 1 5 5", "Ana: Bank", "Cy: Roll 4 4", "Ana: Roll 2 4",
                     "Ben: Roll 1 3", "Cy: Roll 2 3 4 6 6 2"):
            s.call(text)
        yield 2
        scr = app.game_screen
        assert scr.camera_on and scr.model.expected() == {"Ana": 6}
        for name in ("tap_number", "choose_card_player"):
            real = getattr(scr, name)
            setattr(scr, name, lambda *a, real=real, name=name: (taps.append(name), real(*a)))
        scr.on_roll = finger.hook(scr.on_roll)
        for _ in range(200):
            if feed.running:
                break
            yield 1
        assert feed.running
        throw()
        for v in (1, 5, 2, 6, 3, 4):
            yield from finger.tap(scr.number_buttons[v - 1])
        d.tap(scr.cards_button)
        yield 2
        assert scr.cards_open
        for who in ("Cy", "Ana", "Cy", "Ana", "Cy", "Ana", "Cy"):
            tab = next(b for b in scr.card_tabs.children if b.text == who)
            yield from finger.tap(tab)
        seen["player"] = scr.model.cards_player
        seen["rolls"] = finger.events
        seen["history"] = len(g.history)

    run_app(app, script, timeout=600)
    assert len(taps) == 13, f"{13 - len(taps)} of 13 taps lost: {taps}"
    assert taps == ["tap_number"] * 6 + ["choose_card_player"] * 7
    assert seen["player"] == "Cy" and seen["history"] == 10  # no roll of 3 dice was called
    assert seen["rolls"] >= 26


def places(scr: Any) -> dict[int, tuple[str, tuple[int, int, int, int]]]:
    """Every button on the table screen: where it is (window coordinates) and its size."""
    from kivy.uix.button import Button

    out = {}
    for w in scr.walk():
        if isinstance(w, Button) and w.opacity > 0 and w.get_root_window() is not None:
            x, y = w.to_window(w.x, w.y)
            out[id(w)] = (w.text.split("\n")[0],
                          (round(x), round(y), round(w.width), round(w.height)))
    return out


def test_nothing_moves_during_a_game(app_dirs: Path) -> None:
    """The options are the start screen's (target, scoring key): nothing on the table screen
    moves, disappears or changes size when play begins, nor later: every button's place
    before the first call is its place at the first roll, the keep, the Battle Zone, rolling
    on, after the Cards & dice dialog, in the last turns and at the tie-break (3 players at
    the normal text size, 6 at the huge one). The old screen's target and scoring spinners
    went at the first call and the buttons beside them moved."""
    from companion.compose import CompanionApp
    from companion.demo.drive import Driver, ManualClock, run_app
    from companion.settings import Settings

    app = CompanionApp(clock=ManualClock(), journal_file=app_dirs / "j.sqlite3",
                       settings=Settings(camera="none"))
    moved: list[str] = []
    counted: list[int] = []

    def script(d: Driver) -> Generator[int | None, None, None]:
        yield 2
        for count, text_size in ((3, "normal"), (6, "huge")):
            yield from start_game(app, count, text_size)
            scr = app.game_screen
            s = app.session
            players = list(s.game.setup.players)
            first, last = players[0], players[-1]
            yield 2
            before = places(scr)
            counted.append(len(before))

            def compare(where: str, before: Any = before, count: int = count
                        ) -> Iterator[int]:
                yield 2
                now = places(app.game_screen)
                for key, (text, place) in before.items():
                    if key not in now:
                        moved.append(f"{count} players, {where}: {text!r} is gone")
                    elif now[key][1] != place:
                        moved.append(f"{count} players, {where}: {text!r} moved from "
                                     f"{place} to {now[key][1]}")
                assert moved == [], "\n".join(moved)

            d.tap(scr.number_buttons[5])  # the first player's die for who goes first
            yield 1
            d.tap(scr.primary)
            yield 2
            assert s.game.history, "the roll was not entered"
            yield from compare("the first call")
            for i, p in enumerate(players[1:], 1):
                s.call(f"{p}: Roll {6 - i}")
            s.call(f"{first}: Roll 1 1 1 5 5 2")
            yield from compare("a roll to keep")
            d.tap(scr.primary)  # keep and bank: the Battle Zone
            yield 2
            assert s.game.state.stage is not None and s.game.state.stage.kind == "battle"
            yield from compare("the Battle Zone")
            for p in players:
                s.call(f"{p}: Roll 2 3")
            who = s.game.state.turn.player if s.game.state.turn else s.game.state.current
            s.call(f"{who}: Roll 5 2 3 4 6 6")
            yield 1
            d.tap(scr.secondary)  # keep the 5, roll on
            yield from compare("rolling on")
            d.tap(scr.cards_button)
            yield 2
            assert scr.cards_open
            press_in(d, scr.cards_view, "Close")
            yield from compare("after the Cards & dice dialog")
            while s.game.history:
                s.undo()
            for i, p in enumerate(players):
                s.call(f"{p}: Roll {6 - i}")
            for text in (f"{first}: Roll 1 1 1 1 1 2", f"{first}: Keep 1 1 1 1 1",
                         f"{first}: Bank"):
                s.call(text)
            yield from compare("the last turns")
            for p in players[1:-1]:
                s.call(f"{p}: Roll 2 2 3 3 4 6")
            for text in (f"{last}: Roll 1 1 1 1 1 2", f"{last}: Keep 1 1 1 1 1",
                         f"{last}: Bank"):
                s.call(text)
            assert s.game.state.stage is not None and s.game.state.stage.kind == "tiebreak"
            yield from compare("the tie-break")
            app.end_game()
            yield 2

    run_app(app, script, timeout=600)
    assert min(counted) >= 6 + 1 + 2 + 2 + 3  # numbers, Clear, actions, Cards/Camera, players
    assert moved == [], "\n".join(moved)


def test_only_a_legal_bank_is_lit_and_the_turn_is_white(app_dirs: Path) -> None:
    """A keep below the opening score: "Keep & bank" (which the engine would refuse: the
    first bank needs 1,000 in one turn) is neither lit nor tappable, and the message box says
    why; "Keep, roll 5 dice" is the lit one (the old screen lit and took the bank). Whose turn
    it is reads as a white tile, which is no seat's colour (the old screen lit it in the seat's
    colour: seat 4's yellow was the accent's); the seat's colour stays on the strip."""
    from companion import theme
    from companion.compose import CompanionApp
    from companion.demo.drive import Driver, ManualClock, run_app
    from companion.settings import Settings

    app = CompanionApp(clock=ManualClock(), journal_file=app_dirs / "j.sqlite3",
                       settings=Settings(camera="none"))
    seen: dict[str, Any] = {}

    def script(d: Driver) -> Generator[int | None, None, None]:
        yield 2
        yield from start_game(app, 4)
        scr = app.game_screen
        s = app.session
        for text in ("Ana: Roll 2", "Ben: Roll 3", "Cy: Roll 4", "Dee: Roll 6",
                     "Dee: Roll 5 2 3 4 6 6"):
            s.call(text)
        yield 2
        seen["secondary"] = scr.secondary.text
        seen["secondary lit"] = list(scr.secondary.background_color) == list(theme.ACCENT)
        seen["primary"] = (scr.primary.text, scr.primary.disabled,
                           list(scr.primary.background_color) == list(theme.ACCENT))
        seen["hint"] = scr.hint.text
        seen["tiles"] = {p: list(r.tile.bg) for p, r in scr.rows.items()}
        seen["strip"] = list(scr.rows["Dee"].children[-1].bg)
        seen["colours"] = [list(theme.player_colour(app.settings.palette, i))
                           for i in range(4)]
        d.tap(scr.secondary)
        yield 2
        seen["kept"] = s.game.history[-1].call

    run_app(app, script)
    assert seen["secondary"] == "Keep, roll 5 dice" and seen["secondary lit"], seen
    assert seen["primary"] == ("Keep & bank", True, False), seen
    assert "first bank needs 1,000 in one turn" in seen["hint"], seen["hint"]
    assert seen["kept"] == "Dee: Keep 5"
    white = list(theme.TEXT)
    assert seen["tiles"]["Dee"] == white and white not in seen["colours"]
    assert all(seen["tiles"][p] == list(theme.PANEL) for p in ("Ana", "Ben", "Cy"))
    assert seen["strip"] == seen["colours"][3]  # Dee's seat colour, on the strip
