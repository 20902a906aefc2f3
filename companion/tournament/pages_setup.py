"""The Tournament screen's pages that choose (Kivy): home (direct or join), a new
tournament, and its entrants.
"""

from __future__ import annotations

import time
from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.widget import Widget

import rules
from companion import theme
from companion.games import playable_games
from companion.startcheck import SCREEN_NAME_CHARS
from companion.tournament.hub import known_names
from companion.tournament.page import (
    ROW,
    Page,
    PageHost,
    column,
    para,
    scroller,
)
from companion.tournament.wording import (
    FORMATS,
    MODES,
    engine_name,
    game_words,
)
from companion.widgets import NAME_KEYS, w
from companion.words import plural
from rules.tournament import TournamentError


class HomePage(Page):
    title = "Tournament"

    def __init__(self, screen: PageHost) -> None:
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

    def __init__(self, screen: PageHost) -> None:
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

    def __init__(self, screen: PageHost) -> None:
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
