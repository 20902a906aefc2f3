"""The shared core of every game: calls, history, undo/redo, replay, options and standings.

A game is a subclass of :class:`Game`. Its whole mutable state lives in one object (usually a
dataclass) returned by :meth:`Game.initial_state`. :meth:`Game.apply` works on a deep copy of that
state and only swaps it in when the call succeeds, so an illegal call leaves the game exactly as
it was, whatever the game's own code did before raising. Undo and redo keep whole snapshots,
as python-chess's ``push``/``pop`` keep a small one.

Chance enters as calls (dice read by the camera or tapped in) or through the seeded
:class:`random.Random` kept inside the state; time enters as each call's ``at``: seconds since
the round began, given by the caller, kept to the millisecond.
"""

from __future__ import annotations

import copy
import dataclasses
import enum
import math
import random
import re
import reprlib
import types
import typing
import unicodedata
from abc import ABC, abstractmethod
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, TypeVar

__all__ = [
    "MAX_CALL_CHARS",
    "MAX_NAME_CHARS",
    "MAX_NESTING",
    "MAX_SECONDS",
    "NUMBER_WORDS",
    "Call",
    "Deal",
    "DealChoice",
    "Entry",
    "Event",
    "Game",
    "IllegalCall",
    "InvalidCall",
    "Placings",
    "PlayerResult",
    "Prepared",
    "Prompt",
    "RulesError",
    "Setup",
    "SetupError",
    "Standings",
    "check_nesting",
    "check_player_name",
    "format_time",
    "normalise_time",
    "options_from_mapping",
    "rank_by_score",
    "read_number",
    "shown",
    "tidy_call",
    "to_plain",
]

#: The longest call the rules read, in characters (a Dice Forge forge of two faces is ~70).
MAX_CALL_CHARS = 400
#: The longest player name, in characters.
MAX_NAME_CHARS = 32
#: The deepest nesting of lists and tables a setup, an option or a history entry may hold.
MAX_NESTING = 8
#: The latest time a call may carry, in seconds since its round began (one day).
MAX_SECONDS = 86_400.0
#: The most players a setup may name (every game takes fewer).
MAX_PLAYERS = 16
#: Whole numbers an option, a seed or a count may hold: at most this far from zero.
MAX_WHOLE = 10**6
MAX_SEED = 2**63
#: The longest text option and the longest list or table an option may hold.
MAX_OPTION_CHARS = 400
MAX_OPTION_ITEMS = 64

#: Number words read as numbers in calls, as players say them ("Movement Two").
NUMBER_WORDS: dict[str, int] = {
    w: i for i, w in enumerate((
        "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
        "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
        "eighteen", "nineteen", "twenty"))
}
_DIGITS = re.compile(r"[0-9]{1,7}")
_NUMBER_WORD = re.compile(r"(?<![\w-])(" + "|".join(NUMBER_WORDS) + r")(?![\w-])",
                          re.IGNORECASE)
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029]")
class _Shown(reprlib.Repr):
    def repr_int(self, x: int, level: int) -> str:
        if x.bit_length() > 200:  # repr() refuses ints of more than 4300 digits
            return f"<a {'negative ' if x < 0 else ''}whole number of {x.bit_length()} bits>"
        return super().repr_int(x, level)


_SHOWN = _Shown()
_SHOWN.maxstring = 60
_SHOWN.maxother = 60
_SHOWN.maxlevel = 3
_SHOWN.maxlist = _SHOWN.maxtuple = _SHOWN.maxdict = _SHOWN.maxset = 6


def shown(value: Any) -> str:
    """A short repr of an untrusted value for an error message (long or deep values cut).

    >>> len(shown("x" * 5000)) <= 62
    True
    >>> shown([[[[1]]]])
    '[[[[...]]]]'
    """
    return _SHOWN.repr(value)


def check_nesting(value: Any, what: str, limit: int = MAX_NESTING) -> None:
    """Raise :class:`SetupError` when ``value`` nests lists or tables deeper than ``limit``.

    Checked without recursion, so a hostile file cannot exhaust the stack.
    """
    stack: list[tuple[Any, int]] = [(value, 0)]
    seen = 0
    while stack:
        item, depth = stack.pop()
        seen += 1
        if seen > 100_000:
            raise SetupError(f"{what}: too many values (more than 100000)")
        if isinstance(item, Mapping | list | tuple | set | frozenset):
            if depth >= limit:
                raise SetupError(f"{what}: nested more than {limit} levels deep")
            children = item.values() if isinstance(item, Mapping) else item
            stack.extend((child, depth + 1) for child in children)


def read_number(word: str) -> int | None:
    """A whole number as players say it: ASCII digits or a number word zero..twenty.

    Anything else (other scripts' digits, signs, fractions, more than 7 digits) is None.

    >>> read_number("3"), read_number("Twelve"), read_number("²"), read_number("9" * 5000)
    (3, 12, None, None)
    """
    w = word.strip().casefold()
    if w in NUMBER_WORDS:
        return NUMBER_WORDS[w]
    if _DIGITS.fullmatch(w):
        return int(w)
    return None


def tidy_call(text: object, keep: Collection[str] = ()) -> str:
    """Tidy a call as said at the table before it is parsed.

    Checks it is text of at most :data:`MAX_CALL_CHARS` characters with no control character;
    collapses whitespace; puts exactly one space after ``:``, ``,`` and ``;`` and none before;
    drops sentence punctuation at the end (``.``, ``!``, ``?``); and turns number words
    (one..twenty) into digits, except words in ``keep`` (casefolded words of names).
    Raises :class:`InvalidCall`.

    >>> tidy_call("  grubic :spear thrust Three on  Hydris. ")
    'grubic: spear thrust 3 on Hydris'
    """
    if not isinstance(text, str):
        raise InvalidCall(f"{shown(text)}: a call is text")
    if len(text) > MAX_CALL_CHARS:
        raise InvalidCall(f"{shown(text)}: a call has at most {MAX_CALL_CHARS} characters, "
                          f"this one {len(text)}")
    if _CONTROL.search(text):
        raise InvalidCall(f"{shown(text)}: a call holds no control characters")
    out = " ".join(text.split())
    out = re.sub(r"\s*([:,;])\s*", r"\1 ", out).strip()
    out = out.rstrip(".!?").strip()
    folded = {k.casefold() for k in keep}

    def digit(m: re.Match[str]) -> str:
        word = m.group(1)
        return word if word.casefold() in folded else str(NUMBER_WORDS[word.casefold()])

    return _NUMBER_WORD.sub(digit, out)



class RulesError(ValueError):
    """Root of every error the rules raise."""


class InvalidCall(RulesError):
    """Raised when a call cannot be parsed: the words are not a call of this game."""


class IllegalCall(RulesError):
    """Raised when a call is well formed but not allowed in the game's present state.

    ``call`` is the call refused (None for a refusal of no call: "undo: nothing to undo") and
    ``reason`` why, without the call's words: the message is ``"<call>: <reason>"``. A game
    may raise it with the call's words in the message (``IllegalCall(f"{call}: why")``):
    :meth:`Game.apply` and :meth:`Game.check` give every refusal its call.
    """

    def __init__(self, reason: str, call: Call | None = None) -> None:
        super().__init__(f"{call.text()}: {reason}" if call is not None else reason)
        self.call = call
        self.reason = reason

    def about(self, call: Call) -> IllegalCall:
        """This refusal as one of ``call`` (itself when it already names its call)."""
        if self.call is not None:
            return self
        said = f"{call.text()}: "
        if self.reason.startswith(said):
            return IllegalCall(self.reason.removeprefix(said), call)
        named = IllegalCall(self.reason)  # worded otherwise: the message stays as it was
        named.call = call
        return named


class SetupError(RulesError):
    """Raised when a game cannot be set up: unknown game, bad players, bad options."""


@dataclass(frozen=True)
class Call:
    """Base of every game's calls: frozen dataclasses that render to the words said at the table.

    Subclasses implement :meth:`text`; the game's :meth:`Game.parse` reads the same words back,
    so ``game.parse(call.text()) == call`` for every call.
    """

    def text(self) -> str:
        raise NotImplementedError(f"{type(self).__name__} must implement text()")

    def __str__(self) -> str:
        return self.text()


@dataclass(frozen=True)
class Event:
    """Something that happened because of a call, for the screen, the log and the announcer.

    ``kind`` is a short machine name ("hit", "knockout", "round-over"); ``text`` is what a
    player would read; ``data`` holds plain values (names, numbers) for the UI.

    Each game declares its kinds in ``rules/<game>/events.py``, an ``EventKind`` Literal, and
    makes its events only through that module's typed ``event()``: mypy refuses a kind not
    declared there, and the companion's models name the kinds they read as ``EventKind`` too.
    The game class lists them (:attr:`Game.event_kinds`); random play checks no event has
    another (``tests/rules/test_conformance.py``).
    """

    kind: str
    text: str
    data: Mapping[str, Any] = field(default_factory=dict, compare=False, hash=False)


#: Finishing positions, best first; players tied for a position share one group.
Placings = tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class Prompt:
    """What the table is waiting for now: the one question every game answers the same way.

    ``phase`` is the game's own name for where it stands ("playing", "allocate", "over"...).
    ``actors`` are the players who may or must call now (empty: no one in particular).
    ``round`` counts rounds (or hands) from 1 where the game has them, else None.
    ``clock`` is the length in seconds of the round clock when this phase is timed (the clock
    may run now), else None. ``roll`` says that a roll of dice is expected now, ``rollers``
    from whom (empty with ``roll``: anyone). ``text`` says it in words for the screen.

    >>> Prompt("playing", ("Ana",), text="Ana: roll").roll
    False
    """

    phase: str
    actors: tuple[str, ...] = ()
    round: int | None = None
    clock: float | None = None
    roll: bool = False
    rollers: tuple[str, ...] = ()
    text: str = ""

    @property
    def over(self) -> bool:
        return self.phase == "over"


def rank_by(players: Sequence[str], score: Mapping[str, Any],
            first: Sequence[str] = ()) -> Placings:
    """Placings from a score per player (higher is better): equal scores share a place, and
    the players in ``first`` (the winners once a game's own tie-break has spoken) come first.

    >>> rank_by(["Ana", "Ben", "Cy"], {"Ana": 3, "Ben": 5, "Cy": 3})
    (('Ben',), ('Ana', 'Cy'))
    >>> rank_by(["Ana", "Ben"], {"Ana": 4, "Ben": 4}, first=["Ben"])
    (('Ben',), ('Ana',))
    """
    top = tuple(p for p in players if p in first)
    rest = [p for p in players if p not in first]
    groups: list[tuple[str, ...]] = [top] if top else []
    for value in sorted({score[p] for p in rest}, reverse=True):
        groups.append(tuple(p for p in rest if score[p] == value))
    return tuple(groups)


def normalise_time(at: float | None) -> float | None:
    """Keep a time to whole milliseconds, so that it survives a round trip through text.

    >>> normalise_time(12.34567)
    12.346
    """
    if at is None:
        return None
    if isinstance(at, bool) or not isinstance(at, int | float):
        raise InvalidCall(f"time {at!r}: must be a number of seconds since the round began")
    if not math.isfinite(at) or at < 0:
        raise InvalidCall(f"time {shown(at)}: must be a finite number of seconds, 0 or more")
    if at > MAX_SECONDS:
        raise InvalidCall(f"time {shown(at)}: at most {MAX_SECONDS:g} seconds since the round "
                          "began")
    return round(at * 1000) / 1000


def format_time(at: float) -> str:
    """Render seconds as ``m:ss.sss``, the form the game file uses.

    >>> format_time(62.5)
    '1:02.500'
    """
    ms = round(at * 1000)
    minutes, ms = divmod(ms, 60_000)
    return f"{minutes}:{ms // 1000:02d}.{ms % 1000:03d}"


_TIME_TEXT = re.compile(r"(?:(?P<m>[0-9]{1,4}):)?(?P<s>[0-9]{1,6})(?:\.(?P<f>[0-9]{1,9}))?")


def parse_time(text: str) -> float:
    """Read ``m:ss.sss`` or plain seconds back; the inverse of :func:`format_time`.

    >>> parse_time("1:02.500")
    62.5
    """
    match = _TIME_TEXT.fullmatch(text.strip())
    if match is None:
        raise InvalidCall(f"time {shown(text)}: expected m:ss.sss or seconds, in digits")
    minutes = int(match["m"]) if match["m"] is not None else 0
    seconds = int(match["s"])
    if match["m"] is not None and seconds >= 60:
        raise InvalidCall(f"time {shown(text)}: seconds after the minutes are 0 to 59")
    fraction = (match["f"] or "0")[:6].ljust(6, "0")
    ms = (minutes * 60 + seconds) * 1000 + round(int(fraction) / 1000)
    return normalise_time(ms / 1000) or 0.0


@dataclass(frozen=True)
class Entry:
    """One line of a game's history: the call as said at the table, and when."""

    call: str
    at: float | None = None

    def to_json(self) -> dict[str, Any]:
        return {"call": self.call} if self.at is None else {"call": self.call, "at": self.at}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Entry:
        if not isinstance(data, Mapping) or not isinstance(data.get("call"), str):
            raise InvalidCall(f"history entry {shown(data)}: needs a 'call' string")
        extra = set(data) - {"call", "at"}
        if extra:
            raise InvalidCall(f"history entry {shown(data)}: unknown keys "
                              f"{shown(sorted(map(str, extra)))}")
        if len(data["call"]) > MAX_CALL_CHARS:
            raise InvalidCall(f"history entry {shown(data)}: a call has at most "
                              f"{MAX_CALL_CHARS} characters")
        return cls(data["call"], normalise_time(data.get("at")))

    def line(self) -> str:
        """The entry as a game-file line: ``[m:ss.sss] call`` or just the call."""
        return self.call if self.at is None else f"[{format_time(self.at)}] {self.call}"


@dataclass(frozen=True)
class Setup:
    """Everything needed to start a game again: game name, players, options and seed."""

    game: str
    players: tuple[str, ...]
    options: Mapping[str, Any] = field(default_factory=dict, hash=False)
    seed: int = 0

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "players": list(self.players),
            "options": to_plain(dict(self.options)),
            "seed": self.seed,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Setup:
        if not isinstance(data, Mapping):
            raise SetupError(f"setup {shown(data)}: must be a table with game, players, "
                             "options, seed")
        check_nesting(data, "setup")
        extra = set(data) - {"game", "players", "options", "seed"}
        if extra:
            raise SetupError(f"setup: unknown keys {shown(sorted(map(str, extra)))}; allowed: "
                             "game, players, options, seed")
        game = data.get("game")
        if not isinstance(game, str) or len(game) > 64:
            raise SetupError(f"setup: 'game' must be a short name, got {shown(game)}")
        players = data.get("players")
        if not isinstance(players, list | tuple) or not all(isinstance(p, str) for p in players):
            raise SetupError(f"setup: 'players' must be a list of names, got {shown(players)}")
        if len(players) > MAX_PLAYERS:
            raise SetupError(f"setup: {len(players)} players; at most {MAX_PLAYERS}")
        options = data.get("options", {})
        if not isinstance(options, Mapping):
            raise SetupError(f"setup: 'options' must be a table, got {shown(options)}")
        seed = data.get("seed", 0)
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise SetupError(f"setup: 'seed' must be an integer, got {shown(seed)}")
        if not -MAX_SEED <= seed < MAX_SEED:
            raise SetupError(f"setup: 'seed' {shown(seed)} is out of range (a 64-bit integer)")
        return cls(game, tuple(players), dict(options), seed)


@dataclass(frozen=True)
class Standings:
    """Where everyone stands: a table for people, plus the winner once there is one."""

    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    winner: str | None = None
    is_over: bool = False
    note: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "columns": list(self.columns),
            "rows": [dict(zip(self.columns, row, strict=True)) for row in self.rows],
            "winner": self.winner,
            "is_over": self.is_over,
            "note": self.note,
        }

    def format(self) -> str:
        """A plain-text table, columns padded to their widest cell."""
        cells = [self.columns, *self.rows]
        widths = [max(len(r[i]) for r in cells) for i in range(len(self.columns))]
        lines = ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip()
                 for r in cells]
        lines.insert(1, "  ".join("-" * w for w in widths))
        if self.winner is not None:
            lines.append(f"Winner: {self.winner}")
        elif not self.is_over:
            lines.append("Game in progress")
        if self.note:
            lines.append(self.note)
        return "\n".join(lines)


@dataclass(frozen=True)
class DealChoice:
    """One thing the table deals, flips, draws, removes or places, and what it may be.

    ``label`` names it for a screen ("Pool 3", "Grubic", "Card 2"); ``options`` are what the
    table may have dealt there, in a stable order; ``count`` how many of them are picked
    (``distinct``: each at most once); ``current`` is what the game holds now (the companion's
    seeded draw until the table says otherwise). ``say`` renders the picks in the call: its
    ``{}`` is replaced by the picks joined with ``joiner``.
    """

    label: str
    options: tuple[str, ...]
    current: tuple[str, ...]
    count: int = 1
    distinct: bool = True
    say: str = "{}"
    joiner: str = ", "

    def render(self, picks: Sequence[str]) -> str:
        """This choice's part of the call for ``picks``. Raises :class:`InvalidCall`."""
        if isinstance(picks, str) or len(picks) != self.count:
            raise InvalidCall(f"{self.label}: pick {self.count}, got {shown(picks)}")
        for pick in picks:
            if pick not in self.options:
                raise InvalidCall(f"{self.label}: {shown(pick)} is not one of "
                                  + ", ".join(self.options))
        if self.distinct and len(set(picks)) != len(picks):
            raise InvalidCall(f"{self.label}: {', '.join(picks)} names one twice")
        return self.say.format(self.joiner.join(picks))


@dataclass(frozen=True)
class Deal:
    """Something a rulebook has the table deal by itself, and the call that says what it dealt.

    A game lists what may be dealt *now* with :meth:`Game.table_deals`. The companion deals
    by default (the game's seeded draw, shown in each choice's ``current``); a table that
    dealt by hand enters what it dealt with :meth:`call`, which a game then takes through
    :meth:`Game.apply` like any call (checked, journaled, undone). ``kind`` is a short machine
    name ("sanctuary", "tribe-card"...), ``title`` a heading for a screen, ``rule`` the
    rulebook's instruction, ``prefix`` the call's first words and ``separator`` what joins
    the choices' parts.

    >>> d = Deal("areas", "Starting areas", "Deal one flower token to each player.",
    ...          (DealChoice("Grubic", ("1", "2"), ("2",), say="Grubic {}"),
    ...           DealChoice("Riparian", ("1", "2"), ("1",), say="Riparian {}")),
    ...          prefix="Starting areas: ")
    >>> d.call([["1"], ["2"]])
    'Starting areas: Grubic 1, Riparian 2'
    >>> d.current_call()
    'Starting areas: Grubic 2, Riparian 1'
    """

    kind: str
    title: str
    rule: str
    choices: tuple[DealChoice, ...]
    prefix: str
    separator: str = ", "

    def call(self, picks: Sequence[Sequence[str]]) -> str:
        """The call saying the table dealt ``picks`` (one sequence per choice, in order)."""
        if len(picks) != len(self.choices):
            raise InvalidCall(f"{self.title}: {len(self.choices)} choices, got {len(picks)}")
        return self.prefix + self.separator.join(
            c.render(p) for c, p in zip(self.choices, picks, strict=True))

    def current_call(self) -> str:
        """The call that restates what the game holds now (the companion's deal)."""
        return self.call([c.current for c in self.choices])


@dataclass(frozen=True)
class PlayerResult:
    """One player's part in a game's result, typed for statistics (history, BG Stats export).

    ``score`` is the number the game ranks players by (None where it keeps none); ``rank`` is
    1 for the best, shared by ties (None while the game cannot rank yet); ``won`` is True for
    every winner once the game is over (several for a shared victory or a winning team).
    ``role`` is what the player played as (a character, a tribe, an objective card) and
    ``cards`` the cards they played or bought, by name, for per-character and per-card counts.
    """

    player: str
    score: float | None = None
    rank: int | None = None
    won: bool = False
    role: str | None = None
    team: str | None = None
    cards: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player, "score": self.score, "rank": self.rank, "won": self.won,
                "role": self.role, "team": self.team, "cards": list(self.cards)}


def rank_by_score(scores: Sequence[float], first: Sequence[int] = ()) -> list[int]:
    """Competition ranks (1, 2, 2, 4) for higher-is-better ``scores``; seats in ``first``
    (a tie-break's winners) rank above everyone they tie with.

    >>> rank_by_score([10, 30, 30, 5])
    [3, 1, 1, 4]
    >>> rank_by_score([30, 30, 5], first=[1])
    [2, 1, 3]
    """
    keys = [(s, i in first) for i, s in enumerate(scores)]
    return [1 + sum(1 for other in keys if other > key) for key in keys]


def to_plain(value: Any) -> Any:
    """Turn a state into plain JSON values (dicts, lists, str, numbers, bools, None).

    Dataclasses become dicts, enums their values, sets sorted lists, and a :class:`random.Random`
    its internal state, so two snapshots compare equal exactly when the games are the same.
    """
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, enum.Enum):
        return to_plain(value.value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Mapping):
        return {str(to_plain(k)): to_plain(v) for k, v in value.items()}
    if isinstance(value, set | frozenset):
        return sorted((to_plain(v) for v in value), key=repr)
    if isinstance(value, list | tuple):
        return [to_plain(v) for v in value]
    if isinstance(value, random.Random):
        return to_plain(value.getstate())
    raise TypeError(f"cannot turn {type(value).__name__} into plain data: {value!r}")


_NAME_PUNCTUATION = frozenset(" '-.")


def check_player_name(name: object) -> str:
    """Check a player's name; return it. Raises :class:`SetupError` naming what is wrong.

    A name is 1 to :data:`MAX_NAME_CHARS` characters, starts with a letter and holds letters
    (any script), digits 0-9, spaces, apostrophes, hyphens and full stops, so that it reads
    back from every call ("Ana: Pass", "... from Ana, Ben") and every game file line.

    >>> check_player_name("Zoë O'Neil")
    "Zoë O'Neil"
    """
    if not isinstance(name, str):
        raise SetupError(f"player name {shown(name)}: must be text")
    if not name.strip() or name != name.strip():
        raise SetupError(f"player name {shown(name)}: must be non-empty with no outer spaces")
    if len(name) > MAX_NAME_CHARS:
        raise SetupError(f"player name {shown(name)}: at most {MAX_NAME_CHARS} characters, "
                         f"got {len(name)}")
    if ":" in name or "\n" in name:
        raise SetupError(f"player name {shown(name)}: must not contain ':' or a line break")
    if not name[0].isalpha():
        raise SetupError(f"player name {shown(name)}: must start with a letter")
    for ch in name:
        if not (ch.isalpha() or "0" <= ch <= "9" or ch in _NAME_PUNCTUATION
                or unicodedata.category(ch) in ("Mn", "Mc")):
            raise SetupError(f"player name {shown(name)}: {ch!r} is not allowed (letters, "
                             "digits, spaces, ' - and . only)")
    if "  " in name:
        raise SetupError(f"player name {shown(name)}: one space between words")
    return name


OptionsT = TypeVar("OptionsT")


def _check_type(name: str, value: Any, hint: Any) -> Any:
    """Check one option value against its type hint; return it (tuples from lists)."""
    origin = typing.get_origin(hint)
    if hint is Any:
        return value
    if origin is typing.Literal:
        allowed = typing.get_args(hint)
        if not isinstance(value, str | int | bool | None) or value not in allowed:
            raise SetupError(f"option {name}={shown(value)}: choose one of "
                             + ", ".join(repr(a) for a in allowed))
        return value
    if origin in (typing.Union, types.UnionType):
        errors = []
        for arg in typing.get_args(hint):
            if arg is type(None) and value is None:
                return None
            if arg is type(None):
                continue
            try:
                return _check_type(name, value, arg)
            except SetupError as e:
                errors.append(str(e))
        raise SetupError(f"option {name}={shown(value)}: " + "; or ".join(errors))
    if origin in (tuple, list) or hint in (tuple, list):
        if not isinstance(value, list | tuple):
            raise SetupError(f"option {name}={shown(value)}: must be a list")
        if len(value) > MAX_OPTION_ITEMS:
            raise SetupError(f"option {name}: at most {MAX_OPTION_ITEMS} items, got {len(value)}")
        args = typing.get_args(hint)
        item = args[0] if args else Any
        return tuple(_check_type(f"{name}[{i}]", v, item) for i, v in enumerate(value))
    if origin in (dict, Mapping) or hint in (dict, Mapping):
        if not isinstance(value, Mapping):
            raise SetupError(f"option {name}={shown(value)}: must be a table")
        if len(value) > MAX_OPTION_ITEMS:
            raise SetupError(f"option {name}: at most {MAX_OPTION_ITEMS} entries, got "
                             f"{len(value)}")
        args = typing.get_args(hint) or (Any, Any)
        return {
            _check_type(f"{name} key", k, args[0]): _check_type(f"{name}[{k!r}]", v, args[1])
            for k, v in value.items()
        }
    if hint is float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise SetupError(f"option {name}={shown(value)}: must be a number")
        if isinstance(value, float) and not math.isfinite(value):
            raise SetupError(f"option {name}={shown(value)}: must be a finite number")
        if abs(value) > MAX_WHOLE:
            raise SetupError(f"option {name}={shown(value)}: must be within {MAX_WHOLE} of 0")
        return float(value)
    if hint is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise SetupError(f"option {name}={shown(value)}: must be a whole number")
        if abs(value) > MAX_WHOLE:
            raise SetupError(f"option {name}={shown(value)}: must be within {MAX_WHOLE} of 0")
        return value
    if hint is str and isinstance(value, str) and len(value) > MAX_OPTION_CHARS:
        raise SetupError(f"option {name}={shown(value)}: at most {MAX_OPTION_CHARS} characters")
    if isinstance(hint, type):
        if not isinstance(value, hint):
            raise SetupError(f"option {name}={shown(value)}: must be {hint.__name__}")
        return value
    raise TypeError(f"option {name}: unsupported type hint {hint!r}")


def options_from_mapping(options_cls: type[OptionsT], raw: Mapping[str, Any] | None) -> OptionsT:
    """Build a game's options dataclass from a plain mapping, strictly.

    Unknown keys and wrong types raise :class:`SetupError` naming the key; missing keys take the
    dataclass defaults. Kebab-case keys ("round-seconds") are accepted for snake_case fields.
    """
    if raw is None:
        raw = {}
    if isinstance(raw, options_cls):
        return raw
    if not isinstance(raw, Mapping):
        raise SetupError(f"options {shown(raw)}: must be a table of option = value")
    check_nesting(raw, "options")
    hints = typing.get_type_hints(options_cls)
    names = [f.name for f in dataclasses.fields(options_cls)]  # type: ignore[arg-type]
    values: dict[str, Any] = {}
    for key, value in raw.items():
        name = str(key).replace("-", "_")
        if name not in names:
            raise SetupError(f"unknown option {shown(key)}; known options: "
                             + ", ".join(n.replace("_", "-") for n in names))
        values[name] = _check_type(name.replace("_", "-"), value, hints[name])
    try:
        return options_cls(**values)
    except (TypeError, ValueError) as e:
        if isinstance(e, RulesError):
            raise
        raise SetupError(f"options: {e}") from e


S = TypeVar("S")


@dataclass(frozen=True)
class Prepared(Generic[S]):
    """A call judged against one state of a game, and the game after it
    (:meth:`Game.prepare`): ``before`` the state it was judged on, ``after`` the state it
    makes, ``events`` what happens."""

    call: Call
    at: float | None
    before: S
    after: S
    events: list[Event]


class Game(ABC, Generic[S]):
    """A game in progress: its setup, its state, its history, undo and redo.

    Subclasses set ``name``, ``title``, ``min_players``, ``max_players`` and ``Options``, and
    implement :meth:`initial_state`, :meth:`parse`, :meth:`_apply`, :meth:`is_over` and
    :meth:`standings`. Nothing but :meth:`apply`, :meth:`undo` and :meth:`redo` changes a game.
    """

    name: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int] = 1
    max_players: ClassVar[int] = 8
    #: Every kind of :class:`Event` this game's calls make (its ``events`` module's
    #: ``EventKind``); random play is checked against it.
    event_kinds: ClassVar[frozenset[str]] = frozenset()
    Options: ClassVar[type[Any]]

    def __init__(self, setup: Setup) -> None:
        if setup.game != self.name:
            raise SetupError(f"setup is for {setup.game!r}, not {self.name!r}")
        players = setup.players
        if not self.min_players <= len(players) <= self.max_players:
            raise SetupError(f"{self.title} takes {self.min_players} to {self.max_players} "
                             f"players, got {len(players)}: {', '.join(players) or 'none'}")
        for p in players:
            check_player_name(p)
        lowered = [p.casefold() for p in players]
        if len(set(lowered)) != len(lowered):
            raise SetupError(f"player names must differ (ignoring case): {', '.join(players)}")
        self.options = options_from_mapping(self.Options, setup.options)
        self.setup = Setup(setup.game, tuple(players), to_plain(self.options), setup.seed)
        self._state: S = self.initial_state(random.Random(setup.seed))
        self._done: list[tuple[S, Entry]] = []
        self._undone: list[tuple[Call, Entry]] = []

    # -- what a game defines -------------------------------------------------------------

    @abstractmethod
    def initial_state(self, rng: random.Random) -> S:
        """The state at the start; keep ``rng`` inside it if the game shuffles anything."""

    @abstractmethod
    def parse(self, text: str) -> Call:
        """Read a call from the words said at the table. Raises :class:`InvalidCall`."""

    @abstractmethod
    def _apply(self, state: S, call: Call, at: float | None) -> list[Event]:
        """Validate ``call`` against ``state`` and change ``state`` (a private copy).

        Raises :class:`IllegalCall` when the call is not allowed now; the copy is then dropped.
        """

    @property
    @abstractmethod
    def is_over(self) -> bool:
        """True when the game has ended and takes no more calls."""

    @abstractmethod
    def standings(self) -> Standings:
        """Where everyone stands now."""

    def prompt(self) -> Prompt:
        """What the table waits for now (who acts, the phase, a clock, a roll).

        Every game overrides this; the default knows only whether the game is over.
        """
        return Prompt("over" if self.is_over else "playing")

    def placings(self) -> Placings:
        """Finishing positions, best first (ties share a group): final once the game is over,
        where everyone stands so far before that. Games override it with their own ranking;
        the default puts the declared winner first and everyone else level."""
        winner = self.standings().winner
        players = self.setup.players
        top = tuple(p for p in players if winner is not None and p in winner.split(" & "))
        rest = tuple(p for p in players if p not in top)
        return tuple(g for g in (top, rest) if g)

    @classmethod
    def variant(cls, options: Mapping[str, Any]) -> str:
        """The variant of the game a setup's ``options`` play, in the words a record of the
        play keeps (Dice Forge's "Titans module"); "" for the game as it comes. Games with
        variants override it; an option it does not know is no variant."""
        return ""

    #: What :attr:`PlayerResult.role` names in this game ("character", "tribe"...), if any.
    role_kind: ClassVar[str | None] = None
    #: What :attr:`PlayerResult.cards` holds in this game ("feat card"...), if anything.
    card_kind: ClassVar[str | None] = None

    def results(self) -> tuple[PlayerResult, ...]:
        """Each player's result, in seating order: what statistics need, typed.

        Games override this with their scores, roles and cards; this default knows only the
        winner's name from :meth:`standings`.
        """
        winner = self.standings().winner if self.is_over else None
        return tuple(PlayerResult(p, won=p == winner) for p in self.setup.players)

    def legal_calls(self) -> Sequence[Call]:
        """Every call allowed now, where they can be listed (empty once the game is over)."""
        raise NotImplementedError(f"{self.title} cannot list its calls")

    def random_call(self, rng: random.Random) -> Call:
        """A random legal call, for simulated play; games with huge chance spaces override it."""
        calls = self.legal_calls()
        if not calls:
            raise IllegalCall(f"no call is possible in {self.title} now")
        return rng.choice(list(calls))

    def table_deals(self) -> tuple[Deal, ...]:
        """What the table may deal, flip, draw, remove or place by itself now, and the call
        that says what it dealt (see :class:`Deal`); empty when nothing is dealt now.

        The game's own seeded draw (each choice's ``current``) stands until such a call.
        """
        return ()

    def speakers(self) -> tuple[str, ...]:
        """The names that open a call ("WHO: ..."), in seat order: the players by default."""
        return self.setup.players

    def parse_unsaid_speaker(self, text: str, parse: Callable[[str], Call] | None = None
                             ) -> Call:
        """Read a call said without "WHO:" ("Spear Thrust 3 on Hydris", "Pass").

        It is the call of the one speaker (:meth:`speakers`) for whom the words are a call; if
        several could say them, the one for whom the call is legal now. ``parse`` reads a
        "WHO: words" text (default :meth:`parse`). Raises :class:`InvalidCall` naming who
        could have said it when that is not one speaker.
        """
        read = parse or self.parse
        found: dict[Call, str] = {}
        first_error: RulesError | None = None
        for who in self.speakers():
            try:
                found.setdefault(read(f"{who}: {text}"), who)
            except RulesError as e:
                first_error = first_error or e
        if not found:
            why = f" ({first_error})" if first_error is not None else ""
            raise InvalidCall(f"{text!r}: not a call of {self.title}, or say who first "
                              f"('NAME: ...'){why}")
        if len(found) == 1:
            return next(iter(found))
        legal = [c for c in found if self.is_legal(c)]
        if len(legal) == 1:
            return legal[0]
        names = list(dict.fromkeys(found[c] for c in (legal or found)))
        raise InvalidCall(f"{text!r}: say who: {', '.join(names[:-1])} or {names[-1]} "
                          f"could say it ('{names[0]}: {text}')")

    def check_invariants(self) -> None:
        """Raise AssertionError if a conservation law is broken (tokens created or lost...)."""

    @classmethod
    def random_setup(cls, rng: random.Random) -> Setup:
        """A valid setup with a random player count, for simulated play."""
        n = rng.randint(cls.min_players, cls.max_players)
        return Setup(cls.name, tuple(f"P{i + 1}" for i in range(n)), {}, rng.randrange(2**31))

    # -- the one way state changes -------------------------------------------------------

    @property
    def state(self) -> S:
        """The current state. Read it; never change it (use :meth:`apply`)."""
        return self._state

    @property
    def history(self) -> tuple[Entry, ...]:
        """Every call applied so far, oldest first, as said at the table."""
        return tuple(entry for _, entry in self._done)

    def apply(self, call: Call | str, at: float | None = None) -> list[Event]:
        """Validate and apply one call; returns what happened.

        Raises :class:`InvalidCall` for words that are no call, :class:`IllegalCall` for a call
        not allowed now. Either way the game is left exactly as it was.
        """
        return self.commit(self.prepare(call, at))

    def prepare(self, call: Call | str, at: float | None = None) -> Prepared[S]:
        """Judge a call and work out the game after it, without changing the game: what
        :meth:`commit` makes the game, once (a table journals the call in between, so a
        journal that fails leaves the game as it was, and the call is worked out once).

        Raises :class:`InvalidCall` or :class:`IllegalCall` exactly as :meth:`apply` would.
        """
        call = self._as_call(call)
        at = normalise_time(at)
        if self.is_over:
            raise IllegalCall("the game is over", call)
        new_state = copy.deepcopy(self._state)
        try:
            events = self._apply(new_state, call, at)
        except IllegalCall as e:
            raise e.about(call) from e
        return Prepared(call, at, self._state, new_state, events)

    def commit(self, prepared: Prepared[S]) -> list[Event]:
        """Make the game what :meth:`prepare` worked out; returns what happened. Raises
        :class:`IllegalCall` when the game changed since (a prepared call is for one state)."""
        if prepared.before is not self._state:
            raise IllegalCall("the game changed after the call was judged: judge it again",
                              prepared.call)
        self._done.append((self._state, Entry(prepared.call.text(), prepared.at)))
        self._state = prepared.after
        self._undone.clear()
        return prepared.events

    def _as_call(self, call: object) -> Call:
        """Words read as a call; a call as it is; anything else refused with an InvalidCall
        (a number, None, a list: never an AttributeError from deep inside a game)."""
        if isinstance(call, str):
            return self.parse(call)
        if isinstance(call, Call):
            return call
        raise InvalidCall(f"{reprlib.repr(call)} is not a call of {self.title}: give the "
                          "words of a call, or a call")

    def check(self, call: Call | str, at: float | None = None) -> Call:
        """Validate a call without applying it; returns the parsed call.

        Raises :class:`InvalidCall` or :class:`IllegalCall` exactly as :meth:`apply` would.
        Useful where :meth:`legal_calls` can only list a sample (a screen greying out choices).
        """
        return self.prepare(call, at).call

    def is_legal(self, call: Call | str, at: float | None = None) -> bool:
        """True when :meth:`apply` would take this call now (nothing changes either way)."""
        try:
            self.check(call, at)
        except RulesError:
            return False
        return True

    def undo(self) -> Entry:
        """Take back the last call. Raises :class:`IllegalCall` if there is none."""
        if not self._done:
            raise IllegalCall("undo: nothing to undo")
        before, entry = self._done.pop()
        self._undone.append((self.parse(entry.call), entry))
        self._state = before
        return entry

    def redo(self) -> Entry:
        """Apply again the last call taken back. Raises :class:`IllegalCall` if there is none."""
        if not self._undone:
            raise IllegalCall("redo: nothing to redo")
        call, entry = self._undone[-1]
        undone = list(self._undone)
        self.apply(call, entry.at)
        self._undone = undone[:-1]
        return entry

    @property
    def can_undo(self) -> bool:
        return bool(self._done)

    @property
    def can_redo(self) -> bool:
        return bool(self._undone)

    def snapshot(self) -> Any:
        """The whole state as plain data: equal snapshots mean equal games."""
        return to_plain(self._state)

    def __repr__(self) -> str:
        return (f"<{type(self).__name__} {', '.join(self.setup.players)}; "
                f"{len(self._done)} calls{'; over' if self.is_over else ''}>")
