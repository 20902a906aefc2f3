"""Dice Forge's table screen: reserves and glory, rolled faces by touch or camera, the
sanctuary, forge and feat flows offering only what the engine allows, the module boards."""

from __future__ import annotations

from typing import Any

GAME = "dice-forge"
MODULES = ("none", "titans", "goddess")


def setup_options(players: tuple[str, ...] | list[str]) -> dict[str, Any]:
    """Options the start screen could offer for Dice Forge: the module (default none).

    The start screen does not show these yet; the table screen offers the module choice
    itself before the first call (see docs/app-dice-forge.md)."""
    del players
    return {"module": list(MODULES)}


def make_screen(app: Any, session: Any) -> Any:
    from companion.games.dice_forge.screen import DiceForgeScreen

    return DiceForgeScreen(app, session)
