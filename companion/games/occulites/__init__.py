"""Dice of the Occulites' table screen: Tribes, line-ups read by the camera or tapped in, the six
cards resolved one at a time, Share Knowledge as a guided step, scores and the timers.

Kivy is imported only when the screen is made, so listing the games stays cheap.
"""

from __future__ import annotations

from typing import Any

GAME = "occulites"


def make_screen(app: Any, session: Any) -> Any:
    """The table screen for one game of Dice of the Occulites."""
    from companion.games.occulites.screen import OcculitesScreen

    return OcculitesScreen(app, session)


__all__ = ["GAME", "make_screen"]
