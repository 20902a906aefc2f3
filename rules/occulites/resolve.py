"""Resolving a line-up table card by card: pure functions a screen can call to explain a round.

The rulebook's main rules (page 2, "Resolving cards"): the die with the highest Research Value
(its pips) wins the card; a draw is a Joint Discovery where everyone in it scores full points and
no winner text applies; among drawn dice, one that matches the card's colour breaks the draw; if
several drawn dice match, the draw is between those players only. Discovery points = card number.

>>> from rules.occulites.data import CARDS
>>> out = resolve_card(CARDS["Hydris 2"], [Placed("Ana", "green", 5), Placed("Ben", "blue", 5)])
>>> out.winner, out.reason
('Ben', 'colour')
>>> out.explanation
'Card 2 (Hydris 2, blue): Ana and Ben draw on 5; only Ben used a blue die, so Ben wins 2 points.'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from rules.occulites.data import CardInfo

__all__ = ["CardOutcome", "Die", "Placed", "Reason", "join_names", "resolve_card"]

Reason = Literal["highest", "colour", "draw", "colour-draw", "nobody"]


def _points(n: int) -> str:
    """Discovery Points in words: "1 point", "2 points"."""
    return f"{n} point{'' if n == 1 else 's'}"


@dataclass(frozen=True)
class Die:
    """One die of a line-up: its colour and the pips showing (its Research Value)."""

    colour: str
    pips: int

    def text(self) -> str:
        return f"{self.colour} {self.pips}"


@dataclass(frozen=True)
class Placed:
    """A die a player allocated to a card, with its Research Value (pips unless a card says)."""

    player: str
    colour: str
    pips: int
    value: int | None = None

    @property
    def research(self) -> int:
        """The Research Value that competes for the card."""
        return self.pips if self.value is None else self.value


@dataclass(frozen=True)
class CardOutcome:
    """Who discovered one card, with how many points each, and why, in words for the screen.

    ``winner`` is set only for a card won alone (its winner text applies and it earns a Share
    Knowledge); ``discoverers`` lists everyone who scores ``points`` (one name, or all in a draw).
    """

    number: int
    card: str
    colour: str
    placed: tuple[Placed, ...]
    winner: str | None
    discoverers: tuple[str, ...]
    points: int
    reason: Reason
    explanation: str


def join_names(names: Sequence[str]) -> str:
    """``["Ana", "Ben", "Cy"]`` -> ``"Ana, Ben and Cy"``."""
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def resolve_card(card: CardInfo, placed: Sequence[Placed], lowest: bool = False) -> CardOutcome:
    """Resolve one card by the main rules; ``lowest`` flips the contest for cards that say so.

    ``placed`` holds the one die each player allocated to this card (players who took part).
    """
    head = f"Card {card.number} ({card.id}, {card.colour})"
    points = card.points
    if not placed:
        return CardOutcome(card.number, card.id, card.colour, (), None, (), points, "nobody",
                           f"{head}: no die was allocated, nobody discovers it.")
    values = [p.research for p in placed]
    best = min(values) if lowest else max(values)
    word = "lowest" if lowest else "highest"
    tied = [p for p in placed if p.research == best]
    others = [p for p in placed if p.research != best]
    rest = ""
    if others:
        rest = "; " + ", ".join(f"{p.player} {p.research}" for p in others)
    if len(tied) == 1:
        who = tied[0].player
        return CardOutcome(card.number, card.id, card.colour, tuple(placed), who, (who,), points,
                           "highest", f"{head}: {who} wins with the {word} {best}{rest}; "
                           f"{who} wins {_points(points)}.")
    names = [p.player for p in tied]
    drawn = f"{head}: {join_names(names)} draw on {best}"
    matching = [p.player for p in tied if p.colour == card.colour]
    if len(matching) == 1:
        who = matching[0]
        return CardOutcome(card.number, card.id, card.colour, tuple(placed), who, (who,), points,
                           "colour", f"{drawn}; only {who} used a {card.colour} die, "
                           f"so {who} wins {_points(points)}.")
    if len(matching) > 1:
        return CardOutcome(card.number, card.id, card.colour, tuple(placed), None,
                           tuple(matching), points, "colour-draw",
                           f"{drawn}; {join_names(matching)} used {card.colour} dice, so the "
                           f"Joint Discovery is theirs: {_points(points)} each.")
    return CardOutcome(card.number, card.id, card.colour, tuple(placed), None, tuple(names),
                       points, "draw",
                       f"{drawn}: a Joint Discovery, {_points(points)} each, no winner text.")
