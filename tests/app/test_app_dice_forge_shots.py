"""Every screen of Dice Forge at 3 players (Titans), at 4 players (Goddess) and at 4 players
with the largest text (Titans): each is checked by layout_problems (nothing cut, nothing
overlapping, touch targets of 48 px) at 800x480, and saved when DICE_FORGE_SHOTS names a folder
(docs/screenshots/ keeps them as dice-forge-<set>-<screen>.png).

The states are reached by a seeded random game (passing more often than not, so turns move on)
and the screen's own taps, so every run shows the same screens."""

from __future__ import annotations

import os
import random
from collections.abc import Generator, Iterator
from pathlib import Path
from typing import Any

import pytest
from table_walk import shooter

pytestmark = [pytest.mark.app, pytest.mark.long]

SHOTS = os.environ.get("DICE_FORGE_SHOTS")
NAMES = ("Ana", "Benedikt", "Cy", "Dolores")


def test_every_dice_forge_screen_shot(app_dirs: Path) -> None:
    from dataclasses import replace

    from companion.compose import CompanionApp
    from companion.demo.drive import Driver, ManualClock, run_app
    from rules import Setup
    from rules.dice_forge import Forge, Pass, Perform

    app = CompanionApp(clock=ManualClock(), journal_file=app_dirs / "j.sqlite3")
    problems: list[str] = []
    shots: list[str] = []
    take = shooter(app, problems, shots, SHOTS, "dice-forge")

    def table(d: Driver, count: int, module: str, size: str, prefix: str
              ) -> Generator[int, None, None]:
        """One table: every state and panel as it first shows up in a random game."""
        app.apply_settings(replace(app.settings, text_size=size))
        yield 2
        app.start_game(Setup("dice-forge", NAMES[:count], {"module": module, "rounds": 4},
                             20 + count))
        yield 2
        session = app.session
        game = session.game
        rng = random.Random(count)

        def scr() -> Any:
            return app.game_screen

        def shot(name: str, widget: Any = None) -> Iterator[int]:
            yield from take(d, f"{prefix}-{name}", widget)

        def step() -> None:
            legal = list(game.legal_calls())
            passes = [c for c in legal if isinstance(c, Pass)]
            session.try_call(rng.choice(passes if passes and rng.random() < 0.5 else legal))

        yield from shot("roll")
        first = game.state.steps[0]
        face = game.state.player(first.player).dice[0][0]
        scr().do(lambda: scr().model.pick_face(0, face))
        yield 1
        yield from shot("roll-one-face-tapped")
        for name, look in (("sanctuary", scr().look_sanctuary), ("feats", scr().look_feats),
                           ("board", scr().look_board)):
            if name == "board" and module == "none":
                continue
            view = look()
            yield 2
            yield from shot(f"menu-{name}", view)
            view.dismiss(animation=False)
            yield 1
        while not game.is_over:
            s = game.state
            taken = set(shots)
            kind = s.steps[0].kind if s.steps else s.phase
            if kind in ("roll1", "celestial", "choose") and f"{prefix}-{kind}" not in taken:
                yield 1
                yield from shot(kind)
            elif kind == "action" and f"{prefix}-action" not in taken:
                yield 1
                yield from shot("action")
            elif kind == "after" and f"{prefix}-extra-action" not in taken:
                yield 1
                yield from shot("extra-action")
            if kind == "action" and f"{prefix}-forge-basket" not in taken and any(
                    isinstance(c, Forge) for c in game.legal_purchases()):
                scr().do(scr().model.start_forge)
                yield 1
                yield from shot("forge")
                buy = scr().model.forge_options()[0]
                scr().do(lambda b=buy: scr().model.choose_sanctuary_face(b.face))
                yield 1
                yield from shot("forge-which-die")
                scr().do(lambda b=buy: scr().model.add_buy(b))
                yield 1
                yield from shot("forge-basket")
                scr().do(scr().model.forge_now)
                yield 1
                continue
            if kind == "action" and f"{prefix}-perform" not in taken and any(
                    isinstance(c, Perform) for c in game.legal_purchases()):
                scr().do(scr().model.start_feat)
                yield 1
                yield from shot("perform")
                key = next(k for k, b in scr().buttons.items()
                           if k.startswith("feat:") and not b.disabled)
                d.tap(scr().buttons[key])
                yield 1
                continue
            step()
        yield 1
        yield from shot("over")
        app.end_game()
        yield 2

    def script(d: Driver) -> Generator[int | None, None, None]:
        yield 2
        for count, module, size, prefix in ((3, "titans", "normal", "3"),
                                            (4, "goddess", "normal", "4"),
                                            (4, "titans", "huge", "huge")):
            yield from table(d, count, module, size, prefix)

    run_app(app, script, timeout=600)
    missing = [f"{prefix}-{name}" for prefix in ("3", "4", "huge")
               for name in ("roll", "roll-one-face-tapped", "menu-sanctuary", "menu-feats",
                            "menu-board", "choose", "action", "extra-action", "forge",
                            "forge-which-die", "forge-basket", "perform", "over")
               if f"{prefix}-{name}" not in shots]
    assert not missing, missing
    assert problems == [], "\n".join(problems)
