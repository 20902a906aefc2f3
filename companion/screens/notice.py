"""The start-up notice: what went wrong as the app started (a damaged file, a game that cannot
be resumed), said whole over the start screen, once.

Import this module only after Kivy's environment is set (see ``companion.commands.start``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from kivy.uix.label import Label
from kivy.uix.modalview import ModalView
from kivy.uix.scrollview import ScrollView

from companion import theme
from companion.contract import Fonts
from companion.widgets import w

#: The start screen's line while the start-up notice is news.
STARTED_WITH_A_PROBLEM = "Started with a problem: see the notice"


def notice_view(host: Fonts, notices: Sequence[str],
                closed: Callable[[], object]) -> tuple[ModalView, Label]:
    """A dismissable view of ``notices`` (not opened yet) and the label that says them; OK
    closes it, then calls ``closed``."""
    view = ModalView(size_hint=(0.9, 0.8), auto_dismiss=True)
    box = w("Panel", orientation="vertical", padding=10, spacing=8, bg=theme.PANEL)
    box.add_widget(w("THeading", text="Before you play", size_hint_y=None, height=40))
    # wrapped in full, never cut: a long notice scrolls
    text = Label(text="\n\n".join(notices), halign="left", valign="top",
                 font_size=host.fs(16), color=theme.TEXT, size_hint_y=None)
    text.bind(width=lambda wid, v: setattr(wid, "text_size", (v - 30, None)),
              texture_size=lambda wid, v: setattr(wid, "height", v[1]))
    scroll = ScrollView(do_scroll_x=False, bar_width=8)
    scroll.add_widget(text)
    box.add_widget(scroll)

    def close(*_: Any) -> None:
        view.dismiss(animation=False)
        closed()

    box.add_widget(w("TButton", text="OK", size_hint_y=None, height=56, on_release=close))
    view.add_widget(box)
    return view, text


__all__ = ["STARTED_WITH_A_PROBLEM", "notice_view"]
