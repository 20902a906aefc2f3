"""How the Occulites table looks (Kivy): the dice colours, the panel's main action, a framed
widget, the panel's grids and stacks. The screen (screen.py) uses them to draw its model."""

from __future__ import annotations

from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout

from companion import theme
from companion.widgets import w as _w

#: How each dice colour is drawn (the colour's name is always written on it too, so colour is
#: never the only cue).
DIE_RGBA: dict[str, theme.RGBA] = {
    "green": (0.10, 0.55, 0.25, 1), "blue": (0.10, 0.35, 0.85, 1),
    "pink": (0.96, 0.58, 0.78, 1), "black": (0.0, 0.0, 0.0, 1),
    "yellow": (0.95, 0.85, 0.20, 1), "red": (0.80, 0.12, 0.12, 1),
    "purple": (0.50, 0.25, 0.70, 1), "orange": (0.95, 0.55, 0.10, 1),
    "white": (0.95, 0.95, 0.95, 1),
}
EMPTY = theme.BUTTON
#: A player's header when it is their turn (or their card): white, which is no seat colour of
#: any palette, so it never reads as "that player" (the header also says why it is lit).
LIT_HEADER: theme.RGBA = theme.TEXT
#: A player's header: room for a 16-character name at the smallest fitted size.
HEADER_W = 150
#: The right-hand panel's share of the window's width, and its least width.
SIDE_SHARE = 0.315
SIDE_MIN = 252
CARDS = 6
ROW = theme.TOUCH  # every button row of the panel
GAP = 4


def die_colour(colour: str | None) -> theme.RGBA:
    return DIE_RGBA.get(colour or "", EMPTY)


def primary(button: Any, legal: bool) -> None:
    """A panel's main action: the accent colour only while it can be taken."""
    button.disabled = not legal
    button.background_color = theme.ACCENT if legal else theme.BUTTON
    button.color = (0, 0, 0, 1) if legal else theme.TEXT


class Outlined(BoxLayout):
    """A widget inside a coloured frame: the frame lights up to highlight it."""

    def __init__(self, child: Any, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.frame = _w("Panel", padding=3, bg=theme.BACKGROUND)
        self.frame.add_widget(child)
        self.add_widget(self.frame)
        self.child = child

    def light(self, colour: theme.RGBA | None) -> None:
        want = list(colour or theme.BACKGROUND)
        if list(self.frame.bg) != want:
            self.frame.bg = want


def grid(cols: int, rows: int) -> GridLayout:
    return GridLayout(cols=cols, spacing=GAP, size_hint_y=None, row_force_default=True,
                      row_default_height=ROW, height=rows * ROW + (rows - 1) * GAP)


def stack(*parts: Any) -> BoxLayout:
    """Rows of controls, top to bottom, as tall as they are."""
    box = BoxLayout(orientation="vertical", spacing=GAP, size_hint_y=None)
    for part in parts:
        box.add_widget(part)
    box.height = sum(p.height for p in parts) + GAP * (len(parts) - 1)
    return box


__all__ = ["CARDS", "DIE_RGBA", "EMPTY", "GAP", "HEADER_W", "LIT_HEADER", "ROW", "SIDE_MIN",
           "SIDE_SHARE", "Outlined", "die_colour", "grid", "primary", "stack"]
