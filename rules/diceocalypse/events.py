"""The kinds of event Dice-ocalypse's calls make (:attr:`rules.Event.kind`), one name each.
How kinds are declared and checked: :class:`rules.Event`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, get_args

from rules.core import Event

EventKind = Literal[
    "bank", "battle-zone", "bloodshed", "bust", "bz-double", "bz-lose",
    "card", "card-back", "card-spent", "card-void", "clash", "collateral",
    "dice-ocalypse", "diced", "do-or-die", "double-or-nothing", "double-turn", "first",
    "hot-dice", "immunity", "keep", "left-behind", "lose-turn", "next-turn",
    "prove-it", "reroll", "roll", "stage-roll", "tie", "winner",
    "zombie",
]
#: Every kind, as the game class declares them (``Game.event_kinds``).
EVENT_KINDS: frozenset[str] = frozenset(get_args(EventKind))


def event(kind: EventKind, text: str, data: Mapping[str, Any] | None = None) -> Event:
    return Event(kind, text, dict(data) if data is not None else {})
