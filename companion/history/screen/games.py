"""The Games tab: every game, newest first, a page at a time (:class:`GameList`)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

from kivy.clock import Clock
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout

from companion import theme
from companion.history.index import History
from companion.history.screen.pages import ALL_GAMES, ALL_PLAYERS, HistoryPages
from companion.history.screen.rows import RowText, esc, fill_rows, scrolling, whole
from companion.history.summary import GameSummary, game_title
from companion.history.text import minutes, state
from companion.widgets import w

#: Games to a page of the list (two screens' worth: every row costs a moment to draw).
PAGE = 10


@dataclass(frozen=True)
class Page:
    """What the list shows: the games played here, one page of games."""

    games: tuple[str, ...]
    total: int
    offset: int
    page: tuple[GameSummary, ...]
    refreshed: int


class GameList(HistoryPages):
    """The list of games: a page of rows, newer and older; a tap opens one."""

    total: int  # games the filters let through
    page: tuple[GameSummary, ...]  # the games shown
    loads: int  # pages shown so far (tests)

    def _build_list(self) -> None:
        fs = self.app.fs
        self.list_view = BoxLayout(orientation="vertical", spacing=4)
        pager = BoxLayout(size_hint_y=None, height=50, spacing=6)
        self.newer = w("TButton", text="Newer", size_hint_x=None, width=120,
                       on_release=lambda *_: self.turn(-1))
        self.older = w("TButton", text="Older", size_hint_x=None, width=120,
                       on_release=lambda *_: self.turn(+1))
        self.page_label = w("TLabel", text="", font_size=fs(16), color=theme.MUTED)
        pager.add_widget(self.newer)
        pager.add_widget(self.page_label)
        pager.add_widget(self.older)
        self.list_view.add_widget(pager)
        self.rows = GridLayout(cols=1, spacing=4)
        self.list_view.add_widget(scrolling(self.rows))

    def load(self) -> None:
        """Bring the index up to date and show the current page (and then the tab's data)."""
        game, player, offset = self.game_filter, self.player_filter, self.offset
        self.say("Reading the history...")

        def progress(done: int, total: int) -> None:
            Clock.schedule_once(lambda dt: self.say(
                f"Reading games into the history: {done:,} of {total:,} (once)"))

        def job(h: History) -> Page:
            refreshed = h.refresh(progress)
            return Page(tuple(h.game_names()), h.count(game, player), offset,
                        tuple(h.games(game, player, limit=PAGE, offset=offset)), refreshed)

        self.worker.read(job, self._show_page, self.failed("The history could not be read"))
        if not self.player_spin.values[1:]:  # the players, for their filter: after the page

            def names(h: History) -> tuple[str, ...]:
                return tuple(h.players())

            self.worker.read(names, self._show_players,
                             self.failed("The players could not be read"))
        if self.view in ("players", "per-game"):
            self.load_stats()
        elif self.view == "dice" and self.dice is None:
            self.load_dice()

    def _show_players(self, players: tuple[str, ...]) -> None:
        self.player_spin.values = [ALL_PLAYERS, *players]

    def _show_page(self, page: Page) -> None:
        self.loads += 1
        self.titles = {game_title(g): g for g in page.games}
        self._quiet = True
        self.game_spin.values = [ALL_GAMES, *self.titles]
        self._quiet = False
        self.total, self.offset, self.page = page.total, page.offset, page.page
        fill_rows(self.app, self.rows, [self._game_row(g) for g in page.page])
        if not page.page:
            self.rows.add_widget(w("TLabel", text=self._nothing(), size_hint_y=None,
                                   height=60, color=theme.MUTED))
        first = page.offset + 1 if page.page else 0
        self.page_label.text = (f"Games {first:,}-{page.offset + len(page.page):,} of "
                                f"{page.total:,}")
        self.newer.disabled = page.offset <= 0
        self.older.disabled = page.offset + len(page.page) >= page.total
        if self.status.text.startswith("Reading"):
            self.say("")

    def _nothing(self) -> str:
        what = " of " + game_title(self.game_filter) if self.game_filter else ""
        who = f" with {self.player_filter}" if self.player_filter else ""
        return f"No games{what}{who} yet." if what or who else \
            "No games yet: every game played here is kept."

    def _game_row(self, g: GameSummary) -> RowText:
        if g.error:
            result = "[color=#d55e00]does not replay[/color]"
        elif g.can_resume:
            result = "[color=#f0e442]unfinished[/color]"
        elif g.winner:
            result = f"{esc(g.winner)} won"
        else:
            result = state(g)
        players = ", ".join(esc(p.player) for p in g.players)
        return (f"[b]{esc(game_title(g.game))}[/b]  {result}", g.date,
                f"{players}  -  " + whole(f"{minutes(g.duration)}, {g.calls} calls"),
                partial(self.open_game, g.id), False)

    def turn(self, pages: int) -> None:
        """Newer (-1) or older (+1) games."""
        self.offset = max(0, self.offset + pages * PAGE)
        self.load()

