"""Dice of the Occulites: the game engine (state, calls, setup, rounds, resolution, sharing).

A round goes: every player's line-up ("Ana: Line-up green 5, blue 3, ...": six dice, colour and
pips, given to cards 1-6 left to right), then "Reveal" resolves the six cards in order, then Share
Knowledge in card order ("Ana: Share green for pink from pool", "Ana: Pass"), then the next
Tribe is revealed. Rulings where the rulebook is silent are options, see docs/rules/occulites.md.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

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
    Setup,
    SetupError,
    Standings,
    rank_by,
    rank_by_score,
    read_number,
    shown,
    tidy_call,
)
from rules.occulites.data import (
    CARDS,
    COLOURS,
    COMMON_POOL_COLOURS,
    CREATURE_CARDS,
    SUPPLY,
    TIMER_DEFAULTS,
    TRIBE_NAMES,
    TRIBES,
    CardInfo,
    card_id,
)
from rules.occulites.effects import EFFECTS, Effect, EffectContext
from rules.occulites.events import EVENT_KINDS, event
from rules.occulites.resolve import CardOutcome, Die, Placed, join_names, resolve_card

__all__ = [
    "POOL",
    "ChooseTribe",
    "FlipCards",
    "FlipTribe",
    "LineUp",
    "OcculitesGame",
    "OcculitesOptions",
    "OcculitesState",
    "Pass",
    "Reveal",
    "Share",
    "TakeDie",
    "TimerCue",
    "effect_of",
    "resolve_lineups",
    "share_cost",
    "timer_cues",
]

#: The holder name of the Common Knowledge Pool in share calls ("... from pool").
POOL = "pool"
#: Most Share Knowledge actions one player may take in one round (rulebook, Sharing knowledge).
MAX_SHARES = 3
CARDS_PER_ROUND = 6
MAX_ROUNDS = 20
MAX_TIMER_SECONDS = 600.0

Phase = Literal["tribes", "draft", "allocate", "share", "over"]


def share_cost(nth: int) -> int:
    """Discovery Points the ``nth`` share of a round costs (1, 2, then 3).

    >>> [share_cost(n) for n in (1, 2, 3)]
    [1, 2, 3]
    """
    if not 1 <= nth <= MAX_SHARES:
        raise ValueError(f"share {nth}: a player shares at most {MAX_SHARES} times a round")
    return nth


# -- options -------------------------------------------------------------------------------


@dataclass(frozen=True)
class OcculitesOptions:
    """Modes and house rulings. Keys may be written kebab-case in a setup ("late-lineups")."""

    rounds: int = 5
    tribes: tuple[str, ...] = TRIBE_NAMES
    creatures: bool = False
    lots_of_interests: bool = False
    draft_order: Literal["round-robin", "snake"] = "round-robin"
    conflicted_interests: bool = False
    timer: bool = False
    look_seconds: float = TIMER_DEFAULTS["look_seconds"]
    allocate_seconds: float = TIMER_DEFAULTS["allocate_seconds"]
    warning_seconds: float = TIMER_DEFAULTS["warning_seconds"]
    timer_sound: bool = True
    late_lineups: Literal["accepted", "forfeit"] = "accepted"
    negative_points: bool = False
    lock: Literal["both", "gained"] = "both"
    share_last_round: bool = False
    tie_break: Literal["shared", "most-sole-wins"] = "shared"
    card_effects: dict[str, str] = field(default_factory=dict)
    conflicted_creatures: Literal["always", "with-creatures"] = "always"

    def __post_init__(self) -> None:
        if not 1 <= self.rounds <= MAX_ROUNDS:
            raise SetupError(f"option rounds={self.rounds}: play 1 to {MAX_ROUNDS} rounds")
        unknown = [t for t in self.tribes if t not in TRIBES]
        if unknown:
            raise SetupError(f"option tribes: unknown Tribe(s) {', '.join(unknown)}; choose "
                             f"from {', '.join(TRIBE_NAMES)}")
        if len(set(self.tribes)) != len(self.tribes):
            raise SetupError(f"option tribes: {', '.join(self.tribes)} names a Tribe twice")
        if not self.tribes:
            raise SetupError("option tribes: needs at least one Tribe card set")
        for name in ("look_seconds", "allocate_seconds"):
            if not 0 < getattr(self, name) <= MAX_TIMER_SECONDS:
                raise SetupError(f"option {name.replace('_', '-')}={getattr(self, name):g}: "
                                 f"must be more than 0 and at most {MAX_TIMER_SECONDS:g} seconds")
        if not 0 <= self.warning_seconds <= MAX_TIMER_SECONDS:
            raise SetupError(f"option warning-seconds={self.warning_seconds:g}: must be 0 to "
                             f"{MAX_TIMER_SECONDS:g}")
        for card, effect in self.card_effects.items():
            if card not in CARDS:
                raise SetupError(f"option card-effects: no card called {card!r} "
                                 "(write e.g. 'Hydris 3' or 'Creatures 2')")
            if effect and effect not in EFFECTS:
                raise SetupError(f"option card-effects: {card} has unknown effect {effect!r}; "
                                 f"known effects: {', '.join(EFFECTS)}")

    @property
    def deadline(self) -> float:
        """Seconds after the roll when the allocation timer runs out."""
        return self.look_seconds + self.allocate_seconds


#: The round clock of allocation counts the seconds since the dice were rolled (each line-up
#: carries them, so a late one is seen as late); it has no end of its own: the timer mode's
#: moments are :func:`timer_cues`.
ROLL_CLOCK_SECONDS = 3600.0


@dataclass(frozen=True)
class TimerCue:
    """One moment of timer mode for the screen and speaker: when, what, and which sound."""

    at: float
    kind: Literal["look", "warning", "hide", "reveal"]
    text: str
    sound: str | None


def timer_cues(options: OcculitesOptions) -> tuple[TimerCue, ...]:
    """The timer mode's schedule for one round, in seconds since the dice were rolled.

    >>> [(c.at, c.kind) for c in timer_cues(OcculitesOptions(timer=True))]
    [(0.0, 'look'), (10.0, 'warning'), (15.0, 'hide'), (40.0, 'warning'), (45.0, 'reveal')]
    """
    if not options.timer:
        return ()
    look, end, warn = options.look_seconds, options.deadline, options.warning_seconds

    def sound(name: str) -> str | None:
        return name if options.timer_sound else None

    cues = [TimerCue(0.0, "look", "Look at the dice", sound("start"))]
    if 0 < warn < options.look_seconds:
        cues.append(TimerCue(look - warn, "warning", f"{warn:g} s to look", sound("warning")))
    cues.append(TimerCue(look, "hide", "Hide your dice and line them up", sound("hide")))
    if 0 < warn < options.allocate_seconds:
        cues.append(TimerCue(end - warn, "warning", f"{warn:g} s to allocate", sound("warning")))
    cues.append(TimerCue(end, "reveal", "Reveal!", sound("reveal")))
    return tuple(cues)


def effect_of(card: str, options: OcculitesOptions) -> Effect | None:
    """The effect a card has in this game: the option's choice, else the data file's."""
    key = options.card_effects.get(card, CARDS[card].effect)
    return EFFECTS.get(key) if key else None


def resolve_lineups(cards: Sequence[str], lineups: Mapping[str, Sequence[Die]],
                    options: OcculitesOptions | None = None) -> list[CardOutcome]:
    """Resolve a whole line-up table (no points, no winner texts): for a screen to explain.

    ``cards`` are the six card ids in line-up order; ``lineups`` each player's six dice.
    """
    opts = options or OcculitesOptions()
    outcomes = []
    for i, cid in enumerate(cards):
        placed = [Placed(p, dice[i].colour, dice[i].pips) for p, dice in lineups.items()]
        effect = effect_of(cid, opts)
        if effect is not None and effect.resolve is not None:
            outcomes.append(effect.resolve(CARDS[cid], placed))
        else:
            outcomes.append(resolve_card(CARDS[cid], placed))
    return outcomes


# -- calls ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class ChooseTribe(Call):
    """Setup: a player takes the six dice of the Tribe they are most interested in."""

    player: str
    tribe: str

    def text(self) -> str:
        return f"{self.player}: Tribe {self.tribe}"


@dataclass(frozen=True)
class TakeDie(Call):
    """Lots of Interests: a player drafts one die of a colour from the pool."""

    player: str
    colour: str

    def text(self) -> str:
        return f"{self.player}: Take {self.colour}"


@dataclass(frozen=True)
class LineUp(Call):
    """A player's six dice as revealed, left to right = cards 1 to 6."""

    player: str
    dice: tuple[Die, ...]

    def text(self) -> str:
        return f"{self.player}: Line-up " + ", ".join(d.text() for d in self.dice)


@dataclass(frozen=True)
class FlipTribe(Call):
    """The number 1 card the table flipped for this round: the Tribe everyone researches."""

    tribe: str

    def text(self) -> str:
        return f"Flip {self.tribe}"


@dataclass(frozen=True)
class FlipCards(Call):
    """Cards the table flipped for this round: the Creatures and Predators card drawn, or
    (Conflicted Interests) the top card of each pile; each lies on the place of its number."""

    cards: tuple[str, ...]

    def text(self) -> str:
        return "Flip " + ", ".join(self.cards)


@dataclass(frozen=True)
class Reveal(Call):
    """Every line-up is revealed: the six cards resolve in order."""

    def text(self) -> str:
        return "Reveal"


@dataclass(frozen=True)
class Share(Call):
    """Share Knowledge: swap one of your dice for one of the pool's or another player's."""

    player: str
    give: str
    take: str
    source: str  # POOL or a player's name

    def text(self) -> str:
        return f"{self.player}: Share {self.give} for {self.take} from {self.source}"


@dataclass(frozen=True)
class Pass(Call):
    """The player whose turn it is to share knowledge declines this one."""

    player: str

    def text(self) -> str:
        return f"{self.player}: Pass"


# -- state ---------------------------------------------------------------------------------


@dataclass
class OcculitesState:
    """Everything that changes during a game; the seeded rng does every shuffle."""

    rng: random.Random
    phase: Phase
    round: int
    tribe_of: dict[str, str | None]
    dice: dict[str, dict[str, int]]  # player -> colour -> count
    pool: dict[str, int]  # the Common Knowledge Pool
    box: dict[str, int]  # dice not in play (Tribes nobody chose)
    locked: dict[str, dict[str, int]]  # holder (player or POOL) -> colour -> locked count
    points: dict[str, int]
    sole_wins: dict[str, int]
    shares: dict[str, int]  # shares made this round
    shares_total: dict[str, int]
    draft_pick: int = 0
    tribe_deck: list[str] = field(default_factory=list)  # top is index 0
    tribes_played: list[str] = field(default_factory=list)
    creature_deck: list[str] = field(default_factory=list)
    creature_discard: list[str] = field(default_factory=list)
    piles: dict[int, list[str]] = field(default_factory=dict)  # Conflicted Interests
    pile_discards: dict[int, list[str]] = field(default_factory=dict)
    tribe: str | None = None  # the Tribe researched this round
    cards: list[str] = field(default_factory=list)  # line-up cards 1-6 this round
    lineups: dict[str, tuple[Die, ...]] = field(default_factory=dict)
    outcomes: list[CardOutcome] = field(default_factory=list)  # this round's, once revealed
    share_queue: list[tuple[int, str]] = field(default_factory=list)  # (card number, player)
    reshuffles: int = 0
    hooks_done: bool = False  # this round's before-allocation effects have run


_VERBS = ("tribe", "take", "line-up", "line", "lineup", "share", "pass")


def _count(colours: Sequence[str]) -> dict[str, int]:
    out = dict.fromkeys(COLOURS, 0)
    for c in colours:
        out[c] += 1
    return out


def _card_order(cid: str) -> tuple[int, int, str]:
    card = CARDS[cid]
    sets = [*TRIBE_NAMES, "Creatures", "Predators"]
    return (card.number, sets.index(card.set) if card.set in sets else len(sets), cid)


def _dice_text(held: Mapping[str, int]) -> str:
    return ", ".join(f"{n} {c}" for c, n in held.items() if n) or "no dice"


# -- the game ------------------------------------------------------------------------------


class OcculitesGame(Game[OcculitesState]):
    """Dice of the Occulites for 2 to 5 players, with every mode of the rulebook as options."""

    name = "occulites"
    event_kinds = EVENT_KINDS
    title = "Dice of the Occulites"
    min_players = 2
    max_players = 5
    Options = OcculitesOptions
    options: OcculitesOptions

    # -- setup -------------------------------------------------------------------------

    def initial_state(self, rng: random.Random) -> OcculitesState:
        opts = self.options
        players = self.setup.players
        if any(p.casefold() == POOL for p in players):
            raise SetupError(f"player name {POOL!r} is reserved for the Common Knowledge Pool")
        in_play = {TRIBES[t].colour for t in opts.tribes} | set(COMMON_POOL_COLOURS)
        box = {c: (0 if c in COMMON_POOL_COLOURS else n) for c, n in SUPPLY.items()}
        pool = {c: (n if c in COMMON_POOL_COLOURS else 0) for c, n in SUPPLY.items()}
        zero = dict.fromkeys(COLOURS, 0)
        state = OcculitesState(
            rng=rng, phase="tribes", round=0, tribe_of=dict.fromkeys(players),
            dice={p: dict(zero) for p in players}, pool=pool, box=box,
            locked={h: dict(zero) for h in (*players, POOL)},
            points=dict.fromkeys(players, 0), sole_wins=dict.fromkeys(players, 0),
            shares=dict.fromkeys(players, 0), shares_total=dict.fromkeys(players, 0))
        if opts.lots_of_interests:
            for c in COLOURS:
                if c in in_play and c not in COMMON_POOL_COLOURS:
                    state.pool[c] += state.box[c]
                    state.box[c] = 0
            total = sum(state.pool.values())
            if total < 6 * len(players):
                raise SetupError(f"Lots of Interests: the pool holds {total} dice with Tribes "
                                 f"{', '.join(opts.tribes)}; {len(players)} players need "
                                 f"{6 * len(players)}")
            state.phase = "draft"
        elif len(players) > len(opts.tribes):
            raise SetupError(f"{len(players)} players need {len(players)} Tribes, but only "
                             f"{', '.join(opts.tribes)} are in play (option tribes)")
        return state

    @classmethod
    def random_setup(cls, rng: random.Random) -> Setup:
        n = rng.randint(cls.min_players, cls.max_players)
        options: dict[str, Any] = {"rounds": rng.choice([1, 2, 3, 5, 5, 7])}
        if rng.random() < 0.3:
            tribes = list(TRIBE_NAMES)
            rng.shuffle(tribes)
            options["tribes"] = sorted(tribes[:rng.randint(n, 7)], key=TRIBE_NAMES.index)
        for key in ("creatures", "lots_of_interests", "conflicted_interests", "timer",
                    "negative_points", "share_last_round"):
            options[key] = rng.random() < 0.4
        options["lock"] = rng.choice(["both", "gained"])
        options["tie_break"] = rng.choice(["shared", "most-sole-wins"])
        if options["lots_of_interests"]:
            options["draft_order"] = rng.choice(["round-robin", "snake"])
            options.pop("tribes", None)
        if rng.random() < 0.3:
            options["card_effects"] = {"Palaudis 2": "lowest-wins", "Hydris 4": "no-black",
                                       "Creatures 6": "winner-bonus-1",
                                       "Ignis 1": "trailing-gain-1"}
        names = tuple(f"P{i + 1}" for i in range(n))
        return Setup(cls.name, names, options, rng.randrange(2**31))

    # -- parsing -----------------------------------------------------------------------

    def _player(self, name: str, text: str) -> str:
        for p in self.setup.players:
            if p.casefold() == name.strip().casefold():
                return p
        raise InvalidCall(f"{text!r}: no player called {name.strip()!r}; players: "
                          f"{', '.join(self.setup.players)}")

    @staticmethod
    def _colour(word: str, text: str) -> str:
        colour = word.strip().casefold()
        if colour not in SUPPLY:
            raise InvalidCall(f"{text!r}: {word.strip()!r} is no dice colour; colours: "
                              f"{', '.join(COLOURS)}")
        return colour

    def parse(self, text: str) -> Call:
        """Read a call: any case, number words, forgiving spacing; "NAME:" may be left out when
        only one player can make the call (a share turn, a draft turn, one player's dice)."""
        raw = tidy_call(text, [w for p in self.setup.players for w in p.split()])
        low = raw.casefold()
        if low == "reveal":
            return Reveal()
        if low.startswith("flip ") or low.startswith("flip: "):
            return self._parse_flip(raw)
        who, colon, rest = raw.partition(":")
        if not colon:
            if not raw or raw.casefold().split()[0] not in _VERBS:
                raise InvalidCall(f"{text!r}: expected 'Reveal', 'Flip CARD' or 'NAME: Tribe T', "
                                  "'NAME: Take COLOUR', 'NAME: Line-up COLOUR PIPS, ...', "
                                  "'NAME: Share COLOUR for COLOUR from pool|NAME' or "
                                  "'NAME: Pass'")
            return self.parse_unsaid_speaker(raw)
        player = self._player(who, raw)
        rest = rest.strip()
        verb, _, args = rest.partition(" ")
        verb = verb.casefold()
        args = args.strip()
        for long_verb in ("line up", "line-up"):
            if rest.casefold().startswith(long_verb):
                verb, args = "lineup", rest[len(long_verb):].strip()
        if verb == "tribe":
            return ChooseTribe(player, self._tribe(args, raw))
        if verb == "take":
            return TakeDie(player, self._colour(args, raw))
        if verb == "lineup":
            return LineUp(player, self._dice(args, raw))
        if verb == "share":
            words = args.split(None, 4)
            if len(words) != 5 or words[1].casefold() != "for" or words[3].casefold() != "from":
                raise InvalidCall(f"{raw!r}: expected 'NAME: Share COLOUR for COLOUR from "
                                  "pool' or '... from NAME'")
            give, take = self._colour(words[0], raw), self._colour(words[2], raw)
            source = (POOL if words[4].strip().casefold() == POOL
                      else self._player(words[4], raw))
            return Share(player, give, take, source)
        if verb == "pass" and not args:
            return Pass(player)
        raise InvalidCall(f"{raw!r}: {shown(rest)} is no call; expected Tribe, Take, "
                          "Line-up, Share or Pass")

    @staticmethod
    def _tribe(word: str, raw: str) -> str:
        for t in TRIBE_NAMES:
            if t.casefold() == word.strip().casefold():
                return t
        raise InvalidCall(f"{raw!r}: {shown(word.strip())} is no Tribe; Tribes: "
                          f"{', '.join(TRIBE_NAMES)}")

    def _dice(self, args: str, raw: str) -> tuple[Die, ...]:
        """Six dice, "COLOUR PIPS" each, with or without commas between them."""
        words = args.replace(",", " ").split()
        if len(words) != 2 * CARDS_PER_ROUND:
            raise InvalidCall(f"{raw!r}: a line-up names {CARDS_PER_ROUND} dice, each a colour "
                              f"and pips (e.g. 'green 5, blue 3, ...'), got {shown(args)}")
        dice = []
        for colour, pips in zip(words[::2], words[1::2], strict=True):
            n = read_number(pips)
            if n is None or not 1 <= n <= 6:
                raise InvalidCall(f"{raw!r}: {shown(colour + ' ' + pips)} should be a colour "
                                  "and pips 1-6, e.g. 'green 5'")
            dice.append(Die(self._colour(colour, raw), n))
        return tuple(dice)

    def _parse_flip(self, raw: str) -> Call:
        body = raw.partition(" ")[2].lstrip(":").strip()
        parts = [x.strip() for x in body.split(",") if x.strip()]
        if not parts:
            raise InvalidCall(f"{raw!r}: expected 'Flip TRIBE' or 'Flip CARD, CARD, ...'")
        cards = []
        for part in parts:
            words = part.split()
            number = read_number(words[-1]) if len(words) >= 2 else None
            if number is None:
                if len(parts) == 1 and not self.options.conflicted_interests:
                    return FlipTribe(self._tribe(part, raw))
                raise InvalidCall(f"{raw!r}: {shown(part)} is no card; say a set and a number, "
                                  "e.g. 'Hydris 2' or 'Predators 5'")
            set_name = " ".join(words[:-1]).casefold()
            card = next((cid for cid, c in CARDS.items()
                         if c.set.casefold() == set_name and c.number == number), None)
            if card is None:
                raise InvalidCall(f"{raw!r}: {shown(part)} is no card; sets: "
                                  f"{', '.join(TRIBE_NAMES)}, Creatures, Predators; numbers 1-6")
            cards.append(card)
        if (len(cards) == 1 and not self.options.conflicted_interests
                and cards[0] not in CREATURE_CARDS):
            if CARDS[cards[0]].number != 1:
                raise InvalidCall(f"{raw!r}: the Tribe deck holds the number 1 cards; say "
                                  f"'Flip {CARDS[cards[0]].set}'")
            return FlipTribe(CARDS[cards[0]].set)
        return FlipCards(tuple(sorted(cards, key=lambda c: CARDS[c].number)))

    # -- applying ----------------------------------------------------------------------

    def _apply(self, state: OcculitesState, call: Call, at: float | None) -> list[Event]:
        if isinstance(call, ChooseTribe):
            return self._choose(state, call)
        if isinstance(call, TakeDie):
            return self._take(state, call)
        if isinstance(call, FlipTribe | FlipCards):
            return self._flip(state, call)
        if isinstance(call, LineUp):
            return self._hooks(state) + self._lineup(state, call, at)
        if isinstance(call, Reveal):
            return self._hooks(state) + self._reveal(state, call, at)
        if isinstance(call, Share | Pass):
            return self._share(state, call)
        raise IllegalCall(f"{call}: not a call of {self.title}")

    def _need_phase(self, state: OcculitesState, call: Call, phase: Phase, what: str) -> None:
        if state.phase != phase:
            raise IllegalCall(f"{call}: {what}, but {self._phase_text(state)}")

    def _phase_text(self, state: OcculitesState) -> str:
        if state.phase == "tribes":
            waiting = [p for p, t in state.tribe_of.items() if t is None]
            return f"players are choosing Tribes (waiting for {join_names(waiting)})"
        if state.phase == "draft":
            return f"the Lots of Interests draft is on ({self._drafter(state)} to take a die)"
        if state.phase == "allocate":
            return f"round {state.round} is being allocated"
        if state.phase == "share":
            number, who = state.share_queue[0]
            return f"it is {who}'s turn to Share Knowledge for card {number}"
        return "the game is over"

    def _choose(self, state: OcculitesState, call: ChooseTribe) -> list[Event]:
        self._need_phase(state, call, "tribes", "Tribes are chosen only at setup")
        if state.tribe_of[call.player] is not None:
            raise IllegalCall(f"{call}: {call.player} already chose "
                              f"{state.tribe_of[call.player]}")
        if call.tribe not in self.options.tribes:
            raise IllegalCall(f"{call}: {call.tribe} is not in play; Tribes in play: "
                              f"{', '.join(self.options.tribes)}")
        owner = next((p for p, t in state.tribe_of.items() if t == call.tribe), None)
        if owner is not None:
            raise IllegalCall(f"{call}: {owner} already has the {call.tribe} dice")
        colour = TRIBES[call.tribe].colour
        state.tribe_of[call.player] = call.tribe
        state.dice[call.player][colour] += SUPPLY[colour]
        state.box[colour] -= SUPPLY[colour]
        events = [event("tribe", f"{call.player} researches {call.tribe} with 6 {colour} dice",
                        {"player": call.player, "tribe": call.tribe, "colour": colour})]
        if all(t is not None for t in state.tribe_of.values()):
            events += self._begin(state)
        return events

    def _drafter(self, state: OcculitesState) -> str:
        players = self.setup.players
        row, pos = divmod(state.draft_pick, len(players))
        if self.options.draft_order == "snake" and row % 2 == 1:
            pos = len(players) - 1 - pos
        return players[pos]

    def _take(self, state: OcculitesState, call: TakeDie) -> list[Event]:
        self._need_phase(state, call, "draft", "dice are drafted only in Lots of Interests")
        drafter = self._drafter(state)
        if call.player != drafter:
            raise IllegalCall(f"{call}: it is {drafter}'s turn to take a die")
        if state.pool[call.colour] == 0:
            raise IllegalCall(f"{call}: the pool has no {call.colour} die left; it holds "
                              f"{_dice_text(state.pool)}")
        state.pool[call.colour] -= 1
        state.dice[call.player][call.colour] += 1
        state.draft_pick += 1
        events = [event("take", f"{call.player} takes a {call.colour} die",
                        {"player": call.player, "colour": call.colour})]
        if state.draft_pick == 6 * len(self.setup.players):
            events += self._begin(state)
        return events

    def _begin(self, state: OcculitesState) -> list[Event]:
        """Setup steps 1, 3 and 4: shuffle the decks, build the number 1 deck, start round 1."""
        opts = self.options
        rng = state.rng
        if opts.conflicted_interests:
            for n in range(1, CARDS_PER_ROUND + 1):
                pile = [card_id(t, n) for t in opts.tribes]
                if self._creatures_in_piles():
                    pile += [c for c in CREATURE_CARDS if CARDS[c].number == n]
                rng.shuffle(pile)
                state.piles[n] = pile
                state.pile_discards[n] = []
        else:
            chosen = [t for t in state.tribe_of.values() if t is not None]
            others = [t for t in opts.tribes if t not in chosen]
            rng.shuffle(others)
            size = min(max(5, opts.rounds), len(opts.tribes))
            deck = chosen + others[:max(0, size - len(chosen))]
            rng.shuffle(deck)
            state.tribe_deck = deck
            if opts.creatures:
                state.creature_deck = list(CREATURE_CARDS)
                rng.shuffle(state.creature_deck)
        return [event("setup", "The decks are shuffled", {}), *self._start_round(state)]

    def _start_round(self, state: OcculitesState) -> list[Event]:
        opts = self.options
        state.round += 1
        state.phase = "allocate"
        state.lineups = {}
        state.outcomes = []
        state.share_queue = []
        state.shares = dict.fromkeys(self.setup.players, 0)
        for held in state.locked.values():
            for c in held:
                held[c] = 0
        events: list[Event] = []
        if opts.conflicted_interests:
            state.tribe = None
            cards = []
            for n in range(1, CARDS_PER_ROUND + 1):
                if not state.piles[n]:
                    state.piles[n] = state.pile_discards[n]
                    state.pile_discards[n] = []
                    state.rng.shuffle(state.piles[n])
                    state.reshuffles += 1
                    events.append(event("reshuffle", f"Pile {n} is reshuffled", {"pile": n}))
                cards.append(state.piles[n].pop(0))
            state.cards = cards
        else:
            if not state.tribe_deck:
                state.tribe_deck = state.tribes_played
                state.tribes_played = []
                state.rng.shuffle(state.tribe_deck)
                state.reshuffles += 1
                events.append(event("reshuffle", "The Tribes ran out: the number 1 cards are "
                                    "shuffled again", {}))
            tribe = state.tribe_deck.pop(0)
            state.tribe = tribe
            state.cards = [c.id for c in TRIBES[tribe].cards]
            if opts.creatures:
                if not state.creature_deck:
                    state.creature_deck = state.creature_discard
                    state.creature_discard = []
                    state.rng.shuffle(state.creature_deck)
                    state.reshuffles += 1
                    events.append(event("reshuffle", "Creatures and Predators reshuffled", {}))
                creature = state.creature_deck.pop(0)
                number = CARDS[creature].number
                state.cards[number - 1] = creature
                events.append(event("creature", f"{creature} replaces card {number}",
                                    {"card": creature, "number": number}))
        events.insert(0, event("round", f"Round {state.round}: researching "
                               f"{state.tribe or 'every Tribe'}; cards "
                               + ", ".join(state.cards),
                               {"round": state.round, "tribe": state.tribe,
                                "cards": list(state.cards)}))
        state.hooks_done = False
        return events

    def _hooks(self, state: OcculitesState) -> list[Event]:
        """The before-allocation card effects of this round, once, when its cards are final:
        before the first line-up is taken (cards may be flipped by the table until then)."""
        if state.hooks_done or state.phase != "allocate":
            return []
        state.hooks_done = True
        events: list[Event] = []
        for cid in state.cards:
            effect = effect_of(cid, self.options)
            if effect is not None and effect.before_allocation is not None:
                events += effect.before_allocation(self._ctx(state, cid))
        return events

    def _creatures_in_piles(self) -> bool:
        """Conflicted Interests puts the Creatures and Predators cards in the piles ("Take all
        the cards from all Tribes and the Creatures and Predators"); option
        conflicted-creatures = "with-creatures" does so only when creatures is on."""
        opts = self.options
        return opts.conflicted_creatures == "always" or opts.creatures

    # -- what the table flips --------------------------------------------------------------

    def _flip(self, state: OcculitesState, call: FlipTribe | FlipCards) -> list[Event]:
        if state.phase != "allocate" or state.hooks_done:
            raise IllegalCall(f"{call}: cards are flipped at the start of a round, before any "
                              f"line-up; {self._phase_text(state)}"
                              + (" and line-ups have begun" if state.phase == "allocate" else ""))
        if isinstance(call, FlipTribe):
            return self._flip_tribe(state, call)
        if self.options.conflicted_interests:
            return self._flip_piles(state, call)
        return self._flip_creature(state, call)

    def _flip_tribe(self, state: OcculitesState, call: FlipTribe) -> list[Event]:
        opts = self.options
        if opts.conflicted_interests:
            raise IllegalCall(f"{call}: in Conflicted Interests every pile is flipped; say "
                              "'Flip Hydris 1, Palaudis 2, ...'")
        if call.tribe not in opts.tribes:
            raise IllegalCall(f"{call}: {call.tribe} is not in play; Tribes in play: "
                              f"{', '.join(opts.tribes)}")
        current = state.tribe
        assert current is not None
        deck = [*state.tribe_deck, current]
        if call.tribe in deck:
            deck.remove(call.tribe)
        elif call.tribe in state.tribes_played:
            raise IllegalCall(f"{call}: {call.tribe} was already researched; the number 1 deck "
                              f"holds {', '.join(sorted(deck))}")
        else:
            # Setup step 3 deals "additional number 1 cards from other Tribe sets": the table
            # dealt this one where the companion dealt another of those.
            chosen = {t for t in state.tribe_of.values() if t is not None}
            extra = [t for t in deck if t not in chosen]
            if not extra:
                raise IllegalCall(f"{call}: the number 1 deck holds only the players' Tribes "
                                  f"({', '.join(sorted(deck))})")
            deck.remove(current if current in extra else extra[-1])
        state.tribe_deck = deck
        state.tribe = call.tribe
        creature = next((c for c in state.cards if c in CREATURE_CARDS), None)
        state.cards = [c.id for c in TRIBES[call.tribe].cards]
        if creature is not None:
            state.cards[CARDS[creature].number - 1] = creature
        return [event("round", f"Round {state.round}: the table flipped {call.tribe}; cards "
                      + ", ".join(state.cards),
                      {"round": state.round, "tribe": call.tribe, "cards": list(state.cards)})]

    def _flip_creature(self, state: OcculitesState, call: FlipCards) -> list[Event]:
        if not self.options.creatures:
            raise IllegalCall(f"{call}: this game plays without Creatures and Predators "
                              "(option creatures)")
        if len(call.cards) != 1 or call.cards[0] not in CREATURE_CARDS:
            raise IllegalCall(f"{call}: one Creatures and Predators card is drawn each round")
        new = call.cards[0]
        old = next(c for c in state.cards if c in CREATURE_CARDS)
        deck = [old, *state.creature_deck]
        if new not in deck:
            raise IllegalCall(f"{call}: {new} was already drawn; the deck holds "
                              f"{', '.join(sorted(deck))}")
        deck.remove(new)
        state.creature_deck = deck
        assert state.tribe is not None
        number = CARDS[old].number
        state.cards[number - 1] = card_id(state.tribe, number)
        state.cards[CARDS[new].number - 1] = new
        return [event("creature", f"{new} replaces card {CARDS[new].number}",
                      {"card": new, "number": CARDS[new].number})]

    def _flip_piles(self, state: OcculitesState, call: FlipCards) -> list[Event]:
        numbers = [CARDS[c].number for c in call.cards]
        if len(set(numbers)) != len(numbers):
            raise IllegalCall(f"{call}: one card is flipped from each pile")
        piles = {n: [state.cards[n - 1], *state.piles[n]] for n in numbers}
        for cid in call.cards:
            n = CARDS[cid].number
            if cid not in piles[n]:
                where = ("is not in this game's piles" if not self._in_piles(cid)
                         else "was already flipped")
                raise IllegalCall(f"{call}: {cid} {where}; pile {n} holds "
                                  + ", ".join(sorted(piles[n])))
            piles[n].remove(cid)
            state.piles[n] = piles[n]
            state.cards[n - 1] = cid
        return [event("round", f"Round {state.round}: the table flipped "
                      + ", ".join(call.cards) + "; cards " + ", ".join(state.cards),
                      {"round": state.round, "tribe": None, "cards": list(state.cards)})]

    def _in_piles(self, cid: str) -> bool:
        card = CARDS[cid]
        if cid in CREATURE_CARDS:
            return self._creatures_in_piles()
        return card.set in self.options.tribes

    def _flip_calls(self) -> list[Call]:
        """Every flip the table may still say this round (one card at a time)."""
        calls: list[Call] = []
        for deal in self.table_deals():
            for choice in deal.choices:
                for option in choice.options:
                    calls.append(FlipTribe(option) if deal.kind == "tribe-card"
                                 else FlipCards((option,)))
        return calls

    def table_deals(self) -> tuple[Deal, ...]:
        """At the start of each round, before any line-up: the cards the table flips."""
        s = self.state
        if s.phase != "allocate" or s.hooks_done:
            return ()
        deals: list[Deal] = []
        if self.options.conflicted_interests:
            choices = tuple(
                DealChoice(f"Card {n}", tuple(sorted({s.cards[n - 1], *s.piles[n]},
                                                     key=_card_order)),
                           (s.cards[n - 1],))
                for n in range(1, CARDS_PER_ROUND + 1))
            deals.append(Deal("piles", f"Round {s.round}: the top card of each pile",
                              "At the start of each round, flip the top card off each pile and "
                              "place it on the line up.", choices, prefix="Flip "))
            return tuple(deals)
        assert s.tribe is not None
        chosen = {t for t in s.tribe_of.values() if t is not None}
        pool = [*s.tribe_deck, s.tribe]
        if any(t not in chosen for t in pool):
            pool += [t for t in self.options.tribes
                     if t not in pool and t not in s.tribes_played]
        deals.append(Deal("tribe-card", f"Round {s.round}: the Tribe card",
                          "Reveal the top card of the number 1 card deck. This is the Tribe "
                          "that everyone will be researching next.",
                          (DealChoice("Tribe", tuple(sorted(pool, key=TRIBE_NAMES.index)),
                                      (s.tribe,)),), prefix="Flip "))
        if self.options.creatures:
            old = next(c for c in s.cards if c in CREATURE_CARDS)
            deck = sorted({old, *s.creature_deck}, key=_card_order)
            deals.append(Deal("creature-card", f"Round {s.round}: the Creatures and Predators "
                              "card", "At the start of each round ... draw the top card of the "
                              "Creatures and Predators deck.",
                              (DealChoice("Card", tuple(deck), (old,)),), prefix="Flip "))
        return tuple(deals)

    def _ctx(self, state: OcculitesState, cid: str) -> EffectContext:
        return EffectContext(CARDS[cid], self.setup.players, state.points, state.dice,
                             state.round)

    def _lineup_problems(self, state: OcculitesState, player: str,
                         dice: Sequence[Die]) -> list[str]:
        if len(dice) != CARDS_PER_ROUND:
            return [f"a line-up has {CARDS_PER_ROUND} dice, not {len(dice)}"]
        problems = []
        held = state.dice[player]
        used = _count([d.colour for d in dice])
        if used != held:
            problems.append(f"{player} holds {_dice_text(held)}, but the line-up uses "
                            f"{_dice_text(used)}")
        for i, die in enumerate(dice):
            if not 1 <= die.pips <= 6:
                problems.append(f"card {i + 1}: a die shows 1 to 6 pips, not {die.pips}")
            cid = state.cards[i] if state.cards else None
            effect = effect_of(cid, self.options) if cid else None
            if cid and effect is not None and effect.check_allocation is not None:
                reason = effect.check_allocation(CARDS[cid], die)
                if reason:
                    problems.append(f"card {i + 1}: {reason}")
        return problems

    def lineup_problems(self, player: str, dice: Sequence[Die]) -> list[str]:
        """Why these dice (as read by the camera) would not be a legal line-up now; [] if fine.

        A screen calls this before sending the call, to highlight what players should check.
        """
        return self._lineup_problems(self.state, player, dice)

    def _lineup(self, state: OcculitesState, call: LineUp, at: float | None) -> list[Event]:
        self._need_phase(state, call, "allocate", "line-ups are given before the reveal")
        opts = self.options
        if (opts.timer and opts.late_lineups == "forfeit" and at is not None
                and at > opts.deadline):
            raise IllegalCall(f"{call}: too late at {at:g} s; the allocation timer ran out at "
                              f"{opts.deadline:g} s (late-lineups = forfeit)")
        problems = self._lineup_problems(state, call.player, call.dice)
        if problems:
            raise IllegalCall(f"{call}: " + "; ".join(problems))
        again = call.player in state.lineups
        state.lineups[call.player] = call.dice
        return [event("lineup", f"{call.player} {'changes their' if again else 'is'} lined up",
                      {"player": call.player})]

    def _reveal(self, state: OcculitesState, call: Reveal, at: float | None) -> list[Event]:
        self._need_phase(state, call, "allocate", "cards are revealed after allocation")
        opts = self.options
        missing = [p for p in self.setup.players if p not in state.lineups]
        if missing:
            forfeit = (opts.timer and opts.late_lineups == "forfeit" and at is not None
                       and at >= opts.deadline)
            if not forfeit:
                why = ("" if not (opts.timer and opts.late_lineups == "forfeit") else
                       f" (they forfeit only once the timer ran out at {opts.deadline:g} s)")
                raise IllegalCall(f"{call}: waiting for the line-up of {join_names(missing)}"
                                  + why)
        if len(missing) == len(self.setup.players):
            raise IllegalCall(f"{call}: nobody has lined up")
        events = [event("reveal", f"Round {state.round}: line-ups revealed",
                        {"missing": missing})]
        for i, cid in enumerate(state.cards):
            card = CARDS[cid]
            placed = [Placed(p, dice[i].colour, dice[i].pips)
                      for p in self.setup.players if (dice := state.lineups.get(p))]
            effect = effect_of(cid, opts)
            if effect is not None and effect.resolve is not None:
                outcome = effect.resolve(card, placed)
            else:
                outcome = resolve_card(card, placed)
            state.outcomes.append(outcome)
            events.append(event("card", outcome.explanation,
                                {"number": outcome.number, "card": cid,
                                 "winner": outcome.winner,
                                 "discoverers": list(outcome.discoverers),
                                 "points": outcome.points, "reason": outcome.reason}))
            if outcome.winner is not None:
                state.sole_wins[outcome.winner] += 1
                if effect is not None and effect.on_win is not None:
                    events += effect.on_win(self._ctx(state, cid), outcome)
            for p in outcome.discoverers:
                state.points[p] += outcome.points
        if state.round < opts.rounds or opts.share_last_round:
            state.share_queue = [(o.number, o.winner) for o in state.outcomes
                                 if o.winner is not None]
        return events + self._next_share(state)

    def _next_share(self, state: OcculitesState) -> list[Event]:
        """Drop turns of players who shared 3 times; go on to the next round when none left."""
        state.share_queue = [(n, p) for n, p in state.share_queue if state.shares[p] < MAX_SHARES]
        if state.share_queue:
            state.phase = "share"
            number, who = state.share_queue[0]
            return [event("share-turn", f"{who} may Share Knowledge for card {number} "
                          f"(costs {share_cost(state.shares[who] + 1)})",
                          {"player": who, "card": number})]
        return self._end_round(state)

    def _end_round(self, state: OcculitesState) -> list[Event]:
        for cid in state.cards:
            card = CARDS[cid]
            if self.options.conflicted_interests:
                state.pile_discards[card.number].append(cid)
            elif cid in CREATURE_CARDS:
                state.creature_discard.append(cid)
        if state.tribe is not None:
            state.tribes_played.append(state.tribe)
        events = [event("round-over", f"Round {state.round} is over: "
                        + ", ".join(f"{p} {state.points[p]}" for p in self.setup.players),
                        {"round": state.round, "points": dict(state.points)})]
        if state.round >= self.options.rounds:
            state.phase = "over"
            state.share_queue = []
            standings = self._standings(state)
            return [*events, event("game-over", f"Game over. Winner: {standings.winner}",
                                   {"winner": standings.winner})]
        return events + self._start_round(state)

    def _share(self, state: OcculitesState, call: Share | Pass) -> list[Event]:
        self._need_phase(state, call, "share", "Share Knowledge comes after the reveal")
        number, who = state.share_queue[0]
        if call.player != who:
            raise IllegalCall(f"{call}: it is {who}'s turn to Share Knowledge for card {number}")
        if isinstance(call, Pass):
            state.share_queue.pop(0)
            return [event("pass", f"{who} does not share for card {number}",
                          {"player": who, "card": number}), *self._next_share(state)]
        nth = state.shares[who] + 1
        cost = share_cost(nth)
        if state.points[who] < cost and not self.options.negative_points:
            raise IllegalCall(f"{call}: share {nth} costs {cost} Discovery Point"
                              f"{'s' if cost > 1 else ''}, {who} has {state.points[who]}")
        if call.give == call.take:
            raise IllegalCall(f"{call}: swapping {call.give} for {call.take} changes nothing")
        if call.source == who:
            raise IllegalCall(f"{call}: swap with the pool or another player, not yourself")
        source_dice = state.pool if call.source == POOL else state.dice[call.source]
        source_name = "the pool" if call.source == POOL else call.source
        mine, locked = state.dice[who], state.locked[who]
        if mine[call.give] - locked[call.give] <= 0:
            why = " unlocked" if mine[call.give] else ""
            raise IllegalCall(f"{call}: {who} has no{why} {call.give} die to give "
                              f"({_dice_text(mine)}; locked: {_dice_text(locked)})")
        theirs_locked = state.locked[call.source]
        if source_dice[call.take] - theirs_locked[call.take] <= 0:
            if source_dice[call.take]:
                raise IllegalCall(f"{call}: {source_name}'s {call.take} "
                                  f"{'die is' if source_dice[call.take] == 1 else 'dice are'} "
                                  "locked in this round")
            raise IllegalCall(f"{call}: {source_name} has no {call.take} die "
                              f"({_dice_text(source_dice)})")
        state.points[who] -= cost
        mine[call.give] -= 1
        source_dice[call.give] += 1
        source_dice[call.take] -= 1
        mine[call.take] += 1
        locked[call.take] += 1
        if self.options.lock == "both":
            theirs_locked[call.give] += 1
        state.shares[who] = nth
        state.shares_total[who] += 1
        state.share_queue.pop(0)
        return [event("share", f"{who} pays {cost} and swaps a {call.give} die for "
                      f"{source_name}'s {call.take} die",
                      {"player": who, "card": number, "cost": cost, "give": call.give,
                       "take": call.take, "source": call.source}), *self._next_share(state)]

    # -- reading the game --------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.state.phase == "over"

    @property
    def phase(self) -> Phase:
        return self.state.phase

    def whose_turn(self) -> str | None:
        """The player who must act alone now (drafting or sharing), else None."""
        if self.state.phase == "draft":
            return self._drafter(self.state)
        if self.state.phase == "share":
            return self.state.share_queue[0][1]
        return None

    def prompt(self) -> Prompt:
        """Tribes and the draft go one player at a time; in allocation everyone rolls and lines
        up at once (the timer's clock may run); Share Knowledge goes card by card."""
        state = self.state
        phase = state.phase
        text = self._phase_text(state)
        rnd = state.round or None
        if phase == "over":
            return Prompt("over", round=rnd, text=text)
        if phase == "tribes":
            free = tuple(p for p in self.setup.players if state.tribe_of.get(p) is None)
            return Prompt(phase, free, rnd, text=text)
        if phase == "allocate":
            waiting = tuple(p for p in self.setup.players if p not in state.lineups)
            return Prompt(phase, waiting, rnd, ROLL_CLOCK_SECONDS, roll=bool(waiting),
                          rollers=waiting, text=text)
        who = self.whose_turn()
        return Prompt(phase, (who,) if who else (), rnd, text=text)

    def placings(self) -> Placings:
        """By points; once over, the winners (after the table's tie-break option) first."""
        state = self.state
        winner = self.standings().winner
        first = winner.split(" & ") if winner else []
        return rank_by(self.setup.players, state.points, first)

    def current_cards(self) -> list[CardInfo]:
        """The six cards of this round's line-up, card 1 first."""
        return [CARDS[c] for c in self.state.cards]

    def explain_round(self) -> list[str]:
        """Each card's winner and why, for this round once revealed."""
        return [o.explanation for o in self.state.outcomes]

    def share_choices(self) -> list[Share]:
        """Every Share Knowledge swap the player on turn may make now."""
        state = self.state
        if state.phase != "share":
            return []
        who = state.share_queue[0][1]
        if state.points[who] < share_cost(state.shares[who] + 1) and \
                not self.options.negative_points:
            return []
        out = []
        mine, locked = state.dice[who], state.locked[who]
        for source in (POOL, *[p for p in self.setup.players if p != who]):
            src = state.pool if source == POOL else state.dice[source]
            for give in COLOURS:
                if mine[give] - locked[give] <= 0:
                    continue
                for take in COLOURS:
                    if take != give and src[take] - state.locked[source][take] > 0:
                        out.append(Share(who, give, take, source))
        return out

    def _standings(self, state: OcculitesState) -> Standings:
        players = self.setup.players
        over = state.phase == "over"
        rows = tuple((p, state.tribe_of[p] or "-", str(state.points[p]),
                      str(state.sole_wins[p]), _dice_text(state.dice[p])) for p in players)
        winner = None
        note = f"Round {state.round} of {self.options.rounds}" if state.round else "Setting up"
        if over:
            best = max(state.points.values())
            leaders = self._leaders(state)
            winner = " & ".join(leaders)
            note = ("Shared victory" if len(leaders) > 1 else "") + (
                " (tie broken by cards won alone)" if len(leaders) == 1 and
                sum(state.points[p] == best for p in players) > 1 else "")
        return Standings(("player", "tribe", "points", "won alone", "dice"), rows, winner, over,
                         note.strip())

    def _leaders(self, state: OcculitesState) -> list[str]:
        """The winners once the game is over: most points, then (by option) most cards won
        alone; several when they stay tied (a shared victory)."""
        players = self.setup.players
        best = max(state.points.values())
        leaders = [p for p in players if state.points[p] == best]
        if len(leaders) > 1 and self.options.tie_break == "most-sole-wins":
            most = max(state.sole_wins[p] for p in leaders)
            leaders = [p for p in leaders if state.sole_wins[p] == most]
        return leaders

    def standings(self) -> Standings:
        return self._standings(self.state)

    role_kind = "tribe"

    def results(self) -> tuple[PlayerResult, ...]:
        """Points, ranks (a tie broken by cards won alone ranks its winner first), winners and
        each player's Tribe."""
        state = self.state
        players = self.setup.players
        over = state.phase == "over"
        leaders = self._leaders(state) if over else []
        first = [i for i, p in enumerate(players) if p in leaders]
        ranks = rank_by_score([state.points[p] for p in players], first)
        return tuple(PlayerResult(p, float(state.points[p]), ranks[i] if state.round else None,
                                  p in leaders, state.tribe_of[p])
                     for i, p in enumerate(players))

    def check_invariants(self) -> None:
        state = self.state
        for c in COLOURS:
            held = sum(state.dice[p][c] for p in self.setup.players)
            total = held + state.pool[c] + state.box[c]
            assert total == SUPPLY[c], f"{c} dice: {total} in play+pool+box, supply {SUPPLY[c]}"
            assert min(state.pool[c], state.box[c]) >= 0, f"negative {c} count"
            for h, locked in state.locked.items():
                has = state.pool[c] if h == POOL else state.dice[h][c]
                assert 0 <= locked[c] <= has, f"{h} has {locked[c]} {c} locked of {has}"
        if state.phase not in ("tribes", "draft"):
            for p in self.setup.players:
                assert sum(state.dice[p].values()) == 6, f"{p} holds {state.dice[p]}"
                assert min(state.dice[p].values()) >= 0, f"{p} holds {state.dice[p]}"
                assert state.shares[p] <= MAX_SHARES
        if not self.options.negative_points and not self.options.card_effects:
            assert min(state.points.values()) >= 0, f"points went negative: {state.points}"
        assert len(state.cards) in (0, CARDS_PER_ROUND)
        for i, cid in enumerate(state.cards):
            assert CARDS[cid].number == i + 1, f"card {cid} in place {i + 1}"

    # -- simulated play ----------------------------------------------------------------

    def _valid_lineup(self, player: str, rng: random.Random | None) -> LineUp | None:
        state = self.state
        colours = [c for c, n in state.dice[player].items() for _ in range(n)]

        def pips(i: int) -> int:
            return rng.randint(1, 6) if rng is not None else (i % 6) + 1

        def ok(order: Sequence[str]) -> LineUp | None:
            dice = tuple(Die(c, pips(i)) for i, c in enumerate(order))
            for i, die in enumerate(dice):
                effect = effect_of(state.cards[i], self.options)
                if effect is not None and effect.check_allocation is not None and \
                        effect.check_allocation(CARDS[state.cards[i]], die):
                    return None
            return LineUp(player, dice)

        if rng is not None:
            for _ in range(10):
                order = list(colours)
                rng.shuffle(order)
                if found := ok(order):
                    return found
        for perm in itertools.permutations(colours):
            if found := ok(perm):
                return found
        return None

    def legal_calls(self) -> list[Call]:
        state = self.state
        players = self.setup.players
        if state.phase == "over":
            return []
        if state.phase == "tribes":
            taken = set(state.tribe_of.values())
            return [ChooseTribe(p, t) for p in players if state.tribe_of[p] is None
                    for t in self.options.tribes if t not in taken]
        if state.phase == "draft":
            who = self._drafter(state)
            return [TakeDie(who, c) for c in COLOURS if state.pool[c]]
        if state.phase == "allocate":
            calls: list[Call] = [c for p in players if (c := self._valid_lineup(p, None))]
            if len(state.lineups) == len(players):
                calls.append(Reveal())
            return calls + self._flip_calls()
        who = state.share_queue[0][1]
        return [*self.share_choices(), Pass(who)]

    def random_call(self, rng: random.Random) -> Call:
        state = self.state
        if state.phase == "allocate":
            flips = self._flip_calls()
            if flips and rng.random() < 0.2:
                return rng.choice(flips)
            waiting = [p for p in self.setup.players if p not in state.lineups]
            if waiting:
                call = self._valid_lineup(rng.choice(waiting), rng)
                if call is not None:
                    return call
            return Reveal()
        if state.phase == "share" and rng.random() < 0.6:
            choices = self.share_choices()
            if choices:
                return rng.choice(choices)
        return super().random_call(rng)
