"""The Dice-ocalypse table screen: draws :mod:`companion.games.diceocalypse.model` and
forwards touches to it (no rule and no table logic here).

Layout (800x480 and up): the top bar says whose turn it is (or what the game waits for); the
scores on the left (tap a player: they roll next, where several must roll); on the right who
rolls how many dice, the six dice (the roll being entered, or the roll to keep from), what
happened and what to do, the number pad, the two actions (only a legal one is drawn in the
accent colour), Cards & dice (a dialog with every player's Act of War cards, Immunity, picks
and special dice) and Camera. Every widget is made once and only updated: nothing moves or
disappears under a finger, and a roll arriving from the camera changes values in place.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.modalview import ModalView
from kivy.uix.widget import Widget
from kivy.utils import escape_markup

from companion import theme
from companion.contract import Host
from companion.frame import GameFrame, dialog
from companion.games.diceocalypse.model import DialogChoice, DiceocalypseModel
from companion.games.diceocalypse.view import ActionView, DiceocalypseView, DieLook
from companion.games.table import TableScreen, lines_label
from companion.session import TableSession
from companion.widgets import natural_size
from companion.widgets import w as _w
from rules import Event
from rules.diceocalypse import Diceocalypse
from vision import Reading

LIT: theme.RGBA = (0.94, 0.89, 0.26, 1)  # a scoring die
DULL: theme.RGBA = (0.30, 0.31, 0.35, 1)  # a die that does not score
EMPTY: theme.RGBA = (0.20, 0.21, 0.25, 1)  # a die still to enter
#: The tile of the player whose turn it is: white, which is no seat colour of any palette, so
#: it never reads as "that player's colour" (the seat's colour stays on the tile's strip).
LIT_TILE: theme.RGBA = theme.TEXT
GAP = 6
#: The message box's words show at this share of the size asked for or more: the news gives
#: way first where they would not (at the largest text size, a message grows as others do).
SAY_AT_LEAST = 0.9


#: How each look of a die button is drawn: (background, text).
DIE_COLOURS: dict[DieLook, tuple[theme.RGBA, theme.RGBA]] = {
    "off": (theme.BACKGROUND, theme.TEXT), "empty": (EMPTY, theme.TEXT),
    "value": (theme.COUNT, (0, 0, 0, 1)), "doubt": (theme.DANGER, theme.TEXT),
    "selected": (theme.SELECT, theme.TEXT), "aside": (DULL, theme.TEXT),
    "chosen": (theme.SELECT, theme.TEXT),
    "lit": (LIT, (0, 0, 0, 1)), "dull": (DULL, theme.MUTED),
}


def action_style(button: Any, action: ActionView) -> None:
    """An action button: enabled only when legal; the accent colour only for the main one of
    the legal actions, never for one the engine would refuse."""
    button.text = action.text
    button.disabled = not action.legal
    button.background_color = theme.ACCENT if action.lit else theme.BUTTON
    button.color = (0, 0, 0, 1) if action.lit else theme.TEXT
    button.bold = action.lit


class ScoreRow(BoxLayout):
    """One player's tile: colour strip, then a button with the name and badges (tap: this
    player rolls next), and the score.

    The current player's tile is lit white, so whose turn it is reads across the room; the
    seat's colour stays on the strip and the name is always written, so colour is never the
    only cue.
    """

    def __init__(self, app: Host, seat: int, player: str, **kwargs: Any) -> None:
        super().__init__(spacing=0, **kwargs)
        self.player = player
        self.colour = theme.player_colour(app.settings.palette, seat)
        self.add_widget(_w("Panel", size_hint_x=None, width=12, bg=self.colour))
        self.tile = _w("Panel", bg=theme.PANEL)
        self.button = _w("TButton", text=player, font_size=app.fs(17), halign="left",
                         shorten=False, markup=True, background_color=(0, 0, 0, 0))
        self.tile.add_widget(self.button)
        # a score is one line at every text size: it shrinks to fit its box rather than
        # wrap ("8,00 / 0"); the box keeps the names their room at six players
        self.score = _w("FitLabel", text="0", bold=True, font_size=app.fs(28),
                        color=theme.TEXT, size_hint_x=None, width=104, padding=(0, 0, 8, 0))
        self.tile.add_widget(self.score)
        self.add_widget(self.tile)

    def show(self, score: int, badges: str, current: bool, out: bool) -> None:
        name = f"[b]{self.player}[/b]"
        self.button.text = f"{name}\n{badges}" if badges else name
        self.tile.bg = list(LIT_TILE if current else theme.PANEL)
        ink = theme.text_on(LIT_TILE) if current else theme.TEXT
        self.button.color = ink
        self.score.text = f"{score:,}"
        self.score.color = theme.MUTED if out and not current else ink


class DiceocalypseScreen(TableScreen):
    """The table screen: its host (ScreenTable) draws it after every change its model read."""

    model: DiceocalypseModel

    def __init__(self, host: Host, session: TableSession[Any], **kwargs: Any) -> None:
        self.session: TableSession[Diceocalypse] = session.typed(Diceocalypse)
        super().__init__(host, session, **kwargs)
        app = host
        camera = host.camera
        self.model = DiceocalypseModel(
            self.session, camera_on=camera is not None and camera.rolls_count,
            correct_roll=host.correct_roll)
        self.cards_view: ModalView | None = None  # the Cards & dice dialog, while open
        self._cards_shown: list[tuple[str, str]] = []  # (player, button words) in the dialog

        root = _w("Panel", orientation="vertical", padding=6, spacing=6, bg=theme.BACKGROUND)
        self.frame = GameFrame(app, game=lambda: self.game)
        self.status = self.frame.title
        self.status.font_size = app.fs(19)
        self.status.shorten = False  # two lines rather than a cut
        self.undo_button, self.redo_button = self.frame.undo, self.frame.redo
        root.add_widget(self.frame)

        body = BoxLayout(spacing=8)
        self.rows_box = BoxLayout(orientation="vertical", spacing=4, size_hint_x=0.38)
        body.add_widget(self.rows_box)
        right = BoxLayout(orientation="vertical", spacing=GAP, size_hint_x=0.62)
        self.info = lines_label(app, 21, text="", bold=True, size_hint_y=None, height=56)
        right.add_widget(self.info)
        self.dice_row = BoxLayout(spacing=GAP, size_hint_y=None, height=72)
        self.dice: list[Any] = []
        for i in range(6):
            b = _w("TButton", text="", font_size=app.fs(36), bold=True, shorten=False,
                   on_release=lambda *_, i=i: self.tap_die(i))
            self.dice.append(b)
            self.dice_row.add_widget(b)
        right.add_widget(self.dice_row)
        # What happened and what to do, in a box that takes the height left over; a refusal
        # comes first, in bold, and the box's frame turns orange while it is shown.
        self.hint = lines_label(app, 16, text="", markup=True)
        self._choices: list[list[str]] = [[]]  # that, and shorter, the news given way first
        self.hint.bind(size=lambda *_: self._fit_said())
        inner = _w("Panel", bg=theme.PANEL, padding=(4, 0))
        inner.add_widget(self.hint)
        self.hint_box = _w("Panel", bg=theme.BACKGROUND, padding=3)
        self.hint_box.add_widget(inner)
        right.add_widget(self.hint_box)
        numbers = BoxLayout(spacing=GAP, size_hint_y=None, height=52)
        self.number_buttons = []
        for v in range(1, 7):
            b = _w("TButton", text=str(v), font_size=app.fs(24), shorten=False,
                   on_release=lambda *_, v=v: self.tap_number(v))
            self.number_buttons.append(b)
            numbers.add_widget(b)
        self.clear_button = _w("TButton", text="Clear", font_size=app.fs(16), shorten=False,
                               on_release=lambda *_: self.clear_entry())
        numbers.add_widget(self.clear_button)
        right.add_widget(numbers)
        self.actions = BoxLayout(spacing=GAP, size_hint_y=None, height=60)
        self.secondary = _w("TButton", text="", font_size=app.fs(19), shorten=False,
                            on_release=lambda *_: self.tap_secondary())
        self.primary = _w("TButton", text="", font_size=app.fs(21), shorten=False,
                          on_release=lambda *_: self.tap_primary())
        self.actions.add_widget(self.secondary)
        self.actions.add_widget(self.primary)
        right.add_widget(self.actions)
        bottom = BoxLayout(spacing=GAP, size_hint_y=None, height=52)
        self.cards_button = _w("TButton", text="Cards & dice", shorten=False,
                               on_release=lambda *_: self.toggle_cards())
        bottom.add_widget(self.cards_button)
        self.camera_button = _w("TButton", text="Camera", size_hint_x=0.7, shorten=False,
                                on_release=lambda *_: self.toggle_camera())
        bottom.add_widget(self.camera_button)
        right.add_widget(bottom)
        body.add_widget(right)
        root.add_widget(body)
        self.add_widget(root)

        self.rows: dict[str, ScoreRow] = {}
        for seat, player in enumerate(session.game.setup.players):
            row = ScoreRow(app, seat, player)
            row.button.bind(on_release=lambda *_, p=player: self.tap_player(p))
            self.rows[player] = row
            self.rows_box.add_widget(row)
        self.rows_box.add_widget(Widget(size_hint_y=0.01))

    # -- the model -----------------------------------------------------------------------------

    def wants_camera(self) -> bool:
        return self.model.camera_on

    @property
    def game(self) -> Diceocalypse:
        return self.session.game

    @property
    def camera_on(self) -> bool:
        return self.model.camera_on

    @property
    def cards_open(self) -> bool:
        """The Cards & dice dialog is open."""
        return self.cards_view is not None and self.cards_view.parent is not None

    def refresh(self, events: Sequence[Event] = ()) -> None:
        """Redraw (the model has read the change already: its host handed it over first)."""
        self.draw()

    # -- drawing -------------------------------------------------------------------------------

    def draw(self) -> None:
        view = self.model.view()
        self.status.text = view.status
        for p in view.players:
            self.rows[p.player].show(p.score, p.badges, p.lit, p.out)
        self.frame.refresh()
        self.camera_button.text = "Camera on" if view.camera_on else "Camera off"
        self.camera_button.background_color = theme.SELECT if view.camera_on else theme.BUTTON
        n = view.cards
        self.cards_button.text = f"Cards & dice ({n})" if n else "Cards & dice"
        self.cards_button.disabled = n == 0
        if self.cards_open:
            self._fill_cards()
        self.info.text = view.info
        for b, die in zip(self.dice, view.dice, strict=True):
            b.text, b.disabled = die.text, not die.enabled
            b.background_color, colour = DIE_COLOURS[die.look]
            if die.look not in ("off", "empty") or die.enabled:
                b.color = colour
        for b in (*self.number_buttons, self.clear_button):
            b.disabled = not view.numbers
        action_style(self.primary, view.primary)
        action_style(self.secondary, view.secondary)
        self._say(view)

    def _say(self, view: DiceocalypseView) -> None:
        """The message box: a refusal first (where the players look, in bold, the box framed
        in orange), then the news, then what to do; all of it at (nearly) the size asked for,
        whole. Where the box has not the room for all (the largest text sizes), the news gives
        way first (the scores and the status line show what happened), then what to do beyond
        its first line; a refusal and the first thing to do always show."""
        refusal = [f"[b]{escape_markup(view.refusal)}[/b]"] if view.refusal else []
        lines = [escape_markup(line) for line in view.lines]
        news = lines[:1] if view.lines and view.lines[0] == self.model.news else []
        todo = lines[len(news):]
        choices = ([*refusal, *lines], [*refusal, *todo], [*refusal, *todo[:1]])
        self._choices = [c for i, c in enumerate(choices) if c not in choices[:i]]
        self._fit_said()
        frame = list(theme.DANGER if view.refusal else theme.BACKGROUND)
        if list(self.hint_box.bg) != frame:
            self.hint_box.bg = frame

    def _fit_said(self) -> None:
        """The first of the message box's choices (see :meth:`_say`) that shows whole at
        :data:`SAY_AT_LEAST` of the size asked for (the label shrinks the last to fit)."""
        hint = self.hint
        wanted = hint._wanted  # (a FitLabel)
        room = (hint.width, hint.height)
        text = "\n".join(self._choices[-1])
        if room[0] > 10 and room[1] > 10:
            text = next(("\n".join(c) for c in self._choices
                         if natural_size(hint, wanted * SAY_AT_LEAST, room[0],
                                         "\n".join(c))[1] <= room[1]), text)
        if hint.text != text:
            hint.text = text

    # -- the Cards & dice dialog ---------------------------------------------------------------

    def toggle_cards(self) -> None:
        """Open the Cards & dice dialog (or close it)."""
        if self.cards_open:
            assert self.cards_view is not None
            self.cards_view.dismiss(animation=False)
            self.draw()
            return
        body = BoxLayout(orientation="vertical", spacing=4)
        self.card_tabs = BoxLayout(spacing=4, size_hint_y=None, height=56)
        self.card_grid = GridLayout(cols=2, spacing=4, row_default_height=56,
                                    row_force_default=True)
        body.add_widget(self.card_tabs)
        body.add_widget(self.card_grid)
        self._cards_shown = []
        self.cards_view = dialog(self.host, "Cards & dice", body, [("Close", self.draw)],
                                 size=(0.96, 0.94))
        self._fill_cards()

    def _fill_cards(self) -> None:
        """The dialog's player tabs and calls. A tab row is made again only when the players
        with a call change, a grid only when the chosen player's calls change; choosing
        another player only recolours the tabs."""
        by_player = self.model.calls_by_player()
        chosen = self.model.card_player()
        players = list(by_player)
        if [b.player for b in self.card_tabs.children[::-1]] != players:
            self.card_tabs.clear_widgets()
            for p in players:
                tab = _w("TButton", text=p, shorten=False, font_size=self.host.fs(16),
                         on_release=lambda *_, p=p: self.choose_card_player(p))
                tab.player = p
                self.card_tabs.add_widget(tab)
        for child in self.card_tabs.children:
            colour = theme.SELECT if child.player == chosen else theme.BUTTON
            if list(child.background_color) != list(colour):
                child.background_color = colour
        calls = by_player.get(chosen or "", [])
        shown = [(chosen or "", words) for words, _ in calls]
        if shown == self._cards_shown:
            return
        self._cards_shown = shown
        self.card_grid.cols = 2 if len(calls) <= 8 else 3
        self.card_grid.clear_widgets()
        for words, choice in calls:
            self.card_grid.add_widget(_w("TButton", text=words, shorten=False,
                                         font_size=self.host.fs(17),
                                         on_release=lambda *_, c=choice: self.play(c)))

    def choose_card_player(self, player: str) -> None:
        self.model.choose_card_player(player)
        self.draw()

    def play(self, choice: DialogChoice) -> None:
        """A choice of the Cards & dice dialog (which closes)."""
        if self.cards_view is not None:
            self.cards_view.dismiss(animation=False)
        if not self.model.play(choice):
            self.draw()

    # -- touches, forwarded ----------------------------------------------------------------------

    def _then_draw(self, action: Callable[[], object]) -> None:
        """A tap: the model acts, then the screen draws once (:meth:`TableScreen.act`).
        Camera dice the model took as the roll (a reading, or the one kept aside while typed
        numbers stood) go to the roll log."""
        taken = self.model.taken
        self.act(action)
        if self.model.taken is not None and self.model.taken is not taken:
            self.host.took_roll(self.model.taken)

    def tap_player(self, player: str) -> None:
        self._then_draw(lambda: self.model.tap_player(player))

    def tap_die(self, i: int) -> None:
        self._then_draw(lambda: self.model.tap_die(i))

    def tap_number(self, v: int) -> None:
        self._then_draw(lambda: self.model.tap_number(v))

    def clear_entry(self) -> None:
        self._then_draw(self.model.clear_entry)

    def tap_primary(self) -> None:
        if self.model.view().over:
            self.host.end_game()
            return
        self._then_draw(self.model.tap_primary)

    def tap_secondary(self) -> None:
        if self.model.view().over:  # the play for BG Stats
            self.frame.show_play_code()
            return
        self._then_draw(self.model.tap_secondary)

    def toggle_camera(self) -> None:
        """Read rolls from the camera, or not (the app runs the camera while they are)."""
        self._then_draw(lambda: self.model.toggle_camera(self.host.camera))

    def on_reading(self, reading: Reading) -> str | None:
        """A settled camera reading: the roll the game waits for (see the model)."""
        made: list[str | None] = []
        self._then_draw(lambda: made.append(self.model.on_reading(reading)))
        return made[0]

    def on_roll(self, reading: Reading) -> None:
        """The app's camera feed settled a roll (main thread)."""
        if self.model.camera_on:
            self.on_reading(reading)

    def close(self) -> None:
        if self.cards_open:
            assert self.cards_view is not None
            self.cards_view.dismiss(animation=False)
