"""The table session: one game at the table, with its journal, round clock and parry windows.

No Kivy here. The screens and the button handler turn taps and presses into calls through a
:class:`CallBuilder`, and every call goes through :meth:`TableSession.call`, which asks the
game (``game.apply``) first and the journal second, and only then tells the listeners (the
screen). The session keeps no game rule: it knows the grammar of the calls (an attack names a
count and a target) and the clock, and asks the engine about everything else.

Time: the round clock reads an injectable monotonic clock (``time.monotonic`` by default), so
tests and the demo can run a round in a blink. Each call carries the seconds since the round
began, which is what the engine and the journal keep.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.journal import Journal
from rules import Entry, Event, Game, IllegalCall, InvalidCall, RulesError, Setup, from_setup
from rules.core import normalise_time

MonotonicClock = Callable[[], float]

#: Seconds a target has to parry before the hits land (a table setting; the rulebook says
#: "a short window"; see docs/app.md).
DEFAULT_PARRY_SECONDS = 3.0
#: How often, in round seconds, a running clock is saved to the journal.
CLOCK_SAVE_EVERY = 2.0
#: Seconds without a new step of a held "cycle" button after which its target is taken.
CYCLE_SETTLE = 1.0


class RoundClock:
    """A pausable stopwatch over a monotonic clock: seconds into the current round."""

    def __init__(self, length: float, clock: MonotonicClock = time.monotonic,
                 elapsed: float = 0.0, paused: bool = True) -> None:
        self.length = float(length)
        self._clock = clock
        self._base = float(elapsed)
        self._since: float | None = None if paused else clock()

    @property
    def paused(self) -> bool:
        return self._since is None

    def elapsed(self) -> float:
        """Seconds into the round, never past its length."""
        run = 0.0 if self._since is None else self._clock() - self._since
        return min(self.length, self._base + run)

    def remaining(self) -> float:
        return max(0.0, self.length - self.elapsed())

    def pause(self) -> None:
        if self._since is not None:
            self._base = self.elapsed()
            self._since = None

    def start(self) -> None:
        if self._since is None:
            self._since = self._clock()

    def reset(self, length: float | None = None) -> None:
        """Back to 0, paused (a new round)."""
        if length is not None:
            self.length = float(length)
        self._base = 0.0
        self._since = None


@dataclass(frozen=True)
class ButtonPress:
    """A press from the table's buttons, as the hardware layer reports it.

    ``seat`` is the player's seat (0-based, in setup order). ``action`` is an action key
    ("movement", "attack", "heal", "defence", "innate"), "target" (this seat is the target of
    the call being built), "count" (``count`` dice for the call being built), "undo" or "pause".
    ``hold`` (a long press) cancels the call being built, except "cycle" (``count`` = the
    step of a held button): while the seat's attack waits for a target it points at the next
    possible target, and letting go (no step for :data:`CYCLE_SETTLE` s) makes the call.
    """

    seat: int
    action: str
    count: int = 0
    hold: bool = False

    @classmethod
    def from_hardware(cls, event: Any, seats: Sequence[str]) -> ButtonPress | None:
        """Adapt an event of :mod:`hardware.buttons` (duck-typed, so no import here).

        ``seats`` are the button map's seat names in table order ("P1", "P2"...).
        A ``ButtonCall`` (a finished count) becomes a press with that count; a hold meaning
        "undo" becomes undo, any other hold cancels the call being built; a ``ButtonPress``
        (instant feedback while still counting) gives None.
        """
        seat_name = str(event.seat)
        if seat_name not in seats:
            raise InvalidCall(f"button seat {seat_name!r}: the button map has "
                              f"{', '.join(seats)}")
        seat = list(seats).index(seat_name)
        meaning = getattr(event, "meaning", None)
        if meaning is not None:  # a ButtonHold
            if meaning == "undo":
                return cls(seat, "undo")
            if meaning == "cycle":
                return cls(seat, "cycle", int(getattr(event, "repeat", 1)), hold=True)
            return cls(seat, "cancel", hold=True)
        if not hasattr(event, "t") or type(event).__name__ == "ButtonPress":
            return None
        action = _HARDWARE_ACTIONS.get(str(event.action), str(event.action))
        return cls(seat, action, int(event.count))


def counting_feedback(event: Any, seats: Sequence[str]) -> tuple[int, str, int] | None:
    """(seat index, session action, presses so far) for a hardware ``ButtonPress``, the
    instant feedback while a button's presses are still being counted; None for any other
    event or a seat the button map does not have. Nothing is called: it is for the screen."""
    if type(event).__name__ != "ButtonPress" or str(event.seat) not in seats:
        return None
    action = _HARDWARE_ACTIONS.get(str(event.action), str(event.action))
    return list(seats).index(str(event.seat)), action, int(event.count)


#: hardware.buttons action names -> the session's.
_HARDWARE_ACTIONS = {"move": "movement", "defend": "defence", "power": "innate",
                     "next": "pause", "cancel": "cancel"}

# Actions, by their generic key: (needs a count, needs a target, generic word for the call).
_GRAMMAR: dict[str, tuple[bool, bool, str]] = {
    "movement": (True, False, "Movement"),
    "attack": (True, True, "Attack"),
    "defence": (True, False, "Parry"),
    "heal": (False, False, "Heal"),
    "innate": (False, False, ""),
    "unblockable": (True, True, "Unblockable"),
}


@dataclass
class CallBuilder:
    """Builds one call from up to three taps: action -> count -> target."""

    actor: str | None = None
    action: str | None = None
    count: int | None = None
    want_count: bool = False
    want_target: bool = False
    rear: bool = False  # an attack "from the rear": no parry possible
    proposed: str | None = None  # the target a held "cycle" button points at (buttons only)
    proposed_at: float = 0.0  # when it last moved (monotonic seconds)

    @property
    def needs_count(self) -> bool:
        return self.action is not None and self.want_count and self.count is None

    @property
    def needs_target(self) -> bool:
        return self.action is not None and self.want_target and not self.needs_count

    @property
    def active(self) -> bool:
        return self.action is not None

    def clear(self) -> None:
        self.actor = self.action = self.count = self.proposed = None
        self.want_count = self.want_target = self.rear = False


@dataclass
class LogLine:
    """One line of the call log on screen: the journal entry and what it caused."""

    entry: Entry
    events: tuple[str, ...]


Listener = Callable[[str, Sequence[Event]], None]


@dataclass
class Seat:
    """Plain view of one seat, for screens that do not know the game's own view types."""

    player: str
    name: str
    short: str
    health: int | None = None
    max_health: int | None = None
    cup: int | None = None
    knocked_out: bool = False
    team: str | None = None
    trophies: list[str] = field(default_factory=list)
    actions: dict[str, str] = field(default_factory=dict)
    allocation: dict[str, int] = field(default_factory=dict)  # key -> dice, when tracked
    figures: list[tuple[str, int, int]] = field(default_factory=list)  # (name, health, max)


class TableSession:
    """One game at the table: apply, journal, clock, parry windows, undo/redo, listeners."""

    def __init__(self, game: Game[Any], journal: Journal, game_id: int, *,
                 clock: MonotonicClock = time.monotonic,
                 parry_seconds: float = DEFAULT_PARRY_SECONDS,
                 elapsed: float = 0.0, paused: bool = True) -> None:
        self.game = game
        self.journal = journal
        self.game_id = game_id
        self.parry_seconds = float(parry_seconds)
        length = float(getattr(game.options, "round_seconds", 300.0) or 300.0)
        self.clock = RoundClock(length, clock, elapsed, paused)
        self._now = clock
        self.builder = CallBuilder()
        self.listeners: list[Listener] = []
        self.parry_deadlines: dict[str, float] = {}  # player -> round time the window shuts
        self._parry_names: dict[str, str] = {}  # player -> the name the engine gave the target
        self.message = ""
        self._round = self.round_number
        self._saved_at = -CLOCK_SAVE_EVERY
        self._last_tick = self.clock.elapsed()
        # After an undo, no automatic "Hits land" until the next call or redo: otherwise the
        # tick would land again at once the hits a player just took back.
        self.auto_hold = False
        self._sync_parry()

    # -- making and finding games ----------------------------------------------------------

    @classmethod
    def new(cls, journal: Journal, setup: Setup, title: str = "",
            **kwargs: Any) -> TableSession:
        """Start a new game, journal its setup, and return its session (clock paused at 0)."""
        game = from_setup(setup)
        gid = journal.start_game(game.setup, title)
        session = cls(game, journal, gid, **kwargs)
        session.save_clock()
        return session

    @classmethod
    def resume(cls, journal: Journal, game_id: int, **kwargs: Any) -> TableSession:
        """Bring a journaled game back: state, log, redo stack and round clock (paused)."""
        record = journal.load(game_id)
        game = journal.resume(game_id)
        round_number = int(getattr(game, "round_number", 1))
        elapsed = 0.0
        if record.clock is not None and record.clock.round == round_number:
            elapsed = record.clock.elapsed
        if record.entries and record.entries[-1].at is not None:
            # Killed between the call and the clock save: the last call's time is newer,
            # unless that call began this round (its time is the old round's).
            game.undo()
            same_round = int(getattr(game, "round_number", 1)) == round_number
            game.redo()
            if same_round:
                elapsed = max(elapsed, record.entries[-1].at)
        kwargs.setdefault("elapsed", elapsed)
        kwargs["paused"] = True
        return cls(game, journal, game_id, **kwargs)

    # -- views -----------------------------------------------------------------------------

    @property
    def round_number(self) -> int:
        return int(getattr(self.game, "round_number", 1))

    @property
    def rounds_total(self) -> int | None:
        total = getattr(self.game, "rounds_total", None)
        return None if total is None else int(total)

    @property
    def phase(self) -> str:
        phase = getattr(self.game, "phase", None)
        if isinstance(phase, str):
            return phase
        return "over" if self.game.is_over else "playing"

    @property
    def log(self) -> list[Entry]:
        return list(self.game.history)

    def seats(self) -> list[Seat]:
        """Every seat as plain data: the engine's ``seats()`` view when it has one."""
        views = self.game.seats() if hasattr(self.game, "seats") else None
        if views is None:
            return [Seat(p, p, p) for p in self.game.setup.players]
        out = []
        for v in views:
            ch = v.character
            actions = {k: a.name for k, a in getattr(ch, "actions", {}).items()}
            out.append(Seat(v.player, getattr(ch, "name", v.player),
                            getattr(ch, "short", v.player), v.health, v.max_health, v.cup,
                            bool(v.knocked_out), v.team, list(v.trophies), actions,
                            dict(getattr(v, "allocation", {}) or {}),
                            [tuple(f) for f in getattr(v, "figures", ()) or ()]))
        return out

    def pending(self) -> list[Any]:
        return list(self.game.pending()) if hasattr(self.game, "pending") else []

    def parry_left(self, target: str) -> float | None:
        """Seconds left in ``target``'s parry window, or None when none is open."""
        deadline = self.parry_deadlines.get(target)
        return None if deadline is None else max(0.0, deadline - self.clock.elapsed())

    # -- listeners -------------------------------------------------------------------------

    def subscribe(self, listener: Listener) -> None:
        self.listeners.append(listener)

    def _tell(self, what: str, events: Sequence[Event] = ()) -> None:
        for listener in list(self.listeners):
            listener(what, events)

    # -- the one way the game changes --------------------------------------------------------

    def call(self, text: str) -> list[Event]:
        """Apply a call at the round clock's time, journal it, then tell the screen.

        Raises :class:`rules.RulesError` (and journals nothing) when the engine refuses it.
        """
        at = self.clock.elapsed()
        # The engine judges the call first (a refusal changes nothing), the journal takes it
        # (on disk), and only then does the game change: a journal that fails (disk full, a
        # pulled card) leaves game, redo list and journal exactly as they were.
        call = self.game.check(text, at)
        self.journal.record_call(self.game_id, Entry(call.text(), normalise_time(at)))
        events = self.game.apply(call, at)
        self.builder.clear()
        self.message = ""
        self.auto_hold = False
        self._after_change(events)
        self._tell("call", events)
        return events

    def try_call(self, text: str) -> list[Event] | None:
        """Like :meth:`call`, but a refused call shows its reason instead of raising."""
        try:
            return self.call(text)
        except RulesError as e:
            self.message = str(e)
            self._tell("refused")
            return None

    def undo(self) -> Entry | None:
        if not self.game.can_undo:
            self.message = "nothing to undo"
            self._tell("refused")
            return None
        self.journal.record_undo(self.game_id)  # journal first, as for a call
        entry = self.game.undo()
        self.auto_hold = True
        self._after_change(())
        self.save_clock()  # the live calls no longer carry the latest time
        self._tell("undo")
        return entry

    def redo(self) -> Entry | None:
        if not self.game.can_redo:
            self.message = "nothing to redo"
            self._tell("refused")
            return None
        self.journal.record_redo(self.game_id)  # journal first, as for a call
        entry = self.game.redo()
        self.auto_hold = False
        self._after_change(())
        self.save_clock()
        self._tell("redo")
        return entry

    def _after_change(self, events: Sequence[Event]) -> None:
        if self.round_number != self._round:
            self._round = self.round_number
            self.clock.reset()
            self._last_tick = 0.0
            self.parry_deadlines.clear()
        if self.phase != "playing":
            self.clock.pause()
            self.builder.clear()
        if self.game.is_over:
            self.journal.finish(self.game_id)
        self._sync_parry()
        # No clock save here: the call just journaled carries its time, which resume uses
        # (one fsync per call keeps a tap quick); the clock is saved on pause and every
        # CLOCK_SAVE_EVERY seconds of play.

    def _sync_parry(self) -> None:
        """Open a window for each new parryable attack; close windows no longer pending."""
        now = self.clock.elapsed()
        open_now: dict[str, float] = {}
        names: dict[str, str] = {}
        for p in self.pending():
            if getattr(p, "can_parry", True):
                player = self.player_of(p.target)
                open_now[player] = self.parry_deadlines.get(player, now + self.parry_seconds)
                names[player] = p.target
        self.parry_deadlines = open_now
        self._parry_names = names

    # -- the clock -----------------------------------------------------------------------

    def start_round(self) -> None:
        """Yarra Mark!: the round clock runs."""
        if self.phase == "playing" and self.clock.paused:
            self.clock.start()
            self.save_clock()
            self._tell("yarra-mark" if self.clock.elapsed() == 0 else "resume")

    def pause(self) -> None:
        """Stop the clock for a dispute; the parry windows stop with it."""
        if not self.clock.paused:
            self.clock.pause()
            self.save_clock()
            self._tell("pause")

    def save_clock(self) -> None:
        self._saved_at = self.clock.elapsed()
        self.journal.save_clock(self.game_id, self.round_number, self._saved_at,
                                self.clock.paused)

    def tick(self) -> list[Event]:
        """Called often by the screen: lands hits whose parry window closed, ends the round
        when its clock runs out, and saves the clock now and then."""
        events: list[Event] = []
        b = self.builder
        if b.proposed is not None and self._now() - b.proposed_at >= CYCLE_SETTLE:
            events += self.tap_target(b.proposed) or []  # the cycle button was let go
        if self.phase != "playing" or self.clock.paused:
            return events
        now = self.clock.elapsed()
        if self.auto_hold:  # after an undo: windows wait for the next call
            for player in self.parry_deadlines:
                self.parry_deadlines[player] = max(self.parry_deadlines[player], now + 0.001)
        else:
            for p in self.pending():
                if not getattr(p, "can_parry", True):
                    events += self._auto(f"Hits land on {p.target}")
            for player, deadline in sorted(self.parry_deadlines.items(), key=lambda kv: kv[1]):
                if now >= deadline and player in self.parry_deadlines:
                    name = self._parry_names.get(player, player)
                    events += self._auto(f"Hits land on {name}", player)
        for cue, left in (("one-minute", 60.0), ("ten-seconds", 10.0)):
            mark = self.clock.length - left
            if self.clock.length > left and self._last_tick < mark <= now:
                self._tell(cue)
        self._last_tick = now
        if self.phase == "playing" and now >= self.clock.length:
            events += self._auto("Yarra Bung!")
            self._tell("yarra-bung", events)
        if now - self._saved_at >= CLOCK_SAVE_EVERY and not self.clock.paused:
            self.save_clock()
        self._tell("tick", events)
        return events

    def _auto(self, text: str, player: str | None = None) -> list[Event]:
        try:
            return self.call(text)
        except RulesError as e:
            # The engine says no (e.g. the attack was parried meanwhile): forget the window.
            self.message = str(e)
            if player is not None:
                self.parry_deadlines.pop(player, None)
            return []

    def next_round(self) -> list[Event] | None:
        return self.try_call("Next round")

    # -- taps and presses ----------------------------------------------------------------

    def player_of(self, name: str) -> str:
        """The player a name (player, character or figure) belongs to; the name if unknown."""
        try:
            return self.seat_of(name).player
        except InvalidCall:
            return name

    def seat_of(self, player: str) -> Seat:
        for s in self.seats():
            if player in (s.player, s.short):
                return s
        raise InvalidCall(f"{player!r}: no such player at this table")

    def tap_action(self, player: str, action: str) -> list[Event] | None:
        """Tap 1: an action on a player's panel. Calls with no count are made at once."""
        if action not in _GRAMMAR:
            raise InvalidCall(f"action {action!r}: choose one of {', '.join(_GRAMMAR)}")
        self.builder.clear()
        want_count, want_target = self.call_shape(player, action)
        self.builder.actor = player
        self.builder.action = action
        self.builder.want_count = want_count
        self.builder.want_target = want_target
        self._tell("building")
        return self._maybe_finish()

    def tap_count(self, count: int) -> list[Event] | None:
        """Tap 2: how many dice (or hits)."""
        if not self.builder.needs_count:
            self.message = "choose an action first"
            self._tell("refused")
            return None
        self.builder.count = int(count)
        self._tell("building")
        return self._maybe_finish()

    def tap_target(self, player: str) -> list[Event] | None:
        """Tap 3: the target of an attack."""
        if not self.builder.needs_target:
            self.message = "choose an attack and a count first"
            self._tell("refused")
            return None
        return self._finish(target=player)

    def toggle_rear(self) -> None:
        """While building an attack: make it "from the rear" (or not again)."""
        if self.builder.action in ("attack",):
            self.builder.rear = not self.builder.rear
            self._tell("building")
        else:
            self.message = "from the rear: choose an attack first"
            self._tell("refused")

    def cancel(self) -> None:
        self.builder.clear()
        self._tell("building")

    def _maybe_finish(self) -> list[Event] | None:
        if self.builder.needs_count or self.builder.needs_target:
            return None
        return self._finish(None)

    def _finish(self, target: str | None) -> list[Event] | None:
        b = self.builder
        assert b.actor is not None and b.action is not None
        texts = self.call_texts(b.actor, b.action, b.count, target)
        if b.rear and target is not None:
            texts = [f"{t} from the rear" for t in texts]
        self.builder.clear()
        last: RulesError | None = None
        for text in texts:
            try:
                return self.call(text)
            except InvalidCall as e:
                last = e
            except IllegalCall as e:
                last = e
                break
        self.message = str(last)
        self._tell("refused")
        return None

    def call_shape(self, actor: str, action: str) -> tuple[bool, bool]:
        """Does this action take a count, a target? Asked of the engine's legal calls first
        (an innate action may or may not take dice); the call grammar when none is listed."""
        needs_count, needs_target, generic = _GRAMMAR[action]
        seat = self.seat_of(actor)
        names = [n for n in (seat.actions.get(action), generic) if n]
        try:
            legal = [str(c) for c in self.game.legal_calls()]
        except NotImplementedError:
            legal = []
        for name in names:
            prefix = f"{seat.short}: {name}"
            shapes = set()
            for text in legal:
                if text == prefix:
                    shapes.add((False, False))
                elif text.startswith(prefix + " "):
                    rest = text[len(prefix) + 1:].split()
                    shapes.add((bool(rest) and rest[0].isdigit(), " on " in f" {text} "))
            if len(shapes) == 1:
                return shapes.pop()
        return needs_count, needs_target

    def call_texts(self, actor: str, action: str, count: int | None,
                   target: str | None) -> list[str]:
        """The words for a call built by taps: by the board's own action name first, then by
        the generic word (both are canonical in the Eye for an Eye contract)."""
        seat = self.seat_of(actor)
        who = seat.short
        generic = _GRAMMAR[action][2]
        needs_count, needs_target = count is not None, target is not None
        names = [n for n in (seat.actions.get(action), generic) if n]
        names = list(dict.fromkeys(names))
        if not names:
            raise InvalidCall(f"{who} has no {action} action")
        tail = ""
        if needs_count:
            tail += f" {count}"
        if needs_target:
            assert target is not None
            tail += f" on {self.target_name(target)}"
        return [f"{who}: {name}{tail}" for name in names]

    def target_name(self, target: str) -> str:
        """How a call names ``target``: a player's character, or one figure of a character
        with several (Echo's Guards) by the figure's own name."""
        for seat in self.seats():
            if target in (seat.player, seat.short):
                return seat.short
        for seat in self.seats():
            if any(f[0] == target for f in seat.figures):
                return target
        raise InvalidCall(f"{target!r}: no such player or figure at this table")

    def figures_to_target(self, player: str) -> list[tuple[str, int, int]]:
        """The standing figures of ``player`` when there are several to choose from (Echo
        and his Guards); empty when the player is simply the target."""
        standing = [f for f in self.seat_of(player).figures if f[1] > 0]
        return standing if len(standing) > 1 else []

    def press(self, press: ButtonPress) -> list[Event] | None:
        """A hardware button: the same three steps as touch, from the table's buttons."""
        players = list(self.game.setup.players)
        if not 0 <= press.seat < len(players):
            raise InvalidCall(f"button seat {press.seat}: this table has seats 0-"
                              f"{len(players) - 1}")
        player = players[press.seat]
        if press.action == "cycle" and self.builder.needs_target \
                and self.builder.actor == player:
            return self.cycle_target(press.count)
        if press.hold:
            self.cancel()
            return None
        if press.action == "undo":
            self.undo()
            return None
        if press.action == "pause":
            if self.clock.paused:
                self.start_round()
            else:
                self.pause()
            return None
        if press.action == "cancel":
            self.cancel()
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
            self.message = "no one to target"
            self._tell("refused")
            return None
        self.builder.proposed = targets[(max(1, step) - 1) % len(targets)]
        self.builder.proposed_at = self._now()
        self._tell("building")
        return None

    def possible_targets(self) -> list[str]:
        """Players the call being built may name as its target, by the engine's legal calls."""
        b = self.builder
        if b.actor is None or b.action is None or b.count is None:
            return []
        try:
            legal = {str(c) for c in self.game.legal_calls()}
        except NotImplementedError:
            return []
        found = []
        for seat in self.seats():
            if seat.player == b.actor:
                continue
            texts = self.call_texts(b.actor, b.action, b.count, seat.player)
            if any(t in legal for t in texts):
                found.append(seat.player)
        return found


    def card_calls(self) -> dict[str, list[str]]:
        """Tribal-card calls the engine takes now (ready a card, or resolve a ready one), by
        player, for the arena's "More" panel. Asked of the engine's legal calls."""
        try:
            legal = self.game.legal_calls()
        except NotImplementedError:
            return {}
        by_short = {seat.short: seat.player for seat in self.seats()}
        found: dict[str, list[str]] = {}
        for call in legal:
            is_card = type(call).__name__ == "Ready" or str(
                getattr(call, "key", "")).startswith("card:")
            actor = getattr(call, "actor", None)
            if is_card and actor in by_short:
                found.setdefault(by_short[actor], []).append(str(call))
        return found

    def dispute(self, players: Sequence[str]) -> list[Event] | None:
        """Players cannot agree: everyone named clears their dice (the engine's dispute)."""
        names = [self.seat_of(p).short for p in players]
        if not names:
            self.message = "Dispute: tap who is involved first"
            return None
        return self.try_call("Dispute: " + ", ".join(names))


__all__ = ["ButtonPress", "CallBuilder", "LogLine", "RoundClock", "Seat", "TableSession"]
