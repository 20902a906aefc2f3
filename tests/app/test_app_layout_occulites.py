"""Layout of Dice of the Occulites' table screen: 2-5 players, every text size, both displays,
16-character names, through every state a player meets (Tribes, the Lots of Interests draft,
the line-up keypad, dice the camera is unsure of, a refused line-up, the timer, each card
resolved, Share Knowledge, the final scores): nothing a player needs is cut, nothing
overlaps, every touch target is at least 48 px (see conftest.walk_layouts)."""

from __future__ import annotations

import random
from collections.abc import Generator, Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from conftest import walk_layouts
from layout_checks import check_now, where_of

pytestmark = pytest.mark.app


def lined_up_tray(dice: dict[str, list[tuple[str, int]]], unsure: dict[str, set[int]]) -> Any:
    """A reading of line-ups laid in rows (seat 1 at the top); ``unsure`` cards (0-5) are read
    with doubt."""
    out = []
    for r, (player, row) in enumerate(dice.items()):
        for i, (colour, pips) in enumerate(row):
            doubt = i in unsure.get(player, set())
            out.append(SimpleNamespace(center=(60.0 + 90 * i, 40.0 + 80 * r), value=pips,
                                       colour=colour, confidence=0.3 if doubt else 0.95))
    return SimpleNamespace(dice=tuple(out), frame_shape=(480, 640), warnings=())


def held(game: Any, player: str) -> list[str]:
    return [c for c, n in game.state.dice[player].items() for _ in range(n)]


def occulites_states(problems: list[str], checked: list[str]) -> Any:
    """The walk's ``extra`` hook: every state of the table screen, checked as it is reached."""
    from companion.drive import Driver

    def extra(app: Any, step: int) -> Iterator[int]:
        d = Driver(app)
        scr = app.game_screen
        s = app.session
        g = s.game
        where = where_of(app, "occulites", step)
        rng = random.Random(step)

        def check(name: str) -> Iterator[int]:
            yield from check_now(problems, checked, name, scr, where)

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
            assert scr.sel == (last, 1), scr.sel
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
            assert scr.resolving is not None
            yield from check("card 1")
            while scr.resolving is not None and scr.resolving["step"] < 6:
                d.tap(scr.next_button)
                yield 1
            yield from check("card 6")
            d.tap(scr.next_button)
            yield 1
            if g.phase == "share":
                yield from check("share, give")
                give = next((b for b in scr.give_buttons.values() if not b.disabled), None)
                if give is not None:
                    d.tap(give)
                    yield 1
                    yield from check("share, take")
        if step == 3:  # to the final scores
            while not g.is_over:
                s.try_call(g.random_call(rng))
                yield 1
            while scr.resolving is not None:
                d.tap(scr.next_button)
                yield 1
            yield from check("over")
        return []

    return extra


def walk(app_dirs: Path, options: dict[str, Any], text_sizes: tuple[str, ...]) -> None:
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
        start.choose_game("occulites")
        yield 1
        for key, value in options.items():
            start.choose(key, value)
        yield 1
        yield from walk_layouts(app, "occulites", problems, checked,
                                extra=occulites_states(problems, checked),
                                text_sizes=text_sizes)

    run_app(app, script, timeout=2400)
    names = {c.split("@")[0] for c in checked}
    wanted = {"start", "game-occulites", "menu", "end game", "allocate, the keypad on a die",
              "allocate, camera unsure", "allocate, a refused line-up", "card 1", "card 6",
              "share, give", "over"}
    wanted |= {"draft"} if options.get("lots_of_interests") else {"tribes, a player chosen"}
    assert wanted <= names, wanted - names
    assert sum(c.startswith("game-occulites@") for c in checked) >= 4 * len(text_sizes) * 4 * 2
    assert problems == [], "\n".join(problems[:40]) + f"\n... {len(problems)} in all"


def test_every_occulites_screen_holds_its_layout(app_dirs: Path) -> None:
    walk(app_dirs, {}, ("normal", "large", "huge"))


def test_the_draft_and_every_mode_hold_their_layout(app_dirs: Path) -> None:
    """Lots of Interests (the draft), Creatures & Predators and Conflicted Interests on."""
    walk(app_dirs, {"lots_of_interests": True, "creatures": True,
                    "conflicted_interests": True}, ("normal", "huge"))
