"""The Eye for an Eye engine: a real-time arena game kept as calls with times.

See docs/rules/eye-for-an-eye.md for every ruling this engine makes where the rulebook is silent.
"""

from __future__ import annotations

import copy
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from rules.core import (
    Call,
    Deal,
    DealChoice,
    Event,
    Game,
    IllegalCall,
    InvalidCall,
    Placings,
    PlayerResult,
    Prompt,
    RulesError,
    Setup,
    SetupError,
    Standings,
    rank_by,
    rank_by_score,
    read_number,
    shown,
    tidy_call,
)
from rules.eye_for_an_eye.calls import (
    Act,
    Allocate,
    Dispute,
    Land,
    NextRound,
    Ready,
    Recover,
    StartingAreas,
    TimeUp,
    Unblockable,
)
from rules.eye_for_an_eye.characters import Action, Card, Character, characters
from rules.eye_for_an_eye.events import EVENT_KINDS, event
from rules.eye_for_an_eye.scoring import RoundRow, rank_round

#: Health cubes in the box; a game never creates or loses one.
HEALTH_TOKENS = 110
STANDING_BONUS = 5
#: The six Ceremonial Flower Tokens, one per starting area; the rulebook names none, so they
#: are numbered 1-6 here (provisional: number the arena's starting areas the same way).
FLOWER_TOKENS = (1, 2, 3, 4, 5, 6)
MAX_ROUNDS = 20
#: The counts :meth:`EyeForAnEye.legal_calls` lists Unblockable hits with (the arena's keypad,
#: one to six). Provisional: the rulebook prints no tribal card's number of unblockable hits,
#: so the engine takes any count said ("Grubic: Unblockable 8 on Riparian").
UNBLOCKABLE_COUNTS = (1, 2, 3, 4, 5, 6)
#: Alliances' team sizes, smallest first: 2 vs 2, 3 vs 3, 2 vs 2 vs 2.
ALLIANCE_TEAMS = ((2, 2), (3, 3), (2, 2, 2))
MAX_ROUND_SECONDS = 3600.0
DEFAULT_ORDER = ("grubic", "riparian", "banksia", "pluma", "incendiary", "echo")


@dataclass(frozen=True)
class EyeOptions:
    """How this table plays. See docs/rules/eye-for-an-eye.md for each choice."""

    mode: Literal["every-eye", "alliances"] = "every-eye"
    characters: tuple[str, ...] = ()
    teams: tuple[tuple[str, ...], ...] = ()
    rounds: int | None = None
    round_seconds: float = 300.0
    advanced: bool = True
    track_allocation: bool = False
    tied_ranks: Literal["share-higher", "share-lower"] = "share-higher"
    friendly_fire: bool = False
    heal_above_start: bool = False
    health_tokens: int = HEALTH_TOKENS
    match_length: Literal["sides", "players"] = "players"


@dataclass
class FigureState:
    name: str
    health: int
    max_health: int
    knocked_out_by: str | None = None

    @property
    def standing(self) -> bool:
        return self.health > 0


@dataclass
class SeatState:
    player: str
    character: str  # character id
    side: str  # who owns the cup this seat scores into
    figures: list[FigureState]
    playing: bool = True
    allocation: dict[str, int] = field(default_factory=dict)
    ready: list[str] = field(default_factory=list)
    trophies: list[str] = field(default_factory=list)

    @property
    def health(self) -> int:
        return sum(f.health for f in self.figures)

    @property
    def standing(self) -> bool:
        return self.playing and any(f.standing for f in self.figures)


@dataclass
class Pending:
    attacker: int  # seat index
    target: int  # seat index
    figure: str
    hits: int
    rear: bool


@dataclass
class RoundRecord:
    number: int
    tiebreak: bool
    rows: list[RoundRow]
    ended_by: str


@dataclass
class EyeState:
    seats: list[SeatState]
    sides: list[str]
    cups: dict[str, int]
    supply: int
    round_number: int = 1
    tiebreak: bool = False
    phase: Literal["playing", "between-rounds", "over"] = "playing"
    pending: list[Pending] = field(default_factory=list)
    results: list[RoundRecord] = field(default_factory=list)
    points: dict[str, int] = field(default_factory=dict)
    winner: str | None = None
    areas: dict[str, int] = field(default_factory=dict)  # character short -> starting area
    round_calls: int = 0  # calls made in this round (starting areas are dealt before any)


@dataclass(frozen=True)
class SeatView:
    """One player's panel on the arena screen."""

    player: str
    character: Character
    team: str | None
    side: str
    health: int
    max_health: int
    cup: int
    knocked_out: bool
    playing: bool
    figures: tuple[tuple[str, int, int], ...]  # (name, health, max)
    trophies: tuple[str, ...]
    allocation: dict[str, int]
    pool: int
    ready_cards: tuple[str, ...]


@dataclass(frozen=True)
class PendingView:
    attacker: str
    target: str
    figure: str
    hits: int
    can_parry: bool
    rear: bool


_LAST_WORD = re.compile(r"^(?P<rest>.*?)\s+(?P<n>\S+)$")
_GENERIC = {
    "move": "movement", "movement": "movement", "attack": "attack", "defend": "defence",
    "defence": "defence", "defense": "defence", "heal": "heal", "innate": "innate",
}


def _numberish(word: str) -> bool:
    """True for a word meant as a number that is not one we read ("-1", "²", "1e3", "٣")."""
    return any(ch.isdigit() for ch in word) or word[:1] in "+-"


def _norm(text: str) -> str:
    return " ".join(text.replace("*", " ").replace("!", " ").split()).casefold()


class EyeForAnEye(Game[EyeState]):
    """Eye for an Eye: every player calls actions in real time; the round clock is an input."""

    name = "eye-for-an-eye"
    event_kinds = EVENT_KINDS
    title = "Eye for an Eye"
    min_players = 2
    max_players = 6
    Options = EyeOptions
    options: EyeOptions

    # -- setup --------------------------------------------------------------------------

    def initial_state(self, rng: random.Random) -> EyeState:
        opts = self.options
        players = self.setup.players
        known = characters()
        chosen = list(opts.characters) or [c for c in DEFAULT_ORDER if c in known][:len(players)]
        if len(chosen) != len(players):
            raise SetupError(f"characters: {len(players)} players need {len(players)} "
                             f"characters, got {len(chosen)}: {', '.join(chosen)}")
        for cid in chosen:
            if cid not in known:
                raise SetupError(f"unknown character {cid!r}; known: {', '.join(known)}")
        if len(set(chosen)) != len(chosen):
            raise SetupError(f"characters: each character can be played once, got "
                             f"{', '.join(chosen)}")
        if opts.mode == "every-eye":
            if not 2 <= len(players) <= 4:
                raise SetupError(f"Every Eye for Themselves is for 2 to 4 players, "
                                 f"got {len(players)}")
            if opts.teams:
                raise SetupError("teams: only in alliances mode")
            side_of = {p: p for p in players}
            sides = list(players)
        else:
            side_of, sides = self._teams(players)
        self._chars = [known[c] for c in chosen]
        if opts.rounds is not None and not 1 <= opts.rounds <= MAX_ROUNDS:
            raise SetupError(f"option rounds={opts.rounds}: choose 1 to {MAX_ROUNDS}")
        if not 0 < opts.round_seconds <= MAX_ROUND_SECONDS:
            raise SetupError(f"option round-seconds={opts.round_seconds:g}: more than 0 and at "
                             f"most {MAX_ROUND_SECONDS:g}")
        if not 0 < opts.health_tokens <= 1000:
            raise SetupError(f"option health-tokens={opts.health_tokens}: 1 to 1000")
        total_health = sum(c.health for c in self._chars)
        if total_health > opts.health_tokens:
            raise SetupError(f"the characters need {total_health} health tokens, "
                             f"the box has {opts.health_tokens}")
        self._aliases(players)
        seats = [SeatState(p, c.id, side_of[p],
                           [FigureState(f.name, f.health, f.health) for f in c.figures])
                 for p, c in zip(players, self._chars, strict=True)]
        # Setup step 2: "Shuffle the six Ceremonial Flower Tokens and deal one randomly to each
        # player." The companion deals with the seeded rng unless the table says
        # "Starting areas: ..." (see table_deals).
        dealt = rng.sample(FLOWER_TOKENS, len(players))
        areas = {c.short: a for c, a in zip(self._chars, dealt, strict=True)}
        return EyeState(seats, sides, {s: 0 for s in sides},
                        opts.health_tokens - total_health, points={s: 0 for s in sides},
                        areas=areas)

    def _teams(self, players: Sequence[str]) -> tuple[dict[str, str], list[str]]:
        teams = self.options.teams
        if not 4 <= len(players) <= 6:
            raise SetupError(f"Alliances is for 4 to 6 players, got {len(players)}")
        sizes = tuple(sorted(len(t) for t in teams))
        if sizes not in ALLIANCE_TEAMS:
            raise SetupError("teams: Alliances plays 2 vs 2, 3 vs 3 or 2 vs 2 vs 2; got "
                             + " vs ".join(str(len(t)) for t in teams) if teams else
                             "teams: Alliances needs teams, e.g. [[\"Ana\", \"Ben\"], "
                             "[\"Cy\", \"Di\"]]")
        side_of: dict[str, str] = {}
        sides = []
        for i, team in enumerate(teams, start=1):
            side = f"Team {i}"
            sides.append(side)
            for p in team:
                if p not in players:
                    raise SetupError(f"teams: {p!r} is not a player ({', '.join(players)})")
                if p in side_of:
                    raise SetupError(f"teams: {p!r} is in two teams")
                side_of[p] = side
        missing = [p for p in players if p not in side_of]
        if missing:
            raise SetupError(f"teams: {', '.join(missing)} not in any team")
        return side_of, sides

    def _aliases(self, players: Sequence[str]) -> None:
        """Every name a seat or a figure answers to; a name two seats share is refused."""
        self._seat_alias: dict[str, int] = {}
        self._figure_alias: dict[str, tuple[int, str]] = {}
        for i, (p, c) in enumerate(zip(players, self._chars, strict=True)):
            names = {p, c.short, c.name, c.tribe, c.id}
            for n in names:
                other = self._seat_alias.get(n.casefold())
                if other is not None and other != i:
                    raise SetupError(f"the name {n!r} would mean both {players[other]} and {p}: "
                                     "choose another player name")
                self._seat_alias[n.casefold()] = i
            for n in names:
                self._figure_alias[n.casefold()] = (i, c.figures[0].name)
            for f in c.figures:
                self._figure_alias[f.name.casefold()] = (i, f.name)
                self._seat_alias.setdefault(f.name.casefold(), i)

    @classmethod
    def random_setup(cls, rng: random.Random) -> Setup:
        known = list(characters())
        if rng.random() < 0.7:
            n = rng.randint(2, 4)
            options: dict[str, object] = {"mode": "every-eye"}
        else:
            n = rng.choice([4, 6])
            players_ = [f"P{i + 1}" for i in range(n)]
            shape = [2, 2] if n == 4 else rng.choice([[3, 3], [2, 2, 2]])
            teams, k = [], 0
            for size in shape:
                teams.append(players_[k:k + size])
                k += size
            options = {"mode": "alliances", "teams": teams}
        options["characters"] = rng.sample(known, n)
        options["rounds"] = rng.randint(1, 3)
        options["advanced"] = rng.random() < 0.8
        options["track_allocation"] = rng.random() < 0.4
        return Setup(cls.name, tuple(f"P{i + 1}" for i in range(n)), options,
                     rng.randrange(2**31))

    # -- reading calls ------------------------------------------------------------------

    def speakers(self) -> tuple[str, ...]:
        return tuple(c.short for c in self._chars)

    def parse(self, text: str) -> Call:
        keep = [w for p in self.setup.players for w in p.split()]
        raw = tidy_call(text, keep)
        low = _norm(raw)
        if low in ("yarra bung", "time", "time up"):
            return TimeUp()
        if low in ("next round", "yarra mark"):
            return NextRound()
        if low.startswith("hits land on "):
            rest = raw[len("hits land on "):]
            attacker = None
            m = re.fullmatch(r"(.+?)\s+from\s+(.+)", rest, re.IGNORECASE)
            if m and rest.casefold() not in self._figure_alias:
                rest, attacker = m[1], self._short(self._seat(m[2], raw))
            seat, figure = self._target(rest, raw)
            return Land(figure, attacker)
        if low.startswith(("starting areas", "starting area", "areas")):
            return self._parse_areas(raw)
        if low.startswith("dispute"):
            _, _, names = raw.partition(":")
            involved = [n.strip() for n in names.split(",") if n.strip()]
            if not involved:
                raise InvalidCall(f"{raw!r}: name who is involved, e.g. 'Dispute: Grubic, "
                                  "Riparian'")
            idx = sorted({self._seat(n, raw) for n in involved})
            return Dispute(tuple(self._short(i) for i in idx))
        who, colon, rest = raw.partition(":")
        if not colon:
            if not raw:
                raise InvalidCall(f"{text!r}: expected 'WHO: ACTION [N] [on TARGET]', e.g. "
                                  "'Grubic: Spear Thrust 3 on Riparian'")
            return self.parse_unsaid_speaker(raw)
        if not rest.strip():
            raise InvalidCall(f"{raw!r}: expected 'WHO: ACTION [N] [on TARGET]', e.g. "
                              "'Grubic: Spear Thrust 3 on Riparian'")
        seat = self._seat(who.strip(), raw)
        return self._parse_action(seat, rest.strip(), raw)

    def _parse_areas(self, raw: str) -> StartingAreas:
        _, colon, body = raw.partition(":")
        parts = [x.strip() for x in body.split(",") if x.strip()]
        if not colon or not parts:
            raise InvalidCall(f"{raw!r}: expected 'Starting areas: Grubic 3, Riparian 5, ...'")
        areas: dict[int, int] = {}
        for part in parts:
            m = _LAST_WORD.match(part)
            n = read_number(m["n"]) if m else None
            if m is None or n is None:
                raise InvalidCall(f"{raw!r}: {shown(part)} should be a name and an area 1-6, "
                                  "e.g. 'Grubic 3'")
            seat = self._seat(m["rest"], raw)
            if seat in areas:
                raise InvalidCall(f"{raw!r}: {self._short(seat)} is named twice")
            if n not in FLOWER_TOKENS:
                raise InvalidCall(f"{raw!r}: starting areas are 1 to 6, not {n}")
            areas[seat] = n
        return StartingAreas(tuple((self._short(i), areas[i]) for i in sorted(areas)))

    def _short(self, seat: int) -> str:
        return self._chars[seat].short

    def _seat(self, name: str, raw: str) -> int:
        key = name.strip().casefold()
        if key.startswith("chief ") and key not in self._seat_alias:
            key = key[len("chief "):]
        if key not in self._seat_alias:
            raise InvalidCall(f"{raw!r}: nobody called {name.strip()!r} is playing "
                              f"({', '.join(self._short(i) for i in range(len(self._chars)))})")
        return self._seat_alias[key]

    def _target(self, name: str, raw: str) -> tuple[int, str]:
        key = name.strip().casefold()
        if key.startswith("chief ") and key not in self._figure_alias:
            key = key[len("chief "):]
        if key not in self._figure_alias:
            raise InvalidCall(f"{raw!r}: no figure called {name.strip()!r} is in the arena")
        return self._figure_alias[key]

    def board_space(self, seat: int, name: str) -> tuple[str, str]:
        """The allocation key and board name of the action or card called ``name`` on the
        board of the seat at index ``seat`` (table order, from 0). Raised when ...:
        InvalidCall naming it and the seat's actions and cards, when it has none so called."""
        if not 0 <= seat < len(self._chars):
            raise InvalidCall(f"there is no seat {seat + 1} at this table")
        return self._named(seat, name, name)

    def _named(self, seat: int, name: str, raw: str) -> tuple[str, str]:
        """The key and board name of the action or card that ``name`` means for ``seat``."""
        c = self._chars[seat]
        n = _norm(name)
        for key, action in c.actions.items():
            if _norm(action.name) == n:
                return key, action.name
        if n in _GENERIC:
            key = _GENERIC[n]
            return key, c.actions[key].name
        for card in c.cards:
            if _norm(card.name) == n:
                return f"card:{card.name}", card.name
        raise InvalidCall(f"{raw!r}: {c.short} has no action or card called {name.strip()!r} "
                          f"(actions: {', '.join(a.name for a in c.actions.values())}; cards: "
                          f"{', '.join(k.name for k in c.cards)})")

    def _parse_action(self, seat: int, rest: str, raw: str) -> Call:
        actor = self._short(seat)
        low = rest.casefold()
        if low.startswith("allocate "):
            m = re.fullmatch(r"allocate\s+(\S+)\s+(?:to|on)\s+(.+)", rest, re.IGNORECASE)
            if not m:
                raise InvalidCall(f"{raw!r}: expected 'Allocate N to ACTION'")
            key, name = self._named(seat, m[2], raw)
            return Allocate(actor, self._count(m[1], raw), key, name)
        if low.startswith("recover"):
            if _norm(rest) in ("recover", "recover all", "recover all dice"):
                return Recover(actor)
            m = re.fullmatch(r"recover\s+(\S+)\s+from\s+(.+)", rest, re.IGNORECASE)
            if not m:
                raise InvalidCall(f"{raw!r}: expected 'Recover all' or 'Recover N from ACTION'")
            key, name = self._named(seat, m[2], raw)
            return Recover(actor, self._count(m[1], raw), key, name)
        m = re.fullmatch(r"(?:ready|readying)\s+(.+?)!?", rest, re.IGNORECASE)
        if m:
            key, name = self._named(seat, m[1], raw)
            if not key.startswith("card:"):
                raise InvalidCall(f"{raw!r}: only tribal cards are readied; {name} is an action")
            return Ready(actor, name)
        rear = False
        m = re.fullmatch(r"(.+?)\s+from\s+(?:the\s+)?(rear|behind|back|front)(?:\s+arc)?", rest,
                         re.IGNORECASE)
        if m:
            rest, rear = m[1], m[2].casefold() != "front"
        target = None
        at = rest.casefold().rfind(" on ")
        if at >= 0:
            rest, target = rest[:at], self._target(rest[at + 4:], raw)[1]
        count = None
        m = _LAST_WORD.match(rest)
        if m and (read_number(m["n"]) is not None or _numberish(m["n"])):
            rest, count = m["rest"], self._count(m["n"], raw)
        if _norm(rest) == "unblockable":
            if count is None or target is None:
                raise InvalidCall(f"{raw!r}: expected 'Unblockable N on TARGET'")
            if rear:
                raise InvalidCall(f"{raw!r}: unblockable hits need no arc")
            return Unblockable(actor, count, target)
        key, name = self._named(seat, rest, raw)
        return Act(actor, key, name, count, target, rear)

    @staticmethod
    def _count(text: str, raw: str) -> int:
        n = read_number(text.lstrip("+"))
        if n is None:
            if text.startswith("-") and read_number(text[1:]) is not None:
                raise InvalidCall(f"{raw!r}: a number of dice is 1 or more, not {shown(text)}")
            raise InvalidCall(f"{raw!r}: {shown(text)} is not a number of dice (1 to 99, in "
                              "digits or words)")
        if n < 1:
            raise InvalidCall(f"{raw!r}: a number of dice is 1 or more, not {n}")
        if n > 99:
            raise InvalidCall(f"{raw!r}: a number of dice is at most 99, not {n}")
        return n

    # -- applying calls -----------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.state.phase == "over"

    def _apply(self, state: EyeState, call: Call, at: float | None) -> list[Event]:
        events: list[Event] = []
        if at is not None and at > self.options.round_seconds and not isinstance(
                call, TimeUp | NextRound):
            raise IllegalCall(f"{call}: at {at:g} s the round clock "
                              f"({self.options.round_seconds:g} s) has run out")
        if isinstance(call, NextRound):
            return self._next_round(state, call)
        if state.phase != "playing":
            raise IllegalCall(f"{call}: round {state.round_number} is over; "
                              "call 'Next round' to begin the next")
        if isinstance(call, StartingAreas):
            return self._starting_areas(state, call)
        state.round_calls += 1
        if isinstance(call, TimeUp):
            self._land_all(state, list(state.pending), events)
            if state.phase == "playing":
                self._end_round(state, "time", events)
            return events
        if isinstance(call, Land):
            seat, _ = self._target(call.target, str(call))
            waiting = self._waiting_on(state, seat)
            if call.attacker is not None:
                attacker = self._seat(call.attacker, str(call))
                waiting = [p for p in waiting if p.attacker == attacker]
            if not waiting:
                by = f" from {call.attacker}" if call.attacker is not None else ""
                raise IllegalCall(f"{call}: no attack on {call.target}{by} is waiting to land")
            self._land(state, waiting[0], 0, events)
            return events
        if isinstance(call, Dispute):
            return self._dispute(state, call)
        assert isinstance(call, Act | Unblockable | Ready | Allocate | Recover)
        seat = self._seat(call.actor, str(call))
        me = state.seats[seat]
        if not me.playing:
            raise IllegalCall(f"{call}: {call.actor} sits out this tie-break round")
        reaction = isinstance(call, Act) and self._action_of(seat, call.key).reaction
        if not reaction:
            # Whoever acts instead of reacting takes the hits waiting on them.
            self._land_all(state, self._waiting_on(state, seat), events)
        if not me.standing:
            raise IllegalCall(f"{call}: {call.actor} is knocked out")
        if state.phase != "playing":
            raise IllegalCall(f"{call}: the round ended when the waiting hits landed")
        if isinstance(call, Allocate):
            self._allocate(state, seat, call)
        elif isinstance(call, Recover):
            self._recover(state, seat, call)
        elif isinstance(call, Ready):
            events.append(self._ready(state, seat, call))
        elif isinstance(call, Unblockable):
            if not self.options.advanced:
                raise IllegalCall(f"{call}: unblockable hits come from tribal cards, "
                                  "which the Core Game does not use")
            self._attack(state, seat, call.target, call.count, True, False, str(call), events)
        else:
            self._act(state, seat, call, events)
        return events

    def _action_of(self, seat: int, key: str) -> Action:
        c = self._chars[seat]
        if key.startswith("card:"):
            card = c.card(key[5:])
            assert card is not None
            return card.action
        return c.actions[key]

    def _card(self, seat: int, name: str) -> Card:
        card = self._chars[seat].card(name)
        assert card is not None
        return card

    def _pending_on(self, state: EyeState, seat: int) -> Pending | None:
        """The oldest attack waiting on ``seat``."""
        return next((p for p in state.pending if p.target == seat), None)

    @staticmethod
    def _waiting_on(state: EyeState, seat: int) -> list[Pending]:
        """Every attack waiting on ``seat``, oldest first: each has its own parry window."""
        return [p for p in state.pending if p.target == seat]

    def _spend(self, state: EyeState, seat: int, key: str, label: str, need: int,
               spend: int, what: str) -> None:
        """Check the dice on ``key`` when allocation is tracked, then spend ``spend`` of them."""
        if not self.options.track_allocation:
            return
        me = state.seats[seat]
        have = me.allocation.get(key, 0)
        if have < need:
            raise IllegalCall(f"{label}: {self._short(seat)} has {have} "
                              f"{'die' if have == 1 else 'dice'} on {what}, "
                              f"needs at least {need}")
        me.allocation[key] = have - spend
        if me.allocation[key] == 0:
            del me.allocation[key]

    def _act(self, state: EyeState, seat: int, call: Act, events: list[Event]) -> None:
        me = state.seats[seat]
        c = self._chars[seat]
        action = self._action_of(seat, call.key)
        label = str(call)
        is_card = call.key.startswith("card:")
        if (is_card or call.key == "innate") and not self.options.advanced:
            raise IllegalCall(f"{label}: the Core Game uses only the basic actions")
        if is_card and action.name not in me.ready:
            raise IllegalCall(f"{label}: {action.name} is not ready; call "
                              f"'{c.short}: Ready {action.name}' first")
        if action.spaces == 0:
            raise IllegalCall(f"{label}: {action.name} is always active; it is never called")
        effect = action.effect
        if self._per_die(action):
            if call.count is None:
                raise IllegalCall(f"{label}: say how many dice, e.g. '{c.short}: {action.name} "
                                  f"{max(action.required, 1)}'")
            if call.count > action.spaces:
                raise IllegalCall(f"{label}: {action.name} has {action.spaces} spaces")
            dice = call.count
            need = max(action.required, dice)
        else:
            if call.count is not None and call.count != max(action.required, 1):
                raise IllegalCall(f"{label}: {action.name} spends {max(action.required, 1)} "
                                  f"dice, not {call.count}")
            dice = max(action.required, 1)
            need = dice
        wants_target = effect.kind == "hits"
        if wants_target and call.target is None:
            raise IllegalCall(f"{label}: say whom, e.g. '... on {self._other_name(seat)}'")
        if not wants_target and call.target is not None:
            raise IllegalCall(f"{label}: {action.name} takes no target")
        if call.rear and not wants_target:
            raise IllegalCall(f"{label}: only attacks come from an arc")
        if effect.kind == "cancel":
            waiting = self._waiting_on(state, seat)
            if not waiting:
                raise IllegalCall(f"{label}: no attack on {c.short} is waiting; "
                                  f"{action.name} is a reaction")
            front = [p for p in waiting if not p.rear]
            if not front:
                attacker = self._short(waiting[0].attacker)
                raise IllegalCall(f"{label}: {attacker}'s attack came from {c.short}'s rear "
                                  "arc; no parry is possible")
            # The parry answers the oldest attack from the front still waiting.
            pending = front[0]
            cancel = effect.total(dice)
            if cancel > pending.hits:
                raise IllegalCall(f"{label}: only {pending.hits} "
                                  f"hit{'s' if pending.hits != 1 else ''} to cancel")
            self._spend(state, seat, call.key, label, need, dice, action.name)
            events.append(event("parry", f"{c.short} cancels {cancel} of "
                                f"{pending.hits} hits", {"player": me.player, "hits": cancel}))
            self._land(state, pending, cancel, events)
        elif effect.kind == "hits":
            assert call.target is not None
            self._spend(state, seat, call.key, label, need, dice, action.name)
            self._attack(state, seat, call.target, effect.total(dice), effect.unblockable,
                         call.rear, label, events)
        elif effect.kind == "heal":
            figure, amount = self._healing(me, action, dice)
            if figure is None:
                raise IllegalCall(f"{label}: {c.short} is at full health ({me.health})")
            if state.supply < amount:
                raise IllegalCall(f"{label}: the supply has {state.supply} health tokens, "
                                  f"needs {amount}")
            self._spend(state, seat, call.key, label, need, dice, action.name)
            state.supply -= amount
            figure.health += amount
            events.append(event("heal", f"{c.short} heals {amount}",
                                {"player": me.player, "amount": amount}))
        else:
            self._spend(state, seat, call.key, label, need, dice, action.name)
            if effect.kind == "face":
                rear = [p for p in self._waiting_on(state, seat) if p.rear]
                if rear:  # turning to face the oldest attack from behind
                    rear[0].rear = False
                events.append(event("face", f"{c.short} changes facing", {"player": me.player}))
            elif effect.kind == "move":
                events.append(event("move", str(call), {"player": me.player}))
            else:
                events.append(event("card" if is_card else "action", str(call),
                                    {"player": me.player}))
        if is_card:
            me.ready.remove(action.name)
            events.append(event("card", f"{action.name} is unready again", {"card": action.name}))

    def _healing(self, me: SeatState, action: Action, dice: int) -> tuple[FigureState | None,
                                                                          int]:
        """The figure a heal of ``me`` with ``dice`` dice heals (None: all at full health) and
        by how much (never above its starting health, unless the table allows it)."""
        amount = action.effect.total(dice)
        figure = next((f for f in me.figures if f.standing and
                       (f.health < f.max_health or self.options.heal_above_start)), None)
        if figure is not None and not self.options.heal_above_start:
            amount = min(amount, figure.max_health - figure.health)
        return figure, amount

    def _other_name(self, seat: int) -> str:
        return next(self._short(i) for i in range(len(self._chars)) if i != seat)

    def _attack(self, state: EyeState, seat: int, target_name: str, hits: int,
                unblockable: bool, rear: bool, label: str, events: list[Event]) -> None:
        target, figure_name = self._target(target_name, label)
        me, them = state.seats[seat], state.seats[target]
        if target == seat:
            raise IllegalCall(f"{label}: {self._short(seat)} cannot attack itself")
        if not them.playing:
            raise IllegalCall(f"{label}: {target_name} sits out this round")
        figure = next(f for f in them.figures if f.name == figure_name)
        if not figure.standing:
            raise IllegalCall(f"{label}: {figure_name} is knocked out")
        if me.side == them.side and not self.options.friendly_fire:
            raise IllegalCall(f"{label}: {self._short(seat)} and {self._short(target)} are on "
                              f"{me.side}; friendly fire is off")
        # Each attack has its own parry window: a second attack on the same target leaves the
        # first waiting, and unblockable hits land at once without touching the others
        # ("you can cancel the regular hits if you are able, but the Unblockable hits go
        # through").
        if unblockable:
            events.append(event("attack", f"{self._short(seat)}: {hits} unblockable on "
                                f"{figure_name}", {"attacker": me.player, "target": them.player}))
            self._land(state, Pending(seat, target, figure_name, hits, rear), 0, events,
                        queued=False)
            return
        state.pending.append(Pending(seat, target, figure_name, hits, rear))
        events.append(event("attack-pending", f"{self._short(seat)} attacks {figure_name} with "
                            f"{hits} hit{'s' if hits != 1 else ''}"
                            + (" from the rear" if rear else ""),
                            {"attacker": me.player, "target": them.player, "hits": hits,
                             "can_parry": not rear}))

    def _land_all(self, state: EyeState, waiting: list[Pending], events: list[Event]) -> None:
        """Land attacks in the order called; one that a knockout or the round's end already
        removed lands no more."""
        for pending in waiting:
            if state.phase == "playing" and any(p is pending for p in state.pending):
                self._land(state, pending, 0, events)

    def _land(self, state: EyeState, pending: Pending, cancelled: int, events: list[Event],
              queued: bool = True) -> None:
        if queued:
            state.pending = [p for p in state.pending if p is not pending]
        them = state.seats[pending.target]
        attacker = state.seats[pending.attacker]
        figure = next(f for f in them.figures if f.name == pending.figure)
        damage = min(pending.hits - cancelled, figure.health)
        if damage > 0:
            figure.health -= damage
            state.cups[attacker.side] += damage
            events.append(event("hit", f"{damage} hit{'s' if damage != 1 else ''} on "
                                f"{figure.name}: {damage} to {attacker.side}'s cup",
                                {"attacker": attacker.player, "target": them.player,
                                 "hits": damage}))
        if damage > 0 and not figure.standing:
            figure.knocked_out_by = attacker.player
            attacker.trophies.append(figure.name)
            state.pending = [p for p in state.pending
                             if not (p.target == pending.target and p.figure == figure.name)]
            events.append(event("knockout", f"{figure.name} is knocked out by "
                                f"{self._short(pending.attacker)}",
                                {"attacker": attacker.player, "target": them.player,
                                 "figure": figure.name}))
            if not them.standing:
                them.allocation.clear()
                state.pending = [p for p in state.pending if p.attacker != pending.target
                                 or p.hits > 0]
            standing_sides = {s.side for s in state.seats if s.standing}
            if len(standing_sides) <= 1 and state.phase == "playing":
                self._land_all(state, list(state.pending), events)
                if state.phase == "playing":
                    self._end_round(state, "last standing", events)

    def _allocate(self, state: EyeState, seat: int, call: Allocate) -> None:
        if not self.options.track_allocation:
            raise IllegalCall(f"{call}: this table does not track allocation "
                              "(option track-allocation)")
        me = state.seats[seat]
        c = self._chars[seat]
        if call.key.startswith("card:"):
            if not self.options.advanced:
                raise IllegalCall(f"{call}: the Core Game uses no tribal cards")
            card = self._card(seat, call.name)
            spaces = card.action.spaces if card.name in me.ready else card.ready_cost
        else:
            if call.key == "innate" and not self.options.advanced:
                raise IllegalCall(f"{call}: the Core Game uses only the basic actions")
            spaces = c.actions[call.key].spaces
        free = c.dice - sum(me.allocation.values())
        if call.count > free:
            raise IllegalCall(f"{call}: {c.short} has {free} free "
                              f"{'die' if free == 1 else 'dice'}")
        have = me.allocation.get(call.key, 0)
        if have + call.count > spaces:
            raise IllegalCall(f"{call}: {call.name} has {spaces} spaces, {have} taken")
        me.allocation[call.key] = have + call.count

    def _recover(self, state: EyeState, seat: int, call: Recover) -> None:
        if not self.options.track_allocation:
            raise IllegalCall(f"{call}: this table does not track allocation")
        me = state.seats[seat]
        if call.key is None:
            if not me.allocation:
                raise IllegalCall(f"{call}: {call.actor} has no dice allocated")
            me.allocation.clear()
            return
        assert call.count is not None
        have = me.allocation.get(call.key, 0)
        if call.count > have:
            raise IllegalCall(f"{call}: {call.actor} has {have} on {call.name}")
        me.allocation[call.key] = have - call.count
        if me.allocation[call.key] == 0:
            del me.allocation[call.key]

    def _ready(self, state: EyeState, seat: int, call: Ready) -> Event:
        if not self.options.advanced:
            raise IllegalCall(f"{call}: the Core Game uses no tribal cards")
        me = state.seats[seat]
        card = self._card(seat, call.card)
        if card.name in me.ready:
            raise IllegalCall(f"{call}: {card.name} is already ready")
        self._spend(state, seat, f"card:{card.name}", str(call), card.ready_cost,
                    card.ready_cost, card.name)
        me.ready.append(card.name)
        return event("ready", f"{call.actor} readies {card.name}",
                     {"player": me.player, "card": card.name})

    def _starting_areas(self, state: EyeState, call: StartingAreas) -> list[Event]:
        if state.round_calls:
            raise IllegalCall(f"{call}: starting areas are dealt before the round's first "
                              f"call; round {state.round_number} has {state.round_calls}")
        named = {who for who, _ in call.areas}
        missing = [self._short(i) for i, seat in enumerate(state.seats)
                   if seat.playing and self._short(i) not in named]
        if missing:
            raise IllegalCall(f"{call}: deal a flower token to every player; "
                              f"{', '.join(missing)} has none")
        tokens = [a for _, a in call.areas]
        if len(set(tokens)) != len(tokens):
            raise IllegalCall(f"{call}: each flower token is dealt once (six tokens, one per "
                              "starting area)")
        state.areas.update(call.areas)  # a seat sitting out a tie-break keeps its area
        return [event("starting-areas", "Starting areas: "
                      + ", ".join(f"{who} {a}" for who, a in call.areas),
                      {"areas": dict(call.areas)})]

    def _dispute(self, state: EyeState, call: Dispute) -> list[Event]:
        idx = {self._seat(n, str(call)) for n in call.involved}
        for i in idx:
            state.seats[i].allocation.clear()
        state.pending = [p for p in state.pending
                         if not (p.attacker in idx and p.target in idx)]
        return [event("dispute", f"{', '.join(call.involved)} clear their dice",
                      {"involved": list(call.involved)})]

    # -- rounds and the match -------------------------------------------------------------

    @property
    def rounds_total(self) -> int:
        """Rounds in the match: the option, else "the number of players, plus one", counting
        every player as the rulebook does (2v2 Alliances: 5 rounds); option match-length =
        "sides" counts a team as one (2v2: 3 rounds)."""
        if self.options.rounds is not None:
            return self.options.rounds
        if self.options.match_length == "players":
            return len(self.setup.players) + 1
        return len(self.state.sides) + 1

    def _end_round(self, state: EyeState, ended_by: str, events: list[Event]) -> None:
        playing_sides = [s for s in state.sides if any(
            seat.playing for seat in state.seats if seat.side == s)]
        scores = {}
        for side in playing_sides:
            standing = sum(1 for seat in state.seats if seat.side == side and seat.standing)
            scores[side] = (state.cups[side], standing * STANDING_BONUS)
        rows = rank_round(scores, self.options.tied_ranks)
        state.results.append(RoundRecord(state.round_number, state.tiebreak, rows, ended_by))
        state.pending.clear()
        if not state.tiebreak:
            for row in rows:
                state.points[row.side] += row.points
        events.append(event("round-over", f"Round {state.round_number} over ({ended_by}): "
                            + ", ".join(f"{r.side} {r.points}" for r in rows),
                            {"round": state.round_number, "ended_by": ended_by}))
        state.phase = "between-rounds"
        if state.tiebreak:
            top = [r.side for r in rows if r.rank == 1]
        elif len(state.results) >= self.rounds_total:
            best = max(state.points.values())
            top = [s for s, p in state.points.items() if p == best]
        else:
            return
        if len(top) == 1:
            state.winner = top[0]
            state.phase = "over"
            events.append(event("match-over", f"{top[0]} wins", {"winner": top[0]}))
        else:
            events.append(event("tie-break", f"{' and '.join(top)} are tied: one more round",
                                {"sides": top}))
            state.tiebreak = True
            for seat in state.seats:
                seat.playing = seat.side in top

    def _next_round(self, state: EyeState, call: Call) -> list[Event]:
        if state.phase != "between-rounds":
            raise IllegalCall(f"{call}: round {state.round_number} is still being played")
        state.round_number += 1
        state.phase = "playing"
        state.round_calls = 0
        for side in state.cups:
            state.cups[side] = 0
        for seat in state.seats:
            seat.allocation.clear()
            seat.ready.clear()
            seat.trophies.clear()
            for f in seat.figures:
                f.health = f.max_health if seat.playing else 0
                f.knocked_out_by = None
        on_boards = sum(s.health for s in state.seats)
        state.supply = self.options.health_tokens - on_boards
        kind = "tie-break round" if state.tiebreak else "round"
        return [event("round-start", f"Yarra Mark! {kind.capitalize()} {state.round_number}",
                      {"round": state.round_number, "tiebreak": state.tiebreak})]

    # -- laws and views -------------------------------------------------------------------

    def check_invariants(self) -> None:
        s = self.state
        on_boards = sum(seat.health for seat in s.seats)
        total = s.supply + on_boards + sum(s.cups.values())
        assert total == self.options.health_tokens, (
            f"health tokens: supply {s.supply} + boards {on_boards} + cups "
            f"{sum(s.cups.values())} = {total}, not {self.options.health_tokens}")
        assert s.supply >= 0
        for seat, c in zip(s.seats, self._chars, strict=True):
            assert sum(seat.allocation.values()) <= c.dice, f"{c.short} has too many dice out"
            for f in seat.figures:
                assert f.health >= 0, f"{f.name} health {f.health}"
                assert self.options.heal_above_start or f.health <= f.max_health

    def seats(self) -> list[SeatView]:
        """The panels of the arena screen, one per player."""
        s = self.state
        team_mode = self.options.mode == "alliances"
        return [SeatView(seat.player, c, seat.side if team_mode else None, seat.side,
                         seat.health, sum(f.max_health for f in seat.figures),
                         s.cups[seat.side], seat.playing and not seat.standing, seat.playing,
                         tuple((f.name, f.health, f.max_health) for f in seat.figures),
                         tuple(seat.trophies), dict(seat.allocation),
                         c.dice - sum(seat.allocation.values()), tuple(seat.ready))
                for seat, c in zip(s.seats, self._chars, strict=True)]

    def starting_areas(self) -> dict[str, int]:
        """Each player's starting area (flower token 1-6), as dealt."""
        return {seat.player: self.state.areas[self._short(i)]
                for i, seat in enumerate(self.state.seats)}

    def table_deals(self) -> tuple[Deal, ...]:
        """Before a round's first call: the Ceremonial Flower Tokens (starting areas)."""
        s = self.state
        if s.phase != "playing" or s.round_calls:
            return ()
        options = tuple(str(a) for a in FLOWER_TOKENS)
        choices = tuple(
            DealChoice(f"{seat.player} ({self._short(i)})", options,
                       (str(s.areas[self._short(i)]),), say=f"{self._short(i)} {{}}")
            for i, seat in enumerate(s.seats) if seat.playing)
        return (Deal("starting-areas", "Starting areas (flower tokens)",
                     "Shuffle the six Ceremonial Flower Tokens and deal one randomly to each "
                     "player. This determines your figure's starting area.", choices,
                     prefix="Starting areas: "),)

    def pending(self) -> list[PendingView]:
        """Attacks waiting for their target's reaction, oldest first."""
        return [PendingView(self._short(p.attacker), self._short(p.target), p.figure, p.hits,
                            not p.rear, p.rear) for p in self.state.pending]

    @property
    def phase(self) -> str:
        return self.state.phase

    @property
    def round_number(self) -> int:
        return self.state.round_number

    @property
    def winner(self) -> str | None:
        return self.state.winner

    def round_results(self) -> list[RoundRecord]:
        return list(self.state.results)

    def match_points(self) -> dict[str, int]:
        return dict(self.state.points)

    def character_of(self, player: str) -> Character:
        return self._chars[self.setup.players.index(player)]

    def prompt(self) -> Prompt:
        """Playing: every standing player may call, the round clock runs, dice are rolled
        all the time; between rounds the table starts the next one."""
        s = self.state
        if s.phase == "over":
            return Prompt("over", round=s.round_number, text=f"{s.winner} wins")
        if s.phase == "between-rounds":
            return Prompt(s.phase, round=s.round_number,
                          text=f"Round {s.round_number} is over: start the next round")
        standing = tuple(seat.player for seat in s.seats if seat.standing)
        return Prompt("playing", standing, s.round_number, self.options.round_seconds,
                      roll=True, rollers=standing,
                      text=f"Round {s.round_number}" + (" (tie-break)" if s.tiebreak else ""))

    def placings(self) -> Placings:
        """By match points of each player's side; the match winner first."""
        s = self.state
        score = {seat.player: s.points[seat.side] for seat in s.seats}
        first = [seat.player for seat in s.seats if s.winner is not None
                 and seat.side == s.winner]
        return rank_by(self.setup.players, score, first)

    def standings(self) -> Standings:
        s = self.state
        last = s.results[-1] if s.results else None
        last_points = {r.side: r.points for r in last.rows} if last else {}
        rows = []
        for seat, c in zip(s.seats, self._chars, strict=True):
            state = ("sits out" if not seat.playing else
                     "knocked out" if not seat.standing else "standing")
            rows.append((seat.player, c.short, seat.side, str(seat.health), str(s.cups[seat.side]),
                         state, str(last_points.get(seat.side, "-")), str(s.points[seat.side])))
        note = (f"Round {s.round_number} of {self.rounds_total}"
                + (" (tie-break)" if s.tiebreak else "") + f", {s.phase}")
        return Standings(("player", "character", "side", "health", "cup", "state",
                          "round points", "total"), tuple(rows), s.winner, self.is_over, note)

    role_kind = "character"

    def results(self) -> tuple[PlayerResult, ...]:
        """Match points of each player's side (a team's in Alliances), the tie-break's winner
        ranked first among those it was tied with; the role is the character played."""
        s = self.state
        sides = [seat.side for seat in s.seats]
        first = [i for i, side in enumerate(sides) if side == s.winner]
        ranks = rank_by_score([s.points[side] for side in sides], first) if s.results else None
        team_mode = self.options.mode == "alliances"
        return tuple(
            PlayerResult(seat.player, float(s.points[seat.side]),
                         None if ranks is None else ranks[i],
                         self.is_over and seat.side == s.winner, c.short,
                         seat.side if team_mode else None)
            for i, (seat, c) in enumerate(zip(s.seats, self._chars, strict=True)))

    # -- simulated play -------------------------------------------------------------------

    def legal_calls(self) -> list[Call]:
        if self.is_over:
            return []
        s = self.state
        if s.phase == "between-rounds":
            return [NextRound()]
        calls: list[Call] = [TimeUp()]
        if s.round_calls == 0:
            calls.append(StartingAreas(tuple(sorted(
                s.areas.items(), key=lambda kv: self.speakers().index(kv[0])))))
        for p in s.pending:
            calls.append(Land(p.figure))
            calls.append(Land(p.figure, self._short(p.attacker)))
        calls = list(dict.fromkeys(calls))
        tracking = self.options.track_allocation
        for i, seat in enumerate(s.seats):
            if not seat.standing:
                continue
            c = self._chars[i]
            me = c.short
            # Whoever acts instead of reacting takes the hits waiting on them first: when
            # those would knock them out or end the round, only a reaction is possible.
            doomed = self._doomed(i)
            targets = self._targets(s, i)
            keys = list(c.actions)
            if self.options.advanced:
                keys += [f"card:{k.name}" for k in c.cards if k.name in seat.ready]
            for key in keys:
                action = self._action_of(i, key)
                if (key == "innate" and not self.options.advanced) or action.spaces == 0:
                    continue
                if doomed and not action.reaction:
                    continue
                for count in self._counts(action):
                    if tracking and seat.allocation.get(key, 0) < max(action.required,
                                                                      count or 1):
                        continue
                    calls += self._acts(s, i, key, action, count, targets)
            if doomed:
                continue
            if self.options.advanced:
                calls += [Unblockable(me, n, t) for n in UNBLOCKABLE_COUNTS for t in targets]
            if self.options.advanced:
                for card in c.cards:
                    if card.name not in seat.ready and (
                            not tracking or seat.allocation.get(f"card:{card.name}", 0)
                            >= card.ready_cost):
                        calls.append(Ready(me, card.name))
            if tracking:
                free = c.dice - sum(seat.allocation.values())
                for key in keys + [f"card:{k.name}" for k in c.cards
                                   if k.name not in seat.ready and self.options.advanced]:
                    if key == "innate" and not self.options.advanced:
                        continue
                    action = self._action_of(i, key)
                    cap = (self._card(i, key[5:]).ready_cost if key.startswith("card:") and
                           key[5:] not in seat.ready else action.spaces)
                    room = min(free, cap - seat.allocation.get(key, 0))
                    for n in range(1, room + 1):
                        calls.append(Allocate(me, n, key, action.name))
                if seat.allocation:
                    calls.append(Recover(me))
        return calls

    @staticmethod
    def _per_die(action: Action) -> bool:
        """True when a call of ``action`` says how many dice it spends (one per space used);
        otherwise it always spends the same dice and says no count."""
        effect = action.effect
        return effect.per_die > 0 or (effect.kind in ("move", "unknown") and action.spaces > 1)

    def _counts(self, action: Action) -> list[int | None]:
        """The counts a call of ``action`` may say: 1 to its spaces, or none."""
        return list(range(1, action.spaces + 1)) if self._per_die(action) else [None]

    def _targets(self, state: EyeState, seat: int) -> list[str]:
        """The figures ``seat`` may attack: standing, of a seat in play, on another side
        (or any side, with friendly fire)."""
        me = state.seats[seat]
        return [f.name for j, other in enumerate(state.seats)
                if j != seat and other.standing
                and (other.side != me.side or self.options.friendly_fire)
                for f in other.figures if f.standing]

    def _acts(self, state: EyeState, seat: int, key: str, action: Action, count: int | None,
              targets: list[str]) -> list[Call]:
        """The legal calls of ``seat``'s ``action`` with ``count`` dice (allocation checked
        by the caller)."""
        me = self._short(seat)
        effect = action.effect
        dice = max(action.required, 1) if count is None else count
        if effect.kind == "cancel":
            # A reaction to the oldest attack from the front waiting, cancelling at most its hits.
            front = [p for p in self._waiting_on(state, seat) if not p.rear]
            if not action.reaction or not front or effect.total(dice) > front[0].hits:
                return []
            return [Act(me, key, action.name, count)]
        if effect.kind == "hits":
            return [Act(me, key, action.name, count, t, rear)
                    for t in targets for rear in (False, True)]
        call = Act(me, key, action.name, count)
        if effect.kind == "heal":
            if self._waiting_on(state, seat):
                # the hits waiting on the healer land first: they may leave only figures at
                # full health (Echo's Guards, say), or make room for the heal
                return [call] if self.is_legal(call) else []
            figure, amount = self._healing(state.seats[seat], action, dice)
            return [call] if figure is not None and state.supply >= amount else []
        return [call]

    def why_not(self, actor: str, key: str, count: int | None = None) -> str:
        """Why :meth:`legal_calls` lists no call of ``actor``'s action ``key`` ("movement",
        "attack", "defence", "heal", "innate" or "unblockable") with ``count`` dice now, in the
        engine's words: its refusal of the call a player would make (the fewest dice the action
        takes, the first figure it may hit). For a screen that dims what legal_calls does not
        list and says why when it is tapped; whether a call is legal is legal_calls' answer."""
        seat = self._seat(actor, actor)
        c = self._chars[seat]
        others = [self._short(j) for j, s in enumerate(self.state.seats) if j != seat]
        target = next(iter(self._targets(self.state, seat) + others), c.short)
        call: Call
        if key == "unblockable":
            call = Unblockable(c.short, count or 1, target)
        else:
            action = c.actions.get(key)
            if action is None:
                return f"{c.short} has no {key} action"
            if count is None and self._per_die(action):
                count = max(1, action.required)
            call = Act(c.short, key, action.name, count,
                       target if action.effect.kind == "hits" else None)
        try:
            self.check(call)
        except RulesError as e:
            return str(e)
        return f"{call}: not among the calls open now"

    def _doomed(self, seat: int) -> bool:
        """True when the hits waiting on ``seat`` would knock it out or end the round: then it
        can only react (a parry, a change of facing) before they land."""
        if not self._waiting_on(self.state, seat):
            return False
        state = copy.deepcopy(self.state)
        self._land_all(state, self._waiting_on(state, seat), [])
        return not state.seats[seat].standing or state.phase != "playing"

    def random_call(self, rng: random.Random) -> Call:
        calls = self.legal_calls()
        if not calls:
            raise IllegalCall("no call is possible: the game is over")
        weights = []
        for c in calls:
            if isinstance(c, TimeUp):
                weights.append(0.3)
            elif isinstance(c, Act) and c.target is not None:
                weights.append(4.0)
            elif isinstance(c, Allocate):
                weights.append(2.0 if c.key == "attack" else 0.5)
            else:
                weights.append(1.0)
        return rng.choices(calls, weights)[0]


GAME = EyeForAnEye
