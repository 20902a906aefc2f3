"""One seat's panel of Eye for an Eye's arena (Kivy): name and player, health, team and cup,
the six actions with the icon of the dice each spends, the dice on the board (a badge), the
figures of a character with several while an attack wants its target. It draws a
:class:`~companion.games.eye_for_an_eye.model.SeatLook` and forwards taps.

An action button says the action's printed name at every size, shrunk to stay whole on one
line (:class:`ActionWords`); other words that do not fit give way to shorter ones chosen by
design (a header's "Cup 2 · 1 KO" to "Cup 2"), never to an accidental "Sp…st" (:class:`Words`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from kivy.clock import Clock
from kivy.core.text import Label as CoreLabel
from kivy.graphics.context_instructions import Color
from kivy.graphics.vertex_instructions import Line, RoundedRectangle
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label

from companion import theme
from companion.contract import Host
from companion.games.eye_for_an_eye.icons import IconPainter
from companion.games.eye_for_an_eye.look import (
    ACTION_KEYS,
    ACTION_WORDS,
    BLACK,
    DIM,
    KNOCKED,
    LIVE,
    RGBA,
    TARGET,
    action_icon,
    figure_words,
)
from companion.games.eye_for_an_eye.model import ButtonTone, HeaderTone, SeatLook
from companion.widgets import natural_size, w
from rules.eye_for_an_eye.game import SeatView

#: A word is kept on a button only if it fits at this share of the button's font size or more.
PREFER = 0.95
#: How far an action's printed name may shrink to stay whole on one line (of the size asked
#: for): "Spear Thrust" and "Unblockable" on the 85 px buttons of six players at the largest
#: text need 0.65 (the normal text size's own fitted size, 14 px); never another word.
ACTION_MIN_FIT = 0.6
#: A header's colours (background, text) by its tone; "own" is the seat's colour.
HEADER_COLOURS: dict[HeaderTone, tuple[RGBA, RGBA]] = {
    "knocked": (KNOCKED, theme.TEXT), "proposed": (TARGET, BLACK), "target": (TARGET, BLACK)}
#: An action button's colours (background, text) by its tone.
BUTTON_COLOURS: dict[ButtonTone, tuple[RGBA, RGBA]] = {
    "live": (LIVE, BLACK), "possible": (theme.BUTTON, theme.TEXT), "dim": (DIM, theme.MUTED)}


class PanelTaps(Protocol):
    """Where a panel's taps go (the arena)."""

    def tap_action(self, player: str, action: str) -> None: ...

    def tap_target(self, player: str) -> None: ...

    def tap_target_figure(self, figure: str) -> None: ...


def fits(button: Any, text: str, font_size: float, wrap: bool = True) -> bool:
    """True when ``text`` fits ``button`` uncut at ``font_size``: wrapped at its width (each
    of its lines on one line when not ``wrap``), no word wider than it, no taller than it,
    with its padding (the room an icon takes)."""
    kw = {k: getattr(button, k) for k in button._font_properties}
    room = max(1.0, button.text_size[0] or button.width - 6)
    kw.update(text=text, font_size=font_size, shorten=False, max_lines=0,
              text_size=(room if wrap else None, None))
    core = CoreLabel(**kw)
    core.refresh()
    if core.texture is None:
        return True
    tw, th = core.texture.size
    return bool(tw <= room + 1 and th <= button.height + 1)


class Words:
    """A button's text chosen among words by design: the first of ``words`` that fits (at
    :data:`PREFER` of its font size or more), else the last; ``extra`` is added to each
    ("Parry" + " 2.4s"). Chosen again when the button is resized."""

    def __init__(self, button: Any, wrap: bool = True) -> None:
        self.button = button
        self.wrap = wrap
        self.words: tuple[str, ...] = ("",)
        self.extra = ""
        self._choose = Clock.create_trigger(lambda dt: self.choose(), -1)
        button.fbind("size", lambda *_: self._choose())

    def show(self, words: Sequence[str], extra: str = "") -> None:
        words = tuple(dict.fromkeys(words))
        if (words, extra) != (self.words, self.extra):
            self.words, self.extra = words, extra
            self.choose()

    @property
    def chosen(self) -> str:
        """The word shown (without ``extra``)."""
        for word in self.words:
            if self.button.text == word + self.extra:
                return word
        return self.words[-1]

    def choose(self) -> None:
        b = self.button
        wanted = b._wanted  # the size asked for (a FitLabel or FitButton)
        text = self.words[-1] + self.extra
        if b.width > 10:
            for word in self.words[:-1]:
                if fits(b, word + self.extra, wanted * PREFER, self.wrap):
                    text = word + self.extra
                    break
        if b.text != text:
            b.text = text


class ActionWords(Words):
    """An action button's words: the printed name, never another word, on one line (shrunk
    to fit, to :data:`ACTION_MIN_FIT`); a count or a countdown after it on the same line where
    that fits, else on a line of its own under it, the icon giving its room
    (``two_lines(True)``)."""

    def __init__(self, button: Any, two_lines: Any) -> None:
        super().__init__(button, wrap=False)
        self.two_lines = two_lines

    @property
    def chosen(self) -> str:
        return self.words[0]

    def choose(self) -> None:
        b = self.button
        name, tail = self.words[0], self.extra.strip()
        text = name + self.extra
        if tail and b.width > 10 and not fits(b, text, b._wanted * ACTION_MIN_FIT,
                                              wrap=False):
            text = f"{name}\n{tail}"
        two = "\n" in text
        b.shorten = not two  # one line: a name is shrunk whole, never wrapped mid-word
        self.two_lines(b, two)
        if b.text != text:
            b.text = text


class PlayerPanel(BoxLayout):
    """One seat: name, health, team and cup, the six actions, the parry countdown (on the
    Parry button), the dice on the board (a badge on each action), knocked out."""

    def __init__(self, host: Host, arena: PanelTaps, seat_index: int, seat: SeatView, *,
                 tall: bool, **kwargs: Any) -> None:
        super().__init__(orientation="vertical", spacing=2, padding=2, **kwargs)
        self.host = host
        self.arena = arena
        self.player = seat.player
        self.tall = tall
        self.colour = theme.player_colour(host.settings.palette, seat_index)
        fs = host.fs
        self.head_box = BoxLayout(orientation="vertical", spacing=2, size_hint_y=None)
        self.header = w("TButton", background_color=self.colour,
                        color=theme.text_on(self.colour), size_hint_y=None,
                        height=56 if tall else 48, font_size=fs(17 if tall else 16),
                        bold=True, halign="center", shorten=not tall,
                        on_release=lambda *_: arena.tap_target(self.player))
        self.head_box.add_widget(self.header)
        self.health = w("TLabel", text="", bold=True, font_size=fs(17 if tall else 15),
                        halign="center" if tall else "left")
        self.bar = w("Bar", size_hint_y=None, height=4 if tall else 2, fill=self.colour)
        self.cup = w("TLabel", text="", font_size=fs(15 if tall else 14),
                     halign="center" if tall else "right")
        # Health and the team and cup line grow with the text size. In a short panel (4-6
        # players) the room they take is won back from the gaps of the panel, whose six
        # actions keep a finger's size (48 px) at 800x480.
        line = max(19.0, round(fs(15) * 1.2))
        spare = line - 19.0
        if tall:  # health, its bar, then team and cup, one under the other
            self.health.size_hint_y = self.cup.size_hint_y = None
            self.health.height = max(24.0, round(fs(17) * 1.3))
            self.cup.height = max(24.0, round(fs(15) * 1.3))
            status = BoxLayout(orientation="vertical", spacing=2, size_hint_y=None,
                               height=self.health.height + self.cup.height + 8)
            for part in (self.health, self.bar, self.cup):
                status.add_widget(part)
        else:  # health left, team and cup right, the bar under both
            if spare:
                self.spacing, self.padding, self.head_box.spacing = 1, 1, 0
                self.bar.height = 1
            status = BoxLayout(orientation="vertical", spacing=0 if spare else 1,
                               size_hint_y=None, height=line + 3 - 2 * bool(spare))
            row = BoxLayout(spacing=4, padding=(4, 0))
            # health takes the width its words need (up to half), team and cup the rest
            self.health.size_hint_x = None
            row.bind(width=lambda *_: self._health_width())
            self.health.fbind("text", lambda *_: self._health_width())
            row.add_widget(self.health)
            row.add_widget(self.cup)
            status.add_widget(row)
            status.add_widget(self.bar)
        self.status = status
        self.cup_words = Words(self.cup, wrap=False)
        self.head_box.add_widget(status)
        self.head_box.height = self.header.height + status.height + self.head_box.spacing
        self.add_widget(self.head_box)
        # While an attack wants a target, a seat with several standing figures (Echo and his
        # Guards) shows one button per figure where its name and health were: tap 3 is the
        # figure. Its actions stay where they are.
        self.figures = GridLayout(cols=3 if tall else 5, spacing=2)
        self.figure_buttons: dict[str, Any] = {}
        self.figure_words: dict[str, Words] = {}
        self.actions = GridLayout(cols=2 if tall else 3, spacing=2)
        self.buttons: dict[str, Any] = {}
        self.words: dict[str, Words] = {}
        self.icons: dict[str, IconPainter] = {}
        self.badges: dict[str, Label] = {}
        self.two_lines: set[Any] = set()  # buttons whose words take two lines (no icon)
        for key in ACTION_KEYS:
            b = w("TButton", text="", font_size=fs(16 if tall else 15), shorten=True,
                  halign="center", on_release=lambda *_, k=key: arena.tap_action(self.player, k))
            b.min_fit = ACTION_MIN_FIT
            b.bind(size=lambda wid, v: self._icon_room(wid))
            self.buttons[key] = b
            self.icons[key] = IconPainter(b, action_icon(seat, key), 16)
            self.words[key] = ActionWords(b, self._lines)
            self.badges[key] = self._badge(b)
            self.actions.add_widget(b)
        self.add_widget(self.actions)
        with self.canvas.after:
            self._outline_colour = Color(*TARGET[:3], 0)
            self._outline = Line(rectangle=(0, 0, 1, 1), width=2.5)
        self.bind(pos=self._place_outline, size=self._place_outline)
        #: What each action button says now (its word without a countdown or a count).
        self.labels = {k: ACTION_WORDS[k][-1] for k in ACTION_KEYS}

    # -- pieces ----------------------------------------------------------------------------

    def _health_width(self) -> None:
        """A short panel's health: as wide as its words at their size, at most half the
        row."""
        row = self.health.parent
        if row is None:
            return
        room = row.width - row.padding[0] - row.padding[2] - row.spacing
        need = natural_size(self.health, self.health._wanted, None)[0] + 6  # (a FitLabel)
        self.health.width = max(1.0, min(need, room * 0.5))

    def _icon_room(self, b: Any) -> None:
        """The icon above a button's word: its size from the button's height, its room kept
        by the button's top padding (so the layout checks count it with the text)."""
        size = max(14.0, min(34.0, b.height * 0.36))
        painter = self.icons.get(next((k for k, v in self.buttons.items() if v is b), ""))
        two = b in self.two_lines
        if painter is not None:
            painter.size = size
            painter.shown = not two
        # no side padding: the button's text_size (app.kv) already keeps 3 px each side
        b.padding = [0, 2 if two else size + 3, 0, 2]
        if painter is not None:
            painter.redraw()

    def _lines(self, b: Any, two: bool) -> None:
        """An action button's words take two lines (the icon gives its room) or one."""
        if (b in self.two_lines) != two:
            if two:
                self.two_lines.add(b)
            else:
                self.two_lines.discard(b)
            self._icon_room(b)

    def _badge(self, button: Any) -> Label:
        """A round badge at a button's top right: dice on that action's board space."""
        badge = Label(text="", size_hint=(None, None), size=(24, 24), bold=True,
                      font_size=self.host.fs(13), color=BLACK, opacity=0)
        with badge.canvas.before:
            Color(*TARGET)
            badge._disc = RoundedRectangle(pos=badge.pos, size=badge.size, radius=[12])
        badge.bind(pos=lambda wid, v: setattr(wid._disc, "pos", v),
                   size=lambda wid, v: setattr(wid._disc, "size", v))
        button.add_widget(badge)

        def place(*_: Any) -> None:
            badge.pos = (button.right - badge.width - 2, button.top - badge.height - 2)

        button.bind(pos=place, size=place)
        return badge

    def _place_outline(self, *_: Any) -> None:
        self._outline.rectangle = (self.x + 1.5, self.y + 1.5, self.width - 3, self.height - 3)

    def _show_figures(self, figures: Sequence[tuple[str, int, int]] | None) -> None:
        """Figures in place of name and health while this seat may be the target (None:
        name and health back)."""
        if figures is None:
            if self.figures.parent is not None:
                self.head_box.remove_widget(self.figures)
                self.head_box.add_widget(self.header)
                self.head_box.add_widget(self.status)
            return
        names = [f[0] for f in figures]
        if list(self.figure_buttons) != names:
            self.figures.clear_widgets()
            self.figure_buttons = {}
            self.figure_words = {}
            self.figures.cols = min(len(names), self.figures.cols)
            for name in names:
                b = w("TButton", text=name, font_size=self.host.fs(14), shorten=False,
                      background_color=TARGET, color=BLACK, halign="center",
                      on_release=lambda *_, n=name: self.arena.tap_target_figure(n))
                self.figure_buttons[name] = b
                self.figure_words[name] = Words(b, wrap=False)
                self.figures.add_widget(b)
        for name, health, most in figures:
            self.figure_words[name].show(figure_words(name), f"\n{health}/{most}")
        if self.header.parent is not None:
            self.head_box.remove_widget(self.header)
            self.head_box.remove_widget(self.status)
            self.head_box.add_widget(self.figures)

    # -- drawing ---------------------------------------------------------------------------

    def show(self, look: SeatLook) -> None:
        """Draw the seat as its model says: its state, what it may do now, the call being
        built."""
        header = HEADER_COLOURS.get(look.tone, (self.colour, theme.text_on(self.colour)))
        self._header(("\n" if self.tall else " · ").join(look.header), *header)
        self._outline_colour.a = 1.0 if look.outlined else 0.0
        self.health.text = look.health
        self.bar.value = look.bar
        self.cup_words.show(look.cup)
        for key, b in self.buttons.items():
            action = look.actions[key]
            self.words[key].show(action.words, action.extra)
            self.labels[key] = self.words[key].chosen
            bg, fg = BUTTON_COLOURS[action.tone]
            if tuple(b.background_color) != bg:
                b.background_color = bg
            if tuple(b.color) != fg:
                b.color = fg
            b.disabled = action.disabled
            badge = self.badges[key]
            badge.text = str(action.badge) if action.badge else ""
            badge.opacity = 1 if action.badge else 0
        self._show_figures(look.figures)
        self.opacity = 0.6 if look.out else 1.0

    def _header(self, text: str, bg: Sequence[float], fg: Sequence[float]) -> None:
        h = self.header
        if h.text != text:
            h.text = text
        if tuple(h.background_color) != tuple(bg):
            h.background_color = bg
        if tuple(h.color) != tuple(fg):
            h.color = fg

    def show_counting(self, action: str, count: int) -> None:
        """A seat's button is being pressed: the action and the count so far."""
        words = self.words.get(action)
        if words is not None:
            words.show(words.words, f" x{count}")
            self.buttons[action].background_color = LIVE
            self.buttons[action].color = BLACK


__all__ = ["ActionWords", "PanelTaps", "PlayerPanel", "Words", "fits"]
