"""A list in a view over the screen: its heading, its rows (they scroll when many), Close.

Import this module only after Kivy's environment is set (see ``companion.commands.start``).
"""

from __future__ import annotations

from kivy.uix.modalview import ModalView
from kivy.uix.scrollview import ScrollView
from kivy.uix.widget import Widget

from companion import theme
from companion.widgets import w


def fill_list(view: ModalView, title: str, rows: Widget) -> None:
    """Fill ``view`` (made first, so that a row's tap can close it) with ``rows`` under
    ``title``, and a Close button below them."""
    box = w("Panel", orientation="vertical", padding=8, spacing=6, bg=theme.PANEL)
    box.add_widget(w("THeading", text=title, size_hint_y=None, height=40))
    scroll = ScrollView(do_scroll_x=False, bar_width=8)
    scroll.add_widget(rows)
    box.add_widget(scroll)
    box.add_widget(w("TButton", text="Close", size_hint_y=None, height=56,
                     on_release=lambda *_: view.dismiss(animation=False)))
    view.add_widget(box)


__all__ = ["fill_list"]
