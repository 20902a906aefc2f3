"""A tournament: entrants, rounds, tables, results and standings, rebuilt from its events.

Like a game, a tournament changes only through :meth:`Tournament.apply`, which works on a copy
and swaps it in when the event is valid, so a refused event leaves it exactly as it was. The
helpers (:meth:`Tournament.add_entrant`, :meth:`Tournament.draw_next`, :meth:`Tournament.report`,
:meth:`Tournament.correct`, ...) build the event, apply it and return it for the caller to
journal; :meth:`Tournament.from_events` plays a journal back to the same tournament.

Standings (qualifying rounds or group rounds) rank by, in order: points; wins (first places,
shared ones included); opponents' points (the points everyone you sat with holds now, once per
meeting); the lot (a number drawn for each entrant from the tournament's seed). Each row says
which of them put it ahead of the entrant below on equal points.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from rules.core import Placings, Setup
from rules.eye_for_an_eye.scoring import points_table
from rules.names import invisible, normal
from rules.tournament.draw import count_meetings, draw_tables, table_sizes
from rules.tournament.elimination import Elimination, TournamentError
from rules.tournament.events import (
    EYE_MAX_PLAYERS,
    Created,
    EntrantAdded,
    EntrantDropped,
    Format,
    ResultCorrected,
    ResultReported,
    RoundDrawn,
    Stage,
    Table,
    TournamentEvent,
    event_from_json,
    format_placings,
)

DIRECTOR = "director"
SCORING_STAGES = ("qualifying", "group")
TIE_BREAKS = ("points", "wins", "opponents' points", "lot")


@dataclass
class Entrant:
    name: str
    members: tuple[str, ...]
    order: int
    joined: int  # rounds already drawn when they joined: they play from round joined + 1
    dropped: int | None = None  # rounds drawn when they dropped


@dataclass(frozen=True)
class Result:
    placings: Placings
    source: str
    report_id: str
    reason: str = ""  # set when the organiser corrected it


@dataclass
class Round:
    number: int
    stage: Stage
    tables: tuple[Table, ...]
    byes: tuple[str, ...]
    seeds: tuple[str, ...]
    results: dict[int, Result] = field(default_factory=dict)
    conflicts: dict[int, list[Result]] = field(default_factory=dict)
    seen: set[tuple[int, str]] = field(default_factory=set)  # (table, report id) taken

    def table(self, number: int) -> Table:
        for t in self.tables:
            if t.number == number:
                return t
        raise TournamentError(f"round {self.number} has no table {number} (tables "
                              + ", ".join(str(t.number) for t in self.tables) + ")")

    @property
    def complete(self) -> bool:
        return all(t.number in self.results for t in self.tables) and not self.conflicts


@dataclass
class _State:
    name: str = ""
    format: Format | None = None
    seed: int = 0
    entrants: dict[str, Entrant] = field(default_factory=dict)
    rounds: list[Round] = field(default_factory=list)

    def clone(self) -> _State:
        """A copy to change: mutable parts copied, frozen values (tables, results) shared."""
        return _State(self.name, self.format, self.seed,
                      {k: replace(v) for k, v in self.entrants.items()},
                      [replace(r, results=dict(r.results),
                               conflicts={k: list(v) for k, v in r.conflicts.items()},
                               seen=set(r.seen)) for r in self.rounds])


@dataclass(frozen=True)
class StandingRow:
    """One entrant in the standings. ``tiebreak`` says what put them ahead of the next row on
    equal points ("" when the points alone did); ``status`` where they are in the tournament."""

    rank: int
    name: str
    points: int
    wins: int
    opponents: int
    played: int
    byes: int
    status: str
    tiebreak: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"rank": self.rank, "name": self.name, "points": self.points, "wins": self.wins,
                "opponents": self.opponents, "played": self.played, "byes": self.byes,
                "status": self.status, "tiebreak": self.tiebreak}


@dataclass(frozen=True)
class ReportOutcome:
    """What a report did: ``recorded``, ``duplicate`` (counted once already), ``conflict`` (a
    different result for a table that has one: kept for the organiser, not counted)."""

    status: str
    text: str
    event: TournamentEvent | None = None


@dataclass(frozen=True)
class Correction:
    """What a correction changed: standings rows that moved, and later rounds whose draw
    would have differed had the corrected result been known (they stand as played)."""

    event: ResultCorrected
    changes: tuple[str, ...]
    draws_differ: tuple[int, ...]

    def text(self) -> str:
        lines = [f"Round {self.event.round}, table {self.event.table}: "
                 f"{format_placings(self.event.placings)}"]
        lines += list(self.changes) or ["Standings: nothing changed."]
        for n in self.draws_differ:
            lines.append(f"Round {n}'s draw would have differed (it stands as played).")
        return "\n".join(lines)


class Tournament:
    """One tournament, rebuilt from its events. Create with :meth:`new` or
    :meth:`from_events`; change only through :meth:`apply` (or the helpers that call it)."""

    def __init__(self) -> None:
        self._state = _State()
        self._events: list[TournamentEvent] = []

    # -- building ---------------------------------------------------------------------------

    @classmethod
    def new(cls, name: str, fmt: Format | Mapping[str, Any] | None = None,
            seed: int = 0) -> Tournament:
        t = cls()
        f = fmt if isinstance(fmt, Format) else Format.from_mapping(fmt)
        t.apply(Created(_visible(name, "tournament name"), f, seed))
        return t

    @classmethod
    def from_events(cls, events: Iterable[TournamentEvent | Mapping[str, Any]]) -> Tournament:
        """Play a journal of events back. Raised on a bad event: :class:`TournamentError`
        naming the event (1-based) and why."""
        t = cls()
        for i, raw in enumerate(events, start=1):
            try:
                event = raw if not isinstance(raw, Mapping) else event_from_json(raw)
                t.apply(event)
            except TournamentError as e:
                raise TournamentError(f"tournament event {i}: {e}") from e
        return t

    @property
    def events(self) -> tuple[TournamentEvent, ...]:
        return tuple(self._events)

    def apply(self, event: TournamentEvent) -> None:
        """Validate and apply one event. Raised when it is not allowed now:
        :class:`TournamentError`; the tournament is then exactly as it was."""
        state = self._state.clone()
        _APPLY[type(event)](self, state, event)
        self._state = state
        self._events.append(event)

    # -- reading ----------------------------------------------------------------------------

    @property
    def name(self) -> str:
        return self._state.name

    @property
    def format(self) -> Format:
        if self._state.format is None:
            raise TournamentError("the tournament has not been created")
        return self._state.format

    @property
    def seed(self) -> int:
        return self._state.seed

    @property
    def rounds(self) -> tuple[Round, ...]:
        return tuple(self._state.rounds)

    @property
    def current(self) -> Round | None:
        return self._state.rounds[-1] if self._state.rounds else None

    def entrants(self) -> tuple[Entrant, ...]:
        return tuple(sorted(self._state.entrants.values(), key=lambda e: e.order))

    def active(self) -> tuple[str, ...]:
        """Entrants not dropped, in entry order."""
        return tuple(e.name for e in self.entrants() if e.dropped is None)

    def missing(self) -> tuple[int, ...]:
        """Tables of the current round with no result yet."""
        r = self.current
        return () if r is None else tuple(t.number for t in r.tables if t.number not in r.results)

    def conflicts(self) -> list[tuple[int, int, Result, list[Result]]]:
        """Every unsettled conflict: (round, table, result counted, results contradicting it)."""
        return [(r.number, n, r.results[n], list(c)) for r in self._state.rounds
                for n, c in sorted(r.conflicts.items())]

    def next_stage(self) -> Stage | None:
        """The stage the next round would be drawn for; None once the tournament is over."""
        return _next_stage(self, self._state)

    @property
    def is_over(self) -> bool:
        r = self.current
        return r is not None and r.complete and self.next_stage() is None

    def winner(self) -> str | None:
        if not self.is_over:
            return None
        return self.final_ranking()[0][0]

    def table_setup(self, round_number: int, table: int) -> Setup:
        """The game one table plays in a round: players in seat order, options, a seed.

        Alliances: the players are the teams' members, team after team; the game calls the
        teams "Team 1", "Team 2", ... in seat order.
        """
        r = self._round(round_number)
        t = r.table(table)
        fmt = self.format
        options: dict[str, Any] = dict(fmt.game_options)
        players: tuple[str, ...] = t.seats
        if fmt.style == "eye-for-an-eye":
            options["rounds"] = fmt.final_rounds if r.stage == "final" else 1
            if fmt.alliances:
                teams = [list(self._state.entrants[s].members) for s in t.seats]
                players = tuple(p for team in teams for p in team)
                options["mode"] = "alliances"
                options["teams"] = teams
        digest = hashlib.sha256(f"{self.seed}/{round_number}/{table}".encode()).digest()
        return Setup(fmt.game, players, options, int.from_bytes(digest[:4], "big"))

    def entrant_placings(self, round_number: int, table: int, game_placings: Placings
                         ) -> Placings:
        """A table game's placings in entrants' names (see :func:`placings_for_entrants`)."""
        t = self._round(round_number).table(table)
        teams = [self._state.entrants[s].members for s in t.seats] if self.format.alliances \
            else []
        return placings_for_entrants(t.seats, teams, game_placings)

    # -- standings --------------------------------------------------------------------------

    def standings(self) -> tuple[StandingRow, ...]:
        """The qualifying (or group-round) standings with their tie-breaks, best first."""
        return _standings(self, self._state)

    def final_ranking(self) -> list[tuple[str, str]]:
        """Everyone's place in the whole tournament as far as it is decided, best first:
        (name, how far they went)."""
        return _final_ranking(self, self._state)

    def bracket(self) -> list[dict[str, Any]]:
        """The elimination (or final) groups played or to come, for the screen and the page."""
        return _bracket(self, self._state)

    def summary(self) -> dict[str, Any]:
        """Everything a standings screen or page shows, as plain JSON."""
        r = self.current
        return {
            "name": self.name,
            "format": self.format.describe(),
            "style": self.format.style,
            "alliances": self.format.alliances,
            "entrants": len(self._state.entrants),
            "active": len(self.active()),
            "round": None if r is None else {
                "number": r.number, "stage": r.stage, "byes": list(r.byes),
                "tables": [{"number": t.number, "group": t.group, "seats": list(t.seats),
                            "result": (format_placings(r.results[t.number].placings)
                                       if t.number in r.results else None),
                            "conflict": t.number in r.conflicts}
                           for t in r.tables]},
            "next_stage": self.next_stage(),
            "standings": [row.to_json() for row in self.standings()],
            "tiebreaks": list(TIE_BREAKS),
            "bracket": self.bracket(),
            "ranking": [{"name": n, "reached": s} for n, s in self.final_ranking()]
            if self.is_over else [],
            "conflicts": len(self.conflicts()),
            "over": self.is_over,
            "winner": self.winner(),
        }

    # -- the helpers that make events ---------------------------------------------------------

    def add_entrant(self, name: str, members: Sequence[str] = ()) -> EntrantAdded:
        """A new entrant (Alliances: a team and its members). Names are written one way (NFC)
        and refused when they hold what cannot be seen (:func:`rules.names.invisible`); names
        already in the events are read as they are. Raised when not allowed:
        :class:`TournamentError` naming it."""
        event = EntrantAdded(_visible(name, "entrant name"),
                             tuple(_visible(m, f"team {name!r} member") for m in members))
        self.apply(event)
        return event

    def drop(self, name: str, reason: str = "") -> EntrantDropped:
        event = EntrantDropped(name, reason)
        self.apply(event)
        return event

    def draw_next(self) -> RoundDrawn:
        """Draw the next round (qualifying or group rounds: fewest rematches; then the
        elimination groups, tie-break rounds and the final). Raised when the current round is
        not finished or the tournament is over: :class:`TournamentError`."""
        self._check_can_draw(self._state)
        number, stage, tables, byes, seeds = _draw(self, self._state)
        event = RoundDrawn(number, stage, tables, byes, seeds)
        self.apply(event)
        return event

    def report(self, round_number: int, table: int, placings: Placings, source: str,
               report_id: str) -> ReportOutcome:
        """Take a table's result. The same report (or the same result) again counts once; a
        different result for a table that has one is a conflict for the organiser. Once the
        tournament is over, anything but a repeat is refused (:meth:`correct` still works)."""
        r = self._round(round_number)
        placings = self._check_placings(r, table, placings)
        where = f"round {round_number}, table {table}"
        if (table, report_id) in r.seen:
            return ReportOutcome("duplicate", f"{where}: report {report_id} already counted")
        held = r.results.get(table)
        if held is not None and held.placings == placings:
            return ReportOutcome("duplicate", f"{where}: {format_placings(placings)} already "
                                 "counted")
        if self.is_over:  # only the organiser's correction changes a finished tournament
            raise TournamentError(f"{where}: the tournament is over; a different result now "
                                  "is the organiser's correction, not a report")
        if held is not None and any(c.placings == placings and c.source == source
                                    for c in r.conflicts.get(table, [])):
            return ReportOutcome("conflict", f"{where}: this contradicting result is already "
                                 "waiting for the organiser")
        event = ResultReported(round_number, table, placings, source, report_id)
        self.apply(event)
        if held is None:
            return ReportOutcome("recorded", f"{where}: {format_placings(placings)}", event)
        return ReportOutcome("conflict", f"{where}: {source} reports "
                             f"{format_placings(placings)}, but {held.source} reported "
                             f"{format_placings(held.placings)}: the organiser decides", event)

    def preview_correction(self, round_number: int, table: int, placings: Placings,
                           reason: str = "") -> Correction:
        """What :meth:`correct` would change, without changing anything."""
        r = self._round(round_number)
        placings = self._check_placings(r, table, placings)
        event = ResultCorrected(round_number, table, placings, reason)
        after = Tournament.from_events([*self._events, event])
        return Correction(event, _standing_changes(self, after),
                          _draws_that_differ(self, event))

    def correct(self, round_number: int, table: int, placings: Placings,
                reason: str = "") -> Correction:
        """Set a table's result (director only); everything after it is recomputed. Returns
        what changed, including which later draws would have differed."""
        correction = self.preview_correction(round_number, table, placings, reason)
        self.apply(correction.event)
        return correction

    # -- checks -----------------------------------------------------------------------------

    def _round(self, number: int) -> Round:
        if isinstance(number, bool) or not isinstance(number, int) or not (
                1 <= number <= len(self._state.rounds)):
            raise TournamentError(f"round {number!r}: rounds drawn so far are 1 to "
                                  f"{len(self._state.rounds)}")
        return self._state.rounds[number - 1]

    def _check_placings(self, r: Round, table: int, placings: Placings) -> Placings:
        t = r.table(table)
        names = [n for g in placings for n in g]
        where = f"round {r.number}, table {table}"
        if any(not g for g in placings):
            raise TournamentError(f"{where}: a place with nobody in it")
        if sorted(names) != sorted(t.seats):
            raise TournamentError(f"{where}: the result {format_placings(placings)} must place "
                                  f"exactly {', '.join(t.seats)}, each once")
        return tuple(tuple(g) for g in placings)

    def _check_can_draw(self, state: _State) -> None:
        r = state.rounds[-1] if state.rounds else None
        if r is not None and not r.complete:
            waiting = [str(t.number) for t in r.tables if t.number not in r.results]
            why = []
            if waiting:
                why.append(f"no result yet from table {', '.join(waiting)}")
            if r.conflicts:
                why.append("a conflict to settle at table "
                           + ", ".join(str(n) for n in sorted(r.conflicts)))
            raise TournamentError(f"round {r.number} is not finished: {'; '.join(why)}")
        if _next_stage(self, state) is None:
            raise TournamentError("the tournament is over: no round to draw")

    def _elimination_started(self) -> bool:
        return any(r.stage not in SCORING_STAGES for r in self._state.rounds)


def placings_for_entrants(seats: Sequence[str], teams: Sequence[Sequence[str]],
                          game_placings: Placings) -> Placings:
    """A table game's placings in entrants' names. Without teams the players are the
    entrants. With teams (Alliances; ``teams[i]`` the members of ``seats[i]``) each team
    finishes where its best member did.

    >>> placings_for_entrants(["Reds", "Blues"], [["a", "b"], ["c", "d"]],
    ...                       (("c", "d"), ("a", "b")))
    (('Blues',), ('Reds',))
    """
    if not teams:
        return tuple(tuple(g) for g in game_placings)
    team_of = {m: s for s, members in zip(seats, teams, strict=True) for m in members}
    out: list[tuple[str, ...]] = []
    placed: set[str] = set()
    for group in game_placings:
        here = tuple(dict.fromkeys(team_of.get(p, p) for p in group
                                   if team_of.get(p, p) not in placed))
        placed.update(here)
        if here:
            out.append(here)
    return tuple(out)


# -- applying events ------------------------------------------------------------------------


def _visible(name: str, what: str) -> str:
    """``name`` written one way (NFC); raised when it holds what cannot be seen."""
    if not isinstance(name, str):
        raise TournamentError(f"{what} {name!r}: must be text")
    hidden = invisible(name)
    if hidden:
        raise TournamentError(f"{what} {name!r}: holds {hidden}: type it again")
    return normal(name)


def _check_name(name: str, what: str) -> None:
    if not isinstance(name, str) or not name.strip() or name != name.strip():
        raise TournamentError(f"{what} {name!r}: must be non-empty with no outer spaces")
    if any(c in name for c in ":\n>=,"):
        raise TournamentError(f"{what} {name!r}: must not contain ':', '>', '=', ',' or a "
                              "line break")


def _apply_created(t: Tournament, state: _State, e: Created) -> None:
    if state.format is not None:
        raise TournamentError("created: the tournament already exists")
    _check_name(e.name, "tournament name")
    state.name, state.format, state.seed = e.name, e.format, e.seed


def _apply_added(t: Tournament, state: _State, e: EntrantAdded) -> None:
    fmt = _fmt(state)
    _check_name(e.name, "entrant name")
    taken = {n.casefold() for n in state.entrants} | {
        m.casefold() for x in state.entrants.values() for m in x.members}
    if e.name.casefold() in taken:
        raise TournamentError(f"entrant {e.name!r}: that name is taken")
    if any(r.stage not in SCORING_STAGES for r in state.rounds) or (
            sum(r.stage in SCORING_STAGES for r in state.rounds) >= fmt.rounds):
        raise TournamentError(f"entrant {e.name!r}: too late, the "
                              f"{'qualifying' if fmt.style == 'eye-for-an-eye' else 'group'} "
                              "rounds are over")
    if fmt.alliances:
        if len(e.members) not in (2, 3):
            raise TournamentError(f"team {e.name!r}: Alliances teams have 2 or 3 members, "
                                  f"got {len(e.members)}")
        sizes = {len(x.members) for x in state.entrants.values()}
        if sizes and len(e.members) not in sizes:
            raise TournamentError(f"team {e.name!r}: every team has {sizes.pop()} members in "
                                  "this tournament (2 vs 2, 3 vs 3 or 2 vs 2 vs 2)")
        if len(e.members) == 3 and fmt.table_size > 2:
            raise TournamentError(f"team {e.name!r}: teams of 3 play 3 vs 3, so table-size "
                                  "must be 2")
        for m in e.members:
            _check_name(m, f"team {e.name!r} member")
            if m.casefold() in taken or m.casefold() == e.name.casefold():
                raise TournamentError(f"team {e.name!r}: member {m!r}: that name is taken")
        if len({m.casefold() for m in e.members}) != len(e.members):
            raise TournamentError(f"team {e.name!r}: members must differ")
    elif e.members:
        raise TournamentError(f"entrant {e.name!r}: members only in Alliances mode")
    state.entrants[e.name] = Entrant(e.name, e.members, len(state.entrants),
                                     len(state.rounds))


def _apply_dropped(t: Tournament, state: _State, e: EntrantDropped) -> None:
    _fmt(state)
    x = state.entrants.get(e.name)
    if x is None:
        raise TournamentError(f"drop {e.name!r}: not an entrant")
    if x.dropped is not None:
        raise TournamentError(f"drop {e.name!r}: already dropped after round {x.dropped}")
    x.dropped = len(state.rounds)


def _apply_drawn(t: Tournament, state: _State, e: RoundDrawn) -> None:
    fmt = _fmt(state)
    if e.number != len(state.rounds) + 1:
        raise TournamentError(f"round {e.number}: the next round is {len(state.rounds) + 1}")
    t._check_can_draw(state)
    if e.stage != _next_stage(t, state):
        raise TournamentError(f"round {e.number}: the next stage is "
                              f"{_next_stage(t, state)}, not {e.stage}")
    seated = [s for table in e.tables for s in table.seats]
    everyone = seated + list(e.byes)
    if len(set(everyone)) != len(everyone):
        raise TournamentError(f"round {e.number}: someone is seated twice")
    for name in everyone:
        x = state.entrants.get(name)
        if x is None or x.dropped is not None:
            raise TournamentError(f"round {e.number}: {name!r} is not an active entrant")
    if [t.number for t in e.tables] != list(range(1, len(e.tables) + 1)) or not e.tables:
        raise TournamentError(f"round {e.number}: tables must be numbered 1, 2, 3, ...")
    most = fmt.final_size if (e.stage == "final" and fmt.style == "groups") else (
        EYE_MAX_PLAYERS if fmt.style == "eye-for-an-eye" else fmt.table_size)
    if fmt.alliances:
        most = 3
    for table in e.tables:
        if not 2 <= len(table.seats) <= most:
            raise TournamentError(f"round {e.number}, table {table.number}: "
                                  f"{len(table.seats)} seats, must be 2 to {most}")
    if e.stage in SCORING_STAGES and sorted(everyone) != sorted(
            n for n, x in state.entrants.items() if x.dropped is None):
        raise TournamentError(f"round {e.number}: every active entrant must be seated or "
                              "given a bye")
    state.rounds.append(Round(e.number, e.stage, e.tables, e.byes, e.seeds))


def _apply_reported(t: Tournament, state: _State, e: ResultReported) -> None:
    _fmt(state)
    r = _round_of(state, e.round)
    placings = t._check_placings(r, e.table, e.placings)
    if not e.source or not e.report_id:
        raise TournamentError(f"round {e.round}, table {e.table}: a report needs a source "
                              "and a report id")
    held = r.results.get(e.table)
    if (e.table, e.report_id) in r.seen or (held is not None and held.placings == placings):
        r.seen.add((e.table, e.report_id))
        return
    r.seen.add((e.table, e.report_id))
    result = Result(placings, e.source, e.report_id)
    if held is None:
        r.results[e.table] = result
    else:
        r.conflicts.setdefault(e.table, []).append(result)


def _apply_corrected(t: Tournament, state: _State, e: ResultCorrected) -> None:
    _fmt(state)
    r = _round_of(state, e.round)
    placings = t._check_placings(r, e.table, e.placings)
    r.results[e.table] = Result(placings, DIRECTOR, f"correction-{len(t.events) + 1}",
                                e.reason or "corrected")
    r.conflicts.pop(e.table, None)


_APPLY: dict[type[Any], Any] = {
    Created: _apply_created, EntrantAdded: _apply_added, EntrantDropped: _apply_dropped,
    RoundDrawn: _apply_drawn, ResultReported: _apply_reported,
    ResultCorrected: _apply_corrected}


def _fmt(state: _State) -> Format:
    if state.format is None:
        raise TournamentError("the first event must create the tournament")
    return state.format


def _round_of(state: _State, number: int) -> Round:
    if not 1 <= number <= len(state.rounds):
        raise TournamentError(f"round {number}: rounds drawn so far are 1 to "
                              f"{len(state.rounds)}")
    return state.rounds[number - 1]


# -- points and standings -------------------------------------------------------------------


def _place_points(fmt: Format, placings: Placings) -> dict[str, int]:
    seats = sum(len(g) for g in placings)
    table = list(fmt.points) if fmt.points else list(points_table(seats))
    table += [0] * (seats - len(table))
    out: dict[str, int] = {}
    i = 0
    for group in placings:
        j = i + len(group)
        pts = table[i] if fmt.tied_ranks == "share-higher" else table[j - 1]
        for name in group:
            out[name] = pts
        i = j
    return out


def _bye_points(fmt: Format) -> int:
    if fmt.bye_points >= 0:
        return fmt.bye_points
    return fmt.points[0] if fmt.points else points_table(2)[0]


def _lot(seed: int, name: str) -> float:
    return random.Random(f"{seed}/lot/{name}").random()


@dataclass
class _Tally:
    points: int = 0
    wins: int = 0
    played: int = 0
    byes: int = 0
    opponents: list[str] = field(default_factory=list)


def _tallies(state: _State) -> dict[str, _Tally]:
    fmt = _fmt(state)
    tally = {n: _Tally() for n in state.entrants}
    for r in state.rounds:
        if r.stage not in SCORING_STAGES:
            continue
        for name in r.byes:
            tally[name].points += _bye_points(fmt)
            tally[name].byes += 1
            tally[name].played += 1
        for table in r.tables:
            result = r.results.get(table.number)
            if result is None:
                continue
            pts = _place_points(fmt, result.placings)
            for name in table.seats:
                tally[name].points += pts[name]
                tally[name].played += 1
                tally[name].wins += name in result.placings[0]
                tally[name].opponents += [o for o in table.seats if o != name]
    return tally


def _ordered(state: _State, names: Iterable[str]) -> list[tuple[str, tuple[Any, ...]]]:
    tally = _tallies(state)
    keys = {}
    for n in names:
        t = tally[n]
        opp = sum(tally[o].points for o in t.opponents)
        keys[n] = (-t.points, -t.wins, -opp, _lot(state.seed, n))
    return sorted(keys.items(), key=lambda kv: kv[1])


def _standings(t: Tournament, state: _State) -> tuple[StandingRow, ...]:
    tally = _tallies(state)
    order = _ordered(state, state.entrants)
    status = _statuses(t, state)
    rows = []
    for i, (name, key) in enumerate(order):
        tb = ""
        if i + 1 < len(order) and order[i + 1][1][0] == key[0]:
            other = order[i + 1][1]
            k = next(k for k in range(1, 4) if key[k] != other[k])
            if k == 1:
                tb = f"wins {-key[1]} to {-other[1]}"
            elif k == 2:
                tb = f"opponents' points {-key[2]} to {-other[2]}"
            else:
                tb = "lot"
        rank = i + 1
        x = tally[name]
        rows.append(StandingRow(rank, name, x.points, x.wins, -key[2], x.played, x.byes,
                                status[name], tb))
    return tuple(rows)


def _statuses(t: Tournament, state: _State) -> dict[str, str]:
    out: dict[str, str] = {}
    for n, x in state.entrants.items():
        out[n] = "dropped" if x.dropped is not None else (
            f"joins round {x.joined + 1}" if x.joined >= len(state.rounds) and state.rounds
            else "playing")
    for n, reached in _final_ranking(t, state) if _elim_rounds(state) else []:
        if out.get(n) != "dropped":
            out[n] = reached
    return out


# -- stages ---------------------------------------------------------------------------------


def _scoring_rounds(state: _State) -> int:
    return sum(r.stage in SCORING_STAGES for r in state.rounds)


def _elim_rounds(state: _State) -> list[Round]:
    return [r for r in state.rounds if r.stage not in SCORING_STAGES]


def _seeds(state: _State) -> tuple[str, ...]:
    for r in state.rounds:
        if r.seeds:
            return r.seeds
    return ()


def _order(state: _State, stage: str, group: str, placings: Placings, cut: int,
           seeds: Sequence[str]) -> tuple[list[str], tuple[tuple[str, ...], int] | None]:
    """A group's finishing order, a tie across the cut settled by its tie-break rounds (other
    ties by seed). Returns the order and the tie still to settle, if any: (tied, going on)."""
    rank = {n: i for i, n in enumerate(seeds)}
    tiebreaks = [res.placings for r in state.rounds if r.stage == "tie-break"
                 and _tiebreak_stage(state, r) == stage for tb in r.tables
                 if tb.group == group and (res := r.results.get(tb.number)) is not None]
    order: list[str] = []
    before = 0
    for g in placings:
        members = sorted(g, key=lambda n: rank.get(n, len(rank)))
        if len(g) > 1 and before < cut < before + len(g):
            settled, tie = _settle(members, cut - before, tiebreaks)
            if settled is None:
                return order + members, tie
            members = settled
        order += members
        before += len(g)
    return order, None


def _settle(tied: list[str], going_on: int, tiebreaks: list[Placings]
            ) -> tuple[list[str] | None, tuple[tuple[str, ...], int] | None]:
    """Order entrants tied across a cut by the tie-break results among exactly them, in the
    order played; or say who is still tied (and how many of them go on)."""
    for i, pl in enumerate(tiebreaks):
        if sorted(n for g in pl for n in g) != sorted(tied):
            continue
        order: list[str] = []
        before = 0
        for g in pl:
            group = [n for n in tied if n in g]
            if len(group) > 1 and before < going_on < before + len(group):
                sub, rest = _settle(group, going_on - before, tiebreaks[i + 1:])
                if sub is None:
                    return None, rest
                group = sub
            order += group
            before += len(g)
        return order, None
    return None, (tuple(tied), going_on)


def _tiebreak_stage(state: _State, r: Round) -> str:
    i = state.rounds.index(r)
    while i >= 0 and state.rounds[i].stage == "tie-break":
        i -= 1
    return state.rounds[i].stage if i >= 0 else ""


def _elimination(fmt: Format, seeds: Sequence[str]) -> Elimination:
    return Elimination(tuple(seeds), alliances=fmt.alliances)


def _stage_groups(t: Tournament, state: _State, stage: str
                  ) -> tuple[dict[str, tuple[str, ...]], int] | None:
    """The groups of an elimination stage and how many go on from each: as drawn once the
    stage is drawn (rounds stand as played), else from the recorded seeds and the settled
    results before it. None while an earlier stage is unsettled."""
    fmt = _fmt(state)
    seeds = _seeds(state) or tuple(n for n, _ in _ordered(state, t_active(state)))
    recorded = _drawn_groups(state, stage)
    if fmt.style == "groups":
        if stage != "final":
            return None
        return recorded or {"final": seeds[:fmt.final_size]}, 1
    elim = _elimination(fmt, seeds)
    cut = 1 if stage == "final" else elim.advance
    first = elim.first_round()
    if stage == "elimination-1":
        return first, cut
    through1 = _through(state, "elimination-1", first, elim.advance, seeds)
    if through1 is None:
        return None
    second = elim.second_round(through1) if first else elim.second_round()
    if stage == "elimination-2":
        if recorded:
            byes = {g: m for g, m in second.items() if g not in recorded and len(m) <= cut}
            return {**recorded, **byes}, cut
        return second, cut
    if recorded:
        return recorded, cut
    if not second:
        return {"final": elim.entrants}, cut
    played2 = _drawn_groups(state, "elimination-2")
    groups2 = {**second, **played2} if played2 else second
    through2 = _through(state, "elimination-2", groups2, elim.advance, seeds)
    if through2 is None:
        return None
    return {"final": tuple(n for g in ("AD", "BC") for n in through2.get(g, ())[:elim.advance])
            }, cut


def _drawn_groups(state: _State, stage: str) -> dict[str, tuple[str, ...]]:
    for r in state.rounds:
        if r.stage == stage:
            return {tb.group: tb.seats for tb in r.tables}
    return {}


def t_active(state: _State) -> list[str]:
    return [n for n, x in state.entrants.items() if x.dropped is None]


def _through(state: _State, stage: str, groups: Mapping[str, tuple[str, ...]], cut: int,
             seeds: Sequence[str]) -> dict[str, tuple[str, ...]] | None:
    """Each group's settled finishing order (a bye group: its members, all going on); None
    while any group is still open."""
    out: dict[str, tuple[str, ...]] = {}
    rounds = [r for r in state.rounds if r.stage == stage]
    for g, members in groups.items():
        if len(members) <= cut:
            out[g] = members
            continue
        table = next((tb for r in rounds for tb in r.tables if tb.group == g), None)
        result = None if table is None else rounds[0].results.get(table.number)
        if result is None:
            return None
        order, tie = _order(state, stage, g, result.placings, cut, seeds)
        if tie is not None:
            return None
        out[g] = tuple(order)
    return out


def _open_ties(t: Tournament, state: _State) -> list[tuple[str, tuple[str, ...]]]:
    """Ties at a cut in the last elimination stage played: (group, tied entrants)."""
    elim = [r for r in state.rounds if r.stage not in SCORING_STAGES and r.stage != "tie-break"]
    if not elim:
        return []
    stage = elim[-1].stage
    if _fmt(state).style == "groups":
        return []
    seeds = _seeds(state)
    r0 = elim[-1]
    cut = 1 if stage == "final" else _elimination(_fmt(state), seeds).advance
    ties = []
    for table in r0.tables:
        result = r0.results.get(table.number)
        if result is None:
            continue
        _, tie = _order(state, stage, table.group, result.placings, cut, seeds)
        if tie is not None:
            ties.append((table.group, tie[0]))
    return ties


def _next_stage(t: Tournament, state: _State) -> Stage | None:
    fmt = _fmt(state)
    if _scoring_rounds(state) < fmt.rounds and not _elim_rounds(state):
        return "qualifying" if fmt.style == "eye-for-an-eye" else "group"
    last = state.rounds[-1] if state.rounds else None
    if last is not None and last.stage != "qualifying" and last.stage != "group" and (
            _open_ties(t, state)):
        return "tie-break"
    done = {r.stage for r in state.rounds}
    order: list[Stage] = (["final"] if fmt.style == "groups"
                          else ["elimination-1", "elimination-2", "final"])
    for stage in order:
        if stage in done:
            continue
        groups = _stage_groups(t, state, stage)
        if groups is None:
            return stage
        members, cut = groups
        if stage == "final" or any(len(m) > cut for m in members.values()):
            return stage
    return None


# -- drawing --------------------------------------------------------------------------------


def _draw(t: Tournament, state: _State
          ) -> tuple[int, Stage, tuple[Table, ...], tuple[str, ...], tuple[str, ...]]:
    """The next round as it would be drawn now: (number, stage, tables, byes, seeds)."""
    fmt = _fmt(state)
    stage = _next_stage(t, state)
    if stage is None:
        raise TournamentError("the tournament is over: no round to draw")
    number = len(state.rounds) + 1
    active = t_active(state)
    if stage in SCORING_STAGES:
        if len(active) < 2:
            raise TournamentError(f"round {number}: {len(active)} active entrant(s); a round "
                                  "needs at least 2")
        most = fmt.table_size
        sizes = table_sizes(len(active), most)
        byes: list[str] = []
        tally = _tallies(state)
        ranked = [n for n, _ in _ordered(state, active)]
        while sizes and sizes[-1] == 1:
            sizes.pop()
            # the lowest-ranked among those with the fewest byes
            fewest = min(tally[n].byes for n in ranked if n not in byes)
            pick = next(n for n in reversed(ranked) if n not in byes and
                        tally[n].byes == fewest)
            byes.append(pick)
        drawn = [n for n in active if n not in byes]
        met = count_meetings([[tb.seats for tb in r.tables] for r in state.rounds])
        rng = random.Random(f"{state.seed}/round/{number}")
        seating = draw_tables(drawn, sizes, met, rng)
        return (number, stage, tuple(Table(i, seats) for i, seats in enumerate(seating, 1)),
                tuple(byes), ())
    if stage == "tie-break":
        ties = _open_ties(t, state)
        return (number, stage, tuple(Table(i, members, g)
                                     for i, (g, members) in enumerate(ties, 1)), (), ())
    seeds = _seeds(state)
    new_seeds: tuple[str, ...] = ()
    if not seeds:
        seeds = tuple(n for n, _ in _ordered(state, active))
        new_seeds = seeds
    groups = _stage_groups(t, state, stage)
    if groups is None:
        raise TournamentError(f"round {number}: the {stage} groups are not settled yet")
    members, cut = groups
    playing = {g: m for g, m in members.items() if len(m) > cut or stage == "final"}
    byes_t = tuple(n for g, m in members.items() if g not in playing for n in m)
    tables = tuple(Table(i, m, g) for i, (g, m) in enumerate(playing.items(), 1))
    return number, stage, tables, byes_t, new_seeds


# -- the whole tournament's ranking -----------------------------------------------------------


def _final_ranking(t: Tournament, state: _State) -> list[tuple[str, str]]:
    fmt = _fmt(state)
    ranked = [n for n, _ in _ordered(state, state.entrants)]
    out: list[tuple[str, str]] = []
    placed: set[str] = set()
    seeds = _seeds(state) or tuple(ranked)
    stages = ["final", "elimination-2", "elimination-1"]
    nexts = {"elimination-1": "elimination 2", "elimination-2": "the final"}
    drawn = {r.stage for r in state.rounds}
    for i, stage in enumerate(stages):
        rounds = [r for r in state.rounds if r.stage == stage]
        if not rounds:
            continue
        later = any(s in drawn for s in stages[:i])
        r0 = rounds[0]
        cut = 1 if stage == "final" else _elimination(fmt, seeds).advance
        rows: list[tuple[int, int, str, str]] = []
        for table in r0.tables:
            result = r0.results.get(table.number)
            if result is None:
                for n in table.seats:
                    rows.append((99, seeds.index(n) if n in seeds else 99, n,
                                 "playing the final" if stage == "final" else
                                 f"playing group {table.group}"))
                continue
            if fmt.style == "groups" and stage == "final":
                key = {n: i for i, (n, _) in enumerate(_ordered(state, table.seats))}
                order = [n for g in result.placings for n in sorted(g, key=lambda n: key[n])]
                tie = None
            else:
                order, tie = _order(state, stage, table.group, result.placings, cut, seeds)
            place = _places(result.placings, order, cut)
            for n in order:
                if tie is not None and n in tie[0]:
                    where = "tie-break for the title" if stage == "final" else (
                        f"tie-break in group {table.group}")
                elif stage == "final":
                    where = "winner" if place[n] == 1 else f"{_ordinal(place[n])} in the final"
                elif order.index(n) < cut and not later:
                    where = f"through to {nexts[stage]} from group {table.group}"
                else:
                    where = f"out in group {table.group}, {_ordinal(place[n])}"
                rows.append((place[n], seeds.index(n) if n in seeds else 99, n, where))
        for name in r0.byes:
            rows.append((0, seeds.index(name) if name in seeds else 99, name,
                         f"bye to {nexts.get(stage, 'the final')}"))
        for _, _, n, where in sorted(rows):
            if n not in placed:
                out.append((n, where))
                placed.add(n)
    rest = "out after qualifying" if fmt.style == "eye-for-an-eye" else (
        "out after the group rounds")
    for n in ranked:
        if n not in placed:
            out.append((n, "dropped" if state.entrants[n].dropped is not None else rest))
    return out


def _places(placings: Placings, order: Sequence[str], cut: int) -> dict[str, int]:
    """Each name's place (1 first): tied names share their group's first place, except
    where a tie across the cut was played off (then the order decides)."""
    place: dict[str, int] = {}
    before = 0
    for g in placings:
        split = len(g) > 1 and before < cut < before + len(g)
        for n in g:
            place[n] = order.index(n) + 1 if split else before + 1
        before += len(g)
    return place


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def _bracket(t: Tournament, state: _State) -> list[dict[str, Any]]:
    fmt = _fmt(state)
    out: list[dict[str, Any]] = []
    stages = ["final"] if fmt.style == "groups" else ["elimination-1", "elimination-2", "final"]
    if _scoring_rounds(state) < fmt.rounds:
        return out
    seeds = _seeds(state)
    for stage in stages:
        groups = _stage_groups(t, state, stage)
        if groups is None:
            out.append({"stage": stage, "groups": [], "settled": False})
            continue
        members, cut = groups
        rounds = [r for r in state.rounds if r.stage == stage]
        rows = []
        for g, m in members.items():
            table = next((tb for r in rounds for tb in r.tables if tb.group == g), None)
            result = rounds[0].results.get(table.number) if table and rounds else None
            order: list[str] = []
            if result is not None:
                order, _ = _order(state, stage, g, result.placings, cut, seeds or m)
            tiebreaks = [format_placings(res.placings) for r in state.rounds
                         if r.stage == "tie-break" and _tiebreak_stage(state, r) == stage
                         for tb in r.tables if tb.group == g
                         and (res := r.results.get(tb.number)) is not None]
            rows.append({"group": g, "members": list(m), "tiebreaks": tiebreaks,
                         "bye": len(m) <= cut and
                         stage != "final", "result": format_placings(result.placings)
                         if result else None, "through": order[:cut] if result and
                         stage != "final" else list(m) if len(m) <= cut else
                         order[:1] if result else []})
        out.append({"stage": stage, "groups": rows, "settled": True})
    return out


def _standing_changes(before: Tournament, after: Tournament) -> tuple[str, ...]:
    old = {r.name: r for r in before.standings()}
    lines = []
    for row in after.standings():
        was = old[row.name]
        if (was.rank, was.points) != (row.rank, row.points):
            lines.append(f"{row.name}: {_ordinal(was.rank)} with {was.points} -> "
                         f"{_ordinal(row.rank)} with {row.points}")
    old_final = before.final_ranking()
    new_final = after.final_ranking()
    if [n for n, _ in old_final] != [n for n, _ in new_final] and before._elimination_started():
        lines.append("Tournament ranking: " + ", ".join(n for n, _ in new_final[:8])
                     + (" ..." if len(new_final) > 8 else ""))
    return tuple(lines)


def _draws_that_differ(t: Tournament, correction: ResultCorrected) -> tuple[int, ...]:
    """Later rounds whose draw, computed with every result as it now stands put in place of
    the first report (the correction included), differs from the same computed without the
    correction. Rounds as played are never changed."""
    effective = {(r.number, n): res.placings for r in t._state.rounds
                 for n, res in r.results.items()}
    changed = {**effective, (correction.round, correction.table): correction.placings}

    def in_place(results: Mapping[tuple[int, int], Placings]) -> list[TournamentEvent]:
        out: list[TournamentEvent] = []
        for e in t.events:
            if isinstance(e, ResultCorrected):
                continue
            if isinstance(e, ResultReported):
                e = ResultReported(e.round, e.table, results[(e.round, e.table)], e.source,
                                   e.report_id)
            out.append(e)
        return out

    old, new = Tournament(), Tournament()
    differ: list[int] = []
    apart = False  # the corrected history can no longer take the recorded rounds
    for before, after in zip(in_place(effective), in_place(changed), strict=True):
        if isinstance(before, RoundDrawn) and before.number > correction.round:
            try:
                same = not apart and _draw(old, old._state)[1:] == _draw(new, new._state)[1:]
            except TournamentError:
                same = False
            if not same:
                differ.append(before.number)
        old.apply(before)
        if apart:
            continue
        try:
            new.apply(after)
        except TournamentError:
            apart = True
    return tuple(differ)


__all__ = ["DIRECTOR", "TIE_BREAKS", "Correction", "Entrant", "ReportOutcome", "Result",
           "Round", "StandingRow", "Tournament", "placings_for_entrants"]
