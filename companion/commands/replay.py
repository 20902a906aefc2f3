"""`companion replay FILE [--json]`: re-score a game file and print the standings."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

HELP = "replay a game file (setup, then one call per line) and print the standings"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", type=Path, help="game file, or - for standard input "
                        "(format: docs/game-file.md)")
    parser.add_argument("--json", action="store_true",
                        help="print one JSON object instead of a table")


def run(args: argparse.Namespace) -> int:
    import rules

    source = str(args.file)
    try:
        text = sys.stdin.read() if source == "-" else args.file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        print(f"companion replay: cannot read {source}: {e}", file=sys.stderr)
        return 2
    try:
        game = rules.parse_game_file(text, source).play(source)
    except rules.RulesError as e:
        print(f"companion replay: {e}", file=sys.stderr)
        return 1
    standings = game.standings()
    if args.json:
        out = {"file": source, "game": game.setup.game, "calls": len(game.history),
               **standings.to_json()}
        print(json.dumps(out))
    else:
        print(f"{game.title}: {len(game.history)} calls from {source}")
        print(standings.format())
    return 0
