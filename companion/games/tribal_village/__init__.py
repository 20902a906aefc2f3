"""Tribal Village at the table: cards entered by tap, tricks settled and explained, scores kept.

Kivy is imported only when a table is made, so listing the games stays cheap.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.contract import GamePlugin, Host, StartOption, TableGame, no_buttons, no_voice

if TYPE_CHECKING:
    from companion.session import TableSession

GAME = "tribal-village"
TITLE = "Tribal Village"
BUTTONS = no_buttons(TITLE)


def make_table(host: Host, session: TableSession[Any]) -> TableGame:
    from companion.games.table import ScreenTable
    from companion.games.tribal_village.screen import TribalVillageScreen

    return ScreenTable(TribalVillageScreen(host, session, name=f"game-{GAME}"), BUTTONS)


OPTIONS = (
    StartOption("hands", "Hands", ((None, "3 (the rulebook)"),
                                   *((n, str(n)) for n in (1, 2, 4, 5)))),
    StartOption("lucky_gretin", "Lucky Gretin", ((False, "off"), (True, "on"))),
    StartOption("alliance_mode", "Teams", ((False, "off"), (True, "on (4 or 6 players)"))),
    StartOption("new_alliances_each_hand", "Allies", ((False, "kept all game"),
                                                      (True, "new each hand"))),
    StartOption("tachydus_discard", "Tachydus", ((None, "discard into the Village"),
                                                 ("out", "discard out of the hand"))),
)

PLUGIN = GamePlugin(GAME, TITLE, BUTTONS, make_table, options=OPTIONS, voice=no_voice(TITLE),
                    loads=("companion.games.tribal_village.screen",))

__all__ = ["GAME", "PLUGIN"]
