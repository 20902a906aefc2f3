"""Camera readings -> Dice of the Occulites line-ups: pure, no Kivy; vision's result types.

Each player lines up six dice in a row; left to right is cards 1 to 6. A reading holds every die
the camera saw on the tray (:class:`vision.types.Reading`: ``.dice`` of
:class:`vision.types.Die` with ``.center``, ``.value``, ``.colour``, ``.confidence``). This module
splits the dice into the players' zones, orders each zone left to right, and says which dice the
players must confirm by touch.

Zones: a calibrated table gives each player's zone as a rectangle in image pixels. Without one,
the documented default (docs/app-occulites.md) is rows, seat 1 at the top: when the tray holds
exactly six dice per player, the dice are sorted top to bottom and cut into rows of six;
otherwise they are cut into rows at the widest vertical gaps between dice (and with fewer dice
than players, the frame is cut into equal horizontal bands).

>>> from vision.types import Die as D, Reading
>>> box = ((0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0))
>>> dice = tuple(D((10.0 * i, 5.0), box, 0.0, 8.0, i % 6 + 1, str(i % 6 + 1), "green", 0.9)
...              for i in range(6))
>>> read = read_lineups(Reading(dice, (100, 100)), ["Ana"])["Ana"]
>>> read.call().text()
'Ana: Line-up green 1, green 2, green 3, green 4, green 5, green 6'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise

from calibration.zones import ROLL_AREA, Zone
from companion.words import plural
from rules.occulites import COLOURS, Die, LineUp
from vision.types import Die as SeenDie
from vision.types import Reading

#: Dice read with less confidence than this are flagged for the players to confirm.
MIN_CONFIDENCE = 0.6
CARDS = 6

Rect = tuple[float, float, float, float]  # x0, y0, x1, y1 in image pixels


@dataclass(frozen=True)
class SlotRead:
    """One card's die as read: its colour and pips, or None where the camera is not sure."""

    colour: str | None
    pips: int | None
    confidence: float = 1.0
    center: tuple[float, float] | None = None

    @property
    def uncertain(self) -> bool:
        """The players must confirm this die: colour or pips unknown, or read with doubt."""
        return self.colour is None or self.pips is None or self.confidence < MIN_CONFIDENCE

    def text(self) -> str:
        """``"green 5"``, with ``?`` for what is unknown."""
        return f"{self.colour or '?'} {self.pips or '?'}"


@dataclass(frozen=True)
class LineupRead:
    """One player's line-up as the camera read it, left to right = cards 1-6."""

    player: str
    slots: tuple[SlotRead, ...]
    problems: tuple[str, ...] = ()
    #: How many dice were seen in the player's zone (``slots`` keeps six at most).
    seen: int = 0

    @property
    def uncertain(self) -> tuple[int, ...]:
        """Card numbers (1-6) whose die the players must confirm or correct."""
        return tuple(i + 1 for i, s in enumerate(self.slots) if s.uncertain)

    @property
    def complete(self) -> bool:
        """Six dice, all certain, and nothing wrong with the zone: the call can be made."""
        return len(self.slots) == CARDS and not self.uncertain and not self.problems

    def dice(self) -> tuple[Die, ...] | None:
        """The engine's dice for this line-up, or None while any die is unknown."""
        if len(self.slots) != CARDS or any(s.colour is None or s.pips is None
                                           for s in self.slots):
            return None
        return tuple(Die(str(s.colour), int(s.pips or 0)) for s in self.slots)

    def call(self) -> LineUp | None:
        """The line-up call once every die is known, else None."""
        dice = self.dice()
        return None if dice is None else lineup_call(self.player, dice)


def lineup_call(player: str, dice: Sequence[Die] | Sequence[tuple[str, int]]) -> LineUp:
    """The engine's line-up call for six dice."""
    return LineUp(player, tuple(d if isinstance(d, Die) else Die(d[0], int(d[1]))
                                for d in dice))


def corrections(read: Sequence[SlotRead | None], final: Sequence[SlotRead | None],
                dice: Sequence[SeenDie]) -> dict[int, str]:
    """The dice of a camera reading that the players confirmed or corrected in one line-up:
    the die's index in ``dice`` (the reading's) -> the pips they gave, for each die the
    camera was unsure of or whose pips they changed. A slot is tied to its die by its centre.

    >>> from vision.types import Die as D
    >>> box = ((0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0))
    >>> dice = [D((x, 5.0), box, 0.0, 8.0, None, None, "red", 0.5) for x in (10.0, 30.0)]
    >>> read = [SlotRead("red", 3, 0.4, (10.0, 5.0)), SlotRead("red", 2, 0.9, (30.0, 5.0))]
    >>> corrections(read, [SlotRead("red", 3), SlotRead("red", 2)], dice)
    {0: '3'}
    """
    where = {(float(d.center[0]), float(d.center[1])): i for i, d in enumerate(dice)}
    out: dict[int, str] = {}
    for old, new in zip(read, final, strict=False):
        if old is None or old.center is None or new is None or new.pips is None:
            continue
        index = where.get(old.center)
        if index is not None and (old.uncertain or old.pips != new.pips):
            out[index] = str(new.pips)
    return out


def slot_of(die: SeenDie) -> SlotRead:
    """A vision die -> a slot: colours the game does not know (``grey``...) count as unknown."""
    colour = die.colour.casefold() if die.colour is not None else None
    if colour not in COLOURS:
        colour = None
    cx, cy = die.center
    return SlotRead(colour, die.value, die.confidence, (float(cx), float(cy)))


def band_zones(frame_shape: tuple[int, int], players: int) -> list[Rect]:
    """The default zones: equal horizontal bands over the frame, seat 1 at the top."""
    if players < 1:
        raise ValueError(f"band_zones: need at least 1 player, got {players}")
    h, w = frame_shape
    step = h / players
    return [(0.0, i * step, float(w), (i + 1) * step) for i in range(players)]


def _zone_of(center: tuple[float, float], zones: Sequence[Rect]) -> int:
    """The zone holding ``center``; the nearest one (by its centre) when none does."""
    x, y = center
    for i, (x0, y0, x1, y1) in enumerate(zones):
        if x0 <= x < x1 and y0 <= y < y1:
            return i

    def dist(r: Rect) -> float:
        return ((r[0] + r[2]) / 2 - x) ** 2 + ((r[1] + r[3]) / 2 - y) ** 2

    return min(range(len(zones)), key=lambda i: dist(zones[i]))


def _rows_by_gaps(slots: Sequence[SlotRead], rows: int) -> list[list[SlotRead]]:
    """Cut the dice into ``rows`` rows, top to bottom, at the widest vertical gaps."""
    ordered = sorted(slots, key=lambda s: (s.center or (0.0, 0.0))[1])
    ys = [(s.center or (0.0, 0.0))[1] for s in ordered]
    gaps = sorted(range(1, len(ys)), key=lambda i: ys[i] - ys[i - 1], reverse=True)
    cuts = sorted(gaps[:rows - 1])
    bounds = [0, *cuts, len(ordered)]
    return [list(ordered[a:b]) for a, b in pairwise(bounds)]


def read_lineups(reading: Reading, players: Sequence[str],
                 zones: Mapping[str, Rect] | None = None) -> dict[str, LineupRead]:
    """Split a reading into each player's line-up (left to right = cards 1-6).

    ``zones`` (player -> rectangle in image pixels) comes from a calibrated table; without it
    the dice are cut into rows (see the module's docstring). A zone holding other than six dice
    gets a problem saying so, and keeps the dice it has, so the players can fix it by touch.
    """
    if not players:
        raise ValueError("read_lineups: no players given")
    slots = [slot_of(d) for d in reading.dice]
    groups: list[list[SlotRead]] = [[] for _ in players]
    if zones is not None:
        missing = [p for p in players if p not in zones]
        if missing:
            raise ValueError(f"read_lineups: the table's zones name no zone for "
                             f"{', '.join(missing)} (zones for {', '.join(zones)})")
        rects = [zones[p] for p in players]
        for s in slots:
            assert s.center is not None
            groups[_zone_of(s.center, rects)].append(s)
    elif len(slots) == CARDS * len(players):
        ordered = sorted(slots, key=lambda s: (s.center or (0.0, 0.0))[1])
        groups = [ordered[i * CARDS:(i + 1) * CARDS] for i in range(len(players))]
    elif len(slots) >= len(players):
        groups = _rows_by_gaps(slots, len(players))
    else:
        h, w = reading.frame_shape
        rects = band_zones((int(h), int(w)), len(players))
        for s in slots:
            assert s.center is not None
            groups[_zone_of(s.center, rects)].append(s)
    out: dict[str, LineupRead] = {}
    for player, group in zip(players, groups, strict=True):
        group.sort(key=lambda s: (s.center or (0.0, 0.0))[0])
        problems: tuple[str, ...] = ()
        if len(group) != CARDS:
            seen = plural(len(group), "die", "dice")
            problems = (f"{seen} seen in {player}'s zone, a line-up has {CARDS}",)
        out[player] = LineupRead(player, tuple(group[:CARDS]), problems, len(group))
    return out


__all__ = ["MIN_CONFIDENCE", "LineupRead", "SlotRead", "band_zones", "corrections",
           "lineup_call", "read_lineups", "slot_of"]


def roll_zones(zones: Sequence[Zone], players: Sequence[str]) -> dict[str, Rect] | None:
    """Each player's line-up area from the calibration profile's ``roll`` zones (seat N = the
    N-th player), as the rectangle around its outline; None unless every seat has one, so a
    half-marked table falls back to reading line-ups as rows."""
    areas = {z.seat: z.polygon for z in zones if z.space.casefold() == ROLL_AREA}
    if not players or any(i + 1 not in areas for i in range(len(players))):
        return None
    out: dict[str, Rect] = {}
    for i, player in enumerate(players):
        xs = [p[0] for p in areas[i + 1]]
        ys = [p[1] for p in areas[i + 1]]
        out[player] = (min(xs), min(ys), max(xs), max(ys))
    return out
