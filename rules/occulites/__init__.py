"""Dice of the Occulites: line up six coloured dice on six cards, discover, share knowledge.

Short name ``"occulites"``. See docs/rules/occulites.md for the rulings and the card-effect hooks.

>>> import rules
>>> game = rules.new_game("occulites", ["Ana", "Ben"], seed=1)
>>> _ = game.apply("Ana: Tribe Palaudis"); _ = game.apply("Ben: Tribe Hydris")
>>> game.state.round, game.phase
(1, 'allocate')
"""

from rules.occulites.data import CARDS, COLOURS, SUPPLY, TRIBE_NAMES, TRIBES, CardInfo, TribeInfo
from rules.occulites.effects import EFFECTS, Effect, EffectContext
from rules.occulites.game import (
    POOL,
    ChooseTribe,
    FlipCards,
    FlipTribe,
    LineUp,
    OcculitesGame,
    OcculitesOptions,
    OcculitesState,
    Pass,
    Reveal,
    Share,
    TakeDie,
    TimerCue,
    effect_of,
    resolve_lineups,
    share_cost,
    timer_cues,
)
from rules.occulites.resolve import CardOutcome, Die, Placed, resolve_card

GAME = OcculitesGame

__all__ = [
    "CARDS",
    "COLOURS",
    "EFFECTS",
    "GAME",
    "POOL",
    "SUPPLY",
    "TRIBES",
    "TRIBE_NAMES",
    "CardInfo",
    "CardOutcome",
    "ChooseTribe",
    "Die",
    "Effect",
    "EffectContext",
    "FlipCards",
    "FlipTribe",
    "LineUp",
    "OcculitesGame",
    "OcculitesOptions",
    "OcculitesState",
    "Pass",
    "Placed",
    "Reveal",
    "Share",
    "TakeDie",
    "TimerCue",
    "TribeInfo",
    "effect_of",
    "resolve_card",
    "resolve_lineups",
    "share_cost",
    "timer_cues",
]
