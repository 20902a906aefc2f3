"""The `companion` command.

Each subcommand lives in its own module under :mod:`companion.commands`, which exposes
``HELP`` (one line), ``add_arguments(parser)`` and ``run(args) -> int``. Modules are found by
name, so a new command is a new file. Heavy imports (Kivy, OpenCV) happen inside ``run``, so
``companion --help`` stays quick.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from collections.abc import Sequence

from companion import commands


def _command_modules() -> dict[str, object]:
    found: dict[str, object] = {}
    for info in sorted(pkgutil.iter_modules(commands.__path__), key=lambda i: i.name):
        if info.name.startswith("_"):
            continue
        found[info.name.replace("_", "-")] = importlib.import_module(
            f"{commands.__name__}.{info.name}"
        )
    return found


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="companion",
        description="The table companion: reads the dice, keeps the rules, runs the round clock. "
        "With no command it starts the app.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, module in _command_modules().items():
        p = sub.add_parser(name, help=getattr(module, "HELP", None),
                           description=getattr(module, "HELP", None))
        module.add_arguments(p)  # type: ignore[attr-defined]
        p.set_defaults(_run=module.run)  # type: ignore[attr-defined]
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        if "start" in _command_modules():
            args = parser.parse_args(["start", *(argv or [])])
        else:
            parser.print_help()
            return 0
    try:
        return int(args._run(args))
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
