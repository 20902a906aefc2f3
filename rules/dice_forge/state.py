"""The state of a game of Dice Forge: players, pools, stacks, module boards, pending steps."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Literal

from rules.core import SetupError
from rules.dice_forge import data as D

Module = Literal["none", "titans", "goddess"]
SLOTS: tuple[str, ...] = ("M1", "M2", "M3", "M4", "M5", "M6", "M7", "M8",
                          "F1", "F2", "F3", "F4", "F5", "F6", "F7")


@dataclass(frozen=True)
class DiceForgeOptions:
    """How the table plays.

    ``module``: none, titans or goddess (never both). ``cards``: slot -> card key, replacing the
    default set for that slot (module cards cannot be replaced). ``rounds``: override the
    number of rounds (None = by player count: 9, 10, 9). ``tiebreak``: break a tie for the
    most glory by forged faces, then feat cards, then gold + sun + moon left, then the earlier
    seat (BGA's optional rule); off, a tie is a shared victory.
    """

    module: Module = "none"
    cards: dict[str, str] = field(default_factory=dict)
    rounds: int | None = None
    tiebreak: bool = False

    def __post_init__(self) -> None:
        if self.rounds is not None and not 1 <= self.rounds <= 20:
            raise SetupError(f"option rounds={self.rounds}: choose 1 to 20 (or leave it out)")
        chosen = card_setup(self.module, self.cards)
        del chosen


def card(key: str) -> dict[str, Any]:
    """The data of one card by key. Raises :class:`SetupError` for an unknown key."""
    cards: dict[str, dict[str, Any]] = D.load("cards")["cards"]
    if key not in cards:
        raise SetupError(f"unknown card {key!r}; known cards: {', '.join(sorted(cards))}")
    return cards[key]


def card_setup(module: str, overrides: dict[str, str]) -> dict[str, str]:
    """The card of every slot for this module and these overrides, checked.

    Raises :class:`SetupError` for an unknown slot or card, a card in the wrong slot, a card of
    the other module, a module card replaced, or a card whose effect is not yet implemented.
    """
    setups: dict[str, dict[str, str]] = D.load("cards")["setups"]
    chosen = dict(setups["base" if module == "none" else module])
    for slot, key in overrides.items():
        if slot not in SLOTS:
            raise SetupError(f"option cards: unknown slot {slot!r}; slots: {', '.join(SLOTS)}")
        old = card(chosen[slot])
        if old["set"] in ("titans", "goddess") and key != chosen[slot]:
            raise SetupError(f"option cards: slot {slot} holds {old['name']}, a card of the "
                             f"{old['set']} module, which cannot be replaced")
        chosen[slot] = key
    for slot, key in chosen.items():
        data = card(key)
        if data["slot"] != slot:
            raise SetupError(f"option cards: {data['name']} belongs in slot {data['slot']}, "
                             f"not {slot}")
        if data["set"] in ("titans", "goddess") and data["set"] != module:
            raise SetupError(f"option cards: {data['name']} is a card of the {data['set']} "
                             f"module, and this game plays module {module!r} (the two modules "
                             "are never combined)")
        if not data["implemented"]:
            raise SetupError(f"option cards: {data['name']} ({key}) is not yet implemented "
                             "by this companion; choose another card for slot " + slot)
    return chosen


def slot_choices(module: str = "none") -> dict[str, list[tuple[str, str]]]:
    """For a start screen: every feat slot's cards a table may choose, as (key, name), the
    default set first; a slot holding a module card offers only it (it cannot be replaced).
    Choosing one is the option ``cards = {slot = key}``.

    >>> slot_choices()["M5"][0]
    ('ferryman', 'The Ferryman')
    """
    default = card_setup(module, {})
    cards: dict[str, dict[str, Any]] = D.load("cards")["cards"]
    out: dict[str, list[tuple[str, str]]] = {}
    for slot in SLOTS:
        first = default[slot]
        keys = [first]
        if card(first)["set"] not in ("titans", "goddess"):
            keys += [k for k, c in cards.items() if c["slot"] == slot and k != first
                     and c["implemented"] and c["set"] in ("base", "rebellion", module)]
        out[slot] = [(k, str(cards[k]["name"])) for k in keys]
    return out


@dataclass
class Player:
    """One hero: dice, reserves, glory, cards, pawn and module tokens."""

    name: str
    dice: list[list[str]]
    up: list[int] = field(default_factory=lambda: [0, 0])
    gold: int = 0
    sun: int = 0
    moon: int = 0
    ancient: int = 0
    glory: int = 0
    hammer: int = 0
    cards: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    island: int = 0
    titan: int = 16
    golem: int = 1
    feats: list[str] = field(default_factory=list)
    used: list[str] = field(default_factory=list)
    tokens: list[str] = field(default_factory=list)
    hammer_mode: str = "overflow"
    scepter: list[int] = field(default_factory=list)
    scepter_mode: str = "overflow"
    scepter_sun: int = 0
    scepter_moon: int = 0
    companion: list[int] = field(default_factory=list)

    def chests(self) -> int:
        return sum(1 for c in self.cards if c == "chest")

    def cap(self, res: str) -> int | None:
        """Reserve cap of a resource (None: no cap)."""
        if res == "gold":
            return 12 + 4 * self.chests()
        if res in ("sun", "moon"):
            return 6 + 3 * self.chests()
        if res == "ancient":
            return 6
        return None

    def purse(self) -> int:
        """Gold that can be spent: the reserve plus the Scepter tracks."""
        return self.gold + sum(self.scepter)

    def face_up(self, die: int) -> str:
        return self.dice[die][self.up[die]]


@dataclass
class Step:
    """Something still to resolve: a roll or a choice awaited, or an effect to apply."""

    kind: str
    player: str
    data: dict[str, Any] = field(default_factory=dict)


@dataclass
class State:
    """Everything that changes during a game."""

    rng: random.Random
    module: str
    rounds: int
    players: list[Player]
    pools: dict[str, list[str]]
    stacks: dict[str, list[str]]
    slot_cards: dict[str, str]
    active: int = 0
    round: int = 1
    phase: str = "blessing"
    actions: int = 0
    extra_used: bool = False
    fire: bool = False
    steps: list[Step] = field(default_factory=list)
    feats_done: list[str] = field(default_factory=list)
    gained: list[str] = field(default_factory=list)
    shown: list[str] = field(default_factory=list)
    treasures_left: list[str] = field(default_factory=lambda: ["sun", "moon", "glory"])
    halls: dict[str, str] = field(default_factory=dict)
    goddess_first: str = ""
    memory: list[list[Any]] = field(default_factory=list)
    final: dict[str, int] = field(default_factory=dict)
    total_faces: int = 0
    total_cards: int = 0

    def player(self, name: str) -> Player:
        for p in self.players:
            if p.name == name:
                return p
        raise KeyError(name)

    @property
    def current(self) -> Player:
        return self.players[self.active]
