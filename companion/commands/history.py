"""`companion history`: every game played here; one game call by call; export, import, forget.

::

    companion history [--game G] [--player P] [--limit N] [--json]
    companion history show ID [--at N | --steps] [--json]
    companion history export csv|bgstats|zip FILE [--game G] [--player P]
    companion history import FILE...
    companion history --forget PLAYER
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

HELP = "past games: list, step through one, export (CSV, BG Stats, zip), import, forget a player"


def _filters(p: argparse.ArgumentParser) -> None:
    p.add_argument("--game", help="only this game (short name, e.g. dice-forge)")
    p.add_argument("--player", help="only games with this player (any case)")


def _journal_arg(p: argparse.ArgumentParser) -> None:
    p.add_argument("--journal", type=Path, default=argparse.SUPPRESS,
                   help="journal file (default: the companion's own, in its data folder)")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    _journal_arg(parser)
    _filters(parser)
    parser.add_argument("--limit", type=int, default=None,
                        help="list at most this many games (newest first)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.add_argument("--forget", metavar="PLAYER",
                        help="remove PLAYER from every finished game and all statistics")
    sub = parser.add_subparsers(dest="action", metavar="ACTION")
    show = sub.add_parser("show", help="one game: its result, its calls, or the standings "
                                       "after any call")
    show.add_argument("id", type=int, help="game id (from the list)")
    show.add_argument("--at", type=int, default=None,
                      help="standings after this many calls (0 = the start)")
    show.add_argument("--steps", action="store_true",
                      help="every call with what it did, from the first to the last")
    show.add_argument("--json", action="store_true", help="print JSON")
    _journal_arg(show)
    export = sub.add_parser("export", help="write games as CSV, BG Stats JSON (or an .html "
                                           "page of import links), or a zip of game files")
    export.add_argument("format", choices=("csv", "bgstats", "zip"))
    export.add_argument("file", type=Path, help="file to write, or - for standard output "
                                                "(csv and bgstats JSON)")
    _filters(export)
    _journal_arg(export)
    imp = sub.add_parser("import", help="add game files (or zips of them) from another "
                                        "companion to this history")
    imp.add_argument("files", type=Path, nargs="+")
    imp.add_argument("--wait", type=float, default=0.0, metavar="SECONDS",
                     help="when another companion uses the data folder, read the files "
                     "meanwhile and wait up to SECONDS for it to let go before writing")
    _journal_arg(imp)


def open_history(args: argparse.Namespace, command: str, create: bool = False) -> Any:
    """The history of the journal named by ``--journal`` (or the companion's own); None, with
    a message, when there is no journal there (and ``create`` is False) or it is not one."""
    from companion.history import History
    from companion.paths import journal_path

    given = getattr(args, "journal", None)
    path = given if given is not None else journal_path()
    if create and given is None and not path.exists():
        try:  # a new machine takes another companion's games: its data folder comes first
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            print(f"companion {command}: cannot make {path.parent}: {e}", file=sys.stderr)
            return None
    if not path.exists() and not (create and path.parent.is_dir()):
        if given is not None:
            print(f"companion {command}: no journal at {path}", file=sys.stderr)
        else:
            print("No games have been played on this machine yet.")
        return None
    if path.is_dir():
        print(f"companion {command}: {path} is a folder, not a journal file", file=sys.stderr)
        return None
    try:
        history = History(path)
        waiting = len(history.stale())
        if waiting > 50:  # a first look at a long journal replays every game once
            print(f"Reading {waiting:,} games into the history index (once)...",
                  file=sys.stderr)
        history.refresh()
    except sqlite3.DatabaseError as e:
        print(f"companion {command}: {path} is not a readable journal ({e})", file=sys.stderr)
        return None
    return history


def check_game_name(name: str | None, command: str) -> bool:
    import rules

    if name is None or name in rules.game_names():
        return True
    print(f"companion {command}: unknown game {name!r}; choose one of: "
          f"{', '.join(rules.game_names())}", file=sys.stderr)
    return False


def run(args: argparse.Namespace) -> int:
    if not check_game_name(getattr(args, "game", None), "history"):
        return 2
    if getattr(args, "limit", None) is not None and args.limit < 1:
        print(f"companion history: --limit {args.limit}: give 1 or more", file=sys.stderr)
        return 2
    history = open_history(args, "history", create=args.action == "import")
    if history is None:
        return 2 if getattr(args, "journal", None) is not None or args.action else 0
    with history:
        if args.forget is not None:
            return _writing(history, "history --forget", lambda: _forget(history, args.forget))
        if args.action == "show":
            return _show(history, args)
        if args.action == "export":
            return _export(history, args)
        if args.action == "import":
            return _import(history, args)
        return _list(history, args)


def _writing(history: Any, command: str, write: Callable[[], int]) -> int:
    """Run ``write`` holding the data folder's lock
    (:func:`companion.store.take_journal_lock`), as the app does; while another companion
    holds it (an app running on this data folder, or on one whose journal is the same file)
    or the folder is read-only, change nothing and say why (exit status 2)."""
    from companion.store import take_journal_lock

    lock, why = take_journal_lock(history.journal.path, refused="nothing was changed")
    if lock is None:
        if "nothing was changed" not in why:
            why += " Nothing was changed."
        print(f"companion {command}: {why}", file=sys.stderr)
        return 2
    try:
        return write()
    finally:
        lock.release()


def _list(history: Any, args: argparse.Namespace) -> int:
    from companion.history.text import games_table

    games = history.games(game=args.game, player=args.player, limit=args.limit)
    if args.json:
        print(json.dumps({"games": [g.to_json() for g in games],
                          "total": history.count(args.game, args.player)}))
        return 0
    if not games:
        print("No games" + (f" with {args.player}" if args.player else "")
              + (f" of {args.game}" if args.game else "") + " in the history.")
        return 0
    print(games_table(games))
    total = history.count(args.game, args.player)
    if total > len(games):
        print(f"({len(games)} of {total} games; --limit shows more)")
    return 0


def _show(history: Any, args: argparse.Namespace) -> int:
    import rules
    from companion.history import HistoryError, Replayer
    from companion.history.text import game_detail

    try:
        summary = history.game(args.id)
    except HistoryError as e:
        print(f"companion history show: {e}", file=sys.stderr)
        return 2
    record = history.journal.load(args.id)
    try:
        replayer = Replayer(record.setup, record.entries)
    except rules.RulesError as e:
        print(game_detail(summary))
        print(f"companion history show: game {args.id} does not replay: {e}", file=sys.stderr)
        return 1
    if args.at is not None and not 0 <= args.at <= replayer.total:
        print(f"companion history show: --at {args.at}: game {args.id} has "
              f"{replayer.total} calls (give 0 to {replayer.total})", file=sys.stderr)
        return 2
    if args.json:
        step = replayer.goto(replayer.total if args.at is None else args.at)
        out = {**summary.to_json(), "at": step.index,
               "call": None if step.entry is None else step.entry.call,
               "standings": step.standings.to_json(),
               "calls": [e.call for e in replayer.entries]}
        print(json.dumps(out))
        return 0
    print(game_detail(summary))
    if args.steps:
        print()
        for i in range(1, replayer.total + 1):
            step = replayer.goto(i)
            assert step.entry is not None
            done = "; ".join(e.text for e in step.events if e.text != step.entry.call)
            print(f"{i:4d}  {step.entry.line()}" + (f"  -> {done}" if done else ""))
    elif args.at is not None:
        step = replayer.goto(args.at)
        print(f"\nAfter call {step.index} of {step.total}"
              + (f" ({step.entry.call})" if step.entry else " (the start)") + ":")
        print(step.standings.format())
    else:
        print()
        print(replayer.goto(replayer.total).standings.format())
    if replayer.problem:
        print(f"companion history show: {replayer.problem}", file=sys.stderr)
        return 1
    return 0


def _export(history: Any, args: argparse.Namespace) -> int:
    from companion.history import bgstats, export

    games = history.games(game=args.game, player=args.player)
    games.reverse()  # oldest first in files
    out: Path = args.file
    to_stdout = str(out) == "-"
    if to_stdout and args.format == "zip":
        print("companion history export: a zip needs a file name, not -", file=sys.stderr)
        return 2
    if not to_stdout and out.is_dir():
        print(f"companion history export: {out} is a folder; give a file name",
              file=sys.stderr)
        return 2
    if to_stdout:  # (the same text as the file would hold)
        if args.format == "csv":
            export.write_csv(games, sys.stdout)
        else:
            sys.stdout.write(bgstats.bgstats_text(games, page=False)[0])
        return 0
    try:  # the file appears whole, and a link at its name is replaced, never written through
        _, what = export.export_file(history, games, args.format, out)
    except OSError as e:
        print(f"companion history export: cannot write {out}: {e.strerror or e}",
              file=sys.stderr)
        return 2
    print(f"Wrote {what} to {out}")
    return 0


def _import(history: Any, args: argparse.Namespace) -> int:
    """Read and replay the files with the data folder free (a big zip takes minutes, and a
    companion starting meanwhile must not find its folder locked), saying how far it is;
    then hold the lock only to write (seconds)."""
    import os
    import time

    from companion.history import importing
    from companion.store import take_journal_lock

    path = history.journal.path
    if args.wait <= 0:  # said at once, before minutes of reading: another companion runs
        lock, why = take_journal_lock(path, refused="nothing was changed")
        if lock is None:
            print(f"companion history import: {why}", file=sys.stderr)
            return 2
        lock.release()
    started = time.monotonic()
    said = [started]

    def progress(done: int, source: str) -> None:
        now = time.monotonic()
        if now - said[0] >= 2.0 or done == 1:
            said[0] = now
            print(f"Read {done:,} game file(s) ({now - started:.0f} s; the data folder is not "
                  "locked while reading)...", file=sys.stderr, flush=True)

    prepared = importing.prepare_paths(history, args.files, progress,
                                       workers=os.cpu_count() or 1)
    count = sum(len(batch) for batch in prepared)
    print(f"Read {count:,} game file(s) in {time.monotonic() - started:.0f} s; writing...",
          file=sys.stderr, flush=True)
    lock, why = take_journal_lock(path, refused="nothing was changed")
    deadline = time.monotonic() + max(0.0, args.wait)
    if lock is None and args.wait > 0:
        print(f"companion history import: waiting up to {args.wait:.0f} s: {why}",
              file=sys.stderr, flush=True)
        while lock is None and time.monotonic() < deadline:
            time.sleep(0.2)
            lock, why = take_journal_lock(path, refused="nothing was changed")
    if lock is None:
        print(f"companion history import: {why} The files were read; none was added.",
              file=sys.stderr)
        return 2
    try:
        results = importing.write_prepared(history, prepared)
    finally:
        lock.release()
    for r in results:
        print(r.message, file=sys.stdout if r.game_id is not None else sys.stderr)
    added = sum(r.game_id is not None for r in results)
    print(f"{added} of {len(results)} game file(s) added to the history, "
          f"{len(results) - added} refused")
    return 0 if added == len(results) else 1


def _forget(history: Any, name: str) -> int:
    from companion.history import forget_player

    if not name.strip():
        print("companion history --forget: give the player's name", file=sys.stderr)
        return 2
    report = forget_player(history, name)
    print(report.text())
    for problem in report.problems:
        print(f"  {problem}", file=sys.stderr)
    return 0
