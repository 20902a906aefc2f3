"""Tribal Village at the table: cards entered by tap, tricks settled and explained, scores kept.

Kivy is imported only when a table is made, so listing the games stays cheap.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.contract import GamePlugin, Host, TableGame
from companion.games.table import no_buttons

if TYPE_CHECKING:
    from companion.session import TableSession

GAME = "tribal-village"
TITLE = "Tribal Village"
BUTTONS = no_buttons(TITLE)


def make_table(host: Host, session: TableSession[Any]) -> TableGame:
    from companion.games.table import ScreenTable
    from companion.games.tribal_village.screen import TribalVillageScreen

    return ScreenTable(TribalVillageScreen(host, session, name=f"game-{GAME}"), BUTTONS)


PLUGIN = GamePlugin(GAME, TITLE, BUTTONS, make_table)

__all__ = ["GAME", "PLUGIN"]
