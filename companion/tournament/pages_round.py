"""The Tournament screen's Round page (Kivy): the round's tables, their seats and results,
and the dialog that types, corrects or settles one table's result.
"""

from __future__ import annotations

from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.modalview import ModalView
from kivy.uix.widget import Widget

import rules
from companion import theme
from companion.tournament.page import (
    ORDINALS,
    ROW,
    Page,
    PageHost,
    column,
    para,
    place_index,
    placings_of,
    scroller,
)
from companion.tournament.wording import (
    stage_words,
)
from companion.widgets import w
from companion.words import plural
from rules.core import Placings
from rules.tournament import Tournament, TournamentError, format_placings


class RoundPage(Page):
    title = "Round"

    def __init__(self, screen: PageHost) -> None:
        super().__init__(screen)
        top = BoxLayout(size_hint_y=None, height=ROW, spacing=6)
        self.prev = w("TButton", text="<", size_hint_x=None, width=56,
                      on_release=lambda *_: self.step(-1))
        self.label = w("TLabel", text="", halign="left")
        self.next = w("TButton", text=">", size_hint_x=None, width=56,
                      on_release=lambda *_: self.step(1))
        self.draw = w("TBigButton", text="Draw round 1", size_hint_x=None, width=250,
                      on_release=lambda *_: self.draw_next())
        for widget in (self.prev, self.label, self.next, self.draw):
            top.add_widget(widget)
        self.root.add_widget(top)
        self.message = para(self.app, "", size=16, color=theme.DANGER)
        self.root.add_widget(self.message)
        self.tables = column(6)
        self.root.add_widget(scroller(self.tables))
        self.viewing: int | None = None  # the round shown (None: the current one)
        self.rows: dict[int, dict[str, Any]] = {}  # table -> its buttons, by what they do

    def step(self, by: int) -> None:
        desk = self.hub.desk
        if desk is None:
            return
        with desk.lock:
            count = len(desk.tournament_view().rounds)
        now = self.viewing or count
        self.viewing = max(1, min(count, now + by))
        if self.viewing == count:
            self.viewing = None
        self.refresh()

    def draw_next(self) -> None:
        try:
            number = self.hub.draw_next()
        except TournamentError as e:
            self.say(self.message, str(e))
            return
        self.viewing = None
        told = " The tables have their seating." if self.hub.service is not None else ""
        self.say(self.message, f"Round {number} drawn.{told}", ok=True)

    def refresh(self) -> None:
        desk = self.hub.desk
        if desk is None:
            return
        t = desk.tournament
        rounds = t.rounds
        count = len(rounds)
        shown = self.viewing or count
        self.prev.disabled = shown <= 1
        self.next.disabled = shown >= count
        can_draw = (t.current is None or t.current.complete) and not t.is_over and \
            t.next_stage() is not None and len(t.active()) >= 2
        self.draw.disabled = not can_draw
        self.draw.text = "Over" if t.is_over else f"Draw round {count + 1}"
        self.tables.clear_widgets()
        self.rows = {}
        if not rounds:
            self.label.text = "No round yet"
            unit = "team" if t.format.alliances else "entrant"
            self.tables.add_widget(para(self.app, f"{plural(len(t.active()), unit)}. Add them "
                                        "(Entrants), then draw round 1.", color=theme.MUTED))
            return
        r = rounds[shown - 1]
        left = len(t.missing()) if shown == count else 0
        self.label.text = f"Round {r.number}: {stage_words(r.stage)}"
        if t.is_over and shown == count:
            self.label.text += f" (over: {t.winner()} wins)"
        elif left:
            self.label.text += f", {left} {'table' if left == 1 else 'tables'} playing"
        elif shown == count and r.complete:
            self.label.text += ", every result is in"
        recent = self.hub.recent_games() if shown == count else []
        for table in r.tables:
            self.tables.add_widget(self.table_row(t, r.number, table.number, shown == count,
                                                  recent))
        if r.byes:
            self.tables.add_widget(para(self.app, "Bye: " + ", ".join(r.byes),
                                        color=theme.MUTED))

    def table_row(self, t: Tournament, number: int, table: int, current: bool,
                  recent: list[Any]) -> Widget:
        r = t.rounds[number - 1]
        tb = r.table(table)
        result = r.results.get(table)
        conflict = table in r.conflicts
        head = f"[b]Table {table}[/b]" + (f"  group {tb.group}" if tb.group and
                                           tb.group != "final" else "")
        if conflict:
            state = "[color=#d65f00]two results disagree: settle it[/color]"
        elif result is not None:
            state = format_placings(result.placings) + (
                "  (corrected)" if result.reason else "")
        else:
            state = "[color=#a6abb8]playing[/color]"
        row: Widget = w("Panel", size_hint_y=None, spacing=6, padding=6, bg=theme.PANEL)
        text = para(self.app, f"{head}\n{', '.join(tb.seats)}\n{state}", size=17,
                    pos_hint={"top": 1})
        row.add_widget(text)
        buttons = BoxLayout(orientation="vertical", spacing=4, size_hint_x=None, width=170)
        found: dict[str, Any] = {}
        if conflict:
            found["settle"] = w("TButton", text="Settle", background_color=theme.DANGER,
                                on_release=lambda *_: self.open_result(number, table,
                                                                       "correct"))
        elif result is not None:
            found["correct"] = w("TButton", text="Correct",
                                 on_release=lambda *_: self.open_result(number, table,
                                                                        "correct"))
        elif current:
            found["result"] = w("TButton", text="Type result",
                                on_release=lambda *_: self.open_result(number, table,
                                                                       "report"))
            setup = t.table_setup(number, table)
            on = self.hub.game_on(setup, recent)
            found["play"] = w("TButton", text="Back to game" if on == "on" else
                              "Resume here" if on == "unfinished" else "Play here",
                              on_release=lambda *_: self.play(setup))
        for button in found.values():
            button.size_hint_y = None
            button.height = ROW
            buttons.add_widget(button)
        row.add_widget(buttons)
        self.rows[table] = found

        def fit(*_: Any) -> None:
            row.height = max(text.height, len(found) * (ROW + 4)) + 12

        text.bind(height=fit)
        fit()
        return row

    def play(self, setup: rules.Setup) -> None:
        try:
            self.hub.play(setup)
        except rules.RulesError as e:
            self.say(self.message, str(e))

    def open_result(self, number: int, table: int, mode: str) -> None:
        ResultDialog(self.screen, number, table, mode).open()


class ResultDialog:
    """Type a table's result in, or correct one (with the preview of what it changes), or
    settle a conflict by choosing one of the results that disagree."""

    def __init__(self, screen: PageHost, number: int, table: int, mode: str) -> None:
        self.screen = screen
        self.app = screen.app
        self.hub = screen.hub
        self.number, self.table, self.mode = number, table, mode
        desk = self.hub.desk
        assert desk is not None
        t = desk.tournament
        r = t.rounds[number - 1]
        self.seats = r.table(table).seats
        held = r.results.get(table)
        self.view = ModalView(size_hint=(0.98, 0.96), auto_dismiss=False)
        box = w("Panel", orientation="vertical", padding=8, spacing=6, bg=theme.PANEL)
        verb = "Correct" if mode == "correct" else "Result of"
        box.add_widget(w("THeading", text=f"{verb} round {number}, table {table}",
                         size_hint_y=None, height=40))
        body = BoxLayout(spacing=10)
        seats = column(4)
        self.spins: dict[str, Any] = {}
        places = place_index(held.placings) if held is not None else {
            s: i for i, s in enumerate(self.seats)}
        values = list(ORDINALS[:len(self.seats)])
        for seat in self.seats:
            line = BoxLayout(size_hint_y=None, height=ROW, spacing=4)
            line.add_widget(w("TLabel", text=seat, halign="left"))
            spin = w("TSpinner", text=values[places.get(seat, 0)], values=values,
                     size_hint_x=None, width=110)
            spin.bind(text=lambda *_: self.changed())
            self.spins[seat] = spin
            line.add_widget(spin)
            seats.add_widget(line)
        left = BoxLayout(orientation="vertical", size_hint_x=0.5, spacing=4)
        left.add_widget(para(self.app, "Places (the same place: a tie)", size=15,
                             color=theme.MUTED))
        left.add_widget(scroller(seats))
        body.add_widget(left)
        info = column(6)
        self.use_buttons: list[Any] = []
        others = [c for rn, n, h, cs in t.conflicts() if (rn, n) == (number, table)
                  for c in cs]
        if held is not None and mode == "correct" and not others:
            info.add_widget(para(self.app, f"Counted now: {format_placings(held.placings)} "
                                 f"(from {held.source})", size=16))
        elif held is not None and mode == "correct":
            choices = [(held.placings, f"counted, from {held.source}")] + [
                (c.placings, f"from {c.source}") for c in others]
            info.add_widget(para(self.app, "Two results disagree. Choose one, or set the "
                                 "places:", size=16, color=theme.DANGER))
            for placings, source in choices:
                line = BoxLayout(size_hint_y=None, spacing=4)
                said = para(self.app, f"{format_placings(placings)} ({source})", size=16)
                line.add_widget(said)
                use = w("TButton", text="Use", size_hint_x=None, width=80,
                        on_release=lambda *_, p=placings: self.use(p))
                self.use_buttons.append(use)
                line.add_widget(use)
                said.bind(height=lambda wid, h, ln=line: setattr(ln, "height", max(h, ROW)))
                line.height = ROW
                info.add_widget(line)
        self.preview_label = para(self.app, "", size=16, color=theme.MUTED)
        info.add_widget(self.preview_label)
        body.add_widget(scroller(info))
        box.add_widget(body)
        bottom = BoxLayout(size_hint_y=None, height=60, spacing=6)
        bottom.add_widget(w("TButton", text="Cancel", on_release=lambda *_: self.close()))
        self.preview_button = w("TButton", text="Preview", on_release=lambda *_:
                                self.preview())
        self.confirm = w("TBigButton", text="Record" if mode == "report" else "Confirm",
                         on_release=lambda *_: self.commit())
        if mode == "correct":
            bottom.add_widget(self.preview_button)
            self.confirm.disabled = True  # the organiser sees what changes first
        bottom.add_widget(self.confirm)
        box.add_widget(bottom)
        self.view.add_widget(box)
        screen.dialog = self

    def open(self) -> None:
        self.view.open(animation=False)

    def close(self) -> None:
        self.view.dismiss(animation=False)
        if self.screen.dialog is self:
            self.screen.dialog = None

    def placings(self) -> Placings:
        index = {v: i for i, v in enumerate(ORDINALS)}
        return placings_of([(s, index[self.spins[s].text]) for s in self.seats])

    def use(self, placings: Placings) -> None:
        places = place_index(placings)
        for seat, spin in self.spins.items():
            spin.text = ORDINALS[places[seat]]
        self.preview()

    def changed(self) -> None:
        if self.mode == "correct":
            self.confirm.disabled = True
            self.preview_label.text = "Tap Preview to see what this changes."
            self.preview_label.color = theme.MUTED

    def preview(self) -> None:
        try:
            change = self.hub.preview(self.number, self.table, self.placings())
        except TournamentError as e:
            self.preview_label.text = str(e)
            self.preview_label.color = theme.DANGER
            return
        self.preview_label.text = "[b]Would change:[/b]\n" + change.text()
        self.preview_label.color = theme.TEXT
        self.confirm.disabled = False

    def commit(self) -> None:
        try:
            if self.mode == "correct":
                done = self.hub.correct(self.number, self.table, self.placings())
                said = "Corrected. " + done.text().replace("\n", "; ")
                ok = True
            else:
                outcome = self.hub.report_by_hand(self.number, self.table, self.placings())
                said = f"{outcome.status}: {outcome.text}"
                ok = outcome.status in ("recorded", "duplicate")
        except TournamentError as e:
            self.preview_label.text = str(e)
            self.preview_label.color = theme.DANGER
            return
        self.close()
        page = self.screen.pages.get("round")
        if isinstance(page, RoundPage):
            page.say(page.message, said, ok=ok)
