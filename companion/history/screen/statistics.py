"""The Players and Per game tabs: counts on the left, a chart on the right
(:class:`StatisticsTabs`); the Dice tab (:mod:`.dice`) shows its groups in the same panes."""

from __future__ import annotations

from functools import partial
from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout

from companion import theme
from companion.history import chartdata
from companion.history.drawn import ChartView
from companion.history.index import History
from companion.history.screen.pages import HistoryPages
from companion.history.screen.rows import counted, esc, fill_rows, scrolling, text_pane
from companion.history.stats import Statistics, statistics
from companion.history.summary import GameSummary, game_title
from companion.history.text import number, percent
from companion.widgets import w

#: Games of one game in its scores chart (the newest).
SCORES_GAMES = 30


class StatisticsTabs(HistoryPages):
    """Players (games, wins, win rates, streaks; a chart of win rates or of scores) and Per
    game (plays, length, players, winning scores; a chart of lengths or of what was played)."""

    stats: Statistics | None
    stats_for: tuple[str | None, str | None] | None  # the filters they are for
    recent: tuple[GameSummary, ...]  # the newest games of one game (scores)

    def _build_stats(self) -> None:
        self.stats_view = BoxLayout(spacing=6)
        self.left = BoxLayout(orientation="vertical", size_hint_x=0.42)
        self.stat_rows = GridLayout(cols=1, spacing=4)
        self.stat_list = scrolling(self.stat_rows)
        self.card, self.card_text = text_pane(self.app)
        right = BoxLayout(orientation="vertical", spacing=4, size_hint_x=0.58)
        self.chart = ChartView(self.app.fs)
        right.add_widget(self.chart)
        self.chart_switch = BoxLayout(size_hint_y=None, height=50, spacing=4)
        self.rates_button = w("TButton", text="Win rates",
                              on_release=lambda *_: self.set_scores(False))
        self.scores_button = w("TButton", text="Scores",
                               on_release=lambda *_: self.set_scores(True))
        self.chart_switch.add_widget(self.rates_button)
        self.chart_switch.add_widget(self.scores_button)
        right.add_widget(self.chart_switch)
        self.stats_view.add_widget(self.left)
        self.stats_view.add_widget(right)

    def load_stats(self) -> None:
        key = (self.game_filter, self.player_filter)
        if self.stats is not None and self.stats_for == key:
            self._draw_stats()
            return
        self.chart.show(None, "Working out the statistics...")
        game, player = key

        def job(h: History) -> tuple[Statistics, tuple[GameSummary, ...]]:
            h.refresh()
            recent = tuple(h.games(game, player, limit=SCORES_GAMES)) if game else ()
            return statistics(h, game=game, player=player), recent

        def done(result: tuple[Statistics, tuple[GameSummary, ...]]) -> None:
            if key != (self.game_filter, self.player_filter):
                return  # the filters changed meanwhile: their own job follows
            self.stats, self.recent = result
            self.stats_for = key
            self._draw_stats()

        self.worker.read(job, done, self.failed("The statistics could not be worked out"))

    def set_scores(self, on: bool) -> None:
        self.show_scores = on
        self._draw_stats()

    def _draw_stats(self) -> None:
        view = self.view
        if view not in ("players", "per-game", "dice"):
            return
        self.left.clear_widgets()
        switch = view == "players" and self.game_filter is not None
        self.chart_switch.disabled = not switch
        self.chart_switch.opacity = 1 if switch else 0
        self.chart_switch.height = 50 if switch else 0
        self.rates_button.background_color = theme.BUTTON if self.show_scores else theme.SELECT
        self.scores_button.background_color = theme.SELECT if self.show_scores else theme.BUTTON
        if view == "dice":
            self._draw_dice()
            return
        stats = self.stats
        if stats is None or self.stats_for != (self.game_filter, self.player_filter):
            self.chart.show(None, "Working out the statistics...")
            return
        if view == "players":
            self._draw_players(stats)
        else:
            self._draw_games(stats)

    def _draw_players(self, stats: Statistics) -> None:
        one = stats.player(self.player_filter) if self.player_filter else None
        if self.player_filter is not None:
            fill_rows(self.app, self.stat_rows, [])
            self.left.add_widget(self.card)
            self.card_text.text = self._player_card(one) if one else (
                f"{esc(self.player_filter)} has no games here"
                + (f" of {game_title(self.game_filter)}" if self.game_filter else "") + ".")
        else:
            self.left.add_widget(self.stat_list)
            fill_rows(self.app, self.stat_rows, [(
                f"[b]{esc(p.player)}[/b]", "",
                (f"{percent(p.win_rate)}: " if p.games else "")
                + f"{p.wins} of {counted(p.games, 'game')}, streak {p.streak.text()}",
                partial(self.set_filters, self.game_filter, p.player), False)
                for p in stats.players])
            if not stats.players:
                self.left.add_widget(w("TLabel", text="No players yet.", color=theme.MUTED))
        if self.show_scores and self.game_filter is not None:
            names = [self.player_filter] if self.player_filter else None
            title = (f"Scores in {game_title(self.game_filter)}"
                     + (f" (last {SCORES_GAMES} games)" if len(self.recent) >= SCORES_GAMES
                        else ""))
            self.chart.show(chartdata.scores(self.recent, names, title))
        elif one is not None and self.game_filter is None:
            self.chart.show(chartdata.player_games(one))
        else:
            title = "Win rate" + (f" in {game_title(self.game_filter)}"
                                  if self.game_filter else "")
            self.chart.show(chartdata.wins(stats.players if one is None else [one], title))

    def _player_card(self, p: Any) -> str:
        lines = [f"[b][size={int(self.app.fs(19))}]{esc(p.player)}[/size][/b]",
                 f"{counted(p.games, 'game')} over, {p.wins} won ({percent(p.win_rate)})"
                 + (f", {p.unfinished} unfinished" if p.unfinished else ""),
                 f"Streak: {p.streak.text()}; longest winning streak {p.longest_winning_streak}"]
        if p.opponents:
            lines.append("Most played against: "
                         + ", ".join(f"{esc(n)} ({k})" for n, k in p.opponents))
        for g in p.per_game:
            lines.append(f"[b]{game_title(g.game)}[/b]: {counted(g.games, 'game')}, {g.wins} won; "
                         f"average {number(g.average)}, best {number(g.best)}")
        return "\n".join(lines)

    def _draw_games(self, stats: Statistics) -> None:
        one = stats.game(self.game_filter) if self.game_filter else None
        if self.game_filter is not None:
            fill_rows(self.app, self.stat_rows, [])
            self.left.add_widget(self.card)
            self.card_text.text = self._game_card(one) if one else (
                f"No games of {game_title(self.game_filter)} here"
                + (f" with {esc(self.player_filter)}" if self.player_filter else "") + ".")
            if one is not None:
                self.chart.show(chartdata.roles(one))
            else:
                self.chart.show(chartdata.BarChart(game_title(self.game_filter),
                                                   empty="No finished games yet."))
            return
        self.left.add_widget(self.stat_list)
        fill_rows(self.app, self.stat_rows, [(
            f"[b]{esc(g.title)}[/b]", "",
            ("" if g.average_minutes is None else f"{g.average_minutes:.0f} min, ")
            + f"{counted(g.games, 'game')}, {number(g.average_players)} players"
            + (f", {g.unfinished} unfinished" if g.unfinished else ""),
            partial(self.set_filters, g.game, self.player_filter), False)
            for g in stats.games])
        if not stats.games:
            self.left.add_widget(w("TLabel", text="No games yet.", color=theme.MUTED))
        self.chart.show(chartdata.game_lengths(stats.games))

    def _game_card(self, g: Any) -> str:
        lines = [f"[b][size={int(self.app.fs(19))}]{esc(g.title)}[/size][/b]",
                 f"{counted(g.games, 'game')} over"
                 + (f", {g.unfinished} unfinished" if g.unfinished else ""),
                 f"Average: {number(g.average_calls)} calls, "
                 + ("-" if g.average_minutes is None else f"{g.average_minutes:.0f} min")
                 + f", {number(g.average_players)} players",
                 f"Winning score: {number(g.average_winning_score)} on average"]
        if g.best_by:
            lines.append(f"Best score: {number(g.best_score)} ({esc(g.best_by)})")
        for kind, items in ((g.role_kind, g.roles), (g.card_kind, g.cards)):
            if kind and items:
                top = ", ".join(f"{esc(c.name)} {c.won}/{c.played}" for c in items[:5])
                lines.append(f"Each {kind} (won/played): {top}")
        return "\n".join(lines)

