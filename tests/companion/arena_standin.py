"""A small arena game for the app's tests, shaped like the Eye for an Eye contract (EFAE_API.md).

It exists so the journal, the session and the screens can be tested whatever state the real
engine is in; it implements only the contract's views (seats, pending, phase, rounds, results)
and a few calls, with simple rules of its own: an attack opens a parry window, landed hits
take health, a knockout gives the attacker a cup token, the last one standing or "Yarra Bung!"
ends the round, and rounds are scored by cup.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

import rules
from rules import Call, Event, Game, IllegalCall, InvalidCall, Standings
from rules.registry import _EXTRA


@dataclass(frozen=True)
class Act:
    key: str
    name: str
    required: int = 1
    reaction: bool = False


@dataclass(frozen=True)
class Char:
    id: str
    name: str
    short: str
    tribe: str
    health: int
    actions: Any


def _char(cid: str, short: str, attack: str) -> Char:
    acts = {"movement": Act("movement", "Movement"), "attack": Act("attack", attack),
            "heal": Act("heal", "Heal", 2), "defence": Act("defence", "Parry", 1, True),
            "innate": Act("innate", "Watch Out!", 1)}
    return Char(cid, f"Chief {short}", short, "Tribe", 5, MappingProxyType(acts))


CHARS = {c.id: c for c in (_char("grubic", "Grubic", "Spear Thrust"),
                           _char("riparian", "Riparian", "Tail Lash"),
                           _char("banksia", "Banksia", "Thorn Whip"),
                           _char("pluma", "Pluma", "Peck"),
                           _char("incendiary", "Incendiary", "Flame"),
                           _char("echo", "Echo", "Strike"))}


@dataclass(frozen=True)
class Say(Call):
    words: str

    def text(self) -> str:
        return self.words


@dataclass(frozen=True)
class SeatView:
    player: str
    character: Char
    team: str | None
    health: int
    max_health: int
    cup: int
    knocked_out: bool
    trophies: list[str]


@dataclass(frozen=True)
class PendingView:
    attacker: str
    target: str
    hits: int
    unblockable: bool
    can_parry: bool


@dataclass(frozen=True)
class RoundRow:
    side: str
    cup: int
    standing_bonus: int
    score: int
    rank: int
    points: int


@dataclass(frozen=True)
class RoundResult:
    number: int
    tiebreak: bool
    rows: list[RoundRow]
    ended_by: str


@dataclass
class ArenaState:
    health: dict[str, int]
    cup: dict[str, int]
    trophies: dict[str, list[str]]
    pending: list[dict[str, Any]] = field(default_factory=list)
    phase: str = "playing"
    round_number: int = 1
    results: list[list[Any]] = field(default_factory=list)
    points: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class ArenaOptions:
    rounds: int = 2
    round_seconds: float = 60.0


_ATTACK = re.compile(r"^(?P<a>\w+): (?P<name>[A-Za-z !']+?) (?P<n>\d+) on (?P<t>\w+)"
                     r"(?P<rear> from the rear)?$")


class Arena(Game[ArenaState]):
    name = "arena-standin"
    title = "Arena (test stand-in)"
    min_players = 2
    max_players = 6
    Options = ArenaOptions

    def character_of(self, player: str) -> Char:
        return list(CHARS.values())[self.setup.players.index(player)]

    def _who(self, word: str) -> str:
        for p in self.setup.players:
            if word in (p, self.character_of(p).short):
                return p
        raise InvalidCall(f"{word!r}: no player or character of that name")

    def initial_state(self, rng: random.Random) -> ArenaState:
        players = self.setup.players
        return ArenaState({p: 5 for p in players}, {p: 0 for p in players},
                          {p: [] for p in players}, points={p: 0 for p in players})

    def parse(self, text: str) -> Call:
        t = text.strip()
        if t in ("Yarra Bung!", "Next round"):
            return Say(t)
        m = re.fullmatch(r"Hits land on (\w+)", t)
        if m:
            return Say(f"Hits land on {self.character_of(self._who(m[1])).short}")
        m = _ATTACK.match(t)
        if m:
            a, tg = self._who(m["a"]), self._who(m["t"])
            kind = "Unblockable" if m["name"] == "Unblockable" else "Attack"
            rear = " from the rear" if m["rear"] and kind == "Attack" else ""
            return Say(f"{self.character_of(a).short}: {kind} {int(m['n'])} on "
                       f"{self.character_of(tg).short}{rear}")
        m = re.fullmatch(r"(\w+): (Movement|Parry|Heal|Watch Out!)(?: (\d+))?", t)
        if m:
            who = self.character_of(self._who(m[1])).short
            return Say(f"{who}: {m[2]}" + (f" {int(m[3])}" if m[3] else ""))
        raise InvalidCall(f"{text!r}: not a call of the arena stand-in")

    def _land(self, state: ArenaState, index: int, parried: int,
              events: list[Event]) -> None:
        p = state.pending.pop(index)
        hits = max(0, p["hits"] - parried)
        target = p["target"]
        state.health[target] = max(0, state.health[target] - hits)
        events.append(Event("hit", f"{hits} hits on {target}", {"target": target, "hits": hits}))
        if state.health[target] == 0:
            state.cup[p["attacker"]] += 1
            state.trophies[p["attacker"]].append(self.character_of(target).short)
            events.append(Event("knockout", f"{target} is knocked out", {"player": target}))
            standing = [q for q in self.setup.players if state.health[q] > 0]
            if len(standing) <= 1:
                self._end_round(state, events, "last standing")

    def _end_round(self, state: ArenaState, events: list[Event], ended_by: str) -> None:
        state.pending.clear()
        order = sorted(self.setup.players, key=lambda q: (-state.cup[q], -state.health[q]))
        rows: list[Any] = [ended_by]
        for rank, q in enumerate(order, start=1):
            bonus = 1 if state.health[q] > 0 else 0
            pts = len(order) - rank + 1
            rows.append((q, state.cup[q], bonus, state.cup[q] + bonus, rank, pts))
            state.points[q] += pts
        state.results.append(rows)
        events.append(Event("round-over", f"round {state.round_number} is over"))
        if state.round_number >= self.options.rounds:
            state.phase = "over"
            events.append(Event("match-over", f"{self.winner_of(state)} wins"))
        else:
            state.phase = "between-rounds"

    def winner_of(self, state: ArenaState) -> str:
        order = self.setup.players
        return max(order, key=lambda q: (state.points[q], -order.index(q)))

    def _apply(self, state: ArenaState, call: Call, at: float | None) -> list[Event]:
        assert isinstance(call, Say)
        t = call.words
        events: list[Event] = []
        if t == "Next round":
            if state.phase != "between-rounds":
                raise IllegalCall(f"{t}: the round is still being played")
            state.round_number += 1
            state.phase = "playing"
            for q in self.setup.players:
                state.health[q] = 5
                state.cup[q] = 0
            return [Event("round-start", f"round {state.round_number}")]
        if state.phase != "playing":
            raise IllegalCall(f"{t}: the round is over")
        if t == "Yarra Bung!":
            self._end_round(state, events, "clock")
            return events
        if t.startswith("Hits land on "):
            target = self._who(t.removeprefix("Hits land on "))
            idx = next((i for i, p in enumerate(state.pending) if p["target"] == target), None)
            if idx is None:
                raise IllegalCall(f"{t}: no attack on {target} is pending")
            self._land(state, idx, 0, events)
            return events
        actor = self._who(t.split(":")[0])
        if state.health[actor] == 0:
            raise IllegalCall(f"{t}: {actor} is knocked out")
        rest = t.split(": ", 1)[1]
        m = re.fullmatch(r"(Attack|Unblockable) (\d+) on (\w+)( from the rear)?", rest)
        if m:
            target = self._who(m[3])
            if target == actor or state.health[target] == 0:
                raise IllegalCall(f"{t}: cannot attack {target}")
            for i, p in enumerate(state.pending):
                if p["target"] == target:
                    self._land(state, i, 0, events)
                    break
            if state.phase != "playing":
                return events
            state.pending.append({"attacker": actor, "target": target, "hits": int(m[2]),
                                  "unblockable": m[1] == "Unblockable", "rear": bool(m[4])})
            if m[1] == "Unblockable":
                self._land(state, len(state.pending) - 1, 0, events)
            else:
                events.append(Event("attack-pending", t, {"target": target}))
            return events
        if rest.startswith("Parry"):
            idx = next((i for i, p in enumerate(state.pending) if p["target"] == actor), None)
            if idx is None:
                raise IllegalCall(f"{t}: no attack on {actor} is pending")
            n = int(rest.split()[1]) if len(rest.split()) > 1 else 1
            events.append(Event("parry", t))
            self._land(state, idx, n, events)
            return events
        if rest == "Heal":
            state.health[actor] = min(5, state.health[actor] + 1)
            return [Event("heal", t)]
        return [Event("move", t)]

    # -- views of the contract -------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        return self.state.phase == "over"

    @property
    def phase(self) -> str:
        return self.state.phase

    @property
    def round_number(self) -> int:
        return self.state.round_number

    @property
    def rounds_total(self) -> int:
        return int(self.options.rounds)

    @property
    def winner(self) -> str | None:
        return self.winner_of(self.state) if self.is_over else None

    def seats(self) -> list[SeatView]:
        s = self.state
        return [SeatView(p, self.character_of(p), None, s.health[p], 5, s.cup[p],
                         s.health[p] == 0, list(s.trophies[p])) for p in self.setup.players]

    def pending(self) -> list[PendingView]:
        return [PendingView(self.character_of(p["attacker"]).short,
                            self.character_of(p["target"]).short, p["hits"], p["unblockable"],
                            not (p["unblockable"] or p.get("rear")))
                for p in self.state.pending]

    def round_results(self) -> list[RoundResult]:
        return [RoundResult(i + 1, False, [RoundRow(*r) for r in rows[1:]], str(rows[0]))
                for i, rows in enumerate(self.state.results)]

    def match_points(self) -> dict[str, int]:
        return dict(self.state.points)

    def legal_calls(self) -> list[Call]:
        if self.is_over:
            return []
        if self.phase == "between-rounds":
            return [Say("Next round")]
        up = [p for p in self.setup.players if self.state.health[p] > 0]
        calls: list[Call] = [Say("Yarra Bung!")]
        for a in up:
            sa = self.character_of(a).short
            calls.append(Say(f"{sa}: Movement 1"))
            calls += [Say(f"{sa}: Attack 2 on {self.character_of(t).short}") for t in up if t != a]
        return calls

    def standings(self) -> Standings:
        rows = tuple((p, str(self.state.points[p])) for p in self.setup.players)
        return Standings(("player", "points"), rows, self.winner, self.is_over)


def register() -> None:
    """Make the stand-in available as ``rules.new_game("arena-standin", ...)``."""
    if Arena.name not in _EXTRA:
        rules.register(Arena)


def characters() -> dict[str, Char]:
    """Character id -> character, as the real engine's module offers."""
    return dict(CHARS)
