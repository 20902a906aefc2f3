"""Charts of the history as PNG, sized for the 7" screen (800x480): matplotlib's Agg canvas.

matplotlib is imported inside :func:`_figure` only, so nothing else in the companion pays
its memory (tens of MB) unless a chart is drawn. Each function returns PNG bytes; the CLI
writes them to a file, a screen can load them into a texture. The figures use no global
pyplot state, so drawing on a worker thread is safe.
"""

from __future__ import annotations

import io
import time
from collections.abc import Sequence
from typing import Any

from companion.history.fairness import Fairness
from companion.history.index import GameSummary, game_title, player_key
from companion.history.stats import GameStats, PlayerStats

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


def wins_chart(players: Sequence[PlayerStats], title: str = "Win rate",
               most: int = 8) -> bytes:
    """Horizontal bars: each player's win rate, with wins / games written on the bar."""
    shown = [p for p in players if p.games][:most]
    if not shown:
        return empty_chart(title, "No finished games yet.")
    shown = sorted(shown, key=lambda p: (p.win_rate, p.games))
    fig = _figure()
    ax = fig.add_subplot()
    names = [p.player for p in shown]
    rates = [100 * p.win_rate for p in shown]
    bars = ax.barh(names, rates, color=PALETTE[0], height=0.6)
    for bar, p in zip(bars, shown, strict=True):
        ax.text(bar.get_width() + 1, bar.get_y() + bar.get_height() / 2,
                f"{p.wins} of {p.games}", va="center", fontsize=FONT)
    ax.set_xlim(0, 115)
    ax.set_xticks([0, 25, 50, 75, 100], ["0%", "25%", "50%", "75%", "100%"])
    _style(ax, title)
    return _png(fig)


def scores_chart(games: Sequence[GameSummary], players: Sequence[str] | None = None,
                 title: str | None = None, most: int = 6) -> bytes:
    """Lines: each player's score game after game (one game's scores only: they are not
    comparable between games), oldest on the left."""
    over = sorted((g for g in games if g.is_over and not g.error), key=lambda g: g.started)
    names = {g.game for g in over}
    chart_title = title or (f"Scores in {game_title(next(iter(names)))}" if len(names) == 1
                            else "Scores")
    if len(names) > 1:
        return empty_chart(chart_title, "Scores of different games do not compare: "
                                   "choose one game (--game).")
    if not over:
        return empty_chart(chart_title, "No finished games yet.")
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
    fig = _figure()
    ax = fig.add_subplot()
    for i, k in enumerate(keys):
        xs, ys = [], []
        for n, g in enumerate(over, start=1):
            for p in g.players:
                if player_key(p.player) == k and p.score is not None:
                    xs.append(n)
                    ys.append(p.score)
        if xs:
            ax.plot(xs, ys, marker="o", linewidth=2.5, markersize=6,
                    color=PALETTE[i % len(PALETTE)], label=shown_name.get(k, k))
    ax.set_xlabel("game (oldest first)", fontsize=FONT)
    ax.grid(axis="y", alpha=0.3)
    if len(over) <= 12:
        ax.set_xticks(range(1, len(over) + 1),
                      [time.strftime("%d %b", time.localtime(g.started)) for g in over],
                      rotation=0)
    ax.legend(fontsize=FONT, frameon=False, loc="upper left", bbox_to_anchor=(1, 1))
    _style(ax, chart_title)
    return _png(fig)


def lengths_chart(games: Sequence[GameStats], title: str = "Average game length") -> bytes:
    """Bars: each game's average length in minutes, with how many games it is over."""
    shown = [g for g in games if g.average_minutes is not None]
    if not shown:
        return empty_chart(title, "No finished games with a length yet.")
    fig = _figure()
    ax = fig.add_subplot()
    bars = ax.bar([_wrap(g.title, 12) for g in shown],
                  [g.average_minutes or 0 for g in shown], color=PALETTE[2], width=0.6)
    for bar, g in zip(bars, shown, strict=True):
        ax.text(bar.get_x() + bar.get_width() / 2, bar.get_height(),
                f"{g.average_minutes:.0f} min\n{g.games} games", ha="center", va="bottom",
                fontsize=FONT - 1)
    ax.set_ylabel("minutes", fontsize=FONT)
    ax.set_ylim(0, max(g.average_minutes or 0 for g in shown) * 1.3)
    _style(ax, title)
    return _png(fig)


def roles_chart(game: GameStats, most: int = 10) -> bytes:
    """Bars: how often each character / tribe / objective / card was played, and won."""
    kind, items = ((game.role_kind, game.roles) if game.roles else
                   (game.card_kind, game.cards))
    title = f"{game.title}: each {kind or 'role'}, played and won"
    if not items:
        return empty_chart(title, f"{game.title} has no characters or cards to count yet.")
    shown = list(items[:most])[::-1]
    fig = _figure()
    ax = fig.add_subplot()
    names = [c.name for c in shown]
    ax.barh(names, [c.played for c in shown], color="#BBBBBB", height=0.7, label="played")
    ax.barh(names, [c.won for c in shown], color=PALETTE[1], height=0.7, label="won")
    for i, c in enumerate(shown):
        ax.text(c.played, i, f" {c.won} of {c.played}", va="center", fontsize=FONT - 1)
    ax.set_xlim(0, max(c.played for c in shown) * 1.25)
    ax.xaxis.set_major_locator(_whole_numbers())
    ax.legend(fontsize=FONT, frameon=False, loc="lower right")
    _style(ax, title)
    return _png(fig)


def dice_chart(result: Fairness) -> bytes:
    """Bars: each face's share with its 95% interval, the fair share as a line, the verdict
    underneath."""
    title = f"{result.label[:1].upper()}{result.label[1:]}: {result.rolls:,} rolls"
    if not result.faces or not result.rolls:
        return empty_chart(title, "No confident rolls recorded yet.")
    fig = _figure()
    ax = fig.add_subplot()
    faces = [f.face for f in result.faces]
    shares = [100 * f.share for f in result.faces]
    errors = [[100 * (f.share - f.low) for f in result.faces],
              [100 * (f.high - f.share) for f in result.faces]]
    colours = [PALETTE[5] if result.status == "biased" and f.face == result.face
               else PALETTE[0] for f in result.faces]
    ax.bar(faces, shares, color=colours, width=0.6, yerr=errors, capsize=8,
           error_kw={"elinewidth": 2, "ecolor": "#444444"}, label="share, 95% interval")
    fair = [100 * f.expected for f in result.faces if f.expected]
    if fair:
        ax.axhline(fair[0], color="#333333", linestyle="--", linewidth=1.5,
                   label=f"fair: {fair[0]:.1f}%")
    top = max(100 * f.high for f in result.faces)
    ax.set_ylim(0, max(top * 1.4, 1))
    ax.set_ylabel("% of rolls", fontsize=FONT)
    ax.legend(fontsize=FONT - 1, frameon=False, loc="upper left", ncols=2)
    _style(ax, title)
    verdict = result.verdict[:1].upper() + result.verdict[1:] + "."
    lines = _wrap(verdict, 88)
    fig.text(0.01, 0.01, lines, fontsize=FONT - 1, va="bottom")
    bottom = 0.06 + 0.045 * lines.count("\n")
    fig.get_layout_engine().set(rect=(0, bottom, 1, 1 - bottom))
    return _png(fig)


def _whole_numbers() -> Any:
    from matplotlib.ticker import MaxNLocator

    return MaxNLocator(integer=True)


def _wrap(text: str, width: int) -> str:
    import textwrap

    return "\n".join(textwrap.wrap(text, width, break_on_hyphens=False))
