"""The History screen's rows and panes, and the small words they show.

- :class:`Row`: a row of the lists (a game, a player, a group of dice), tapped to open it;
  :func:`fill_rows` shows a list of them, using the rows already made again;
- :class:`ClipScroll`: Kivy's ScrollView clipped by the scissor; :func:`scrolling` and
  :func:`text_pane` make the screen's scrolling panes with it;
- :func:`counted`, :func:`esc`, :func:`whole`: "3 games", names kept from starting markup,
  words kept on one line.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.graphics import Color, Rectangle
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.scrollview import ScrollView

from companion import theme
from companion.contract import AppHost
from companion.widgets import w


class Row(ButtonBehavior, BoxLayout):
    """A row of the lists: a title line (with a right-hand note) and a muted second line that
    wraps onto more lines when it must (six long names at the largest text); a tap anywhere on
    it does ``on_tap``. At least one touch target tall. A row is used again for the next page
    or the next statistics (:meth:`update`): only the texts that change are laid out again."""

    def __init__(self, app: AppHost, title: str, note: str, second: str,
                 on_tap: Callable[[], None], *, chosen: bool = False) -> None:
        big, small = app.fs(18), app.fs(15)
        self.line_height = 1.3 * big
        self.small = small
        super().__init__(orientation="vertical", padding=(10, 4), spacing=0, size_hint_y=None,
                         height=max(theme.TOUCH + 8, 1.3 * (big + small) + 10))
        self.title_label = w("TLabel", text=title, markup=True, halign="left", font_size=big)
        # as wide as its words: the title gives way (it is cut short), the note never
        self.note_label = Label(text=note, markup=True, font_size=small, size_hint_x=None)
        self.note_label.bind(texture_size=lambda lab, v: setattr(lab, "width", v[0] + 4))
        self.line = BoxLayout(spacing=8, size_hint_y=None, height=self.line_height)
        self.line.add_widget(self.title_label)
        self.add_widget(self.line)
        # a plain Label (TLabel's rule keeps its text to one line, shortened)
        self.second_label = Label(text=second, markup=True, halign="left", valign="top",
                                  font_size=small, size_hint_y=None, height=1.3 * small)
        self.second_label.bind(
            width=lambda lab, v: setattr(lab, "text_size", (v, None)),
            texture_size=lambda lab, v: setattr(lab, "height", max(v[1], 1.3 * small)))
        self.second_label.bind(height=self._grow)
        self.add_widget(self.second_label)
        with self.canvas.before:
            self.paint = Color(*theme.PANEL)
            self.back = Rectangle(pos=self.pos, size=self.size)
        self.bind(pos=self._place, size=self._place, state=self._pressed)
        self.on_tap = on_tap
        self.bind(on_release=lambda *_: self.on_tap())
        self.update(title, note, second, on_tap, chosen=chosen)

    def update(self, title: str, note: str, second: str, on_tap: Callable[[], None], *,
               chosen: bool = False) -> None:
        """Show another game, player or group of dice in this row."""
        self.title_label.text = title
        self.note_label.text = note
        self.second_label.text = second
        shows_note = self.note_label.parent is not None
        if note and not shows_note:
            self.line.add_widget(self.note_label)
        elif not note and shows_note:
            self.line.remove_widget(self.note_label)
        muted = theme.TEXT if chosen else theme.MUTED
        self.note_label.color = self.second_label.color = muted
        self.base = theme.SELECT if chosen else theme.PANEL
        self.paint.rgba = self.base
        self.on_tap = on_tap

    def _grow(self, _label: Any, height: float) -> None:
        self.height = max(theme.TOUCH + 8, self.line_height + height + 10)

    def _place(self, *_: Any) -> None:
        self.back.pos, self.back.size = self.pos, self.size

    def _pressed(self, _row: Any, value: str) -> None:
        self.paint.rgba = theme.BUTTON if value == "down" else self.base


RowText = tuple[str, str, str, Callable[[], None], bool]  # title, note, second, on_tap, chosen


def fill_rows(app: AppHost, grid: Any, rows: list[RowText]) -> None:
    """Show ``rows`` in ``grid``, top to bottom, using its :class:`Row` widgets again (their
    texts changed in place; rows not needed now are kept aside for later) and making only
    the ones missing."""
    spare: list[Row] = grid.__dict__.setdefault("spare_rows", [])
    have = [c for c in reversed(grid.children) if isinstance(c, Row)]
    for c in list(grid.children):
        if not isinstance(c, Row):
            grid.remove_widget(c)
    for row in have[len(rows):]:
        grid.remove_widget(row)
        spare.append(row)
    for i, (title, note, second, on_tap, chosen) in enumerate(rows):
        if i < len(have):
            have[i].update(title, note, second, on_tap, chosen=chosen)
        elif spare:
            row = spare.pop()
            row.update(title, note, second, on_tap, chosen=chosen)
            grid.add_widget(row)
        else:
            grid.add_widget(Row(app, title, note, second, on_tap, chosen=chosen))


class ClipScroll(ScrollView):
    """Kivy's ScrollView, its content clipped by the GL scissor instead of the stencil buffer
    (the same scrolling, touch and bars). A rectangle needs no stencil, and the stencil is
    dear on a software rasteriser: on this machine's Mesa llvmpipe its first use costs ~70 MB
    of memory, a scissor ~3 MB (measured: docs/history.md). When Kivy's canvas for the
    ScrollView is not the one expected, the stencil stays."""

    def __init__(self, **kwargs: Any) -> None:
        from kivy.graphics.scissor_instructions import ScissorPop, ScissorPush

        super().__init__(**kwargs)
        # One bar colour, never faded: a fade redraws the whole window ~30 times, and on the
        # software GL here that grew the memory by ~60 MB the first time (measured).
        self.bar_color = self.bar_inactive_color = [*theme.MUTED[:3], 0.8]
        before, after = self.canvas.before, self.canvas.after
        stencil_in = ["StencilPush", "BindTexture", "Rectangle", "StencilUse"]
        stencil_out = ["StencilUnUse", "BindTexture", "Rectangle", "StencilPop"]
        self.clipped = ([type(c).__name__ for c in before.children] == stencil_in
                        and [type(c).__name__ for c in after.children[:4]] == stencil_out)
        if not self.clipped:
            return
        before.clear()
        for instruction in list(after.children[:4]):
            if type(instruction).__name__ != "BindTexture":  # goes with its Rectangle
                after.remove(instruction)
        self._scissor = ScissorPush(x=0, y=0, width=1, height=1)
        before.add(self._scissor)
        after.insert(0, ScissorPop())
        self.bind(pos=self._clip, size=self._clip)

    def _clip(self, *_: Any) -> None:
        x, y = self.to_window(self.x, self.y)
        self._scissor.x, self._scissor.y = int(x), int(y)
        self._scissor.width, self._scissor.height = int(self.width), int(self.height)


def scrolling(inner: Any) -> ScrollView:
    inner.size_hint_y = None
    inner.bind(minimum_height=inner.setter("height"))
    view = ClipScroll(do_scroll_x=False, bar_width=8, scroll_type=["bars", "content"])
    view.add_widget(inner)
    return view


def text_pane(app: AppHost) -> tuple[ScrollView, Label]:
    """A scrolling pane of wrapped text."""
    label = Label(text="", markup=True, halign="left", valign="top", font_size=app.fs(16),
                  color=theme.TEXT, size_hint_y=None, padding=(8, 6))
    label.bind(width=lambda lab, v: setattr(lab, "text_size", (v, None)),
               texture_size=lambda lab, v: setattr(lab, "height", v[1]))
    view = ClipScroll(do_scroll_x=False, bar_width=8)
    view.add_widget(label)
    return view, label


def counted(n: int, what: str) -> str:
    """``"1 game"``, ``"3 games"``."""
    return f"{n:,} {what}{'' if n == 1 else 's'}"


def esc(text: str) -> str:
    """Text shown with markup on: names cannot start markup."""
    return text.replace("&", "&amp;").replace("[", "&bl;").replace("]", "&br;")


def whole(text: str) -> str:
    """Words kept on one line when a row's text wraps (no-break spaces)."""
    return text.replace(" ", "\u00a0")
