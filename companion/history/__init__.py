"""Every game remembered: the history of past games, player and dice statistics, export.

Nothing here keeps a game twice: the journal's calls are the record, and everything shown is
derived from them through the rules engine (see :mod:`companion.history.index`). The pieces:

- :class:`History` lists and filters games, with their results (``refresh()`` first);
- :class:`Replayer` steps through one game call by call, forwards and back;
- :func:`statistics` counts per player and per game;
- :class:`RollLog` records each settled camera roll; :func:`assess` judges dice fairness;
- :mod:`companion.history.export` writes CSV and zips of game files
  (:mod:`companion.history.bgstats`: BG Stats' plays, links and file);
  :mod:`companion.history.importing` reads and checks game files and adds them;
- :func:`forget_player` takes a player out of the history;
- :mod:`companion.history.charts` draws the pictures (matplotlib, imported there only).
"""

from companion.history.fairness import FaceShare, Fairness, assess, assess_counts, rolls_needed
from companion.history.forget import ForgetReport, forget_player
from companion.history.index import History
from companion.history.replayer import Replayer, Step
from companion.history.rolls import (
    CONFIDENT,
    FaceCounts,
    Roll,
    RolledDie,
    RollLog,
    RollLogError,
    dice_from_reading,
)
from companion.history.stats import (
    CountStat,
    GameStats,
    PlayerGameStats,
    PlayerStats,
    Statistics,
    Streak,
    statistics,
)
from companion.history.summary import GameSummary, HistoryError, PlayerLine, player_key

__all__ = [
    "CONFIDENT",
    "CountStat",
    "FaceCounts",
    "FaceShare",
    "Fairness",
    "ForgetReport",
    "GameStats",
    "GameSummary",
    "History",
    "HistoryError",
    "PlayerGameStats",
    "PlayerLine",
    "PlayerStats",
    "Replayer",
    "Roll",
    "RollLog",
    "RollLogError",
    "RolledDie",
    "Statistics",
    "Step",
    "Streak",
    "assess",
    "assess_counts",
    "dice_from_reading",
    "forget_player",
    "player_key",
    "rolls_needed",
    "statistics",
]
