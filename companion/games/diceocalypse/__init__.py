"""Dice-ocalypse's table screen and camera adapter (see docs/app-diceocalypse.md).

Kivy is imported only when the screen is made, so listing the games stays cheap.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

GAME = "dice-ocalypse"

#: Targets offered before the first call (and to the start screen, when it asks).
TARGETS = (10000, 5000, 3000, 2000, 1000)


def make_screen(app: Any, session: Any) -> Any:
    """The table screen for one game (a kivy Screen with ``refresh(session, events=())``)."""
    from companion.games.diceocalypse.screen import DiceocalypseScreen

    return DiceocalypseScreen(app, session)


def setup_options(players: Sequence[str]) -> dict[str, list[Any]]:
    """Options a start screen may offer for this game, with their choices."""
    from rules.diceocalypse import key_names

    return {"target": list(TARGETS), "scoring-key": key_names()}
