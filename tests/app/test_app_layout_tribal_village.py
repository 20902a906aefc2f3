"""Layout of Tribal Village's table screen: 2-6 players, every text size, both displays, the
longest names; nothing a player needs is cut, nothing overlaps, every touch target is at least
48 px (see conftest.walk_layouts). Beside the walk's own points, every step of the game is
visited: the setup's objectives, alliance cards and objectives dealt, the first lead, cards
played with their abilities (net, talons, swap) and tokens, the decisions (net, chaos and its
cards, giving back, manipulate, discard, Lucky Gretin), the end of a hand and of the game."""

from __future__ import annotations

import random
from collections.abc import Callable, Generator
from pathlib import Path
from typing import Any

import pytest
from table_walk import advance as walk_advance
from table_walk import looker, walk_with_options

pytestmark = [pytest.mark.app, pytest.mark.long]


def advance(screen: Any, want: Callable[[Any], bool], rng: random.Random,
            limit: int = 400) -> bool:
    """Random legal calls until ``want(game)`` holds (table_walk.advance)."""
    return walk_advance(screen, want, rng, limit, lambda g, r: g.random_call(r))


def pending(kind: str) -> Callable[[Any], bool]:
    return lambda g: bool(g.state.pending) and g.state.pending[0].kind == kind


def visits(problems: list[str], checked: list[str]) -> Callable[[Any, int], Any]:
    """The ``extra`` hook: at each step of the walk, the panels and steps of Tribal Village."""
    look = looker(problems, checked, lambda g: (f"gretins {g.options.lucky_gretin}, "
                                                  f"teams {g.options.alliance_mode}"))

    def extra(app: Any, step: int) -> Generator[int, None, list[tuple[str, Any]]]:
        screen = app.game_screen
        session = screen.session
        game = session.game
        rng = random.Random(step * 11 + len(game.setup.players))
        if step == 0 and game.state.phase == "setup":
            first = game.setup.players[-1]
            screen.choose(picker=first)
            yield 1
            yield from look(app, "objectives")
            for mode in ("alliances", "revealed"):
                if f"mode:{mode}" in screen.buttons:
                    screen.choose(setup_mode=mode)
                    yield 1
                    if mode == "alliances":
                        screen.choose(swap_first=game.state.layout[0][0])
                        yield 1
                    yield from look(app, f"setup {mode}")
            screen.choose(setup_mode="pick", swap_first=None)
            yield 1
        if step == 1:
            if advance(screen, lambda g: g.state.phase == "setup" and all(
                    g.state.objective.values()), rng):
                screen.choose(picker=game.setup.players[-1])
                yield 1
                yield from look(app, "first lead")
            if advance(screen, lambda g: g.state.phase == "play"
                       and not g.state.pending, rng):
                yield from look(app, "play a card")
                for c in screen.model._plays():
                    if c.net or c.take or c.swap:
                        screen.choose(card=c.card)
                        yield 1
                        yield from look(app, f"ability of {c.card}")
                        if c.take:
                            screen.choose(take=c.take)
                            yield 1
                            yield from look(app, "talons discard")
                        screen.choose(card=None, take=None)
                        yield 1
                        break
        if step == 2:
            seen: set[str] = set()
            for kind in ("net", "chaos", "return", "manipulate", "discard", "gretin"):
                if kind in seen:
                    continue
                if advance(screen, lambda g, k=kind: pending(k)(g)
                           or g.state.phase != "play", rng, limit=150) and pending(kind)(game):
                    seen.add(kind)
                    yield from look(app, f"decision {kind}")
                    if kind == "chaos":
                        screen.choose(chaos=[])
                        yield 1
                        yield from look(app, "chaos cards")
                        screen.choose(chaos=None)
                        yield 1
                    if kind == "manipulate":
                        owners = [c.owner for c in game.legal_calls() if getattr(c, "owner", None)]
                        if owners:
                            screen.choose(picker=owners[0])
                            yield 1
                            yield from look(app, "manipulate cards")
            if advance(screen, lambda g: g.state.phase == "play" and not g.state.pending
                       and g.state.tokens[g.current_player] > 0, rng, limit=150):
                yield from look(app, "tokens")
        if step == 3:
            if advance(screen, lambda g: g.state.phase == "setup"
                       and bool(g.state.hand_scores), rng, limit=1500):
                yield from look(app, "hand scored")
            if advance(screen, lambda g: g.is_over, rng, limit=1500):
                yield from look(app, "over")
        return []

    return extra


def test_every_tribal_village_screen_holds_its_layout(app_dirs: Path) -> None:
    from companion.compose import CompanionApp
    from companion.demo.drive import Driver, ManualClock, run_app

    app = CompanionApp(clock=ManualClock(), journal_file=app_dirs / "j.sqlite3")
    problems: list[str] = []
    checked: list[str] = []

    # the rulebook's game at every text size (three hands, so the walk's calls leave a hand
    # to end); with Lucky Gretins at the smallest and the largest; with teams (4 and 6
    # players) at the largest
    plain = {"hands": None, "lucky_gretin": False, "alliance_mode": False}
    walks = ((plain, ("normal", "large", "huge")),
             ({**plain, "lucky_gretin": True}, ("normal", "huge")),
             ({**plain, "alliance_mode": True}, ("huge",)))

    def script(d: Driver) -> Generator[int | None, None, None]:
        yield from walk_with_options(app, "tribal-village", walks, problems, checked,
                                     visits(problems, checked))

    run_app(app, script, timeout=900)
    game_checks = [c for c in checked if c.startswith("game-tribal-village@")]
    assert len(game_checks) >= 3 * 5 * 4 * 2, len(game_checks)
    assert problems == [], "\n".join(problems[:60]) + f"\n... {len(problems)} in all"
    for what in ("objectives", "setup alliances", "setup revealed", "first lead", "play a card",
                 "ability of", "decision net", "decision chaos", "chaos cards", "tokens",
                 "hand scored", "over", "decision gretin"):
        assert any(c.startswith(what) for c in checked), (what, sorted(set(checked))[:80])
