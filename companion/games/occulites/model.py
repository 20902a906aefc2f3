"""Dice of the Occulites at the table, without Kivy: what the screen shows and what each tap,
camera reading and timer cue means.

The model keeps no rule: it sends the engine's calls (values, never words to be parsed again)
through the session and reads the engine's views (``current_cards()``, ``whose_turn()``,
``share_choices()``, ``standings()``, the reveal's card events). What it keeps between taps is
the table's: the die slot being entered, line-ups being entered or confirmed, the reveal being
stepped through card by card, the Share Knowledge choice being made, the timer cues already
heard. :meth:`OcculitesModel.view` is everything the screen draws (:class:`~.view.OcculitesView`,
names to stress as plain data, never markup); the side panel's words and controls come from
:mod:`.panels`, the reveal's outcomes from :mod:`.reveal`. The screen forwards touches to the
actions here. Tested as plain Python (tests/companion/).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from companion.games.emphasis import Text, joined, plain, strong
from companion.games.occulites.adapter import (
    LineupRead,
    Rect,
    SlotRead,
    corrections,
    lineup_call,
    read_lineups,
)
from companion.games.occulites.panels import panel_parts
from companion.games.occulites.reveal import Outcome, Resolving, resolving_from
from companion.games.occulites.timer import due_cues, timed, timer_words
from companion.games.occulites.view import (
    CARDS,
    CardView,
    Frame,
    OcculitesView,
    Panel,
    RowView,
    SlotView,
)
from companion.games.refusal import refusal_reason
from companion.session import Change, SessionChange, TableSession
from companion.words import plural
from rules import Event
from rules.occulites import CARDS as ALL_CARDS
from rules.occulites import OcculitesGame, TimerCue, timer_cues
from rules.occulites.events import EventKind
from rules.occulites.game import (
    ChooseTribe,
    OcculitesOptions,
    Pass,
    Reveal,
    Share,
    TakeDie,
)
from vision.types import Reading

#: What the engine says that the table tells the players at once.
NOTICED: frozenset[EventKind] = frozenset({"round-over", "game-over", "creature", "reshuffle",
                                           "share", "pass"})
REVEAL: EventKind = "reveal"

#: Told when the players confirmed or corrected dice the camera read (Host.correct_roll).
CorrectRoll = Callable[[Reading, Mapping[int, str]], None]


@dataclass
class OcculitesModel:
    """The table's model (no game state: only what the table is in the middle of)."""

    session: TableSession[OcculitesGame]
    #: Each player's line-up area on the table, from the calibration profile (or None).
    zones: Mapping[str, Rect] | None = None
    sel: tuple[str, int] | None = None  # the die slot being entered
    chooser: str | None = None  # the player choosing a Tribe
    drafts: dict[str, list[SlotRead | None]] = field(default_factory=dict)
    flagged: dict[str, set[int]] = field(default_factory=dict)  # slots (0-5) to confirm
    snapshot: dict[str, tuple[SlotRead, ...]] = field(default_factory=dict)
    resolving: Resolving | None = None
    share_give: str | None = None  # Share Knowledge: the die given,
    share_source: str | None = None  # then where the die taken comes from
    fired: set[int] = field(default_factory=set)  # timer cues already heard this roll
    notice: str = ""
    settled: Reading | None = None  # the camera feed's newest settled view
    #: Line-ups the camera left to confirm: (its reading, the slots as read, the draft).
    read_slots: dict[str, tuple[Reading, tuple[SlotRead | None, ...],
                                list[SlotRead | None]]] = field(default_factory=dict)
    correct_roll: CorrectRoll | None = None
    round_seen: int = 0
    _history: int = 0

    def __post_init__(self) -> None:
        self.round_seen = self.game.state.round
        self._history = len(self.game.history)

    def on_session(self, change: SessionChange) -> None:
        """The session changed (its host hands every change here before the screen draws):
        a call, an undo, a redo or a refusal is read."""
        if change.game_changed or change.kind is Change.REFUSED:
            self.refresh(change.events)

    @property
    def game(self) -> OcculitesGame:
        return self.session.game

    @property
    def players(self) -> list[str]:
        return list(self.game.setup.players)

    @property
    def timer_on(self) -> bool:
        """True once the dice were rolled this round (the round clock counts from the roll)."""
        return (self.game.phase == "allocate" and self.resolving is None
                and self.session.clock.state != "ready")

    @property
    def since_roll(self) -> float:
        """Seconds since the dice were rolled (the round clock's time)."""
        return self.session.clock.elapsed

    # -- after every change --------------------------------------------------------------------

    def refresh(self, events: Sequence[Event] = ()) -> None:
        """A call (with its events), an undo, a redo or a refusal."""
        session = self.session
        st = self.game.state
        kinds = [e.kind for e in events]
        history = len(self.game.history)
        changed, self._history = history != self._history, history
        if REVEAL in kinds:
            self._start_resolving(events)
        elif not events and changed:  # undo or redo: nothing half-entered survives
            self.resolving = None
            self.drafts.clear()
            self.flagged.clear()
            self.sel = None
        if st.round != self.round_seen:
            self.round_seen = st.round
            self.fired.clear()
            self.drafts.clear()
            self.flagged.clear()
            self.sel = None
        texts = [e.text for e in events if e.kind in NOTICED]
        if not events and not changed and session.message:  # a refused call: say why
            self.notice = refusal_reason(session)
        elif texts and self.resolving is None:
            self.notice = ". ".join(texts)
        elif events:
            self.notice = ""
        if self.game.phase == "allocate":
            self.snapshot = {p: tuple(SlotRead(d.colour, d.pips) for d in dice)
                             for p, dice in st.lineups.items()}
        if events or changed:
            self.share_give = self.share_source = None

    def _start_resolving(self, events: Sequence[Event]) -> None:
        self.fired.clear()
        self.resolving = resolving_from(events, self.round_seen, dict(self.snapshot))

    # -- reading what is shown -------------------------------------------------------------------

    def outcome_for(self, number: int) -> Outcome | None:
        """Card ``number``'s outcome as far as the table has seen it."""
        if self.resolving is not None:
            if number > self.resolving.step:
                return None
            return next((o for o in self.resolving.outcomes if o.number == number), None)
        if self.game.phase in ("share", "over"):
            for o in self.game.state.outcomes:
                if o.number == number:
                    return Outcome(o.number, o.explanation, o.points, o.winner,
                                   tuple(o.discoverers))
        return None

    def card_ids(self) -> list[str]:
        if self.resolving is not None:
            return list(self.resolving.cards)
        return [c.id for c in self.game.current_cards()]

    def lineup_of(self, player: str) -> list[SlotRead | None]:
        """A player's six dice as shown: being entered, as revealed, or the engine's."""
        if player in self.drafts:
            return list(self.drafts[player])
        if self.resolving is not None:
            slots: Sequence[SlotRead] = self.resolving.lineups.get(player, ())
        else:
            slots = [SlotRead(d.colour, d.pips)
                     for d in self.game.state.lineups.get(player, ())]
        return list(slots) if slots else [None] * CARDS

    def shown_points(self, player: str) -> int:
        points = int(self.game.state.points[player])
        if self.resolving is not None:  # the engine's points already hold all six cards
            for o in self.resolving.outcomes:
                if o.number > self.resolving.step and player in o.discoverers:
                    points -= o.points
        return points

    def chooser_now(self) -> str | None:
        st = self.game.state
        free = [p for p in self.players if st.tribe_of.get(p) is None]
        if self.chooser in free:
            return self.chooser
        return free[0] if free else None

    def can_confirm(self) -> bool:
        if self.sel is None:
            return False
        p, i = self.sel
        slot = self.drafts.get(p, [None] * CARDS)[i]
        return slot is not None and slot.colour is not None and slot.pips is not None

    def may_forfeit(self) -> bool:
        opts = self.game.options
        return bool(opts.timer and opts.late_lineups == "forfeit" and self.timer_on
                    and self.since_roll >= opts.deadline)

    # -- the view --------------------------------------------------------------------------------

    def view(self) -> OcculitesView:
        g = self.game
        st = g.state
        phase = g.phase
        rounds = g.options.rounds
        if self.resolving is not None:
            tribe = self.cards_tribe()
            title = f"Round {self.resolving.round} of {rounds}: " + (
                f"{tribe}, the cards" if tribe else "the cards")
        elif phase == "tribes":
            title = "Setup: choose your Tribes"
        elif phase == "draft":
            title = "Setup: Lots of Interests draft"
        elif phase == "over":
            title = f"Game over after {plural(rounds, 'round')}"
        else:
            what = st.tribe or "mixed piles"
            step = "Share Knowledge" if phase == "share" else "line up"
            title = f"Round {st.round} of {rounds}: {what}, {step}"
        panel: Panel = ("resolving" if self.resolving is not None else
                        phase if phase in ("tribes", "draft", "allocate", "share") else "over")
        lines, controls, colours = panel_parts(self, panel)
        message = joined((self.notice, *lines))
        return OcculitesView(title, self.timer_text(), self._cards(), self._rows(), message,
                         panel, controls, colours)

    def cards_tribe(self) -> str | None:
        """The Tribe all the cards on show come from (the round's: a Creature or Predator may
        stand in for one of its cards), or None when they come from several (mixed piles) or
        none are on show."""
        tribes = {ALL_CARDS[i].set for i in self.card_ids()} - {"Creatures", "Predators"}
        return next(iter(tribes)) if len(tribes) == 1 else None

    def _cards(self) -> tuple[CardView, ...]:
        ids = self.card_ids()
        tribe = self.cards_tribe()
        step = self.resolving.step if self.resolving is not None else None
        out = []
        for i in range(CARDS):
            if i >= len(ids):
                out.append(CardView(Text(), None, False))
                continue
            card = ALL_CARDS[ids[i]]
            name = card.set[:-1] if card.set in ("Creatures", "Predators") else card.set
            # The number (the points) on a line of its own, the colour always written (it
            # decides ties: never the colour alone), the card's Tribe where it is not the
            # round's (the title names that one): short lines grow with the text size.
            lines = [strong(str(card.number)), plain(card.colour)]
            if card.set != tribe:
                lines.append(plain(name))
            o = self.outcome_for(i + 1)
            if o is not None:
                # Who won is framed on the players' dice below; the card says how.
                lines.append(strong("nobody" if not o.discoverers else
                                    f"+{o.points} alone" if o.winner else
                                    f"+{o.points} each"))
            out.append(CardView(joined(lines), card.colour, step == i + 1))
        return tuple(out)

    def _rows(self) -> tuple[RowView, ...]:
        g = self.game
        st = g.state
        turn = g.whose_turn()
        step = self.resolving.step if self.resolving is not None else None
        current = self.outcome_for(step) if step is not None else None
        winners = {i: set(o.discoverers) for i in range(CARDS)
                   if (o := self.outcome_for(i + 1)) is not None}
        out = []
        for p in self.players:
            tribe = st.tribe_of.get(p) or ""
            status = ""
            if self.resolving is None and g.phase == "allocate":
                status = ("check ?" if self.flagged.get(p) else
                          "lined up" if p in st.lineups else "waiting")
            elif g.phase == "tribes" and p == self.chooser_now():
                status = "choosing"
            elif g.phase == "draft":
                status = plural(sum(st.dice[p].values()), "die", "dice") + (
                    ", turn" if p == turn else "")
            elif p == turn and self.resolving is None:
                status = "your turn"
            won = current is not None and p in current.discoverers
            if current is not None and won:
                status = "WINS" if current.winner == p else "shares"
            points = plural(self.shown_points(p), "point")
            doing = " · ".join(w for w in (tribe, status) if w)
            lit = won or (p == turn and self.resolving is None) or \
                (g.phase == "tribes" and p == self.chooser_now())
            flags = self.flagged.get(p, set())
            slots = []
            for i, s in enumerate(self.lineup_of(p)):
                pips = s.pips if s else None
                mark = "?" if i in flags and pips else ""
                text = Text() if s is None else \
                    strong(f"{pips or '?'}{mark}") + f"\n{s.colour or '?'}"
                frame: Frame = ""
                if self.sel == (p, i):
                    frame = "selected"
                elif i in flags:
                    frame = "check"
                elif (step is None or step == i + 1) and p in winners.get(i, ()):
                    frame = "won"
                slots.append(SlotView(text, s.colour if s else None, frame))
            out.append(RowView(p, strong(p) + f"\n{points}\n{doing}", lit, tuple(slots)))
        return tuple(out)

    def timer_text(self) -> str:
        return timer_words(self.game.options, self.since_roll) if self.timer_on else ""

    # -- taps ---------------------------------------------------------------------------------

    def tap_player(self, player: str) -> None:
        if self.game.phase == "tribes":
            self.chooser = player
        elif self.game.phase == "allocate" and self.resolving is None:
            flags = sorted(self.flagged.get(player, set()))
            self.select(player, flags[0] if flags else 0)

    def choose_tribe(self, tribe: str) -> None:
        who = self.chooser_now()
        if who is not None:
            self.chooser = None
            self.session.try_call(ChooseTribe(who, tribe))

    def take_die(self, colour: str) -> None:
        """The Lots of Interests draft: the player on turn takes a die of this colour."""
        who = self.game.whose_turn()
        if who is None:
            self.session.refuse("No one takes a die now: the draft is over")
        else:
            self.session.try_call(TakeDie(who, colour))

    def tap_slot(self, player: str, index: int) -> None:
        """A die of a line-up: enter or correct it (only while line-ups are given)."""
        if self.resolving is None and self.game.phase == "allocate":
            self.select(player, index)

    def select(self, player: str, index: int) -> None:
        """Pick the die slot to enter; a player holding one colour gets it filled in."""
        self.sel = (player, index)
        draft = self.drafts.setdefault(player, self.lineup_of(player))
        held = [c for c, n in self.game.state.dice[player].items() if n]
        if draft[index] is None and len(held) == 1:
            draft[index] = SlotRead(held[0], None)

    def clear_selection(self) -> None:
        """Drop the line-up being entered for the selected player (the engine's stays)."""
        if self.sel is not None:
            self.drafts.pop(self.sel[0], None)
            self.flagged.pop(self.sel[0], None)
        self.sel = None
        self.notice = ""

    def tap_colour(self, colour: str) -> None:
        if self.sel is None:
            return
        p, i = self.sel
        draft = self.drafts.setdefault(p, self.lineup_of(p))
        old = draft[i]
        draft[i] = SlotRead(colour, old.pips if old else None)

    def tap_pips(self, pips: int) -> None:
        if self.sel is None:
            return
        p, i = self.sel
        draft = self.drafts.setdefault(p, self.lineup_of(p))
        old = draft[i]
        if old is None or old.colour is None:
            self.notice = f"{p}, card {i + 1}: tap the die's colour first"
            return
        draft[i] = SlotRead(old.colour, pips)
        self._settled(p, i)

    def confirm(self) -> None:
        """Accept the selected die as the camera read it (or as entered)."""
        if self.can_confirm():
            assert self.sel is not None
            self._settled(*self.sel)

    def _settled(self, player: str, index: int) -> None:
        """One die is sure now: move on, and make the line-up's call once all six are."""
        self.notice = ""
        flags = self.flagged.setdefault(player, set())
        flags.discard(index)
        draft = self.drafts[player]
        unsure = sorted(flags) + [j for j, s in enumerate(draft)
                                  if (s is None or s.pips is None) and j not in flags]
        if unsure:
            later = [j for j in unsure if j > index]
            self.select(player, later[0] if later else unsure[0])
            return
        self.sel = None
        self._submit(player)

    def _submit(self, player: str) -> None:
        draft = self.drafts[player]
        dice = [(s.colour, s.pips) for s in draft if s and s.colour and s.pips]
        if len(dice) != CARDS:
            return
        if self.session.try_call(lineup_call(player, [(str(c), int(n)) for c, n in dice])
                                 ) is not None:
            read = self.read_slots.pop(player, None)
            if read is not None and read[2] is draft:  # the dice statistics: what was fixed
                fixed = corrections(read[1], draft, read[0].dice)
                if fixed and self.correct_roll is not None:
                    self.correct_roll(read[0], fixed)
            self.drafts.pop(player, None)
            self.flagged.pop(player, None)
        else:
            self.notice = refusal_reason(self.session)
            self.sel = (player, 0)

    def tap_share_colour(self, colour: str) -> None:
        """Share Knowledge: the die given, or (once its source is chosen) the die taken."""
        if self.share_give is None:
            self.share_give = colour
        elif self.share_source is not None:
            who = self.game.state.share_queue[0][1]
            self.session.try_call(Share(who, self.share_give, colour, self.share_source))

    def choose_source(self, source: str) -> None:
        self.share_source = source

    def share_back_step(self) -> None:
        if self.share_source is not None:
            self.share_source = None
        else:
            self.share_give = None

    def pass_share(self) -> None:
        who = self.game.state.share_queue[0][1]
        self.session.try_call(Pass(who))

    def step(self, delta: int) -> None:
        """Resolution: show the next (or previous) card; after card 6, go on."""
        r = self.resolving
        if r is None:
            return
        step = r.step + delta
        if step < 1:
            return
        if step > len(r.outcomes):
            self.resolving = None
            self.notice = r.after
        else:
            r.step = step

    def reveal(self) -> None:
        self.sel = None
        self.session.try_call(Reveal())

    # -- the camera ---------------------------------------------------------------------------

    def on_settled(self, reading: Reading) -> bool:
        """The camera saw the dice lie still: only the words change (True when they did)."""
        self.settled = reading
        if self.resolving is None and self.game.phase == "allocate" and not self.notice:
            self.notice = (f"The camera sees {plural(len(reading.dice), 'die', 'dice')}: "
                           "tap Camera to read them.")
            return True
        return False

    def apply_reading(self, reading: Reading) -> dict[str, LineupRead]:
        """Use a camera reading: sure line-ups become calls at once; the others wait on the
        players' rows with their unsure dice flagged."""
        reads = read_lineups(reading, self.players, self.zones)
        st = self.game.state
        notes = []
        counts = []  # zones holding other than six dice
        for p, read in reads.items():
            call = read.call()
            if read.complete and call is not None:
                current = st.lineups.get(p)
                if current is not None and lineup_call(p, current) == call:
                    continue
                self.drafts.pop(p, None)
                self.flagged.pop(p, None)
                if self.session.try_call(call) is None:
                    notes.append(refusal_reason(self.session))
                    self.drafts[p] = list(read.slots)
                    self.flagged[p] = set(range(CARDS))
                    self.read_slots[p] = (reading, tuple(self.drafts[p]), self.drafts[p])
                continue
            slots: list[SlotRead | None] = list(read.slots) + [None] * (CARDS - len(read.slots))
            self.drafts[p] = slots
            self.read_slots[p] = (reading, tuple(slots), slots)
            self.flagged[p] = {i for i, s in enumerate(slots) if s is None or s.uncertain}
            if read.problems:
                counts.append(f"{p}: {plural(read.seen, 'die', 'dice')} seen")
        # one short line for all of them (the rows marked "check ?" show which dice are
        # missing): with the question about a die it stays whole at the huge text size
        if len(counts) == 1:
            notes.append(f"{counts[0]}, a line-up has {CARDS}.")
        elif counts:
            notes.append(f"{len(counts)} line-ups are not {CARDS} dice: see check ?")
        # Unsure dice are framed in orange and the first is selected: the prompt says so.
        first = next((p for p in self.players if self.flagged.get(p)), None)
        self.sel = None
        if first is not None:
            self.sel = (first, min(self.flagged[first]))
        self.notice = "\n".join(notes) if notes else "Line-ups read."
        return reads

    # -- the timer ------------------------------------------------------------------------------

    def timer_options(self) -> OcculitesOptions:
        """The game's options with the timer on (the screen offers it in every game)."""
        return timed(self.game.options)

    def cues(self) -> tuple[TimerCue, ...]:
        return timer_cues(self.timer_options())

    def roll(self) -> list[str]:
        """The dice are rolled: 15 s to look, then 30 s to line up (the game's options); the
        round clock counts from now. Returns the sounds of the cues due at once."""
        self.fired.clear()
        self.session.start_clock(fresh=True)
        return self.tick()

    def tick(self) -> list[str]:
        """The clock ticked: the cues now due are said; returns their sounds, to play."""
        if not self.timer_on:
            return []
        sounds = []
        for n, cue in due_cues(self.game.options, self.since_roll, self.fired):
            self.fired.add(n)
            if cue.sound:
                sounds.append(cue.sound)
            self.notice = cue.text
        return sounds


__all__ = ["CorrectRoll", "OcculitesModel"]
