"""Dice-ocalypse: the push-your-luck race to 10,000 with Battle Zones, Act of War cards,
Immunity, the Zombie die and the Left Behind die. Rulings are in docs/rules/diceocalypse.md.

Dice results enter as calls; the engine never rolls anything itself.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from rules.core import (
    Call,
    Event,
    Game,
    IllegalCall,
    Placings,
    PlayerResult,
    Prompt,
    Setup,
    SetupError,
    Standings,
    rank_by,
    rank_by_score,
    tidy_call,
)
from rules.diceocalypse.calls import (
    BLOODSHED,
    CARDS,
    COLLATERAL_DAMAGE,
    DO_OR_DIE,
    DOUBLE_OR_NOTHING,
    PROVE_IT,
    TARGETED,
    Bank,
    Immunity,
    Keep,
    Pick,
    PlayCard,
    Roll,
    SpecialRoll,
    parse_call,
)
from rules.diceocalypse.events import EVENT_KINDS, event
from rules.diceocalypse.scoring import (
    ScoringKey,
    keep_options,
    keep_score,
    key_names,
    scoring_dice,
    scoring_key,
)


@dataclass(frozen=True)
class DiceocalypseOptions:
    """Options; the ambiguous points of the rulebook are here, each documented in the docs."""

    scoring_key: str = "ten-thousand"
    target: int = 10_000
    #: "over": the dice-ocalypse starts when a score is above the target (the rulebook's words);
    #: "reach": when a score reaches it.
    win_threshold: Literal["over", "reach"] = "over"
    opening_minimum: int = 1_000
    battle_zone_at: int = 5_000
    #: "once-per-player": each player starts at most one Battle Zone; "every-time": every time a
    #: score goes from below the mark to the mark or more; "off": no Battle Zones.
    battle_zone: Literal["once-per-player", "every-time", "off"] = "once-per-player"
    #: What a Battle Zone roll of 1 1 counts as: "doubles", "one" (lose a turn) or "nothing".
    double_ones: Literal["doubles", "one", "nothing"] = "doubles"
    #: Points a player needs to play an Act of War card (the rulebook: 1,000).
    card_minimum: int = 1_000
    #: The Zombie and Left Behind dice (only ever with 3 or more players).
    special_dice: bool = True
    #: The Zombie die shows 6: "lose-turn" (all six dice infected), "reroll", or "one-die".
    zombie_six: Literal["lose-turn", "reroll", "one-die"] = "lose-turn"
    #: Hot dice after a Zombie infection: pick up the turn's dice ("infected") or all "six".
    infected_hot_dice: Literal["infected", "six"] = "infected"
    #: Whom the Left Behind die counts: "everyone" in seat order (its roller too) or "others".
    left_behind_counts: Literal["everyone", "others"] = "everyone"
    #: Whether Bloodshed and the other penalties may take a score below zero.
    scores_below_zero: bool = False

    def __post_init__(self) -> None:
        if self.scoring_key not in key_names():
            raise SetupError(f"option scoring-key={self.scoring_key!r}: choose one of "
                             + ", ".join(key_names()))
        for name in ("target", "battle_zone_at"):
            if getattr(self, name) < 50:
                raise SetupError(f"option {name.replace('_', '-')}={getattr(self, name)}: "
                                 "must be 50 or more")
        for name in ("opening_minimum", "card_minimum"):
            if getattr(self, name) < 0:
                raise SetupError(f"option {name.replace('_', '-')}={getattr(self, name)}: "
                                 "must be 0 or more")


@dataclass
class CardPlay:
    """An Act of War card on the table: who played it, on whom, and who is immune to it."""

    player: str
    card: str
    target: str | None = None
    immune: list[str] = field(default_factory=list)
    cancelled: bool = False

    def name(self) -> str:
        return f"{self.player}'s {self.card}" + (f" on {self.target}" if self.target else "")


@dataclass
class Turn:
    """The turn in progress."""

    player: str
    dice: int
    available: int
    roll: list[int] | None = None
    points: int = 0
    rolls: int = 0
    doubled: bool = False
    card: CardPlay | None = None


@dataclass
class LastTurn:
    """The turn that ended last, for the cards played immediately after it."""

    player: str
    points: int
    busted: bool
    card: CardPlay | None
    blocked: bool
    open: bool = True


@dataclass
class Stage:
    """Dice the game waits for before anything else: a roll-off, a card, a Battle Zone..."""

    kind: Literal["order", "card", "battle", "clash", "tiebreak"]
    need: dict[str, int]
    got: dict[str, list[int]] = field(default_factory=dict)
    play: CardPlay | None = None
    points: int = 0
    busted: bool = False
    blocked: bool = False
    initiator: str = ""
    clash: list[CardPlay] = field(default_factory=list)
    slot: str = ""


@dataclass
class DiceocalypseState:
    """Everything that changes during a game."""

    phase: Literal["order", "play", "final", "over"]
    scores: dict[str, int]
    on_board: dict[str, bool]
    cards: dict[str, list[str]]
    immunity: dict[str, bool]
    lose_turn: dict[str, bool]
    double_next: dict[str, bool]
    bz_armed: dict[str, bool]
    stage: Stage | None
    current: str = ""
    turn: Turn | None = None
    last: LastTurn | None = None
    upcoming_card: CardPlay | None = None
    advance_pending: bool = False
    zombie: str | None = None
    zombie_earned: bool = False
    zombie_rolled: bool = False
    infection: int = 0
    left_behind: str | None = None
    left_behind_earned: bool = False
    left_behind_rolled: bool = False
    last_call_play: bool = False
    final_leader: str | None = None
    final_mark: int = 0
    final_queue: list[str] = field(default_factory=list)
    diced: list[str] = field(default_factory=list)
    winner: str | None = None


def _sub_multiset(part: Sequence[int], whole: Sequence[int]) -> bool:
    rest = list(whole)
    for v in part:
        if v not in rest:
            return False
        rest.remove(v)
    return True


def _dice(values: Sequence[int]) -> str:
    return " ".join(str(v) for v in values)


class Diceocalypse(Game[DiceocalypseState]):
    """The game; see the module docstring and docs/rules/diceocalypse.md."""

    name = "dice-ocalypse"
    event_kinds = EVENT_KINDS
    title = "Dice-ocalypse"
    min_players = 2
    max_players = 6
    Options = DiceocalypseOptions

    # -- setup ---------------------------------------------------------------------------------

    @property
    def key(self) -> ScoringKey:
        """The scoring key this game uses."""
        return scoring_key(self.options.scoring_key)

    @property
    def players(self) -> tuple[str, ...]:
        return self.setup.players

    def initial_state(self, rng: random.Random) -> DiceocalypseState:
        ps = self.setup.players
        return DiceocalypseState(
            phase="order",
            scores=dict.fromkeys(ps, 0),
            on_board=dict.fromkeys(ps, False),
            cards={p: list(CARDS) for p in ps},
            immunity=dict.fromkeys(ps, True),
            lose_turn=dict.fromkeys(ps, False),
            double_next=dict.fromkeys(ps, False),
            bz_armed=dict.fromkeys(ps, self.options.battle_zone != "off"),
            stage=Stage("order", dict.fromkeys(ps, 1)),
        )

    def parse(self, text: str) -> Call:
        """Read a call: names in any case, dice in digits or words, forgiving spacing; "NAME:"
        may be left out when only one player can make the call now."""
        raw = tidy_call(text, [w for p in self.setup.players for w in p.split()])
        if ":" not in raw and raw:
            return self.parse_unsaid_speaker(raw, lambda t: parse_call(t, self.setup.players))
        return parse_call(raw, self.setup.players)

    @property
    def special_dice(self) -> bool:
        """True when the Zombie and Left Behind dice are in the game (3+ players, option on)."""
        return len(self.players) >= 3 and bool(self.options.special_dice)

    def _reached(self, score: int) -> bool:
        target: int = self.options.target
        if self.options.win_threshold == "reach":
            return score >= target
        return score > target

    def _next_seat(self, player: str) -> str:
        ps = self.players
        return ps[(ps.index(player) + 1) % len(ps)]

    def _seats_from(self, player: str) -> list[str]:
        ps = list(self.players)
        i = ps.index(player)
        return ps[i:] + ps[:i]

    def _sub(self, s: DiceocalypseState, player: str, points: int) -> None:
        s.scores[player] -= points
        if not self.options.scores_below_zero:
            s.scores[player] = max(0, s.scores[player])

    # -- apply ---------------------------------------------------------------------------------

    def _apply(self, state: DiceocalypseState, call: Call, at: float | None) -> list[Event]:
        s = state
        events: list[Event] = []
        together_ok = s.last_call_play
        s.last_call_play = False
        if s.stage is not None and not isinstance(call, Roll | Immunity | Pick | PlayCard):
            raise IllegalCall(f"{call}: {self._waiting(s)}")
        if isinstance(call, Roll):
            self._roll(s, call, events)
        elif isinstance(call, Keep):
            self._keep(s, call, events)
        elif isinstance(call, Bank):
            self._bank(s, call, events)
        elif isinstance(call, PlayCard):
            self._play(s, call, together_ok, events)
        elif isinstance(call, Immunity):
            self._immunity(s, call, events)
        elif isinstance(call, Pick):
            self._pick(s, call, events)
        elif isinstance(call, SpecialRoll):
            self._special(s, call, events)
        else:
            raise IllegalCall(f"{call}: not a Dice-ocalypse call")
        return events

    def _waiting(self, s: DiceocalypseState) -> str:
        st = s.stage
        assert st is not None
        what = {
            "order": "the roll for first turn",
            "card": f"{st.play.name() if st.play else 'a card'}",
            "battle": f"the Battle Zone started by {st.initiator}",
            "clash": "the roll-off between cards played together",
            "tiebreak": "the tie-break roll of all six dice",
        }[st.kind]
        who = ", ".join(f"{p} ({n} {'die' if n == 1 else 'dice'})" for p, n in st.need.items())
        return f"waiting for {who} to roll for {what}"

    # -- turns ---------------------------------------------------------------------------------

    def _roll(self, s: DiceocalypseState, call: Roll, events: list[Event]) -> None:
        p = call.player
        if s.stage is not None:
            need = s.stage.need.get(p)
            if need is None:
                raise IllegalCall(f"{call}: {self._waiting(s)}")
            if len(call.values) != need:
                raise IllegalCall(f"{call}: {p} rolls {need} {'die' if need == 1 else 'dice'} "
                                  f"here, got {len(call.values)}")
            s.stage.got[p] = list(call.values)
            del s.stage.need[p]
            events.append(event("stage-roll", str(call), {"player": p, "dice": call.values}))
            if not s.stage.need:
                self._stage_done(s, events)
            return
        t = s.turn
        if t is None:
            if p != s.current:
                raise IllegalCall(f"{call}: it is {s.current}'s turn, not {p}'s")
            dice = 6 - s.infection
            t = Turn(p, dice, dice, doubled=s.double_next[p], card=s.upcoming_card)
            if t.doubled:
                s.double_next[p] = False
                events.append(event("double-turn", f"{p}'s score this turn is doubled"))
            s.turn, s.upcoming_card, s.infection = t, None, 0
            s.zombie_rolled = s.left_behind_rolled = False
            if s.last is not None:
                s.last.open = False
        elif p != t.player:
            raise IllegalCall(f"{call}: it is {t.player}'s turn, not {p}'s")
        elif t.roll is not None:
            raise IllegalCall(f"{call}: {p} must first keep scoring dice from {_dice(t.roll)}")
        if len(call.values) != t.available:
            raise IllegalCall(f"{call}: {p} has {t.available} dice to roll, got "
                              f"{len(call.values)}")
        t.rolls += 1
        if not keep_options(call.values, self.key):
            events.append(event("bust", f"{p} busts: {_dice(call.values)} scores nothing; "
                                f"the turn scores 0", {"player": p, "lost": t.points}))
            if t.rolls == 1 and self.special_dice and not s.zombie_earned:
                s.zombie, s.zombie_earned = p, True
                events.append(event("zombie", f"{p} earns the Zombie die"))
            self._end_turn(s, True, events)
            return
        t.roll = list(call.values)
        events.append(event("roll", str(call), {
            "player": p, "dice": call.values,
            "scoring": scoring_dice(call.values, self.key)}))

    def _check_turn(self, s: DiceocalypseState, call: Call, p: str) -> None:
        t = s.turn
        if t is None and p == s.current:
            raise IllegalCall(f"{call}: {p} has no roll to keep dice from; roll first")
        if t is None or t.player != p:
            raise IllegalCall(f"{call}: it is not {p}'s turn; it is "
                              f"{t.player if t else s.current}'s")

    def _keep(self, s: DiceocalypseState, call: Keep, events: list[Event]) -> None:
        p, t = call.player, s.turn
        self._check_turn(s, call, p)
        assert t is not None
        if t.roll is None:
            raise IllegalCall(f"{call}: {p} has no roll to keep dice from; roll or bank")
        if not _sub_multiset(call.values, t.roll):
            raise IllegalCall(f"{call}: {_dice(call.values)} are not all in the roll "
                              f"{_dice(t.roll)}")
        points = keep_score(call.values, self.key)
        if points is None:
            raise IllegalCall(f"{call}: {_dice(call.values)} do not all score under "
                              f"{self.key.title}; the scoring dice are "
                              f"{_dice(scoring_dice(t.roll, self.key))}")
        t.points += points
        t.available -= len(call.values)
        t.roll = None
        events.append(event("keep", f"{p} keeps {_dice(call.values)} for {points}; "
                            f"{t.points} this turn", {"points": points, "turn": t.points}))
        if t.available == 0:
            t.available = 6 if self.options.infected_hot_dice == "six" else t.dice
            events.append(event("hot-dice", f"Hot dice! {p} picks up {t.available} dice"))

    def _bank(self, s: DiceocalypseState, call: Bank, events: list[Event]) -> None:
        p, t = call.player, s.turn
        self._check_turn(s, call, p)
        assert t is not None
        if t.roll is not None:
            raise IllegalCall(f"{call}: {p} must first keep scoring dice from {_dice(t.roll)}")
        if not s.on_board[p] and t.points < self.options.opening_minimum:
            raise IllegalCall(f"{call}: {p}'s first banked turn must be worth at least "
                              f"{self.options.opening_minimum}; this turn has {t.points}")
        self._end_turn(s, False, events)

    def _end_turn(self, s: DiceocalypseState, busted: bool, events: list[Event]) -> None:
        t = s.turn
        assert t is not None
        p = t.player
        points = 0 if busted else t.points * (2 if t.doubled else 1)
        s.turn = None
        if not busted:
            s.scores[p] += points
            s.on_board[p] = True
            events.append(event("bank", f"{p} banks {points} for {s.scores[p]}",
                                {"player": p, "points": points, "score": s.scores[p]}))
        card = t.card
        s.last = LastTurn(p, points, busted, card, t.doubled, s.phase == "play")
        s.advance_pending = True
        if card is not None and not card.cancelled:
            if s.phase == "play" and self._reached(s.scores[p]):
                card.cancelled = True
                events.append(event("card-void", f"{card.name()} does not take effect: {p} "
                                    f"crossed {self.options.target}"))
            else:
                self._start_card(s, card, points, busted, events)
        self._continue(s, events)

    # -- what happens between turns ------------------------------------------------------------

    def _continue(self, s: DiceocalypseState, events: list[Event]) -> None:
        """Run the checks after scores change, and move on to the next turn when due."""
        while s.stage is None and s.phase in ("play", "final"):
            if s.phase == "play":
                first = s.last.player if s.last is not None else s.current
                crossed = [q for q in self._seats_from(first) if self._reached(s.scores[q])]
                if crossed:
                    self._start_final(s, max(crossed, key=lambda q: s.scores[q]), events)
                    continue
                if self._battle_check(s, events):
                    return
                if self.special_dice and not s.left_behind_earned:
                    zeros = [q for q in self.players if s.scores[q] == 0]
                    if len(zeros) == 1:
                        s.left_behind, s.left_behind_earned = zeros[0], True
                        events.append(event("left-behind", f"{zeros[0]} is the last player "
                                            "with no points and takes the Left Behind die"))
            if not s.advance_pending:
                return
            s.advance_pending = False
            self._advance(s, events)

    def _battle_check(self, s: DiceocalypseState, events: list[Event]) -> bool:
        if self.options.battle_zone == "off":
            return False
        mark = self.options.battle_zone_at
        if self.options.battle_zone == "every-time":
            for q in self.players:
                if s.scores[q] < mark:
                    s.bz_armed[q] = True
        first = s.last.player if s.last is not None else s.current
        for q in self._seats_from(first):
            if s.bz_armed[q] and s.scores[q] >= mark:
                s.bz_armed[q] = False
                last = s.last
                own = (last is not None and last.player == q and s.advance_pending
                       and not last.busted)
                took_effect = last is not None and (last.blocked or (
                    last.card is not None and not last.card.cancelled))
                s.stage = Stage("battle", dict.fromkeys(self.players, 2), initiator=q,
                                points=last.points if own and last else 0,
                                blocked=bool(own and took_effect))
                events.append(event("battle-zone", f"{q} passes {mark}: Battle Zone! Everyone "
                                    "rolls two dice", {"initiator": q}))
                return True
        return False

    def _advance(self, s: DiceocalypseState, events: list[Event]) -> None:
        s.zombie_rolled = s.left_behind_rolled = False
        if s.phase == "play":
            p = self._next_seat(s.current)
            while s.lose_turn[p]:
                s.lose_turn[p] = False
                events.append(event("lose-turn", f"{p} loses this turn (Battle Zone card)"))
                p = self._next_seat(p)
            s.current = p
            events.append(event("next-turn", f"{p}'s turn", {"player": p}))
            return
        while s.final_queue:
            p = s.final_queue.pop(0)
            if s.lose_turn[p]:
                s.lose_turn[p] = False
                events.append(event("lose-turn", f"{p} loses the final turn (Battle Zone card)"))
                continue
            s.current = p
            events.append(event("next-turn", f"{p}'s final turn", {"player": p}))
            return
        self._end_game(s, events)

    def _start_final(self, s: DiceocalypseState, leader: str, events: list[Event]) -> None:
        s.phase = "final"
        s.final_leader, s.final_mark = leader, s.scores[leader]
        start = self._next_seat(s.current) if s.advance_pending else s.current
        s.final_queue = [q for q in self._seats_from(start) if q != leader]
        s.advance_pending = True
        s.infection = 0
        if s.last is not None:
            s.last.open = False
        if s.upcoming_card is not None:
            events.append(event("card-void", f"{s.upcoming_card.name()} does not take effect"))
            s.upcoming_card = None
        events.append(event("dice-ocalypse", f"Dice-ocalypse! {leader} has {s.final_mark}; "
                            "everyone else has one more turn, without cards or special dice",
                            {"leader": leader, "mark": s.final_mark}))

    def _end_game(self, s: DiceocalypseState, events: list[Event]) -> None:
        leader = s.final_leader
        s.diced = [q for q in self.players if q != leader and s.scores[q] < s.final_mark]
        for q in s.diced:
            events.append(event("diced", f"{q} is diced with {s.scores[q]}"))
        alive = [q for q in self.players if q not in s.diced]
        top = max(s.scores[q] for q in alive)
        tied = [q for q in alive if s.scores[q] == top]
        if len(tied) == 1:
            self._win(s, tied[0], events)
        else:
            s.stage = Stage("tiebreak", dict.fromkeys(tied, 6))
            events.append(event("tie", f"{', '.join(tied)} tie on {top}: each rolls all six "
                                "dice, the higher sum wins"))

    def _win(self, s: DiceocalypseState, player: str, events: list[Event]) -> None:
        s.phase, s.winner, s.stage = "over", player, None
        events.append(event("winner", f"{player} is the Die-structor!", {"winner": player}))

    def _stage_done(self, s: DiceocalypseState, events: list[Event]) -> None:
        st = s.stage
        assert st is not None
        if st.kind in ("order", "clash", "tiebreak"):
            sums = {q: sum(v) for q, v in st.got.items()}
            top = max(sums.values())
            tied = [q for q in self.players if sums.get(q) == top]
            if len(tied) > 1:
                s.stage = Stage(st.kind, dict.fromkeys(tied, len(st.got[tied[0]])),
                                clash=st.clash, slot=st.slot)
                events.append(event("reroll", f"{', '.join(tied)} tie on {top} and roll again"))
                return
            s.stage = None
            if st.kind == "order":
                s.phase, s.current = "play", tied[0]
                events.append(event("first", f"{tied[0]} goes first", {"player": tied[0]}))
            elif st.kind == "tiebreak":
                self._win(s, tied[0], events)
            else:
                self._clash_won(s, st, tied[0], events)
            return
        s.stage = None
        if st.kind == "card":
            assert st.play is not None
            self._resolve_card(s, st, events)
        else:
            self._resolve_battle(s, st, events)
        self._continue(s, events)

    # -- cards ---------------------------------------------------------------------------------

    def _slot(self, s: DiceocalypseState, call: PlayCard) -> str:
        p, card, target = call.player, call.card, call.target
        t = s.turn
        if card in TARGETED:
            assert target is not None
            if target == p:
                raise IllegalCall(f"{call}: {card} is played on an opponent, not on yourself")
            if t is not None and t.player == target:
                return "turn"
            last = s.last
            if t is None and last is not None and last.open and last.player == target:
                if card == PROVE_IT and last.busted:
                    raise IllegalCall(f"{call}: {target}'s turn scored nothing; there is "
                                      "nothing to prove")
                return "last"
            now = f"it is {t.player}'s turn" if t else f"{s.current} is about to play"
            raise IllegalCall(f"{call}: {card} is played during or immediately after "
                              f"{target}'s turn; {now}")
        if card == DOUBLE_OR_NOTHING:
            if t is None or t.player != p:
                raise IllegalCall(f"{call}: Double or Nothing is played during your own turn")
            return "turn"
        if t is not None or s.current != p:
            raise IllegalCall(f"{call}: Bloodshed is played before your own turn; "
                              f"{s.current if t is None else t.player} is next to roll")
        return "upcoming"

    def _slot_card(self, s: DiceocalypseState, slot: str) -> CardPlay | None:
        if slot == "turn":
            return s.turn.card if s.turn else None
        if slot == "last":
            return s.last.card if s.last else None
        return s.upcoming_card

    def _set_slot(self, s: DiceocalypseState, slot: str, play: CardPlay | None) -> None:
        if slot == "turn" and s.turn is not None:
            s.turn.card = play
        elif slot == "last" and s.last is not None:
            s.last.card = play
        else:
            s.upcoming_card = play

    def _play(self, s: DiceocalypseState, call: PlayCard, together_ok: bool,
              events: list[Event]) -> None:
        p, card = call.player, call.card
        if s.phase != "play":
            why = ("the order of play is not settled yet" if s.phase == "order"
                   else "the dice-ocalypse has begun and final turns take no cards")
            raise IllegalCall(f"{call}: no Act of War card now; {why}")
        if card not in s.cards[p]:
            raise IllegalCall(f"{call}: {p} has already played {card} this game")
        if s.scores[p] < self.options.card_minimum:
            raise IllegalCall(f"{call}: {p} has {s.scores[p]} points and needs at least "
                              f"{self.options.card_minimum} to play an Act of War card")
        if s.stage is not None and not call.together:
            raise IllegalCall(f"{call}: {self._waiting(s)}")
        slot = self._slot(s, call)
        play = CardPlay(p, card, call.target)
        if call.together:
            self._play_together(s, call, slot, play, together_ok, events)
            return
        blocked = {"turn": s.turn.doubled if s.turn else False,
                   "last": s.last.blocked if s.last else False,
                   "upcoming": s.double_next[s.current]}[slot]
        if blocked:
            owner = {"turn": s.turn.player if s.turn else "", "last": s.last.player if s.last
                     else "", "upcoming": s.current}[slot]
            raise IllegalCall(f"{call}: {owner}'s turn already has a Battle Zone double score "
                              "in effect; only one may take effect at a time")
        other = self._slot_card(s, slot)
        if other is not None:
            raise IllegalCall(f"{call}: {other.name()} was played first on this turn; only "
                              "one Act of War card per turn")
        s.cards[p].remove(card)
        self._set_slot(s, slot, play)
        s.last_call_play = True
        events.append(event("card", f"{p} plays {card}" + (f" on {call.target}"
                            if call.target else ""), {"player": p, "card": card}))
        if slot == "last":
            assert s.last is not None
            self._start_card(s, play, s.last.points, s.last.busted, events)
            self._continue(s, events)

    def _play_together(self, s: DiceocalypseState, call: PlayCard, slot: str, play: CardPlay,
                       together_ok: bool, events: list[Event]) -> None:
        st = s.stage
        if st is not None and st.kind == "clash" and st.slot == slot and together_ok:
            plays = st.clash
        elif (together_ok and self._slot_card(s, slot) is not None
              and not self._played_out(s, slot)
              and (st is None or (st.kind == "card" and not st.got))):
            first = self._slot_card(s, slot)
            assert first is not None
            plays = [first]
        else:
            raise IllegalCall(f"{call}: 'together' is only for a card played at the same moment "
                              "as the card just played on the same turn")
        if any(q.player == call.player for q in plays):
            raise IllegalCall(f"{call}: {call.player} already has a card in this play")
        s.cards[call.player].remove(call.card)
        plays.append(play)
        self._set_slot(s, slot, None)
        s.stage = Stage("clash", {q.player: 1 for q in plays}, clash=plays, slot=slot)
        s.last_call_play = True
        events.append(event("clash", f"{call.player} plays {call.card} at the same moment: "
                            "the players without a card pick which came first, or the card "
                            "players roll one die each"))

    def _played_out(self, s: DiceocalypseState, slot: str) -> bool:
        """Whether the card on ``slot`` has already taken effect or gone back to its player
        (Prove It on a turn that scored nothing): no card can be played at the same moment as
        it any more. A card played right after a turn takes effect at once unless it waits
        for dice; cards on the turn being played or the next one wait for the turn's end."""
        first = self._slot_card(s, slot)
        if first is None or first.cancelled:
            return True
        st = s.stage
        return slot == "last" and not (st is not None and st.kind == "card" and not st.got)

    def _pick(self, s: DiceocalypseState, call: Pick, events: list[Event]) -> None:
        st = s.stage
        if st is None or st.kind != "clash":
            raise IllegalCall(f"{call}: no cards were played together; nothing to pick")
        players = [q.player for q in st.clash]
        if call.player in players:
            raise IllegalCall(f"{call}: {call.player} played a card in this clash; the players "
                              "without a card decide")
        if call.chosen not in players:
            raise IllegalCall(f"{call}: {call.chosen} played no card in this clash; choose one "
                              f"of {', '.join(players)}")
        s.stage = None
        self._clash_won(s, st, call.chosen, events)

    def _clash_won(self, s: DiceocalypseState, st: Stage, winner: str,
                   events: list[Event]) -> None:
        won = next(q for q in st.clash if q.player == winner)
        for q in st.clash:
            if q is not won:
                s.cards[q.player].append(q.card)
                events.append(event("card-back", f"{q.player} takes {q.card} back"))
        self._set_slot(s, st.slot, won)
        events.append(event("card", f"{won.name()} is the card in play"))
        if st.slot == "last" and s.last is not None:
            self._start_card(s, won, s.last.points, s.last.busted, events)
            self._continue(s, events)

    def _start_card(self, s: DiceocalypseState, play: CardPlay, points: int, busted: bool,
                    events: list[Event]) -> None:
        """A card's turn is over: resolve it, or wait for the dice it needs."""
        p, target = play.player, play.target
        if play.card == BLOODSHED:
            hit = [q for q in self.players if q != p and q not in play.immune]
            for q in hit:
                self._sub(s, q, points)
            events.append(event("bloodshed", f"Bloodshed: {points} off "
                                f"{', '.join(hit) or 'nobody'}", {"points": points}))
            return
        if play.card == PROVE_IT and busted:
            s.cards[p].append(PROVE_IT)
            play.cancelled = True
            events.append(event("card-back", f"{target} scored nothing: {p} keeps Prove It"))
            return
        if play.card == DOUBLE_OR_NOTHING and busted:
            events.append(event("card-spent", f"{p} scored nothing: nothing to double"))
            return
        assert target is not None or play.card == DOUBLE_OR_NOTHING
        need = {PROVE_IT: {str(target): 1}, DOUBLE_OR_NOTHING: {p: 1}, DO_OR_DIE: {p: 1},
                COLLATERAL_DAMAGE: {str(target): 3, p: 3}}[play.card]
        s.stage = Stage("card", dict(need), play=play, points=points, busted=busted)

    def _resolve_card(self, s: DiceocalypseState, st: Stage, events: list[Event]) -> None:
        play = st.play
        assert play is not None
        p, target, pts = play.player, str(play.target), st.points
        if play.card == PROVE_IT:
            v = st.got[target][0]
            if v <= 3:
                self._sub(s, target, pts)
                events.append(event("prove-it", f"{target} rolls {v}: failed to prove it, "
                                    f"the turn's {pts} are lost"))
            else:
                events.append(event("prove-it", f"{target} rolls {v}: proved, keeps {pts}"))
        elif play.card == DOUBLE_OR_NOTHING:
            v = st.got[p][0]
            if v <= 3:
                self._sub(s, p, pts)
                events.append(event("double-or-nothing", f"{p} rolls {v}: nothing, {pts} lost"))
            else:
                s.scores[p] += pts
                events.append(event("double-or-nothing", f"{p} rolls {v}: double, {2 * pts}"))
        elif play.card == DO_OR_DIE:
            v = st.got[p][0]
            if v == 1:
                s.scores[target] = 0
                events.append(event("do-or-die", f"1: {target}'s score falls to zero"))
            else:
                events.append(event("do-or-die", f"{v}: {target}'s score stands"))
        else:
            mine, theirs = sum(st.got[p]), sum(st.got[target])
            if theirs <= mine:
                self._sub(s, target, 1000)
                s.scores[p] += 1000
                events.append(event("collateral", f"{target} {theirs} against {p} {mine}: "
                                    f"1,000 points go from {target} to {p}"))
            else:
                events.append(event("collateral", f"{target} {theirs} beats {p} {mine}"))

    def _resolve_battle(self, s: DiceocalypseState, st: Stage, events: list[Event]) -> None:
        for q in self.players:
            a, b = st.got[q]
            one, doubles = 1 in (a, b), a == b
            if a == b == 1:
                one, doubles = {"doubles": (False, True), "one": (True, False),
                                "nothing": (False, False)}[self.options.double_ones]
            if one:
                s.lose_turn[q] = True
                events.append(event("bz-lose", f"{q} rolls {a} {b}: loses the next turn"))
            elif doubles and q == st.initiator and st.points and not st.blocked:
                s.scores[q] += st.points
                events.append(event("bz-double", f"{q} rolls {a} {b}: this turn's "
                                    f"{st.points} are doubled"))
            elif doubles and q == st.initiator and st.blocked:
                events.append(event("bz-double", f"{q} rolls {a} {b}: an Act of War card or "
                                    "a double score already took effect this turn; no double"))
            elif doubles:
                s.double_next[q] = True
                events.append(event("bz-double", f"{q} rolls {a} {b}: next turn doubled"))

    def _immunity(self, s: DiceocalypseState, call: Immunity, events: list[Event]) -> None:
        p = call.player
        if not s.immunity[p]:
            raise IllegalCall(f"{call}: {p} has already used the Immunity card")
        st = s.stage
        if st is not None and st.kind == "card" and st.play and st.play.target == p \
                and not st.got:
            st.play.cancelled = True
            s.stage = None
            s.immunity[p] = False
            events.append(event("immunity", f"{p} is immune: {st.play.name()} is useless"))
            self._continue(s, events)
            return
        if st is not None:
            raise IllegalCall(f"{call}: {self._waiting(s)}")
        for play in (s.turn.card if s.turn else None, s.upcoming_card):
            if play is None or play.cancelled:
                continue
            if play.target == p or (play.card == BLOODSHED and play.player != p
                                    and p not in play.immune):
                s.immunity[p] = False
                if play.card == BLOODSHED:
                    play.immune.append(p)
                else:
                    play.cancelled = True
                events.append(event("immunity", f"{p} is immune to {play.name()}"))
                return
        raise IllegalCall(f"{call}: no Act of War card is being played against {p}")

    # -- special dice --------------------------------------------------------------------------

    def _special(self, s: DiceocalypseState, call: SpecialRoll, events: list[Event]) -> None:
        p, die = call.player, call.die
        if not self.special_dice:
            raise IllegalCall(f"{call}: the special dice are only used with 3 or more players"
                              if len(self.players) < 3 else f"{call}: special dice are off")
        if s.phase != "play":
            raise IllegalCall(f"{call}: no special die now; "
                              + ("the order of play is not settled" if s.phase == "order"
                                 else "the dice-ocalypse has begun"))
        holder = s.zombie if die == "Zombie" else s.left_behind
        if holder != p:
            raise IllegalCall(f"{call}: {holder or 'nobody'} holds the {die} die")
        if s.turn is not None:
            raise IllegalCall(f"{call}: the {die} die is rolled before a turn, not during "
                              f"{s.turn.player}'s turn")
        cards = [q for q in self.players if s.lose_turn[q] or s.double_next[q]]
        if cards:
            raise IllegalCall(f"{call}: Battle Zone cards are still in play "
                              f"({', '.join(cards)})")
        if s.upcoming_card is not None:
            raise IllegalCall(f"{call}: an Act of War is in progress ({s.upcoming_card.name()})")
        v = call.value
        if die == "Zombie":
            if p == s.current:
                raise IllegalCall(f"{call}: the Zombie die infects another player; {p} is next")
            if s.zombie_rolled:
                raise IllegalCall(f"{call}: the Zombie die was already rolled before this turn")
            target = s.current
            if v == 6 and self.options.zombie_six == "reroll":
                events.append(event("zombie", f"Zombie 6: {p} rolls it again"))
                return
            s.zombie, s.zombie_rolled = target, True
            if v == 6 and self.options.zombie_six == "lose-turn":
                events.append(event("zombie", f"Zombie 6: all of {target}'s dice are infected; "
                                    f"{target} loses the turn and takes the Zombie die"))
                self._advance(s, events)
                return
            s.infection = min(v, 5)
            events.append(event("zombie", f"Zombie {v}: {target} rolls {6 - s.infection} dice "
                                f"this turn and takes the Zombie die"))
            return
        if s.left_behind_rolled:
            raise IllegalCall(f"{call}: the Left Behind die was already rolled before this turn")
        if s.zombie_rolled:
            raise IllegalCall(f"{call}: the Zombie die was already rolled before this turn; "
                              "roll the Left Behind die first")
        cycle = self._seats_from(s.current)
        if self.options.left_behind_counts == "others":
            cycle = [q for q in cycle if q != p]
        skipped = [cycle[i % len(cycle)] for i in range(v)]
        s.left_behind, s.left_behind_rolled = skipped[0], True
        s.current = cycle[v % len(cycle)]
        events.append(event("left-behind", f"Left Behind {v}: skips {', '.join(skipped)}; "
                            f"{s.current}'s turn; {skipped[0]} takes the die"))

    # -- reading the game ----------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.state.phase == "over"

    def prompt(self) -> Prompt:
        """Dice the game waits for first (a roll-off, a card's or a Battle Zone's dice), else the
        turn: roll, keep scoring dice, then roll again or bank."""
        s = self.state
        if s.phase == "over":
            return Prompt("over", text=f"{s.winner} wins")
        if s.stage is not None:
            who = tuple(q for q in self.players if q in s.stage.need)
            what = {"order": "roll for the order of play", "card": "roll for the card",
                    "battle": "roll for the Battle Zone", "clash": "roll for the clash",
                    "tiebreak": "roll to break the tie"}[s.stage.kind]
            return Prompt(s.phase, who, roll=True, rollers=who,
                          text=f"{', '.join(who)}: {what}")
        t = s.turn
        if t is None:
            return Prompt(s.phase, (s.current,), roll=True, rollers=(s.current,),
                          text=f"{s.current}: roll {6 - s.infection} dice")
        if t.roll is not None:
            return Prompt(s.phase, (t.player,), text=f"{t.player}: keep scoring dice")
        return Prompt(s.phase, (t.player,), roll=True, rollers=(t.player,),
                      text=f"{t.player}: roll {t.available} dice or bank {t.points}")

    def placings(self) -> Placings:
        """By score; the winner first once the game is over."""
        s = self.state
        return rank_by(self.players, s.scores, [s.winner] if s.winner else [])

    def standings(self) -> Standings:
        s = self.state
        rows = []
        for q in self.players:
            notes = []
            if s.turn is not None and s.turn.player == q:
                notes.append(f"turn {s.turn.points}")
            if s.lose_turn[q]:
                notes.append("loses next turn")
            if s.double_next[q]:
                notes.append("next turn doubled")
            if s.zombie == q:
                notes.append("Zombie die")
            if s.left_behind == q:
                notes.append("Left Behind die")
            if q in s.diced:
                notes.append("diced")
            rows.append((q, str(s.scores[q]), str(len(s.cards[q])),
                         "yes" if s.immunity[q] else "no", ", ".join(notes)))
        note = ""
        if s.phase == "final":
            note = f"Dice-ocalypse: beat {s.final_mark} set by {s.final_leader}"
        return Standings(("player", "score", "cards", "immunity", "notes"), tuple(rows),
                         s.winner, self.is_over, note)

    card_kind = "Act of War card"

    def results(self) -> tuple[PlayerResult, ...]:
        """Scores (the Die-structor ranked first), the winner, and the Act of War cards each
        player has played (every player starts with one of each)."""
        s = self.state
        first = [i for i, q in enumerate(self.players) if q == s.winner]
        ranks = rank_by_score([s.scores[q] for q in self.players], first)
        return tuple(PlayerResult(q, float(s.scores[q]), ranks[i], q == s.winner, None, None,
                                  tuple(c for c in CARDS if c not in s.cards[q]))
                     for i, q in enumerate(self.players))

    def check_invariants(self) -> None:
        s = self.state
        for q in self.players:
            if not self.options.scores_below_zero:
                assert s.scores[q] >= 0, f"{q} has a negative score {s.scores[q]}"
            assert len(set(s.cards[q])) == len(s.cards[q]), f"{q} holds a card twice"
            assert set(s.cards[q]) <= set(CARDS), f"{q} holds an unknown card"
        in_play = [c for c in (s.turn.card if s.turn else None, s.upcoming_card,
                               s.last.card if s.last else None) if c is not None]
        if s.stage is not None:
            in_play += s.stage.clash
        for c in in_play:
            if c.cancelled:
                continue
            assert c.card not in s.cards[c.player], f"{c.name()} is in play and in hand"
        if s.turn is not None:
            assert 0 < s.turn.available <= 6 and s.turn.dice <= 6
        for holder in (s.zombie, s.left_behind):
            assert holder is None or holder in self.players
        assert s.phase != "over" or s.winner is not None

    # -- calls a screen or a simulation may offer ----------------------------------------------

    def _is_legal(self, call: Call) -> bool:
        try:
            self._apply(copy.deepcopy(self.state), call, None)
        except IllegalCall:
            return False
        return True

    def _candidate_calls(self, rolls: bool) -> list[Call]:
        """Every kind of call that might be legal now; rolls only as sorted dice if asked."""
        s = self.state
        if s.phase == "over":
            return []
        out: list[Call] = []
        roll_needs: dict[str, int] = {}
        if s.stage is not None:
            roll_needs = dict(s.stage.need)
        elif s.turn is None:
            roll_needs = {s.current: 6 - s.infection}
        elif s.turn.roll is None:
            roll_needs = {s.turn.player: s.turn.available}
        if rolls:  # any values are as legal as any others: check one roll per roller
            for q, n in roll_needs.items():
                if self._is_legal(Roll(q, (2,) * n)):
                    out += [Roll(q, v) for v in _multisets(n)]
        if s.turn is not None and s.turn.roll is not None:
            out += [Keep(s.turn.player, o.dice) for o in keep_options(s.turn.roll, self.key)]
        if s.turn is not None and s.turn.roll is None:
            out.append(Bank(s.turn.player))
        for q in self.players:
            out.append(Immunity(q))
            for card in s.cards[q]:
                for together in (False, True):
                    if card in TARGETED:
                        out += [PlayCard(q, card, r, together) for r in self.players if r != q]
                    else:
                        out.append(PlayCard(q, card, None, together))
            if s.stage is not None and s.stage.kind == "clash":
                out += [Pick(q, c.player) for c in s.stage.clash]
            if q in (s.zombie, s.left_behind):
                for v in range(1, 7):
                    out += [SpecialRoll(q, "Zombie", v), SpecialRoll(q, "Left Behind", v)]
        return out

    def legal_calls(self) -> list[Call]:
        """Every legal call now; rolls are listed once per set of values, in sorted order."""
        calls = self._candidate_calls(rolls=True)
        return [c for c in calls if isinstance(c, Roll) or self._is_legal(c)]

    def random_call(self, rng: random.Random) -> Call:
        """A plausible call with real random dice; keeps well and banks early so games end."""
        s = self.state
        if s.phase == "over":
            raise IllegalCall(f"no call is possible in {self.title} now: the game is over")
        if rng.random() < 0.12:
            extras = [c for c in self._candidate_calls(rolls=False)
                      if not isinstance(c, Keep | Bank) and self._is_legal(c)]
            if extras:
                return rng.choice(extras)

        def dice(n: int) -> tuple[int, ...]:
            return tuple(rng.randint(1, 6) for _ in range(n))

        if s.stage is not None:
            q = rng.choice(sorted(s.stage.need))
            return Roll(q, dice(s.stage.need[q]))
        t = s.turn
        if t is None:
            return Roll(s.current, dice(6 - s.infection))
        if t.roll is not None:
            options = keep_options(t.roll, self.key)
            choice = options[0] if rng.random() < 0.75 else rng.choice(options)
            return Keep(t.player, choice.dice)
        need = 0 if s.on_board[t.player] else self.options.opening_minimum
        if t.points >= need and (t.points >= rng.choice((250, 400, 600)) or t.available <= 2):
            return Bank(t.player)
        return Roll(t.player, dice(t.available))

    @classmethod
    def random_setup(cls, rng: random.Random) -> Setup:
        """A short test game: 2-6 players, a target of 1,500 to 2,500 and random house rules.

        The low target (and Battle Zone at half of it) exists only so random play finishes
        within a few hundred calls; real games use the defaults.
        """
        n = rng.randint(cls.min_players, cls.max_players)
        target = rng.choice((1500, 2000, 2500))
        options = {
            "scoring-key": rng.choice(key_names()),
            "target": target,
            "battle-zone-at": target // 2,
            "card-minimum": rng.choice((300, 1000)),
            "opening-minimum": rng.choice((300, 1000)),
            "win-threshold": rng.choice(("over", "reach")),
            "battle-zone": rng.choice(("once-per-player", "every-time", "off")),
            "double-ones": rng.choice(("doubles", "one", "nothing")),
            "zombie-six": rng.choice(("lose-turn", "reroll", "one-die")),
            "infected-hot-dice": rng.choice(("infected", "six")),
            "left-behind-counts": rng.choice(("everyone", "others")),
        }
        return Setup(cls.name, tuple(f"P{i + 1}" for i in range(n)), options,
                     rng.randrange(2**31))


def _multisets(n: int) -> list[tuple[int, ...]]:
    """Every sorted roll of ``n`` dice (462 for six)."""
    if n == 0:
        return [()]
    out = []
    for rest in _multisets(n - 1):
        out += [(*rest, v) for v in range(rest[-1] if rest else 1, 7)]
    return out


GAME = Diceocalypse
