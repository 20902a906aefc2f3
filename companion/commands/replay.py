"""`companion replay FILE... [--json]`: re-score game files and print the standings.

Each file is read, replayed and reported on its own, so one bad file does not hide the others.
Exit status: 0 when every file replays, 1 when a file does not replay (a bad setup or call,
named with its line), 2 when a file cannot be read (missing, a folder, not UTF-8, too large),
3 if the rules themselves fail on a file (a bug to report; the fuzz tests look for it).
Nothing a file holds makes the command print a traceback: the rules name every bad input
(tested with fuzzed files in tests/companion/commands/test_replay_command.py).
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

HELP = "replay game files (setup, then one call per line) and print the standings"

#: The largest file read, in bytes: a long game file is a few kilobytes.
MAX_FILE_BYTES = 8_000_000


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", type=Path, nargs="+", metavar="FILE",
                        help="game file, or - for standard input (format: docs/game-file.md); "
                        "several files are replayed one after the other")
    parser.add_argument("--json", action="store_true",
                        help="print one JSON object per file, one per line, instead of tables")


def _read(path: Path) -> str:
    """The text of ``path`` (or standard input for ``-``). Raises OSError or ValueError."""
    if str(path) == "-":
        data = sys.stdin.buffer.read(MAX_FILE_BYTES + 1)
    else:
        with path.open("rb") as f:
            data = f.read(MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:
        raise ValueError(f"larger than {MAX_FILE_BYTES} bytes; a game file is a few kilobytes")
    return data.decode("utf-8")


def _replay_one(path: Path, as_json: bool, first: bool) -> int:
    """Replay one file and print its standings; its exit status."""
    import rules
    from companion.ending import ended_standings

    source = str(path)
    try:
        text = _read(path)
    except (OSError, ValueError) as e:
        why = e.strerror if isinstance(e, OSError) and e.strerror else str(e)
        print(f"companion replay: cannot read {source}: {why}", file=sys.stderr)
        return 2
    try:
        parsed = rules.parse_game_file(text, source)
        game = parsed.play(source)
        standings = ended_standings(game, parsed.ending)
    except rules.RulesError as e:
        print(f"companion replay: {e}", file=sys.stderr)
        return 1
    except (RecursionError, MemoryError, ValueError, TypeError, KeyError, IndexError,
            AssertionError) as e:  # a rules bug, not the file's fault: say so, briefly
        print(f"companion replay: {source}: the rules failed on this file ({type(e).__name__}: "
              f"{str(e)[:200]}); please report it with the file", file=sys.stderr)
        return 3
    if as_json:
        out: dict[str, Any] = {"file": source, "game": game.setup.game,
                               "calls": len(game.history), **standings.to_json()}
        print(json.dumps(out))
    else:
        if not first:
            print()
        print(f"{game.title}: {len(game.history)} calls from {source}")
        if parsed.ending == rules.Ending.ABANDONED:  # not "in progress": left, never resumed
            standings = replace(standings, is_over=True)
        print(standings.format())
    return 0


def run(args: argparse.Namespace) -> int:
    if sum(1 for f in args.files if str(f) == "-") > 1:
        print("companion replay: standard input (-) can be read once", file=sys.stderr)
        return 2
    worst = 0
    shown = 0
    for path in args.files:
        code = _replay_one(path, args.json, shown == 0)
        shown += code == 0
        worst = max(worst, code)
    return worst
