"""The game file: a setup in TOML, a ``---`` line, then one call per line as said at the table.

::

    # Friday night, round one
    game = "eye-for-an-eye"
    players = ["Ana", "Ben", "Cy"]
    seed = 7

    [options]
    characters = ["grubic", "riparian", "banksia"]
    ---
    [0:03.200] Grubic: Spear Thrust 3 on Riparian
    [0:04.100] Riparian: Parry 2
    Next round

Times in brackets are optional (``m:ss.sss`` or seconds since the round began). ``#`` starts a
comment line. A game that ended before its calls end it says how in the setup's ``ending``
key (:class:`Ending`: ended by agreement, with no result, or abandoned). The app's journal
stores games in this same form, so ``companion replay`` can re-score any game. See
docs/game-file.md.
"""

from __future__ import annotations

import contextlib
import re
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from rules.core import (
    MAX_CALL_CHARS,
    Entry,
    Game,
    RulesError,
    Setup,
    SetupError,
    format_time,
    parse_time,
    shown,
)
from rules.registry import ReplayError, replay

_TIME = re.compile(r"^\[(?P<time>[^\]]*)\]\s*(?P<call>.*)$")
#: The largest game file read, in characters (a long game is a few thousand).
MAX_GAME_FILE_CHARS = 2_000_000
#: The largest setup (the TOML before ``---``), in characters.
MAX_SETUP_CHARS = 20_000


class GameFileError(RulesError):
    """Raised when a game file cannot be read or replayed; names the line and why."""

    def __init__(self, line: int | None, message: str, source: str = "game file") -> None:
        self.line = line
        where = f"{source}, line {line}" if line is not None else source
        super().__init__(f"{where}: {message}")


class Ending(StrEnum):
    """How a game ended that its calls do not end: the game file's ``ending`` (a game the
    calls end, won or shared, needs none; a game with none that is not over is unfinished)."""

    #: The players ended it by agreement: the standings at that moment are the result.
    AGREED = "agreed"
    #: The players ended it by agreement with no result: a game played, won by nobody.
    NO_RESULT = "no result"
    #: Left unfinished, never to be resumed: no result, and not counted as played.
    ABANDONED = "abandoned"

    @classmethod
    def read(cls, value: object, where: str = "ending") -> Ending:
        """The ending a file or a journal names. Raised when it names none: RulesError
        naming ``where``, the value and the endings there are."""
        if isinstance(value, str):
            with contextlib.suppress(ValueError):
                return cls(value)
        words = ", ".join(repr(e.value) for e in cls)
        raise RulesError(f"{where} = {shown(value)}: must be one of {words}")


@dataclass(frozen=True)
class GameFile:
    """A parsed game file: its setup, its calls, each with the line it came from, and how it
    ended when the calls do not end it (:class:`Ending`, else None)."""

    setup: Setup
    entries: tuple[Entry, ...]
    lines: tuple[int, ...]
    ending: Ending | None = None

    def play(self, source: str = "game file") -> Game[Any]:
        """Replay the calls; a failing call raises :class:`GameFileError` naming its line, and
        so does an ``ending`` given for a game its calls have ended (it needs none)."""
        try:
            game = replay(self.setup, self.entries)
        except ReplayError as e:
            message = str(e.cause)
            if not message.startswith((e.entry.call, repr(e.entry.call))):
                message = f"{e.entry.call!r}: {message}"
            raise GameFileError(self.lines[e.index - 1], message, source) from e
        except SetupError as e:
            raise GameFileError(None, f"setup: {e}", source) from e
        if self.ending is not None and game.is_over:
            winner = game.standings().winner
            raise GameFileError(None, f"ending = {self.ending.value!r}, but the calls end the "
                                f"game ({f'{winner} won' if winner else 'it is over'}): a game "
                                "its calls end has no ending key", source)
        return game


def parse_game_file(text: str, source: str = "game file") -> GameFile:
    """Read a game file's text. Raises :class:`GameFileError` naming the line."""
    if not isinstance(text, str):
        raise GameFileError(None, f"a game file is text, not {type(text).__name__}", source)
    if len(text) > MAX_GAME_FILE_CHARS:
        raise GameFileError(None, f"{len(text)} characters; a game file has at most "
                            f"{MAX_GAME_FILE_CHARS}", source)
    lines = text.splitlines()
    try:
        split = next(i for i, line in enumerate(lines) if line.strip() == "---")
    except StopIteration:
        raise GameFileError(None, "no '---' line between the setup and the calls",
                            source) from None
    header = "\n".join(lines[:split])
    if len(header) > MAX_SETUP_CHARS:
        raise GameFileError(None, f"the setup has {len(header)} characters; at most "
                            f"{MAX_SETUP_CHARS}", source)
    try:
        data = tomllib.loads(header)
    except tomllib.TOMLDecodeError as e:
        raise GameFileError(None, f"setup is not valid TOML: {e}", source) from e
    except RecursionError:
        raise GameFileError(None, "setup is not valid TOML: nested too deeply",
                            source) from None
    except ValueError as e:  # tomllib: an integer of more than 4300 digits
        raise GameFileError(None, f"setup is not valid TOML: {shown(str(e))}", source) from e
    ending: Ending | None = None
    if "ending" in data:
        try:
            ending = Ending.read(data.pop("ending"))
        except RulesError as e:
            raise GameFileError(None, str(e), source) from e
    try:
        setup = Setup.from_json(data)
    except SetupError as e:
        raise GameFileError(None, str(e), source) from e
    entries: list[Entry] = []
    numbers: list[int] = []
    for number, raw in enumerate(lines[split + 1:], start=split + 2):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if len(line) > MAX_CALL_CHARS + 20:
            raise GameFileError(number, f"{len(line)} characters; a call has at most "
                                f"{MAX_CALL_CHARS}", source)
        at: float | None = None
        match = _TIME.match(line)
        if match:
            try:
                at = parse_time(match["time"])
            except RulesError as e:
                raise GameFileError(number, str(e), source) from e
            line = match["call"].strip()
            if not line:
                raise GameFileError(number, "a time with no call after it", source)
        entries.append(Entry(line, at))
        numbers.append(number)
    return GameFile(setup, tuple(entries), tuple(numbers), ending)


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        escaped = value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
        return f'"{escaped}"'
    if isinstance(value, Sequence):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{_toml_key(k)} = {_toml_value(v)}"
                               for k, v in value.items()) + "}"
    if value is None:
        raise ValueError("TOML has no null: leave the key out instead")
    raise TypeError(f"cannot write {type(value).__name__} to TOML: {value!r}")


def _toml_key(key: Any) -> str:
    key = str(key)
    return key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else _toml_value(key)


def format_setup(setup: Setup, ending: Ending | None = None) -> str:
    """The setup as the TOML header of a game file (with how it ended, when ``ending``)."""
    out = [f"game = {_toml_value(setup.game)}",
           f"players = {_toml_value(list(setup.players))}",
           f"seed = {setup.seed}"]
    if ending is not None:
        out.append(f"ending = {_toml_value(Ending(ending).value)}")
    options = {k: v for k, v in setup.options.items() if v is not None}
    if options:
        out.append("")
        out.append("[options]")
        out.extend(f"{_toml_key(k)} = {_toml_value(v)}" for k, v in options.items())
    return "\n".join(out)


def format_game_file(setup: Setup, entries: Iterable[Entry], comment: str = "",
                     ending: Ending | None = None) -> str:
    """A whole game file; :func:`parse_game_file` reads it back to the same setup, calls and
    ending."""
    head = "".join(f"# {c}\n" for c in comment.splitlines())
    body = "".join(e.line() + "\n" for e in entries)
    return f"{head}{format_setup(setup, ending)}\n---\n{body}"


__all__ = ["Ending", "GameFile", "GameFileError", "format_game_file", "format_setup",
           "format_time", "parse_game_file"]
