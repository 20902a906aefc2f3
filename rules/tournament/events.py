"""A tournament's format and the events it is rebuilt from, each a frozen value with JSON.

Events are the tournament's history, as calls are a game's: the director journals them and
:meth:`rules.tournament.Tournament.from_events` rebuilds the same tournament from them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal

from rules.core import Placings, RulesError, SetupError, options_from_mapping, to_plain
from rules.registry import game_class
from rules.tournament.elimination import FINAL_ROUNDS, TournamentError

Style = Literal["eye-for-an-eye", "groups"]
Stage = Literal["qualifying", "group", "elimination-1", "elimination-2", "final", "tie-break"]
STAGES: tuple[str, ...] = ("qualifying", "group", "elimination-1", "elimination-2", "final",
                           "tie-break")
#: Seats at one Eye for an Eye table: the game takes 2 to 6 players.
EYE_MAX_PLAYERS = 6


@dataclass(frozen=True)
class Format:
    """How a tournament is played. Built strictly from a table (kebab-case keys) by
    :meth:`from_mapping`; see docs/tournaments.md for every option.

    ``style``: ``eye-for-an-eye`` (the rulebook's qualifying rounds, elimination groups and a
    final of ``final-rounds`` rounds) or ``groups`` (group match play: ``rounds`` rounds of
    tables of up to ``table-size``, then a final table of the top ``final-size``).
    ``mode``: ``every-eye`` or ``alliances`` (entrants are teams; Eye for an Eye style only).
    ``points``: points by finishing place at a table (groups style; empty: 4/3/2/1, 4/2/1, 4/2
    as in Eye for an Eye). ``bye-points``: what a bye scores (-1: the points for first place at
    a two-sided table). ``game-options``: options every table's game starts with.
    """

    game: str = "eye-for-an-eye"
    style: Style = "eye-for-an-eye"
    mode: Literal["every-eye", "alliances"] = "every-eye"
    rounds: int = 5
    table_size: int = 4
    final_size: int = 4
    final_rounds: int = FINAL_ROUNDS
    points: tuple[int, ...] = ()
    tied_ranks: Literal["share-higher", "share-lower"] = "share-higher"
    bye_points: int = -1
    game_options: Mapping[str, Any] = field(default_factory=dict, hash=False)

    def __post_init__(self) -> None:
        try:
            cls = game_class(self.game)
        except SetupError as e:
            raise TournamentError(f"format: {e}") from None
        if self.style == "eye-for-an-eye" and self.game != "eye-for-an-eye":
            raise TournamentError(f"format: style 'eye-for-an-eye' plays Eye for an Eye, not "
                                  f"{self.game!r}; use style 'groups' for other games")
        if self.mode == "alliances" and self.style != "eye-for-an-eye":
            raise TournamentError("format: mode 'alliances' needs style 'eye-for-an-eye'")
        if not 1 <= self.rounds <= 20:
            raise TournamentError(f"format: rounds {self.rounds}: choose 1 to 20")
        seats = Format.seats_per_table(self.game, self.mode)
        least, most = seats[0], seats[-1]
        if self.table_size not in seats:
            raise TournamentError(f"format: table-size {self.table_size}: {cls.title} "
                                  f"{'Alliances ' if self.mode == 'alliances' else ''}"
                                  f"tables seat {least} to {most} "
                                  f"{'teams' if self.mode == 'alliances' else 'players'}")
        if self.final_size not in Format.final_seats(self.game):
            raise TournamentError(f"format: final-size {self.final_size}: {cls.title} takes "
                                  f"{cls.min_players} to {cls.max_players} players")
        if not 1 <= self.final_rounds <= 9:
            raise TournamentError(f"format: final-rounds {self.final_rounds}: choose 1 to 9")
        if any(p < 0 for p in self.points) or list(self.points) != sorted(self.points,
                                                                          reverse=True):
            raise TournamentError(f"format: points {list(self.points)}: whole numbers >= 0, "
                                  "best place first, never rising")
        if self.bye_points < -1:
            raise TournamentError(f"format: bye-points {self.bye_points}: 0 or more (or -1)")
        for key in ("rounds", "teams", "mode"):
            if key in self.game_options:
                raise TournamentError(f"format: game-options may not set {key!r}; the "
                                      "tournament sets it for each table")

    @staticmethod
    def seats_per_table(game: str, mode: str = "every-eye") -> range:
        """The ``table-size`` values a format of ``game`` in ``mode`` takes (Alliances: 2 or
        3 teams a table). Raised for an unknown game: :class:`~rules.SetupError`."""
        if mode == "alliances":
            game_class(game)
            return range(2, 4)
        return Format.final_seats(game)

    @staticmethod
    def final_seats(game: str) -> range:
        """The ``final-size`` values a format of ``game`` takes."""
        cls = game_class(game)
        return range(max(2, cls.min_players), cls.max_players + 1)

    @classmethod
    def from_mapping(cls, raw: Mapping[str, Any] | None) -> Format:
        """The format from a plain table, e.g. ``{"style": "groups", "game": "dice-forge"}``.

        Raised when a key is unknown or a value wrong: :class:`TournamentError` naming it.
        """
        raw = dict(raw or {})
        if "style" not in raw and raw.get("game", "eye-for-an-eye") != "eye-for-an-eye":
            raw["style"] = "groups"
        try:
            return options_from_mapping(cls, raw)
        except TournamentError:
            raise
        except RulesError as e:
            raise TournamentError(f"format: {e}") from None

    def to_json(self) -> dict[str, Any]:
        return {f.name.replace("_", "-"): to_plain(getattr(self, f.name))
                for f in dataclasses.fields(self)}

    @property
    def alliances(self) -> bool:
        return self.mode == "alliances"

    def describe(self) -> str:
        """One line for people, e.g. "Eye for an Eye, 5 qualifying rounds, tables of 4"."""
        title = game_class(self.game).title
        if self.style == "eye-for-an-eye":
            unit = "teams" if self.alliances else "players"
            return (f"{title}{' Alliances' if self.alliances else ''}: {self.rounds} qualifying "
                    f"round{'s' * (self.rounds != 1)} at tables of up to {self.table_size} "
                    f"{unit}, elimination groups, a final of {self.final_rounds} "
                    f"round{'s' * (self.final_rounds != 1)}")
        return (f"{title}: {self.rounds} round{'s' * (self.rounds != 1)} of group play at "
                f"tables of up to {self.table_size}, then a final table of {self.final_size}")


@dataclass(frozen=True)
class Table:
    """One table of a round: its number, who sits where (seat 1 first) and its group label."""

    number: int
    seats: tuple[str, ...]
    group: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"number": self.number, "seats": list(self.seats), "group": self.group}

    @classmethod
    def from_json(cls, data: Any) -> Table:
        data = _record(data, "table", {"number", "seats"}, {"group"})
        return cls(_int(data["number"], "table number"), _names(data["seats"], "table seats"),
                   _str(data.get("group", ""), "table group"))


def format_placings(placings: Placings) -> str:
    """Placings as people write them: ``Ana > Ben = Cy > Dee``.

    >>> format_placings((("Ana",), ("Ben", "Cy"), ("Dee",)))
    'Ana > Ben = Cy > Dee'
    """
    return " > ".join(" = ".join(group) for group in placings)


def parse_placings(text: str) -> Placings:
    """Read ``Ana > Ben = Cy > Dee`` (best first, ``=`` for a tie) back into placings.

    >>> parse_placings(" Ana > Ben = Cy ")
    (('Ana',), ('Ben', 'Cy'))
    """
    groups = tuple(tuple(n.strip() for n in part.split("=")) for part in text.split(">"))
    if any(not n for g in groups for n in g):
        raise TournamentError(f"result {text!r}: write names best first, '>' between places "
                              "and '=' between tied names, e.g. 'Ana > Ben = Cy > Dee'")
    return groups


def placings_from_json(data: Any, what: str = "placings") -> Placings:
    if not isinstance(data, list | tuple) or not data:
        raise TournamentError(f"{what} {data!r}: must be a list of places, each a list of names")
    return tuple(_names(g, what) for g in data)


# -- events ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Created:
    """The first event: the tournament's name, format and seed."""

    kind: ClassVar[str] = "created"
    name: str
    format: Format
    seed: int = 0


@dataclass(frozen=True)
class EntrantAdded:
    """An entrant (a player, or a team with its members) joins; late entrants play from the
    next round drawn."""

    kind: ClassVar[str] = "entrant-added"
    name: str
    members: tuple[str, ...] = ()


@dataclass(frozen=True)
class EntrantDropped:
    """An entrant leaves: not drawn again; results already played stand."""

    kind: ClassVar[str] = "entrant-dropped"
    name: str
    reason: str = ""


@dataclass(frozen=True)
class RoundDrawn:
    """A round's tables as drawn and played. ``seeds`` is the ranking the elimination was
    seeded from (on the first round after qualifying; empty otherwise)."""

    kind: ClassVar[str] = "round-drawn"
    number: int
    stage: Stage
    tables: tuple[Table, ...]
    byes: tuple[str, ...] = ()
    seeds: tuple[str, ...] = ()


@dataclass(frozen=True)
class ResultReported:
    """A table's finishing positions, as a table companion (``source`` its name) or the
    organiser (``source`` "director") reported them. ``report_id`` makes repeats harmless."""

    kind: ClassVar[str] = "result-reported"
    round: int
    table: int
    placings: Placings
    source: str
    report_id: str


@dataclass(frozen=True)
class ResultCorrected:
    """The organiser sets a table's result (a mistake, or settling a conflict)."""

    kind: ClassVar[str] = "result-corrected"
    round: int
    table: int
    placings: Placings
    reason: str = ""


TournamentEvent = (Created | EntrantAdded | EntrantDropped | RoundDrawn | ResultReported
                   | ResultCorrected)
_EVENTS: dict[str, type[Any]] = {c.kind: c for c in (
    Created, EntrantAdded, EntrantDropped, RoundDrawn, ResultReported, ResultCorrected)}


def event_to_json(event: TournamentEvent) -> dict[str, Any]:
    """An event as plain JSON: ``{"kind": ..., fields...}``."""
    out: dict[str, Any] = {"kind": event.kind}
    for f in dataclasses.fields(event):
        value = getattr(event, f.name)
        if isinstance(value, Format):
            out[f.name] = value.to_json()
        elif f.name == "tables":
            out[f.name] = [t.to_json() for t in value]
        else:
            out[f.name] = to_plain(value)
    return out


def event_from_json(data: Any) -> TournamentEvent:
    """Read an event back. Raised when it is not one: :class:`TournamentError` naming it."""
    if not isinstance(data, Mapping) or data.get("kind") not in _EVENTS:
        raise TournamentError(f"tournament event {data!r}: needs a 'kind', one of "
                              + ", ".join(_EVENTS))
    cls = _EVENTS[data["kind"]]
    names = {f.name for f in dataclasses.fields(cls)}
    required = {f.name for f in dataclasses.fields(cls)
                if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING}
    body = _record(data, f"{data['kind']} event", required | {"kind"}, names)
    what = data["kind"]
    values: dict[str, Any] = {}
    for key, raw in body.items():
        if key == "kind":
            continue
        if key == "format":
            if not isinstance(raw, Mapping):
                raise TournamentError(f"{what} event: 'format' must be a table")
            values[key] = Format.from_mapping(raw)
        elif key == "tables":
            if not isinstance(raw, list):
                raise TournamentError(f"{what} event: 'tables' must be a list")
            values[key] = tuple(Table.from_json(t) for t in raw)
        elif key == "placings":
            values[key] = placings_from_json(raw, f"{what} event placings")
        elif key in ("members", "byes", "seeds"):
            values[key] = _names(raw, f"{what} event {key}", empty=True)
        elif key in ("seed", "number", "round", "table"):
            values[key] = _int(raw, f"{what} event {key}")
        elif key == "stage":
            if raw not in STAGES:
                raise TournamentError(f"{what} event: stage {raw!r} is not one of "
                                      + ", ".join(STAGES))
            values[key] = raw
        else:
            values[key] = _str(raw, f"{what} event {key}")
    event: TournamentEvent = cls(**values)
    return event


def _record(data: Any, what: str, required: set[str], allowed: set[str]) -> Mapping[str, Any]:
    if not isinstance(data, Mapping):
        raise TournamentError(f"{what} {data!r}: must be a table")
    missing = sorted(required - set(data))
    if missing:
        raise TournamentError(f"{what}: missing {', '.join(missing)}")
    extra = sorted(set(data) - allowed - required)
    if extra:
        raise TournamentError(f"{what}: unknown keys {', '.join(extra)}")
    return data


def _int(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TournamentError(f"{what} {value!r}: must be a whole number")
    return value


def _str(value: Any, what: str) -> str:
    if not isinstance(value, str):
        raise TournamentError(f"{what} {value!r}: must be text")
    return value


def _names(value: Any, what: str, empty: bool = False) -> tuple[str, ...]:
    if not isinstance(value, Sequence) or isinstance(value, str) or not all(
            isinstance(v, str) for v in value) or (not value and not empty):
        raise TournamentError(f"{what} {value!r}: must be a list of names")
    return tuple(value)
