"""What the Occulites screen draws (:class:`OcculitesView`), as plain data: the round's cards, each
player's row and dice, the side panel's words and controls. Words to stress come as
:class:`~companion.games.emphasis.Text`; the screen turns them into markup."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from companion.games.emphasis import Text

#: Cards on show in a round, and dice in a line-up.
CARDS = 6
#: The side panel: one a phase, and the reveal stepped through.
Panel = Literal["tribes", "draft", "allocate", "resolving", "share", "over"]
#: How a die slot is framed: the one being entered, one to check, one that won its card.
Frame = Literal["", "selected", "check", "won"]


@dataclass(frozen=True)
class CardView:
    """One of the round's six cards: its lines (the number first), its die colour (None: no
    card), lit while it is the card being resolved."""

    text: Text
    colour: str | None
    lit: bool


@dataclass(frozen=True)
class SlotView:
    """A die of a line-up: its pips (stressed) over its colour's name."""

    text: Text
    colour: str | None
    frame: Frame


@dataclass(frozen=True)
class RowView:
    """One player's row: the header (tap: act for this player; three lines: the name, the
    points, the Tribe and what the player is doing), lit on their turn or card, and the six
    dice of their line-up."""

    player: str
    header: Text
    lit: bool
    slots: tuple[SlotView, ...]


@dataclass(frozen=True)
class Button:
    """A control of the panel: its words, whether it can be tapped, whether it is the panel's
    main action (the accent colour) or selected."""

    text: str = ""
    enabled: bool = True
    main: bool = False
    selected: bool = False


@dataclass(frozen=True)
class OcculitesView:
    """Everything the Occulites screen draws."""

    title: str
    timer: str
    cards: tuple[CardView, ...]
    rows: tuple[RowView, ...]
    message: Text
    panel: Panel
    #: The panel's controls by key: "tribe:<name>", "take:<colour>", "colour:<colour>",
    #: "pips:<n>", "confirm", "clear", "roll", "reveal", "back", "next", "share:<colour>",
    #: "source:<where>", "share-back", "pass".
    controls: dict[str, Button]
    #: Share Knowledge: the colours shown (give or take), else the sources.
    share_colours: bool = True


__all__ = ["CARDS", "Button", "CardView", "Frame", "OcculitesView", "Panel", "RowView", "SlotView"]
