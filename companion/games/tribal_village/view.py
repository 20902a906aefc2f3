"""What the Tribal Village screen draws (:class:`TribalVillageView`), as plain data: the title, the
prompt, the verdict, each player's row, and the choices as blocks of buttons (:class:`Block` of
:class:`Choice`, each known by its key: ``"tribe:Hydris"``, ``"value:3"``, ``"net:Ana"``...).
A player's name comes on its own (the screen stresses it), never inside markup."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

#: Rows of choices kept for play and decisions; the setup keeps one more per row of players.
PLAY_ROWS = 4
#: Keys the screen answers itself (the standings dialog, leaving the game).
SCREEN_KEYS = ("over:standings", "over:bgstats", "over:leave")


def grid_cols(count: int) -> int:
    """Columns for ``count`` buttons of names (players, tribes): one row up to three, then
    rows of two or three, so a 16-character name keeps its room."""
    if count <= 3:
        return max(1, count)
    return 2 if count == 4 else 3


def short_objective(name: str) -> str:
    """An objective as the buttons and rows show it: "Crowded" for "Crowded Village"."""
    return name.removesuffix(" Village")


@dataclass(frozen=True)
class Choice:
    """A button of the choices. ``hot`` (the accent colour) marks the sensible ones, and only
    among those that may be tapped; ``seat`` draws it in that seat's colour (the chosen
    player); ``width`` fixes its width (else it shares the row). An empty key is an empty
    cell that keeps a grid's places."""

    key: str
    text: str = ""
    enabled: bool = True
    hot: bool = False
    selected: bool = False
    font: float = 16
    bold: bool = False
    seat: int | None = None
    width: float | None = None


#: An empty cell of a grid.
FILLER = Choice("")


@dataclass(frozen=True)
class Block:
    """A part of the choices, top to bottom: a ``row`` of buttons (after ``text``, when
    given), a ``grid`` of ``cols`` columns, a ``note`` saying what the choices below are for
    (with any buttons that go back or decline beside it), or a ``filler`` taking room."""

    kind: Literal["row", "grid", "note", "filler"]
    choices: tuple[Choice, ...] = ()
    cols: int = 1
    text: str = ""


@dataclass(frozen=True)
class PlayerView:
    """One player's row on the right: the name (stressed by the screen) and the objective
    (short, "" before one is chosen), the counts, the card played in this trick (or "to
    play"), the points; ``current`` while it is their turn."""

    player: str
    objective: str
    detail: str
    played: str
    to_play: bool
    score: str
    under: str
    current: bool


@dataclass(frozen=True)
class TribalVillageView:
    """Everything the Tribal Village screen draws."""

    title: str
    allies: str
    prompt: str
    verdict: str
    refusal: str  # the engine's reason, shown instead of the verdict
    notice: str  # what the app said (Undid: ...), above the verdict
    players: tuple[PlayerView, ...]
    blocks: tuple[Block, ...]
    #: A question's buttons beside the players' names (the Hunting Net), by player.
    beside: dict[str, Choice]
    setup: bool  # the setup's choices fill from the top, play's from the bottom
    rows: int  # rows of choices kept (the box's height never changes within a stage)


__all__ = ["FILLER", "PLAY_ROWS", "SCREEN_KEYS", "Block", "Choice", "PlayerView",
           "TribalVillageView", "grid_cols", "short_objective"]
