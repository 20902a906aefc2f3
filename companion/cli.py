"""The `companion` command.

Each subcommand lives in its own module under :mod:`companion.commands` and is declared in
:data:`COMMANDS`, the table of commands: a module that gives ``HELP`` (one line),
``add_arguments(parser)`` and ``run(args) -> int`` (:class:`CommandModule`, checked by mypy for
every entry). A new command is a new module and one line here. Heavy imports (Kivy, OpenCV)
happen inside ``run``, so ``companion --help`` stays quick.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping, Sequence
from typing import Protocol

from companion.commands import (
    appliance,
    demo,
    doctor,
    hear,
    history,
    read,
    replay,
    start,
    stats,
    tournament,
)
from companion.commands.calibrate import command as calibrate


class CommandModule(Protocol):
    """What a command's module declares."""

    HELP: str

    def add_arguments(self, parser: argparse.ArgumentParser) -> None: ...

    def run(self, args: argparse.Namespace) -> int: ...


#: Every command, by the name typed after ``companion``, in the order ``--help`` lists them.
COMMANDS: Mapping[str, CommandModule] = {
    "appliance": appliance,
    "calibrate": calibrate,
    "demo": demo,
    "doctor": doctor,
    "hear": hear,
    "history": history,
    "read": read,
    "replay": replay,
    "start": start,
    "stats": stats,
    "tournament": tournament,
}
#: The command run when none is given.
DEFAULT = "start"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="companion",
        description="The table companion: reads the dice, keeps the rules, runs the round clock. "
        "With no command it starts the app.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, command in COMMANDS.items():
        p = sub.add_parser(name, help=command.HELP, description=command.HELP)
        command.add_arguments(p)
    return parser


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """The command line read: with no command, or with options first (``companion --camera
    replay:DIR``, as ``./start.sh --camera replay:DIR`` passes them), the options are the
    default command's (``start``); ``--help`` alone is the whole command's."""
    parser = build_parser()
    words = list(sys.argv[1:] if argv is None else argv)
    if not words or (words[0].startswith("-") and words[0] not in ("-h", "--help")):
        words = [DEFAULT, *words]
    return parser.parse_args(words)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        return int(COMMANDS[args.command].run(args))
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
