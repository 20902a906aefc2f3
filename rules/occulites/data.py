"""The components of Dice of the Occulites, read from the TOML files shipped in ``data/``.

The rulebook lists the dice and card sets but gives no card texts and never says which Tribe
owns which colour: those are decisions kept in the data files, marked provisional there and in
docs/rules/occulites.md.

>>> TRIBES["Hydris"].colour
'blue'
>>> CARDS["Hydris 3"].number, CARDS["Hydris 3"].colour
(3, 'blue')
>>> sum(SUPPLY.values())
48
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from importlib import resources
from typing import Any

__all__ = [
    "CARDS",
    "COLOURS",
    "COMMON_POOL_COLOURS",
    "CREATURE_CARDS",
    "SUPPLY",
    "TIMER_DEFAULTS",
    "TRIBES",
    "TRIBE_NAMES",
    "CardInfo",
    "TribeInfo",
    "card_id",
]

TRIBE_FILES = ("palaudis", "hydris", "floris", "ignis", "nimbus", "silicus", "tundris")


@dataclass(frozen=True)
class CardInfo:
    """One card: its set (a Tribe, "Creatures" or "Predators"), number, colour and effect key.

    ``effect`` names an entry of :data:`rules.occulites.effects.EFFECTS` ("" for none).
    """

    set: str
    number: int
    colour: str
    subject: str
    text: str
    effect: str
    provisional: bool

    @property
    def id(self) -> str:
        """The card's name as said at the table, e.g. ``"Hydris 3"``."""
        return card_id(self.set, self.number)

    @property
    def points(self) -> int:
        """Discovery Points for discovering this card: its card number (rulebook, page 2)."""
        return self.number


@dataclass(frozen=True)
class TribeInfo:
    """One Occulite Tribe: its name, dice colour, the set it comes in and its six cards."""

    name: str
    colour: str
    set: str
    colour_note: str
    cards: tuple[CardInfo, ...]


def card_id(set_name: str, number: int) -> str:
    """The text id of a card: ``card_id("Hydris", 3) == "Hydris 3"``."""
    return f"{set_name} {number}"


def _read(name: str) -> dict[str, Any]:
    text = resources.files("rules.occulites").joinpath("data", f"{name}.toml").read_text("utf-8")
    return tomllib.loads(text)


def _card(raw: dict[str, Any], set_name: str, colour: str, source: str) -> CardInfo:
    number = raw.get("number")
    if not isinstance(number, int) or not 1 <= number <= 6:
        raise ValueError(f"{source}: card number {number!r} must be 1 to 6")
    for key in ("subject", "text", "effect"):
        if not isinstance(raw.get(key), str):
            raise ValueError(f"{source}: card {number} needs a string {key!r}")
    return CardInfo(set_name, number, colour, raw["subject"], raw["text"], raw["effect"],
                    bool(raw.get("provisional", True)))


def _load() -> tuple[dict[str, int], tuple[str, ...], dict[str, TribeInfo], dict[str, CardInfo],
                     tuple[str, ...], dict[str, float]]:
    dice = _read("dice")
    supply = {str(k): int(v) for k, v in dice["supply"].items()}
    common = tuple(str(c) for c in dice["common_pool"])
    timer = {str(k): float(v) for k, v in dice["timer"].items()}
    tribes: dict[str, TribeInfo] = {}
    cards: dict[str, CardInfo] = {}
    for file in TRIBE_FILES:
        raw = _read(file)
        name, colour = str(raw["tribe"]), str(raw["colour"])
        if colour not in supply:
            raise ValueError(f"{file}.toml: colour {colour!r} is not a dice colour")
        tribe_cards = tuple(_card(c, name, colour, f"{file}.toml") for c in raw["cards"])
        if sorted(c.number for c in tribe_cards) != [1, 2, 3, 4, 5, 6]:
            raise ValueError(f"{file}.toml: needs exactly the cards numbered 1 to 6")
        tribes[name] = TribeInfo(name, colour, str(raw["set"]), str(raw["colour_note"]),
                                 tuple(sorted(tribe_cards, key=lambda c: c.number)))
        cards.update((c.id, c) for c in tribe_cards)
    creatures: list[str] = []
    for raw_card in _read("creatures")["cards"]:
        card = _card(raw_card, str(raw_card["set"]), str(raw_card["colour"]), "creatures.toml")
        if card.id in cards:
            raise ValueError(f"creatures.toml: card {card.id!r} is listed twice")
        cards[card.id] = card
        creatures.append(card.id)
    return supply, common, tribes, cards, tuple(creatures), timer


SUPPLY, COMMON_POOL_COLOURS, TRIBES, CARDS, CREATURE_CARDS, TIMER_DEFAULTS = _load()
#: Every dice colour, in the rulebook's order.
COLOURS: tuple[str, ...] = tuple(SUPPLY)
#: The seven Tribes, in the rulebook's order.
TRIBE_NAMES: tuple[str, ...] = tuple(TRIBES)
