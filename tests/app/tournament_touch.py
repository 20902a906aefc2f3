"""Helpers for the Tournament screen's whole-app tests (no test in here): finding widgets by
their words, choosing a spinner's value by touch, waiting (bounded) for the network."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Generator, Iterable
from pathlib import Path
from typing import Any

# The tournament network tests' helpers: a real Mosquitto and `companion` processes.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "companion"))
from tournament_net import Proc, new_tournament, port_open

__all__ = ["Proc", "new_tournament", "port_open"]

WAIT = 30.0  # no single wait for the network is longer


def shots_folder(tmp: Path) -> Path:
    """Where screenshots go: TOURNAMENT_SHOTS (docs/screenshots to refresh the docs), else a
    throwaway folder."""
    return Path(os.environ.get("TOURNAMENT_SHOTS", str(tmp / "shots")))


def button(root: Any, text: str) -> Any:
    """The one visible button under ``root`` whose words are ``text``."""
    from kivy.uix.button import Button

    found = [w for w in root.walk() if isinstance(w, Button) and w.text == text
             and w.opacity > 0 and w.get_root_window() is not None]
    assert len(found) == 1, f"{len(found)} buttons {text!r} on screen"
    return found[0]


def words(root: Any) -> str:
    """Every text shown under ``root``, one per line (markup left in)."""
    return "\n".join(str(w.text) for w in root.walk() if getattr(w, "text", None))


def choose(d: Any, spinner: Any, value: str) -> Generator[int | None, None, None]:
    """Open a spinner by touch and touch one of its choices."""
    d.tap(spinner)
    yield 4  # the drop-down opens and is laid out beside the spinner
    assert spinner._dropdown.parent is not None, f"{spinner.text!r}: the touch opened nothing"
    options = [o for o in spinner._dropdown.container.children if o.text == value]
    assert options, f"{value!r} is not among {spinner.values}"
    d.tap(options[0])
    yield 2
    # Kivy's drop-down stays on the window a moment after a choice (min_state_time) and
    # would take the next touch: wait until it is gone.
    yield from wait_for(lambda: spinner._dropdown.parent is None, "the drop-down to close", 5)
    assert spinner.text == value, (
        f"{spinner.text!r}: {value!r} at {options[0].to_window(*options[0].center)}, "
        f"spinner at {spinner.to_window(*spinner.center)}")


def wait_for(check: Callable[[], bool], what: str, timeout: float = WAIT
             ) -> Generator[int | None, None, None]:
    """Let the app run (frames) until ``check()`` holds; fail after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}")
        time.sleep(0.02)
        yield 1


def texture_rgb(texture: Any) -> Any:
    """A Kivy texture's pixels as an RGB numpy array, top row first (what is on screen)."""
    import numpy as np

    w, h = texture.size
    rgba = np.frombuffer(texture.pixels, dtype=np.uint8).reshape(h, w, 4)
    return np.ascontiguousarray(rgba[::-1, :, :3])


def type_on_keypad(d: Any, keys: dict[str, Any], text: str) -> Iterable[int | None]:
    """Type ``text`` on the join page's keypad, one key at a time."""
    for ch in text:
        d.tap(keys[ch.upper()])
        yield 1


def open_new_page(d: Any, app: Any) -> Generator[int | None, None, Any]:
    """From the start screen, by touch: Tournament -> Run a tournament. Returns the screen."""
    yield 2
    d.tap(button(app.screens["start"], "Tournament"))
    yield 3
    scr = app.screens["tournament"]
    d.tap(button(scr, "Run a tournament"))
    yield 3
    return scr


def play_out(session: Any, seed: int, most: int = 3000) -> None:
    """Random legal calls on a session until its game is over (at most ``most`` calls), all
    in one go: no frame of the app comes between them."""
    import random

    rng = random.Random(seed)
    for _ in range(most):
        if session.game.is_over:
            return
        session.call(session.game.random_call(rng))
    raise AssertionError(f"the game is not over after {most} random calls")
