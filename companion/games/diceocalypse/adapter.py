"""Camera readings -> Dice-ocalypse calls. Pure: no Kivy; vision's result types only.

A settled reading (:class:`vision.types.Reading`: ``.dice`` of :class:`vision.types.Die`)
becomes the roll the game is waiting for, e.g. ``"Ana: Roll 1 5 5 3 2 6"`` with as many dice
as that player is rolling. Dice the camera is unsure of (no value, or a confidence below the
threshold) are flagged: the players confirm or correct them by touch before the call is
made. The dice are listed left to right (then top to bottom), as they lie on the table, so
the screen shows them in the same order.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from rules import Call, Game, RulesError
from rules.diceocalypse import Roll, SpecialRoll
from rules.diceocalypse.calls import SpecialDie
from vision.types import Die, Reading

#: Dice read with less confidence than this are shown for the players to confirm.
MIN_CONFIDENCE = 0.6


@dataclass(frozen=True)
class RollEntry:
    """A roll being read or entered: one value (or None) per die, and which need a look.

    ``needed`` is how many dice the player rolls. ``doubtful`` holds the indexes of dice the
    camera was unsure of; they stay doubtful until confirmed or corrected by touch; ``typed``
    the dice whose value was set by touch (a camera's reading never replaces those).
    ``problem`` says why the reading cannot become a call as it is (too many dice seen...).
    ``die`` is the special die rolled (Zombie, Left Behind), None for the player's own dice.
    """

    player: str
    needed: int
    values: tuple[int | None, ...] = ()
    doubtful: frozenset[int] = frozenset()
    problem: str = ""
    die: SpecialDie | None = None
    typed: frozenset[int] = frozenset()

    @property
    def surplus(self) -> int:
        """How many dice more than the player rolls are entered (the camera saw others)."""
        return max(0, len(self.values) - self.needed)

    @property
    def complete(self) -> bool:
        """Every die has a value, none is left to confirm, and the count is right."""
        return (len(self.values) == self.needed and all(v is not None for v in self.values)
                and not self.doubtful and not self.problem)

    def call(self) -> Roll | SpecialRoll | None:
        """The engine's call, or None while a die is missing, doubtful or the count is
        wrong."""
        if not self.complete:
            return None
        values = tuple(int(v or 0) for v in self.values)
        if self.die is not None and len(values) == 1:
            return SpecialRoll(self.player, self.die, values[0])
        return Roll(self.player, values)

    def text(self) -> str | None:
        """The call's words (the engine's), or None as for :meth:`call`."""
        call = self.call()
        return None if call is None else call.text()

    def set_value(self, index: int, value: int) -> RollEntry:
        """A die set (or corrected) by touch: it is no longer doubtful."""
        if not 1 <= value <= 6:
            raise ValueError(f"die value {value!r}: a die shows 1 to 6")
        values = list(self.values)
        if index == len(values) and index < self.needed:
            values.append(value)
        elif 0 <= index < len(values):
            values[index] = value
        else:
            raise ValueError(f"die {index + 1}: {self.player} rolls {self.needed} dice and "
                             f"{len(values)} are entered")
        return self._checked(replace(self, values=tuple(values),
                                     doubtful=self.doubtful - {index},
                                     typed=self.typed | {index}))

    def add(self, value: int) -> RollEntry:
        """The next die entered by touch (the first empty slot, else appended)."""
        for i, v in enumerate(self.values):
            if v is None:
                return self.set_value(i, value)
        return self.set_value(len(self.values), value)

    def confirm(self, index: int) -> RollEntry:
        """The players say the camera's value of this die is right."""
        if not 0 <= index < len(self.values) or self.values[index] is None:
            raise ValueError(f"die {index + 1}: no value to confirm; set it instead")
        return self._checked(replace(self, doubtful=self.doubtful - {index}))

    def confirm_all(self) -> RollEntry:
        """Every die that has a value is confirmed as read."""
        sure = frozenset(i for i in self.doubtful if self.values[i] is None)
        return self._checked(replace(self, doubtful=sure))

    def remove(self, index: int) -> RollEntry:
        """Drop a die (the camera saw one too many: set aside; or a mistaken entry)."""
        if not 0 <= index < len(self.values):
            raise ValueError(f"die {index + 1}: only {len(self.values)} dice are entered")
        values = self.values[:index] + self.values[index + 1:]

        def shifted(indexes: frozenset[int]) -> frozenset[int]:
            return frozenset(i - (i > index) for i in indexes if i != index)

        return self._checked(replace(self, values=values, doubtful=shifted(self.doubtful),
                                     typed=shifted(self.typed)))

    def _checked(self, entry: RollEntry) -> RollEntry:
        return replace(entry, problem=count_problem(entry.player, entry.needed,
                                                    len(entry.values)))


def count_problem(player: str, needed: int, seen: int) -> str:
    """Why ``seen`` dice cannot be ``player``'s roll of ``needed`` dice ("" when they can),
    and what to do: tap the others to set them aside (:meth:`RollEntry.remove`)."""
    if seen <= needed:
        return ""
    what = "die" if needed == 1 else "dice"
    extra = seen - needed
    which, it = ("the die", "it") if extra == 1 else (f"the {extra} dice", "them")
    return (f"{seen} dice in the tray, {player} rolls {needed} {what}: tap {which} not "
            f"rolled to set {it} aside")


def table_order(dice: Iterable[Die], row_tolerance: float | None = None) -> list[Die]:
    """Dice as they lie: rows top to bottom, each row left to right.

    Dice whose centres are within ``row_tolerance`` pixels vertically (default: half the
    largest die size) share a row.
    """
    items = list(dice)
    if not items:
        return []
    if row_tolerance is None:
        row_tolerance = max(d.size for d in items) / 2
    items.sort(key=lambda d: d.center[1])
    rows: list[list[Die]] = []
    for d in items:
        if rows and abs(d.center[1] - rows[-1][0].center[1]) <= row_tolerance:
            rows[-1].append(d)
        else:
            rows.append([d])
    return [d for row in rows for d in sorted(row, key=lambda d: d.center[0])]


def is_doubtful(die: Die, min_confidence: float = MIN_CONFIDENCE) -> bool:
    """No pip value, or read with too little confidence."""
    return die.value is None or die.confidence < min_confidence


def read_roll(reading: Reading, player: str, needed: int, *,
              min_confidence: float = MIN_CONFIDENCE, die: SpecialDie | None = None
              ) -> RollEntry:
    """A settled reading as ``player``'s roll of ``needed`` dice.

    Fewer dice seen than rolled leaves the missing ones to enter by touch; more is a problem to
    resolve before any call. A die with no value or low confidence is doubtful.
    """
    if needed < 1:
        raise ValueError(f"{player} rolls {needed} dice: a roll has at least one die")
    dice = table_order(reading.dice)
    values: tuple[int | None, ...] = tuple(d.value for d in dice)
    doubtful = frozenset(i for i, d in enumerate(dice) if is_doubtful(d, min_confidence))
    return RollEntry(player, needed, values, doubtful,
                     count_problem(player, needed, len(values)), die)


def read_order(reading: Reading) -> list[int]:
    """The index in ``reading.dice`` of each die of :func:`read_roll`'s entry, in its order."""
    dice = list(reading.dice)
    where = {id(d): i for i, d in enumerate(dice)}
    return [where[id(d)] for d in table_order(dice)]


def corrections(read: RollEntry, final: RollEntry) -> dict[int, int]:
    """The dice of a camera's reading that the players confirmed or corrected by touch:
    position -> the value they gave, for each die the camera was unsure of or whose value
    they changed. Dice entered by touch beyond those the camera saw are not the camera's.

    >>> read = RollEntry("Ana", 3, (5, 1, 2), frozenset({1}))
    >>> corrections(read, RollEntry("Ana", 3, (5, 1, 3)))
    {1: 1, 2: 3}
    """
    if len(final.values) < len(read.values):
        return {}
    return {i: new for i, (old, new) in enumerate(zip(read.values, final.values, strict=False))
            if new is not None and (i in read.doubtful or old != new)}


def call_for(reading: Reading, player: str, needed: int, *,
             min_confidence: float = MIN_CONFIDENCE, die: SpecialDie | None = None
             ) -> Roll | SpecialRoll | None:
    """The call when the reading is complete and sure, else None (ask the players)."""
    return read_roll(reading, player, needed, min_confidence=min_confidence, die=die).call()


def expected_rolls(legal_calls: Sequence[Call]) -> dict[str, int]:
    """Who the game waits on to roll, and how many dice, from the engine's legal calls.

    Rolls are listed by the engine once per set of values; each roller's dice count is the
    length of their listed rolls. Seat order is kept as the engine lists them.
    """
    out: dict[str, int] = {}
    for call in legal_calls:
        if isinstance(call, Roll):
            out.setdefault(call.player, len(call.values))
    return out


def legal_after(game: Game[Any], first: Call | str, then: Call | str) -> bool:
    """Whether the engine would take ``then`` right after ``first`` (asked of a copy of the
    game: the game itself, its history and redo list are not touched). A screen uses it to
    offer "Keep & bank" only when the bank would be taken."""
    trial = copy.deepcopy(game)
    try:
        trial.apply(first)
    except RulesError:
        return False
    return trial.is_legal(then)


def with_thousands(text: str) -> str:
    """Scores in the engine's sentences written as people read them: 4000 -> 4,000.

    >>> with_thousands("Ana banks 4000 for 12050; 3 dice")
    'Ana banks 4,000 for 12,050; 3 dice'
    """
    return re.sub(r"(?<![\d,.])\d{4,}(?![\d,.])", lambda m: f"{int(m.group()):,}", text)


__all__ = ["MIN_CONFIDENCE", "RollEntry", "call_for", "corrections", "count_problem",
           "expected_rolls", "is_doubtful", "legal_after", "read_order", "read_roll",
           "table_order", "with_thousands"]
