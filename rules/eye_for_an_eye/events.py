"""The kinds of event Eye for an Eye's calls make (:attr:`rules.Event.kind`), one name each.

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
    "action", "attack", "attack-pending", "card", "dispute", "face", "heal",
    "hit", "knockout", "match-over", "move", "parry", "ready",
    "round-over", "round-start", "starting-areas", "tie-break",
]
#: Every kind, as the game class declares them (``Game.event_kinds``).
EVENT_KINDS: frozenset[str] = frozenset(get_args(EventKind))


def event(kind: EventKind, text: str, data: Mapping[str, Any] | None = None) -> Event:
    """An event of this game: ``kind``, what a player would read, plain values for the UI."""
    return Event(kind, text, dict(data) if data is not None else {})
