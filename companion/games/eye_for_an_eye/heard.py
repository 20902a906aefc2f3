"""Eye for an Eye's calls heard aloud (docs/voice.md): shown, then made or dropped.

A call heard aloud (:meth:`HeardCalls.hear`) is shown at once, marked heard, for
:data:`HEARD_SECONDS`: Cancel (a tap, or a seat's cancel button) drops it, leaving nothing
but a line in the log; otherwise it is made like a tapped call. A parry heard holds its
target's window meanwhile. Where several players could have said it, the table asks who (one
tap on their name) for :data:`ASK_SECONDS`. :class:`HeardCalls` is a part of
:class:`~companion.games.eye_for_an_eye.calls.ArenaCalls`, which keeps the rest.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING

from companion.session import Change, MonotonicClock, TableSession
from companion.voice.phrases import HeardCall, TableWord
from rules import Call, Event
from rules.eye_for_an_eye import EyeForAnEye

log = logging.getLogger(__name__)

#: Seconds a call heard aloud shows, marked heard, before it is made (Cancel drops it).
HEARD_SECONDS = 1.0
#: Seconds the table waits for a tap saying who said a call several players could have.
ASK_SECONDS = 8.0


@dataclass(frozen=True)
class Waiting:
    """A call heard aloud, shown until ``due`` (monotonic): then made, or, when the table asks
    who said it, dropped."""

    heard: HeardCall
    due: float

    def speaker_of(self, call: Call) -> str:
        return dict(zip(self.heard.calls, self.heard.speakers, strict=False)).get(call, "")


class HeardCalls:
    """The arena's calls heard aloud: the part of ArenaCalls that shows, makes or drops
    them."""

    session: TableSession[EyeForAnEye]
    now: MonotonicClock
    #: A call heard aloud, shown until it is made (or cancelled).
    heard: Waiting | None

    if TYPE_CHECKING:  # ArenaCalls' own, which this part uses
        @property
        def game(self) -> EyeForAnEye: ...
        def closed(self) -> str | None: ...
        def toggle_clock(self) -> None: ...
        def _refuse(self, why: str) -> None: ...
        def _building(self) -> None: ...
        def _update_choosing(self) -> None: ...

    def hear(self, heard: HeardCall) -> None:
        """A call heard aloud: shown marked heard, then made (see the module docstring). One
        still shown is made first (it was said first). Refused at once, saying why, when the
        clock stands or the rules take none of what was heard."""
        if self.heard is not None and not self.heard.heard.ambiguous:
            self.keep_heard()
        if heard.table is TableWord.YARRA_MARK:
            if self.session.clock.running or self.game.state.phase != "playing":
                return  # the round runs already: the players cheer, nothing to do
        elif heard.table is None:
            why = self.closed() or heard.refused or None
            if why is not None or not heard.calls:
                self._refuse(f"Heard {heard.said}: {why or 'no call the rules take now'}")
                return
        seconds = ASK_SECONDS if heard.ambiguous else HEARD_SECONDS
        self.heard = Waiting(heard, self.now() + seconds)
        self.session.clear_notice()
        self._building()

    def asks(self, player: str) -> bool:
        """True while the table asks whether ``player`` said the call heard."""
        w = self.heard
        return w is not None and w.heard.ambiguous and player in w.heard.speakers

    def choose_speaker(self, player: str) -> list[Event] | None:
        """The one tap saying who said a heard call several players could have: made now."""
        w = self.heard
        if w is None or not w.heard.ambiguous or player not in w.heard.speakers:
            return None
        call = w.heard.calls[w.heard.speakers.index(player)]
        self.heard = None
        self._update_choosing()
        return self.session.try_call(call)

    def keep_heard(self) -> list[Event] | None:
        """The heard call's second is over: made like a tapped call (or the table word
        done)."""
        w = self.heard
        if w is None:
            return None
        self.heard = None
        self._update_choosing()
        if w.heard.table is TableWord.UNDO:
            entry = self.session.undo()
            if entry is not None:
                self.session.note(f"Undid: {entry.call}")
                self.session.tell(Change.BUILDING)
            return None
        if w.heard.table is TableWord.YARRA_MARK:
            if not self.session.clock.running:
                self.toggle_clock()
            return None
        why = self.closed()
        if why is not None:  # paused meanwhile
            self._refuse(why)
            return None
        return self.session.try_call(w.heard.calls[0])

    def drop_heard(self, why: str) -> None:
        """The heard call goes, leaving no trace but a line in the log."""
        w = self.heard
        if w is None:
            return
        self.heard = None
        log.info("voice: heard call %r %s (not made)", w.heard.said, why)
        self._update_choosing()
        self._building()


__all__ = ["ASK_SECONDS", "HEARD_SECONDS", "HeardCalls", "Waiting"]
