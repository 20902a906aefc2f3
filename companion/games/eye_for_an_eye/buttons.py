"""The table's arcade buttons in Eye for an Eye: a press as the arena takes it, and what it
does (the same three steps as touch).

No Kivy here. :class:`Press` adapts an event of :mod:`hardware.buttons`;
:class:`ButtonCalls` is the part of :class:`~companion.games.eye_for_an_eye.calls.ArenaCalls`
that makes a press a call (a held "cycle" button points at each possible target in turn).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from companion.games.eye_for_an_eye.building import CallBuilder
from companion.session import MonotonicClock, TableSession
from hardware.buttons import ButtonCall, ButtonEvent, ButtonHold, ButtonPress
from rules import Event, InvalidCall
from rules.eye_for_an_eye import EyeForAnEye
from rules.eye_for_an_eye.game import SeatView

#: Seconds without a new step of a held "cycle" button after which its target is taken.
CYCLE_SETTLE = 1.0
#: hardware.buttons action names -> the arena's.
HARDWARE_ACTIONS = {"move": "movement", "defend": "defence", "power": "innate",
                    "next": "pause", "cancel": "cancel"}


@dataclass(frozen=True)
class Press:
    """A press of the table's buttons, as the arena takes it.

    ``seat`` is the player's seat (0-based, in setup order). ``action`` is an action key
    ("movement", "attack", "heal", "defence", "innate"), "target" (this seat is the target of
    the call being built), "count" (``count`` dice for the call being built), "undo", "pause"
    or "cancel". ``hold`` (a long press) cancels the call being built, except "cycle" (``count``
    = the step of a held button): while the seat's attack waits for a target it points at the
    next possible target, and letting go (no step for :data:`CYCLE_SETTLE` s) makes the call.
    """

    seat: int
    action: str
    count: int = 0
    hold: bool = False

    @classmethod
    def from_hardware(cls, event: ButtonEvent, seats: Sequence[str]) -> Press | None:
        """Adapt an event of :mod:`hardware.buttons`. ``seats`` are the button map's seat
        names in table order ("P1", "P2"...). A finished count becomes a press with that count;
        a hold meaning "undo" becomes undo, "cycle" a cycle step, any other hold cancels; a
        press still being counted gives None (see :func:`counting_feedback`)."""
        if event.seat not in seats:
            raise InvalidCall(f"button seat {event.seat!r}: the button map has "
                              f"{', '.join(seats)}")
        seat = list(seats).index(event.seat)
        if isinstance(event, ButtonHold):
            if event.meaning == "undo":
                return cls(seat, "undo")
            if event.meaning == "cycle":
                return cls(seat, "cycle", event.repeat, hold=True)
            return cls(seat, "cancel", hold=True)
        if isinstance(event, ButtonPress):
            return None
        assert isinstance(event, ButtonCall)
        return cls(seat, HARDWARE_ACTIONS.get(event.action, event.action), event.count)


def counting_feedback(event: ButtonEvent, seats: Sequence[str]) -> tuple[int, str, int] | None:
    """(seat index, action, presses so far) for a press still being counted, the instant
    feedback on the seat's panel; None for any other event or an unknown seat."""
    if not isinstance(event, ButtonPress) or event.seat not in seats:
        return None
    action = HARDWARE_ACTIONS.get(event.action, event.action)
    return list(seats).index(event.seat), action, event.count


class ButtonCalls:
    """The arena's buttons: the part of ArenaCalls that turns a press into a call."""

    session: TableSession[EyeForAnEye]
    now: MonotonicClock
    builder: CallBuilder

    if TYPE_CHECKING:  # ArenaCalls' own, which this part uses
        @property
        def game(self) -> EyeForAnEye: ...
        def seats(self) -> list[SeatView]: ...
        def possible_targets(self) -> list[str]: ...
        def cancel(self) -> None: ...
        def asks(self, player: str) -> bool: ...
        def choose_speaker(self, player: str) -> list[Event] | None: ...
        def toggle_clock(self) -> None: ...
        def tap_action(self, player: str, action: str) -> list[Event] | None: ...
        def tap_count(self, count: int) -> list[Event] | None: ...
        def tap_target(self, target: str) -> list[Event] | None: ...
        def _refuse(self, why: str) -> None: ...
        def _building(self) -> None: ...

    def press(self, press: Press) -> list[Event] | None:
        """A table button: the same three steps as touch."""
        players = list(self.game.setup.players)
        if not 0 <= press.seat < len(players):
            raise InvalidCall(f"button seat {press.seat + 1}: this table has seats 1-"
                              f"{len(players)}")
        player = players[press.seat]
        if press.action == "cycle" and self.builder.needs_target \
                and self.builder.actor == player:
            self.cycle_target(press.count)
            return None
        if press.hold or press.action == "cancel":
            self.cancel()  # a call heard aloud first
            return None
        if press.action == "target" and self.asks(player):  # "I said it"
            return self.choose_speaker(player)
        if press.action == "undo":
            self.session.undo()
            return None
        if press.action == "pause":
            self.toggle_clock()
            return None
        if press.action == "target":
            if press.count <= 0:
                return self.tap_target(player)  # this seat is the target
            # The seat's own target button, pressed n times: the n-th other seat after it.
            others = players[press.seat + 1:] + players[:press.seat]
            return self.tap_target(others[(press.count - 1) % len(others)])
        if press.action == "count":
            return self.tap_count(press.count)
        result = self.tap_action(player, press.action)
        if press.count and self.builder.needs_count:
            result = self.tap_count(press.count)
        if self.builder.needs_target:
            # Buttons have no target when only one is possible: ask the engine which.
            targets = self.possible_targets()
            if len(targets) == 1:
                return self.tap_target(targets[0])
        return result

    def cycle_target(self, step: int) -> None:
        """A held "cycle" button, step ``step`` (1, 2, ...): point at the step-th possible
        target of the call being built; :meth:`tick` makes the call once the steps stop."""
        targets = self.possible_targets() or [
            s.player for s in self.seats() if s.player != self.builder.actor
            and not s.knocked_out]
        if not targets:
            self._refuse("no one to target")
            return
        self.builder.proposed = targets[(max(1, step) - 1) % len(targets)]
        self.builder.proposed_at = self.now()
        self._building()


__all__ = ["CYCLE_SETTLE", "HARDWARE_ACTIONS", "ButtonCalls", "Press", "counting_feedback"]
