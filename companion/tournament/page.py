"""A page of the Tournament screen (Kivy): what every page has, and what it may ask of the
screen it is shown on (:class:`PageHost`); small widget helpers the pages share.

Import this module only after Kivy's environment is set (see ``companion.commands.start``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.scrollview import ScrollView
from kivy.uix.widget import Widget

from companion import theme
from companion.contract import AppHost
from companion.tournament.hub import TournamentHub
from companion.tournament.protocol import ALPHABET
from rules.core import Placings

#: The keys of the join code keypad: the code's letters and digits, and its punctuation.
KEYS = (*ALPHABET, "-", ".", "@", ":")
ROW = 52  # a row of buttons
ORDINALS = ("1st", "2nd", "3rd", "4th", "5th", "6th", "7th", "8th")


def para(app: AppHost, text: str = "", size: float = 18, color: Any = theme.TEXT,
         halign: str = "left", **kwargs: Any) -> Label:
    """A label that wraps its text and grows to fit it (nothing is cut)."""
    label = Label(text=text, font_size=app.fs(size), color=color, halign=halign,
                  valign="top", size_hint_y=None, markup=True, **kwargs)
    label.bind(width=lambda wid, v: setattr(wid, "text_size", (v, None)),
               texture_size=lambda wid, v: setattr(wid, "height", v[1]))
    return label


def column(spacing: float = 6) -> BoxLayout:
    """A vertical box as tall as what it holds (to go in a ScrollView)."""
    box = BoxLayout(orientation="vertical", spacing=spacing, size_hint_y=None)
    box.bind(minimum_height=box.setter("height"))
    return box


def scroller(content: Widget) -> ScrollView:
    scroll = ScrollView(do_scroll_x=False, bar_width=10, scroll_type=["bars", "content"])
    scroll.add_widget(content)
    return scroll


def placings_of(places: Sequence[tuple[str, int]]) -> Placings:
    """Placings from (name, place index) pairs: the same place is a tie."""
    by_place: dict[int, list[str]] = {}
    for name, place in places:
        by_place.setdefault(place, []).append(name)
    return tuple(tuple(by_place[p]) for p in sorted(by_place))


def place_index(placings: Placings) -> dict[str, int]:
    """Each name's place (0 for first; tied names share the higher place)."""
    out: dict[str, int] = {}
    done = 0
    for group in placings:
        for name in group:
            out[name] = done
        done += len(group)
    return out


class PageHost(Protocol):
    """What a page may ask of the screen it is shown on (the Tournament screen)."""

    app: AppHost
    hub: TournamentHub
    pages: dict[str, Page]
    #: the result dialog open over the Round page, if one is (its own type is the Round
    #: page's; a page only sets and compares it)
    dialog: Any

    def show_page(self, name: str) -> None: ...

    def flash(self, text: str) -> None: ...


class Page:
    """One page of the Tournament screen: its widgets (``root``) and how it redraws."""

    title = ""

    def __init__(self, screen: PageHost) -> None:
        self.screen = screen
        self.app = screen.app
        self.hub = screen.hub
        self.root: Widget = BoxLayout(orientation="vertical", spacing=6)

    def refresh(self) -> None:
        """Redraw from the hub (main thread)."""

    def leave(self) -> None:
        """The page is no longer shown."""

    def say(self, label: Label, text: str, ok: bool = False) -> None:
        label.text = text
        label.color = theme.ACCENT if ok else theme.DANGER


# -- pages that choose ----------------------------------------------------------------------
