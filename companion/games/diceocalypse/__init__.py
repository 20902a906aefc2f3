"""Dice-ocalypse at the table: scores, the roll read by the camera or tapped in, the best keep,
bank or roll on, the Act of War cards and the special dice (see docs/app-diceocalypse.md).

Kivy is imported only when a table is made, so listing the games stays cheap.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.contract import GamePlugin, Host, TableGame
from companion.games.table import no_buttons

if TYPE_CHECKING:
    from companion.session import TableSession

GAME = "dice-ocalypse"
TITLE = "Dice-ocalypse"
BUTTONS = no_buttons(TITLE)


def make_table(host: Host, session: TableSession[Any]) -> TableGame:
    from companion.games.diceocalypse.screen import DiceocalypseScreen
    from companion.games.table import ScreenTable

    return ScreenTable(DiceocalypseScreen(host, session, name=f"game-{GAME}"), BUTTONS)


PLUGIN = GamePlugin(GAME, TITLE, BUTTONS, make_table)

__all__ = ["GAME", "PLUGIN"]
