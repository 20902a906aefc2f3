"""Widgets and helpers every screen shares (Kivy): the styled classes of app.kv, a flat panel,
a progress bar, putting a camera picture on an Image, the clock's text.

Import this module only after Kivy's environment is set (see ``companion.commands.start``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kivy.factory import Factory
from kivy.graphics.texture import Texture
from kivy.lang import Builder
from kivy.properties import ListProperty, NumericProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.image import Image
from kivy.uix.widget import Widget

from companion import theme

KV = Path(__file__).with_name("app.kv")


def load_kv() -> None:
    """The styled widget classes (TLabel, TButton, ...) of app.kv, loaded once."""
    if KV.name not in str(Builder.files):
        Builder.load_file(str(KV))


def w(kind: str, **kwargs: Any) -> Any:
    """A widget of one of the styled classes in app.kv ("TButton", "TLabel", "Panel"...)."""
    return Factory.get(kind)(**kwargs)


class Panel(BoxLayout):
    """A box with a flat background colour (drawn by its rule in app.kv)."""

    bg = ListProperty(list(theme.PANEL))


class Bar(Widget):
    """A flat progress bar, 0..1 (drawn by its rule in app.kv)."""

    value = NumericProperty(0.0)
    fill = ListProperty(list(theme.ACCENT))


def fmt_clock(seconds: float) -> str:
    """Seconds left as the clock shows them: m:ss, rounded up."""
    s = max(0, int(seconds + 0.999))
    return f"{s // 60}:{s % 60:02d}"


def fmt_clock_at(at: float | None) -> str:
    """A call's time in the log: m:ss into the round."""
    if at is None:
        return ""
    s = int(at)
    return f"{s // 60}:{s % 60:02d}"


def show_picture(image: Image, rgb: Any) -> None:
    """Put an RGB frame (H, W, 3 uint8) on an Image widget, reusing its texture."""
    h, w_ = rgb.shape[:2]
    texture = image.texture
    if texture is None or tuple(texture.size) != (w_, h):
        texture = Texture.create(size=(w_, h), colorfmt="rgb")
        texture.flip_vertical()
    # the array's own memory, not a bytes copy of each frame (a C-contiguous array's
    # memoryview needs no copy; any other array is copied once here)
    view = memoryview(rgb if rgb.flags.c_contiguous else rgb.copy()).cast("B")
    texture.blit_buffer(view, colorfmt="rgb", bufferfmt="ubyte")
    image.texture = texture
    image.opacity = 1
    image.canvas.ask_update()


__all__ = ["Bar", "Panel", "fmt_clock", "fmt_clock_at", "load_kv", "show_picture", "w"]
