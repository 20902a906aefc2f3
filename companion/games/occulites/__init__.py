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

    screen = OcculitesScreen(app, session)
    screen.zones = roll_zones(getattr(app, "board_zones", ()), screen.players)
    return screen


Rect = tuple[float, float, float, float]


def roll_zones(zones: Any, players: list[str]) -> dict[str, Rect] | None:
    """Each player's line-up area from the calibration profile's ``roll`` zones (seat N = the
    N-th player), as the rectangle around its outline; None unless every seat has one, so a
    half-marked table falls back to reading line-ups as rows."""
    from calibration.zones import ROLL_AREA

    areas = {z.seat: z.polygon for z in zones if z.space.casefold() == ROLL_AREA}
    if not players or any(i + 1 not in areas for i in range(len(players))):
        return None
    out: dict[str, Rect] = {}
    for i, player in enumerate(players):
        xs = [p[0] for p in areas[i + 1]]
        ys = [p[1] for p in areas[i + 1]]
        out[player] = (min(xs), min(ys), max(xs), max(ys))
    return out


__all__ = ["GAME", "make_screen"]
