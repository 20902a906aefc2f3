"""Dice on the players' boards, seen by the camera, become the game's allocation calls.

With allocation tracking on (Eye for an Eye's ``track_allocation``) and board zones in the
calibration profile (``companion calibrate zones``), every settled view of the table is counted
zone by zone (:func:`calibration.zones.count_dice`) and the changes are said as ordinary calls,
"Kayo: Allocate 2 to Parry" or "Kayo: Recover 1 from Parry", through the session: journaled,
undoable and checked by the engine like a tap. The screen keeps no rule: a refused call (too
many dice, no such action) only shows the engine's reason.

Dice spent by a call stay on the board until a hand takes them off, so the camera's count is
compared with the previous count, not with the game's allocation:

- more dice in a zone than last time: the new ones are allocated;
- fewer dice: only dice the game still counts as allocated there are recovered (dice just
  spent by "Parry 2" are already back in the pool, so taking them off changes nothing);
- a call the engine refuses leaves the count as it was, so the next change is tried anew;
- the first view of a zone (a new game, a resumed one, a profile just chosen) starts from the
  game's own allocation, so a board that already matches the game makes no call.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from calibration.zones import ROLL_AREA, Zone, count_dice
from companion.session import NOT_SAVED, TableSession, not_saved
from rules import RulesError
from rules.eye_for_an_eye import EyeForAnEye
from rules.eye_for_an_eye.calls import Allocate, Recover
from vision import Die


@dataclass(frozen=True)
class BoardCall:
    """One call the camera wants to make, and why."""

    call: Allocate | Recover
    zone: tuple[int, str]
    before: int  # the zone's count before this view: restored when the engine refuses
    #: The engine's refusal of the space itself (the character has no action or card so
    #: called): the call is not made, and its words are what the players see.
    refusal: RulesError | None = None


class BoardWatcher:
    """Turns zone counts into Allocate/Recover calls; remembers the last counts."""

    def __init__(self, zones: Sequence[Zone]) -> None:
        self.zones = tuple(z for z in zones if z.space.casefold() != ROLL_AREA)
        self.seen: dict[tuple[int, str], int] = {}
        self.round = 0  # the round these counts belong to (kept by the app)

    def reset(self) -> None:
        """Forget the last counts (a new round: the boards are cleared by the rules)."""
        self.seen.clear()

    def calls(self, dice: Iterable[Die], game: EyeForAnEye) -> list[BoardCall]:
        """The calls that bring the game in line with this view of the boards.

        The engine's ``seats()`` give each seat's character short name and allocation; its
        ``parse`` names the allocation key of a space. Zones of seats the game does not have
        are ignored.
        """
        views = list(game.seats())
        counts = count_dice(self.zones, dice)
        out: list[BoardCall] = []
        for z in self.zones:
            if z.seat > len(views):
                continue
            view = views[z.seat - 1]
            actor = view.character.short
            now = counts[z.key]
            try:
                key, name = game.board_space(z.seat - 1, z.space)
                refusal = None
            except RulesError as e:  # no such action or card: refused when it is called
                key, name, refusal = "", z.space, e
            have = int(view.allocation.get(key, 0)) if key else 0
            before = self.seen.get(z.key, have)
            self.seen[z.key] = now
            if now > before:
                out.append(BoardCall(Allocate(actor, now - before, key, name), z.key, before,
                                     refusal))
            elif now < before and have > now:
                out.append(BoardCall(Recover(actor, have - now, key, name), z.key, before,
                                     refusal))
        return out

    def refused(self, call: BoardCall) -> None:
        """The engine refused ``call``: forget its dice, so that once the board changes
        again (a die taken off an over-full space) the count is tried anew."""
        self.seen[call.zone] = call.before


@dataclass(frozen=True)
class BoardLine:
    """What the camera did with one board call, for the screen: the call taken, or why it
    was refused (``refused``: the engine's or the journal's reason, in ``text``)."""

    text: str
    refused: bool = False


def apply_board(session: TableSession[EyeForAnEye], watcher: BoardWatcher,
                dice: Iterable[Die]) -> list[BoardLine]:
    """Make the watcher's calls through the session; returns one line per call for the
    screen: the call, or the engine's reason for refusing it."""
    lines = []
    for bc in watcher.calls(dice, session.game):
        try:
            if bc.refusal is not None:
                raise bc.refusal
            session.call(bc.call)
            lines.append(BoardLine(bc.call.text()))
        except RulesError as e:
            watcher.refused(bc)
            lines.append(BoardLine(f"camera: {e}", refused=True))
        except NOT_SAVED as e:  # the journal's refusal (a full card): the game is as it was
            lines.append(BoardLine(f"camera: {not_saved(e, session.journal)}", refused=True))
            break
    return lines
