"""Tribal Village: a trick-taking game of tribes, allies and objectives, over three hands.

The engine settles each trick (:func:`judge_trick` says who wins and why), every tribal ability,
the objectives (provisional data in objectives.toml) and the scores. Cards are entered as calls
("Ana: Palaudis 7"); hands stay hidden, see :mod:`rules.tribal_village.game`.
"""

from rules.tribal_village.calls import (
    Chaos,
    ChaosReturn,
    Discard,
    FirstLead,
    KeepObjective,
    Manipulate,
    NetAnswer,
    PickObjective,
    Play,
    Reveal,
    SetAlliances,
)
from rules.tribal_village.cards import (
    GRETIN,
    TRIBES,
    VALUES,
    Played,
    Verdict,
    ally_of,
    is_on_suit,
    judge_trick,
)
from rules.tribal_village.game import (
    GAME,
    SEATS,
    TribalVillage,
    TribalVillageOptions,
    TribalVillageState,
)
from rules.tribal_village.objectives import OBJECTIVES, Objective, score_objective

__all__ = [
    "GAME",
    "GRETIN",
    "OBJECTIVES",
    "SEATS",
    "TRIBES",
    "VALUES",
    "Chaos",
    "ChaosReturn",
    "Discard",
    "FirstLead",
    "KeepObjective",
    "Manipulate",
    "NetAnswer",
    "Objective",
    "PickObjective",
    "Play",
    "Played",
    "Reveal",
    "SetAlliances",
    "TribalVillage",
    "TribalVillageOptions",
    "TribalVillageState",
    "Verdict",
    "ally_of",
    "is_on_suit",
    "judge_trick",
    "score_objective",
]
