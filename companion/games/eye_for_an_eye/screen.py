"""Eye for an Eye's screens (Kivy): the arena and the between-rounds table.

The arena: the round clock, one panel per seat (character and player, health, team and cup,
six action buttons with the icon of the dice each spends), the count keypad, the message box,
the call log, the live dice picture beside the log when the settings ask for it. Between
rounds: the round's ranking and points with the match points, the next round or the winner.
The screens keep no rule: every tap goes to the arena's calls
(:class:`~companion.games.eye_for_an_eye.calls.ArenaCalls`), which ask the engine.

Stable under the finger: every control is built once, where it stays for the whole match; a
change of state (a call being built, a parry window, a knockout, a pause) changes texts and
colours, never the layout. The only exception is a character with several figures (Echo and
his Guards) while an attack wants its target: the panel's name and health give way to one
button per figure, the finer targets of the same tap, and the actions stay where they were.

Seats: 2-3 players sit side by side in tall panels, 4 in two rows of two, 5-6 in two rows of
three; the call log stands beside the panels up to 4 players (at 5-6 the message box shows
the newest call and Menu -> Call log shows them all). Words that do not fit a button give way
to shorter ones chosen by design ("Spear Thrust" -> "Attack", "Unblockable" -> "Unblock"),
never to an accidental "Sp…st".
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from kivy.clock import Clock
from kivy.core.text import Label as CoreLabel
from kivy.graphics.context_instructions import Color
from kivy.graphics.vertex_instructions import Line, RoundedRectangle
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.image import Image
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView
from kivy.uix.screenmanager import Screen
from kivy.uix.scrollview import ScrollView
from kivy.uix.widget import Widget

from companion import theme
from companion.contract import Host
from companion.frame import BAR_HEIGHT, GameFrame, dialog
from companion.games.eye_for_an_eye.calls import KEYPAD, ArenaCalls, CallBuilder, ParryView
from companion.games.eye_for_an_eye.icons import IconPainter
from companion.games.eye_for_an_eye.look import (
    ACTION_KEYS,
    ACTION_WORDS,
    BLACK,
    DIM,
    KNOCKED,
    LIVE,
    REFUSED,
    TARGET,
    action_icon,
    action_words,
    figure_words,
    plural,
)
from companion.widgets import cut_by_design, fmt_clock, fmt_clock_at, show_picture, w
from companion.words import together
from rules import Event
from rules.eye_for_an_eye.calls import Ready
from rules.eye_for_an_eye.game import SeatView
from rules.eye_for_an_eye.scoring import RoundRow

#: The short word of each action.
ACTION_LABELS = tuple((k, ACTION_WORDS[k][-1]) for k in ACTION_KEYS)
#: A word is kept on a button only if it fits at this share of the button's font size or more.
PREFER = 0.95


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
        wanted = getattr(b, "_wanted", b.font_size)
        text = self.words[-1] + self.extra
        if b.width > 10:
            for word in self.words[:-1]:
                if fits(b, word + self.extra, wanted * PREFER, self.wrap):
                    text = word + self.extra
                    break
        if b.text != text:
            b.text = text


class PlayerPanel(BoxLayout):
    """One seat: name, health, team and cup, the six actions, the parry countdown (on the
    Parry button), the dice on the board (a badge on each action), knocked out."""

    def __init__(self, host: Host, arena: ArenaScreen, seat_index: int, seat: SeatView, *,
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
        if tall:  # health, its bar, then team and cup, one under the other
            status = BoxLayout(orientation="vertical", spacing=2, size_hint_y=None, height=56)
            self.health.size_hint_y = None
            self.health.height = 24
            for part in (self.health, self.bar, self.cup):
                status.add_widget(part)
        else:  # health left, team and cup right, the bar under both
            status = BoxLayout(orientation="vertical", spacing=1, size_hint_y=None, height=22)
            row = BoxLayout(spacing=4, padding=(4, 0))
            self.health.size_hint_x = 0.42
            self.cup.size_hint_x = 0.58
            row.add_widget(self.health)
            row.add_widget(self.cup)
            status.add_widget(row)
            status.add_widget(self.bar)
        self.status = status
        self.cup_words = Words(self.cup, wrap=False)
        self.head_box.add_widget(status)
        self.head_box.height = self.header.height + status.height + 2
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
        for key in ACTION_KEYS:
            b = w("TButton", text="", font_size=fs(16 if tall else 15), shorten=False,
                  halign="center", on_release=lambda *_, k=key: arena.tap_action(self.player, k))
            b.bind(size=lambda wid, v: self._icon_room(wid))
            self.buttons[key] = b
            self.words[key] = Words(b)
            self.icons[key] = IconPainter(b, action_icon(seat, key), 16)
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

    def _icon_room(self, b: Any) -> None:
        """The icon above a button's word: its size from the button's height, its room kept
        by the button's top padding (so the layout checks count it with the text)."""
        size = max(14.0, min(34.0, b.height * 0.36))
        painter = self.icons.get(next((k for k, v in self.buttons.items() if v is b), ""))
        if painter is not None:
            painter.size = size
        b.padding = [3, size + 3, 3, 2]
        if painter is not None:
            painter.redraw()

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

    def show(self, seat: SeatView, parry: ParryView | None, building: CallBuilder,
             possible: set[str], closed: bool) -> None:
        """Draw the seat: its state, what it may do now, the call being built."""
        short = seat.character.short
        name = short if short == seat.player else f"{short}{self._sep}{seat.player}"
        targeting = building.needs_target and building.actor != seat.player
        out = seat.knocked_out or not seat.playing
        targetable = targeting and not out
        if out:
            self._header(name, KNOCKED, theme.TEXT)
        elif targetable and building.proposed == seat.player:
            self._header(f"{short}: let go to hit", TARGET, BLACK)
        elif targetable:
            self._header(name, TARGET, BLACK)
        else:
            self._header(name, self.colour, theme.text_on(self.colour))
        self._outline_colour.a = 1.0 if targetable else 0.0
        if not seat.playing:
            self.health.text = "Sits out this round"
        elif seat.knocked_out:
            self.health.text = "Knocked out"
        else:
            self.health.text = f"Health {seat.health}/{seat.max_health}"
        self.bar.value = seat.health / max(1, seat.max_health)
        cup = " · ".join(([seat.team] if seat.team else []) + [f"Cup {seat.cup}"])
        # Knockouts score nothing of their own: where the room is short they give way.
        kos = f"{cup} · {plural(len(seat.trophies), 'KO')}" if seat.trophies else cup
        self.cup_words.show((kos, cup))
        for key, b in self.buttons.items():
            extra = ""
            live = building.actor == seat.player and building.action == key
            if key == "defence" and parry is not None:
                extra = " held" if parry.state == "held" else f" {parry.seconds:0.1f}s"
                live = live or not (building.active and building.actor == seat.player)
            self.words[key].show(action_words(seat, key), extra)
            self.labels[key] = self.words[key].chosen
            if live and not out:
                bg, fg = LIVE, BLACK
            elif key in possible and not closed:
                bg, fg = theme.BUTTON, theme.TEXT
            else:
                bg, fg = DIM, theme.MUTED
            if tuple(b.background_color) != bg:
                b.background_color = bg
            if tuple(b.color) != fg:
                b.color = fg
            b.disabled = out
            on_board = seat.allocation.get(key, 0)
            badge = self.badges[key]
            badge.text = str(on_board) if on_board else ""
            badge.opacity = 1 if on_board and not out else 0
        standing = [f for f in seat.figures if f[1] > 0]
        self._show_figures(standing if targetable and len(standing) > 1 else None)
        self.opacity = 0.6 if out else 1.0

    @property
    def _sep(self) -> str:
        return "\n" if self.tall else " · "

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


class ArenaScreen(Screen):
    """The round clock, one panel per seat, the count keypad, the message box, the call log."""

    def __init__(self, host: Host, calls: ArenaCalls, **kwargs: Any) -> None:
        super().__init__(name="arena", **kwargs)
        self.host = host
        self.calls = calls
        fs = host.fs
        self.root_box = w("Panel", orientation="vertical", padding=3, spacing=3,
                          bg=theme.BACKGROUND)
        self.clock_label = w("TLabel", text="0:00", size_hint_x=None, width=100, bold=True,
                             font_size=fs(36))
        self.go = w("TBigButton", text="Yarra Mark!", size_hint_x=None, width=150,
                    font_size=fs(20), on_release=lambda *_: self.toggle_clock())
        self.frame = GameFrame(host, extras=[self.clock_label, self.go], height=BAR_HEIGHT,
                               game=lambda: self.calls.game,
                               menu=lambda: [("Tribal cards & disputes", self.open_more),
                                             ("Call log", self.open_log)])
        self.round_label = self.frame.title
        self.undo_b, self.redo_b = self.frame.undo, self.frame.redo
        self.root_box.add_widget(self.frame)
        self.middle = BoxLayout(spacing=3)
        self.panels_box = GridLayout(spacing=3)
        self.middle.add_widget(self.panels_box)
        log_col = w("Panel", orientation="vertical", size_hint_x=0.22, padding=4, spacing=2)
        self.log_col = log_col
        # The live dice view beside the arena (Settings: Dice view), above the call log.
        self.picture = Image(fit_mode="contain", size_hint_y=None, height=0, opacity=0)
        self.picture.bind(on_touch_down=lambda wid, t: self._picture_tapped(t))
        self._picture_poll: Any = None
        self._picture_frame = 0
        log_col.add_widget(self.picture)
        log_col.add_widget(w("TLabel", text="Calls, newest first", size_hint_y=None,
                             height=24, font_size=fs(14), color=theme.MUTED))
        # Newest call first; older lines fall below the fold (Menu -> Call log shows them
        # all, scrolling). A ScrollView here kept the window redrawing while idle.
        self.log_label = cut_by_design(Label(text="", halign="left", valign="top",
                                             color=theme.TEXT, font_size=fs(14)))
        self.log_label.bind(size=lambda wid, v: setattr(wid, "text_size", v))
        log_col.add_widget(self.log_label)
        self.middle.add_widget(log_col)
        self.root_box.add_widget(self.middle)
        bottom = BoxLayout(size_hint_y=None, height=60, spacing=3)
        self.message_box = w("Panel", bg=theme.PANEL, padding=(6, 2))
        self.prompt = w("TLabel", text="", font_size=fs(16), halign="left", shorten=False)
        self.prompt.bind(size=lambda wid, v: setattr(wid, "text_size", v))
        self.message_box.add_widget(self.prompt)
        bottom.add_widget(self.message_box)
        self.count_buttons = []
        for n in KEYPAD:
            b = w("TButton", text=str(n), font_size=fs(24), bold=True, size_hint_x=None,
                  width=52, color=BLACK, background_color=LIVE, disabled=True,
                  on_release=lambda *_, n=n: calls.tap_count(n))
            self.count_buttons.append(b)
            bottom.add_widget(b)
        self.rear_b = w("TButton", text="Rear", size_hint_x=None, width=74, disabled=True,
                        on_release=lambda *_: calls.toggle_rear())
        bottom.add_widget(self.rear_b)
        self.cancel_b = w("TButton", text="Cancel", size_hint_x=None, width=92, disabled=True,
                          on_release=lambda *_: calls.cancel())
        bottom.add_widget(self.cancel_b)
        self.root_box.add_widget(bottom)
        self.add_widget(self.root_box)
        self.panels: dict[str, PlayerPanel] = {}
        self.more_view: ModalView | None = None
        self.log_view: ModalView | None = None
        #: The message shown is a refusal (white on red) rather than a notice ("Undid: ...").
        self.refused = False
        self.build_panels()

    # -- taps ------------------------------------------------------------------------------

    def tap_action(self, player: str, action: str) -> None:
        self.calls.tap_action(player, action)

    def tap_target(self, player: str) -> None:
        if self.calls.builder.needs_target:
            self.calls.tap_target(player)

    def tap_target_figure(self, figure: str) -> None:
        """Tap 3 on one figure of a character with several (Echo's Guards)."""
        if self.calls.builder.needs_target:
            self.calls.tap_target(figure)

    def toggle_clock(self) -> None:
        self.calls.toggle_clock()
        self.refresh()

    # -- the live dice view beside the arena ------------------------------------------------

    def on_enter(self, *args: Any) -> None:
        camera = self.host.camera
        if (self.host.settings.dice_view != "beside the arena" or camera is None
                or self.log_col.parent is None):  # at 5-6 players the panels need the room
            self.picture.height, self.picture.opacity = 0, 0
            return
        self.picture.height = self.log_col.width * 0.75
        self.picture.opacity = 1 if self._picture_frame else 0
        camera.want("arena-view")
        self._picture_poll = Clock.schedule_interval(lambda dt: self._show_picture(), 1 / 8)

    def on_leave(self, *args: Any) -> None:
        if self._picture_poll is not None:
            self._picture_poll.cancel()
            self._picture_poll = None
            if self.host.camera is not None:
                self.host.camera.release("arena-view")

    def _show_picture(self) -> None:
        camera = self.host.camera
        snap = camera.latest() if camera is not None else None
        if snap is None or snap.index == self._picture_frame:
            return
        self.picture.height = self.log_col.width * 0.75
        show_picture(self.picture, snap.rgb)
        self._picture_frame = snap.index

    def _picture_tapped(self, touch: Any) -> bool:
        """A tap on the small picture opens the full-screen dice view."""
        if self.picture.opacity and self.picture.collide_point(*touch.pos):
            self.host.show("dice")
            return True
        return False

    # -- panels and dialogs ---------------------------------------------------------------------

    def open_more(self) -> None:
        """Tribal cards (ready one, use a ready one) by player, and a dispute."""
        calls = self.calls
        fs = self.host.fs
        view = ModalView(size_hint=(0.96, 0.94), auto_dismiss=True)
        box = w("Panel", orientation="vertical", padding=8, spacing=6, bg=theme.PANEL)
        # room on the right for the scroll bar (it would lie over the last card's name)
        rows = GridLayout(cols=1, spacing=4, size_hint_y=None, row_default_height=56,
                          row_force_default=True, padding=(0, 0, 12, 0))
        rows.bind(minimum_height=rows.setter("height"))

        def call(make: Callable[[], object]) -> None:
            view.dismiss(animation=False)
            make()
            self.refresh()

        cards = calls.card_calls()
        for seat in calls.seats():
            found = cards.get(seat.player, [])
            if not found:
                continue
            row = BoxLayout(spacing=4)
            row.add_widget(w("TLabel", text=f"{seat.character.short}\n{seat.player}",
                             size_hint_x=None, width=170, font_size=fs(15), halign="left",
                             shorten=False))
            for c in found:
                text = c.text().removeprefix(f"{seat.character.short}: ")
                if isinstance(c, Ready):  # a card's name wraps as one ("Floris Band III")
                    text = f"Ready {together(c.card)}"
                row.add_widget(w("TButton", text=text, font_size=fs(15), shorten=False,
                                 on_release=lambda *_, c=c: call(lambda: calls.make(c))))
            for _ in range(3 - len(found)):
                row.add_widget(Widget())
            rows.add_widget(row)
        if not cards:
            rows.add_widget(w("TLabel", text="No tribal card can be readied or used now",
                              color=theme.MUTED, font_size=fs(16)))
        scroll = ScrollView(do_scroll_x=False, bar_width=8)
        scroll.add_widget(rows)
        box.add_widget(w("THeading", text="Tribal cards: ready one, or use a ready one",
                         size_hint_y=None, height=36))
        box.add_widget(scroll)
        box.add_widget(w("THeading", text="Dispute: tap who is involved, then Clear",
                         size_hint_y=None, height=36))
        row = BoxLayout(size_hint_y=None, height=56, spacing=4)
        chosen: list[str] = []

        def toggle(button: Any, player: str) -> None:
            if player in chosen:
                chosen.remove(player)
                button.background_color, button.color = theme.BUTTON, theme.TEXT
            else:
                chosen.append(player)
                button.background_color, button.color = LIVE, BLACK

        for seat in calls.seats():
            if not seat.knocked_out:
                b = w("TButton", text=seat.character.short, font_size=fs(15))
                b.bind(on_release=lambda btn, p=seat.player: toggle(btn, p))
                row.add_widget(b)
        row.add_widget(w("TButton", text="Clear their dice", font_size=fs(15),
                         shorten=False, on_release=lambda *_: call(
                             lambda: calls.dispute(chosen))))
        box.add_widget(row)
        bottom = BoxLayout(size_hint_y=None, height=56, spacing=4)
        bottom.add_widget(Widget())
        bottom.add_widget(w("TButton", text="Close", size_hint_x=0.3,
                            on_release=lambda *_: view.dismiss(animation=False)))
        box.add_widget(bottom)
        view.add_widget(box)
        self.more_view = view
        view.open(animation=False)

    def log_lines(self, limit: int | None = None) -> list[str]:
        """The call log, newest first ("0:12 Grubic: Spear Thrust 3 on Riparian")."""
        log = self.calls.session.log
        if limit is not None:
            log = log[-limit:]
        return [f"{fmt_clock_at(e.at)} {e.call}".strip() for e in reversed(log)]

    def open_log(self) -> None:
        """Every call of the match, newest first, scrolling."""
        lines = self.log_lines() or ["No call yet"]
        body = "\n".join(lines).replace("&", "&amp;").replace("[", "&bl;").replace("]", "&br;")
        self.log_view = dialog(self.host, "Call log, newest first", body,
                               [("Close", lambda: None)], size=(0.9, 0.92))

    def build_panels(self) -> None:
        """One panel per seat: 2-3 side by side (tall), 4 in two rows of two, 5-6 in two rows
        of three; the call log beside them up to 4 players."""
        self.panels_box.clear_widgets()
        self.panels = {}
        seats = self.calls.seats()
        n = len(seats)
        tall = n <= 3
        self.panels_box.cols = n if tall else (2 if n == 4 else 3)
        if n > 4 and self.log_col.parent is not None:
            self.middle.remove_widget(self.log_col)
        for i, seat in enumerate(seats):
            panel = PlayerPanel(self.host, self, i, seat, tall=tall)
            self.panels[seat.player] = panel
            self.panels_box.add_widget(panel)
        for _ in range(self.panels_box.cols * (1 if tall else 2) - n):
            self.panels_box.add_widget(Widget())  # a seat left empty in the last row

    def refresh(self) -> None:
        calls = self.calls
        game = calls.game
        b = calls.builder
        closed = calls.closed()
        possible = calls.possible_actions() if game.state.phase == "playing" else {}
        for seat in calls.seats():
            panel = self.panels.get(seat.player)
            if panel is not None:
                panel.show(seat, calls.parry_view(seat.player), b,
                           possible.get(seat.player, set()), closed is not None)
        self.refresh_clock()
        total = game.rounds_total
        number = game.state.round_number
        self.round_label.text = ("Tie-break" if number > total else f"Round {number}/{total}")
        self.frame.refresh()
        legal = set(calls.legal_counts())
        for n, btn in zip(KEYPAD, self.count_buttons, strict=True):
            btn.disabled = n not in legal
        self.rear_b.disabled = b.action != "attack"
        self.rear_b.background_color = LIVE if b.rear else theme.BUTTON
        self.rear_b.color = BLACK if b.rear else theme.TEXT
        self.cancel_b.disabled = not b.active
        self.refresh_prompt(closed)
        self.log_label.text = "\n".join(self.log_lines(14))

    def refresh_prompt(self, closed: str | None) -> None:
        """The message box: a refusal (white on red), a notice, the call being built, what
        the clock allows, or the newest call."""
        calls = self.calls
        b = calls.builder
        message = calls.session.message
        refused = bool(message) and self.refused
        if message:
            text = message
        elif b.actor is not None and b.action is not None:
            seat = calls.seat_of(b.actor)
            action = seat.character.actions.get(b.action)
            what = f"{seat.character.short}: " + (action.name if action is not None
                                                 else ACTION_WORDS[b.action][0])
            if b.needs_count:
                text = f"{what}\nHow many dice? Tap a count"
            elif b.needs_target:
                rear = " from the rear" if b.rear else ""
                text = f"{what} {b.count}{rear}\nTap the target (white)"
            else:
                text = what
        elif closed is not None:
            text = ("Paused: no calls until Resume.\nUndo and Redo still work."
                    if calls.session.clock.state == "paused"
                    else "Tap Yarra Mark! to start the round")
        elif self.log_col.parent is None and calls.session.log:
            text = "Last call:\n" + self.log_lines(1)[0]
        else:
            text = "Tap an action on your panel"
        if self.prompt.text != text:
            self.prompt.text = text
        bg = REFUSED if refused else theme.PANEL
        if tuple(self.message_box.bg) != bg:
            self.message_box.bg = bg

    def show_counting(self, seat: int, action: str, count: int) -> None:
        """A seat's button is being pressed: its panel shows the action and the count so far,
        until the call arrives (the next refresh draws the panel as usual)."""
        seats = self.calls.seats()
        if not 0 <= seat < len(seats):
            return
        s = seats[seat]
        panel = self.panels.get(s.player)
        board = s.character.actions.get(action)
        label = board.name if board is not None else action.title()
        if panel is not None:
            panel.show_counting(action, count)
        self.prompt.text = f"{s.character.short}: {label} {count}...\npress again to add"
        self.message_box.bg = theme.PANEL

    def refresh_clock(self) -> None:
        clock = self.calls.session.clock
        text = fmt_clock(clock.remaining)
        if self.clock_label.text != text:
            self.clock_label.text = text
        if not clock.running:
            colour = theme.MUTED
        else:
            colour = theme.DANGER if clock.remaining <= 10 else theme.TEXT
        if tuple(self.clock_label.color) != tuple(colour):  # a change costs a redraw
            self.clock_label.color = colour
        go = "Pause" if clock.running else "Yarra Mark!" if clock.state == "ready" else "Resume"
        if self.go.text != go:
            self.go.text = go
        for player, panel in self.panels.items():
            parry = self.calls.parry_view(player)
            if parry is not None and parry.state != "held":
                words = panel.words["defence"]
                words.show(words.words, f" {parry.seconds:0.1f}s")


def result_row(row: RoundRow) -> tuple[str, int, int, int, int, int]:
    """(side, cup, standing bonus, score, rank, points) of a round's result row."""
    return (row.side, row.cup, row.standing_bonus, row.score, row.rank, row.points)


#: How a round ended, in words.
ENDED_BY = {"time": "the clock ran out (Yarra Bung!)", "last standing": "one side left standing"}
#: The between-rounds table: (heading, share of the width).
COLUMNS = (("Rank", 0.09), ("Side", 0.37), ("Cup", 0.1), ("Bonus", 0.11), ("Score", 0.11),
           ("Points", 0.11), ("Match", 0.11))


class BetweenScreen(Screen):
    """The round's ranking with its points and the match points, the next round, the winner,
    a tie-break."""

    def __init__(self, host: Host, calls: ArenaCalls, **kwargs: Any) -> None:
        super().__init__(name="between", **kwargs)
        self.host = host
        self.calls = calls
        fs = host.fs
        root = w("Panel", orientation="vertical", padding=10, spacing=6, bg=theme.BACKGROUND)
        self.title = w("THeading", text="", size_hint_y=None, height=50, font_size=fs(28))
        root.add_widget(self.title)
        self.table = GridLayout(cols=1, spacing=2, size_hint_y=None, row_default_height=52,
                                row_force_default=True)
        self.table.bind(minimum_height=self.table.setter("height"))
        root.add_widget(self.table)
        root.add_widget(Widget())
        self.note = w("TLabel", text="", size_hint_y=None, height=52, color=theme.ACCENT,
                      font_size=fs(17), halign="left", shorten=False)
        self.note.bind(size=lambda wid, v: setattr(wid, "text_size", v))
        root.add_widget(self.note)
        bottom = BoxLayout(size_hint_y=None, height=64, spacing=6)
        bottom.add_widget(w("TButton", text="Arena", size_hint_x=0.25,
                            on_release=lambda *_: host.show("arena")))
        bottom.add_widget(Widget())
        self.next_b = w("TBigButton", text="Next round", size_hint_x=0.4,
                        on_release=lambda *_: self.next_round())
        bottom.add_widget(self.next_b)
        root.add_widget(bottom)
        self.add_widget(root)

    def next_round(self) -> None:
        if self.calls.game.is_over:
            self.host.end_game()
        else:
            self.calls.next_round()

    def _row(self, cells: Sequence[str], *, heading: bool = False) -> BoxLayout:
        row = BoxLayout(spacing=4)
        for (name, share), text in zip(COLUMNS, cells, strict=True):
            side = name == "Side"
            label = w("TLabel", text=text, size_hint_x=share, shorten=False,
                      halign="left" if side else "center",
                      font_size=self.host.fs(15 if heading else (17 if side else 18)),
                      color=theme.MUTED if heading else theme.TEXT, bold=not heading
                      and name in ("Rank", "Points", "Match"))
            row.add_widget(label)
        return row

    def side_text(self, side: str) -> str:
        """A side as the table shows it: a player or a team, over its characters."""
        members = [s.character.short for s in self.calls.seats() if s.side == side]
        return f"{side}\n{', '.join(members)}" if members and members != [side] else side

    def refresh(self, events: Sequence[Event] = ()) -> None:
        game = self.calls.game
        results = game.round_results()
        match = game.match_points()
        self.table.clear_widgets()
        self.table.add_widget(self._row([name for name, _ in COLUMNS], heading=True))
        last = results[-1] if results else None
        if last is not None:
            for side, cup, bonus, score, rank, points in (result_row(r) for r in last.rows):
                self.table.add_widget(self._row([str(rank), self.side_text(side), str(cup),
                                                 f"+{bonus}", str(score), f"+{points}",
                                                 str(match.get(side, 0))]))
        number = last.number if last is not None else game.state.round_number
        if game.is_over:
            winner = game.winner
            self.title.text = f"Winner: {winner}" if winner else "The match is over"
            self.next_b.text = "New game"
        else:
            self.title.text = ("Tie-break round results" if last is not None and last.tiebreak
                               else f"Round {number} results")
            self.next_b.text = "Next round"
        notes = [e.text for e in events if e.kind in ("tie-break", "match-over")]
        if last is not None and last.ended_by:
            notes.insert(0, "Round ended: " + ENDED_BY.get(last.ended_by, last.ended_by))
        total = game.rounds_total
        if not game.is_over:
            if number >= total:  # the match is not over after its last round: a tie
                if not any(e.kind == "tie-break" for e in events):
                    notes.append("Tied: a tie-break round is next")
                self.next_b.text = "Tie-break round"
            else:
                notes.append(f"{plural(total - number, 'round')} to play")
        self.note.text = ".  ".join(notes)


__all__ = ["ACTION_KEYS", "ACTION_LABELS", "ACTION_WORDS", "ArenaScreen", "BetweenScreen",
           "PlayerPanel", "plural", "result_row"]
