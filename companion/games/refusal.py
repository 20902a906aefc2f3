"""A refused call's reason without the call itself (no Kivy: the games' models use it)."""

from __future__ import annotations

from typing import Any

from rules import Game, RulesError


def refusal_reason(game: Game[Any], message: str) -> str:
    """The reason of a refused call without the call itself, which the players just made:
    ``"Ana: Bank: Ana's first banked turn must be worth at least 1000; this turn has 50"`` ->
    ``"Ana's first banked turn must be worth at least 1000; this turn has 50"``. A message
    that does not start with a call is returned whole."""
    cut = len(message)
    while (cut := message.rfind(": ", 0, cut)) > 0:
        try:
            game.parse(message[:cut])
        except RulesError:
            continue
        return message[cut + 2:]
    return message


__all__ = ["refusal_reason"]
