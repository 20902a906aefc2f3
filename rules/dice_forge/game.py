"""Dice Forge with Rebellion as a :class:`rules.core.Game`: setup, calls, turn, end and score."""

from __future__ import annotations

import copy
import pickle
import random
from collections.abc import Mapping, Sequence
from typing import Any

from rules.core import (
    Call,
    Deal,
    DealChoice,
    Event,
    Game,
    IllegalCall,
    Placings,
    PlayerResult,
    Prompt,
    RulesError,
    Setup,
    Standings,
    rank_by,
    rank_by_score,
    tidy_call,
    to_plain,
)
from rules.dice_forge import data as D
from rules.dice_forge.calls import (
    Buy,
    Choose,
    EndTurn,
    ExtraAction,
    Forge,
    GoldTo,
    Pass,
    Perform,
    Rolled,
    SanctuaryRemoved,
    Use,
    parse_call,
)
from rules.dice_forge.events import EVENT_KINDS, event
from rules.dice_forge.state import SLOTS, DiceForgeOptions, Player, State, Step, card, card_setup
from rules.dice_forge.table import NOTHING, Table, buy_options, card_key, titan_glory

ROUNDS = {2: 9, 3: 10, 4: 9}
_CARD_NAMES: dict[str, str] = {str(c["name"]).casefold(): str(c["name"])
                               for c in D.load("cards")["cards"].values()}
STARTING_GOLD = (3, 2, 1, 0)
SANCTUARY_KEYS = [str(k) for k in D.sanctuary()]


def feat_payment(p: Player, sun: int, moon: int, ancient: int) -> tuple[int, int, int] | str:
    """How ``p`` pays ``sun`` + ``moon`` using ``ancient`` ancient shards: (sun, moon, ancient)
    taken, or the reason it cannot pay."""
    if ancient > p.ancient:
        return f"{p.name} has {p.ancient} ancient shards, not {ancient}"
    if ancient > sun + moon:
        return f"the cost is {sun} sun + {moon} moon; {ancient} ancient shards is more than that"
    have_sun, have_moon = p.sun + p.scepter_sun, p.moon + p.scepter_moon
    short_sun = max(0, sun - have_sun)
    short_moon = max(0, moon - have_moon)
    if ancient < short_sun + short_moon:
        return (f"{p.name} has {have_sun} sun, {have_moon} moon and pays {ancient} ancient; "
                f"the cost is {sun} sun + {moon} moon")
    use_s = min(sun, short_sun + max(0, ancient - short_sun - short_moon))
    use_m = ancient - use_s
    return sun - use_s, moon - use_m, ancient


def min_ancient(p: Player, sun: int, moon: int) -> int | None:
    """The fewest ancient shards ``p`` needs to pay, None if unaffordable."""
    need = max(0, sun - p.sun - p.scepter_sun) + max(0, moon - p.moon - p.scepter_moon)
    return need if need <= p.ancient else None


def pay_shards(p: Player, sun: int, moon: int, ancient: int) -> None:
    """Pay shards: the Scepter's shards of this turn first, then the reserve."""
    take = min(sun, p.scepter_sun)
    p.scepter_sun -= take
    p.sun -= sun - take
    take = min(moon, p.scepter_moon)
    p.scepter_moon -= take
    p.moon -= moon - take
    p.ancient -= ancient


def slot_cost(slot: str) -> tuple[int, int]:
    s = D.load("cards")["slots"][slot]
    return int(s["sun"]), int(s["moon"])


#: How many steps ``order_matters`` follows at most (forks, choice faces, the Celestial die).
ORDER_BRANCHES = 250


class DiceForge(Game[State]):
    """Dice Forge with the Rebellion expansion (cards, Titans or Goddess module, Celestial die)."""

    name = "dice-forge"
    event_kinds = EVENT_KINDS
    title = "Dice Forge"
    min_players = 2
    max_players = 4
    Options = DiceForgeOptions

    @classmethod
    def variant(cls, options: Mapping[str, Any]) -> str:
        """The Rebellion module played: "Titans module", "Goddess module" ("" for none)."""
        module = options.get("module")
        return f"{module.title()} module" if module in ("titans", "goddess") else ""

    def initial_state(self, rng: random.Random) -> State:
        opts: DiceForgeOptions = self.options
        n = len(self.setup.players)
        faces = D.load("faces")
        start = faces["starting"]["base" if opts.module == "none" else opts.module]
        players = [Player(name, [list(start["die1"]), list(start["die2"])],
                          gold=STARTING_GOLD[i]) for i, name in enumerate(self.setup.players)]
        pools: dict[str, list[str]] = {}
        for key, (_, _, pool) in D.sanctuary().items():
            faces_left = list(pool)
            if n == 2:
                for _ in range(2):
                    faces_left.pop(rng.randrange(len(faces_left)))
            pools[str(key)] = faces_left
        for key, pool in faces["garden"].items():
            pools[key] = list(pool)
        if opts.module != "none":
            for key, pool in faces["forest"].items():
                pools[key] = list(pool)
        slot_cards = card_setup(opts.module, opts.cards)
        stacks: dict[str, list[str]] = {}
        for slot in SLOTS:
            ck = slot_cards[slot]
            colours = card(ck).get("colours")
            stacks[slot] = ([f"{ck}:{c}" for c in colours[:n]] if colours else [ck] * n)
        state = State(rng, opts.module, opts.rounds or ROUNDS[n], players, pools, stacks,
                      slot_cards)
        state.total_faces = self._count_faces(state)
        state.total_cards = sum(len(s) for s in stacks.values())
        table = Table(state)
        self._start_turn(table, only_active=False)
        return state

    @staticmethod
    def _count_faces(s: State) -> int:
        return (sum(len(v) for v in s.pools.values())
                + sum(len(d) + 0 for p in s.players for d in p.dice)
                + sum(len(p.removed) for p in s.players))

    def parse(self, text: str) -> Call:
        """Read a call: any case, number words, "NAME:" optional when one player can say it."""
        raw = tidy_call(text, [w for p in self.setup.players for w in p.split()])
        if ":" not in raw and raw:
            return self.parse_unsaid_speaker(raw, self._parse_said)
        return self._parse_said(raw)

    def _parse_said(self, raw: str) -> Call:
        call = parse_call(raw, self.setup.players)
        if isinstance(call, Choose):
            steps = self.state.steps
            if steps and steps[0].kind == "choose" and steps[0].player == call.player:
                options: list[str] = steps[0].data["options"]
                same = [o for o in options if o.casefold() == call.option.casefold()]
                if same:
                    return Choose(call.player, same[0])
        if isinstance(call, Perform | Use):
            name = _CARD_NAMES.get(call.card.casefold())
            if name is not None:
                if isinstance(call, Perform):
                    return Perform(call.player, name, call.ancient)
                return Use(call.player, name)
        return call

    # -- the turn ------------------------------------------------------------------------

    def _start_turn(self, t: Table, only_active: bool) -> None:
        s = t.s
        s.phase, s.actions, s.extra_used, s.fire = "blessing", 0, False, False
        order = [s.current] if only_active else t.in_turn_order()
        times = 2 if len(s.players) == 2 else 1
        for _ in range(times):
            s.steps.extend(Step("roll2", p.name, {"to": p.name, "why": "turn start"})
                           for p in order)
        t.say("turn", f"Round {s.round}: {s.current.name}'s turn", player=s.current.name,
              round=s.round)

    def _end_turn(self, t: Table) -> None:
        s = t.s
        s.current.used = []
        s.current.scepter_sun = s.current.scepter_moon = 0  # the Scepter's shards do not keep
        if s.fire:
            t.say("fire", f"{s.current.name} takes an extra turn (The Eternal Fire)")
            self._start_turn(t, only_active=True)
            return
        s.active = (s.active + 1) % len(s.players)
        if s.active == 0:
            s.round += 1
            if s.round > s.rounds:
                s.round = s.rounds
                self._finish(t)
                return
        self._start_turn(t, only_active=False)

    def _finish(self, t: Table) -> None:
        s = t.s
        s.phase = "over"
        for p in s.players:
            total = p.glory + sum(int(card(card_key(c))["glory"]) for c in p.cards)
            if s.module == "titans":
                total += titan_glory(p.titan)
            s.final[p.name] = max(0, total)
        t.say("over", "The game is over: " + ", ".join(f"{k} {v}" for k, v in s.final.items()))

    def _can_extra(self, p: Player) -> bool:
        """Whether ``p`` could still pay 2 sun for an extra action this turn: with the shards
        held now, or after using Triton's token, cashing in the Companion or resetting the
        Scepter, which all work "during your own turn" (then the turn waits for 'Extra action'
        or 'End turn' instead of ending by itself)."""
        if min_ancient(p, 2, 0) is not None:
            return True
        cap = p.cap("sun") or 0
        sun = p.sun
        if "triton" in p.tokens:
            sun += 2
        sun += sum(x for x in p.companion if x > 0)
        sun = min(sun, cap)
        sun += p.scepter_sun + sum(2 if x == 6 else 1 for x in p.scepter if x >= 4)
        return sun + p.ancient >= 2

    def _run(self, t: Table) -> None:
        """Resolve every step that needs no answer, then move the turn on as far as it goes."""
        s = t.s
        while True:
            while s.steps and s.steps[0].kind not in ("roll2", "roll1", "celestial", "choose"):
                t.execute(s.steps.pop(0))
            if s.steps or s.phase in ("action", "after", "over"):
                return
            if s.phase in ("blessing", "reinforcing"):
                s.phase = "action"
                return
            # phase "acting": the action has resolved
            if s.fire:
                self._end_turn(t)
                continue
            if not s.extra_used and self._can_extra(s.current):
                s.phase = "after"
                return
            self._end_turn(t)
            if s.phase == "over":
                return

    # -- applying calls ------------------------------------------------------------------

    def _apply(self, state: State, call: Call, at: float | None) -> list[Event]:
        t = Table(state)
        s = state
        what = call.text()
        if isinstance(call, SanctuaryRemoved):
            return self._sanctuary_removed(s, call)
        who = getattr(call, "player", "")
        p = s.player(who)
        if isinstance(call, GoldTo):
            key = call.store.lower()
            if key not in p.cards:
                raise IllegalCall(f"{what}: {p.name} has no Blacksmith's {call.store}")
            if getattr(p, f"{key}_mode") == call.mode:
                raise IllegalCall(f"{what}: {p.name}'s gold already goes that way")
            setattr(p, f"{key}_mode", call.mode)
            t.say("gold-to", f"{p.name}'s gold now goes to the {call.store}: {call.mode}",
                  player=p.name)
            return t.events
        if s.steps:
            step = s.steps[0]
            if step.player != who:
                raise IllegalCall(f"{what}: waiting for {step.player} ({self.waiting_for()})")
            self._answer(t, p, step, call, what)
        else:
            if p is not s.current:
                raise IllegalCall(f"{what}: it is {s.current.name}'s turn "
                                  f"({self.waiting_for()})")
            self._turn_call(t, p, call, what)
        self._run(t)
        return t.events

    # -- what the table deals ------------------------------------------------------------

    @staticmethod
    def _mixed_pools() -> list[int]:
        """The Sanctuary pools whose four faces differ (removing two of them is a choice)."""
        return [k for k, (_, _, faces) in D.sanctuary().items() if len(set(faces)) > 1]

    def _sanctuary_open(self, s: State) -> bool:
        """2 players, and no face has left the Sanctuary yet."""
        return len(s.players) == 2 and all(
            len(s.pools[str(k)]) == len(faces) - 2 for k, (_, _, faces) in D.sanctuary().items())

    def _removed(self, s: State, pool: int) -> list[str]:
        left = list(s.pools[str(pool)])
        out = []
        for face in D.sanctuary()[pool][2]:
            if face in left:
                left.remove(face)
            else:
                out.append(face)
        return out

    def _sanctuary_removed(self, s: State, call: SanctuaryRemoved) -> list[Event]:
        what = call.text()
        if len(s.players) != 2:
            raise IllegalCall(f"{what}: faces are removed from the Sanctuary only with 2 "
                              "players")
        if not self._sanctuary_open(s):
            raise IllegalCall(f"{what}: a face has already been taken from the Sanctuary; say "
                              "what was removed before the first forge")
        named: dict[int, list[str]] = {}
        for face in call.faces:
            pool = next((k for k, (_, _, faces) in D.sanctuary().items() if face in faces), None)
            if pool is None:
                raise IllegalCall(f"{what}: {face} is not a Sanctuary face")
            named.setdefault(pool, []).append(face)
        for pool in self._mixed_pools():
            if pool not in named:
                raise IllegalCall(f"{what}: say the 2 faces removed from pool {pool} ("
                                  + ", ".join(D.sanctuary()[pool][2]) + ")")
        for pool, faces in named.items():
            left = list(D.sanctuary()[pool][2])
            for face in faces:
                if face not in left:
                    raise IllegalCall(f"{what}: pool {pool} has no more {face} faces to remove")
                left.remove(face)
            if len(faces) != 2:
                raise IllegalCall(f"{what}: 2 faces are removed from pool {pool}, not "
                                  f"{len(faces)}")
            s.pools[str(pool)] = left
        return [event("sanctuary", "The table removed " + ", ".join(call.faces)
                      + " from the Sanctuary", {"faces": list(call.faces)})]

    def table_deals(self) -> tuple[Deal, ...]:
        """2 players, before the first forge: the 2 faces removed from each Sanctuary pool
        (reference 1.1: "remove 2 at random from each pool"); only pools of different faces
        ask, as removing two of four identical faces leaves the same pool."""
        s = self.state
        if s.phase == "over" or not self._sanctuary_open(s):
            return ()
        choices = tuple(
            DealChoice(f"Pool {k} ({D.sanctuary()[k][0]} gold)",
                       tuple(dict.fromkeys(D.sanctuary()[k][2])), tuple(self._removed(s, k)),
                       count=2)
            for k in self._mixed_pools())
        return (Deal("sanctuary", "Sanctuary: faces removed for 2 players",
                     "2 players: remove 2 at random from each pool (of the Sanctuary).",
                     choices, prefix="Sanctuary removed: "),)

    def _answer(self, t: Table, p: Player, step: Step, call: Call, what: str) -> None:
        if step.kind in ("roll2", "roll1"):
            if not isinstance(call, Rolled) or call.celestial:
                raise IllegalCall(f"{what}: waiting for {p.name} to roll "
                                  f"{'both dice' if step.kind == 'roll2' else 'one die'}")
            t.s.steps.pop(0)
            t.answer_roll(p, step, call.faces, call.die, what)
        elif step.kind == "celestial":
            if not isinstance(call, Rolled) or not call.celestial:
                raise IllegalCall(f"{what}: waiting for {p.name} to roll the Celestial die "
                                  "('Rolled celestial FACE')")
            t.s.steps.pop(0)
            t.answer_roll(p, step, call.faces, None, what)
        else:
            if not isinstance(call, Choose):
                raise IllegalCall(f"{what}: waiting for {p.name} to choose one of: "
                                  + "; ".join(step.data["options"]))
            if call.option not in step.data["options"]:
                raise IllegalCall(f"{what}: {call.option!r} is not an option; choose one of: "
                                  + "; ".join(step.data["options"]))
            t.s.steps.pop(0)
            t.resolve_choice(p, step, call.option, what)

    def _turn_call(self, t: Table, p: Player, call: Call, what: str) -> None:
        s = t.s
        if isinstance(call, EndTurn | ExtraAction):
            if s.phase != "after":
                raise IllegalCall(f"{what}: {p.name} has not taken an action yet")
            if isinstance(call, EndTurn):
                self._end_turn(t)
                return
            pay = feat_payment(p, 2, 0, call.ancient)
            if isinstance(pay, str):
                raise IllegalCall(f"{what}: an extra action costs 2 sun; {pay}")
            pay_shards(p, *pay)
            s.extra_used = True
            s.phase = "action"
            t.say("extra", f"{p.name} pays for an extra action", player=p.name)
            return
        if isinstance(call, Use) and self._use_anytime(t, p, call, what):
            return
        if s.phase != "action":
            raise IllegalCall(f"{what}: {p.name} has already acted; say 'Extra action' or "
                              "'End turn'")
        if isinstance(call, Use):
            key = self._card_by_name(call.card, what)
            data = card(key)
            if data["kind"] != "reinforcement":
                raise IllegalCall(f"{what}: {data['name']} is not a reinforcement card")
            owned = sum(1 for c in p.cards if card_key(c) == key)
            if not owned:
                raise IllegalCall(f"{what}: {p.name} does not own {data['name']}")
            if s.actions or s.extra_used:
                raise IllegalCall(f"{what}: reinforcements are used before the action")
            if p.used.count(key) >= owned:
                raise IllegalCall(f"{what}: {p.name} has already used {data['name']} this turn")
            if key == "light" and p.purse() < 3:
                raise IllegalCall(f"{what}: The Light costs 3 gold; {p.name} has {p.purse()}")
            p.used.append(key)
            s.phase = "reinforcing"
            t.reinforce(p, key)
            return
        if isinstance(call, Pass):
            s.actions += 1
            s.phase = "acting"
            s.extra_used = True
            t.say("pass", f"{p.name} passes", player=p.name)
            return
        if isinstance(call, Forge):
            self._forge(t, p, call, what)
        elif isinstance(call, Perform):
            self._perform(t, p, call, what)
        else:
            raise IllegalCall(f"{what}: it is {p.name}'s action: Forge, Perform, Use or Pass")
        s.actions += 1
        s.phase = "acting"

    def _anytime_options(self, p: Player, key: str) -> list[str]:
        """What Triton or the Companion can do now in ``p``'s turn (empty: nothing)."""
        s = self.state
        if key == "triton":
            return ["use"] if "triton" in p.tokens else []
        if key == "scepter":
            return ["reset"] if any(x >= 4 for x in p.scepter) else []
        live = [x for x in p.companion if x >= 0]
        if not live:
            return []
        opts = []
        if (s.phase == "action" and not s.actions and not s.extra_used
                and p.used.count("companion") < len(live) and min(live) < 5):
            opts.append("advance")
        return [*opts, "cash in"]

    def _use_anytime(self, t: Table, p: Player, call: Use, what: str) -> bool:
        """Triton's token and the Companion work at any moment of the owner's turn."""
        key = self._card_by_name(call.card, what)
        if key not in ("triton", "companion", "scepter"):
            return False
        opts = self._anytime_options(p, key)
        if not opts:
            raise IllegalCall(f"{what}: {p.name} has no " + {
                "triton": "Triton token", "companion": "Companion in play",
                "scepter": "Scepter track on space 4 or more"}[key])
        if key in ("triton", "scepter"):
            t.reinforce(p, key)
        else:
            t.choose(p, "companion", opts)
        return True

    def _forge(self, t: Table, p: Player, call: Forge, what: str) -> None:
        faces = [b.face for b in call.buys]
        if len(set(faces)) != len(faces):
            raise IllegalCall(f"{what}: one forge cannot buy two identical faces")
        cost = 0
        for b in call.buys:
            price = D.face_cost(b.face)
            if price is None:
                raise IllegalCall(f"{what}: {b.face} is not sold in the Sanctuary")
            if t.pool_of(b.face) not in SANCTUARY_KEYS:
                raise IllegalCall(f"{what}: no {b.face} face is left in the Sanctuary")
            cost += price
        if cost > p.purse():
            raise IllegalCall(f"{what}: costs {cost} gold; {p.name} has {p.purse()}")
        t.spend_gold(p, cost)
        for b in call.buys:
            t.forge(p, b, what)

    def _card_by_name(self, name: str, what: str) -> str:
        for key in dict.fromkeys(self.state.slot_cards.values()):
            if card(key)["name"].casefold() == name.casefold():
                return key
        names = ", ".join(card(k)["name"] for k in dict.fromkeys(self.state.slot_cards.values()))
        raise IllegalCall(f"{what}: no card {name!r} in this game; cards: {names}")

    def _perform(self, t: Table, p: Player, call: Perform, what: str) -> None:
        key = self._card_by_name(call.card, what)
        slot = next(sl for sl, k in t.s.slot_cards.items() if k == key)
        if not t.s.stacks[slot]:
            raise IllegalCall(f"{what}: no {card(key)['name']} card is left")
        sun, moon = slot_cost(slot)
        pay = feat_payment(p, sun, moon, call.ancient)
        if isinstance(pay, str):
            raise IllegalCall(f"{what}: {pay}")
        if call.ancient and t.s.module != "titans":
            raise IllegalCall(f"{what}: ancient shards exist only in the Titans module")
        pay_shards(p, *pay)
        t.take_card(p, slot, move=True, what=what)

    # -- what the table is waiting for ---------------------------------------------------

    def waiting_for(self) -> str:
        """A short sentence saying whose call is awaited and what kind."""
        s = self.state
        if s.phase == "over":
            return "the game is over"
        if s.steps:
            st = s.steps[0]
            return {"roll2": f"{st.player} rolls both dice",
                    "roll1": f"{st.player} rolls one die",
                    "celestial": f"{st.player} rolls the Celestial die",
                    "choose": f"{st.player} chooses"}[st.kind]
        if s.phase == "after":
            return f"{s.current.name}: Extra action or End turn"
        return f"{s.current.name}: Forge, Perform, Use or Pass"

    def prompt(self) -> Prompt:
        """A roll or a choice awaited first (every player rolls at a divine blessing), else
        the active player's action."""
        s = self.state
        text = self.waiting_for()
        if s.phase == "over":
            return Prompt("over", round=s.round, text=text)
        if s.steps:
            roll = s.steps[0].kind != "choose"
            rollers = tuple(dict.fromkeys(st.player for st in s.steps
                                          if st.kind in ("roll2", "roll1", "celestial")))
            return Prompt(s.phase, (s.steps[0].player,), s.round, roll=roll,
                          rollers=rollers if roll else (), text=text)
        return Prompt(s.phase, (s.current.name,), s.round, text=text)

    def placings(self) -> Placings:
        """By score (glory with cards and Titans); the winner, after the tie-break option, first
        once the game is over."""
        winner = self.standings().winner
        first = winner.split(" and ") if winner else []
        return rank_by(self.setup.players, {n: self.score(n) for n in self.setup.players},
                       first)

    def order_matters(self, call: Rolled | str) -> bool:
        """Whether a divine blessing's two faces end differently applied the other way round
        (in the Titans module a face may move the token into a zone whose bonus the other face
        then gets): a screen then asks which die the player applies first. False for a call
        that is not a legal two-face roll now."""
        if isinstance(call, str):
            try:
                parsed = self.parse(call)
            except RulesError:
                return False
        else:
            parsed = call
        if not isinstance(parsed, Rolled) or len(parsed.faces) != 2 or parsed.celestial:
            return False
        ends = []
        budget, seen = [ORDER_BRANCHES], dict[str, frozenset[str]]()
        for faces in (parsed.faces, parsed.faces[::-1]):
            state = copy.deepcopy(self.state)
            try:
                self._apply(state, Rolled(parsed.player, faces), None)
            except RulesError:
                return False
            ends.append(self._outcomes(state, budget, seen))
        return ends[0] != ends[1]

    def _outcomes(self, state: State, budget: list[int],
                  seen: dict[str, frozenset[str]]) -> frozenset[str]:
        """Every end a blessing can reach from ``state`` through what it asks for next (a fork
        of the Goddess' golem, a choice face, the Celestial die), up to the next player's roll
        or the turn's actions: the order of two faces matters only when these ends differ, not
        when the same steps come in another order. What the ends leave out is bookkeeping:
        which side of a die a face was found on (a call names faces, not dice, so a face both
        dice carry may be found on the other one), the faces shown and the blessing's list of
        gains. ``seen`` keeps the ends of states met before (the two orders soon meet);
        ``budget`` bounds the steps tried (past it a state counts as an end as it is)."""
        plain = to_plain(state)
        key = repr(plain)
        if key in seen:
            return seen[key]
        step = state.steps[0] if state.steps else None
        if step is None or step.kind == "roll2" or state.phase == "over" or budget[0] <= 0:
            plain.pop("gained", None)
            plain.pop("shown", None)
            for player in plain["players"]:
                player.pop("up", None)
            seen[key] = frozenset({repr(plain)})
            return seen[key]
        here = copy.copy(self)
        here._state = state  # a view of the same game at this step: only read from
        ends: set[str] = set()
        frozen = pickle.dumps(state, pickle.HIGHEST_PROTOCOL)  # copied back much faster than
        for call in here._legal_calls():                          # copy.deepcopy copies
            budget[0] -= 1
            trial = pickle.loads(frozen)
            try:
                self._apply(trial, call, None)
            except RulesError:
                continue
            ends |= self._outcomes(trial, budget, seen)
        seen[key] = frozenset(ends)
        return seen[key]

    def sanctuary_view(self) -> list[tuple[int, int, list[str]]]:
        """What is left in each Sanctuary pool: (pool, gold cost, faces), pool 1 to 10."""
        return [(pool, cost, list(self.state.pools[str(pool)]))
                for pool, (cost, _, _) in D.sanctuary().items()]

    def feat_view(self) -> list[tuple[str, str, int, int, int]]:
        """Every feat slot: (slot, card name, sun cost, moon cost, cards left)."""
        s = self.state
        return [(slot, card(s.slot_cards[slot])["name"], *slot_cost(slot), len(s.stacks[slot]))
                for slot in SLOTS]

    def legal_purchases(self, name: str | None = None) -> list[Call]:
        """Every single-face forge and every feat the active player can afford now."""
        s = self.state
        p = s.player(name) if name else s.current
        calls: list[Call] = [Forge(p.name, (b,)) for b in
                             buy_options(p, s.pools, SANCTUARY_KEYS, p.purse())]
        for slot in SLOTS:
            if not s.stacks[slot]:
                continue
            need = min_ancient(p, *slot_cost(slot))
            if need is not None and (need == 0 or s.module == "titans"):
                calls.append(Perform(p.name, card(s.slot_cards[slot])["name"], need))
        return calls

    def hammer_calls(self) -> list[Call]:
        """The Hammer owners' switches of where their gold goes (allowed at any time)."""
        if self.state.phase == "over":
            return []
        return [GoldTo(p.name, store.capitalize(),
                       "overflow" if getattr(p, f"{store}_mode") == "all" else "all")
                for p in self.state.players for store in ("hammer", "scepter")
                if store in p.cards]

    def legal_calls(self) -> Sequence[Call]:
        return [*self._legal_calls(), *self.hammer_calls()]

    def _legal_calls(self) -> list[Call]:
        s = self.state
        if s.phase == "over":
            return []
        if s.steps:
            st = s.steps[0]
            p = s.player(st.player)
            if st.kind == "roll2":
                a, b = dict.fromkeys(p.dice[0]), dict.fromkeys(p.dice[1])
                pairs = dict.fromkeys([(x, y) for x in a for y in b]
                                      + [(y, x) for x in a for y in b])
                return [Rolled(p.name, pair) for pair in pairs]
            if st.kind == "roll1":
                dice = [st.data["die"]] if st.data.get("die", -1) >= 0 else [0, 1]
                return [Rolled(p.name, (f,), d + 1) for d in dice
                        for f in dict.fromkeys(p.dice[d])]
            if st.kind == "celestial":
                return [Rolled(p.name, (f,), celestial=True) for f in D.CELESTIAL_FACES]
            return [Choose(p.name, o) for o in st.data["options"]]
        p = s.current
        anytime: list[Call] = [Use(p.name, card(k)["name"])
                               for k in ("triton", "companion", "scepter")
                               if self._anytime_options(p, k)]
        if s.phase == "after":
            calls: list[Call] = [EndTurn(p.name), *anytime]
            need = min_ancient(p, 2, 0)
            if need is not None and (need == 0 or s.module == "titans"):
                calls.append(ExtraAction(p.name, need))
            return calls
        calls = [Pass(p.name), *anytime]
        if not s.actions and not s.extra_used:
            for key in dict.fromkeys(card_key(c) for c in p.cards):
                if key == "companion":
                    continue
                data = card(key)
                owned = sum(1 for c in p.cards if card_key(c) == key)
                if (data["kind"] == "reinforcement" and p.used.count(key) < owned
                        and (key != "light" or p.purse() >= 3)):
                    calls.append(Use(p.name, data["name"]))
        return calls + self.legal_purchases()

    def random_call(self, rng: random.Random) -> Call:
        """A random legal call: real dice rolls, and actions that move the game on."""
        s = self.state
        if s.phase == "over":
            raise IllegalCall("no call is possible in Dice Forge now: the game is over")
        hammers = self.hammer_calls()
        if hammers and rng.random() < 0.03:
            return rng.choice(hammers)
        if s.steps:
            st = s.steps[0]
            p = s.player(st.player)
            if st.kind == "roll2":
                return Rolled(p.name, (rng.choice(p.dice[0]), rng.choice(p.dice[1])))
            if st.kind == "roll1":
                d = st.data.get("die", -1)
                d = d if d >= 0 else rng.randrange(2)
                return Rolled(p.name, (rng.choice(p.dice[d]),), d + 1)
            if st.kind == "celestial":
                return Rolled(p.name, (rng.choice(D.CELESTIAL_FACES),), celestial=True)
            if st.data["tag"] == "twins" and rng.random() < 0.85:
                return Choose(p.name, "keep")  # rerolls are rare, so games move on
            opts = [o for o in st.data["options"] if o != NOTHING] or st.data["options"]
            return Choose(p.name, rng.choice(opts))
        calls = self._legal_calls()
        if s.phase == "after":
            extra = [c for c in calls if isinstance(c, ExtraAction)]
            return extra[0] if extra and rng.random() < 0.3 else calls[0]
        feats = [c for c in calls if isinstance(c, Perform)]
        forges = [c for c in calls if isinstance(c, Forge)]
        uses = [c for c in calls if isinstance(c, Use)]
        roll = rng.random()
        if uses and roll < 0.3:
            return rng.choice(uses)
        if feats and roll < 0.7:
            return rng.choice(feats)
        if forges:
            return self._random_forge(rng, s.current, forges)
        return Pass(s.current.name)

    @staticmethod
    def _random_forge(rng: random.Random, p: Player, forges: list[Forge]) -> Forge:
        """One or two different faces, within the player's gold, over different old faces."""
        first = rng.choice(forges)
        buys: list[Buy] = list(first.buys)
        left = p.purse() - sum(D.face_cost(b.face) or 0 for b in buys)
        for f in forges:
            b = f.buys[0]
            if (b.face != buys[0].face and (D.face_cost(b.face) or 0) <= left
                    and b.over != buys[0].over and b.die != buys[0].die and rng.random() < 0.2):
                buys.append(b)
                break
        return Forge(p.name, tuple(buys))

    # -- end, standings, invariants ------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.state.phase == "over"

    def score(self, name: str) -> int:
        """The score of a player: final once over, else running glory + cards (+ Titans)."""
        s = self.state
        if name in s.final:
            return s.final[name]
        p = s.player(name)
        total = p.glory + sum(int(card(card_key(c))["glory"]) for c in p.cards)
        if s.module == "titans":
            total += titan_glory(p.titan)
        return max(0, total)

    def standings(self) -> Standings:
        s = self.state
        cols = ("player", "gold", "sun", "moon", "ancient", "glory", "cards", "score")
        rows = tuple((p.name, str(p.gold), str(p.sun), str(p.moon), str(p.ancient),
                      str(p.glory), str(len(p.cards)), str(self.score(p.name)))
                     for p in s.players)
        winner = None
        note = f"round {s.round} of {s.rounds}; {self.waiting_for()}"
        if self.is_over:
            tied = self._winners()
            note = "shared victory" if len(tied) > 1 else ""
            if len(tied) == 1 and list(s.final.values()).count(s.final[tied[0]]) > 1:
                note = "tie broken by forged faces, feat cards, shards and gold left, seat"
            winner = " and ".join(tied)
        return Standings(cols, rows, winner, self.is_over, note)

    def _winners(self) -> list[str]:
        """Once over: the most glory; a tie is shared, or broken (option ``tiebreak``) by
        forged faces, feat cards, shards and gold left, then the earlier seat."""
        s = self.state
        best = max(s.final.values())
        tied = [n for n, v in s.final.items() if v == best]
        if len(tied) > 1 and self.options.tiebreak:
            def key(name: str) -> tuple[int, int, int, int]:
                p = s.player(name)
                return (len(p.removed), len(p.cards), p.gold + p.sun + p.moon,
                        -self.setup.players.index(name))
            tied = [max(tied, key=key)]
        return tied

    card_kind = "feat card"

    def results(self) -> tuple[PlayerResult, ...]:
        """Glory (final once over), ranks (a broken tie ranks its winner first), winners and
        the heroic feat cards each player bought, by name."""
        s = self.state
        names = [p.name for p in s.players]
        winners = self._winners() if self.is_over else []
        ranks = rank_by_score([self.score(n) for n in names],
                              [i for i, n in enumerate(names) if n in winners])
        return tuple(PlayerResult(p.name, float(self.score(p.name)), ranks[i], p.name in winners,
                                  cards=tuple(card(card_key(c))["name"] for c in p.cards))
                     for i, p in enumerate(s.players))

    def check_invariants(self) -> None:
        s = self.state
        assert self._count_faces(s) == s.total_faces, "a die face was created or lost"
        cards = sum(len(v) for v in s.stacks.values()) + sum(len(p.cards) for p in s.players)
        assert cards == s.total_cards, "a feat card was created or lost"
        for p in s.players:
            assert all(len(d) == 6 for d in p.dice), f"{p.name}: a die without 6 faces"
            for res in ("gold", "sun", "moon", "ancient"):
                value, cap = getattr(p, res), p.cap(res)
                assert cap is not None and 0 <= value <= cap, f"{p.name}: {res} {value}"
            assert p.glory >= 0
            assert 1 <= p.titan <= 31 and 1 <= p.golem <= 36
            assert p.hammer <= 30 * sum(1 for c in p.cards if c == "hammer")
            assert all(0 <= x <= 6 for x in p.scepter)
            assert p.scepter_sun >= 0 and p.scepter_moon >= 0
            assert len(p.scepter) <= sum(1 for c in p.cards if c == "scepter")

    @classmethod
    def random_setup(cls, rng: random.Random) -> Setup:
        """2 to 4 players, a random module, and some alternative cards in random slots."""
        n = rng.choice([2, 2, 3, 4])
        module = rng.choice(["none", "titans", "goddess"])
        options: dict[str, object] = {"module": module}
        if n >= 3:  # shorter games so that random play ends within 250 calls
            options["rounds"] = 6 if n == 4 else 8
        base = card_setup(module, {})
        cards: dict[str, str] = {}
        all_cards: dict[str, dict[str, object]] = D.load("cards")["cards"]
        for slot in SLOTS:
            if card(base[slot])["set"] in ("titans", "goddess") or rng.random() < 0.5:
                continue
            choices = [k for k, c in all_cards.items() if c["slot"] == slot
                       and c["implemented"] and c["set"] in ("base", "rebellion")]
            cards[slot] = rng.choice(choices)
        options["cards"] = cards
        return Setup(cls.name, tuple(f"P{i + 1}" for i in range(n)), options,
                     rng.randrange(2**31))
