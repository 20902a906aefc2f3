"""Dice of the Occulites at the table: Tribes, line-ups read by the camera or tapped in, the six
cards resolved one at a time, Share Knowledge as a guided step, scores and the timer.

Kivy is imported only when a table is made, so listing the games stays cheap.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.contract import GamePlugin, Host, StartOption, TableGame, no_buttons, no_voice

if TYPE_CHECKING:
    from companion.session import TableSession

GAME = "occulites"
TITLE = "Dice of the Occulites"
BUTTONS = no_buttons(TITLE)


def make_table(host: Host, session: TableSession[Any]) -> TableGame:
    from companion.games.occulites.screen import OcculitesScreen
    from companion.games.table import ScreenTable

    return ScreenTable(OcculitesScreen(host, session, name=f"game-{GAME}"), BUTTONS)


#: The options, offered in words on the start screen before the game starts (the table
#: screen has no toggles: nothing on it moves once play begins).
OPTIONS = (
    StartOption("rounds", "Rounds", ((None, "5 (the rulebook)"),
                                     *((n, str(n)) for n in (1, 2, 3, 4, 6, 7, 8)))),
    StartOption("timer", "Timer", ((False, "off"), (True, "on"))),  # the rulebook's Timer mode
    StartOption("creatures", "Creatures", ((False, "off"), (True, "Creatures & Predators"))),
    StartOption("lots_of_interests", "Draft", ((False, "off"), (True, "Lots of Interests"))),
    StartOption("conflicted_interests", "Conflicted",
                ((False, "off"), (True, "Conflicted Interests"))),
)

PLUGIN = GamePlugin(GAME, TITLE, BUTTONS, make_table, options=OPTIONS, voice=no_voice(TITLE),
                    loads=("companion.games.occulites.screen",))

__all__ = ["GAME", "PLUGIN"]
