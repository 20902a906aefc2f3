"""The rules at work: resolving faces, feats, module boards and the turn, on a private state.

:class:`Table` wraps one :class:`State` and the list of events of the call being applied.
Effects that need an answer from the table (a roll, a choice) are kept as pending
:class:`Step` objects at the front of ``state.steps``; everything else resolves at once.
"""

from __future__ import annotations

import itertools
from typing import Any

from rules.core import Event, IllegalCall
from rules.dice_forge import data as D
from rules.dice_forge.calls import Buy
from rules.dice_forge.events import EventKind, event
from rules.dice_forge.state import Player, State, Step, card

DECISIONS = ("roll2", "roll1", "celestial", "choose")
NOTHING = "nothing"
CONVERT: dict[str, dict[str, int]] = {"sentinel": {"sun": 2, "moon": 2}, "cyclops": {"gold": 1}}
GARDEN_CARD = {"mirror": "mirror_of_the_abyss", "shield": "shield", "ship": "ship",
               "boar": "boar", "triple": "helmet"}


def _titans() -> dict[int, list[Any]]:
    return {row[0]: row for row in D.load("boards")["titans"]["spaces"]}


def _goddess() -> dict[int, dict[str, Any]]:
    return {s["id"]: s for s in D.load("boards")["goddess"]["space"]}


TITANS = _titans()
GODDESS = _goddess()
TREASURES: dict[str, list[str]] = D.load("boards")["goddess"]["treasures"]
SHIELD: dict[str, dict[str, str]] = D.load("faces")["shield"]
CHAOS: dict[str, dict[str, str]] = D.load("faces")["chaos"]


def card_key(owned: str) -> str:
    """The card key of an owned card ("boar:red" -> "boar")."""
    return owned.split(":")[0]


def is_permanent(face: str) -> bool:
    """Boar and Misfortune faces can never be removed from the die that bears them."""
    return D.face_info(face).kind in ("boar", "misfortune")


def titan_zone(space: int) -> str:
    """The zone of a Titans-board space (rebellion_a ... loyalty_3, or none)."""
    return str(TITANS[space][4])


def titan_glory(space: int) -> int:
    """End-game glory of a Titans-board space (negative on the Rebellion side)."""
    return int(TITANS[space][3])


def titan_path(start: int, toward: str, steps: int) -> list[int]:
    """Spaces entered moving ``steps`` toward "loyalty" or "rebellion" (special paths taken)."""
    col = 2 if toward == "loyalty" else 1
    path, pos = [], start
    for _ in range(steps):
        nxt = int(TITANS[pos][col])
        if nxt == 0:
            break
        pos = nxt
        path.append(pos)
    return path


def buy_options(p: Player, pools: dict[str, list[str]], keys: list[str],
                budget: int | None, discount: int = 0) -> list[Buy]:
    """Every single-face forge from the pools ``keys`` that ``p`` may make within ``budget``."""
    out: list[Buy] = []
    seen: set[str] = set()
    for key in keys:
        for face in pools.get(key, []):
            if face in seen:
                continue
            seen.add(face)
            cost = max(0, (D.face_cost(face) or 0) - discount)
            if budget is not None and cost > budget:
                continue
            for die in (0, 1):
                for old in dict.fromkeys(p.dice[die]):
                    if not is_permanent(old):
                        out.append(Buy(face, die + 1, old))
    return out


def upgrade_options(p: Player, pools: dict[str, list[str]], levels: int) -> list[Buy]:
    """Every free upgrade of one of ``p``'s faces by ``levels`` levels (next non-empty level)."""
    by_level: dict[int, list[str]] = {}
    for pool, (_, level, _) in D.sanctuary().items():
        by_level.setdefault(level, []).append(str(pool))
    out: list[Buy] = []
    for die in (0, 1):
        for old in dict.fromkeys(p.dice[die]):
            lv = D.face_level(old)
            if lv >= 7 or is_permanent(old):
                continue
            for target in range(min(lv + levels, 7), 8):
                faces = [f for k in by_level.get(target, []) for f in pools[k]]
                if faces:
                    out.extend(Buy(f, die + 1, old) for f in dict.fromkeys(faces))
                    break
    return out


def convert_options(parts: D.Parts, rates: dict[str, int]) -> list[str]:
    """Every way to score some of ``parts`` as glory at ``rates`` (glory per unit).

    >>> convert_options((("sun", 1), ("glory", 1)), {"sun": 2})
    ['1 sun + 1 glory', '3 glory']
    """
    ranges = [range(n + 1) if r in rates else range(1) for r, n in parts]
    out: list[str] = []
    for combo in itertools.product(*ranges):
        kept: list[tuple[str, int]] = []
        glory = 0
        for (r, n), k in zip(parts, combo, strict=True):
            if r == "glory":
                glory += n
                continue
            glory += k * rates.get(r, 0)
            if n - k:
                kept.append((r, n - k))
        if glory:
            kept.append(("glory", glory))
        out.append(D.parts_text(tuple(kept)))
    return out


def face_glory_symbol(face: str) -> bool:
    """True if a face shows the glory symbol (shield and Chaos reward A included, as BGA)."""
    info = D.face_info(face)
    return any(r == "glory" for r, _ in info.shows) or info.kind in ("shield", "chaos")


class Table:
    """One call's worth of rules over a private state; collects the events it causes."""

    def __init__(self, state: State) -> None:
        self.s = state
        self.events: list[Event] = []

    # -- small helpers -------------------------------------------------------------------

    def say(self, kind: EventKind, text: str, **data: Any) -> None:
        self.events.append(event(kind, text, data))

    def push(self, *steps: Step) -> None:
        """Put steps at the front, in the order given (they resolve before older ones)."""
        self.s.steps[0:0] = list(steps)

    def owner_of(self, owned: str) -> Player | None:
        for p in self.s.players:
            if owned in p.cards:
                return p
        return None

    def others(self, p: Player) -> list[Player]:
        """Every other player, in turn order after ``p``."""
        i = self.s.players.index(p)
        n = len(self.s.players)
        return [self.s.players[(i + k) % n] for k in range(1, n)]

    def in_turn_order(self) -> list[Player]:
        n = len(self.s.players)
        return [self.s.players[(self.s.active + k) % n] for k in range(n)]

    # -- resources -----------------------------------------------------------------------

    def gain(self, p: Player, res: str, n: int, record: bool = True) -> int:
        """Add (or with ``n`` < 0 take) a resource, respecting caps; returns the change.

        A gain is recorded in ``state.gained`` (what this blessing gave, which shields, Chaos
        faces and The Oracle look at), glory and loyalty included, unless ``record`` is off
        (a bonus of the Titans board rather than of a die face).
        """
        if n == 0:
            return 0
        if res == "loyalty":
            if n > 0:
                self.move_titan(p, "loyalty", n)
                if record:
                    self.s.gained.append(res)
            return n if n > 0 else 0
        if res == "glory":
            old = p.glory
            p.glory = max(0, p.glory + n)
            if record and p.glory > old:
                self.s.gained.append(res)
            return p.glory - old
        before: int = getattr(p, res)
        if n < 0:
            setattr(p, res, max(0, before + n))
            return max(0, before + n) - before
        cap = p.cap(res)
        assert cap is not None
        hammered = 0
        if res == "gold" and p.scepter_mode == "all":
            hammered += self.to_scepter(p, n - hammered)
        if res == "gold" and p.hammer_mode == "all":
            hammered += self.to_hammer(p, n - hammered)
        n -= hammered
        kept = min(n, max(0, cap - before))
        setattr(p, res, before + kept)
        over = n - kept
        if res == "gold" and over:
            over -= self.to_scepter(p, over)
            over -= self.to_hammer(p, over)
        if over:
            self.say("lost", f"{p.name} loses {over} {res} over the cap of {cap}",
                     player=p.name, resource=res, amount=over)
        if res == "ancient":
            self.move_titan(p, "rebellion", n)
        if (kept or hammered) and record:
            self.s.gained.append(res)
        return kept + hammered

    def to_scepter(self, p: Player, gold: int) -> int:
        """Put gold on the Scepter track(s), 6 spaces each; returns the gold put."""
        put = 0
        for i, pos in enumerate(p.scepter):
            add = min(6 - pos, gold - put)
            p.scepter[i] += add
            put += add
        return put

    def spend_gold(self, p: Player, n: int) -> None:
        """Pay gold from the reserve first, then from the Scepter tracks."""
        take = min(n, p.gold)
        p.gold -= take
        n -= take
        for i, pos in enumerate(p.scepter):
            take = min(n, pos)
            p.scepter[i] -= take
            n -= take
        assert n == 0, "spent more gold than the purse holds"

    def to_hammer(self, p: Player, gold: int) -> int:
        """Put gold on the Hammer track(s); score +10 / +15 at each 15 / 30; returns gold put."""
        hammers = sum(1 for c in p.cards if c == "hammer")
        room = 30 * hammers - p.hammer
        put = min(room, gold)
        for _ in range(put):
            p.hammer += 1
            if p.hammer % 15 == 0:
                bonus = 10 if p.hammer % 30 else 15
                p.glory += bonus
                self.say("hammer", f"{p.name}'s Hammer reaches {p.hammer}: +{bonus} glory",
                         player=p.name)
        return put

    def move_titan(self, p: Player, toward: str, n: int) -> None:
        if self.s.module != "titans":
            return
        path = titan_path(p.titan, toward, n)
        if path:
            p.titan = path[-1]
            self.say("allegiance", f"{p.name}'s allegiance token moves toward {toward} to "
                     f"space {p.titan}", player=p.name, path=path)

    def gain_parts(self, p: Player, parts: D.Parts, times: int = 1, own: bool = False,
                   sign: int = 1, convert: str = "", glory_face: bool | None = None) -> None:
        """Gain every part ``times`` over; with ``own``, the Loyalty zone bonus of the face.

        ``convert`` ("sentinel" or "cyclops") first offers to score shards or gold as glory.
        ``glory_face`` says whether the face itself showed glory (converted glory does not
        earn the Loyalty glory bonus).
        """
        if convert and sign > 0 and any(r in CONVERT[convert] for r, _ in parts):
            full = tuple((r, n * times) for r, n in parts)
            self.choose(p, "parts", convert_options(full, CONVERT[convert]), times=1, own=own,
                        sign=1, glory_face=any(r == "glory" for r, _ in parts))
            return
        zone = titan_zone(p.titan)  # the zone when the face is applied, before it moves
        for res, n in parts:
            self.gain(p, res, sign * n * times)
        if own and sign > 0 and self.s.module == "titans":
            if any(r == "gold" for r, _ in parts) and zone.startswith("loyalty"):
                self.gain(p, "gold", 1, record=False)
                extra = 0 if zone == "loyalty_1" else 1
                self.gain(p, "glory", extra, record=False)
                self.say("zone", f"{p.name} gets the {zone} bonus: +1 gold"
                         + (" +1 glory" if extra else ""), player=p.name)
            if glory_face is None:
                glory_face = any(r == "glory" for r, _ in parts)
            if glory_face and zone == "loyalty_3":
                self.gain(p, "glory", 1, record=False)
                self.say("zone", f"{p.name} gets the loyalty_3 glory bonus: +1 glory",
                         player=p.name)

    # -- choices -------------------------------------------------------------------------

    def choose(self, p: Player, tag: str, options: list[str], **ctx: Any) -> None:
        """Wait for ``p`` to choose one of ``options`` (nothing to wait for if there are none)."""
        options = list(dict.fromkeys(options))
        if not options:
            return
        self.push(Step("choose", p.name, {"tag": tag, "options": options, **ctx}))

    def forge_offer(self, p: Player, keys: list[str], *, discount: int = 0, free: bool = False,
                    forced: bool = False, then_minor: bool = False, tag: str = "forge") -> None:
        budget = None if free else p.purse()
        opts = [b.text() for b in buy_options(p, self.s.pools, keys, budget, discount)]
        if not forced:
            opts.append(NOTHING)
        if then_minor and not [o for o in opts if o != NOTHING]:
            self.push(Step("roll1", p.name, {"die": -1, "to": p.name}))
            return
        self.choose(p, tag, opts, discount=discount, free=free, then_minor=then_minor)

    # -- forging -------------------------------------------------------------------------

    def pool_of(self, face: str) -> str | None:
        for key, faces in self.s.pools.items():
            if face in faces:
                return key
        return None

    def forge(self, p: Player, buy: Buy, what: str) -> None:
        """Take ``buy.face`` from its pool and forge it over ``buy.over`` (kept as removed)."""
        key = self.pool_of(buy.face)
        if key is None:
            raise IllegalCall(f"{what}: no {buy.face!r} face is left in the Temple")
        die = p.dice[buy.die - 1]
        if buy.over not in die:
            raise IllegalCall(f"{what}: die {buy.die} of {p.name} has no {buy.over!r} face "
                              f"(it shows {', '.join(die)})")
        if is_permanent(buy.over):
            raise IllegalCall(f"{what}: the {buy.over} face can never be removed")
        self.s.pools[key].remove(buy.face)
        i = die.index(buy.over)
        die[i] = buy.face
        p.up[buy.die - 1] = i
        p.removed.append(buy.over)
        self.say("forge", f"{p.name} forges {buy.face} on die {buy.die} over {buy.over}",
                 player=p.name, face=buy.face, die=buy.die, removed=buy.over)

    # -- blessings -----------------------------------------------------------------------

    def match_dice(self, p: Player, faces: tuple[str, ...], what: str) -> list[int]:
        """Which die shows each named face (the call names them in the order applied)."""
        for order in ([0, 1], [1, 0]):
            if all(f in p.dice[d] for f, d in zip(faces, order, strict=True)):
                return order
        raise IllegalCall(f"{what}: {p.name}'s dice cannot show {' and '.join(faces)} "
                          f"(die 1: {', '.join(p.dice[0])}; die 2: {', '.join(p.dice[1])})")

    def blessing(self, to: Player, faces: list[str], own: bool, sign: int = 1,
                 owner_of_misfortune: Player | None = None, convert: str = "") -> None:
        """Apply two faces as a divine blessing for ``to``: triple, shield and Chaos rules."""
        self.s.gained = []
        kinds = [D.face_info(f).kind for f in faces]
        times = [1, 1]
        if kinds.count("triple") == 1:
            t = kinds.index("triple")
            times[1 - t] = 3
        order = sorted(range(len(faces)), key=lambda i: kinds[i] in ("shield", "chaos"))
        steps: list[Step] = []
        for i in order:
            if kinds[i] == "triple":
                continue
            face = faces[i]
            if (owner_of_misfortune is not None and kinds[i] == "misfortune"):
                steps.append(Step("bearer_reward", to.name, {"face": face, "times": times[i]}))
                continue
            steps.append(Step("apply", to.name, {"face": face, "times": times[i], "own": own,
                                                  "sign": sign, "convert": convert}))
        if (own and sign > 0 and sorted(faces) == ["moon golem", "sun golem"]):
            steps.append(Step("celestial", to.name, {"why": "golem bonus"}))
        self.push(*steps)

    def apply_face(self, p: Player, face: str, times: int, own: bool, sign: int,
                   convert: str = "") -> None:
        """Resolve one face for ``p`` (``sign`` -1: the Minotaur's reversed blessing)."""
        info = D.face_info(face)
        kind = info.kind
        if kind == "gain":
            self.gain_parts(p, info.parts, times, own, sign, convert)
        elif kind == "choice":
            self.choose(p, "parts", [D.parts_text(o) for o in info.options], times=times,
                        own=own, sign=sign, convert=convert)
        elif sign < 0 or kind == "triple":
            return
        elif kind == "mirror":
            opts = [q.face_up(d) for q in self.others(p) for d in (0, 1)]
            if "mirror" in opts:  # BGA: then any visible face may be copied, own included
                opts += [p.face_up(d) for d in (0, 1)]
            opts = [f for f in opts if f != "mirror"]
            self.choose(p, "copy", opts, times=times, own=own)
        elif kind == "ship":
            self.forge_offer(p, [str(k) for k in D.sanctuary()], discount=2 * times)
        elif kind == "golem":
            if self.s.module == "goddess":
                self.push(Step("golem", p.name, {"n": times, "dir": 1}))
        elif kind == "shield":
            spec = SHIELD[info.colour]
            if spec["resource"] in self.s.gained:
                self.gain(p, "glory", 5 * times)
            else:
                self.gain_parts(p, D.parse_parts(spec["reward_b"]), times, own, 1, convert)
        elif kind == "chaos":
            spec = CHAOS[info.colour]
            reward = "reward_a" if spec["resource"] in self.s.gained else "reward_b"
            self.gain_parts(p, D.parse_parts(spec[reward]), times, own)
        elif kind == "boar":
            self.choose(p, "parts", ["1 sun", "1 moon"], times=times, own=False, sign=1)
            owner = self.owner_of(f"boar:{info.colour}")
            if owner is not None:
                self.s.steps.insert(1, Step("choose", owner.name, {
                    "tag": "parts", "options": ["1 sun", "1 moon", "3 glory"], "times": times,
                    "own": False, "sign": 1}))
        elif kind == "misfortune":
            owner = self.owner_of(f"misfortune:{info.colour}")
            self.push(Step("bearer_reward", p.name, {"face": face, "times": times}))
            if owner is not None:
                faces = [p.face_up(0), p.face_up(1)]
                self.s.steps.insert(1, Step("reflect", owner.name, {"faces": faces}))

    def check_roll(self, p: Player, step: Step, faces: tuple[str, ...], die: int | None,
                   what: str) -> list[int]:
        """Check that ``p``'s dice can show ``faces``; the dice (0, 1) showing each face."""
        if step.kind == "roll2":
            if die is not None:
                raise IllegalCall(f"{what}: {p.name} receives a divine blessing; name both "
                                  "faces, 'Rolled FACE, FACE'")
            return self.match_dice(p, faces, what)
        if die is None:
            raise IllegalCall(f"{what}: {p.name} receives a minor blessing; say "
                              "'Rolled FACE on die N'")
        fixed = step.data.get("die", -1)
        if fixed >= 0 and die - 1 != fixed:
            raise IllegalCall(f"{what}: this minor blessing is with die {fixed + 1}, not die "
                              f"{die}")
        if faces[0] not in p.dice[die - 1]:
            raise IllegalCall(f"{what}: die {die} of {p.name} has no {faces[0]!r} face (it "
                              f"shows {', '.join(p.dice[die - 1])})")
        return [die - 1]

    def answer_roll(self, p: Player, step: Step, faces: tuple[str, ...], die: int | None,
                    what: str) -> None:
        """A roll the game waited for: a Twins reroll, an offer to reroll, or apply it."""
        ctx = step.data.get("twins")
        if ctx is not None:
            if ctx["kind"] != "celestial":
                self.check_roll(p, step, faces, die, what)
                assert die is not None
                i = ctx["order"].index(die - 1)
                ctx["faces"][i] = faces[0]
            else:
                ctx["faces"] = [faces[0]]
            self.offer_twins(p, ctx, what)
            return
        receiving = step.kind in ("roll1", "celestial") or (
            step.data.get("mode", "apply") == "apply" and step.data.get("to") == p.name)
        order = [] if step.kind == "celestial" else self.check_roll(p, step, faces, die, what)
        ctx = {"kind": step.kind, "data": step.data, "faces": list(faces), "die": die,
               "order": order, "used": 0}
        if receiving:
            self.offer_twins(p, ctx, what)
        else:
            self.finish_roll(p, ctx, what)

    def twins_left(self, p: Player, used: int) -> bool:
        return used < sum(1 for c in p.cards if c == "twins") and p.purse() >= 3

    def offer_twins(self, p: Player, ctx: dict[str, Any], what: str) -> None:
        """The Twins: before a received roll applies, offer to pay 3 gold to reroll a die."""
        if not self.twins_left(p, ctx["used"]):
            self.finish_roll(p, ctx, what)
            return
        if ctx["kind"] == "celestial":
            opts = ["reroll celestial"]
        else:
            opts = [f"reroll die {d + 1}" for d in sorted(ctx["order"])]
        self.choose(p, "twins", ["keep", *opts], ctx=ctx)

    def finish_roll(self, p: Player, ctx: dict[str, Any], what: str) -> None:
        if ctx["kind"] == "celestial":
            self.celestial(p, ctx["faces"][0])
        else:
            self.roll(p, Step(ctx["kind"], p.name, ctx["data"]), tuple(ctx["faces"]),
                      ctx["die"], what)

    def roll(self, p: Player, step: Step, faces: tuple[str, ...], die: int | None,
             what: str) -> None:
        """Take the faces a blessing showed, turn the dice and resolve per the step's mode."""
        data = step.data
        to = self.s.player(data.get("to", p.name))
        mode = data.get("mode", "apply")
        if step.kind == "roll2":
            order = self.check_roll(p, step, faces, die, what)
            for f, d in zip(faces, order, strict=True):
                p.up[d] = p.dice[d].index(f)
            self.say("roll", f"{p.name} rolls {', '.join(faces)}", player=p.name,
                     faces=list(faces))
            if mode == "show":
                self.s.shown.extend(faces)
                return
            if to is p and mode == "apply" and "cerberus" in p.tokens:
                self.choose(p, "cerberus", ["use Cerberus", NOTHING], faces=list(faces))
            self.blessing(to, list(faces), own=to is p, sign=-1 if mode == "reverse" else 1,
                          convert=data.get("convert", ""))
            return
        self.check_roll(p, step, faces, die, what)
        assert die is not None
        p.up[die - 1] = p.dice[die - 1].index(faces[0])
        self.say("roll", f"{p.name} rolls {faces[0]} on die {die}", player=p.name,
                 faces=list(faces), die=die)
        self.s.gained = []
        after: list[Step] = []
        convert = data.get("convert", "")
        if data.get("sphinx", 0):
            after = [Step("roll1", p.name, {"die": die - 1, "to": p.name, "convert": convert})
                     for _ in range(data["sphinx"])]
        if data.get("oracle"):
            after.insert(0, Step("oracle", p.name))
        self.push(*after)
        if "cerberus" in p.tokens:
            self.choose(p, "cerberus", ["use Cerberus", NOTHING], faces=list(faces))
        self.push(Step("apply", p.name, {"face": faces[0], "times": 1, "own": True,
                                         "sign": 1, "convert": convert}))

    def celestial(self, p: Player, face: str) -> None:
        """Apply a face of the Celestial die."""
        self.say("celestial", f"{p.name} rolls the Celestial die: {face}", player=p.name,
                 face=face)
        if face == "12 gold":
            self.gain(p, "gold", 12)
        elif face == "5 glory":
            self.gain(p, "glory", 5)
        elif face == "3 glory + choice":
            self.gain(p, "glory", 3)
            self.choose(p, "parts", ["3 gold", "1 moon", "1 sun"], times=1, own=False, sign=1)
        elif face == "mirror":
            opts = [q.face_up(d) for q in self.s.players for d in (0, 1)]
            self.choose(p, "copy", [f for f in opts if f != "mirror"], times=1, own=False)
        elif face == "choose face":
            opts = [f"{f} on die {d + 1}" for d in (0, 1) for f in p.dice[d]]
            self.choose(p, "turn", opts)
        elif face == "double upgrade":
            self.choose(p, "upgrade", [b.text() for b in upgrade_options(p, self.s.pools, 2)])

    # -- the Goddess board ---------------------------------------------------------------

    def golem(self, p: Player, n: int, direction: int) -> None:
        if n <= 0:
            return
        if p.golem == 36:
            self.say("golem", f"{p.name}'s golem has reached the Goddess and moves no more",
                     player=p.name)
            return
        space = GODDESS[p.golem]
        nexts: list[int] = space["forward"] if direction > 0 else space["back"]
        if not nexts:
            return
        if len(nexts) > 1:
            self.choose(p, "fork", [f"space {x}" for x in nexts], n=n, dir=direction)
            return
        self.golem_to(p, nexts[0], n, direction)

    def golem_to(self, p: Player, to: int, n: int, direction: int) -> None:
        p.golem = to
        self.say("golem", f"{p.name}'s golem moves to space {to}", player=p.name, space=to)
        self.push(Step("space", p.name, {"space": to}),
                  Step("golem", p.name, {"n": n - 1, "dir": direction}))

    def space_reward(self, p: Player, space: int) -> None:
        reward: str = GODDESS[space]["reward"]
        kind, _, arg = reward.partition(":")
        if kind == "gain":
            self.gain_parts(p, D.parse_parts(arg))
        elif kind == "choose":
            self.choose(p, "parts", arg.split("|"), times=1, own=False, sign=1)
        elif kind == "celestial":
            self.push(*[Step("celestial", p.name, {"why": f"space {space}"})
                        for _ in range(int(arg))])
        elif kind == "forge":
            self.forge_offer(p, [str(k) for k in D.sanctuary()], discount=int(arg))
        elif kind == "steal":
            total = 0
            for q in self.others(p):
                if q.glory >= int(arg):
                    q.glory -= int(arg)
                    total += int(arg)
            self.gain(p, "glory", total)
            self.say("steal", f"{p.name} takes {total} glory from the others", player=p.name)
        elif kind == "treasure":
            key = str(space)
            if key in self.s.halls:
                self.gain_parts(p, D.parse_parts(TREASURES[self.s.halls[key]][1]))
            else:
                self.choose(p, "treasure", [f"{t} treasure" for t in self.s.treasures_left],
                            space=space)
        elif kind == "pay":
            cost, _, gain = arg.partition("=")
            (res, n), = D.parse_parts(cost)
            if (p.purse() if res == "gold" else getattr(p, res)) >= n:
                self.choose(p, "pay", [f"pay {cost} for {gain}", NOTHING])
        elif kind == "per_forged":
            self.gain(p, "glory", len(p.removed))
        elif kind == "goddess":
            self.gain(p, "glory", 15)
            self.say("goddess", f"{p.name}'s golem reaches the Goddess: +15 glory",
                     player=p.name)
            if not self.s.goddess_first:
                self.s.goddess_first = p.name
                self.choose(p, "set1", list(dict.fromkeys(p.dice[0])))

    # -- steps ---------------------------------------------------------------------------

    def execute(self, step: Step) -> None:
        """Resolve one step that needs no answer from the table."""
        p = self.s.player(step.player)
        d = step.data
        if step.kind == "apply":
            self.apply_face(p, d["face"], d["times"], d["own"], d["sign"], d.get("convert", ""))
        elif step.kind == "golem":
            self.golem(p, d["n"], d["dir"])
        elif step.kind == "space":
            self.space_reward(p, d["space"])
        elif step.kind == "feat":
            self.feat_effect(p, d["card"])
        elif step.kind == "bearer_reward":
            self.choose(p, "parts", ["1 ancient", "1 loyalty"], times=d["times"], own=False,
                        sign=1)
        elif step.kind == "reflect":
            bearer_faces: list[str] = d["faces"]
            self.blessing(p, bearer_faces, own=False, owner_of_misfortune=p)
        elif step.kind == "oracle":
            if "ancient" in self.s.gained or "loyalty" in self.s.gained:
                for q in self.others(p):
                    self.move_titan(q, "rebellion", 1)
        elif step.kind == "satyrs":
            self.choose(p, "satyrs", list(self.s.shown), picked=[], pool=list(self.s.shown))
        elif step.kind == "wind":
            self.choose(p, "wind", list(D.RESOURCES))
        else:  # pragma: no cover - a programming error, not a table error
            raise AssertionError(f"unknown step {step.kind!r}")

    def resolve_choice(self, p: Player, step: Step, option: str, what: str) -> None:
        """Apply the option ``p`` chose for the pending choice ``step``."""
        d = step.data
        tag = d["tag"]
        if tag == "parts":
            self.gain_parts(p, D.parse_parts(option), d["times"], d["own"], d["sign"],
                            d.get("convert", ""), d.get("glory_face"))
        elif tag == "cerberus":
            if option == NOTHING:
                return
            p.tokens.remove("cerberus")
            self.say("cerberus", f"{p.name} discards Cerberus to apply the roll again",
                     player=p.name)
            faces: list[str] = d["faces"]
            if len(faces) == 2:
                self.blessing(p, faces, own=True)
            else:
                self.s.gained = []
                self.push(Step("apply", p.name, {"face": faces[0], "times": 1, "own": True,
                                                 "sign": 1}))
        elif tag == "companion":
            self.companion(p, option)
        elif tag == "scepter":
            amount, shard = option.split()
            p.scepter[d["track"]] = 0
            if shard == "sun":
                p.scepter_sun += int(amount)
            else:
                p.scepter_moon += int(amount)
            self.say("scepter", f"{p.name} resets the Scepter for {option} (this turn only)",
                     player=p.name)
        elif tag == "twins":
            ctx = d["ctx"]
            if option == "keep":
                self.finish_roll(p, ctx, what)
                return
            self.spend_gold(p, 3)
            ctx["used"] += 1
            self.say("twins", f"{p.name} pays 3 gold to {option} (The Twins)", player=p.name)
            if ctx["kind"] == "celestial":
                again = Step("celestial", p.name, {"twins": ctx})
            else:
                again = Step("roll1", p.name, {"die": int(option.split()[-1]) - 1,
                                               "twins": ctx})
            self.push(again)
            self.choose(p, "parts", ["1 moon", "1 glory"], times=1, own=False, sign=1)
        elif tag == "copy":
            self.push(Step("apply", p.name, {"face": option, "times": d["times"],
                                             "own": d["own"], "sign": 1}))
        elif tag in ("forge", "place", "upgrade", "trident"):
            if option == NOTHING:
                return
            buy = Buy.from_text(option)
            if tag == "forge" and not d.get("free"):
                cost = max(0, (D.face_cost(buy.face) or 0) - d.get("discount", 0))
                self.spend_gold(p, cost)
            self.forge(p, buy, what)
            if d.get("then_minor"):
                self.push(Step("roll1", p.name, {"die": buy.die - 1, "to": p.name}))
        elif tag == "fork":
            self.golem_to(p, int(option.split()[1]), d["n"], d["dir"])
        elif tag == "treasure":
            token = option.split()[0]
            self.s.treasures_left.remove(token)
            self.s.halls[str(d["space"])] = token
            self.gain_parts(p, D.parse_parts(TREASURES[token][0]))
            self.say("treasure", f"{p.name} takes the {token} treasure on space {d['space']}",
                     player=p.name)
        elif tag == "pay":
            if option == NOTHING:
                return
            cost, _, gain = option[len("pay "):].partition(" for ")
            (res, n), = D.parse_parts(cost)
            if res == "gold":
                self.spend_gold(p, n)
            else:
                self.gain(p, res, -n)
            self.gain_parts(p, D.parse_parts(gain))
        elif tag == "set1":
            p.up[0] = p.dice[0].index(option)
            self.choose(p, "set2", list(dict.fromkeys(p.dice[1])))
        elif tag == "set2":
            p.up[1] = p.dice[1].index(option)
            self.blessing(p, [p.face_up(0), option], own=True)
        elif tag == "turn":
            face, _, die = option.rpartition(" on die ")
            p.up[int(die) - 1] = p.dice[int(die) - 1].index(face)
            self.s.gained = []
            self.push(Step("apply", p.name, {"face": face, "times": 1, "own": True,
                                             "sign": 1}))
        elif tag == "satyrs":
            picked = [*d["picked"], option]
            left = list(d["pool"])
            left.remove(option)
            if len(picked) < 2 and left:
                self.choose(p, "satyrs", left, picked=picked, pool=left)
            elif len(picked) == 2:
                self.blessing(p, picked, own=False)
            else:
                self.push(Step("apply", p.name, {"face": picked[0], "times": 1, "own": False,
                                                 "sign": 1}))
        elif tag == "wind":
            total = sum(n for f in self.s.shown for r, n in self.wind_shows(f) if r == option)
            self.gain(p, option, total)
            self.say("wind", f"{p.name} takes {total} {option} from The Wind", player=p.name)
        elif tag == "give":
            target = self.s.player(option)
            face = d["face"]
            opts = [Buy(face, die + 1, old).text() for die in (0, 1)
                    for old in dict.fromkeys(target.dice[die]) if not is_permanent(old)]
            self.choose(target, "place", opts)
        elif tag == "elder":
            if option != NOTHING:
                self.spend_gold(p, 3)
                self.gain(p, "glory", 4)
        elif tag == "merchant":
            if option == "2 glory":
                self.gain(p, "glory", 2)
            else:
                text, _, using = option.partition(" using ")
                extra = int(using.split()[0]) - 1 if using else 0
                p.used.extend(["merchant"] * extra)
                self.forge(p, Buy.from_text(text), what)
        elif tag == "right_hand":
            n = int(option.split()[1])
            self.spend_gold(p, n)
            self.gain(p, "glory", n)
        elif tag == "first_titan":
            slot = d["slots"][d["options"].index(option)]
            self.take_card(p, slot, move=False, what=what)
        elif tag == "memory":
            side, _, island = option.partition(" on island ")
            self.s.memory.append([p.name, int(island), side])
            placed = [*d["placed"], int(island)]
            if len(placed) < 2:
                self.choose(p, "memory", [o for o in d["options"]
                                          if not o.endswith(f" on island {island}")],
                            placed=placed)
        else:  # pragma: no cover
            raise AssertionError(f"unknown choice {tag!r}")

    @staticmethod
    def wind_shows(face: str) -> D.Parts:
        info = D.face_info(face)
        if info.kind == "chaos":
            return D.parse_parts(CHAOS[info.colour]["reward_b"])
        if info.kind == "shield":
            return D.parse_parts(SHIELD[info.colour]["reward_b"])
        return info.shows

    # -- heroic feats --------------------------------------------------------------------

    def take_card(self, p: Player, slot: str, move: bool, what: str) -> None:
        """Move the pawn (ousting), take the top card, Titans and Memory bonuses, then effect."""
        island = int(D.load("cards")["slots"][slot]["island"])
        ousted: list[Step] = []
        if move and p.island != island:
            for q in self.others(p):
                if q.island == island:
                    q.island = 0
                    self.say("oust", f"{p.name} ousts {q.name} from island {island}",
                             player=p.name, ousted=q.name)
                    for who in (p, q):
                        bears = sum(1 for c in who.cards if c == "great_bear")
                        if bears:
                            self.gain(who, "glory", 3 * bears)
                    ousted.append(Step("roll2", q.name, {"to": q.name, "why": "ousted"}))
            p.island = island
        owned = self.s.stacks[slot].pop(0)
        p.cards.append(owned)
        key = card_key(owned)
        self.say("feat", f"{p.name} performs {card(key)['name']}", player=p.name, card=owned)
        if self.s.module == "titans":
            zone = titan_zone(p.titan)
            if zone.startswith("rebellion"):
                first, again = D.load("boards")["titans"]["rebellion_bonus"][zone]
                bonus = first if key not in self.s.feats_done else (
                    again if key not in p.feats else 0)
                if bonus:
                    self.gain(p, "glory", bonus)
                    self.say("zone", f"{p.name} gets the {zone} bonus: +{bonus} glory",
                             player=p.name)
        if key not in self.s.feats_done:
            self.s.feats_done.append(key)
        if key not in p.feats:
            p.feats.append(key)
        if move:
            for token in [t for t in self.s.memory if t[0] == p.name and t[1] == island]:
                self.s.memory.remove(token)
                self.gain_parts(p, D.parse_parts(token[2]))
        self.push(*ousted, Step("feat", p.name, {"card": owned}))

    def feat_effect(self, p: Player, owned: str) -> None:
        key, _, colour = owned.partition(":")
        forge_from = {"helmet": "triple", "ship": "ship", "mirror_of_the_abyss": "mirror",
                      "shield": "shield", "moon_golem": "moon_golem", "sun_golem": "sun_golem",
                      "chaos": "chaos", "dogged": "dogged"}
        sanctuary = [str(k) for k in D.sanctuary()]
        if key in forge_from:
            self.forge_offer(p, [forge_from[key]], free=True, forced=True, tag="place")
        elif key == "wild_spirits":
            self.gain_parts(p, (("gold", 3), ("moon", 3)))
        elif key == "cancer":
            self.push(*[Step("roll2", p.name, {"to": p.name}) for _ in range(2)])
        elif key == "satyrs":
            self.s.shown = []
            self.push(*[Step("roll2", q.name, {"mode": "show"}) for q in self.others(p)],
                      Step("satyrs", p.name))
        elif key in ("boar", "misfortune"):
            face = f"{colour} {key}"
            if self.pool_of(face) is not None:
                self.choose(p, "give", [q.name for q in self.others(p)], face=face)
        elif key == "typhon":
            self.gain(p, "glory", len(p.removed))
        elif key == "minotaur":
            self.push(*[Step("roll2", q.name, {"mode": "reverse", "to": q.name})
                        for q in self.others(p)])
        elif key == "sphinx":
            self.push(Step("roll1", p.name, {"die": -1, "to": p.name, "sphinx": 3}))
        elif key == "cyclops":
            self.push(Step("roll1", p.name, {"die": -1, "to": p.name, "sphinx": 3,
                                             "convert": "cyclops"}))
        elif key == "sentinel":
            self.push(*[Step("roll2", p.name, {"to": p.name, "convert": "sentinel"})
                        for _ in range(2)])
        elif key in ("cerberus", "triton"):
            p.tokens.append(key)
        elif key == "companion":
            p.companion.append(0)
        elif key == "scepter":
            p.scepter.append(0)
        elif key == "wind":
            self.s.shown = []
            self.push(*[Step("roll2", q.name, {"mode": "show"}) for q in self.in_turn_order()],
                      Step("wind", p.name))
        elif key == "celestial_die":
            self.push(Step("celestial", p.name, {"why": "The Celestial Die"}))
        elif key == "ancestor":
            faces = [f for k in sanctuary for f in self.s.pools[k] if face_glory_symbol(f)]
            if not faces:
                self.push(Step("roll1", p.name, {"die": -1, "to": p.name}))
                return
            cheapest = min(D.face_cost(f) or 0 for f in faces)
            keys = [k for k in sanctuary if D.sanctuary()[int(k)][0] == cheapest]
            opts = [b for b in buy_options(p, self.s.pools, keys, None)
                    if face_glory_symbol(b.face)]
            self.choose(p, "forge", [b.text() for b in opts], free=True, then_minor=True)
        elif key == "mists":
            least = min(q.gold for q in self.s.players)
            losers = [q for q in self.s.players if q.gold == least]
            if losers == [p]:
                return
            total = sum(-self.gain(q, "glory", -5) for q in losers)
            self.gain(p, "glory", total)
        elif key == "eternal_night":
            for q in self.others(p):
                for res in ("moon", "sun"):
                    self.gain(p, res, -self.gain(q, res, -1))
        elif key == "right_hand":
            self.choose(p, "right_hand", [f"spend {n} gold" for n in range(p.purse() + 1)])
        elif key == "first_titan":
            slots = [s for s in ("M1", "M2", "F1", "F2") if self.s.stacks[s]]
            names = [card(card_key(self.s.stacks[s][0]))["name"] for s in slots]
            self.choose(p, "first_titan", names, slots=slots)
        elif key == "goddess":
            self.choose(p, "set1", list(dict.fromkeys(p.dice[0])))
        elif key == "wood_nymph":
            self.gain(p, "gold", 4)
            self.forge_offer(p, sanctuary)
        elif key == "goldsmith":
            self.gain(p, "glory", 2 * len(set(p.cards)))
        elif key == "omniscient":
            self.gain(p, "glory", 2 * sum(face_glory_symbol(f) for die in p.dice for f in die))
        elif key == "abyssal_trident":
            p.gold = 0
            used = {card_key(c) for c in self.s.slot_cards.values()}
            garden = [g for g, c in GARDEN_CARD.items() if c not in used]
            self.forge_offer(p, sanctuary + garden, free=True, forced=True, tag="trident")
        elif key == "eternal_fire":
            self.s.fire = True
        elif key == "left_hand":
            ousted = [q for q in self.in_turn_order() if q.island]
            ousted.sort(key=lambda q: q is not p)
            others = [q for q in ousted if q is not p]
            for q in ousted:
                q.island = 0
                self.say("oust", f"{p.name} ousts {q.name}", player=p.name, ousted=q.name)
                if q is not p:
                    q.glory += 3 * sum(1 for c in q.cards if c == "great_bear")
            if others:
                p.glory += 3 * sum(1 for c in p.cards if c == "great_bear")
            self.push(*[Step("roll2", q.name, {"to": p.name}) for q in ousted])
        elif key == "great_golem":
            self.push(Step("golem", p.name, {"n": 2, "dir": 1}))
        elif key == "time_golem":
            self.push(Step("golem", p.name, {"n": 2, "dir": -1}))
        elif key == "memory":
            spots = [f"{side} on island {i}" for i in range(1, 8)
                     for side in ("2 ancient + 1 moon", "2 loyalty + 1 sun")]
            self.choose(p, "memory", spots, placed=[])

    # -- reinforcements ------------------------------------------------------------------

    def companion(self, p: Player, option: str) -> None:
        """Advance the first live Companion marker, or cash it in for N sun and N glory."""
        i = next(i for i, pos in enumerate(p.companion) if pos >= 0)
        if option == "advance":
            p.used.append("companion")
            p.companion[i] = min(5, p.companion[i] + 1)
            self.say("companion", f"{p.name}'s Companion moves to {p.companion[i]}",
                     player=p.name)
        else:
            n = p.companion[i]
            p.companion[i] = -1
            self.gain(p, "sun", n)
            self.gain(p, "glory", n)
            self.say("companion", f"{p.name} cashes in the Companion: {n} sun and {n} glory",
                     player=p.name)

    def reinforce(self, p: Player, key: str) -> None:
        if key == "silver_hind":
            self.push(Step("roll1", p.name, {"die": -1, "to": p.name}))
        elif key == "oracle":
            self.push(Step("roll1", p.name, {"die": -1, "to": p.name, "oracle": True}))
        elif key == "elder":
            self.choose(p, "elder", ["pay 3 gold for 4 glory", NOTHING] if p.purse() >= 3
                        else [NOTHING])
        elif key == "owl":
            self.choose(p, "parts", ["1 gold", "1 sun", "1 moon"], times=1, own=False, sign=1)
        elif key == "guardian":
            self.choose(p, "parts", ["1 ancient", "1 loyalty"], times=1, own=False, sign=1)
        elif key == "tree":
            self.gain_parts(p, (("glory", 2),) if p.gold >= 8 else (("gold", 3), ("glory", 1)))
        elif key == "merchant":
            # the Merchants not yet used this turn may join to upgrade one face several levels
            spare = sum(1 for c in p.cards if c == "merchant") - p.used.count("merchant")
            opts = ["2 glory", *[b.text() for b in upgrade_options(p, self.s.pools, 1)]]
            for k in range(2, spare + 2):
                opts += [f"{b.text()} using {k} Merchants"
                         for b in upgrade_options(p, self.s.pools, k)]
            self.choose(p, "merchant", opts)
        elif key == "triton":
            p.tokens.remove("triton")
            self.choose(p, "parts", ["2 sun", "2 moon", "6 gold"], times=1, own=False, sign=1)
        elif key == "scepter":
            i = max(range(len(p.scepter)), key=lambda k: p.scepter[k])
            n = 2 if p.scepter[i] == 6 else 1
            self.choose(p, "scepter", [f"{n} sun", f"{n} moon"], track=i)
        elif key == "light":
            self.spend_gold(p, 3)
            opts = [q.face_up(d) for q in self.s.players for d in (0, 1)]
            self.choose(p, "copy", [f for f in opts if f != "mirror"], times=1, own=False)
