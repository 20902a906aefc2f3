"""The kinds of event Dice-ocalypse's calls make (:attr:`rules.Event.kind`), one name each.

Events are made only through :func:`event` (typed: mypy refuses a kind not declared here), and
a reader of them (the companion's models) names the kinds it looks for as :data:`EventKind`,
so a misspelt kind is an error before anything runs. ``tests/rules/test_conformance.py``
checks that random play makes no event of a kind not declared.
"""

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
    """An event of this game: ``kind``, what a player would read, plain values for the UI."""
    return Event(kind, text, dict(data) if data is not None else {})
