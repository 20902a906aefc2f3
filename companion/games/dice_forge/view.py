"""What the Dice Forge table shows, as plain data the model makes and the screen draws (no
Kivy, no markup): the right-hand side's choices and panes, each hero's panel, the note line,
and the whole view."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Literal

#: What the screen is busy with besides what the engine waits for.
Mode = Literal["", "forge", "perform"]
#: The note line: a refusal (the engine's reason), what the app said, or the hint.
NoteTone = Literal["refused", "notice", "hint"]
#: The reserves a hero's panel shows, in order ("ancient" only with Titans).
RESOURCES = ("gold", "sun", "moon", "ancient")


@dataclass(frozen=True)
class Choice:
    """One button on the right: its key (tests and the demo find it by it), its words, what a
    tap does, whether it can be tapped, is selected (a face picked) or is ``primary`` (the
    step that completes a call, only while it can be tapped). ``face``: a die face shown as
    its picture (when the players want pictures and the face has one) with ``caption``
    beside it, else in words over the caption."""

    key: str
    text: str
    act: Callable[[], object] = field(compare=False)
    enabled: bool = True
    selected: bool = False
    primary: bool = False
    face: str | None = None
    caption: str = ""
    font: float = 16
    shorten: bool = True


@dataclass(frozen=True)
class Pane:
    """The right-hand side: the prompt and its hint, then a grid of ``cols`` choices (None:
    an empty cell keeping the others in place; ``rows`` keeps the rows' share), or the two
    dice's faces in their columns (die 1 left, die 2 right), or the final places; then a bar
    of buttons at the bottom."""

    prompt: str
    hint: str
    grid: tuple[Choice | None, ...] = ()
    cols: int = 2
    rows: int | None = None
    columns: tuple[tuple[Choice, ...], tuple[Choice, ...]] | None = None
    places: tuple[tuple[int, str, int], ...] = ()
    bar: tuple[Choice, ...] = ()


@dataclass(frozen=True)
class HeroLook:
    """One hero's panel: glory, each reserve with its cap, the faces up, feats and the
    module's token, the score as it would count now, whether it is their turn."""

    name: str
    active: bool
    glory: int
    reserves: tuple[tuple[str, int, int | None], ...]
    faces_up: tuple[str, str]
    token: str
    score: int


def _nothing() -> None:
    """What a button of the table does where the screen gave it nothing to do."""


@dataclass(frozen=True)
class Outside:
    """What the table does outside the game, given by the screen: ``camera`` reads the roll
    from the camera (None: it cannot read this game's dice, so no button offers it);
    ``ask_end`` shows the final standings; ``leave`` goes back to the start screen;
    ``play_code`` shows the play's BG Stats code."""

    camera: Callable[[], object] | None = None
    ask_end: Callable[[], object] = _nothing
    leave: Callable[[], object] = _nothing
    play_code: Callable[[], object] = _nothing


@dataclass(frozen=True)
class DiceForgeView:
    """The whole table: its title, each hero's panel (by player), faces in words or
    pictures, the right-hand side, and the note line under its prompt."""

    title: str
    heroes: Mapping[str, HeroLook]
    words: bool
    pane: Pane
    note: tuple[NoteTone, str]
