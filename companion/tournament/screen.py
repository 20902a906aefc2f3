"""The Tournament screen (Kivy): the director's desk and a table's seat, by touch.

One app screen, ``tournament`` (built when first opened: ``companion.compose``), whose pages
follow the companion's role in a tournament (:class:`~companion.tournament.hub.TournamentHub`):

- **director**: Round (draw the next round; each table's seats and result; type a result in,
  play a table's game here, correct a result with a preview of what changes, settle a
  conflict), Standings (with the tie-breaks), Final (the groups and the final), Entrants
  (add, from the players' names or typed; drop; a new tournament) and Network (serve or
  stop; each table's join code as a QR code and as text; the standings page's address);
- **table**: Join (type the join code on the screen's keypad, or show it to the camera) and
  This table (the seating of the round, starting that game with one tap, the report's state).

Every action goes through the hub, which journals it before the screen shows it. Network
threads reach the screen only through the hub, on the main thread.

Import this module only after Kivy's environment is set (see ``companion.commands.start``).
"""

from __future__ import annotations

import time
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
from kivy.utils import escape_markup

import rules
from companion import theme
from companion.contract import AppHost
from companion.games import playable_games
from companion.startcheck import SCREEN_NAME_CHARS
from companion.tournament.hub import TournamentHub, known_names
from companion.tournament.protocol import ALPHABET, JoinCode, ProtocolError
from companion.tournament.wording import (
    FORMATS,
    MODES,
    engine_name,
    game_words,
    round_words,
    stage_words,
    status_words,
)
from companion.widgets import NAME_KEYS, show_picture, w
from companion.words import plural
from rules.core import Placings
from rules.tournament import TIE_BREAKS, Tournament, TournamentError, format_placings

#: The keys of the join code keypad: the code's letters and digits, and its punctuation.
KEYS = (*ALPHABET, "-", ".", "@", ":")
ROW = 52  # a row of buttons
ORDINALS = ("1st", "2nd", "3rd", "4th", "5th", "6th", "7th", "8th")


def para(app: AppHost, text: str = "", size: float = 18, color: Any = theme.TEXT,
         halign: str = "left", **kwargs: Any) -> Label:
    """A label that wraps its text and grows to fit it (nothing is cut)."""
    label = Label(text=text, font_size=app.fs(size), color=color, halign=halign,
                  valign="top", size_hint_y=None, markup=True, **kwargs)
    label.bind(width=lambda wid, v: setattr(wid, "text_size", (v, None)),
               texture_size=lambda wid, v: setattr(wid, "height", v[1]))
    return label


def column(spacing: float = 6) -> BoxLayout:
    """A vertical box as tall as what it holds (to go in a ScrollView)."""
    box = BoxLayout(orientation="vertical", spacing=spacing, size_hint_y=None)
    box.bind(minimum_height=box.setter("height"))
    return box


def scroller(content: Widget) -> ScrollView:
    scroll = ScrollView(do_scroll_x=False, bar_width=10, scroll_type=["bars", "content"])
    scroll.add_widget(content)
    return scroll


def placings_of(places: Sequence[tuple[str, int]]) -> Placings:
    """Placings from (name, place index) pairs: the same place is a tie."""
    by_place: dict[int, list[str]] = {}
    for name, place in places:
        by_place.setdefault(place, []).append(name)
    return tuple(tuple(by_place[p]) for p in sorted(by_place))


def place_index(placings: Placings) -> dict[str, int]:
    """Each name's place (0 for first; tied names share the higher place)."""
    out: dict[str, int] = {}
    done = 0
    for group in placings:
        for name in group:
            out[name] = done
        done += len(group)
    return out


class Page:
    """One page of the Tournament screen: its widgets (``root``) and how it redraws."""

    title = ""

    def __init__(self, screen: TournamentScreen) -> None:
        self.screen = screen
        self.app = screen.app
        self.hub = screen.hub
        self.root: Widget = BoxLayout(orientation="vertical", spacing=6)

    def refresh(self) -> None:
        """Redraw from the hub (main thread)."""

    def leave(self) -> None:
        """The page is no longer shown."""

    def say(self, label: Label, text: str, ok: bool = False) -> None:
        label.text = text
        label.color = theme.ACCENT if ok else theme.DANGER


# -- pages that choose ----------------------------------------------------------------------


class HomePage(Page):
    title = "Tournament"

    def __init__(self, screen: TournamentScreen) -> None:
        super().__init__(screen)
        app = self.app
        self.root.add_widget(para(app, "A tournament across tables: one companion directs it "
                                  "(draws, results, standings, the standings page), every "
                                  "other companion is a table that joins with a code and "
                                  "reports its games by itself. One companion alone can run "
                                  "one too: results typed in, or games played at this table.",
                                  color=theme.MUTED))
        self.problem = para(app, "", color=theme.DANGER)
        self.root.add_widget(self.problem)
        row = BoxLayout(spacing=10, size_hint_y=None, height=96)
        row.add_widget(w("TBigButton", text="Run a tournament", on_release=lambda *_:
                         screen.show_page("new")))
        row.add_widget(w("TBigButton", text="Join as a table", on_release=lambda *_:
                         screen.show_page("join")))
        self.root.add_widget(row)
        self.root.add_widget(Widget())

    def refresh(self) -> None:
        self.problem.text = self.hub.problem


class NewPage(Page):
    title = "New tournament"

    def __init__(self, screen: TournamentScreen) -> None:
        super().__init__(screen)
        app = self.app
        # the game, format and mode in words; fmt() gives the engine's names
        self.games = {name: game_words(name) for name in playable_games()}
        games = list(self.games.values())
        self.name = w("TInput", text=time.strftime("Tournament %d %b"),
                      hint_text="the tournament's name")
        self.game = w("TSpinner", text=games[0] if games else "", values=games)
        self.style = w("TSpinner", text=FORMATS["eye-for-an-eye"],
                       values=list(FORMATS.values()))
        self.mode = w("TSpinner", text=MODES["every-eye"], values=list(MODES.values()))
        self.rounds = w("TSpinner", text="5", values=[str(n) for n in range(1, 10)])
        self.table_size = w("TSpinner", text="4", values=[str(n) for n in range(2, 7)])
        self.final_size = w("TSpinner", text="4", values=[str(n) for n in range(2, 7)])
        grid = GridLayout(cols=4, spacing=4, row_default_height=ROW, row_force_default=True,
                          size_hint_y=None, height=4 * ROW + 3 * 4)
        for label, widget in (("Name", self.name), ("Game", self.game), ("Format", self.style),
                              ("Mode", self.mode), ("Rounds", self.rounds),
                              ("Seats", self.table_size), ("Final", self.final_size)):
            grid.add_widget(w("TLabel", text=label, halign="right", size_hint_x=0.42))
            grid.add_widget(widget)
        self.root.add_widget(grid)
        # what the format is, in words (or what is wrong with it)
        self.describe = para(app, "", size=16, color=theme.MUTED)
        self.message = self.describe
        self.root.add_widget(scroller(self.describe))
        bottom = BoxLayout(size_hint_y=None, height=60, spacing=6)
        self.join = w("TButton", text="Join as a table instead",
                      on_release=lambda *_: screen.show_page("join"))
        bottom.add_widget(self.join)
        self.create_button = w("TBigButton", text="Create", size_hint_x=0.6,
                               on_release=lambda *_: self.create())
        bottom.add_widget(self.create_button)
        self.root.add_widget(bottom)
        self._fitting = False
        for spin in (self.game, self.style, self.mode, self.rounds, self.table_size,
                     self.final_size):
            spin.bind(text=lambda *_: self.check())

    def fmt(self) -> dict[str, Any]:
        game = engine_name(self.game.text, self.games)
        style = engine_name(self.style.text, FORMATS) if game == "eye-for-an-eye" else "groups"
        fmt: dict[str, Any] = {"game": game, "style": style, "rounds": int(self.rounds.text),
                               "table-size": int(self.table_size.text)}
        if style == "eye-for-an-eye":
            fmt["mode"] = engine_name(self.mode.text, MODES)
        else:
            fmt["final-size"] = int(self.final_size.text)
        return fmt

    def _fit_seats(self) -> None:
        """Seats and Final offer only what the game (and mode) takes: Alliances tables seat 2
        or 3 teams; a choice that no longer fits becomes the nearest that does."""
        from rules.tournament import Format

        fmt = self.fmt()
        for spin, sizes in ((self.table_size, Format.seats_per_table(fmt["game"],
                                                                 fmt.get("mode", "every-eye"))),
                            (self.final_size, Format.final_seats(fmt["game"]))):
            spin.values = [str(n) for n in sizes]
            if int(spin.text) not in sizes:
                spin.text = str(min(max(int(spin.text), sizes[0]), sizes[-1]))

    def check(self) -> None:
        from rules.tournament import Format

        if self._fitting:
            return
        self._fitting = True  # the seats' choices change here: one check, after
        try:
            self._fit_seats()
        finally:
            self._fitting = False
        fmt = self.fmt()
        eye = fmt["game"] == "eye-for-an-eye"
        self.style.disabled = not eye
        self.mode.disabled = fmt["style"] != "eye-for-an-eye"
        self.final_size.disabled = fmt["style"] == "eye-for-an-eye"
        try:
            text = Format.from_mapping(fmt).describe()
        except TournamentError as e:
            self.say(self.describe, str(e))
            self.create_button.disabled = True
            return
        unit = "teams" if fmt.get("mode") == "alliances" else "players"
        self.describe.text = (f"{text}. Seats: {unit} per table; Final: players at the "
                              "final table (group play).")
        self.describe.color = theme.MUTED
        self.create_button.disabled = False

    def refresh(self) -> None:
        self.join.disabled = self.hub.table is not None
        self.check()

    def create(self) -> None:
        try:
            self.hub.create(self.name.text, self.fmt())
        except (TournamentError, rules.RulesError) as e:
            self.say(self.message, str(e))
            return
        self.screen.show_page("entrants")


# -- the director's pages -------------------------------------------------------------------


class EntrantsPage(Page):
    title = "Entrants"

    def __init__(self, screen: TournamentScreen) -> None:
        super().__init__(screen)
        app = self.app
        body = BoxLayout(spacing=10)
        left = BoxLayout(orientation="vertical", spacing=4, size_hint_x=0.52)
        self.count = w("TLabel", text="", size_hint_y=None, height=34, halign="left",
                       color=theme.MUTED)
        left.add_widget(self.count)
        self.rows = column(4)
        left.add_widget(scroller(self.rows))
        body.add_widget(left)
        right = BoxLayout(orientation="vertical", spacing=6, size_hint_x=0.48)
        add = BoxLayout(size_hint_y=None, height=ROW, spacing=4)
        # typed on the players' names keyboard (what a name can hold, 16 characters at
        # most); Enter adds the name and keeps the keyboard up for the next one (a team's
        # name goes on to its members first)
        self.name = w("TInput", hint_text="name", keys=NAME_KEYS, max_chars=SCREEN_NAME_CHARS,
                      text_validate_unfocus=False, on_text_validate=lambda *_: self.entered())
        add.add_widget(self.name)
        add.add_widget(w("TButton", text="Add", size_hint_x=None, width=90,
                         on_release=lambda *_: self.add()))
        right.add_widget(add)
        self.members = w("TInput", hint_text="team members: Ana, Ben", size_hint_y=None,
                         height=0, opacity=0, disabled=True,
                         on_text_validate=lambda *_: self.add())
        right.add_widget(self.members)
        # messages in a fixed place, two lines high (shrinking to fit): a message never
        # pushes the names below it away from a finger
        self.message = w("TLabel", text="", font_size=app.fs(16), color=theme.DANGER,
                         halign="left", valign="top", size_hint_y=None,
                         height=round(app.fs(16) * 2.6), shorten=False)
        right.add_widget(self.message)
        self.names_label = w("TLabel", text="", halign="left", size_hint_y=None, height=30,
                             font_size=app.fs(16), color=theme.MUTED)
        right.add_widget(self.names_label)
        self.chips = GridLayout(cols=2, spacing=4, size_hint_y=None, row_default_height=ROW,
                                row_force_default=True)
        self.chips.bind(minimum_height=self.chips.setter("height"))
        right.add_widget(scroller(self.chips))
        self.new_button = w("TButton", text="New tournament", size_hint_y=None, height=ROW,
                            on_release=lambda *_: screen.show_page("new"))
        right.add_widget(self.new_button)
        body.add_widget(right)
        self.root.add_widget(body)
        self.buttons: dict[str, Any] = {}
        self.chip_buttons: dict[str, Any] = {}

    def refresh(self) -> None:
        desk = self.hub.desk
        if desk is None:
            return
        t = desk.tournament
        statuses = {row.name: row.status for row in t.standings()}
        alliances = t.format.alliances
        self.members.height, self.members.opacity = (ROW, 1) if alliances else (0, 0)
        self.members.disabled = not alliances
        self.name.hint_text = "team name" if alliances else "name"
        self.rows.clear_widgets()
        self.buttons = {}
        entrants = t.entrants()
        active = len(t.active())
        self.count.text = plural(len(entrants), "team" if alliances else "entrant") + (
            f", {active} playing" if active != len(entrants) else "")
        for x in entrants:
            row = BoxLayout(size_hint_y=None, height=ROW, spacing=4)
            status = statuses.get(x.name, "")
            text = x.name + (f" ({', '.join(x.members)})" if x.members else "")
            row.add_widget(w("TLabel", text=text, halign="left",
                             color=theme.MUTED if x.dropped is not None else theme.TEXT))
            if x.dropped is None:
                button = w("TButton", text="Drop", size_hint_x=None, width=90,
                           on_release=lambda *_, n=x.name: self.drop(n))
                self.buttons[x.name] = button
                row.add_widget(button)
            else:
                row.add_widget(w("TLabel", text=status or "dropped", size_hint_x=None,
                                 width=110, font_size=self.app.fs(15), color=theme.MUTED))
            self.rows.add_widget(row)
        taken = {x.name.casefold() for x in entrants} | {
            m.casefold() for x in entrants for m in x.members}
        # every known name keeps its place: one that is in is ticked there (and off), so
        # the next name a finger goes for is where it was
        known = known_names(self.hub)
        if list(self.chip_buttons) != known:
            self.chips.clear_widgets()
            self.chip_buttons = {}
            for name in known:
                chip = w("TButton", on_release=lambda *_, n=name: self.chip(n))
                self.chip_buttons[name] = chip
                self.chips.add_widget(chip)
        for name, chip in self.chip_buttons.items():
            chip.disabled = name.casefold() in taken
            chip.text = f"{name}: in" if name.casefold() in taken else name
        left = any(not c.disabled for c in self.chip_buttons.values())
        self.names_label.text = "Players' names (tap to add):" if left else \
            "Players' names: every one known is in." if self.chip_buttons else \
            "Type each name, then Enter or Add."

    def entered(self) -> None:
        """Enter on the name field: a team's members come next while none are typed, else
        the name (or team) is added."""
        if self.members.opacity and not self.members.text.strip() and self.name.text.strip():
            self.members.focus = True
            return
        self.add()

    def add(self, name: str = "") -> None:
        name = (name or self.name.text).strip()
        if not name:
            self.say(self.message, "Type a name, or tap one of the players' names.")
            return
        members: tuple[str, ...] = ()
        if self.members.opacity:
            members = tuple(m.strip() for m in self.members.text.split(",") if m.strip())
        try:
            warned = self.hub.add_entrant(name, members)
        except TournamentError as e:
            self.say(self.message, str(e))
            return
        if warned:  # added, but it looks like another entrant's name
            self.say(self.message, f"Added {name}. {warned}.")
        else:
            self.say(self.message, f"Added {name}.", ok=True)
        self.name.text = ""
        self.members.text = ""

    def chip(self, name: str) -> None:
        """A player's name tapped: an entrant; in Alliances, a member of the team typed."""
        if self.members.opacity:
            have = [m.strip() for m in self.members.text.split(",") if m.strip()]
            self.members.text = ", ".join([*have, name])
            return
        self.add(name)

    def drop(self, name: str) -> None:
        try:
            self.hub.drop(name)
            self.say(self.message, f"Dropped {name}: not drawn again; results played stand.",
                     ok=True)
        except TournamentError as e:
            self.say(self.message, str(e))


class RoundPage(Page):
    title = "Round"

    def __init__(self, screen: TournamentScreen) -> None:
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

    def __init__(self, screen: TournamentScreen, number: int, table: int, mode: str) -> None:
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


class StandingsPage(Page):
    title = "Standings"
    COLUMNS = (("#", 0.07), ("Name", 0.3), ("Pts", 0.1), ("Wins", 0.1), ("Opp", 0.1),
               ("Status", 0.33))

    def __init__(self, screen: TournamentScreen) -> None:
        super().__init__(screen)
        head = BoxLayout(size_hint_y=None, height=34, spacing=4)
        for name, share in self.COLUMNS:
            head.add_widget(w("TLabel", text=name, size_hint_x=share, color=theme.MUTED,
                              font_size=self.app.fs(16),
                              halign="left" if name in ("Name", "Status") else "center"))
        self.root.add_widget(head)
        self.rows = column(2)
        self.root.add_widget(scroller(self.rows))
        self.note = para(self.app, "", size=15, color=theme.MUTED)
        self.root.add_widget(self.note)

    @staticmethod
    def cell(text: str, share: float, size: float, color: Any, halign: str) -> Label:
        """One cell: wraps inside its column, never runs into the next."""
        label = Label(text=text, size_hint_x=share, font_size=size, color=color,
                      halign=halign, valign="middle", markup=True)
        label.bind(size=lambda wid, v: setattr(wid, "text_size", v))
        return label

    def refresh(self) -> None:
        desk = self.hub.desk
        if desk is None:
            return
        summary = desk.summary()
        t = desk.tournament
        self.rows.clear_widgets()
        size = self.app.fs(17)
        for i, x in enumerate(summary["standings"]):
            height = max(ROW - 8, size * (2.6 if x["tiebreak"] else 1.6))
            row = w("Panel", size_hint_y=None, height=height, spacing=4,
                    bg=theme.PANEL if i % 2 == 0 else theme.BACKGROUND)
            cells = (str(x["rank"]), x["name"], str(x["points"]), str(x["wins"]),
                     str(x["opponents"]))
            for (name, share), text in zip(self.COLUMNS, cells, strict=False):
                row.add_widget(self.cell(text, share, size, theme.TEXT,
                                         "left" if name == "Name" else "center"))
            status = status_words(t, x["name"], x["status"]) + (
                f"\n[color=#f0e342]{x['tiebreak']}[/color]" if x["tiebreak"] else "")
            row.add_widget(self.cell(status, self.COLUMNS[-1][1], self.app.fs(15),
                                     theme.MUTED, "left"))
            self.rows.add_widget(row)
        state = round_words(t) + " " if summary["round"] else ""
        self.note.text = (state + "Equal points are split by " + ", then ".join(
            TIE_BREAKS[1:]) + " (the tag says which). Opp: opponents' points.")


class FinalPage(Page):
    title = "Final"

    def __init__(self, screen: TournamentScreen) -> None:
        super().__init__(screen)
        self.lines = column(8)
        self.root.add_widget(scroller(self.lines))

    def refresh(self) -> None:
        desk = self.hub.desk
        if desk is None:
            return
        summary = desk.summary()
        t = desk.tournament
        self.lines.clear_widgets()
        add = self.lines.add_widget
        if summary["over"]:
            add(w("THeading", text=f"Winner: {summary['winner']}", size_hint_y=None,
                  height=44, color=theme.ACCENT))
            add(para(self.app, "\n".join(f"{i}. {x['name']} ({x['reached']})"
                                         for i, x in enumerate(summary["ranking"], 1))))
        if not summary["bracket"]:
            fmt = t.format
            rounds = sum(1 for r in t.rounds if r.stage in ("qualifying", "group"))
            what = "The elimination groups (A-D, then AD and BC) and the final" \
                if fmt.style == "eye-for-an-eye" else f"The final table of {fmt.final_size}"
            add(para(self.app, f"{what} are drawn from the standings after round "
                     f"{fmt.rounds} ({rounds} of {fmt.rounds} drawn so far).",
                     color=theme.MUTED))
            return
        bracket = summary["bracket"]
        for i, stage in enumerate(bracket):
            words = stage_words(stage["stage"])
            add(w("THeading", text=words[:1].upper() + words[1:], size_hint_y=None,
                  height=40))
            if not stage["groups"]:
                skipped = any(later["groups"] for later in bracket[i + 1:])
                add(para(self.app, "Not played with this many entrants." if skipped else
                         "Drawn when the round before is over.", color=theme.MUTED))
                continue
            for g in stage["groups"]:
                label = "The final" if g["group"] == "final" else f"Group {g['group']}"
                text = f"[b]{label}[/b]: {', '.join(g['members'])}"
                if g["result"]:
                    text += f"\n  result: {g['result']}"
                for tb in g["tiebreaks"]:
                    text += f"\n  tie-break: {tb}"
                if g["through"] and g["group"] != "final":
                    text += f"\n  [color=#f0e342]through: {', '.join(g['through'])}[/color]"
                if g["bye"]:
                    text += "  (bye)"
                add(para(self.app, text, size=17))


class NetworkPage(Page):
    title = "Network"

    def __init__(self, screen: TournamentScreen) -> None:
        super().__init__(screen)
        top = BoxLayout(size_hint_y=None, height=ROW, spacing=6)
        self.state = w("TLabel", text="", halign="left")
        top.add_widget(self.state)
        self.serve = w("TBigButton", text="Serve", size_hint_x=None, width=170,
                       on_release=lambda *_: self.toggle())
        top.add_widget(self.serve)
        self.root.add_widget(top)
        self.area = BoxLayout()
        self.root.add_widget(self.area)
        # not serving: what serving does
        self.off = column(6)
        self.explain = para(self.app, "", size=17, color=theme.MUTED)
        self.off.add_widget(self.explain)
        self.off_view = scroller(self.off)
        # serving: each table's code, as a QR code and as text; the page's address
        self.on = BoxLayout(spacing=10)
        self.qr = Image(fit_mode="contain", size_hint_x=None, width=300)
        self.qr_text = ""
        self.on.add_widget(self.qr)
        right = BoxLayout(orientation="vertical", spacing=6)
        pick = BoxLayout(size_hint_y=None, height=ROW, spacing=4)
        self.table_spin = w("TSpinner", text="", values=[])
        self.table_spin.bind(text=lambda *_: self.show_code())
        pick.add_widget(self.table_spin)
        self.more = w("TButton", text="+ table", size_hint_x=None, width=120,
                      on_release=lambda *_: self.hub.add_table())
        pick.add_widget(self.more)
        right.add_widget(pick)
        info = column(6)
        self.code = para(self.app, "", size=18)
        self.info = para(self.app, "", size=15, color=theme.MUTED)
        info.add_widget(self.code)
        info.add_widget(self.info)
        right.add_widget(scroller(info))
        self.on.add_widget(right)
        self.codes: dict[str, JoinCode] = {}
        self.serving: bool | None = None

    def toggle(self) -> None:
        hub = self.hub
        if hub.service is not None:
            hub.stop_serving()
        else:
            try:
                hub.serve()
            except TournamentError as e:
                hub.serve_error = str(e)
        self.refresh()

    def refresh(self) -> None:
        hub = self.hub
        state = hub.serve_state
        self.serve.text = {"serving": "Stop", "starting": "Starting",
                           "stopping": "Stopping"}.get(state, "Serve")
        self.serve.disabled = state in ("starting", "stopping") or hub.desk is None
        codes = hub.join_codes()
        online = hub.online()
        if state == "serving":
            up = sum(1 for c in codes if online.get(c.user))
            self.state.text = f"Serving: {up} of {len(codes)} tables online" + (
                "" if hub.receiving else ": director not receiving")
        else:
            self.state.text = {"starting": "Starting the broker...",
                               "stopping": "Stopping..."}.get(state, "Not serving")
        serving = bool(codes)
        if serving != self.serving:
            self.serving = serving
            self.area.clear_widgets()
            self.area.add_widget(self.on if serving else self.off_view)
        if not serving:
            why = f"\n\n[color=#d65f00]{hub.serve_error}[/color]" if hub.serve_error else ""
            self.explain.text = (
                "Serving opens the tournament to the table companions: its own broker "
                "(MQTT) for their seatings and reports, and the standings page for a "
                "projector and players' phones. No port is open until then, and none after "
                "Stop.\n\nOne box with no network needs none of it: type the results in, or "
                "play the games here (Round)." + why)
            self.codes = {}
            return
        self.codes = {f"Table {c.table}" + (" (online)" if online.get(c.user) else ""): c
                      for c in codes}
        self.table_spin.values = list(self.codes)
        by_table = {c.table: k for k, c in self.codes.items()}
        now = next((c for k, c in self.codes.items() if k.split(" (")[0] ==
                    self.table_spin.text.split(" (")[0]), None)
        self.table_spin.text = by_table[now.table if now else codes[0].table]
        self.show_code()

    def show_code(self) -> None:
        hub = self.hub
        code = self.codes.get(self.table_spin.text)
        if code is None:
            return
        if code.text() != self.qr_text:
            from companion.tournament.join import qr_rgb

            show_picture(self.qr, qr_rgb(code.text()))
            self.qr.texture.mag_filter = "nearest"  # crisp modules, scaled to fit
            self.qr_text = code.text()
        tid_table, _, where = code.text().partition("@")
        self.code.text = f"Table {code.table}'s join code:\n[b]{tid_table}\n@{where}[/b]"
        url = hub.page_url()
        lines = [f"Standings page: [b][color=#f5f5f5]{url}[/color][/b]" if url else
                 "No standings page."]
        lines.append("At each table: Tournament, Join as a table, then show it this QR "
                     "code or type the code. Keep the codes to yourself: a code lets a table "
                     "report.")
        if hub.serve_error:
            lines.append(f"[color=#d65f00]{hub.serve_error}[/color]")
        refused = hub.refused()
        if refused:
            lines.append(f"[color=#d65f00]{escape_markup(refused)}[/color]")
        lines += [escape_markup(line) for line in hub.log(3)]
        self.info.text = "\n".join(lines)


# -- the table's pages ----------------------------------------------------------------------


class JoinPage(Page):
    title = "Join"

    def __init__(self, screen: TournamentScreen) -> None:
        super().__init__(screen)
        app = self.app
        top = BoxLayout(size_hint_y=None, height=ROW, spacing=6)
        self.code = w("TInput", hint_text="the table's join code",
                      on_text_validate=lambda *_: self.join())
        top.add_widget(self.code)
        self.join_button = w("TBigButton", text="Join", size_hint_x=None, width=120,
                             on_release=lambda *_: self.join())
        top.add_widget(self.join_button)
        self.scan_button = w("TButton", text="Scan", size_hint_x=None, width=120,
                             on_release=lambda *_: self.toggle_scan())
        top.add_widget(self.scan_button)
        self.root.add_widget(top)
        self.message = para(app, "Type the code the director's screen shows for this table "
                            "(letters, digits, '-', '@', '.'), or tap Scan and hold its QR "
                            "code under the camera.", size=16, color=theme.MUTED)
        self.root.add_widget(self.message)
        self.area = BoxLayout()
        self.keypad = GridLayout(cols=10, spacing=4)
        self.keys: dict[str, Any] = {}
        for key in (*KEYS, "Del", "Clear"):
            button = w("TButton", text=key, font_size=app.fs(20),
                       on_release=lambda *_, k=key: self.key(k))
            self.keys[key] = button
            self.keypad.add_widget(button)
        self.area.add_widget(self.keypad)
        self.picture = Image(fit_mode="contain")
        self.root.add_widget(self.area)
        self.scanning = False
        self._poll: Any = None
        self._shown = -1

    def key(self, key: str) -> None:
        if key == "Del":
            self.code.text = self.code.text[:-1]
        elif key == "Clear":
            self.code.text = ""
        else:
            self.code.text += key

    def join(self, text: str = "") -> None:
        try:
            code = self.hub.join(text or self.code.text)
        except (ProtocolError, ValueError) as e:
            self.say(self.message, str(e))
            return
        self.stop_scan()
        self.screen.show_page("seat")
        self.screen.flash(f"Joined tournament {code.tournament} as table {code.table}.")

    def toggle_scan(self) -> None:
        if self.scanning:
            self.stop_scan()
            return
        why = self.hub.scan(lambda code: self.join(code.text()))
        if why:
            self.say(self.message, why)
            return
        self.scanning = True
        self.scan_button.text = "Keypad"
        self.area.clear_widgets()
        self.area.add_widget(self.picture)
        self.picture.opacity = 0
        camera = self.app.camera
        label = camera.label if camera is not None else ""
        self.say(self.message, f"Hold the QR code under the camera ({label}).", ok=True)
        self._poll = Clock.schedule_interval(lambda dt: self.show_camera(), 1 / 8)

    def show_camera(self) -> None:
        camera = self.app.camera
        snap = camera.latest() if camera is not None else None
        if camera is not None and camera.error:
            self.say(self.message, f"Camera error: {camera.error}")
        if snap is None or snap.index == self._shown:
            return
        self._shown = snap.index
        show_picture(self.picture, snap.rgb)

    def stop_scan(self) -> None:
        self.hub.stop_scan()
        if self._poll is not None:
            self._poll.cancel()
            self._poll = None
        if self.scanning:
            self.scanning = False
            self.scan_button.text = "Scan"
            self.area.clear_widgets()
            self.area.add_widget(self.keypad)

    def refresh(self) -> None:
        table = self.hub.table
        self.join_button.disabled = False
        if table is not None:
            self.say(self.message, f"This table is in tournament {table.code.tournament} "
                     f"(table {table.code.table}). Leave it (This table) to join another.")

    def leave(self) -> None:
        self.stop_scan()


class SeatPage(Page):
    title = "This table"

    def __init__(self, screen: TournamentScreen) -> None:
        super().__init__(screen)
        app = self.app
        self.head = para(app, "", size=20)
        self.root.add_widget(self.head)
        self.seats = GridLayout(cols=2, spacing=4, size_hint_y=None, row_default_height=ROW,
                                row_force_default=True)
        self.seats.bind(minimum_height=self.seats.setter("height"))
        self.root.add_widget(self.seats)
        self.start = w("TBigButton", text="Start this game", size_hint_y=None, height=58,
                       on_release=lambda *_: self.play())
        self.root.add_widget(self.start)
        self.report = para(app, "", size=17)
        self.root.add_widget(self.report)
        self.root.add_widget(Widget())
        bottom = BoxLayout(size_hint_y=None, height=ROW, spacing=6)
        self.link = para(app, "", size=15, color=theme.MUTED)
        bottom.add_widget(self.link)
        self.leave_button = w("TButton", text="Leave", size_hint_x=None, width=130,
                              on_release=lambda *_: self.leave_tournament())
        bottom.add_widget(self.leave_button)
        self.link.bind(height=lambda wid, h: setattr(bottom, "height", max(ROW, h)))
        self.root.add_widget(bottom)
        self.sure = 0.0  # when Leave was tapped once with reports still in the outbox
        self.report_word = ""

    def refresh(self) -> None:
        hub = self.hub
        table = hub.table
        self.seats.clear_widgets()
        if table is None:
            self.head.text = "This table is in no tournament."
            self.start.disabled = True
            self.report.text = self.link.text = ""
            return
        seating = hub.seating
        state = table.state
        code = table.code
        self.link.text = (f"Tournament {code.tournament}, table {code.table}: " + (
            f"connected to {code.host}:{code.port}." if hub.connected else
            f"[color=#d65f00]{table.refused}[/color]." if table.refused else
            f"not connected to {code.host}:{code.port}: trying again. Results wait in this "
            "table's outbox, nothing is lost.")) + (
            f" {len(table.pending())} report(s) waiting." if table.pending() else "")
        if state.get("over"):
            self.head.text = f"[b]{state.get('name', '')}[/b] is over. Winner: " \
                             f"{state.get('winner')}."
        if seating is None:
            if not state.get("over"):
                self.head.text = "Waiting for the director: no seating yet."
            self.start.disabled = True
            self.start.text = "Start this game"
            self.report.text = ""
            self.report_word = ""
            return
        if seating.table is None:
            self.head.text = (f"[b]{seating.name}[/b], round {seating.round}: no game at "
                              "this table this round.") if seating.round else \
                f"[b]{seating.name}[/b]: waiting for round 1 to be drawn."
            self.start.disabled = True
            self.report.text = ""
            self.report_word = ""
            return
        group = f", group {seating.group}" if seating.group and seating.group != "final" \
            else ""
        if not state.get("over"):
            self.head.text = (f"[b]{seating.name}[/b], round {seating.round} "
                              f"({stage_words(seating.stage)}{group}): table {seating.table}")
        palette = self.app.settings.palette
        self.seats.cols = 3 if len(seating.seats) > 4 else 2
        for i, name in enumerate(seating.seats):
            colour = theme.player_colour(palette, i)
            cell = w("Panel", bg=colour)
            members = f" ({', '.join(seating.teams[i])})" if i < len(seating.teams) else ""
            cell.add_widget(w("TLabel", text=f"Seat {i + 1}: {name}{members}",
                              color=theme.text_on(colour), shorten=False,
                              font_size=self.app.fs(17 if self.seats.cols == 2 else 15)))
            self.seats.add_widget(cell)
        report = hub.report_state(seating)
        self.report_word = report.word
        hexa = {"acknowledged": "f0e342", "conflict": "d65f00",
                "rejected": "d65f00"}.get(report.word, "f5f5f5")
        self.report.text = f"[b]Report: [color=#{hexa}]{report.word}[/color][/b]. " \
                           f"{report.text}" if report.word != "none" else report.text
        on = hub.game_on(seating.setup)
        done = report.word != "none"
        self.start.disabled = done or seating.setup is None
        self.start.text = "Reported" if done else "Back to the game" if on == "on" else \
            "Resume this game" if on == "unfinished" else "Start this game"

    def play(self) -> None:
        seating = self.hub.seating
        if seating is None or seating.setup is None:
            return
        try:
            self.hub.play(seating.setup)
        except rules.RulesError as e:
            self.screen.flash(str(e))

    def leave_tournament(self) -> None:
        table = self.hub.table
        if table is None:
            return
        waiting = len(table.pending())
        if waiting and time.monotonic() - self.sure > 10:
            self.sure = time.monotonic()
            self.screen.flash(f"{waiting} report(s) not yet acknowledged: tap Leave again to "
                              "leave anyway (they stay in the outbox)")
            return
        self.hub.leave()
        self.screen.show_page("home")


PAGES: dict[str, Callable[[TournamentScreen], Page]] = {
    "home": HomePage, "new": NewPage, "entrants": EntrantsPage, "round": RoundPage,
    "standings": StandingsPage, "final": FinalPage, "network": NetworkPage,
    "join": JoinPage, "seat": SeatPage}
#: The tabs of each role (page name, its tab's words).
TABS = {"director": (("round", "Round"), ("standings", "Standings"), ("final", "Final"),
                     ("entrants", "Entrants"), ("network", "Network")),
        "table": (),
        "home": ()}


class TournamentScreen(Screen):
    """The app's Tournament screen: the pages of the companion's role, under a tab bar."""

    def __init__(self, app: AppHost, hub: TournamentHub, **kwargs: Any) -> None:
        super().__init__(name="tournament", **kwargs)
        self.app = app
        self.hub = hub
        root = w("Panel", orientation="vertical", padding=6, spacing=4, bg=theme.BACKGROUND)
        self.tabs = BoxLayout(size_hint_y=None, height=ROW, spacing=4)
        root.add_widget(self.tabs)
        self.status = w("TLabel", text="", size_hint_y=None, height=30, halign="left",
                        font_size=app.fs(15), color=theme.MUTED)
        root.add_widget(self.status)
        self.body = BoxLayout()
        root.add_widget(self.body)
        self.add_widget(root)
        self.pages: dict[str, Page] = {}
        self.page = ""
        self.tab_buttons: dict[str, Any] = {}
        self.dialog: ResultDialog | None = None
        self._role = ""
        self._flash = ""
        self._flash_until = 0.0
        self.hub.listen(self.on_hub)

    def role(self) -> str:
        if self.hub.table is not None:
            return "table"
        return "director" if self.hub.desk is not None else "home"

    def on_pre_enter(self, *args: Any) -> None:
        role = self.role()
        if not self.page or role != self._role:
            self.show_page({"table": "seat", "director": "round"}.get(role, "home"))
        else:
            self.show_page(self.page)

    def on_leave(self, *args: Any) -> None:
        page = self.pages.get(self.page)
        if page is not None:
            page.leave()

    def on_hub(self) -> None:
        """The hub changed (a report, a seating, serving...): redraw what is shown."""
        if self.manager is not None and self.manager.current == self.name:
            if self.role() != self._role and self.page not in ("new", "join"):
                self.on_pre_enter()
                return
            self.refresh()

    def show_page(self, name: str) -> None:
        old = self.pages.get(self.page)
        if old is not None and name != self.page:
            old.leave()
        page = self.pages.get(name)
        if page is None:
            page = PAGES[name](self)
            self.pages[name] = page
        self.page = name
        self.body.clear_widgets()
        self.body.add_widget(page.root)
        self.build_tabs()
        self.refresh()

    def build_tabs(self) -> None:
        role = self.role()
        self._role = role
        self.tabs.clear_widgets()
        self.tab_buttons = {}
        self.tabs.add_widget(w("TButton", text="Back", size_hint_x=None, width=96,
                               on_release=lambda *_: self.app.back()))
        tabs = TABS[role]
        if role == "home" or self.page not in {n for n, _ in tabs}:
            self.tabs.add_widget(w("THeading", text=self.pages[self.page].title,
                                   padding=(10, 0)))
        for name, words in tabs:
            button = w("TButton", text=words, font_size=self.app.fs(17),
                       on_release=lambda *_, n=name: self.show_page(n))
            if name == self.page:
                button.background_color = theme.SELECT
            self.tab_buttons[name] = button
            self.tabs.add_widget(button)

    def flash(self, text: str) -> None:
        """A short message in the status line for a few seconds."""
        self._flash = text
        self._flash_until = time.monotonic() + 6
        self.refresh()

    def refresh(self) -> None:
        page = self.pages.get(self.page)
        if page is not None:
            page.refresh()
        self.status.text = self.status_text()

    def status_text(self) -> str:
        hub = self.hub
        if self._flash and time.monotonic() < self._flash_until:
            return self._flash
        if hub.message and time.monotonic() < hub.message_until:
            return hub.message
        if self.role() == "table" and hub.table is not None:
            code = hub.table.code
            return f"Table {code.table} of tournament {code.tournament}: " + (
                "connected" if hub.connected else "code refused: ask the organiser for "
                "this table's code" if hub.table.refused else "not connected (trying again)")
        desk = hub.desk
        if desk is None:
            return hub.problem
        serving = {"serving": "serving", "starting": "starting to serve",
                   "stopping": "stopping"}.get(hub.serve_state, "not serving")
        with desk.lock:  # a report may come in on the network thread meanwhile
            t = desk.tournament_view()
            r = t.current
            where = "over" if t.is_over else "not started" if r is None else \
                f"round {r.number} ({stage_words(r.stage)})"
            return f"{t.name}: {where}, {serving}"


__all__ = ["PAGES", "TournamentScreen"]
