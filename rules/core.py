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
import random
import types
import typing
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, TypeVar

__all__ = [
    "Call",
    "Entry",
    "Event",
    "Game",
    "IllegalCall",
    "InvalidCall",
    "PlayerResult",
    "RulesError",
    "Setup",
    "SetupError",
    "Standings",
    "format_time",
    "normalise_time",
    "options_from_mapping",
    "rank_by_score",
    "to_plain",
]


class RulesError(ValueError):
    """Root of every error the rules raise."""


class InvalidCall(RulesError):
    """Raised when a call cannot be parsed: the words are not a call of this game."""


class IllegalCall(RulesError):
    """Raised when a call is well formed but not allowed in the game's present state."""


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
    """

    kind: str
    text: str
    data: Mapping[str, Any] = field(default_factory=dict, compare=False, hash=False)


def normalise_time(at: float | None) -> float | None:
    """Keep a time to whole milliseconds, so that it survives a round trip through text.

    >>> normalise_time(12.34567)
    12.346
    """
    if at is None:
        return None
    if isinstance(at, bool) or not isinstance(at, int | float):
        raise InvalidCall(f"time {at!r}: must be a number of seconds since the round began")
    if at != at or at < 0 or at == float("inf"):
        raise InvalidCall(f"time {at!r}: must be a finite number of seconds, 0 or more")
    return round(at * 1000) / 1000


def format_time(at: float) -> str:
    """Render seconds as ``m:ss.sss``, the form the game file uses.

    >>> format_time(62.5)
    '1:02.500'
    """
    ms = round(at * 1000)
    minutes, ms = divmod(ms, 60_000)
    return f"{minutes}:{ms // 1000:02d}.{ms % 1000:03d}"


def parse_time(text: str) -> float:
    """Read ``m:ss.sss`` or plain seconds back; the inverse of :func:`format_time`.

    >>> parse_time("1:02.500")
    62.5
    """
    raw = text.strip()
    try:
        if ":" in raw:
            minutes, _, seconds = raw.partition(":")
            if not minutes.isdigit():
                raise ValueError(raw)
            ms = int(minutes) * 60_000 + round(float(seconds) * 1000)
        else:
            ms = round(float(raw) * 1000)
    except ValueError:
        raise InvalidCall(f"time {text!r}: expected m:ss.sss or seconds") from None
    if ms < 0:
        raise InvalidCall(f"time {text!r}: must not be negative")
    return ms / 1000


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
            raise InvalidCall(f"history entry {data!r}: needs a 'call' string")
        extra = set(data) - {"call", "at"}
        if extra:
            raise InvalidCall(f"history entry {data!r}: unknown keys {sorted(extra)}")
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
            raise SetupError(f"setup {data!r}: must be a table with game, players, options, seed")
        extra = set(data) - {"game", "players", "options", "seed"}
        if extra:
            raise SetupError(f"setup: unknown keys {sorted(extra)}; allowed: game, players, "
                             "options, seed")
        game = data.get("game")
        if not isinstance(game, str):
            raise SetupError(f"setup: 'game' must be a string, got {game!r}")
        players = data.get("players")
        if not isinstance(players, list | tuple) or not all(isinstance(p, str) for p in players):
            raise SetupError(f"setup: 'players' must be a list of names, got {players!r}")
        options = data.get("options", {})
        if not isinstance(options, Mapping):
            raise SetupError(f"setup: 'options' must be a table, got {options!r}")
        seed = data.get("seed", 0)
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise SetupError(f"setup: 'seed' must be an integer, got {seed!r}")
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


OptionsT = TypeVar("OptionsT")


def _check_type(name: str, value: Any, hint: Any) -> Any:
    """Check one option value against its type hint; return it (tuples from lists)."""
    origin = typing.get_origin(hint)
    if hint is Any:
        return value
    if origin is typing.Literal:
        allowed = typing.get_args(hint)
        if value not in allowed:
            raise SetupError(f"option {name}={value!r}: choose one of "
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
        raise SetupError(f"option {name}={value!r}: " + "; or ".join(errors))
    if origin in (tuple, list) or hint in (tuple, list):
        if not isinstance(value, list | tuple):
            raise SetupError(f"option {name}={value!r}: must be a list")
        args = typing.get_args(hint)
        item = args[0] if args else Any
        return tuple(_check_type(f"{name}[{i}]", v, item) for i, v in enumerate(value))
    if origin in (dict, Mapping) or hint in (dict, Mapping):
        if not isinstance(value, Mapping):
            raise SetupError(f"option {name}={value!r}: must be a table")
        args = typing.get_args(hint) or (Any, Any)
        return {
            _check_type(f"{name} key", k, args[0]): _check_type(f"{name}[{k!r}]", v, args[1])
            for k, v in value.items()
        }
    if hint is float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise SetupError(f"option {name}={value!r}: must be a number")
        return float(value)
    if hint is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise SetupError(f"option {name}={value!r}: must be a whole number")
        return value
    if isinstance(hint, type):
        if not isinstance(value, hint):
            raise SetupError(f"option {name}={value!r}: must be {hint.__name__}")
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
        raise SetupError(f"options {raw!r}: must be a table of option = value")
    hints = typing.get_type_hints(options_cls)
    names = [f.name for f in dataclasses.fields(options_cls)]  # type: ignore[arg-type]
    values: dict[str, Any] = {}
    for key, value in raw.items():
        name = str(key).replace("-", "_")
        if name not in names:
            raise SetupError(f"unknown option {key!r}; known options: "
                             + ", ".join(n.replace("_", "-") for n in names))
        values[name] = _check_type(name.replace("_", "-"), value, hints[name])
    try:
        return options_cls(**values)
    except (TypeError, ValueError) as e:
        if isinstance(e, RulesError):
            raise
        raise SetupError(f"options: {e}") from e


S = TypeVar("S")


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
    Options: ClassVar[type[Any]]

    def __init__(self, setup: Setup) -> None:
        if setup.game != self.name:
            raise SetupError(f"setup is for {setup.game!r}, not {self.name!r}")
        players = setup.players
        if not self.min_players <= len(players) <= self.max_players:
            raise SetupError(f"{self.title} takes {self.min_players} to {self.max_players} "
                             f"players, got {len(players)}: {', '.join(players) or 'none'}")
        for p in players:
            if not p.strip() or p != p.strip():
                raise SetupError(f"player name {p!r}: must be non-empty with no outer spaces")
            if ":" in p or "\n" in p:
                raise SetupError(f"player name {p!r}: must not contain ':' or a line break")
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
        if isinstance(call, str):
            call = self.parse(call)
        at = normalise_time(at)
        if self.is_over:
            raise IllegalCall(f"{call}: the game is over")
        new_state = copy.deepcopy(self._state)
        events = self._apply(new_state, call, at)
        self._done.append((self._state, Entry(call.text(), at)))
        self._state = new_state
        self._undone.clear()
        return events

    def check(self, call: Call | str, at: float | None = None) -> Call:
        """Validate a call without applying it; returns the parsed call.

        Raises :class:`InvalidCall` or :class:`IllegalCall` exactly as :meth:`apply` would.
        Useful where :meth:`legal_calls` can only list a sample (a screen greying out choices).
        """
        if isinstance(call, str):
            call = self.parse(call)
        at = normalise_time(at)
        if self.is_over:
            raise IllegalCall(f"{call}: the game is over")
        self._apply(copy.deepcopy(self._state), call, at)
        return call

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
