"""What Eye for an Eye's screens show, with no Kivy: the arena's and the between-rounds table's
view state, read from the arena's calls (:class:`~companion.games.eye_for_an_eye.calls.ArenaCalls`,
whose taps are the actions), and the seat lights.

The screens draw these looks and forward touches to the calls; everything they say (a seat's
header and health, what each action button says and whether it is lit, the message box, the
keypad, the clock, the between-rounds rows and note) is decided here and tested as plain Python
(tests/companion/games/test_eye_model.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from companion.games.eye_for_an_eye.building import KEYPAD, CallBuilder
from companion.games.eye_for_an_eye.calls import ArenaCalls, ParryView
from companion.games.eye_for_an_eye.look import ACTION_KEYS, ACTION_WORDS, action_words, plural
from companion.session import Change, SessionChange
from companion.words import fmt_clock, fmt_clock_at
from hardware.buttons import Light
from rules import Event
from rules.eye_for_an_eye.events import EventKind
from rules.eye_for_an_eye.game import SeatView
from rules.eye_for_an_eye.scoring import RoundRow

#: What the engine says that the screen between rounds notes.
BETWEEN_NOTES: tuple[EventKind, ...] = ("tie-break", "match-over")
TIE_BREAK: EventKind = "tie-break"

#: A seat's header: its own colour, white (a possible target), white saying "let go to hit"
#: (the target a held button points at), grey (knocked out or sitting out).
HeaderTone = Literal["own", "target", "proposed", "knocked"]
#: An action button: being built or waiting for a parry (lit), callable now, or not.
ButtonTone = Literal["live", "possible", "dim"]
#: The round clock: standing, running, in its last ten seconds.
ClockTone = Literal["stopped", "running", "urgent"]
#: Most seats with the call log beside the panels (at 5-6 the message box shows the newest).
LOG_BESIDE = 4


@dataclass(frozen=True)
class ActionLook:
    """One action button: its words (longest first, the screen shows the first that fits),
    what follows them (" 2.4s" on an open Parry), its tone, the dice on its board space."""

    words: tuple[str, ...]
    extra: str
    tone: ButtonTone
    badge: int
    disabled: bool


@dataclass(frozen=True)
class SeatLook:
    """One seat's panel. ``header`` are the name's parts (character, player), joined by the
    screen (on two lines in a tall panel); ``cup`` the team/cup line, longest first;
    ``figures`` (name, health, most) stand in place of name and health while an attack may
    target one of several figures (Echo and his Guards), else None."""

    player: str
    header: tuple[str, ...]
    tone: HeaderTone
    outlined: bool
    health: str
    bar: float
    cup: tuple[str, ...]
    actions: dict[str, ActionLook]
    figures: tuple[tuple[str, int, int], ...] | None
    out: bool


@dataclass(frozen=True)
class EyeForAnEyeView:
    """The arena around the panels: round, clock and its button, the keypad, Rear and
    Cancel, the message box (white on red when ``refused``; its words longest first, the
    screen shows the first that fits), the newest calls."""

    round: str
    clock: str
    clock_tone: ClockTone
    go: str
    counts: frozenset[int]
    rear_enabled: bool
    rear_lit: bool
    cancel_enabled: bool
    prompt: tuple[str, ...]
    refused: bool
    log: tuple[str, ...]


@dataclass(frozen=True)
class BetweenLook:
    """The between-rounds table: title, the rows (rank, side, cup, bonus, score, points,
    match points), the next button's words and the note under the table."""

    title: str
    rows: tuple[tuple[str, str, str, str, str, str, str], ...]
    next: str
    note: str


def result_row(row: RoundRow) -> tuple[str, int, int, int, int, int]:
    """(side, cup, standing bonus, score, rank, points) of a round's result row."""
    return (row.side, row.cup, row.standing_bonus, row.score, row.rank, row.points)


#: How a round ended, in words.
ENDED_BY = {"time": "the clock ran out (Yarra Bung!)", "last standing": "one side left standing"}


def clock_words(clock_state: str, running: bool) -> str:
    """The clock button in a round being played: Pause while it runs, Yarra Mark! before the
    round, Yarra Bung! when its end was taken back by Undo (the time is up), else Resume."""
    return ("Pause" if running else "Yarra Mark!" if clock_state == "ready" else
            "Yarra Bung!" if clock_state == "over" else "Resume")


#: What the clock's button does: the round clock (Yarra Mark!, Pause, Resume, Yarra Bung!),
#: or, once the round or the match is over (nothing left to time), show its results.
GoAction = Literal["clock", "results"]


@dataclass(frozen=True)
class ClockLook:
    """The round clock's text and tone, and its button's words and what it does."""

    text: str
    tone: ClockTone
    go: str
    go_action: GoAction


@dataclass
class EyeForAnEyeModel:
    """The arena's view state over its calls; ``refused``: the message is a refusal."""

    calls: ArenaCalls
    refused: bool = False

    # -- the session -----------------------------------------------------------------------

    def on_session(self, change: SessionChange) -> None:
        """A change of the session (its table hands every change here before the screens
        draw): the calls read it first; a refusal shows white on red until the game
        changes."""
        self.calls.on_session(change)
        if change.kind is Change.REFUSED:
            self.refused = True
        elif change.game_changed or change.kind is Change.BUILDING:
            self.refused = False

    def say(self, text: str, *, refused: bool = False) -> None:
        """A notice ("Undid: ...") or a refusal (the camera's) in the message box."""
        self.calls.session.note(text)
        self.refused = refused

    @property
    def log_beside(self) -> bool:
        return len(self.calls.seats()) <= LOG_BESIDE

    # -- the seats -------------------------------------------------------------------------

    def seat_look(self, seat: SeatView, possible: set[str] | None = None,
                  closed: bool | None = None) -> SeatLook:
        """One seat's panel (``possible``: its actions callable now; ``closed``: the clock
        takes no call; both asked of the calls when not given)."""
        calls = self.calls
        b = calls.builder
        if possible is None:
            playing = calls.game.state.phase == "playing"
            possible = calls.possible_actions().get(seat.player, set()) if playing else set()
        if closed is None:
            closed = calls.closed() is not None
        parry = calls.parry_view(seat.player)
        short = seat.character.short
        header: tuple[str, ...] = (short,) if short == seat.player else (short, seat.player)
        targeting = b.needs_target and b.actor != seat.player
        out = seat.knocked_out or not seat.playing
        # a heard call several players could have said: their names are tapped to say who
        targetable = (targeting and not out) or calls.asks(seat.player)
        tone: HeaderTone
        if out:
            tone = "knocked"
        elif targetable and b.proposed == seat.player:
            tone, header = "proposed", (f"{short}: let go to hit",)
        else:
            tone = "target" if targetable else "own"
        if not seat.playing:
            health = "Sits out this round"
        elif seat.knocked_out:
            health = "Knocked out"
        else:
            health = f"Health {seat.health}/{seat.max_health}"
        cup = " · ".join(([seat.team] if seat.team else []) + [f"Cup {seat.cup}"])
        # Knockouts score nothing of their own: where the room is short they give way.
        cups = (f"{cup} · {plural(len(seat.trophies), 'KO')}", cup) if seat.trophies else (cup,)
        actions = {key: self._action(seat, key, b, parry, possible, closed, out)
                   for key in ACTION_KEYS}
        standing = tuple(f for f in seat.figures if f[1] > 0)
        figures = standing if targeting and not out and len(standing) > 1 else None
        return SeatLook(seat.player, header, tone, targetable, health,
                        seat.health / max(1, seat.max_health), cups, actions, figures, out)

    @staticmethod
    def _action(seat: SeatView, key: str, b: CallBuilder, parry: ParryView | None,
                possible: set[str], closed: bool, out: bool) -> ActionLook:
        extra = ""
        live = b.actor == seat.player and b.action == key
        if key == "defence" and parry is not None:
            extra = " held" if parry.state == "held" else f" {parry.seconds:0.1f}s"
            live = live or not (b.active and b.actor == seat.player)
        tone: ButtonTone = ("live" if live and not out else
                            "possible" if key in possible and not closed else "dim")
        badge = int(seat.allocation.get(key, 0)) if not out else 0
        return ActionLook(action_words(seat, key), extra, tone, badge, out)

    def seats_look(self) -> list[SeatLook]:
        calls = self.calls
        possible = calls.possible_actions() if calls.game.state.phase == "playing" else {}
        closed = calls.closed() is not None
        return [self.seat_look(s, possible.get(s.player, set()), closed) for s in calls.seats()]

    def lights(self) -> list[Light]:
        """Each seat's light: lit while that seat may parry, blinking when knocked out."""
        out: list[Light] = []
        for seat in self.calls.seats():
            if seat.knocked_out:
                out.append("blink")
            else:
                out.append("on" if self.calls.parry_left(seat.player) is not None else "off")
        return out

    def parry_extra(self, player: str) -> str | None:
        """The running countdown on a seat's Parry button (None when none runs)."""
        parry = self.calls.parry_view(player)
        if parry is None or parry.state == "held":
            return None
        return f" {parry.seconds:0.1f}s"

    # -- around the panels -----------------------------------------------------------------

    def log_lines(self, limit: int | None = None) -> list[str]:
        """The call log, newest first ("0:12 Grubic: Spear Thrust 3 on Riparian")."""
        log = self.calls.session.log
        if limit is not None:
            log = log[-limit:]
        return [f"{fmt_clock_at(e.at)} {e.call}".strip() for e in reversed(log)]

    def clock(self) -> ClockLook:
        """The clock's text and tone, and its button (see :class:`ClockLook`)."""
        clock = self.calls.session.clock
        tone: ClockTone = ("stopped" if not clock.running else
                           "urgent" if clock.remaining <= 10 else "running")
        game = self.calls.game
        if game.state.phase != "playing":
            return ClockLook(fmt_clock(clock.remaining), "stopped", "Results", "results")
        return ClockLook(fmt_clock(clock.remaining), tone,
                         clock_words(clock.state, clock.running), "clock")

    def view(self) -> EyeForAnEyeView:
        calls = self.calls
        game = calls.game
        b = calls.builder
        number, total = game.state.round_number, game.rounds_total
        clock = self.clock()
        return EyeForAnEyeView("Tie-break" if number > total else f"Round {number}/{total}",
                         clock.text, clock.tone, clock.go,
                         frozenset(calls.legal_counts()) & set(KEYPAD),
                         b.action == "attack", b.rear, b.active or calls.heard is not None,
                         self.prompt(),
                         bool(calls.session.message) and self.refused,
                         tuple(self.log_lines(14)))

    def prompt(self) -> tuple[str, ...]:
        """The message box, longest words first: a refusal or a notice, the call being
        built, what the clock allows, the round or the match over, or the newest call (at 5-6
        players, where no log stands beside; "Last call:" gives way where the call needs the
        room)."""
        news = self._news() or self._ended()
        if not self.log_beside and self.calls.session.log and not news:
            newest = self.log_lines(1)[0]
            return ("Last call:\n" + newest, newest)
        if self.calls.heard is not None and not self.calls.session.message:
            return self.heard_words()
        return (news or "Tap an action on your panel",)

    def _ended(self) -> str:
        """What the message box says once the round or the match is over ("" while it is
        played): no call is taken then, so it never asks for one."""
        game = self.calls.game
        if game.is_over:
            winner = game.winner
            return (f"The match is over: {winner} wins" if winner else
                    "The match is over") + ". Results: the final table"
        if game.state.phase != "playing":
            return f"Round {game.state.round_number} is over. Results: the next round"
        return ""

    def _news(self) -> str:
        """What the message box says before the newest call, if anything."""
        calls = self.calls
        b = calls.builder
        message = calls.session.message
        if message:
            return message
        heard = self.heard_words()
        if heard:
            return heard[0]
        if b.actor is not None and b.action is not None:
            seat = calls.seat_of(b.actor)
            action = seat.character.actions.get(b.action)
            what = f"{seat.character.short}: " + (action.name if action is not None
                                                 else ACTION_WORDS[b.action][0])
            if b.needs_count:
                return f"{what}\nHow many dice? Tap a count"
            if b.needs_target:
                rear = " from the rear" if b.rear else ""
                return f"{what} {b.count}{rear}\nTap the target (white)"
            return what
        if calls.closed() is not None:
            return ("Paused: no calls until Resume.\nUndo and Redo still work."
                    if calls.session.clock.state == "paused"
                    else "Tap Yarra Mark! to start the round")
        return ""

    def heard_words(self) -> tuple[str, ...]:
        """A call heard aloud and shown: what was heard, who said it (or the question) and
        what Cancel does, longest first (the screen shows the first that fits)."""
        w = self.calls.heard
        if w is None:
            return ()
        h = w.heard
        if h.ambiguous:
            return (f"Heard: {h.said}\nWho said it? Tap their name", f"{h.said}\nWho said it?")
        who = self.calls.seat_of(h.speakers[0]).character.short \
            if h.speakers and h.table is None else ""
        said = f"{who}: {h.said}" if who else h.said
        return (f"Heard: {said}\nCancel drops it", f"Heard: {said}", said, h.said)

    def counting(self, seat: int, action: str, count: int) -> tuple[str, str] | None:
        """A seat's button still being counted: (its player, the message box's words), or
        None for a seat the table does not have."""
        seats = self.calls.seats()
        if not 0 <= seat < len(seats):
            return None
        s = seats[seat]
        board = s.character.actions.get(action)
        label = board.name if board is not None else action.title()
        return s.player, f"{s.character.short}: {label} {count}...\npress again to add"

    # -- between rounds ----------------------------------------------------------------------

    def side_text(self, side: str) -> str:
        """A side as the table shows it: a player or a team, over its characters."""
        members = [s.character.short for s in self.calls.seats() if s.side == side]
        return f"{side}\n{', '.join(members)}" if members and members != [side] else side

    def between(self, events: Sequence[Event] = ()) -> BetweenLook:
        """The round's ranking, the next step and the notes (the tie-break, the winner)."""
        game = self.calls.game
        results = game.round_results()
        match = game.match_points()
        last = results[-1] if results else None
        rows = tuple((str(r.rank), self.side_text(r.side), str(r.cup), f"+{r.standing_bonus}",
                      str(r.score), f"+{r.points}", str(match.get(r.side, 0)))
                     for r in (last.rows if last is not None else ()))
        number = last.number if last is not None else game.state.round_number
        if game.is_over:
            winner = game.winner
            title = f"Winner: {winner}" if winner else "The match is over"
            next_words = "New game"
        else:
            title = ("Tie-break round results" if last is not None and last.tiebreak
                     else f"Round {number} results")
            next_words = "Next round"
        notes = [e.text for e in events if e.kind in BETWEEN_NOTES]
        if last is not None and last.ended_by:
            notes.insert(0, "Round ended: " + ENDED_BY.get(last.ended_by, last.ended_by))
        total = game.rounds_total
        if not game.is_over:
            if number >= total:  # the match is not over after its last round: a tie
                if not any(e.kind == TIE_BREAK for e in events):
                    notes.append("Tied: a tie-break round is next")
                next_words = "Tie-break round"
            else:
                notes.append(f"{plural(total - number, 'round')} to play")
        return BetweenLook(title, rows, next_words, ".  ".join(notes))


__all__ = [
    "ActionLook",
    "BetweenLook",
    "ClockLook",
    "EyeForAnEyeModel",
    "EyeForAnEyeView",
    "SeatLook",
    "result_row",
]
