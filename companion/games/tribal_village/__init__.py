"""Tribal Village's table screen: cards entered by tap, tricks settled and explained, scores kept.

Kivy is imported only when the screen is made, so listing the games stays cheap.
"""

from __future__ import annotations

from typing import Any

GAME = "tribal-village"


def make_screen(app: Any, session: Any) -> Any:
    """The Tribal Village table screen for ``session`` (see :mod:`.screen`)."""
    from companion.games.tribal_village.screen import TribalVillageScreen

    return TribalVillageScreen(app, session)
