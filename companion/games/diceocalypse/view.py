"""What the Dice-ocalypse screen draws (:class:`DiceocalypseView`), as plain data: the status line,
the players' tiles, the six die buttons, the lines of news and what to do, the two action
buttons."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

#: How one of the six die buttons looks: ``off`` (no die in this roll), ``empty`` (a die
#: still to enter, or nothing to show), ``value`` (entered), ``doubt`` (the camera is unsure),
#: ``selected`` (chosen for a correction), ``aside`` (the camera saw more dice than are
#: rolled: a tap sets this one aside), and for a roll to keep from: ``chosen`` (kept),
#: ``lit`` (scores), ``dull`` (does not score).
DieLook = Literal["off", "empty", "value", "doubt", "selected", "aside", "chosen", "lit",
                  "dull"]


@dataclass(frozen=True)
class DieView:
    """One of the six die buttons."""

    text: str
    look: DieLook
    enabled: bool


@dataclass(frozen=True)
class ActionView:
    """An action button: taken only when ``legal``; ``main`` is drawn in the accent colour
    (only ever a legal one)."""

    text: str
    legal: bool
    main: bool

    @property
    def lit(self) -> bool:
        return self.legal and self.main


@dataclass(frozen=True)
class PlayerView:
    """One player's tile: score, badges, whether it is lit (their turn, their roll, the
    winner) and whether they are out (diced)."""

    player: str
    score: int
    badges: str
    lit: bool
    out: bool


@dataclass(frozen=True)
class DiceocalypseView:
    """Everything the Dice-ocalypse screen draws."""

    status: str
    info: str
    players: tuple[PlayerView, ...]
    dice: tuple[DieView, ...]
    #: A refused call's reason (first, in bold, the box framed in orange), or "".
    refusal: str
    #: The news and what to do, after the refusal (three lines at most in all).
    lines: tuple[str, ...]
    numbers: bool  # the number pad and Clear can be tapped
    primary: ActionView
    secondary: ActionView
    cards: int  # calls waiting in the Cards & dice dialog
    camera_on: bool
    over: bool


#: No action button (nothing to do on that side).
NO_ACTION = ActionView("", False, False)


__all__ = ["NO_ACTION", "ActionView", "DiceocalypseView", "DieLook", "DieView", "PlayerView"]
