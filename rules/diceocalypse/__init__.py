"""Dice-ocalypse: the rules engine, its scoring keys and the helpers a table screen needs.

>>> import rules
>>> game = rules.new_game("dice-ocalypse", ["Ana", "Ben"])
>>> _ = game.apply("Ana: Roll 5"), game.apply("Ben: Roll 2")
>>> game.state.current
'Ana'
"""

from rules.diceocalypse.calls import (
    BLOODSHED,
    CARDS,
    COLLATERAL_DAMAGE,
    DO_OR_DIE,
    DOUBLE_OR_NOTHING,
    PROVE_IT,
    Bank,
    Immunity,
    Keep,
    Pick,
    PlayCard,
    Roll,
    SpecialRoll,
)
from rules.diceocalypse.game import (
    GAME,
    Diceocalypse,
    DiceocalypseOptions,
    DiceocalypseState,
)
from rules.diceocalypse.scoring import (
    KeepOption,
    ScoringKey,
    best_keep,
    default_key_name,
    is_bust,
    keep_options,
    keep_score,
    key_names,
    scoring_dice,
    scoring_key,
    scoring_mask,
)

__all__ = [
    "BLOODSHED",
    "CARDS",
    "COLLATERAL_DAMAGE",
    "DOUBLE_OR_NOTHING",
    "DO_OR_DIE",
    "GAME",
    "PROVE_IT",
    "Bank",
    "Diceocalypse",
    "DiceocalypseOptions",
    "DiceocalypseState",
    "Immunity",
    "Keep",
    "KeepOption",
    "Pick",
    "PlayCard",
    "Roll",
    "ScoringKey",
    "SpecialRoll",
    "best_keep",
    "default_key_name",
    "is_bust",
    "keep_options",
    "keep_score",
    "key_names",
    "scoring_dice",
    "scoring_key",
    "scoring_mask",
]
