"""Charts of the history as PNG, sized for the 7" screen (800x480): matplotlib's Agg canvas.

What each chart shows is worked out in :mod:`companion.history.chartdata` (the table's screen
draws the same data with Kivy's graphics); this module only paints it. matplotlib is imported
inside :func:`_figure` only, so nothing else in the companion pays its memory (tens of MB)
unless a chart is drawn. Each function returns PNG bytes. The figures use no global pyplot
state, so drawing on a worker thread is safe.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

from companion.history import chartdata
from companion.history.chartdata import BarChart, LineChart, wrap
from companion.history.fairness import Fairness
from companion.history.stats import GameStats, PlayerStats
from companion.history.summary import GameSummary

#: The screen: 800x480 pixels at 100 dpi.
SIZE = (800, 480)
DPI = 100
#: Large enough to read on a 7" screen at arm's length.
FONT = 13

#: Colour-blind-safe colours (Okabe and Ito's palette).
PALETTE = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442",
           "#000000")
KINDS = ("wins", "scores", "lengths", "roles", "dice")


def _figure(size: tuple[int, int] = SIZE) -> Any:
    from matplotlib.figure import Figure

    fig = Figure(figsize=(size[0] / DPI, size[1] / DPI), dpi=DPI, layout="constrained")
    fig.set_facecolor("white")
    return fig


def _png(fig: Any) -> bytes:
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    FigureCanvasAgg(fig)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=DPI)
    return buf.getvalue()


def _style(ax: Any, title: str) -> None:
    ax.set_title(title, fontsize=FONT + 3, loc="left", pad=10)
    ax.tick_params(labelsize=FONT)
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)


def empty_chart(title: str, why: str) -> bytes:
    fig = _figure()
    ax = fig.add_subplot()
    ax.axis("off")
    ax.set_title(title, fontsize=FONT + 3, loc="left")
    ax.text(0.5, 0.5, why, ha="center", va="center", fontsize=FONT + 2, wrap=True,
            transform=ax.transAxes)
    return _png(fig)


def bar_chart(chart: BarChart) -> bytes:
    """Paint a :class:`~companion.history.chartdata.BarChart`."""
    if not chart.bars:
        return empty_chart(chart.title, chart.empty)
    fig = _figure()
    ax = fig.add_subplot()
    bars = list(chart.bars)
    if chart.horizontal:
        bars.reverse()  # matplotlib puts the first bar at the bottom
    names = [b.label if chart.horizontal else wrap(b.label, 12) for b in bars]
    values = [b.value for b in bars]
    inner = any(b.inner is not None for b in bars)
    colours = [PALETTE[5] if b.highlight else ("#BBBBBB" if inner else PALETTE[0])
               for b in bars]
    errors = None
    if all(b.low is not None and b.high is not None for b in bars):
        errors = [[b.value - (b.low or 0.0) for b in bars],
                  [(b.high or 0.0) - b.value for b in bars]]
    style = {"elinewidth": 2, "ecolor": "#444444"}
    label = chart.legend[0] if chart.legend else None
    if chart.horizontal:
        drawn = ax.barh(names, values, color=colours, height=0.6, label=label)
        if inner:
            ax.barh(names, [b.inner or 0.0 for b in bars], color=PALETTE[1], height=0.6,
                    label=chart.legend[1] if len(chart.legend) > 1 else None)
        for rect, b in zip(drawn, bars, strict=True):
            ax.text(rect.get_width() + chart.top * 0.01, rect.get_y() + rect.get_height() / 2,
                    b.text, va="center", fontsize=FONT - 1)
        ax.set_xlim(0, chart.top * 1.15)
        if chart.ticks:
            ax.set_xticks([v for v, _ in chart.ticks], [t for _, t in chart.ticks])
        if chart.unit:
            ax.set_xlabel(chart.unit, fontsize=FONT)
    else:
        drawn = ax.bar(names, values, color=colours, width=0.6, yerr=errors, capsize=8,
                       error_kw=style, label=label)
        if errors is None:
            for rect, b in zip(drawn, bars, strict=True):
                ax.text(rect.get_x() + rect.get_width() / 2, rect.get_height(), b.text,
                        ha="center", va="bottom", fontsize=FONT - 1)
        ax.set_ylim(0, chart.top)
        if chart.ticks:
            ax.set_yticks([v for v, _ in chart.ticks], [t for _, t in chart.ticks])
        if chart.unit:
            ax.set_ylabel(chart.unit, fontsize=FONT)
    if chart.reference is not None:
        ax.axhline(chart.reference, color="#333333", linestyle="--", linewidth=1.5,
                   label=chart.reference_label or None)
    if chart.legend or chart.reference_label:
        ax.legend(fontsize=FONT - 1, frameon=False, loc="lower right" if chart.horizontal
                  else "upper left", ncols=1 if chart.horizontal else 2)
    _style(ax, chart.title)
    if chart.note:
        lines = wrap(chart.note, 88)
        fig.text(0.01, 0.01, lines, fontsize=FONT - 1, va="bottom")
        bottom = 0.06 + 0.045 * lines.count("\n")
        fig.get_layout_engine().set(rect=(0, bottom, 1, 1 - bottom))
    return _png(fig)


def line_chart(chart: LineChart) -> bytes:
    """Paint a :class:`~companion.history.chartdata.LineChart`."""
    if not chart.lines:
        return empty_chart(chart.title, chart.empty)
    fig = _figure()
    ax = fig.add_subplot()
    for i, line in enumerate(chart.lines):
        ax.plot([x for x, _ in line.points], [y for _, y in line.points], marker="o",
                linewidth=2.5, markersize=6, color=PALETTE[i % len(PALETTE)], label=line.label)
    ax.set_xlabel(chart.x_label, fontsize=FONT)
    ax.grid(axis="y", alpha=0.3)
    if chart.x_ticks:
        ax.set_xticks([x for x, _ in chart.x_ticks], [t for _, t in chart.x_ticks], rotation=0)
    ax.legend(fontsize=FONT, frameon=False, loc="upper left", bbox_to_anchor=(1, 1))
    _style(ax, chart.title)
    return _png(fig)


def wins_chart(players: Sequence[PlayerStats], title: str = "Win rate",
               most: int = 8) -> bytes:
    """Horizontal bars: each player's win rate, with wins / games written on the bar."""
    return bar_chart(chartdata.wins(players, title, most))


def scores_chart(games: Sequence[GameSummary], players: Sequence[str] | None = None,
                 title: str | None = None, most: int = 6) -> bytes:
    """Lines: each player's score game after game (one game's scores only: they are not
    comparable between games), oldest on the left."""
    return line_chart(chartdata.scores(games, players, title, most))


def lengths_chart(games: Sequence[GameStats], title: str = "Average game length") -> bytes:
    """Bars: each game's average length in minutes, with how many games it is over."""
    return bar_chart(chartdata.game_lengths(games, title))


def roles_chart(game: GameStats, most: int = 10) -> bytes:
    """Bars: how often each character / tribe / objective / card was played, and won."""
    return bar_chart(chartdata.roles(game, most))


def dice_chart(result: Fairness) -> bytes:
    """Bars: each face's share with its 95% interval, the fair share as a line, the verdict
    underneath."""
    return bar_chart(chartdata.dice(result))
