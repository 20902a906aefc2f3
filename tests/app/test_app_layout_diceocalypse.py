"""Layout of Dice-ocalypse's table screen: 2-6 players, every text size, both displays,
16-character names, through every state a player meets (who goes first, a roll entered, the
camera unsure of a die, the keep, a keep below the opening score, rolling on, the Battle Zone,
the card panel, the dice-ocalypse's last turns, the tie-break, the winner): nothing a player
needs is cut, nothing overlaps, every touch target is at least 48 px (see
conftest.walk_layouts)."""

from __future__ import annotations

from collections.abc import Generator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from conftest import walk_layouts
from layout_checks import check_now, where_of

pytestmark = pytest.mark.app


@dataclass(frozen=True)
class StandInDie:
    center: tuple[float, float]
    value: int | None
    confidence: float = 0.95
    size: float = 40.0


@dataclass(frozen=True)
class StandInReading:
    dice: tuple[StandInDie, ...]


def camera(*values: int, unsure: tuple[int, ...] = ()) -> StandInReading:
    return StandInReading(tuple(
        StandInDie((60.0 * i + 30, 100.0), v, 0.3 if i in unsure else 0.95)
        for i, v in enumerate(values)))


def diceocalypse_states(problems: list[str], checked: list[str]) -> Any:
    """The walk's ``extra`` hook: every state of the table screen, checked as it is reached.
    The game is played to its states by calls, then taken back by Undo, so the walk's own
    random game goes on from the start."""
    from companion.drive import Driver

    def extra(app: Any, step: int) -> Iterator[int]:
        d = Driver(app)
        scr = app.game_screen
        s = app.session
        g = s.game
        players = list(g.setup.players)
        first, last = players[0], players[-1]
        where = where_of(app, "dice-ocalypse", step)

        def check(name: str) -> Iterator[int]:
            yield from check_now(problems, checked, name, scr, where)

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
            yield from check("card panel")
            d.tap(scr.cards_button)
            yield 2
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
        return []

    return extra


def test_every_diceocalypse_screen_holds_its_layout(app_dirs: Path) -> None:
    from companion.app import CompanionApp
    from companion.drive import Driver, ManualClock, run_app
    from companion.settings import Settings

    app = CompanionApp(clock=ManualClock(), journal_file=app_dirs / "j.sqlite3",
                       settings=Settings(camera="none"))
    problems: list[str] = []
    checked: list[str] = []

    def script(d: Driver) -> Generator[int | None, None, None]:
        yield 2
        start = app.screens["start"]
        start.choose_game("dice-ocalypse")
        yield 1
        start.choose("target", 2000)  # the Battle Zone at 1,000
        yield 1
        yield from walk_layouts(app, "dice-ocalypse", problems, checked,
                                extra=diceocalypse_states(problems, checked))

    run_app(app, script, timeout=2400)
    names = {c.split("@")[0] for c in checked}
    wanted = {"start", "game-dice-ocalypse", "menu", "end game", "who goes first, a die entered",
              "a roll to enter", "camera unsure", "keep", "battle zone",
              "keep, below the opening score", "rolling on", "card panel", "last turns",
              "tie-break", "winner"}
    assert wanted <= names, wanted - names
    assert sum(c.startswith("game-dice-ocalypse@") for c in checked) >= 5 * 3 * 4 * 2
    assert problems == [], "\n".join(problems[:40]) + f"\n... {len(problems)} in all"
