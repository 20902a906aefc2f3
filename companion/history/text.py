"""Plain-text tables of the history and statistics, as ``companion history`` and ``companion
stats`` print them."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from companion.ending import AGREED, AGREED_NOTE, NO_RESULT, NO_RESULT_NOTE
from companion.history.fairness import Fairness
from companion.history.stats import GameStats, PlayerStats, Statistics
from companion.history.summary import GameSummary, game_title


def table(columns: Sequence[str], rows: Iterable[Sequence[str]]) -> str:
    """Columns padded to their widest cell, a rule under the header."""
    cells = [list(columns), *([str(c) for c in r] for r in rows)]
    widths = [max(len(r[i]) for r in cells) for i in range(len(columns))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip()
             for r in cells]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def minutes(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    m = round(seconds / 60)
    return f"{m // 60} h {m % 60:02d} min" if m >= 60 else f"{m} min"


def number(value: float | None, digits: int = 1) -> str:
    if value is None:
        return "-"
    return f"{value:,.0f}" if float(value).is_integer() else f"{value:,.{digits}f}"


def percent(share: float) -> str:
    return f"{share:.0%}"


def state(g: GameSummary) -> str:
    if g.error:
        return "does not replay"
    if g.is_over:
        if g.ending == AGREED:
            return AGREED_NOTE
        return NO_RESULT_NOTE if g.ending == NO_RESULT else "over"
    return "unfinished (resume)" if g.can_resume else "abandoned"


def games_table(games: Sequence[GameSummary]) -> str:
    rows = []
    for g in games:
        who = ", ".join(p.player + (" *" if p.won else "") for p in g.players)
        rows.append((str(g.id), g.date, game_title(g.game), who, g.winner or "-", str(g.calls),
                     minutes(g.duration), state(g)))
    return table(("id", "date", "game", "players (* won)", "winner", "calls", "length",
                  "state"), rows)


def game_detail(g: GameSummary) -> str:
    head = (f"Game {g.id}: {game_title(g.game)}{f' ({g.variant})' if g.variant else ''}"
            f"{' - ' + g.title if g.title else ''}\n"
            f"{g.date}, {g.calls} calls, {minutes(g.duration)}, {state(g)}")
    if g.error:
        head += f"\n{g.error}"
    columns = ["seat", "player", "team", "role", "score", "rank", ""]
    rows = [[str(p.seat + 1), p.player, p.team or "", p.role or "", number(p.score),
             "-" if p.rank is None else str(p.rank), "won" if p.won else ""]
            for p in g.players]
    for i in (3, 2):  # no team or role column when nobody has one
        if not any(r[i] for r in rows):
            del columns[i]
            for r in rows:
                del r[i]
    return head + "\n\n" + table(columns, rows)


def players_table(players: Sequence[PlayerStats]) -> str:
    rows = []
    for p in players:
        rows.append((p.player, str(p.games), str(p.wins), percent(p.win_rate),
                     str(p.no_result), str(p.unfinished), p.streak.text(),
                     str(p.longest_winning_streak),
                     ", ".join(f"{n} ({k})" for n, k in p.opponents) or "-"))
    return table(("player", "games", "wins", "win rate", "no result", "unfinished", "streak",
                  "best streak", "most played against"), rows)


def per_game_table(players: Sequence[PlayerStats]) -> str:
    rows = []
    for p in players:
        for g in p.per_game:
            rows.append((p.player, game_title(g.game), str(g.games), str(g.wins),
                         percent(g.win_rate), number(g.points), number(g.average),
                         number(g.best)))
    return table(("player", "game", "games", "wins", "win rate", "points", "average", "best"),
                 rows)


def games_stats_table(games: Sequence[GameStats]) -> str:
    rows = []
    for g in games:
        rows.append((g.title, str(g.games), str(g.unfinished), number(g.average_calls),
                     "-" if g.average_minutes is None else f"{g.average_minutes:.0f} min",
                     number(g.average_players), number(g.average_winning_score),
                     f"{number(g.best_score)} ({g.best_by})" if g.best_by else "-"))
    return table(("game", "games", "unfinished", "calls", "length", "players",
                  "winning score", "best score"), rows)


def counts_table(g: GameStats) -> str:
    parts = []
    for kind, items in ((g.role_kind, g.roles), (g.card_kind, g.cards)):
        if kind is None or not items:
            continue
        parts.append(f"{g.title}: each {kind}\n" + table(
            (kind, "played", "won", "win rate"),
            ((c.name, str(c.played), str(c.won), percent(c.win_rate)) for c in items)))
    return "\n\n".join(parts)


def statistics_text(stats: Statistics) -> str:
    if not stats.players and not stats.games:
        return "No games in the history" + (
            f" for {', '.join(f'{k} {v}' for k, v in stats.filters.items())}"
            if stats.filters else "") + "."
    parts = ["Players\n" + players_table(stats.players),
             "Players per game\n" + per_game_table(stats.players),
             "Games\n" + games_stats_table(stats.games)]
    parts += [c for c in (counts_table(g) for g in stats.games) if c]
    return "\n\n".join(parts)


def fairness_text(results: Sequence[Fairness]) -> str:
    if not results:
        return "No rolls recorded yet: the camera records every settled roll during a game."
    parts = []
    for f in results:
        rows = [(x.face, str(x.count), percent(x.share), f"{x.low:.1%} - {x.high:.1%}",
                 percent(x.expected) if x.expected else "-") for x in f.faces]
        block = f.verdict[:1].upper() + f.verdict[1:] + "."
        if f.unsure:
            block += f"\n({f.unsure:,} unsure dice not counted.)"
        if rows:
            block += "\n" + table(("face", "rolls", "share", "95% interval", "fair"), rows)
        parts.append(block)
    return "\n\n".join(parts)
