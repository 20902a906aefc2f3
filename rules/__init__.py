"""The games' rules: pure, deterministic engines with no I/O, clock or randomness of their own.

>>> import rules
>>> "eye-for-an-eye" in rules.game_names()
True
"""

from rules.core import (
    Call,
    Entry,
    Event,
    Game,
    IllegalCall,
    InvalidCall,
    PlayerResult,
    RulesError,
    Setup,
    SetupError,
    Standings,
)
from rules.gamefile import Ending, GameFile, GameFileError, format_game_file, parse_game_file
from rules.registry import (
    ReplayError,
    from_setup,
    game_class,
    game_names,
    new_game,
    register,
    replay,
)

__all__ = [
    "Call",
    "Ending",
    "Entry",
    "Event",
    "Game",
    "GameFile",
    "GameFileError",
    "IllegalCall",
    "InvalidCall",
    "PlayerResult",
    "ReplayError",
    "RulesError",
    "Setup",
    "SetupError",
    "Standings",
    "format_game_file",
    "from_setup",
    "game_class",
    "game_names",
    "new_game",
    "parse_game_file",
    "register",
    "replay",
]
