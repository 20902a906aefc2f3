"""Dice Forge with Rebellion at the table: reserves and glory, rolled faces by touch or camera,
the sanctuary, forge and feat flows offering only what the engine allows, the module boards.

Kivy is imported only when a table is made, so listing the games stays cheap.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.contract import GamePlugin, Host, StartOption, TableGame, no_buttons, no_voice

if TYPE_CHECKING:
    from companion.session import TableSession

GAME = "dice-forge"
TITLE = "Dice Forge"
BUTTONS = no_buttons(TITLE)


def make_table(host: Host, session: TableSession[Any]) -> TableGame:
    from companion.games.dice_forge.screen import DiceForgeScreen
    from companion.games.table import ScreenTable

    return ScreenTable(DiceForgeScreen(host, session, name=f"game-{GAME}"), BUTTONS)


#: The base game's other feats, in the six slots no module holds (so they go with any module):
#: the Tenacious Boar, Cerberus, the Sentinel, Typhon, Triton and the Cyclops.
OTHER_BASE_CARDS = {"M4": "boar", "M5": "cerberus", "M7": "sentinel", "M8": "typhon",
                    "F5": "triton", "F7": "cyclops"}

OPTIONS = (
    StartOption("module", "Module", ((None, "none"), ("titans", "Titans"),
                                     ("goddess", "Goddess"))),
    StartOption("rounds", "Rounds", ((None, "the rulebook's (9, 10, 9)"),
                                     *((n, str(n)) for n in range(1, 11)))),
    StartOption("tiebreak", "Ties", ((None, "shared victory"),
                                     (True, "broken (forged faces...)"))),
    StartOption("cards", "Feats", ((None, "the recommended set"),
                                   (OTHER_BASE_CARDS, "six base-game others"))),
)

PLUGIN = GamePlugin(GAME, TITLE, BUTTONS, make_table, options=OPTIONS, voice=no_voice(TITLE),
                    loads=("companion.games.dice_forge.screen",))

__all__ = ["GAME", "PLUGIN"]
