"""Eye for an Eye: the real-time arena game (its rulings: docs/rules/eye-for-an-eye.md).

>>> import rules
>>> game = rules.new_game("eye-for-an-eye", ["Ana", "Ben"])
>>> [e.kind for e in game.apply("Grubic: Spear Thrust 3 on Hydris")]
['attack-pending']
>>> [e.text for e in game.apply("Riparian: Parry 2")]
['Riparian cancels 2 of 3 hits', "1 hit on Riparian: 1 to Ana's cup"]
"""

from rules.eye_for_an_eye.characters import (
    ICONS,
    Character,
    characters,
    load_character_file,
    register_character,
)
from rules.eye_for_an_eye.game import GAME, EyeForAnEye, EyeOptions, PendingView, SeatView
from rules.eye_for_an_eye.scoring import RoundRow, points_table, rank_round

__all__ = [
    "GAME",
    "ICONS",
    "Character",
    "EyeForAnEye",
    "EyeOptions",
    "PendingView",
    "RoundRow",
    "SeatView",
    "characters",
    "load_character_file",
    "points_table",
    "rank_round",
    "register_character",
]
