"""The History screen's frame: :class:`HistoryScreen`, its pages put together under one top bar
(the filters, Export, Back), the tabs and the status line; entering and leaving."""

from __future__ import annotations

from typing import Any

from kivy.clock import Clock
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen
from kivy.uix.widget import Widget

from companion import theme
from companion.contract import AppHost
from companion.history.screen.dice import DiceTab
from companion.history.screen.export import ExportPanel
from companion.history.screen.games import GameList
from companion.history.screen.pages import ALL_GAMES, ALL_PLAYERS
from companion.history.screen.replay import GameReplay
from companion.history.screen.statistics import StatisticsTabs
from companion.history.screen.worker import Worker
from companion.history.summary import game_title
from companion.widgets import w

TABS = (("games", "Games"), ("players", "Players"), ("per-game", "Per game"), ("dice", "Dice"))


class HistoryScreen(GameList, GameReplay, StatisticsTabs, DiceTab, ExportPanel, Screen):
    """The History screen (see the package's docstring): its pages put together."""

    def __init__(self, app: AppHost, **kwargs: Any) -> None:
        super().__init__(name="history", **kwargs)
        self.app = app
        self.worker = Worker(app.journal.path, app.journal.readonly)
        self.game_filter = None
        self.player_filter = None
        self.view = "games"
        self.offset = 0
        self.total = 0
        self.page = ()
        self.titles = {}
        self.stats = None
        self.stats_for = None
        self.recent = ()
        self.show_scores = False
        self.dice = None
        self.dice_choice = 0
        self.opened = None
        self._replayer = None
        self._want_step = 0
        self._quiet = False
        self._table_shape = None
        self.loads = 0
        self.export_view = None
        self.export_text = None
        self.exported = []
        app.add_stop_listener(self._stopping)

        fs = app.fs
        root = w("Panel", orientation="vertical", padding=6, spacing=4, bg=theme.BACKGROUND)
        self.top_bar = BoxLayout(size_hint_y=None, height=52, spacing=6)
        self.heading = w("THeading", text="History", size_hint_x=None, width=fs(22) * 4.8)
        self.game_spin = w("TSpinner", text=ALL_GAMES, values=[ALL_GAMES])
        self.player_spin = w("TSpinner", text=ALL_PLAYERS, values=[ALL_PLAYERS],
                             size_hint_x=0.8)
        for spinner in (self.game_spin, self.player_spin):  # dozens of names: made when opened
            spinner.lazy_options = True
        self.export_button = w("TButton", text="Export", size_hint_x=None, width=110,
                               on_release=lambda *_: self.open_export())
        self.back_button = w("TButton", text="Back", size_hint_x=None, width=100,
                             on_release=lambda *_: self.go_back())
        root.add_widget(self.top_bar)
        self.tabs_row = BoxLayout(size_hint_y=None, height=50, spacing=4)
        self.tabs: dict[str, Any] = {}
        for key, text in TABS:
            b = w("TButton", text=text, on_release=lambda *_, k=key: self.show_view(k))
            self.tabs[key] = b
            self.tabs_row.add_widget(b)
        root.add_widget(self.tabs_row)
        self.body = BoxLayout()
        root.add_widget(self.body)
        self.status = w("TLabel", text="", size_hint_y=None, height=0,
                        font_size=fs(15), color=theme.MUTED, halign="left")
        root.add_widget(self.status)
        self.add_widget(root)
        self._build_list()
        self._build_stats()
        self._build_game()
        self.game_spin.bind(text=lambda *_: self._filters_changed())
        self.player_spin.bind(text=lambda *_: self._filters_changed())

    # -- entering, leaving, filters ---------------------------------------------------------

    @property
    def busy(self) -> bool:
        """True while anything asked of the history is still being worked out."""
        return self.worker.busy > 0

    def _stopping(self) -> None:
        self.worker.close()

    def on_leave(self, *args: Any) -> None:
        """Players leave the history for the start screen or a game: the screen lets go of
        its thread, its connection and its widgets (built again when next opened; the
        table's memory goes to the game and the camera)."""
        self.worker.close()
        self.app.remove_stop_listener(self._stopping)
        Clock.schedule_once(lambda dt: self.app.drop_screen(self.name))

    def on_pre_enter(self, *args: Any) -> None:
        if self.view == "game":
            self.view = "games"
        self._show_body()
        self.load()

    def go_back(self) -> None:
        """From one game back to the list; from the list and the statistics to the start."""
        if self.view == "game":
            self.show_view("games")
        else:
            self.app.show("start")

    def _filters_changed(self) -> None:
        if self._quiet:
            return
        game = self.game_spin.text
        player = self.player_spin.text
        self.game_filter = None if game == ALL_GAMES else self.titles.get(game, game)
        self.player_filter = None if player == ALL_PLAYERS else player
        self.offset = 0
        self.show_scores = self.show_scores and self.game_filter is not None
        self.load()

    def set_filters(self, game: str | None = None, player: str | None = None) -> None:
        """Choose the filters as a tap on a spinner would (game: short name)."""
        self._quiet = True
        self.game_spin.text = ALL_GAMES if game is None else game_title(game)
        self.player_spin.text = ALL_PLAYERS if player is None else player
        self._quiet = False
        self._filters_changed()

    # -- tabs -------------------------------------------------------------------------------

    def show_view(self, view: str) -> None:
        self.view = view
        self._show_body()
        if view in ("players", "per-game"):
            self.load_stats()
        elif view == "dice":
            self.load_dice()

    def _show_body(self) -> None:
        view = self.view
        self.body.clear_widgets()
        in_game = view == "game"
        self.tabs_row.disabled = in_game
        self.tabs_row.opacity = 0 if in_game else 1
        self.tabs_row.height = 0 if in_game else 50
        for key, b in self.tabs.items():
            b.background_color = theme.SELECT if key == view else theme.BUTTON
        self.top_bar.clear_widgets()
        shown: list[Widget] = [self.heading, self.back_button] if in_game else [
            self.heading, self.game_spin, self.player_spin, self.export_button,
            self.back_button]
        for widget in shown:
            self.top_bar.add_widget(widget)
        self.heading.size_hint_x = 1 if in_game else None
        if not in_game:
            self.heading.width = self.app.fs(22) * 4.8
        if in_game:
            self.body.add_widget(self.game_view)
            return
        self.heading.text = "History"
        if view == "games":
            self.body.add_widget(self.list_view)
        else:
            self.body.add_widget(self.stats_view)
            self._draw_stats()

