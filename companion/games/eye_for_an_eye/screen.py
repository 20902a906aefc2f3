"""Eye for an Eye's screens (Kivy): the arena and the between-rounds table.

The arena: the round clock, one panel per seat (character and player, health, team and cup,
six action buttons with the icon of the dice each spends: :mod:`.panel`), the count keypad,
the message box, the call log, the live dice picture beside the log when the settings ask for
it. Between rounds (:mod:`.between`): the round's ranking and points with the match points,
the next round or the winner. The screens keep no rule and decide no text: they draw what
the model (:class:`~companion.games.eye_for_an_eye.model.EyeForAnEyeModel`) says, and every tap
goes to the arena's calls (:class:`~companion.games.eye_for_an_eye.calls.ArenaCalls`), which
ask the engine.

Stable under the finger: every control is built once, where it stays for the whole match; a
change of state (a call being built, a parry window, a knockout, a pause) changes texts and
colours, never the layout. The only exception is a character with several figures (Echo and
his Guards) while an attack wants its target: the panel's name and health give way to one
button per figure, the finer targets of the same tap, and the actions stay where they were.

Seats: 2-3 players sit side by side in tall panels, 4 in two rows of two, 5-6 in two rows of
three; the call log stands beside the panels up to 4 players (at 5-6 the message box shows
the newest call and Menu -> Call log shows them all). An action button says its printed name
at every size, shrunk to fit; other words that do not fit give way to shorter ones chosen by
design ("Cup 2 · 1 KO" -> "Cup 2"), never to an accidental "Sp…st".
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.clock import Clock, ClockEvent
from kivy.input.motionevent import MotionEvent
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
from companion.games.eye_for_an_eye.between import BetweenScreen
from companion.games.eye_for_an_eye.building import KEYPAD
from companion.games.eye_for_an_eye.look import BLACK, LIVE, REFUSED
from companion.games.eye_for_an_eye.model import ClockLook, ClockTone, EyeForAnEyeModel
from companion.games.eye_for_an_eye.panel import PlayerPanel, Words
from companion.widgets import cut_by_design, show_picture, w
from companion.words import together
from rules.eye_for_an_eye.calls import Ready

#: The round clock's colour by its tone.
CLOCK_COLOURS: dict[ClockTone, theme.RGBA] = {"stopped": theme.MUTED, "running": theme.TEXT,
                                              "urgent": theme.DANGER}


class ArenaScreen(Screen):
    """The round clock, one panel per seat, the count keypad, the message box, the call log."""

    def __init__(self, host: Host, model: EyeForAnEyeModel, **kwargs: Any) -> None:
        super().__init__(name="arena", **kwargs)
        self.host = host
        self.model = model
        self.calls = calls = model.calls
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
        self._picture_poll: ClockEvent | None = None
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
        self.prompt_words = Words(self.prompt)  # "Last call:" gives way to the call
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
        self.build_panels()

    @property
    def refused(self) -> bool:
        """The message shown is a refusal (white on red) rather than a notice."""
        return self.model.refused

    # -- taps ------------------------------------------------------------------------------

    def tap_action(self, player: str, action: str) -> None:
        self.calls.tap_action(player, action)

    def tap_target(self, player: str) -> None:
        if self.calls.asks(player):  # who said the call heard aloud
            self.calls.choose_speaker(player)
        elif self.calls.builder.needs_target:
            self.calls.tap_target(player)

    def tap_target_figure(self, figure: str) -> None:
        """Tap 3 on one figure of a character with several (Echo's Guards)."""
        if self.calls.builder.needs_target:
            self.calls.tap_target(figure)

    def toggle_clock(self) -> None:
        """The clock's button: the round clock while a round is played; once it (or the
        match) is over, the results."""
        if self.model.clock().go_action == "results":
            self.host.show("between")
            return
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

    def _picture_tapped(self, touch: MotionEvent) -> bool:
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

    def open_log(self) -> None:
        """Every call of the match, newest first, scrolling."""
        lines = self.model.log_lines() or ["No call yet"]
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
        """Draw the arena as its model says."""
        look = self.model.view()
        for seat in self.model.seats_look():
            panel = self.panels.get(seat.player)
            if panel is not None:
                panel.show(seat)
        self._clock(self.model.clock())
        self.round_label.text = look.round
        self.frame.refresh()
        for n, btn in zip(KEYPAD, self.count_buttons, strict=True):
            btn.disabled = n not in look.counts
        self.rear_b.disabled = not look.rear_enabled
        self.rear_b.background_color = LIVE if look.rear_lit else theme.BUTTON
        self.rear_b.color = BLACK if look.rear_lit else theme.TEXT
        self.cancel_b.disabled = not look.cancel_enabled
        self._prompt(look.prompt, look.refused)
        self.log_label.text = "\n".join(look.log)

    def _prompt(self, words: tuple[str, ...], refused: bool) -> None:
        """The message box: a refusal white on red, anything else on the panel colour."""
        self.prompt_words.show(words)
        bg = REFUSED if refused else theme.PANEL
        if tuple(self.message_box.bg) != bg:
            self.message_box.bg = bg

    def show_counting(self, seat: int, action: str, count: int) -> None:
        """A seat's button is being pressed: its panel shows the action and the count so far,
        until the call arrives (the next refresh draws the panel as usual)."""
        counting = self.model.counting(seat, action, count)
        if counting is None:
            return
        player, text = counting
        panel = self.panels.get(player)
        if panel is not None:
            panel.show_counting(action, count)
        self._prompt((text,), False)

    def refresh_clock(self) -> None:
        self._clock(self.model.clock())
        for player, panel in self.panels.items():
            extra = self.model.parry_extra(player)
            if extra is not None:
                words = panel.words["defence"]
                words.show(words.words, extra)

    def _clock(self, look: ClockLook) -> None:
        if self.clock_label.text != look.text:
            self.clock_label.text = look.text
        colour = CLOCK_COLOURS[look.tone]
        if tuple(self.clock_label.color) != tuple(colour):  # a change costs a redraw
            self.clock_label.color = colour
        if self.go.text != look.go:
            self.go.text = look.go


__all__ = ["ArenaScreen", "BetweenScreen", "PlayerPanel"]
