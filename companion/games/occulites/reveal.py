"""The reveal at the table: the round's six cards stepped through one by one, each card's
outcome as the engine's reveal events told it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from companion.games.occulites.adapter import SlotRead
from rules import Event
from rules.occulites.events import EventKind

#: Events that close a round or the game: said once the six cards are stepped through.
#: What the table says once the reveal is over.
AFTER: tuple[EventKind, ...] = ("round-over", "game-over")
#: What a card's reveal brings that the table does not list under the card.
NOT_UNDER_A_CARD: tuple[EventKind, ...] = (*AFTER, "share-turn", "round", "creature",
                                           "reshuffle")
CARD: EventKind = "card"


@dataclass(frozen=True)
class Outcome:
    """One card's outcome as the table shows it."""

    number: int
    text: str
    points: int
    winner: str | None
    discoverers: tuple[str, ...]


@dataclass
class Resolving:
    """The reveal being stepped through, card by card."""

    round: int
    step: int
    lineups: dict[str, tuple[SlotRead, ...]]
    cards: list[str]
    outcomes: list[Outcome]
    extra: dict[int, list[str]]
    after: str


def resolving_from(events: Sequence[Event], round_no: int,
                   lineups: dict[str, tuple[SlotRead, ...]]) -> Resolving:
    """The reveal's events (one "card" event a card, what else happened to it after it) as
    the table steps through them, from the first card; ``lineups`` as they were revealed."""
    cards = [e for e in events if e.kind == CARD]
    extra: dict[int, list[str]] = {}
    number = 0
    for e in events:
        if e.kind == CARD:
            number = int(e.data.get("number", 0))
        elif number and e.kind not in NOT_UNDER_A_CARD:
            extra.setdefault(number, []).append(e.text)
    after = [e.text for e in events if e.kind in AFTER]
    return Resolving(
        round_no, 1, lineups,
        [str(e.data.get("card", "")) for e in cards],
        [Outcome(int(e.data.get("number", 0)), e.text, int(e.data.get("points", 0)),
                 _text_or_none(e.data.get("winner")),
                 tuple(str(p) for p in _listed(e.data.get("discoverers"))))
         for e in cards],
        extra, ". ".join(after))


def _text_or_none(value: object) -> str | None:
    return value if isinstance(value, str) and value else None


def _listed(value: object) -> list[object]:
    return list(value) if isinstance(value, list | tuple) else []


__all__ = ["Outcome", "Resolving", "resolving_from"]
