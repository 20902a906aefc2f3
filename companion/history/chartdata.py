"""What each chart of the history shows, as plain data: bars and lines, their labels and notes.

A chart is worked out here once and drawn two ways: by matplotlib into a PNG for
``companion stats --chart`` (:mod:`companion.history.charts`) and by Kivy's own graphics on the
table's screen (:mod:`companion.history.drawn`), so both show the same numbers, chosen and
sorted the same way. Nothing here draws or imports a plotting library.

>>> from companion.history.fairness import assess
>>> chart = dice(assess({"1": 10, "2": 10, "3": 10, "4": 10, "5": 10, "6": 10}, "the red dice"))
>>> [b.label for b in chart.bars], chart.reference
(['1', '2', '3', '4', '5', '6'], 16.666666666666664)
"""

from __future__ import annotations

import math
import textwrap
import time
from collections.abc import Sequence
from dataclasses import dataclass

from companion.history.fairness import Fairness
from companion.history.stats import GameStats, PlayerStats
from companion.history.summary import GameSummary, game_title, player_key

__all__ = ["Bar", "BarChart", "Chart", "Line", "LineChart", "axis", "dice", "game_lengths",
           "player_games", "roles", "scores", "wins", "wrap"]


@dataclass(frozen=True)
class Bar:
    """One bar: its ``label`` (on the axis), its length ``value`` in the chart's units, the
    ``text`` written at its end, a part of it drawn over it in the second colour (``inner``:
    won of played), an interval (``low``..``high``) and whether it is the one to look at."""

    label: str
    value: float
    text: str = ""
    inner: float | None = None
    low: float | None = None
    high: float | None = None
    highlight: bool = False


@dataclass(frozen=True)
class BarChart:
    """Bars in reading order (top to bottom when ``horizontal``, else left to right), along an
    axis from 0 to ``top`` with ``ticks`` (value, text) and a ``unit``; a ``reference`` line
    across (a fair share), the names of the two colours when bars have an inner part
    (``legend``: ("played", "won")), a ``note`` under the chart, and ``empty`` (why there is
    nothing to show) when there are no bars."""

    title: str
    bars: tuple[Bar, ...] = ()
    horizontal: bool = True
    top: float = 100.0
    ticks: tuple[tuple[float, str], ...] = ()
    unit: str = ""
    reference: float | None = None
    reference_label: str = ""
    legend: tuple[str, ...] = ()
    note: str = ""
    empty: str = ""


@dataclass(frozen=True)
class Line:
    """One player's scores: (game number from 1, score) points."""

    label: str
    points: tuple[tuple[int, float], ...]


@dataclass(frozen=True)
class LineChart:
    """Lines over the games, oldest on the left (``count`` games along the axis, with
    ``x_ticks`` (game number, text) when they fit)."""

    title: str
    lines: tuple[Line, ...] = ()
    count: int = 0
    x_label: str = "game (oldest first)"
    x_ticks: tuple[tuple[int, str], ...] = ()
    empty: str = ""

    @property
    def low(self) -> float:
        return min((y for line in self.lines for _, y in line.points), default=0.0)

    @property
    def high(self) -> float:
        return max((y for line in self.lines for _, y in line.points), default=1.0)


Chart = BarChart | LineChart

PERCENT_TICKS: tuple[tuple[float, str], ...] = tuple((v, f"{v:.0f}%")
                                                     for v in (0, 25, 50, 75, 100))


def axis(value: float, unit: str = "") -> tuple[float, tuple[tuple[float, str], ...]]:
    """An axis from 0 a little past ``value``: its end and its ticks at a round step (at most
    five steps), each written with ``unit``.

    >>> axis(22, "%")
    (25.0, ((0.0, '0%'), (5.0, '5%'), (10.0, '10%'), (15.0, '15%'), (20.0, '20%'), (25.0, '25%')))
    """
    step = 1.0
    for step in (1.0, 2.0, 5.0, 10.0, 20.0, 25.0, 50.0, 100.0, 200.0, 250.0, 500.0, 1000.0,
                 2000.0, 2500.0, 5000.0, 10_000.0, 20_000.0, 50_000.0, 100_000.0):
        if math.ceil(max(value, 1e-9) * 1.1 / step) <= 5:
            break
    n = max(1, math.ceil(max(value, 1e-9) * 1.1 / step))
    return n * step, tuple((i * step, f"{i * step:,.0f}{unit}") for i in range(n + 1))


def wins(players: Sequence[PlayerStats], title: str = "Win rate", most: int = 8) -> BarChart:
    """Each player's win rate (the ``most`` who played most), best on top, with "wins of
    games" on the bar."""
    shown = [p for p in players if p.games][:most]
    if not shown:
        return BarChart(title, empty="No finished games yet.")
    shown.sort(key=lambda p: (-p.win_rate, -p.games, player_key(p.player)))
    return BarChart(title, tuple(Bar(p.player, 100 * p.win_rate, f"{p.wins} of {p.games}")
                                 for p in shown), top=100.0, ticks=PERCENT_TICKS)


def player_games(player: PlayerStats) -> BarChart:
    """One player's win rate in each game they played, best on top."""
    title = f"{player.player}: win rate per game"
    shown = sorted(player.per_game, key=lambda g: (-g.win_rate, -g.games, g.game))
    if not shown:
        return BarChart(title, empty=f"{player.player} has no finished games yet.")
    return BarChart(title, tuple(Bar(game_title(g.game), 100 * g.win_rate,
                                     f"{g.wins} of {g.games}") for g in shown),
                    top=100.0, ticks=PERCENT_TICKS)


def game_lengths(games: Sequence[GameStats], title: str = "Average game length") -> BarChart:
    """Each game's average length in minutes, with how many games it is over."""
    shown = [g for g in games if g.average_minutes is not None]
    if not shown:
        return BarChart(title, empty="No finished games with a length yet.")
    top, ticks = axis(max(g.average_minutes or 0.0 for g in shown))
    return BarChart(title, tuple(Bar(g.title, g.average_minutes or 0.0,
                                     f"{g.average_minutes:.0f} min, {g.games} games")
                                 for g in shown), top=top, ticks=ticks, unit="minutes")


def roles(game: GameStats, most: int = 10) -> BarChart:
    """How often each character / tribe / objective (else each card) was played, and won."""
    kind, items = ((game.role_kind, game.roles) if game.roles else
                   (game.card_kind, game.cards))
    title = f"{game.title}: each {kind or 'role'}, played and won"
    if not items:
        return BarChart(title, empty=f"{game.title} has no characters or cards to count yet.")
    shown = list(items[:most])
    top, ticks = axis(max(c.played for c in shown))
    return BarChart(title, tuple(Bar(c.name, float(c.played), f"{c.won} of {c.played}",
                                     inner=float(c.won)) for c in shown),
                    top=top, ticks=ticks, unit="games", legend=("played", "won"))


def dice(result: Fairness) -> BarChart:
    """Each face's share with its 95% interval, the fair share as a line, the verdict under."""
    title = f"{result.label[:1].upper()}{result.label[1:]}: {result.rolls:,} rolls"
    if not result.faces or not result.rolls:
        return BarChart(title, empty="No confident rolls recorded yet.")
    fair = next((100 * f.expected for f in result.faces if f.expected), None)
    top, ticks = axis(max(100 * f.high for f in result.faces), "%")
    return BarChart(
        title, tuple(Bar(f.face, 100 * f.share, f"{100 * f.share:.0f}%", low=100 * f.low,
                         high=100 * f.high,
                         highlight=result.status == "biased" and f.face == result.face)
                     for f in result.faces),
        horizontal=False, top=top, ticks=ticks,
        unit="% of rolls", reference=fair,
        reference_label="" if fair is None else f"fair: {fair:.1f}%",
        note=result.verdict[:1].upper() + result.verdict[1:] + ".")


def scores(games: Sequence[GameSummary], players: Sequence[str] | None = None,
           title: str | None = None, most: int = 6) -> LineChart:
    """Each player's score game after game, in one game (scores of different games do not
    compare), oldest on the left: the ``players`` named, else the ``most`` who played most."""
    over = sorted((g for g in games if g.is_over and not g.error), key=lambda g: g.started)
    names = {g.game for g in over}
    chart_title = title or (f"Scores in {game_title(next(iter(names)))}" if len(names) == 1
                            else "Scores")
    if len(names) > 1:
        return LineChart(chart_title, empty="Scores of different games do not compare: "
                                            "choose one game.")
    if not over:
        return LineChart(chart_title, empty="No finished games yet.")
    counts: dict[str, int] = {}
    shown_name: dict[str, str] = {}
    for g in over:
        for p in g.players:
            if p.forgotten or p.score is None:
                continue
            k = player_key(p.player)
            counts[k] = counts.get(k, 0) + 1
            shown_name[k] = p.player
    keys = ([player_key(n) for n in players] if players else
            sorted(counts, key=lambda k: -counts[k])[:most])
    lines = []
    for k in keys:
        points = tuple((n, float(p.score)) for n, g in enumerate(over, start=1)
                       for p in g.players if player_key(p.player) == k and p.score is not None)
        if points:
            lines.append(Line(shown_name.get(k, k), points))
    if not lines:
        return LineChart(chart_title, empty="No scores kept for these players yet.")
    ticks = tuple((n, time.strftime("%d %b", time.localtime(g.started)))
                  for n, g in enumerate(over, start=1)) if len(over) <= 12 else ()
    return LineChart(chart_title, tuple(lines), len(over), x_ticks=ticks)


def wrap(text: str, width: int) -> str:
    """Text cut into lines of at most ``width`` characters, at spaces."""
    return "\n".join(textwrap.wrap(text, width, break_on_hyphens=False))
