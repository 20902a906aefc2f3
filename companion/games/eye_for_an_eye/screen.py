"""Eye for an Eye's screens (Kivy): the arena and the between-rounds table.

The arena: the round clock, one panel per seat (character, health, cup, parry countdown,
actions), the count bar, the call log, undo and redo, the live dice picture beside the log
when the settings ask for it. Between rounds: the round's ranking and points, the match
points, the next round or the winner. The screens keep no rule: every tap goes to the arena's
calls (:class:`~companion.games.eye_for_an_eye.calls.ArenaCalls`), which ask the engine.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from kivy.clock import Clock
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
from companion.frame import GameFrame
from companion.games.eye_for_an_eye.calls import ArenaCalls, CallBuilder
from companion.widgets import fmt_clock, fmt_clock_at, show_picture, w
from rules import Event
from rules.eye_for_an_eye.game import SeatView
from rules.eye_for_an_eye.scoring import RoundRow

ACTION_LABELS = (("movement", "Move"), ("attack", "Attack"), ("defence", "Parry"),
                 ("heal", "Heal"), ("innate", "Innate"), ("unblockable", "Unblock."))


class PlayerPanel(BoxLayout):
    """One seat: colour, character, health, cup, knocked-out state, parry countdown, actions."""

    def __init__(self, host: Host, arena: ArenaScreen, seat: int, player: str,
                 **kwargs: Any) -> None:
        super().__init__(orientation="vertical", spacing=3, padding=3, **kwargs)
        self.host = host
        self.player = player
        self.colour = theme.player_colour(host.settings.palette, seat)
        self.bg = w("Panel", bg=theme.PANEL)
        self.header = w("TButton", background_color=self.colour,
                        color=theme.text_on(self.colour), size_hint_y=None, height=58,
                        font_size=host.fs(19), bold=True, halign="center", shorten=False,
                        on_release=lambda *_: arena.tap_target(self.player))
        self.add_widget(self.header)
        self.health = w("TLabel", text="", size_hint_y=None, height=28, font_size=host.fs(21),
                        bold=True)
        self.add_widget(self.health)
        self.bar = w("Bar", size_hint_y=None, height=12, fill=self.colour)
        self.add_widget(self.bar)
        self.cup = w("TLabel", text="", size_hint_y=None, height=26, font_size=host.fs(16))
        self.add_widget(self.cup)
        self.parry = w("TLabel", text="", size_hint_y=None, height=0, bold=True,
                       font_size=host.fs(22), color=theme.ACCENT, opacity=0)
        self.add_widget(self.parry)
        self.actions = GridLayout(cols=2, spacing=3)
        self.buttons: dict[str, Any] = {}
        self.labels = dict(ACTION_LABELS)  # what each action button says for this character
        for key, label in ACTION_LABELS:
            b = w("TButton", text=label, font_size=host.fs(16),
                  on_release=lambda *_, k=key: arena.tap_action(self.player, k))
            self.buttons[key] = b
            self.actions.add_widget(b)
        self.add_widget(self.actions)
        # While an attack wants a target: this seat's figures, when it has several (Echo and
        # his Guards), take the actions' place, so the figure is tap 3 like any target.
        self.figures = GridLayout(cols=2, spacing=3)
        self.figure_buttons: dict[str, Any] = {}
        self.arena = arena

    def _show_figures(self, figures: Sequence[tuple[str, int, int]] | None) -> None:
        """Swap the action buttons for one button per standing figure (None: back)."""
        if figures is None:
            if self.figures.parent is not None:
                self.remove_widget(self.figures)
                self.add_widget(self.actions)
            return
        names = [f[0] for f in figures]
        if list(self.figure_buttons) != names:
            self.figures.clear_widgets()
            self.figure_buttons = {}
            for name in names:
                b = w("TButton", text=name, font_size=self.host.fs(16),
                      background_color=theme.ACCENT, color=(0, 0, 0, 1),
                      on_release=lambda *_, n=name: self.arena.tap_target_figure(n))
                self.figure_buttons[name] = b
                self.figures.add_widget(b)
        for name, health, most in figures:
            self.figure_buttons[name].text = f"{name}  {health}/{most}"
        if self.actions.parent is not None:
            self.remove_widget(self.actions)
            self.add_widget(self.figures)

    def show(self, seat: SeatView, parry_left: float | None, building: CallBuilder) -> None:
        short = seat.character.short
        name = short if short == seat.player else f"{short}  ({seat.player})"
        targeting = building.needs_target and building.actor != seat.player
        if seat.knocked_out:
            self.header.text = f"{name}\nKNOCKED OUT"
            self.header.background_color = (0.35, 0.35, 0.38, 1)
            self.header.color = theme.TEXT
        elif targeting and building.proposed == seat.player:
            self.header.text = f">> {name} <<\nlet go to hit"
            self.header.background_color = theme.ACCENT
            self.header.color = (0, 0, 0, 1)
        elif targeting:
            self.header.text = f"{name}\n> TARGET <"
            self.header.background_color = theme.ACCENT
            self.header.color = (0, 0, 0, 1)
        else:
            self.header.text = name + (f"\n{seat.team}" if seat.team else "")
            self.header.background_color = self.colour
            self.header.color = theme.text_on(self.colour)
        self.health.text = f"Health {seat.health}/{seat.max_health}"
        self.bar.value = seat.health / max(1, seat.max_health)
        cup = f"Cup {seat.cup}"
        if seat.trophies:
            cup += "  [" + ", ".join(seat.trophies) + "]"
        if seat.allocation:
            short_of = {k: dict(ACTION_LABELS).get(k, k.removeprefix("card:"))
                        for k in seat.allocation}
            cup += "  On board: " + " ".join(f"{short_of[k]} {n}" for k, n in
                                            seat.allocation.items())
        self.cup.text = cup
        if parry_left is not None:
            self.parry.text = f"PARRY?  {parry_left:0.1f}s"
            self.parry.height, self.parry.opacity = 30, 1
        else:
            self.parry.text, self.parry.height, self.parry.opacity = "", 0, 0
        for key, b in self.buttons.items():
            label = dict(ACTION_LABELS)[key]
            action = seat.character.actions.get(key)
            board = action.name if action is not None else None
            if key in ("attack", "innate") and board and not board.startswith(f"{short}'s "):
                label = board
            b.text = self.labels[key] = label
            chosen = building.actor == seat.player and building.action == key
            chosen = chosen or (key == "defence" and parry_left is not None
                                and not building.active)
            b.background_color = theme.SELECT if chosen else theme.BUTTON
            b.disabled = seat.knocked_out
        standing = [f for f in seat.figures if f[1] > 0]
        self._show_figures(standing if targeting and len(standing) > 1 else None)
        self.opacity = 0.55 if seat.knocked_out else 1.0


class ArenaScreen(Screen):
    """The round clock, one panel per seat, the count bar, the call log, undo and redo."""

    def __init__(self, host: Host, calls: ArenaCalls, **kwargs: Any) -> None:
        super().__init__(name="arena", **kwargs)
        self.host = host
        self.calls = calls
        self.root_box = w("Panel", orientation="vertical", padding=4, spacing=4,
                          bg=theme.BACKGROUND)
        self.clock_label = w("TLabel", text="0:00", size_hint_x=None, width=120, bold=True,
                             font_size=host.fs(42))
        self.go = w("TBigButton", text="Yarra Mark!", size_hint_x=None, width=150,
                    font_size=host.fs(20), on_release=lambda *_: self.toggle_clock())
        self.frame = GameFrame(host, extras=[self.clock_label, self.go], height=64,
                               game=lambda: self.calls.game,
                               menu=lambda: [("Tribal cards & disputes", self.open_more)])
        self.round_label = self.frame.title
        self.undo_b, self.redo_b = self.frame.undo, self.frame.redo
        self.root_box.add_widget(self.frame)
        middle = BoxLayout(spacing=4)
        self.panels_box = BoxLayout(spacing=4)
        middle.add_widget(self.panels_box)
        log_col = w("Panel", orientation="vertical", size_hint_x=0.24, padding=4)
        self.log_col = log_col
        # The live dice view beside the arena (Settings: Dice view), above the call log.
        self.picture = Image(fit_mode="contain", size_hint_y=None, height=0, opacity=0)
        self.picture.bind(on_touch_down=lambda wid, t: self._picture_tapped(t))
        self._picture_poll: Any = None
        self._picture_frame = 0
        log_col.add_widget(self.picture)
        log_col.add_widget(w("TLabel", text="Calls", size_hint_y=None, height=24,
                             font_size=host.fs(15), color=theme.MUTED))
        # Newest call first; lines that do not fit are clipped by the label itself. (A
        # ScrollView here kept the window redrawing a few times a second while idle.)
        self.log_label = Label(text="", halign="left", valign="top", color=theme.TEXT,
                               font_size=host.fs(14))
        self.log_label.bind(size=lambda wid, v: setattr(wid, "text_size", v))
        log_col.add_widget(self.log_label)
        middle.add_widget(log_col)
        self.root_box.add_widget(middle)
        bottom = BoxLayout(size_hint_y=None, height=60, spacing=4)
        self.prompt = w("TLabel", text="", size_hint_x=0.26, font_size=host.fs(15),
                        halign="left", shorten=False)
        self.prompt.bind(size=lambda wid, v: setattr(wid, "text_size", v))
        bottom.add_widget(self.prompt)
        self.count_buttons = []
        for n in range(1, 7):
            b = w("TButton", text=str(n), font_size=host.fs(24), bold=True, size_hint_x=0.09,
                  color=(0, 0, 0, 1), background_color=theme.COUNT,
                  on_release=lambda *_, n=n: calls.tap_count(n))
            self.count_buttons.append(b)
            bottom.add_widget(b)
        self.rear_b = w("TButton", text="Rear", size_hint_x=0.1,
                        on_release=lambda *_: calls.toggle_rear())
        bottom.add_widget(self.rear_b)
        bottom.add_widget(w("TButton", text="Cancel", size_hint_x=0.14,
                            on_release=lambda *_: calls.cancel()))
        self.root_box.add_widget(bottom)
        self.add_widget(self.root_box)
        self.panels: dict[str, PlayerPanel] = {}
        self.figure_view: ModalView | None = None
        self.more_view: ModalView | None = None
        self.build_panels()

    # -- taps ------------------------------------------------------------------------------

    def tap_action(self, player: str, action: str) -> None:
        self.calls.tap_action(player, action)

    def tap_target(self, player: str) -> None:
        if self.calls.builder.needs_target:
            figures = self.calls.figures_to_target(player)
            if figures:
                self.choose_figure(player, figures)
            else:
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
        if self.host.settings.dice_view != "beside the arena" or camera is None:
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

    def choose_figure(self, player: str, figures: Sequence[tuple[str, int, int]]) -> None:
        """Tap 3 on a character with several figures: which one is hit (Echo's Guards)."""
        view = ModalView(size_hint=(0.9, None), height=200, auto_dismiss=True)
        box = w("Panel", orientation="vertical", padding=8, spacing=6, bg=theme.PANEL)
        box.add_widget(w("THeading", text=f"Which of {self.calls.seat_of(player).character.short}"
                         "'s figures?", size_hint_y=None, height=40))
        row = GridLayout(cols=min(5, len(figures)), spacing=4, row_default_height=64,
                         row_force_default=True)

        def pick(name: str) -> None:
            view.dismiss(animation=False)
            self.calls.tap_target(name)

        for name, health, most in figures:
            row.add_widget(w("TButton", text=f"{name}: {health}/{most}", halign="center",
                             font_size=self.host.fs(17),
                             on_release=lambda *_, n=name: pick(n)))
        box.add_widget(row)
        box.add_widget(w("TButton", text="Cancel", size_hint_y=None, height=56,
                         on_release=lambda *_: view.dismiss(animation=False)))
        view.add_widget(box)
        self.figure_view = view
        view.open(animation=False)

    def open_more(self) -> None:
        """Calls a panel has no room for (tribal cards, a dispute), and the settings."""
        calls = self.calls
        view = ModalView(size_hint=(0.96, 0.94), auto_dismiss=True)
        box = w("Panel", orientation="vertical", padding=8, spacing=6, bg=theme.PANEL)
        grid = GridLayout(cols=3, spacing=4, size_hint_y=None, row_default_height=56,
                          row_force_default=True)
        grid.bind(minimum_height=grid.setter("height"))

        def call(make: Callable[[], object]) -> None:
            view.dismiss(animation=False)
            make()
            self.refresh()

        cards = calls.card_calls()
        for found in cards.values():
            for c in found:
                grid.add_widget(w("TButton", text=c.text(), font_size=self.host.fs(15),
                                  shorten=True,
                                  on_release=lambda *_, c=c: call(
                                      lambda: calls.session.try_call(c))))
        if not cards:
            grid.add_widget(w("TLabel", text="No tribal card can be readied or used now",
                              color=theme.MUTED))
        scroll = ScrollView(do_scroll_x=False)
        scroll.add_widget(grid)
        box.add_widget(w("THeading", text="Tribal cards", size_hint_y=None, height=36))
        box.add_widget(scroll)
        box.add_widget(w("THeading", text="Dispute: tap who is involved",
                         size_hint_y=None, height=36))
        row = BoxLayout(size_hint_y=None, height=56, spacing=4)
        chosen: list[str] = []

        def toggle(button: Any, player: str) -> None:
            if player in chosen:
                chosen.remove(player)
                button.background_color = theme.BUTTON
            else:
                chosen.append(player)
                button.background_color = theme.SELECT

        for seat in calls.seats():
            if not seat.knocked_out:
                b = w("TButton", text=seat.character.short, font_size=self.host.fs(15))
                b.bind(on_release=lambda btn, p=seat.player: toggle(btn, p))
                row.add_widget(b)
        row.add_widget(w("TButton", text="Clear their dice", background_color=theme.ACCENT,
                         color=(0, 0, 0, 1),
                         on_release=lambda *_: call(lambda: calls.dispute(chosen))))
        box.add_widget(row)
        bottom = BoxLayout(size_hint_y=None, height=56, spacing=4)

        def settings() -> None:
            view.dismiss(animation=False)
            self.host.show("settings")

        bottom.add_widget(w("TButton", text="Settings", on_release=lambda *_: settings()))
        bottom.add_widget(w("TButton", text="Close",
                            on_release=lambda *_: view.dismiss(animation=False)))
        box.add_widget(bottom)
        view.add_widget(box)
        self.more_view = view
        view.open(animation=False)

    def build_panels(self) -> None:
        self.panels_box.clear_widgets()
        self.panels = {}
        seats = self.calls.seats()
        # Five or six panels need the room of the call log (touch targets stay >= 48 px).
        self.log_col.size_hint_x = 0.24 if len(seats) <= 4 else 0.14
        for i, seat in enumerate(seats):
            panel = PlayerPanel(self.host, self, i, seat.player)
            self.panels[seat.player] = panel
            self.panels_box.add_widget(panel)

    def refresh(self) -> None:
        calls = self.calls
        session = calls.session
        game = calls.game
        b = calls.builder
        for seat in calls.seats():
            panel = self.panels.get(seat.player)
            if panel is not None:
                panel.show(seat, calls.parry_left(seat.player), b)
        self.refresh_clock()
        total = game.rounds_total
        number = game.state.round_number
        self.round_label.text = ("Tie-break" if number > total else f"Round {number}/{total}")
        self.frame.refresh()
        for btn in self.count_buttons:
            btn.background_color = theme.ACCENT if b.needs_count else theme.COUNT
        self.rear_b.background_color = theme.SELECT if b.rear else theme.BUTTON
        if session.message:
            self.prompt.text = session.message
            self.prompt.color = theme.DANGER
        else:
            self.prompt.color = theme.TEXT
            what = ""
            if b.actor is not None and b.action is not None:
                seat = calls.seat_of(b.actor)
                action = seat.character.actions.get(b.action)
                what = f"{seat.character.short}: " + (action.name if action is not None
                                                     else b.action.title())
            if b.needs_count:
                self.prompt.text = f"{what}\nhow many?"
            elif b.needs_target:
                rear = " (rear)" if b.rear else ""
                self.prompt.text = f"{what} {b.count}{rear}\ntap the target"
            else:
                self.prompt.text = "Tap an action on a panel"
        lines = [f"{fmt_clock_at(e.at)} {e.call}" for e in session.log[-14:]]
        self.log_label.text = "\n".join(reversed(lines))

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
        if panel is not None and action in panel.buttons:
            panel.buttons[action].text = f"{panel.labels[action]} x{count}"
            panel.buttons[action].background_color = theme.SELECT
        self.prompt.text = f"{s.character.short}: {label} {count}...\npress again to add"
        self.prompt.color = theme.TEXT

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
            left = self.calls.parry_left(player)
            if left is not None:
                panel.parry.text = f"PARRY?  {left:0.1f}s"


def result_row(row: RoundRow) -> tuple[str, int, int, int, int, int]:
    """(side, cup, standing bonus, score, rank, points) of a round's result row."""
    return (row.side, row.cup, row.standing_bonus, row.score, row.rank, row.points)


class BetweenScreen(Screen):
    """Round ranking and points, match standings, next round, final winner, tie-break."""

    def __init__(self, host: Host, calls: ArenaCalls, **kwargs: Any) -> None:
        super().__init__(name="between", **kwargs)
        self.host = host
        self.calls = calls
        root = w("Panel", orientation="vertical", padding=10, spacing=6, bg=theme.BACKGROUND)
        self.title = w("THeading", text="", size_hint_y=None, height=50,
                       font_size=host.fs(28))
        root.add_widget(self.title)
        body = BoxLayout(spacing=12)
        self.table = GridLayout(cols=6, spacing=2, size_hint_x=0.62, row_default_height=40,
                                row_force_default=True)
        body.add_widget(self.table)
        right = BoxLayout(orientation="vertical", spacing=2, size_hint_x=0.38)
        right.add_widget(w("THeading", text="Match points", size_hint_y=None, height=40))
        self.match = GridLayout(cols=2, spacing=2, row_default_height=38,
                                row_force_default=True)
        right.add_widget(self.match)
        body.add_widget(right)
        root.add_widget(body)
        self.note = w("TLabel", text="", size_hint_y=None, height=36, color=theme.ACCENT)
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

    def refresh(self, events: Sequence[Event] = ()) -> None:
        game = self.calls.game
        results = game.round_results()
        self.table.clear_widgets()
        for h in ("Rank", "Side", "Cup", "Bonus", "Score", "Points"):
            self.table.add_widget(w("TLabel", text=h, color=theme.MUTED,
                                    font_size=self.host.fs(16)))
        last = results[-1] if results else None
        if last is not None:
            for side, cup, bonus, score, rank, points in (result_row(r) for r in last.rows):
                for v in (rank, side, cup, bonus, score, f"+{points}"):
                    self.table.add_widget(w("TLabel", text=str(v)))
        self.match.clear_widgets()
        for side, p in sorted(game.match_points().items(), key=lambda kv: -kv[1]):
            self.match.add_widget(w("TLabel", text=str(side), halign="left"))
            self.match.add_widget(w("TLabel", text=str(p)))
        number = last.number if last is not None else game.state.round_number
        if game.is_over:
            winner = game.winner
            self.title.text = f"Winner: {winner}" if winner else "The match is over"
            self.next_b.text = "New game"
        else:
            self.title.text = f"Round {number} results"
            self.next_b.text = "Next round"
        notes = [e.text for e in events if e.kind in ("tie-break", "match-over")]
        if last is not None and last.ended_by:
            notes.insert(0, f"Round ended by {last.ended_by}")
        if last is not None and last.tiebreak:
            notes.insert(0, "Tie-break round")
        total = game.rounds_total
        if not game.is_over:
            if number >= total:  # the match is not over after its last round: a tie
                if not any(e.kind == "tie-break" for e in events):
                    notes.append("Tied: a tie-break round is next")
                self.next_b.text = "Tie-break round"
            else:
                notes.append(f"{total - number} round(s) to play")
        self.note.text = ".  ".join(notes)


__all__ = ["ACTION_LABELS", "ArenaScreen", "BetweenScreen", "PlayerPanel", "result_row"]
