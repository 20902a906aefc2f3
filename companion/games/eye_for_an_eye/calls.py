"""Eye for an Eye at the table: the arena's calls, made by tap, and the parry windows.

No Kivy here. A call is built in up to three steps (action, count, target:
:mod:`~companion.games.eye_for_an_eye.building`) from touch, from the table's arcade buttons
(:mod:`~companion.games.eye_for_an_eye.buttons`) or heard aloud
(:mod:`~companion.games.eye_for_an_eye.heard`); whether it can be made, and its shape (does it
take a count, a target, which targets), is read from the engine's typed legal calls alone,
never from their words, and never by trying a call on the engine. The parry window is the
table's short wait before hits land: opened for every parryable attack, it runs on the round
clock (so a pause freezes it), stands still while its target is choosing how many dice to
parry with, waits ("held") after an undo until play goes on, and when it shuts the hits land
("Hits land on X"). The end of the round clock is "Yarra Bung!". While the clock does not run
(before "Yarra Mark!", or paused) no call is taken but a dispute; Undo and Redo still work.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from companion.games.eye_for_an_eye.building import GRAMMAR, CallBuilder
from companion.games.eye_for_an_eye.buttons import CYCLE_SETTLE, ButtonCalls
from companion.games.eye_for_an_eye.heard import HeardCalls, Waiting
from companion.session import NOT_SAVED, Change, MonotonicClock, TableSession, not_saved
from rules import Call, Event, IllegalCall, InvalidCall, RulesError
from rules.eye_for_an_eye import EyeForAnEye
from rules.eye_for_an_eye.calls import Act, Dispute, Land, NextRound, Ready, TimeUp, Unblockable
from rules.eye_for_an_eye.game import PendingView, SeatView

if TYPE_CHECKING:
    from companion.session import SessionChange

#: One attack's parry window: (target player, attacker, figure hit), oldest window first.
WindowKey = tuple[str, str, str]

#: Seconds a target has to parry before the hits land (a table setting; the rulebook says
#: "a short window"; see docs/app.md).
DEFAULT_PARRY_SECONDS = 3.0


@dataclass(frozen=True)
class ParryView:
    """A seat's soonest parry window as the table sees it: seconds left and whether they run
    ("running"), stand still while the target chooses how many dice ("choosing"), wait for
    play to go on after an undo ("held", then the window starts again in full) or for the
    clock ("paused")."""

    seconds: float
    state: str


@dataclass
class ArenaCalls(HeardCalls, ButtonCalls):
    """The arena's calls: building them, the parry windows, the buttons, the round's end."""

    session: TableSession[EyeForAnEye]
    parry_seconds: float = DEFAULT_PARRY_SECONDS
    now: MonotonicClock = time.monotonic
    builder: CallBuilder = field(default_factory=CallBuilder)
    #: Each parryable attack's window, by target, attacker and figure: the round times the
    #: windows shut, oldest attack first (an attacker may have several attacks waiting).
    windows: dict[WindowKey, list[float]] = field(default_factory=dict)
    # After an undo, no automatic "Hits land" until the next call or redo (otherwise the tick
    # would land again at once the hits a player just took back); then every window waiting
    # starts again in full, so its target has the whole window to parry.
    held: bool = False
    #: The target choosing how many dice to parry with, and the round time they began: their
    #: windows stand still meanwhile.
    choosing: tuple[str, float] | None = None
    #: A call heard aloud, shown until it is made (or cancelled).
    heard: Waiting | None = None
    _round: int = 0
    #: The round clock was out of time at the last tick (its running out ends the round
    #: once: an end taken back by Undo leaves it out of time, and is not made again).
    _was_over: bool = False

    def __post_init__(self) -> None:
        self._round = self.game.state.round_number
        self._was_over = self.session.clock.state == "over"
        self.sync()

    @property
    def game(self) -> EyeForAnEye:
        return self.session.game

    # -- what the table sees -----------------------------------------------------------------

    def seats(self) -> list[SeatView]:
        return self.game.seats()

    def seat_of(self, name: str) -> SeatView:
        """The seat of a player (by player or character short name)."""
        for s in self.seats():
            if name in (s.player, s.character.short):
                return s
        raise InvalidCall(f"{name!r}: no such player at this table")

    def player_of(self, name: str) -> str:
        """The player a name (player, character or figure) belongs to; the name if unknown."""
        for s in self.seats():
            if name in (s.player, s.character.short) or any(f[0] == name for f in s.figures):
                return s.player
        return name

    @property
    def parry_deadlines(self) -> dict[str, float]:
        """Each player's soonest parry window (round time it shuts), for players with one."""
        out: dict[str, float] = {}
        for (player, _, _), deadlines in self.windows.items():
            if deadlines:
                out[player] = min(out.get(player, deadlines[0]), deadlines[0])
        return out

    def parry_left(self, player: str) -> float | None:
        """Seconds left in ``player``'s soonest parry window, or None when none is open."""
        view = self.parry_view(player)
        return None if view is None else view.seconds

    def parry_view(self, player: str) -> ParryView | None:
        """``player``'s soonest parry window (None when none is open): see :class:`ParryView`."""
        deadline = self.parry_deadlines.get(player)
        if deadline is None:
            return None
        if self.held:
            return ParryView(self.parry_seconds, "held")
        now = self.session.clock.elapsed
        if self.choosing is not None and self.choosing[0] == player:
            return ParryView(max(0.0, deadline - self.choosing[1]), "choosing")
        state = "running" if self.session.clock.running else "paused"
        return ParryView(max(0.0, deadline - now), state)

    def pending(self) -> list[PendingView]:
        return self.game.pending()

    # -- after every change --------------------------------------------------------------------

    def on_session(self, change: SessionChange) -> None:
        """The session changed (its model hands every change here first)."""
        if change.game_changed:
            if change.kind is Change.UNDO:
                self.held = True
            elif self.held:  # play goes on after an undo: every window starts again in full
                self.held = False
                restart = self.session.clock.elapsed + self.parry_seconds
                for deadlines in self.windows.values():
                    deadlines[:] = [restart] * len(deadlines)
            if self.game.state.round_number != self._round:
                self._round = self.game.state.round_number
                self.windows.clear()
                self.choosing = None
                self._was_over = False  # a new round: its clock starts again
            if self.game.state.phase != "playing":
                self.builder.clear()
            self.sync()
        self._update_choosing()

    def _update_choosing(self) -> None:
        """Stop the windows of a target choosing how many dice to parry with; when they are
        done (a count, Cancel, another action), their windows run on from where they stood."""
        b = self.builder
        want = b.actor if (b.action == "defence" and b.needs_count and b.actor is not None
                           and b.actor in self.parry_deadlines) else None
        if want is None and self.heard is not None:  # a parry heard: its window waits too
            want = next((who for c, who in zip(self.heard.heard.calls,
                                               self.heard.heard.speakers, strict=False)
                         if isinstance(c, Act) and c.key == "defence"
                         and who in self.parry_deadlines), None)
        now = self.session.clock.elapsed
        if self.choosing is not None and self.choosing[0] != want:
            player, since = self.choosing
            for key, deadlines in self.windows.items():
                if key[0] == player:
                    deadlines[:] = [d + (now - since) for d in deadlines]
            self.choosing = None
        if want is not None and self.choosing is None:
            self.choosing = (want, now)

    def _key(self, p: PendingView) -> WindowKey:
        return (self.player_of(p.target), p.attacker, p.figure)

    def sync(self) -> None:
        """One window per parryable attack. The engine resolves the oldest attack of a kind
        first (a parry answers the oldest waiting on its target; hits land oldest first) and
        adds new ones last, so per target, attacker and figure: fewer attacks waiting close
        the oldest windows, more open new ones (shutting ``parry_seconds`` from now)."""
        now = self.session.clock.elapsed
        waiting: dict[WindowKey, int] = {}
        for p in self.pending():
            if p.can_parry:
                key = self._key(p)
                waiting[key] = waiting.get(key, 0) + 1
        windows: dict[WindowKey, list[float]] = {}
        for key, n in waiting.items():
            old = self.windows.get(key, [])
            kept = old[len(old) - n:] if len(old) >= n else old
            windows[key] = kept + [now + self.parry_seconds] * (n - len(kept))
        self.windows = windows

    def tick(self) -> None:
        """Lands hits whose parry window closed, makes a held button's call once it is let go,
        and ends the round when its clock runs out ("Yarra Bung!")."""
        b = self.builder
        if b.proposed is not None and self.now() - b.proposed_at >= CYCLE_SETTLE:
            self.tap_target(b.proposed)  # the cycle button was let go
        if self.heard is not None and self.now() >= self.heard.due:
            if self.heard.heard.ambiguous:
                self.drop_heard("nobody said who")
            else:
                self.keep_heard()
        clock = self.session.clock
        over = clock.state == "over"
        ran_out = over and not self._was_over
        self._was_over = over
        if self.game.state.phase != "playing" or not (clock.running or over):
            return
        now = clock.elapsed
        if not self.held:  # after an undo: windows wait for the next call
            for p in self.pending():
                if not p.can_parry:  # from the rear: no window, the hits land at once
                    self._auto(Land(p.figure, p.attacker))
            choosing = self.choosing[0] if self.choosing is not None else None
            due = sorted((deadlines[0], key) for key, deadlines in self.windows.items()
                         if deadlines and now >= deadlines[0] and key[0] != choosing)
            for _, key in due:
                if self.windows.get(key):
                    self._auto(Land(key[2], key[1]), key)
        # Yarra Bung! when the round's clock runs out, once: an end that Undo took back waits
        # for Redo, or for Yarra Bung! tapped again (toggle_clock).
        if ran_out and self.game.state.phase == "playing" and not self._auto(TimeUp()):
            self._was_over = False  # not taken (a full card): tried again at the next tick

    def _auto(self, call: Call, window: WindowKey | None = None) -> bool:
        """Make a call of the table's own (hits land, the round ends); whether it was taken."""
        try:
            self.session.call(call)
            return True
        except RulesError as e:
            # The engine says no (e.g. the attack was parried meanwhile): said as a refusal,
            # the screens told, and the window forgotten.
            self.session.refuse(str(e), e if isinstance(e, IllegalCall) else None)
            if window is not None and self.windows.get(window):
                self.windows[window].pop(0)
        except NOT_SAVED as e:  # the journal's refusal (a full card): the game is as it was
            self.session.refuse(not_saved(e, self.session.journal))
            if window is not None and self.windows.get(window):
                self.windows[window].pop(0)
        return False

    # -- the clock -------------------------------------------------------------------------

    def toggle_clock(self) -> None:
        """Yarra Mark! (or go on after a pause), or pause for a dispute; Yarra Bung! again for
        a round whose end was taken back by Undo. A call being built is dropped at a pause: no
        call is taken while the clock stands. Between rounds and after the match it does
        nothing (the results screen starts the next round)."""
        if self.game.state.phase != "playing":
            return  # between rounds or at the end the clock stands: nothing to start
        self.session.clear_notice()  # the pause (or the clock going on) is the news now
        if self.session.clock.state == "over":  # the round's end taken back by Undo
            self.builder.clear()
            self.session.try_call(TimeUp())
        elif self.session.clock.running:
            self.builder.clear()
            self.session.pause_clock()
            self._update_choosing()
        else:
            self.session.start_clock()

    def closed(self) -> str | None:
        """Why no call is taken now (the round clock does not run), or None when calls are.

        The table's ruling (docs/rules/eye-for-an-eye.md): the round is real time, so a call
        needs the clock running; while it stands (before "Yarra Mark!", or paused for a
        dispute) only a dispute, Undo and Redo are taken."""
        if self.game.state.phase != "playing":
            return None  # the engine says why (the round is over)
        state = self.session.clock.state
        if state == "ready":
            return "The round has not begun: tap Yarra Mark! first"
        if state == "paused":
            return "Paused: no calls until Resume (Undo and Redo still work)"
        if state == "over":
            return "Time is up: Redo, or tap Yarra Bung! to end the round again"
        return None

    def next_round(self) -> list[Event] | None:
        return self.session.try_call(NextRound())

    # -- taps --------------------------------------------------------------------------------

    def _refuse(self, why: str) -> None:
        self.session.refuse(why)

    def _building(self) -> None:
        self._update_choosing()
        self.session.tell(Change.BUILDING)

    def tap_action(self, player: str, action: str) -> list[Event] | None:
        """Tap 1: an action on a player's panel. Calls with no count are made at once. An
        action that cannot be called now is refused at once, saying why."""
        if action not in GRAMMAR:
            raise InvalidCall(f"action {action!r}: choose one of {', '.join(GRAMMAR)}")
        self.builder.clear()
        why = self.closed() or self.why_not(player, action)
        if why is not None:
            self._refuse(why)
            return None
        self.session.clear_notice()  # a new call: the last refusal has been read
        want_count, want_target = self.call_shape(player, action)
        self.builder.actor = player
        self.builder.action = action
        self.builder.want_count = want_count
        self.builder.want_target = want_target
        self._building()
        return self._maybe_finish()

    def tap_count(self, count: int) -> list[Event] | None:
        """Tap 2: how many dice (or hits)."""
        if not self.builder.needs_count:
            self._refuse("choose an action first")
            return None
        why = self.closed()
        if why is None and int(count) not in self.legal_counts():
            why = self._why_not_count(int(count))
        if why is None and int(count) < 1:
            why = f"count {count}: a count is 1 or more"
        if why is not None:
            self.builder.clear()
            self._refuse(why)
            return None
        self.builder.count = int(count)
        self._building()
        return self._maybe_finish()

    def tap_target(self, target: str) -> list[Event] | None:
        """Tap 3: the target of an attack (a player, or one figure of a player)."""
        if not self.builder.needs_target:
            self._refuse("choose an attack and a count first")
            return None
        why = self.closed()
        if why is not None:
            self.builder.clear()
            self._refuse(why)
            return None
        return self._finish(target)

    def toggle_rear(self) -> None:
        """While building an attack: make it "from the rear" (or not again)."""
        if self.builder.action == "attack":
            self.builder.rear = not self.builder.rear
            self._building()
        else:
            self._refuse("from the rear: choose an attack first")

    def cancel(self) -> None:
        """Cancel: a call heard aloud and shown is dropped; else the call being built."""
        if self.heard is not None:
            self.drop_heard("cancelled")
            return
        self.builder.clear()
        self.session.clear_notice()
        self._building()

    def make(self, call: Call) -> list[Event] | None:
        """A call from a panel of the arena (a tribal card): refused while the clock stands."""
        why = self.closed()
        if why is not None:
            self._refuse(why)
            return None
        return self.session.try_call(call)

    def _maybe_finish(self) -> list[Event] | None:
        if self.builder.needs_count:
            return None
        if self.builder.needs_target:
            # only one player can be the target (two players, say): no third tap to ask
            targets = self.possible_targets()
            if len(targets) == 1 and len(self.figures_to_target(targets[0])) <= 1:
                return self.tap_target(targets[0])
            return None
        return self._finish(None)

    def _finish(self, target: str | None) -> list[Event] | None:
        b = self.builder
        assert b.actor is not None and b.action is not None
        try:
            call = self.build(b.actor, b.action, b.count, target, b.rear)
        except RulesError as e:
            self.builder.clear()
            self._refuse(str(e))
            return None
        self.builder.clear()
        self._update_choosing()
        return self.session.try_call(call)

    def build(self, actor: str, action: str, count: int | None, target: str | None,
              rear: bool = False) -> Call:
        """The typed call for an action of ``actor``'s board."""
        seat = self.seat_of(actor)
        me = seat.character.short
        named = self.target_name(target) if target is not None else None
        if action == "unblockable":
            if count is None or named is None:
                raise IllegalCall(f"{me}: Unblockable needs a count and a target")
            return Unblockable(me, count, named)
        board = seat.character.actions.get(action)
        if board is None:
            raise InvalidCall(f"{me} has no {action} action")
        return Act(me, action, board.name, count, named, rear and named is not None)

    def _acts(self, actor: str, action: str) -> list[Act | Unblockable]:
        me = self.seat_of(actor).character.short
        want: type[Act] | type[Unblockable] = Unblockable if action == "unblockable" else Act
        return [c for c in self.game.legal_calls()
                if isinstance(c, want) and c.actor == me
                and (isinstance(c, Unblockable) or (c.key == action and not c.rear))]

    def legal_counts(self) -> list[int]:
        """The counts the call being built can take now, by the engine's legal calls (the
        keypad offers only these)."""
        b = self.builder
        if not b.needs_count or b.actor is None or b.action is None:
            return []
        return sorted({c.count for c in self._acts(b.actor, b.action) if c.count is not None})

    def why_not(self, player: str, action: str) -> str | None:
        """Why ``player``'s ``action`` cannot be called now (no legal call of it), or None.
        Whether it can is the engine's legal calls' answer; why not, the engine's words."""
        if self.possible(player, action):
            return None
        return self.game.why_not(self.seat_of(player).character.short, action)

    def _why_not_count(self, count: int) -> str:
        """Why the call being built cannot take ``count``, in the engine's words."""
        b = self.builder
        assert b.actor is not None and b.action is not None
        return self.game.why_not(self.seat_of(b.actor).character.short, b.action, count)

    def possible(self, player: str, action: str) -> bool:
        """True when ``player`` may call ``action`` now (some legal call of it)."""
        return action in self.possible_actions().get(player, set())

    def possible_actions(self) -> dict[str, set[str]]:
        """Each player's actions that have a legal call now (the arena shows the others
        dimmed), Unblockable hits (from tribal cards) included."""
        by_short = {s.character.short: s for s in self.seats()}
        found: dict[str, set[str]] = {s.player: set() for s in self.seats()}
        for c in self.game.legal_calls():
            if isinstance(c, Unblockable) and c.actor in by_short:
                found[by_short[c.actor].player].add("unblockable")
            elif isinstance(c, Act) and c.actor in by_short and c.key in GRAMMAR:
                found[by_short[c.actor].player].add(c.key)
        return found

    def call_shape(self, actor: str, action: str) -> tuple[bool, bool]:
        """Does this action take a count, a target? Asked of the engine's legal calls first
        (an innate action may or may not take dice); the grammar when none is listed."""
        shapes = {(c.count is not None, c.target is not None) for c in self._acts(actor, action)}
        if len(shapes) == 1:
            return shapes.pop()
        return GRAMMAR[action]

    def target_name(self, target: str) -> str:
        """How a call names ``target``: a player's character, or one figure of a character
        with several (Echo's Guards) by the figure's own name."""
        for seat in self.seats():
            if target in (seat.player, seat.character.short):
                return seat.character.short
        for seat in self.seats():
            if any(f[0] == target for f in seat.figures):
                return target
        raise InvalidCall(f"{target!r}: no such player or figure at this table")

    def figures_to_target(self, player: str) -> list[tuple[str, int, int]]:
        """The standing figures of ``player`` when there are several to choose from (Echo
        and his Guards); empty when the player is simply the target."""
        standing = [f for f in self.seat_of(player).figures if f[1] > 0]
        return standing if len(standing) > 1 else []

    def possible_targets(self) -> list[str]:
        """Players the call being built may name as its target, by the engine's legal calls."""
        b = self.builder
        if b.actor is None or b.action is None or b.count is None:
            return []
        found: list[str] = []
        for c in self._acts(b.actor, b.action):
            if c.count == b.count and c.target is not None:
                player = self.player_of(c.target)
                if player not in found and player != b.actor:
                    found.append(player)
        order = [s.player for s in self.seats()]
        return sorted(found, key=order.index)

    def card_calls(self) -> dict[str, list[Call]]:
        """Tribal-card calls the engine takes now (ready a card, or resolve a ready one), by
        player, for the arena's "More" panel."""
        by_short = {s.character.short: s.player for s in self.seats()}
        found: dict[str, list[Call]] = {}
        for c in self.game.legal_calls():
            card = isinstance(c, Ready) or (isinstance(c, Act) and c.key.startswith("card:")
                                            and not c.rear)
            if card and isinstance(c, Ready | Act) and c.actor in by_short:
                found.setdefault(by_short[c.actor], []).append(c)
        return found

    def dispute(self, players: Sequence[str]) -> list[Event] | None:
        """Players cannot agree: everyone named clears their dice (the engine's dispute)."""
        if not players:
            self._refuse("Dispute: tap who is involved first")
            return None
        return self.session.try_call(Dispute(tuple(self.seat_of(p).character.short
                                                   for p in players)))


__all__ = ["DEFAULT_PARRY_SECONDS", "ArenaCalls", "ParryView", "WindowKey"]
