"""Tribal Village cards: the tribes from tribes.toml, card names, alliances and the trick judge.

A card is its name as said at the table: ``"Palaudis 7"`` or ``"Lucky Gretin"``. Tribal cards are
unique (one of each value per tribe); the Lucky Gretins are identical copies, one per player.
:func:`judge_trick` is the pure "who wins this trick and why" a screen shows.
"""

from __future__ import annotations

import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any

from rules.core import read_number

__all__ = [
    "GRETIN",
    "TRIBES",
    "VALUES",
    "Played",
    "Tribe",
    "Verdict",
    "ally_of",
    "card_name",
    "card_value",
    "format_layout",
    "is_on_suit",
    "judge_trick",
    "parse_card",
    "parse_layout",
    "tribe_of",
]


@dataclass(frozen=True)
class Tribe:
    """One tribe: its name, its ability's name and the ability's text."""

    name: str
    ability: str
    text: str


def _load() -> dict[str, Any]:
    text = resources.files(__package__).joinpath("tribes.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)


_DATA = _load()
VALUES: tuple[int, ...] = tuple(int(v) for v in _DATA["values"])
TRIBES: dict[str, Tribe] = {
    t["name"]: Tribe(t["name"], t["ability"], " ".join(t["text"].split())) for t in _DATA["tribe"]
}
GRETIN: str = str(_DATA["gretin"]["name"])
GRETIN_VALUE: int = int(_DATA["gretin"]["value"])
GRETIN_TEXT: str = " ".join(str(_DATA["gretin"]["text"]).split())
LUFTLE_TOKENS: int = int(_DATA["luftle_tokens"])
SILICUS = "Silicus"
_BY_FOLD = {name.casefold(): name for name in TRIBES}


def card_name(tribe: str, value: int) -> str:
    """The card's name as said at the table.

    >>> card_name("Palaudis", 7)
    'Palaudis 7'
    """
    return f"{tribe} {value}"


def tribe_of(card: str) -> str:
    """The tribe of a card, or ``"Lucky Gretin"`` for a Gretin."""
    return GRETIN if card == GRETIN else card.rpartition(" ")[0]


def card_value(card: str) -> int:
    """The printed value of a card (a Gretin's is provisional, see tribes.toml)."""
    return GRETIN_VALUE if card == GRETIN else int(card.rpartition(" ")[2])


def parse_card(text: str) -> str | None:
    """Read ``"palaudis 7"`` or ``"Lucky Gretin"`` in any case; None if it is no card.

    >>> parse_card("palaudis 7"), parse_card("Lucky gretin"), parse_card("Palaudis 9")
    ('Palaudis 7', 'Lucky Gretin', None)
    """
    words = text.split()
    if [w.casefold() for w in words] == [w.casefold() for w in GRETIN.split()]:
        return GRETIN
    if len(words) != 2:
        return None
    tribe = _BY_FOLD.get(words[0].casefold())
    value = read_number(words[1])
    if tribe is None or value is None or value not in VALUES:
        return None
    return card_name(tribe, value)


def parse_layout(text: str) -> list[list[str]] | None:
    """Read an alliance layout, ``"Palaudis+Hydris, Ignis+Boletus, Luftles"``; None if invalid.

    Each group is a pair of allies or one unallied tribe; tribes are canonicalised.
    """
    groups: list[list[str]] = []
    for part in text.split(","):
        names = [n.strip() for n in part.split("+")]
        tribes = [_BY_FOLD.get(n.casefold()) for n in names]
        if not 1 <= len(tribes) <= 2 or any(t is None for t in tribes):
            return None
        groups.append([t for t in tribes if t is not None])
    return groups


def format_layout(layout: Sequence[Sequence[str]]) -> str:
    """The layout as said at the table; pairs first as laid out, unallied tribes last."""
    return ", ".join("+".join(group) for group in layout)


def ally_of(tribe: str, layout: Sequence[Sequence[str]]) -> str | None:
    """The tribe allied to ``tribe`` in the alliance layout, or None if it is unallied."""
    for group in layout:
        if tribe in group and len(group) == 2:
            return group[1] if group[0] == tribe else group[0]
    return None


def is_on_suit(card: str, suit: str | None, layout: Sequence[Sequence[str]]) -> bool:
    """Whether ``card`` is on suit when ``suit`` is the tribe that set the suit.

    On suit: the suit's own tribe, its ally (unless the suit was set by Silicus, which is then
    allied with no one), any Silicus (adaptable: ally to the lead) and any Lucky Gretin (allied
    to all tribes). With no suit set yet, every card is on suit.
    """
    if suit is None or card == GRETIN:
        return True
    tribe = tribe_of(card)
    if tribe in (suit, SILICUS):
        return True
    return suit != SILICUS and ally_of(suit, layout) == tribe


@dataclass
class Played:
    """A card in a trick: who played it, its value as it counts now, and how it came to be so.

    ``modified`` is true when Wild Luftle tokens or the Ignis ability changed its value;
    ``on_suit`` is whether it was on suit when played (Tundris looks at this); ``no_effect`` marks
    a card discarded into the trick by Nimbus, which can never win.
    """

    player: str
    card: str
    value: int
    modified: bool = False
    on_suit: bool = True
    no_effect: bool = False

    def label(self) -> str:
        """The card with its counted value when that differs, e.g. ``Palaudis 6 (as 7)``."""
        base = card_value(self.card)
        return self.card if self.value == base else f"{self.card} (as {self.value})"


@dataclass(frozen=True)
class Verdict:
    """Who wins a trick, with which card, under which suit, and why (a sentence for the screen)."""

    index: int
    player: str
    card: str
    suit: str | None
    reason: str


def _suit_words(suit: str | None, layout: Sequence[Sequence[str]]) -> str:
    if suit is None:
        return "no suit"
    if suit == SILICUS:
        return "suit Silicus, allied with no one"
    ally = ally_of(suit, layout)
    return f"suit {suit}" + (f", allied {ally}" if ally else ", unallied")


def judge_trick(
    cards: Sequence[Played], suit: str | None, layout: Sequence[Sequence[str]]
) -> Verdict:
    """Who wins this trick and why.

    ``cards`` in the order played; ``suit`` is the tribe that set the suit (the lead card's, or
    the first tribal card's after a Lucky Gretin lead); ``layout`` the alliances as they stand.
    The rules, in order: an off-suit Tundris that is strictly the highest card becomes the lead
    (Ferocious); the highest on-suit card wins; a tie goes to the card of the tribe that set the
    suit; then an unmodified card beats a modified one; then (our ruling) the earlier card.
    Raises ValueError for a trick without any card that can win.
    """
    live = [(i, c) for i, c in enumerate(cards) if not c.no_effect]
    if not live:
        raise ValueError("judge_trick: the trick has no card that can win")
    ferocious = ""
    for i, c in live:
        others = [o.value for j, o in live if j != i]
        if (tribe_of(c.card) == "Tundris" and not c.on_suit
                and all(c.value > v for v in others)):
            suit = "Tundris"
            ferocious = (f"{c.player}'s {c.label()} was played off suit but is the highest card, "
                         "so Tundris became the lead suit (Ferocious); ")
            break
    if suit is None:
        i, c = live[0]
        return Verdict(i, c.player, c.card, None,
                       f"{c.player} wins with {c.label()}: only Lucky Gretins were played, "
                       "so the lead card wins")
    on = [(i, c) for i, c in live if is_on_suit(c.card, suit, layout)]
    suit_text = _suit_words(suit, layout)
    top = max(c.value for _, c in on)
    best = [(i, c) for i, c in on if c.value == top]
    if len(best) == 1:
        i, c = best[0]
        return Verdict(i, c.player, c.card, suit,
                       f"{ferocious}{c.player} wins with {c.label()}: the highest on-suit card "
                       f"({suit_text})")
    tied = ", ".join(f"{c.label()} ({c.player})" for _, c in best)
    lead = [(i, c) for i, c in best if tribe_of(c.card) == suit]
    if len(lead) == 1:
        i, c = lead[0]
        return Verdict(i, c.player, c.card, suit,
                       f"{ferocious}{c.player} wins with {c.label()}: tied at {top} with "
                       f"{_others(best, i)}; {suit} set the suit, so its card wins the tie "
                       f"({suit_text})")
    pool = lead or best
    plain = [(i, c) for i, c in pool if not c.modified]
    if len(plain) == 1:
        i, c = plain[0]
        return Verdict(i, c.player, c.card, suit,
                       f"{ferocious}{c.player} wins with {c.label()}: tied at {top} ({tied}); "
                       f"an unmodified card beats a modified one ({suit_text})")
    i, c = (plain or pool)[0]
    return Verdict(i, c.player, c.card, suit,
                   f"{ferocious}{c.player} wins with {c.label()}: tied at {top} ({tied}) and "
                   f"still tied after the lead-tribe and unmodified rules, so the card played "
                   f"first wins (house ruling) ({suit_text})")


def _others(best: Sequence[tuple[int, Played]], winner: int) -> str:
    return ", ".join(f"{c.label()} ({c.player})" for i, c in best if i != winner)
