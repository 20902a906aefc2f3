"""Drive the real app by touch, from a script: for `companion demo` and the whole-app tests.

A script is a generator function taking a :class:`Driver`. Each ``yield`` lets Kivy draw
frames (``yield 3`` waits three frames) before the script goes on, so layout and redraws
happen exactly as they do at the table. Touches go through Kivy's own touch dispatch.
"""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Callable, Generator, Iterator
from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.base import EventLoop
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.input.motionevent import MotionEvent

Script = Callable[["Driver"], Generator[int | None, None, None]]


class ManualClock:
    """A monotonic clock that moves only when told: the demo's and tests' accelerated time."""

    def __init__(self, start: float = 1000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


class ScriptTouch(MotionEvent):
    """One finger on the screen, put down and lifted by a script through Kivy's own input
    dispatch (the same path a touch panel's events take). Written here rather than taken from
    ``kivy.tests``, which needs pytest: `companion demo` runs where only the app is installed."""

    _ids = 0

    def __init__(self, x: float, y: float) -> None:
        ScriptTouch._ids += 1
        win = EventLoop.window
        super().__init__("script", ScriptTouch._ids,
                         {"x": x / max(1.0, win.width - 1.0),
                          "y": y / max(1.0, win.height - 1.0)},
                         is_touch=True, type_id="touch")
        self.profile = ["pos"]

    def depack(self, args: dict[str, float]) -> None:
        self.sx, self.sy = args["x"], args["y"]
        super().depack(args)

    def down(self) -> None:
        EventLoop.post_dispatch_input("begin", self)

    def up(self) -> None:
        EventLoop.post_dispatch_input("end", self)


class Driver:
    """Taps widgets and takes screenshots of a running app."""

    def __init__(self, app: Any) -> None:
        self.app = app

    def tap(self, widget: Any) -> None:
        """Touch down and up at the widget's centre, in window coordinates."""
        if widget.disabled:
            text = getattr(widget, "text", "")
            raise AssertionError(f"tapping a disabled widget: {widget!r} {text!r}")
        x, y = widget.to_window(*widget.center)
        self.tap_at(x, y + _pan())

    def tap_at(self, x: float, y: float) -> None:
        """Touch down and up at a point of the screen (where the window's content shows it
        less :func:`_pan`, while the on-screen keyboard has moved it up)."""
        touch = ScriptTouch(x, y)
        touch.down()
        touch.up()

    def on_screen_keyboard(self) -> Any:
        """The on-screen keyboard shown now (Kivy's VKeyboard), or None."""
        from kivy.uix.vkeyboard import VKeyboard

        return next((c for c in Window.children if isinstance(c, VKeyboard)), None)

    def keys(self) -> dict[str, tuple[float, float]]:
        """Where each key of the on-screen keyboard is, in window coordinates, by what it
        types ("a", " ") or does ("backspace", "shift", "enter")."""
        vk = self.on_screen_keyboard()
        assert vk is not None, "no on-screen keyboard is shown"
        found: dict[str, tuple[float, float]] = {}
        step = 4
        for ly in range(step, int(vk.height), step):
            for lx in range(step, int(vk.width), step):
                if vk.collide_margin(lx, ly):
                    continue
                key = vk.get_key_at_pos(lx, ly)
                if key:
                    _shown, internal, special, _size = key[0]
                    x, y = vk.to_parent(lx, ly)
                    found.setdefault(special or internal, (x, y + _pan()))
        return found

    def type_on_screen(self, text: str, erase: int = 0) -> Iterator[int]:
        """Erase ``erase`` characters, then type ``text`` on the on-screen keyboard, a key
        at a time, a frame between keys; capitals with Caps Lock on and off again (a finger
        cannot hold Shift down while it taps the letter)."""
        keys = self.keys()
        for _ in range(erase):
            self.tap_at(*keys["backspace"])
            yield 1
        for ch in text:
            where = keys.get(ch.lower()) or keys.get("spacebar" if ch == " " else ch)
            assert where is not None, f"no key for {ch!r} on the on-screen keyboard"
            caps = ch.isupper()
            for point in ([keys["capslock"], where, keys["capslock"]] if caps else [where]):
                self.tap_at(*point)
                yield 1

    def screenshot(self, path: Path) -> Path:
        """Save the window as it is on screen to ``path`` (PNG)."""
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory() as tmp:
            saved = Window.screenshot(name=str(Path(tmp) / "shot.png"))
            if not saved or not os.path.exists(saved):
                raise RuntimeError(f"the window gave no screenshot for {path}")
            os.replace(saved, path)
        return path

    # Shortcuts to the arena's widgets.
    @property
    def arena(self) -> Any:
        return self.app.screens["arena"]

    def action(self, player: str, action: str) -> None:
        self.tap(self.arena.panels[player].buttons[action])

    def count(self, n: int) -> None:
        self.tap(self.arena.count_buttons[n - 1])

    def target(self, player: str) -> None:
        self.tap(self.arena.panels[player].header)

    def call(self, actor: str, action: str, count: int | None = None,
             target: str | None = None) -> Iterator[int]:
        """Up to three taps, a frame between each, as a player would."""
        self.action(actor, action)
        yield 1
        if count is not None:
            self.count(count)
            yield 1
        if target is not None:
            self.target(target)
            yield 1


def _pan() -> float:
    """How far Kivy's own soft-input modes ("pan", "below_target") move the window's content
    up for an on-screen keyboard (the app lifts fields itself and uses neither: 0 there)."""
    if Window.softinput_mode in ("pan", "below_target"):
        return float(Window.keyboard_height)
    return 0.0


def run_app(app: App, script: Script, size: tuple[int, int] = (800, 480),
            timeout: float = 120.0) -> None:
    """Run ``app`` with ``script`` driving it; stop when the script ends; re-raise its errors."""
    Window.size = size
    state: dict[str, Any] = {"gen": None, "wait": 2, "error": None, "frames": 0}
    started, cpu = time.monotonic(), time.process_time()

    def step(dt: float) -> None:
        state["frames"] += 1
        if state["wait"] > 0:
            state["wait"] -= 1
            return
        try:
            if state["gen"] is None:
                state["gen"] = script(Driver(app))
            wait = next(state["gen"])
            state["wait"] = 1 if wait is None else int(wait)
            if time.monotonic() - started > timeout:  # checked where the script now waits
                raise TimeoutError(
                    f"app script still running after {timeout:.0f} s ({state['frames']} frames, "
                    f"{time.process_time() - cpu:.0f} s of processor time), at "
                    f"{_where(state['gen'])}")
        except StopIteration:
            event.cancel()
            app.stop()
        except BaseException as e:  # hand the failure to the caller of run_app
            state["error"] = e
            event.cancel()
            app.stop()

    event = Clock.schedule_interval(step, 0)
    app.run()
    if state["error"] is not None:
        raise state["error"]


def _where(gen: Any) -> str:
    """Where a script's generator stands: the innermost ``yield`` it waits at."""
    while getattr(getattr(gen, "gi_yieldfrom", None), "gi_frame", None) is not None:
        gen = gen.gi_yieldfrom
    frame = getattr(gen, "gi_frame", None)
    if frame is None:
        return "the script's end"
    return f"{frame.f_code.co_filename}:{frame.f_lineno} ({frame.f_code.co_name})"


def touch_problems(root: Any, size: tuple[int, int], min_px: float = 48.0) -> list[str]:
    """Visible buttons and text fields under ``root`` smaller than ``min_px`` on a side, or
    reaching outside a ``size`` window: what a finger at the table would miss. A widget with
    opacity 0 hides everything inside it."""
    from kivy.uix.button import Button
    from kivy.uix.textinput import TextInput

    found = []
    todo = [root]
    while todo:
        w = todo.pop()
        if w.opacity == 0:  # hidden, and so is everything inside it
            continue
        todo.extend(w.children)
        if not isinstance(w, Button | TextInput):
            continue
        x, y = w.to_window(w.x, w.y)
        name = f"{getattr(root, 'name', '')}: {type(w).__name__} {getattr(w, 'text', '')!r}"
        if w.height < min_px - 0.5 or w.width < min_px - 0.5:
            found.append(f"{name} is {w.width:.0f}x{w.height:.0f} at {size}")
        if x < -0.5 or y < -0.5 or x + w.width > size[0] + 0.5 or y + w.height > size[1] + 0.5:
            found.append(f"{name} at {x:.0f},{y:.0f} size {w.width:.0f}x{w.height:.0f} "
                         f"leaves the {size[0]}x{size[1]} window")
    return found


def _visible(root: Any) -> Iterator[tuple[Any, tuple[float, float, float, float] | None]]:
    """Every shown widget under ``root`` with the window rectangle it may draw in (clipped to
    the scroll views it sits in; None when scrolled out of sight)."""
    from kivy.uix.scrollview import ScrollView

    todo: list[tuple[Any, tuple[float, float, float, float] | None]] = [(root, None)]
    while todo:
        w, clip = todo.pop()
        if w.opacity == 0 or w.width < 1 or w.height < 1:
            continue  # hidden, and so is everything inside it
        x, y = w.to_window(w.x, w.y)
        rect = (x, y, x + w.width, y + w.height)
        shown = rect if clip is None else (max(rect[0], clip[0]), max(rect[1], clip[1]),
                                           min(rect[2], clip[2]), min(rect[3], clip[3]))
        if shown[2] - shown[0] < 1 or shown[3] - shown[1] < 1:
            continue  # scrolled out of sight
        yield w, shown
        inner = shown if isinstance(w, ScrollView) else clip
        todo.extend((c, inner) for c in w.children)


def cut_text(label: Any) -> str | None:
    """How a label's text does not fit its box (elided, wrapped past its height, or wider than
    it), or None when it fits. A label marked ``cut_by_design`` is never reported."""
    from companion.widgets import text_overflow

    text = getattr(label, "text", "")
    if not text or not text.strip() or getattr(label, "cut_by_design", False):
        return None
    return text_overflow(label)


def cut_input(field: Any) -> str | None:
    """How a one-line text field's text does not show whole in it, or None."""
    from kivy.core.text import Label as CoreLabel

    if not field.text or field.multiline:
        return None
    core = CoreLabel(text=field.text, font_size=field.font_size, font_name=field.font_name)
    core.refresh()
    room = field.width - field.padding[0] - field.padding[2]
    if core.texture is not None and core.texture.size[0] > room + 0.5:
        return f"needs {core.texture.size[0]} px wide, has {room:.0f}"
    return None


def layout_problems(root: Any, size: tuple[int, int], min_px: float = 48.0) -> list[str]:
    """What a player would see wrong under ``root`` in a ``size`` window: touch targets too
    small or outside the window (:func:`touch_problems`), any text that is cut, and any two
    texts or controls that overlap."""
    from kivy.uix.button import Button
    from kivy.uix.image import Image
    from kivy.uix.label import Label
    from kivy.uix.textinput import TextInput

    found = touch_problems(root, size, min_px)
    where = getattr(root, "name", type(root).__name__)
    leaves: list[tuple[Any, tuple[float, float, float, float]]] = []
    for w, shown in _visible(root):
        if shown is None:
            continue
        why = cut_text(w) if isinstance(w, Label) else \
            cut_input(w) if isinstance(w, TextInput) else None
        if why:
            found.append(f"{where}: {type(w).__name__} {w.text!r} is cut ({why}) at {size}")
        if isinstance(w, Label | TextInput | Image) and (not isinstance(w, Label) or
                                                          isinstance(w, Button) or
                                                          w.text.strip()):
            leaves.append((w, shown))
    for i, (a, ra) in enumerate(leaves):
        for b, rb in leaves[i + 1:]:
            dx = min(ra[2], rb[2]) - max(ra[0], rb[0])
            dy = min(ra[3], rb[3]) - max(ra[1], rb[1])
            if dx <= 1 or dy <= 1 or _related(a, b):
                continue
            found.append(f"{where}: {type(a).__name__} {getattr(a, 'text', '')!r} and "
                         f"{type(b).__name__} {getattr(b, 'text', '')!r} overlap by "
                         f"{dx:.0f}x{dy:.0f} at {size}")
    return found


def _related(a: Any, b: Any) -> bool:
    """One widget holds the other (a picture inside a button is not an overlap)."""
    for x, y in ((a, b), (b, a)):
        p = y.parent
        while p is not None:
            if p is x:
                return True
            if p.parent is p:  # Kivy's Window is its own parent: the top
                break
            p = p.parent
    return False
