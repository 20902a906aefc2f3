"""Checking a screen's layout in the middle of a ``walk_layouts`` extra hook (a panel opened, a
die selected, a card being resolved), where the walk's own check would come too late: the
state is gone by the time the hook returns. Used by the table games' layout tests."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from conftest import DISPLAYS


def where_of(app: Any, game: str, step: int) -> str:
    """The walk's words for the point reached: game, players, text size, step."""
    players = len(app.session.game.setup.players)
    return f"{game}, {players} players, {app.settings.text_size}, step {step}"


def check_now(problems: list[str], checked: list[str], name: str, widget: Any, where: str,
              displays: tuple[tuple[int, int], ...] = DISPLAYS) -> Iterator[int]:
    """Check ``widget`` as it is now at every display size (as the walk checks a screen),
    then put the window back to the first size."""
    from kivy.core.window import Window

    from companion.demo.drive import layout_problems

    for size in displays:
        Window.size = size
        yield 3
        problems.extend(f"{where}, {name}: {p}" for p in layout_problems(widget, size))
        checked.append(f"{name}@{size}")
    Window.size = displays[0]
    yield 2


def tour_hook(game: str, tour: Callable[[Any, int, Any], Iterator[int]], problems: list[str],
              checked: list[str]) -> Callable[[Any, int], Iterator[int]]:
    """A walk's ``extra``: ``tour(app, step, at)`` of a game's states (tests/app/
    table_tours.py), the screen checked at each as it is reached."""

    def extra(app: Any, step: int) -> Iterator[int]:
        where = where_of(app, game, step)

        def check(name: str, widget: Any = None) -> Iterator[int]:
            yield from check_now(problems, checked, name, widget or app.game_screen, where)

        yield from tour(app, step, check)
        return []

    return extra


def picture_tours(d: Any, app: Any, game: str, prefix: str, tour: Any, steps: tuple[int, ...],
                  sets: Any, folder: Any, taken: list[Any], problems: list[str]
                  ) -> Iterator[int]:
    """Screenshots of a game's tour (tests/app/table_tours.py) at 800x480, for each set of
    (file tag, players, text size, options, states or None for all): files
    ``<prefix>-<tag>-<state>.png`` in ``folder``; each state is also checked for layout
    problems. The players' names are as long as the start screen takes."""
    import re
    from dataclasses import replace

    from conftest import LONG_NAMES

    from companion.demo.drive import layout_problems

    def slug(name: str) -> str:
        return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")

    for tag, count, text_size, options, states in sets:
        app.apply_settings(replace(app.settings, text_size=text_size))
        yield 2
        start = app.screens["start"]
        app.show("start")
        start.choose_game(game)
        yield 1
        for key, value in options.items():
            start.choose(key, value)
        start._seat_names(LONG_NAMES[:count])
        yield 2
        d.tap(start.start_button)
        yield 2
        assert app.sm.current == f"game-{game}", start.message.text

        def shoot(name: str, widget: Any = None, tag: str = tag, states: Any = states
                  ) -> Iterator[int]:
            if states is not None and name not in states:
                return
            yield 2
            problems.extend(f"{tag} {name}: {p}" for p in
                            layout_problems(widget or app.game_screen, (800, 480)))
            taken.append(d.screenshot(folder / f"{prefix}-{tag}-{slug(name)}.png"))

        for step in steps:
            yield from tour(app, step, shoot)
        app.end_game()
        yield 2
