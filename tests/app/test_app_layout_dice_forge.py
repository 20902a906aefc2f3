"""Layout of Dice Forge's table screen: 2-4 players, every text size, both displays, the longest
names; nothing a player needs is cut, nothing overlaps, every touch target is at least 48 px
(see conftest.walk_layouts). Beside the walk's own points, every state and panel of the game is
visited: a roll of both dice and of one die, the question "Which die first?" (pictures and
words), a choice, the action, the Sanctuary with a forge being built (a face chosen, the
basket), the feats while performing, the Titans and Goddess boards, the extra action, the
end."""

from __future__ import annotations

import random
from collections.abc import Callable, Generator, Iterator
from pathlib import Path
from typing import Any

import pytest
from table_walk import advance as walk_advance
from table_walk import looker, walk_with_options

pytestmark = [pytest.mark.app, pytest.mark.long]


def advance(screen: Any, want: Callable[[Any], bool], rng: random.Random,
            limit: int = 400) -> bool:
    """Random legal calls, passing more often than not so the game moves, until ``want(game)``
    holds (table_walk.advance)."""
    from rules.dice_forge import Pass

    def choose(game: Any, rng: random.Random) -> Any:
        legal = list(game.legal_calls())
        passes = [c for c in legal if isinstance(c, Pass)]
        return rng.choice(passes if passes and rng.random() < 0.6 else legal) if legal else None

    return walk_advance(screen, want, rng, limit, choose)


def visits(problems: list[str], checked: list[str]) -> Callable[[Any, int], Any]:
    """The ``extra`` hook: at each step of the walk, the panels and states of Dice Forge."""
    look = looker(problems, checked, lambda g: f"module {g.state.module}")

    def looks(app: Any, name: str) -> Iterator[int]:
        """Menu's Sanctuary, feats and board (with a module), each checked."""
        screen = app.game_screen
        for what, open_ in (("sanctuary", screen.look_sanctuary),
                            ("feats", screen.look_feats), ("board", screen.look_board)):
            if what == "board" and screen.session.game.state.module == "none":
                continue
            view = open_()
            yield 2
            yield from look(app, f"menu {what} {name}", view)
            view.dismiss(animation=False)
            yield 1

    def extra(app: Any, step: int) -> Generator[int, None, list[tuple[str, Any]]]:
        screen = app.game_screen
        session = screen.session
        game = session.game
        rng = random.Random(step * 7 + len(game.setup.players))
        if step == 0:
            yield from look(app, f"roll {game.waiting_for()}")
            first = game.state.steps[0]
            face = game.state.player(first.player).dice[0][0]
            screen.do(lambda: screen.model.pick_face(0, face))
            yield 1
            yield from look(app, "roll, one face tapped")
            # "Which die first?" (asked when the order matters; drawn the same for any two
            # faces, so the player's own faces are shown here whatever the module)
            dice = game.state.player(first.player).dice
            screen.model.picked = {}
            screen.model.ordering = (max(dice[0], key=len), max(dice[1], key=len))
            screen.refresh()
            yield 1
            yield from look(app, "which die first")
            screen.do(screen.model.toggle_words)
            yield 1
            yield from look(app, "which die first, in words")
            screen.do(screen.model.toggle_words)
            screen.do(screen.model.cancel_order)
            yield 1
            yield from looks(app, "early")
        if step == 1 and advance(screen, lambda g: g.state.phase == "action"
                                 and not g.state.steps and any(
                                     type(c).__name__ == "Forge" for c in g.legal_purchases()),
                                 rng):
            yield from look(app, "action")
            screen.do(screen.model.start_forge)
            yield 1
            yield from look(app, "sanctuary forging")
            options = screen.model.forge_options()
            if options:
                screen.do(lambda: screen.model.choose_sanctuary_face(options[0].face))
                yield 1
                yield from look(app, "sanctuary: which die, which face")
                screen.do(lambda: screen.model.add_buy(options[0]))
                yield 1
                yield from look(app, "sanctuary: the basket")
            screen.do(screen.model.cancel_forge)
            yield 1
        if step == 2:
            if advance(screen, lambda g: bool(g.state.steps)
                       and g.state.steps[0].kind in ("choose", "roll1", "celestial"), rng):
                yield from look(app, f"step {game.state.steps[0].kind}")
            if advance(screen, lambda g: g.state.phase == "action" and not g.state.steps
                       and any(type(c).__name__ == "Perform" for c in g.legal_purchases()),
                       rng):
                screen.do(screen.model.start_feat)
                yield 1
                yield from look(app, "feats performing")
                screen.do(screen.model.cancel_forge)
                yield 1
            if advance(screen, lambda g: g.state.phase == "after"
                       and not g.state.steps, rng):
                yield from look(app, "extra action")
            screen.do(screen.model.toggle_words)
            yield 1
            yield from look(app, "faces as words")
            screen.do(screen.model.toggle_words)
            yield 1
        if step == 3:
            yield from looks(app, "late")
            if advance(screen, lambda g: g.is_over, rng, limit=1500):
                yield from look(app, "over")
        return []

    return extra


def test_every_dice_forge_screen_holds_its_layout(app_dirs: Path) -> None:
    from companion.compose import CompanionApp
    from companion.demo.drive import Driver, ManualClock, run_app

    app = CompanionApp(clock=ManualClock(), journal_file=app_dirs / "j.sqlite3")
    problems: list[str] = []
    checked: list[str] = []

    # every module: the plain game at every text size, the modules at the smallest and the
    # largest text (their boards)
    walks = (({"module": None}, ("normal", "large", "huge")),
             ({"module": "titans"}, ("normal", "huge")),
             ({"module": "goddess"}, ("normal", "huge")))

    def script(d: Driver) -> Generator[int | None, None, None]:
        yield from walk_with_options(app, "dice-forge", walks, problems, checked,
                                     visits(problems, checked))

    run_app(app, script, timeout=900)
    game_checks = [c for c in checked if c.startswith("game-dice-forge@")]
    assert len(game_checks) >= 3 * 7 * 4 * 2, len(game_checks)
    assert problems == [], "\n".join(problems[:60]) + f"\n... {len(problems)} in all"
    for what in ("roll", "which die first", "which die first, in words", "action",
                 "sanctuary: the basket", "feats performing", "menu board", "menu sanctuary",
                 "menu feats", "extra action", "over", "step choose", "faces as words"):
        assert any(c.startswith(what) for c in checked), (what, sorted(set(checked))[:50])
