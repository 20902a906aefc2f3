"""Helpers of the layout walks of the one-screen games (Dice Forge, Tribal Village): a check of
the game screen in several states within one step of conftest.walk_layouts, and the walk
itself over several sets of start options."""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from conftest import DISPLAYS, walk_layouts


def looker(problems: list[str], checked: list[str],
           describe: Callable[[Any], str]) -> Callable[..., Iterator[int]]:
    """``look(app, name, widget=None)``: check the game screen (or ``widget``, a dialog) as it
    is now at both displays (what walk_layouts does for the widgets an ``extra`` returns, but
    for several states of one screen); ``describe(game)`` says which game it is."""
    from kivy.core.window import Window

    from companion.demo.drive import layout_problems

    def look(app: Any, name: str, widget: Any = None) -> Iterator[int]:
        screen = app.game_screen
        game = screen.session.game
        where = (f"{game.name} {len(game.setup.players)} players, {app.settings.text_size}, "
                 f"{describe(game)}, {name}")
        for size in DISPLAYS:
            Window.size = size
            yield 3
            problems.extend(f"{where}: {p}" for p in layout_problems(widget or screen, size))
            checked.append(f"{name}@{size}")
        Window.size = DISPLAYS[0]
        yield 1

    return look


@contextmanager
def undrawn(screen: Any) -> Iterator[None]:
    """Calls played inside are not drawn one by one, and the screen is drawn once at the end,
    as after any call: each draw of a table screen builds its widgets again (some 50 ms here),
    a walk plays thousands of random calls to reach the states it looks at, and it looks only
    at the screen as drawn after the last of them. The game's model still hears every call."""
    screen.redraw = lambda: None  # the instance's attribute hides the class's method
    try:
        yield
    finally:
        del screen.redraw
        screen.redraw()


def advance(screen: Any, want: Callable[[Any], bool], rng: Any, limit: int,
            choose: Callable[[Any, Any], Any]) -> bool:
    """Calls ``choose(game, rng)`` gives, until ``want(game)`` holds; False if it did not
    within ``limit`` calls, or the game ended or ``choose`` had none (None) first. Drawn once,
    at the end (:func:`undrawn`)."""
    session = screen.session
    game = session.game
    with undrawn(screen):
        for _ in range(limit):
            if want(game):
                return True
            call = None if game.is_over else choose(game, rng)
            if call is None:
                break
            session.try_call(call)
    return bool(want(game))


def walk_with_options(app: Any, game: str, walks: Sequence[tuple[Mapping[str, Any],
                                                                 tuple[str, ...]]],
                      problems: list[str], checked: list[str],
                      extra: Any) -> Generator[int | None, None, None]:
    """walk_layouts once per (start options, text sizes) of ``walks``, the options chosen on
    the start screen in words as a player would."""
    yield 2
    for options, sizes in walks:
        start = app.screens["start"]  # built again at each change of text size
        start.choose_game(game)
        yield 1
        for key, value in options.items():
            start.choose(key, value)
        yield 1
        yield from walk_layouts(app, game, problems, checked, extra=extra, text_sizes=sizes)


def shooter(app: Any, problems: list[str], shots: list[str], folder: str | None,
            stem: str) -> Callable[..., Iterator[int]]:
    """``shot(d, where, widget=None)``: check the game screen (or ``widget``) at 800x480 and,
    when ``folder`` is given, save it there as ``<stem>-<where>.png``."""
    from pathlib import Path

    from kivy.core.window import Window

    from companion.demo.drive import layout_problems

    def shot(d: Any, where: str, widget: Any = None) -> Iterator[int]:
        Window.size = (800, 480)
        yield 3
        problems.extend(f"{where}: {p}"
                        for p in layout_problems(widget or app.game_screen, (800, 480)))
        shots.append(where)
        if folder:
            d.screenshot(Path(folder) / f"{stem}-{where}.png")

    return shot
