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
from collections.abc import Callable
from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen

from companion import theme
from companion.contract import AppHost
from companion.tournament.hub import TournamentHub
from companion.tournament.page import ROW, Page, PageHost
from companion.tournament.pages_network import JoinPage, NetworkPage, SeatPage
from companion.tournament.pages_round import ResultDialog, RoundPage
from companion.tournament.pages_setup import EntrantsPage, HomePage, NewPage
from companion.tournament.pages_standings import FinalPage, StandingsPage
from companion.tournament.wording import (
    stage_words,
)
from companion.widgets import w

PAGES: dict[str, Callable[[PageHost], Page]] = {
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
