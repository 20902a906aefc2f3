"""Card effects: small functions the engine calls at fixed moments, named from the card data.

The rulebook gives no card texts, so no real card has an effect yet. Each card's TOML entry has
an ``effect`` key; when it names an entry of :data:`EFFECTS`, the engine calls that entry's hooks:

- ``before_allocation(ctx)``: once per round, when the round's cards are final (just before
  the first line-up is taken, after any cards the table flipped), before anyone allocates
  (cards in line-up order).
- ``check_allocation(card, die)``: for every die a line-up puts on the card; return a reason
  string to refuse the line-up ("card text can modify what you are allowed to allocate").
- ``resolve(card, placed)``: replaces the main rules for who discovers the card.
- ``on_win(ctx, outcome)``: for a card won alone, before its Discovery Points are scored
  ("may follow any instructions that apply to the winner ... Once this is done, they then
  receive a number of Discovery Points"). Not called for a Joint Discovery.

Adding a card's effect = write its text in the card's TOML entry, name an effect there, and (if
no existing effect does it) add a small function and an :class:`Effect` entry below. A group can
also assign effects without editing files through the ``card-effects`` option.

The effects shipped here are EXAMPLES to exercise the hooks (house rules), not the real texts.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from rules.core import Event
from rules.occulites.data import CardInfo
from rules.occulites.events import event
from rules.occulites.resolve import CardOutcome, Die, Placed, resolve_card

__all__ = ["EFFECTS", "Effect", "EffectContext"]


class EffectContext:
    """What a hook may read and change: the players' points and dice, for the card in play.

    The engine builds one around its private state copy for each hook call, so a hook's changes
    are undone with the call that caused them.
    """

    def __init__(self, card: CardInfo, players: Sequence[str], points: dict[str, int],
                 dice: Mapping[str, Mapping[str, int]], round_number: int) -> None:
        self.card = card
        self.players = tuple(players)
        self.points = points
        self.dice = dice
        self.round = round_number

    def add_points(self, player: str, amount: int, why: str) -> Event:
        """Give (or with a negative amount take) Discovery Points; returns the event to show."""
        self.points[player] += amount
        verb = "gains" if amount >= 0 else "loses"
        return event("effect-points", f"{self.card.id}: {player} {verb} {abs(amount)} "
                     f"Discovery Point{'s' if abs(amount) != 1 else ''} ({why})",
                     {"card": self.card.id, "player": player, "points": amount})


@dataclass(frozen=True)
class Effect:
    """A card effect: a summary for players, and the hooks it uses (None = not used)."""

    key: str
    summary: str
    before_allocation: Callable[[EffectContext], list[Event]] | None = None
    check_allocation: Callable[[CardInfo, Die], str | None] | None = None
    resolve: Callable[[CardInfo, Sequence[Placed]], CardOutcome] | None = None
    on_win: Callable[[EffectContext, CardOutcome], list[Event]] | None = None


def _lowest_wins(card: CardInfo, placed: Sequence[Placed]) -> CardOutcome:
    return resolve_card(card, placed, lowest=True)


def _winner_bonus(ctx: EffectContext, outcome: CardOutcome) -> list[Event]:
    assert outcome.winner is not None
    return [ctx.add_points(outcome.winner, 1, "winner text")]


def _no_black(card: CardInfo, die: Die) -> str | None:
    return f"black dice may not be allocated to {card.id}" if die.colour == "black" else None


def _trailing_gain(ctx: EffectContext) -> list[Event]:
    low = min(ctx.points[p] for p in ctx.players)
    return [ctx.add_points(p, 1, "fewest points before allocation")
            for p in ctx.players if ctx.points[p] == low]


EFFECTS: dict[str, Effect] = {
    e.key: e
    for e in (
        Effect("lowest-wins", "Example: the LOWEST Research Value discovers this card.",
               resolve=_lowest_wins),
        Effect("winner-bonus-1", "Example: the winner gains 1 extra Discovery Point.",
               on_win=_winner_bonus),
        Effect("no-black", "Example: black dice may not be allocated to this card.",
               check_allocation=_no_black),
        Effect("trailing-gain-1", "Example: before allocation, the player(s) with the fewest "
               "Discovery Points gain 1.", before_allocation=_trailing_gain),
    )
}
