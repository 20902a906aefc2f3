"""Widgets and helpers every screen shares (Kivy): the styled classes of app.kv, a flat panel,
a progress bar, putting a camera picture on an Image, the clock's text.

Import this module only after Kivy's environment is set (see ``companion.commands.start``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Literal, get_args, overload

from kivy.clock import Clock
from kivy.core.text import Label as CoreLabel
from kivy.core.text.markup import MarkupLabel
from kivy.factory import Factory
from kivy.graphics.texture import Texture
from kivy.lang import Builder
from kivy.properties import ListProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.image import Image
from kivy.uix.label import Label
from kivy.uix.spinner import Spinner, SpinnerOption
from kivy.uix.textinput import TextInput
from kivy.uix.widget import Widget

from companion import theme
from companion.words import fmt_clock, fmt_clock_at

KV = Path(__file__).with_name("app.kv")


def load_kv() -> None:
    """The styled widget classes (TLabel, TButton, ...) of app.kv, loaded once."""
    if KV.name not in str(Builder.files):
        Builder.load_file(str(KV))


#: The styled classes of app.kv, each by the Python class it is built on (mypy sees that
#: class where a screen makes one with :func:`w`).
LabelKind = Literal["TLabel", "THeading", "FitLabel"]
ButtonKind = Literal["TButton", "TBigButton", "FitButton"]
#: Each name :func:`w` makes -> the Python class its widget is
#: (tests/companion/test_widgets_typed.py holds these to app.kv's rules and to the overloads
#: below).
KINDS: dict[str, type[Widget]] = {}


@overload
def w(kind: LabelKind, **kwargs: Any) -> FitLabel: ...
@overload
def w(kind: ButtonKind, **kwargs: Any) -> FitButton: ...
@overload
def w(kind: Literal["TSpinner"], **kwargs: Any) -> FitSpinner: ...
@overload
def w(kind: Literal["TInput"], **kwargs: Any) -> TypingInput: ...
@overload
def w(kind: Literal["Panel"], **kwargs: Any) -> Panel: ...
@overload
def w(kind: Literal["Bar"], **kwargs: Any) -> Bar: ...
def w(kind: str, **kwargs: Any) -> Widget:
    """A widget of one of the styled classes in app.kv ("TButton", "TLabel", "Panel"...), typed
    as the Python class it is built on; a name that is none of them is a type error."""
    made: Widget = Factory.get(kind)(**kwargs)
    return made


#: How far a text may shrink to fit its box before it is shortened: never below this share of
#: the size asked for (at the largest text size that is still about the normal size).
MIN_FIT = 0.7


def natural_size(label: Any, font_size: float, wrap: float | None,
                 text: str | None = None) -> tuple[float, float]:
    """The size a label's text (or ``text`` in its place) takes uncut at ``font_size``
    (wrapped at ``wrap`` px)."""
    kw = {k: getattr(label, k) for k in label._font_properties}
    kw.update(shorten=False, max_lines=0, text_size=(wrap, None), font_size=font_size)
    if text is not None:
        kw["text"] = text
    core = (MarkupLabel if label.markup else CoreLabel)(**kw)
    core.refresh()
    texture = core.texture
    return (float(texture.size[0]), float(texture.size[1])) if texture is not None else (0, 0)


def text_room(label: Any) -> tuple[float, float | None, float | None]:
    """The room a label gives its text: (width, width it wraps at or None, height or None when
    its height follows its text). A shortened label keeps Kivy's own margin (its padding and
    2 px more: ``kivy.core.text.LabelBase.shorten``), so a text that fits here is never cut."""
    tw, th = label.text_size
    pad = label.padding
    left, right = (pad[0], pad[2]) if len(pad) == 4 else (pad[0], pad[0])
    if label.shorten and tw is not None:
        width = float(int(tw - left - right - 2))
    else:
        width = float(tw if tw is not None else label.width)
    wrap = None if (label.shorten or tw is None) else float(tw)
    auto_h = th is None and abs(label.height - label.texture_size[1]) < 1
    return width, wrap, None if auto_h else float(label.height)


def text_overflow(label: Any, font_size: float | None = None) -> str | None:
    """How a label's text would not fit its room at ``font_size`` (its own by default), or
    None when it fits whole."""
    width, wrap, height = text_room(label)
    nw, nh = natural_size(label, label.font_size if font_size is None else font_size, wrap)
    if nw > width + 0.5:
        return f"needs {nw:.0f} px wide, has {width:.0f}"
    if height is not None and nh > height + 1:
        return f"needs {nh:.0f} px high, has {height:.0f}"
    return None


def headline(text: str) -> str:
    """A message's headline: what it says before its first ": " or ". ", or "" when it says
    no more than that.

    >>> headline("Players 1 and 4 are both called Ana: give each a different name.")
    'Players 1 and 4 are both called Ana'
    >>> headline("With 6 players, Alliances is two teams. Now Team 1: Ana, Ben.")
    'With 6 players, Alliances is two teams'
    >>> headline("Game dropped.")
    ''
    """
    cut = min((i for i in (text.find(": "), text.find(". ")) if i > 0), default=-1)
    return text[:cut] if cut > 0 else ""


def whole_size(label: Any, wanted: float, room: tuple[float, float]) -> float | None:
    """The largest font size, from ``wanted`` down to :data:`MIN_FIT` of it, at which all of a
    label's text, wrapped at the room's width, shows in its height; None when none does."""
    width, height = room
    size = wanted
    while True:
        if natural_size(label, size, width)[1] <= height:
            return size
        if size <= wanted * MIN_FIT:
            return None
        size = max(wanted * MIN_FIT, size * 0.94)


def fit_whole(label: Any, short: Any, box: Any, wanted: float,
              shorter: Callable[[str], Sequence[str]]) -> None:
    """Keep a message whole in ``box`` (a vertical box it sits at the top of): ``label`` (a
    wrapped label whose height follows its text) shows it at the largest size from ``wanted``
    down to :data:`MIN_FIT` of it at which all its lines fit; a message that fits not even then
    is not cut: ``short`` (a label like it) shows instead the first of ``shorter(text)`` that
    fits whole (the message is said in full elsewhere: a dialog), and ``label`` keeps the
    message's whole text, out of the box. ``box``'s content is theirs."""

    below = Widget()  # the room under the message

    def show(shown: Any, size: float) -> None:
        shown.font_size = size
        if shown.parent is not box:  # only the one shown takes room in the box
            box.clear_widgets()
            box.add_widget(shown)
            box.add_widget(below)

    def fit() -> None:
        room = (max(1.0, box.width), box.height)
        if not label.text or box.width < 2 or box.height < 2:
            show(label, wanted)
            return
        size = whole_size(label, wanted, room)
        if size is not None:
            show(label, size)
            return
        for words in shorter(label.text):
            short.text = words
            size = whole_size(short, wanted, room)
            if size is not None:
                show(short, size)
                return
        show(short, wanted * MIN_FIT)  # not even that fits: the layout checks say so

    refit = Clock.create_trigger(lambda dt: fit(), -1)
    label.fbind("text", lambda *_: refit())
    label.fbind("color", lambda *_: setattr(short, "color", label.color))
    box.fbind("size", lambda *_: refit())
    refit()


class FitText:
    """A text that shrinks to fit its box (to :data:`MIN_FIT` of its size at most) before it
    is shortened: names, counts and action words stay whole where the room is tight.

    ``font_size`` as set (by app.kv or a screen) is the size wanted; the fitted size is what
    is drawn. A label whose height follows its text is fitted in width only. ``min_fit`` is
    the share it may shrink to (:data:`MIN_FIT`; a name that must stay whole may go further).
    """

    fit_font = True
    min_fit = MIN_FIT

    def _fit_init(self) -> None:
        self._wanted = float(self.font_size)  # type: ignore[attr-defined]
        self._fitting = False
        self._refit = Clock.create_trigger(lambda dt: self._fit(), -1)
        self.fbind("font_size", self._font_set)  # type: ignore[attr-defined]
        for name in ("text", "size", "text_size", "bold", "markup", "font_name"):
            self.fbind(name, lambda *_: self._refit())  # type: ignore[attr-defined]

    def _font_set(self, _w: Any, value: float) -> None:
        if not self._fitting:
            self._wanted = float(value)
            self._refit()

    def _fit(self) -> None:
        label: Any = self
        if not label.text or label.width < 2 or not self.fit_font:
            self._apply(self._wanted)
            return
        width, wrap, height = text_room(label)
        size = self._wanted
        least = self._wanted * self.min_fit
        # a wrapped text breaks a word wider than its room in the middle ("Bartholome / w
        # Kemp"): its longest word must fit the width as well
        # (measured once, at the size wanted: a word's width follows its size)
        text = re.sub(r"\[/?[a-z]+(=[^\]]*)?\]", "", label.text) if label.markup else label.text
        words = text.split() if wrap else []
        longest = max(words, key=len) if words else ""
        per_size = natural_size(label, size, None, longest)[0] / size if longest else 0.0
        for _ in range(4):
            nw, nh = natural_size(label, size, wrap)
            scale = min(1.0, width / nw) if nw > 0 else 1.0
            if per_size > 0 and wrap:
                scale = min(scale, wrap / (per_size * size))
            if height is not None and nh > height:
                scale = min(scale, height / nh)
            if scale >= 1.0 or size <= least:
                break
            size = max(least, size * scale * 0.98)
        self._apply(size)

    def _apply(self, size: float) -> None:
        label: Any = self
        if abs(label.font_size - size) > 0.01:
            self._fitting = True
            try:
                label.font_size = size
            finally:
                self._fitting = False


class FitLabel(FitText, Label):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._fit_init()


class FitButton(FitText, Button):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._fit_init()


class FitOption(FitText, SpinnerOption):
    """A drop-down's choice that fits its width: it wraps within the list's width and shrinks
    to fit (never cut on both sides, as a plain centred choice is at large text)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._fit_init()


class FitSpinner(FitText, Spinner):
    """A drop-down list whose list (Kivy's DropDown, a scrolling view) and option buttons are
    made when it first opens, and its options again only when it opens after ``values``
    changed: Kivy's own Spinner makes them with the spinner and at each change of its values,
    and a screen of ten spinners took most of its building time making lists nobody opened
    (the Settings screen, the start screen's options: benchmarks/screens.py). With
    ``lazy_options`` off, the options are made at once, as Kivy does."""

    lazy_options = True

    def __init__(self, **kwargs: Any) -> None:
        self._options_stale = False
        self._list_stale = False
        super().__init__(**kwargs)
        self._fit_init()

    def _build_dropdown(self, *largs: Any) -> None:
        if self.lazy_options and not self.is_open:
            self._list_stale = True  # made when it opens
            return
        self._list_stale = False
        super()._build_dropdown(*largs)

    def _update_dropdown(self, *largs: Any) -> None:
        if self._dropdown is None or (self.lazy_options and not self.is_open):
            self._options_stale = True
            return
        self._options_stale = False
        super()._update_dropdown(*largs)

    def on_is_open(self, instance: Any, value: bool) -> None:
        if value:
            if self._list_stale or self._dropdown is None:
                self._build_dropdown()  # its options with it
            elif self._options_stale:
                self._update_dropdown()
        elif self._dropdown is None:
            return
        super().on_is_open(instance, value)


#: The on-screen keyboard for players' names: letters, digits, spaces, ' - and . only (what
#: rules.core.check_player_name takes), no Tab and no layout switch.
NAME_KEYS = str(Path(__file__).with_name("keyboard_names.json"))


class TypingInput(TextInput):
    """A text field that stays in sight while the on-screen keyboard is up: when the docked
    keyboard would cover it, the screen's content moves up just enough (touches follow, as the
    widgets themselves move), and back down when typing ends.

    ``keys``: the on-screen keyboard's layout while this field is typed in (a Kivy layout json,
    e.g. :data:`NAME_KEYS`; "" for Kivy's configured one). ``max_chars``: typing stops there
    (0: no limit). Enter goes on to ``focus_next`` where it is set to a field (the keyboard
    stays up), else it ends typing."""

    keys = StringProperty("")
    max_chars = NumericProperty(0)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        me: Any = self
        self._wanted = float(me.font_size)
        self._fitting = False
        self._refit = Clock.create_trigger(lambda dt: self._fit(), -1)
        self.fbind("font_size", self._font_set)
        self.fbind("text", lambda *_: self._refit())
        self.fbind("size", lambda *_: self._refit())

    def _font_set(self, _w: Any, value: float) -> None:
        if not self._fitting:
            self._wanted = float(value)
            self._refit()

    def _fit(self) -> None:
        """A long name shrinks (to MIN_FIT of the size asked for) to show whole."""
        size = self._wanted
        room = self.width - self.padding[0] - self.padding[2]
        for _ in range(4):  # glyphs do not scale exactly with the size: measure again
            if not self.text or self.multiline or room <= 0 or size <= self._wanted * MIN_FIT:
                break
            core = CoreLabel(text=self.text, font_size=size, font_name=self.font_name)
            core.refresh()
            wide = core.texture.size[0] if core.texture is not None else 0
            if wide <= room:
                break
            size = max(self._wanted * MIN_FIT, size * room / wide * 0.98)
        me: Any = self
        if abs(me.font_size - size) > 0.01:
            self._fitting = True
            try:
                me.font_size = size
            finally:
                self._fitting = False

    def insert_text(self, substring: str, from_undo: bool = False) -> Any:
        if self.max_chars and not from_undo:
            substring = substring[:max(0, int(self.max_chars) - len(self.text))]
        return super().insert_text(substring, from_undo=from_undo)

    def on_text_validate(self) -> None:
        """Enter: on to the next field where one is set (it takes the keyboard)."""
        nxt: Any = self.focus_next
        if isinstance(nxt, Widget) and not nxt.disabled:
            nxt.focus = True

    def on_focus(self, _w: Any, focused: bool) -> None:
        Clock.schedule_once(lambda dt: self._lift(focused), 0)

    def _use_keys(self) -> None:
        """Show this field's keys on the on-screen keyboard (when there is one)."""
        from kivy.config import Config

        keyboard = getattr(getattr(self, "_keyboard", None), "widget", None)
        if keyboard is None:
            return
        layout = self.keys or Config.get("kivy", "keyboard_layout")
        if keyboard.layout != layout:
            keyboard.have_special = False
            keyboard.layout = layout
        if not getattr(keyboard, "_accents_bound", False):
            keyboard._accents_bound = True
            keyboard.fbind("on_key_up", _toggle_accents)

    def _content(self) -> Any:
        """The screen's content: the child of the Screen this field is on."""
        from kivy.uix.screenmanager import Screen

        w: Any = self
        while w.parent is not None and not isinstance(w.parent, Screen):
            w = w.parent
        return w if w.parent is not None else None

    def _lift(self, focused: bool) -> None:
        from kivy.core.window import Window
        from kivy.uix.vkeyboard import VKeyboard

        if focused and self.focus:
            self._use_keys()
        content = self._content()
        if content is None:
            return
        if not focused:
            if not any(getattr(c, "focus", False) for c in content.walk()):
                content.y = 0
            return
        keyboard = next((c for c in Window.children if isinstance(c, VKeyboard)), None)
        if keyboard is None or not Window.docked_vkeyboard:
            return
        top = keyboard.bbox[0][1] + keyboard.bbox[1][1]
        bottom = self.to_window(self.x, self.y)[1] - content.y
        content.y = max(0.0, top + 6 - bottom)


def _toggle_accents(keyboard: Any, keycode: Any, *_: Any) -> None:
    """The "accents" key of a layout (NAME_KEYS) switches its accented letters on and off:
    tapped once, they stay (Kivy's own "special" key shows them only while it is held, which
    one finger cannot do while it taps a letter)."""
    if keycode == "accents":
        keyboard.have_special = not keyboard.have_special


Factory.register("FitLabel", cls=FitLabel)
Factory.register("FitButton", cls=FitButton)
Factory.register("FitSpinner", cls=FitSpinner)
Factory.register("FitOption", cls=FitOption)
Factory.register("TypingInput", cls=TypingInput)


def cut_by_design(widget: Any) -> Any:
    """Mark a text that may be cut on purpose (a log showing its newest lines, the rest below
    the fold): the layout checks leave it out. Returns the widget."""
    widget.cut_by_design = True
    return widget


class Panel(BoxLayout):
    """A box with a flat background colour (drawn by its rule in app.kv)."""

    bg = ListProperty(list(theme.PANEL))


class Bar(Widget):
    """A flat progress bar, 0..1 (drawn by its rule in app.kv)."""

    value = NumericProperty(0.0)
    fill = ListProperty(list(theme.ACCENT))


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


KINDS.update({**dict.fromkeys(get_args(LabelKind), FitLabel),
              **dict.fromkeys(get_args(ButtonKind), FitButton),
              "TSpinner": FitSpinner, "TInput": TypingInput, "Panel": Panel, "Bar": Bar})


__all__ = ["Bar", "Panel", "fmt_clock", "fmt_clock_at", "load_kv", "show_picture", "w"]
