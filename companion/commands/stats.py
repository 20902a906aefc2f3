"""`companion stats`: player and game statistics, dice fairness, and charts as PNG.

::

    companion stats [--game G] [--player P] [--json]
    companion stats --dice [--json]
    companion stats --chart wins|scores|lengths|roles|dice [--output FILE.png]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

HELP = "player and game statistics, dice fairness, charts (PNG, 800x480)"

CHARTS = ("wins", "scores", "lengths", "roles", "dice")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--journal", type=Path, default=None,
                        help="journal file (default: the companion's own, in its data folder)")
    parser.add_argument("--game", help="only this game (short name, e.g. dice-forge)")
    parser.add_argument("--player", help="only this player and the games they played")
    parser.add_argument("--dice", action="store_true",
                        help="dice statistics: face counts and a fairness verdict per set "
                             "and colour")
    parser.add_argument("--chart", choices=CHARTS,
                        help="draw a chart as PNG (800x480) instead of printing tables")
    parser.add_argument("--dice-group", metavar="LABEL",
                        help="with --chart dice: which dice (e.g. 'the red dice'; default: "
                             "the most rolled)")
    parser.add_argument("--output", "-o", type=Path, default=None,
                        help="PNG file for --chart (default: <chart>.png here)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of tables")
    parser.add_argument("--clear-dice", metavar="LABEL",
                        help="forget the rolls of one group of dice, as --dice names it "
                             "(e.g. 'the red dice'), or 'all' (new dice on the table)")


def run(args: argparse.Namespace) -> int:
    from companion.commands.history import check_game_name, open_history

    if not check_game_name(args.game, "stats"):
        return 2
    history = open_history(args, "stats")
    if history is None:
        return 2 if args.journal is not None else 0
    with history:
        if args.clear_dice is not None:
            return _clear(history, args.clear_dice)
        if args.chart is not None:
            return _chart(history, args)
        if args.dice:
            return _dice(history, args)
        return _tables(history, args)


def _tables(history: Any, args: argparse.Namespace) -> int:
    from companion.history import statistics
    from companion.history.text import statistics_text

    stats = statistics(history, game=args.game, player=args.player)
    if args.player is not None and stats.player(args.player) is None and not args.json:
        known = history.players()
        print(f"companion stats: no player {args.player!r} in the history"
              + (f"; players: {', '.join(known)}" if known else ""), file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(stats.to_json()))
    else:
        print(statistics_text(stats))
    return 0


def _fairness(history: Any) -> list[Any]:
    from companion.history import RollLog, assess_counts

    with RollLog(history.journal) as log:
        return assess_counts(log.counts())


def _clear(history: Any, label: str) -> int:
    from companion.history import RollLog

    with RollLog(history.journal) as log:
        if label.strip().casefold() == "all":
            gone = log.clear()
            print(f"Forgot all {gone:,} rolls")
            return 0
        groups = {g.label.casefold(): g for g in log.counts()}
        group = groups.get(label.strip().casefold())
        if group is None:
            print(f"companion stats: no dice called {label!r}; recorded: "
                  + (", ".join(repr(g.label) for g in log.counts()) or "none"), file=sys.stderr)
            return 2
        gone = log.clear(dice_set=group.dice_set or "", colour=group.colour or "")
        print(f"Forgot the rolls of {group.label} ({gone:,} rolls)")
        return 0


def _dice(history: Any, args: argparse.Namespace) -> int:
    from companion.history.text import fairness_text

    results = _fairness(history)
    if args.json:
        print(json.dumps({"groups": [r.to_json() for r in results]}))
    else:
        print(fairness_text(results))
    return 0


def _chart(history: Any, args: argparse.Namespace) -> int:
    from companion.history import charts, statistics

    out: Path = args.output or Path(f"{args.chart}.png")
    if out.is_dir():
        out = out / f"{args.chart}.png"
    if args.chart == "dice":
        results = _fairness(history)
        if args.dice_group is not None:
            wanted = [r for r in results if r.label.casefold() == args.dice_group.casefold()]
            if not wanted:
                print(f"companion stats: no dice called {args.dice_group!r}; recorded: "
                      + (", ".join(repr(r.label) for r in results) or "none"), file=sys.stderr)
                return 2
            results = wanted
        if not results:
            png = charts.empty_chart("Dice", "No rolls recorded yet.")
        else:
            png = charts.dice_chart(results[0])
    elif args.chart == "scores":
        games = history.games(game=args.game, player=args.player)
        png = charts.scores_chart(games, [args.player] if args.player else None)
    else:
        stats = statistics(history, game=args.game, player=args.player)
        if args.chart == "wins":
            png = charts.wins_chart(stats.players)
        elif args.chart == "lengths":
            png = charts.lengths_chart(stats.games)
        else:
            if args.game is None:
                print("companion stats: --chart roles needs --game (characters and cards "
                      "belong to one game)", file=sys.stderr)
                return 2
            game = stats.game(args.game)
            if game is None:
                png = charts.empty_chart(args.game, "No finished games of this game yet.")
            else:
                png = charts.roles_chart(game)
    try:
        out.write_bytes(png)
    except OSError as e:
        print(f"companion stats: cannot write {out}: {e}", file=sys.stderr)
        return 2
    print(f"Wrote {out} (800x480)")
    return 0
