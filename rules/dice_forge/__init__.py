"""Dice Forge with the Rebellion expansion: reserves, forging, feats, Titans and Goddess modules.

>>> import rules
>>> g = rules.new_game("dice-forge", ["Ana", "Ben"], seed=1)
>>> g.waiting_for()
'Ana rolls both dice'
"""

from rules.dice_forge.calls import (
    Buy,
    Choose,
    EndTurn,
    ExtraAction,
    Forge,
    GoldTo,
    Pass,
    Perform,
    Rolled,
    SanctuaryRemoved,
    Use,
)
from rules.dice_forge.data import describe_face, face_info
from rules.dice_forge.game import DiceForge
from rules.dice_forge.state import DiceForgeOptions, Player, State, slot_choices
from rules.dice_forge.table import titan_path

GAME = DiceForge

__all__ = [
    "GAME",
    "Buy",
    "Choose",
    "DiceForge",
    "DiceForgeOptions",
    "EndTurn",
    "ExtraAction",
    "Forge",
    "GoldTo",
    "Pass",
    "Perform",
    "Player",
    "Rolled",
    "SanctuaryRemoved",
    "State",
    "Use",
    "describe_face",
    "face_info",
    "slot_choices",
    "titan_path",
]
