"""Whole-app tests: each file runs in its own pytest process (see test.sh), marked ``app``.

Kivy is imported only inside the tests, so collecting these files in the main test run (where
they are deselected) never opens a window.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest


def arena_game() -> str:
    """The arena game's short name."""
    return "eye-for-an-eye"


def arena_of(app: Any) -> Any:
    """The calls of the Eye for an Eye match the app is running (its seats, pending attacks,
    parry windows, the call being built)."""
    from companion.games.eye_for_an_eye.table import EyeTable

    table = app.table
    assert isinstance(table, EyeTable), f"the app runs {type(table).__name__}, not the arena"
    return table.calls


#: The seed of every game started from the start screen in these tests (the app takes it
#: from the clock): a run is the same run every time, whatever the hour.
GAME_SEED = 2026


@pytest.fixture
def app_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Throwaway data and config folders for the app under test; games started from the
    start screen get :data:`GAME_SEED`."""
    old = {k: os.environ.get(k) for k in ("COMPANION_DATA_DIR", "COMPANION_CONFIG_DIR",
                                          "COMPANION_CAMERA")}
    os.environ["COMPANION_DATA_DIR"] = str(tmp_path / "data")
    os.environ["COMPANION_CONFIG_DIR"] = str(tmp_path / "config")
    # The camera is what each test's settings say (COMPANION_CAMERA would come before them).
    os.environ.pop("COMPANION_CAMERA", None)
    os.environ.setdefault("KIVY_CLIPBOARD", "dummy")
    monkeypatch.setattr("companion.screens.start.new_seed", lambda: GAME_SEED)
    yield tmp_path
    for k, v in old.items():
        if v is None:
            os.environ.pop(k, None)
        else:
            os.environ[k] = v


@contextmanager
def undrawn_frames(uncapped: bool = True) -> Iterator[None]:
    """Inside: Kivy's frames run as usual (the clock, touches, layouts, label textures and
    fitted fonts all settle before a frame would be drawn) but nothing is drawn and, when
    ``uncapped``, no frame waits for the 60 fps cap. A layout check reads only widget geometry,
    texts and texture sizes, never pixels: software GL's drawing of every frame and the cap's
    sleeps were most of a layout walk's time. A screenshot taken inside draws the one frame it
    shows first (see test_app_layout.py::test_undrawn_frames_lay_out_as_drawn_ones)."""
    from kivy.clock import Clock
    from kivy.core.window import Window

    def skip(*_args: Any) -> bool:
        return True  # a handler that answers True stops the event before the window draws

    shot = Window.__dict__.get("screenshot")  # the instance's own, when an outer one set it
    take = Window.screenshot

    def drawn_screenshot(*args: Any, **kwargs: Any) -> Any:
        Window.on_draw()  # the window's own drawing, called past the skipping handler
        return take(*args, **kwargs)

    cap = Clock._max_fps  # Kivy reads the cap (config graphics.maxfps) at every frame
    Window.fbind("on_draw", skip)
    Window.fbind("on_flip", skip)
    Window.screenshot = drawn_screenshot
    if uncapped:
        Clock._max_fps = 0.0
    try:
        yield
    finally:
        Clock._max_fps = cap
        if shot is None:
            del Window.screenshot
        else:
            Window.screenshot = shot
        Window.funbind("on_draw", skip)
        Window.funbind("on_flip", skip)
        Window.canvas.ask_update()


@pytest.fixture(autouse=True)
def _undrawn_unless_marked(request: pytest.FixtureRequest) -> Iterator[None]:
    """Every whole-app test runs the real app in frames that are laid out but not drawn (at
    the usual 60 fps cap, so a wait counted in frames lasts as long): only software GL's
    rasterising is left out, about half of these tests' processor time here; a screenshot
    draws the frame it shows. A test that must see every frame drawn is marked ``drawn``."""
    if request.node.get_closest_marker("drawn") is not None:
        yield
        return
    with undrawn_frames(uncapped=False):
        yield


def geometry(root: Any) -> list[tuple[Any, ...]]:
    """What a layout check reads under ``root``: every shown widget's type, place and size in
    the window, text and text texture size, in a fixed order (children in order)."""
    found: list[tuple[Any, ...]] = []
    todo = [root]
    while todo:
        w = todo.pop()
        if w.opacity == 0:
            continue
        x, y = w.to_window(w.x, w.y)
        found.append((type(w).__name__, round(x), round(y), round(w.width), round(w.height),
                      getattr(w, "text", None), tuple(getattr(w, "texture_size", ()))))
        todo.extend(reversed(w.children))
    return found


def leave_game(d: Any, screen: Any, answer: str = "Keep for later") -> Iterator[int]:
    """Menu -> End game -> ``answer`` in the dialog, as a player leaves a game: "Keep for
    later" (it stays in Resume), "End game" or "No result"; "Leave" where the dialog offers
    only that (a game over, or one with no call)."""
    frame = screen.frame
    d.tap(frame.menu)
    yield 1
    d.tap(frame.menu_buttons["End game"])
    yield 1
    view = frame.confirm_view
    assert view is not None
    buttons = {getattr(w, "text", ""): w for w in view.walk() if type(w).__name__ != "Label"}
    d.tap(buttons[answer] if answer in buttons else buttons["Leave"])
    yield 2


def press_in(d: Any, view: Any, text: str) -> None:
    """Tap the button that says ``text`` in an open dialog."""
    assert view is not None and view.parent is not None, "the dialog is not open"
    button = next((w for w in view.walk() if getattr(w, "text", None) == text
                   and type(w).__name__ != "Label"), None)
    assert button is not None, f"no {text!r} button in the dialog"
    d.tap(button)


def tap_start(d: Any, start: Any) -> Iterator[int]:
    """Tap "Start the game"; when these players have an unfinished game of it (the start
    screen then asks), start a new one."""
    d.tap(start.start_button)
    yield 1
    view = getattr(start, "confirm_view", None)
    if view is not None and view.parent is not None and any(
            getattr(w, "text", None) == "New game" for w in view.walk()):
        press_in(d, view, "New game")
        yield 1


#: Player names as long as the start screen takes (16 characters), wide letters first.
LONG_NAMES = ("Maximiliana Wolf", "Bartholomew Kemp", "Konstantinos Mar", "Gwendolynne Moss",
              "Christabel Wards", "Fitzwilliam Owen")[:6]
TEXT_SIZES = ("normal", "large", "huge")
DISPLAYS = ((800, 480), (1280, 720))


def walk_layouts(app: Any, game: str, problems: list[str], checked: list[str], *,
                 extra: Any = None, steps: int = 4, seed: int = 1,
                 text_sizes: tuple[str, ...] = TEXT_SIZES,
                 displays: tuple[tuple[int, int], ...] = DISPLAYS) -> Iterator[int]:
    """Drive ``app`` (a script's generator body): ``game`` at every player count the rules
    take, every text size and both displays, with the longest names; at ``steps`` points of a
    seeded random game, every screen of the game (and the start screen with the game chosen)
    is checked by :func:`companion.demo.drive.layout_problems`. ``extra(app, step)`` may yield
    frames and return more (name, widget) pairs to check: a panel opened, a dialog.
    Problems and what was checked are appended to the lists given. The frames are undrawn
    (:func:`undrawn_frames`)."""
    from kivy.core.window import Window

    import rules
    from companion.demo.drive import layout_problems

    def check(name: str, widget: Any, where: str) -> Iterator[int]:
        for size in displays:
            Window.size = size
            yield 3
            problems.extend(f"{where}: {p}" for p in layout_problems(widget, size))
            checked.append(f"{name}@{size}")
        Window.size = displays[0]
        yield 1

    cls = rules.game_class(game)
    with undrawn_frames():
        yield from _walk(app, game, cls, check, checked, extra, steps, seed, text_sizes)


def _walk(app: Any, game: str, cls: Any, check: Any, checked: list[str], extra: Any,
          steps: int, seed: int, text_sizes: tuple[str, ...]) -> Iterator[int]:
    """walk_layouts' body (inside undrawn frames)."""
    import random
    from dataclasses import replace

    import rules

    for text_size in text_sizes:
        app.apply_settings(replace(app.settings, text_size=text_size))
        yield 2
        for count in range(cls.min_players, cls.max_players + 1):
            start = app.screens["start"]
            app.show("start")
            start.choose_game(game)
            yield 1
            if start.mode_spin is not None:
                start.choose("mode", "alliances" if count > 4 else "every-eye")
            start._seat_names(LONG_NAMES[:count])
            yield 2
            where = f"{game}, {count} players, {text_size}"
            yield from check("start", start, where)
            try:
                # the start screen seeds from the clock: a fixed seed walks the same game each run
                session = app.start_game(replace(start.build_setup(), seed=seed * 100 + count))
            except rules.RulesError as e:
                checked.append(f"refused {count}: {e}")
                continue
            rng = random.Random(seed * 100 + count)
            for step in range(steps):
                for screen in app.table.screens:
                    app.show(screen.name)
                    yield 2
                    yield from check(screen.name, screen, f"{where}, step {step}")
                frame = getattr(app.table.screens[0], "frame", None)
                if frame is not None and step in (0, steps - 1):  # the Menu and End game
                    app.show(app.table.screens[0].name)
                    frame.open_menu()
                    yield 2
                    yield from check("menu", frame.menu_view, f"{where}, step {step}")
                    frame.menu_view.dismiss(animation=False)
                    frame.ask_end()
                    yield 2
                    yield from check("end game", frame.confirm_view, f"{where}, step {step}")
                    frame.confirm_view.dismiss(animation=False)
                    yield 1
                if extra is not None:
                    more = yield from extra(app, step)
                    for name, widget in more or ():
                        yield from check(name, widget, f"{where}, step {step}")
                for _ in range(6 * step + 3):
                    legal = list(session.game.legal_calls())
                    if not legal or session.game.prompt().over:
                        break
                    session.try_call(rng.choice(legal))
                yield 1
            app.end_game()
            yield 1

