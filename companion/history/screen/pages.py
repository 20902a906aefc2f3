"""What the pages of the History screen share: :class:`HistoryPages`.

:class:`~companion.history.screen.frame.HistoryScreen` is one screen put together from one
class per page: :class:`~.games.GameList`, :class:`~.replay.GameReplay`,
:class:`~.statistics.StatisticsTabs`, :class:`~.dice.DiceTab` and :class:`~.export.ExportPanel`,
each a :class:`HistoryPages`. They share one state: the app, the worker, the filters, the tab
shown, the status line, and the statistics' panes (which the Dice tab shows its dice in). What
one page asks of another is named here too, with the page that does it, so that each page
reads (and is typed) on its own.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.scrollview import ScrollView

from companion import theme
from companion.contract import AppHost
from companion.history.drawn import ChartView
from companion.history.fairness import Fairness
from companion.history.screen.worker import Worker

ALL_GAMES = "All games"
ALL_PLAYERS = "All players"


class HistoryPages:
    """The state every page of the History screen shares (set by
    :class:`~companion.history.screen.frame.HistoryScreen`), the status line, and what the
    pages ask of each other."""

    app: AppHost
    worker: Worker
    view: str  # the tab shown: "games", "players", "per-game", "dice"; or "game" (one game)
    game_filter: str | None  # a game's short name
    player_filter: str | None
    titles: dict[str, str]  # game title -> short name
    offset: int  # the list's first game
    show_scores: bool  # the Players tab's chart: scores, not win rates
    dice: tuple[Fairness, ...] | None  # the dice verdicts, once worked out
    _quiet: bool  # filters being set by the screen, not by a tap
    # the top bar and the status line
    heading: Any
    game_spin: Any
    player_spin: Any
    status: Any
    # the statistics' panes (the Players, Per game and Dice tabs)
    left: BoxLayout
    stat_list: ScrollView
    stat_rows: GridLayout
    card: ScrollView
    card_text: Label
    chart: ChartView

    def say(self, text: str, problem: bool = False) -> None:
        """A line at the bottom of the screen (none when there is nothing to say)."""
        self.status.text = text
        self.status.color = theme.DANGER if problem else theme.MUTED
        self.status.height = self.app.fs(15) * 1.6 if text else 0

    def failed(self, what: str) -> Callable[[str], None]:
        return lambda why: self.say(f"{what}: {why}", problem=True)

    # -- what one page asks of another -------------------------------------------------------

    def load(self) -> None:
        """Bring the index up to date and show the current page (:class:`~.games.GameList`)."""
        raise NotImplementedError

    def open_game(self, game_id: int) -> None:
        """Open one game (:class:`~.replay.GameReplay`)."""
        raise NotImplementedError

    def load_stats(self) -> None:
        """Work out the statistics (:class:`~.statistics.StatisticsTabs`)."""
        raise NotImplementedError

    def _draw_stats(self) -> None:
        """Draw the tab shown in the statistics' panes (:class:`~.statistics.StatisticsTabs`)."""
        raise NotImplementedError

    def load_dice(self) -> None:
        """Work out the dice verdicts (:class:`~.dice.DiceTab`)."""
        raise NotImplementedError

    def _draw_dice(self) -> None:
        """Draw the dice in the statistics' panes (:class:`~.dice.DiceTab`)."""
        raise NotImplementedError

    def show_view(self, view: str) -> None:
        """Show a tab (the frame)."""
        raise NotImplementedError

    def _show_body(self) -> None:
        """Show the body of the tab or game shown (the frame)."""
        raise NotImplementedError

    def set_filters(self, game: str | None = None, player: str | None = None) -> None:
        """Choose the filters as a tap on a spinner would (the frame)."""
        raise NotImplementedError
