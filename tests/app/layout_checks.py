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

    from companion.drive import layout_problems

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

        def check(name: str) -> Iterator[int]:
            yield from check_now(problems, checked, name, app.game_screen, where)

        yield from tour(app, step, check)
        return []

    return extra
