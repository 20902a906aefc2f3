"""Dice of the Occulites at the table: Tribes, line-ups read by the camera or tapped in, the six
cards resolved one at a time, Share Knowledge as a guided step, scores and the timer.

Kivy is imported only when a table is made, so listing the games stays cheap.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.contract import GamePlugin, Host, StartOption, TableGame, no_buttons

if TYPE_CHECKING:
    from companion.session import TableSession

GAME = "occulites"
TITLE = "Dice of the Occulites"
BUTTONS = no_buttons(TITLE)


def make_table(host: Host, session: TableSession[Any]) -> TableGame:
    from companion.games.occulites.screen import OcculitesScreen
    from companion.games.table import ScreenTable

    return ScreenTable(OcculitesScreen(host, session, name=f"game-{GAME}"), BUTTONS)


OPTIONS = (
    StartOption("rounds", "Rounds", ((None, "5 (the rulebook)"),
                                     *((n, str(n)) for n in (1, 2, 3, 4, 6, 7, 8)))),
    StartOption("timer", "Timer mode", ((False, "off"), (True, "on"))),
    StartOption("creatures", "Creatures", ((False, "off"), (True, "on"))),
    StartOption("lots_of_interests", "Lots of Interests", ((False, "off"), (True, "on"))),
    StartOption("conflicted_interests", "Conflicted", ((False, "off"), (True, "on"))),
)

PLUGIN = GamePlugin(GAME, TITLE, BUTTONS, make_table, options=OPTIONS)

__all__ = ["GAME", "PLUGIN"]
