"""The kinds of event Dice Forge's calls make (:attr:`rules.Event.kind`), one name each.
How kinds are declared and checked: :class:`rules.Event`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, get_args

from rules.core import Event

EventKind = Literal[
    "allegiance", "celestial", "cerberus", "companion", "extra", "feat",
    "fire", "forge", "goddess", "gold-to", "golem", "hammer",
    "lost", "oust", "over", "pass", "roll", "sanctuary",
    "scepter", "steal", "treasure", "turn", "twins", "wind",
    "zone",
]
#: Every kind, as the game class declares them (``Game.event_kinds``).
EVENT_KINDS: frozenset[str] = frozenset(get_args(EventKind))


def event(kind: EventKind, text: str, data: Mapping[str, Any] | None = None) -> Event:
    return Event(kind, text, dict(data) if data is not None else {})
