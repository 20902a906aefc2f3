"""One frame for every game screen: the same top bar in the same places, the same menu, the
same confirmation dialogs (Kivy).

Top bar, left to right: the game's status line (and anything the game adds beside it, such as
Eye for an Eye's round clock), then Undo, Redo, Dice (the live dice view), Sound (a quick
mute) and Menu. Menu holds what a player needs less often: the game's own extra panels,
Settings, the rules help and End game (asked first, with the standings: end the game with them
as its result, with no result, or keep it for later). A player who learned one game knows
where things are in the next.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView
from kivy.uix.scrollview import ScrollView
from kivy.uix.widget import Widget

from companion import theme
from companion.contract import Fonts, Host
from companion.ending import AGREED, NO_RESULT, end_words, leaders
from companion.rulehelp import help_text
from companion.widgets import w
from companion.words import thousands
from rules import Ending, Game, Standings

#: The top bar's height and its buttons' width (touch targets stay >= 48 px).
BAR_HEIGHT = 56
BUTTON_W = 76
MenuItem = tuple[str, Callable[[], object]]


def dialog(host: Fonts, title: str, body: str | Widget, buttons: Sequence[MenuItem], *,
           size: tuple[float, float] = (0.9, 0.85), above: Sequence[MenuItem] = ()) -> ModalView:
    """A dialog with a heading, a body that scrolls when long, and a row of buttons; each
    button closes it, then does its action (``above``: a second row of buttons over the
    first, when one row would not hold them at every text size). Returns the open view."""
    view = ModalView(size_hint=size, auto_dismiss=True)
    box = w("Panel", orientation="vertical", padding=10, spacing=8, bg=theme.PANEL)
    box.add_widget(w("THeading", text=title, size_hint_y=None, height=44,
                     font_size=host.fs(22)))
    if isinstance(body, str):
        label = Label(text=body, halign="left", valign="top", font_size=host.fs(16),
                      color=theme.TEXT, size_hint_y=None, markup=True)
        label.bind(width=lambda wid, v: setattr(wid, "text_size", (v - 30, None)),
                   texture_size=lambda wid, v: setattr(wid, "height", v[1]))
        scroll = ScrollView(do_scroll_x=False, bar_width=8)
        scroll.add_widget(label)
        box.add_widget(scroll)
    else:
        box.add_widget(body)

    def press(action: Callable[[], object]) -> None:
        view.dismiss(animation=False)
        action()

    if above:
        top = BoxLayout(size_hint_y=None, height=60, spacing=8)
        for text, action in above:
            top.add_widget(w("TButton", text=text, font_size=host.fs(18),
                             on_release=lambda *_, a=action: press(a)))
        box.add_widget(top)
    row = BoxLayout(size_hint_y=None, height=60, spacing=8)
    for i, (text, action) in enumerate(buttons):
        last = i == len(buttons) - 1
        row.add_widget(w("TBigButton" if last else "TButton", text=text,
                         font_size=host.fs(20 if last else 18),
                         on_release=lambda *_, a=action: press(a)))
    box.add_widget(row)
    view.add_widget(box)
    view.open(animation=False)
    return view


def confirm(host: Fonts, title: str, body: str, yes: str, on_yes: Callable[[], object], *,
            no: str = "Keep playing") -> ModalView:
    """Ask before something a player may not mean (End game, Drop): the safe answer first,
    the one that acts last (the big button)."""
    return dialog(host, title, body, [(no, lambda: None), (yes, on_yes)])


def wrapped(host: Fonts, text: str, size: float = 16, **kwargs: Any) -> Label:
    """A label as tall as its text, wrapped at its width (for bodies that scroll)."""
    kwargs.setdefault("halign", "left")
    label = Label(text=text, valign="top", font_size=host.fs(size),
                  color=kwargs.pop("color", theme.TEXT), size_hint_y=None, height=0,
                  markup=True, **kwargs)  # height 0 until its text is drawn (or stays empty)
    label.bind(width=lambda wid, v: setattr(wid, "text_size", (v, None)),
               texture_size=lambda wid, v: setattr(wid, "height", v[1]))
    return label


def standings_table(host: Fonts, standings: Standings) -> Widget:
    """A game's standings as the dialogs show them: a table of labels, one per cell, each
    wrapping within its column (wider columns for longer texts), then the winner or "Game in
    progress" and the game's note. Tall as its content: put it in a ScrollView."""
    box = BoxLayout(orientation="vertical", size_hint_y=None, spacing=6)
    box.bind(minimum_height=box.setter("height"))
    cols = len(standings.columns)
    grid = GridLayout(cols=cols, size_hint_y=None, spacing=(10, 4))
    grid.bind(minimum_height=grid.setter("height"))
    longest = [max(len(r[i]) for r in (standings.columns, *standings.rows))
               for i in range(cols)]
    weights = [min(max(n, 4), 18) for n in longest]
    for i, name in enumerate(standings.columns):
        grid.add_widget(wrapped(host, f"[b]{_escape(name)}[/b]", 15, color=theme.MUTED,
                                size_hint_x=weights[i]))
    for row in standings.rows:
        for i, cell in enumerate(row):  # numbers as the game's screen writes them: 2,100
            grid.add_widget(wrapped(host, _escape(thousands(cell)), 16,
                                    size_hint_x=weights[i]))
    box.add_widget(grid)
    if standings.winner is not None:
        box.add_widget(wrapped(host, f"[b]Winner: {_escape(standings.winner)}[/b]", 17,
                               color=theme.ACCENT))
    elif not standings.is_over:
        box.add_widget(wrapped(host, "Game in progress", 15, color=theme.MUTED))
    if standings.note:
        box.add_widget(wrapped(host, _escape(standings.note), 15, color=theme.MUTED))
    return box


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("[", "&bl;").replace("]", "&br;")


#: The largest whole number of pixels a QR code's module takes (a phone reads 3 px at arm's
#: length from the 7" screen; more only makes the dialog taller).
QR_MODULE_MAX = 4


class PlayCode(ModalView):
    """The dialog :func:`play_code` opens; ``link`` is the BG Stats link its code shows."""

    link = ""


def play_code(host: Fonts, link: str, result: str) -> PlayCode:
    """A play as the QR code of its BG Stats link: a phone with BG Stats scans it and adds
    the play (it asks first, and knows a play it already has). The code takes the dialog's
    whole height, in whole pixels per module (never scaled), with the result and what to do
    beside it and Close under them; the dialog is as tall as the code, no taller."""
    from kivy.core.window import Window
    from kivy.uix.image import Image

    from companion.tournament.join import qr_rgb
    from companion.widgets import show_picture

    pad = 10
    room = int(Window.height * 0.96) - 2 * pad
    modules = len(qr_rgb(link, scale=1))
    rgb = qr_rgb(link, scale=max(1, min(QR_MODULE_MAX, room // modules)))
    side = rgb.shape[0]
    view = PlayCode(size_hint=(0.98, None), height=side + 2 * pad, auto_dismiss=True)
    view.link = link
    box = w("Panel", padding=pad, spacing=14, bg=theme.PANEL)
    image = Image(fit_mode="scale-down", size_hint=(None, None), size=(side, side))
    show_picture(image, rgb)
    image.texture.mag_filter = "nearest"
    box.add_widget(image)
    words = BoxLayout(orientation="vertical", spacing=8)
    words.add_widget(wrapped(host, "[b]This play in BG Stats[/b]", 20, color=theme.TEXT))
    words.add_widget(wrapped(host, _escape(result), 18, color=theme.ACCENT))
    words.add_widget(wrapped(host, "Scan the code with the phone that has BG Stats: it adds "
                             "this play. It asks first, and knows a play it already has.", 16,
                             color=theme.MUTED))
    words.add_widget(Widget())
    words.add_widget(w("TBigButton", text="Close", size_hint_y=None, height=60,
                       font_size=host.fs(20),
                       on_release=lambda *_: view.dismiss(animation=False)))
    box.add_widget(words)
    view.add_widget(box)
    view.open(animation=False)
    return view


def offer_play(host: Host, result: str) -> PlayCode | None:
    """The play of the game on the table as its BG Stats code (:func:`play_code`), once it is
    over; None (nothing shown) before."""
    link = host.play_link()
    return None if link is None else play_code(host, link, result)


def rules_help(game: Game[Any]) -> str:
    """The rules help of a game, written for players (:mod:`companion.rulehelp`), with the
    figures of its own options."""
    return help_text(game.name, game.title, game.options)


class GameFrame(BoxLayout):
    """The top bar every game screen puts first (see the module docstring)."""

    def __init__(self, host: Host, *, extras: Sequence[Widget] = (),
                 menu: Callable[[], Sequence[MenuItem]] | None = None,
                 game: Callable[[], Game[Any]], **kwargs: Any) -> None:
        kwargs.setdefault("height", BAR_HEIGHT)
        super().__init__(size_hint_y=None, spacing=4, **kwargs)
        self.host = host
        self._game = game
        self._menu = menu
        self.title = w("TLabel", text="", bold=True, halign="left", font_size=host.fs(19),
                       color=theme.ACCENT)
        self.add_widget(self.title)
        for extra in extras:
            self.add_widget(extra)
        self.undo = w("TButton", text="Undo", size_hint_x=None, width=BUTTON_W,
                      on_release=lambda *_: host.undo())
        self.redo = w("TButton", text="Redo", size_hint_x=None, width=BUTTON_W,
                      on_release=lambda *_: host.redo())
        self.dice = w("TButton", text="Dice", size_hint_x=None, width=BUTTON_W,
                      on_release=lambda *_: host.show("dice"))
        self.sound = w("TButton", text="Mute", size_hint_x=None, width=BUTTON_W,
                       on_release=lambda *_: self.toggle_sound())
        self.menu = w("TButton", text="Menu", size_hint_x=None, width=BUTTON_W,
                      on_release=lambda *_: self.open_menu())
        for b in (self.undo, self.redo, self.dice, self.sound, self.menu):
            self.add_widget(b)
        self.menu_view: ModalView | None = None
        self.confirm_view: ModalView | None = None
        self.play_code_view: ModalView | None = None
        self.play_code_link = ""  # the link the QR code shows

    def refresh(self) -> None:
        game = self._game()
        # a game over is finished in the journal, which takes no more calls, undo included
        self.undo.disabled = game.is_over or not game.can_undo
        self.redo.disabled = game.is_over or not game.can_redo
        self.sound.text = "Sound" if self.host.muted() else "Mute"

    def toggle_sound(self) -> None:
        self.host.mute(not self.host.muted())
        self.refresh()

    # -- the menu ----------------------------------------------------------------------------

    def menu_items(self) -> list[MenuItem]:
        own = list(self._menu()) if self._menu is not None else []
        return [*own, ("Settings", lambda: self.host.show("settings")),
                ("Rules help", self.show_rules), ("End game", self.ask_end)]

    def open_menu(self) -> None:
        items = self.menu_items()
        view = ModalView(size_hint=(0.7, None), height=min(440, 76 + 62 * (len(items) + 1)),
                         auto_dismiss=True)
        box = w("Panel", orientation="vertical", padding=10, spacing=6, bg=theme.PANEL)
        box.add_widget(w("THeading", text=self._game().title, size_hint_y=None, height=40))
        grid = GridLayout(cols=1, spacing=6, row_default_height=56, row_force_default=True)
        self.menu_buttons: dict[str, Any] = {}

        def press(action: Callable[[], object]) -> None:
            view.dismiss(animation=False)
            action()

        for text, action in [*items, ("Close", lambda: None)]:
            b = w("TButton", text=text, font_size=self.host.fs(18),
                  on_release=lambda *_, a=action: press(a))
            self.menu_buttons[text] = b
            grid.add_widget(b)
        box.add_widget(grid)
        view.add_widget(box)
        self.menu_view = view
        view.open(animation=False)

    def show_rules(self) -> None:
        game = self._game()
        dialog(self.host, f"{game.title}: rules help", rules_help(game), [("Close", lambda: None)],
               size=(0.96, 0.94))

    def show_play_code(self) -> None:
        """The game's play as a QR code of its BG Stats link (:func:`play_code`), with who
        won."""
        winner = self._game().standings().winner
        view = offer_play(self.host, f"Winner: {winner}" if winner else "Nobody won")
        if view is not None:
            self.play_code_view, self.play_code_link = view, view.link

    def end_by_agreement(self, ending: Ending) -> None:
        """End game's answer: the game ends with these standings as the result (or none),
        and its play is offered to BG Stats at once, over the start screen."""
        top = leaders(self._game())
        link = self.host.end_game(ending)
        if link is None:
            return
        if ending == NO_RESULT:
            result = "Ended by agreement with no result"
        elif top:
            wins = "wins" if len(top) == 1 else "share the win"
            result = f"Ended by agreement: {' and '.join(top)} {wins}"
        else:
            result = "Ended by agreement: nobody wins"
        self.play_code_view, self.play_code_link = play_code(self.host, link, result), link

    def ask_end(self) -> None:
        """End game, asked first, with the standings as they are (:mod:`companion.ending`):
        a game that is over is left; one that is not is ended with these standings as its
        result, or with no result, or kept for later (it stays in Resume); one with no call
        yet is left and not kept."""
        game = self._game()
        over = game.is_over
        table = standings_table(self.host, game.standings())
        body = BoxLayout(orientation="vertical", size_hint_y=None, spacing=8)
        body.bind(minimum_height=body.setter("height"))
        back: MenuItem = ("Back to the game", lambda: None)
        above: tuple[MenuItem, ...] = ()
        if over:
            title, words = "Final standings", ""
            buttons = [back, ("BG Stats", self.show_play_code), ("Leave", self.host.end_game)]
        elif not game.history and not game.can_redo:
            title = "Leave this game?"
            words = "No call has been made yet, so this game is not kept."
            buttons = [back, ("Leave", self.host.end_game)]
        else:
            title, words = "End this game?", end_words(game)
            above = (back, ("Keep for later", self.host.end_game))
            buttons = [("No result", lambda: self.end_by_agreement(NO_RESULT)),
                       ("End game", lambda: self.end_by_agreement(AGREED))]
        if words:
            body.add_widget(wrapped(self.host, words, 16))
        body.add_widget(table)
        scroll = ScrollView(do_scroll_x=False, bar_width=8)
        scroll.add_widget(body)
        self.confirm_view = dialog(self.host, title, scroll, buttons, above=above,
                                   size=(0.96, 0.96))


__all__ = ["BAR_HEIGHT", "GameFrame", "PlayCode", "confirm", "dialog", "offer_play",
           "play_code", "rules_help", "standings_table", "wrapped"]
