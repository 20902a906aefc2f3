"""Dice-ocalypse at the table, without Kivy: what the screen shows and what each tap means.

No rule of the game lives here. What can be called now comes from the engine's
``legal_calls()``; which dice score and the best keep from its pure helpers (``scoring_mask``,
``best_keep``, ``keep_score``); whether a bank would follow a keep from the engine asked on a
copy (``legal_after``); every tap ends as one of the engine's calls (a value, never words to
be parsed again) sent through the table session, which asks the engine and journals it.
:meth:`DiceocalypseModel.view` is everything the screen draws (:class:`~.view.DiceocalypseView`, its
words from :mod:`.texts`); the screen forwards its touches to the actions here (``tap_die``,
``tap_number``, ``tap_primary``...) and a settled camera reading to
:meth:`DiceocalypseModel.on_reading`. Tested as plain Python (tests/companion/).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from companion.games.diceocalypse.adapter import (
    RollEntry,
    corrections,
    expected_rolls,
    legal_after,
    read_order,
    read_roll,
    with_thousands,
)
from companion.games.diceocalypse.texts import (
    NEWS_KINDS,
    badges,
    sentences,
    status_line,
    turn_line,
)
from companion.games.diceocalypse.view import (
    NO_ACTION,
    ActionView,
    DiceocalypseView,
    DieLook,
    DieView,
    PlayerView,
)
from companion.games.refusal import refusal_reason
from companion.session import SessionChange, TableSession
from companion.words import plural
from rules import Call, Event
from rules.diceocalypse import (
    Bank,
    Diceocalypse,
    Immunity,
    Keep,
    Pick,
    PlayCard,
    SpecialRoll,
    best_keep,
    keep_score,
    scoring_mask,
)
from rules.diceocalypse.calls import SpecialDie
from rules.diceocalypse.game import DiceocalypseState
from vision.types import Reading

#: A roll read from the camera waiting to be confirmed: the reading, the entry as read, and
#: each die's index in the reading.
ReadFrom = tuple[Reading, RollEntry, list[int]]
#: Told when the players confirmed or corrected dice the camera read (Host.correct_roll).
CorrectRoll = Callable[[Reading, Mapping[int, str]], None]
#: What a button of the Cards & dice dialog does: a call, or start entering a special
#: die's roll.
DialogChoice = Call | SpecialDie


class Camera(Protocol):
    """What the model asks of the table's camera (companion.contract.CameraView)."""

    @property
    def label(self) -> str: ...

    @property
    def rolls_count(self) -> bool: ...


@dataclass
class DiceocalypseModel:
    """The table's model: the roll being entered or read, the dice chosen to keep, the
    roller chosen among several, a special die being rolled; nothing here is game state."""

    session: TableSession[Diceocalypse]
    #: Rolls are read from the camera when its rolls count (a real camera, or the stand-in
    #: the players chose); a stand-in shown for want of a camera is never read.
    camera_on: bool = False
    correct_roll: CorrectRoll | None = None
    entry: RollEntry | None = None
    selected: int | None = None  # die index chosen for a correction
    read_from: ReadFrom | None = None
    #: The last camera reading taken as a roll (the roll log keeps each: Host.took_roll).
    taken: Reading | None = None
    #: A reading that came while numbers typed by hand were entered: kept, not applied
    #: (Clear takes it instead of the typed numbers).
    unused: Reading | None = None
    roller: str | None = None  # the roller the players chose by a tap, when several must roll
    special: tuple[str, SpecialDie] | None = None  # (player, die) being rolled
    chosen: list[int] = field(default_factory=list)  # indexes of the roll chosen to keep
    chosen_for: tuple[int, ...] | None = None
    cards_player: str | None = None  # the Cards & dice dialog's player
    news: str = ""
    legal: list[Call] = field(default_factory=list)
    _bank_after: dict[tuple[int, tuple[int, ...]], bool] = field(default_factory=dict)
    _seen: int = -1  # calls in the game when the model last read it

    def __post_init__(self) -> None:
        self.refresh()

    def on_session(self, change: SessionChange) -> None:
        """The session changed (its host hands every change here before the screen draws)."""
        if change.game_changed:
            self.refresh(change.events)

    # -- reading the engine --------------------------------------------------------------------

    @property
    def game(self) -> Diceocalypse:
        return self.session.game

    @property
    def state(self) -> DiceocalypseState:
        return self.session.game.state

    def expected(self) -> dict[str, int]:
        """Who the game waits on to roll and how many dice (asked of the engine)."""
        return expected_rolls(self.legal)

    def roll_to_keep(self) -> list[int] | None:
        t = self.state.turn
        return list(t.roll) if t is not None and t.roll is not None else None

    def extra_calls(self) -> list[Call]:
        """Cards, Immunity and picks that are legal now (for the Cards & dice dialog)."""
        return [c for c in self.legal if isinstance(c, PlayCard | Immunity | Pick)]

    def special_dice(self) -> list[tuple[str, SpecialDie]]:
        """(player, die) of the special dice that may be rolled now."""
        out: list[tuple[str, SpecialDie]] = []
        for c in self.legal:
            if isinstance(c, SpecialRoll) and (c.player, c.die) not in out:
                out.append((c.player, c.die))
        return out

    def bank_after_keep(self, kept: Sequence[int]) -> bool:
        """Whether the engine would take a bank right after keeping these dice."""
        t = self.state.turn
        if t is None:
            return False
        key = (len(self.game.history), tuple(sorted(kept)))
        if key not in self._bank_after:
            self._bank_after = {key: legal_after(self.game, Keep(t.player, key[1]),
                                                 Bank(t.player))}
        return self._bank_after[key]

    def calls_by_player(self) -> dict[str, list[tuple[str, DialogChoice]]]:
        """The Cards & dice dialog: each player's calls as (words on the button, the call, or
        the special die whose roll the button starts entering), players in seat order."""
        by_player: dict[str, list[tuple[str, DialogChoice]]] = {}
        for call in self.extra_calls():
            player, words = call.text().split(": ", 1)
            by_player.setdefault(player, []).append((words.removeprefix("Play "), call))
        for player, die in self.special_dice():
            by_player.setdefault(player, []).append((f"Roll the {die} die", die))
        return {p: by_player[p] for p in self.game.setup.players if p in by_player}

    def card_player(self) -> str | None:
        """The player whose calls the Cards & dice dialog shows."""
        players = list(self.calls_by_player())
        if self.cards_player not in players:
            self.cards_player = players[0] if players else None
        return self.cards_player

    # -- after every call, undo and redo -------------------------------------------------------

    def refresh(self, events: Sequence[Event] = ()) -> None:
        """The game changed (a call with its events, an undo, a redo): read it again."""
        self.legal = list(self.game.legal_calls())
        news = [with_thousands(e.text) for e in events if e.kind in NEWS_KINDS]
        self.news = sentences(news[-2:])
        if len(self.game.history) != self._seen:  # a call, an undo or a redo
            self._seen = len(self.game.history)
            self.roller = None  # a roller tapped before it is not asked again
        if events:
            self.entry = None
            self.selected = None
            self.unused = None
            self.special = None if self.special not in self.special_dice() else self.special
        self._sync_entry()
        roll = self.roll_to_keep()
        if roll is not None and self.chosen_for != tuple(roll):  # a new roll: the best keep
            self.chosen_for = tuple(roll)
            self.chosen = self.best_indexes(roll)

    def first_roller(self, need: Mapping[str, int]) -> str:
        """Who of those the game waits on rolls next: the one tapped, else the first in seat
        order from whoever the wait began with (the Battle Zone's starter, the player on
        turn). Read from the game alone, so a game resumed after a power cut asks the same
        player as before it."""
        if self.roller is not None and self.roller in need:
            return self.roller
        s = self.state
        first = (s.stage.initiator if s.stage is not None and s.stage.initiator
                 else s.turn.player if s.turn is not None else s.current)
        seats = list(self.game.setup.players)
        at = seats.index(first) if first in seats else 0
        return next((p for p in seats[at:] + seats[:at] if p in need), next(iter(need)))

    def _sync_entry(self) -> None:
        """Keep the roll being entered matched to who must roll now."""
        die: SpecialDie | None = None
        if self.special is not None:
            player, die = self.special
            need = {player: 1}
        else:
            need = self.expected()
        if not need or self.roll_to_keep() is not None:
            self.entry = None
            return
        roller = self.first_roller(need)
        e = self.entry
        if e is None or e.player != roller or e.needed != need[roller] \
                or e.die != die:
            self.entry = RollEntry(roller, need[roller], die=die)
            self.selected = None

    # -- the view --------------------------------------------------------------------------------

    def players(self) -> tuple[PlayerView, ...]:
        s = self.state
        active = s.turn.player if s.turn is not None else (
            s.current if s.stage is None and s.phase in ("play", "final") else None)
        waiting = set(self.expected()) if s.stage is not None else set()
        rolling = self.entry.player if self.entry else None
        return tuple(
            PlayerView(p, s.scores[p], badges(self.game, p),
                       p == active or p == s.winner or (p in waiting and p == rolling),
                       p in s.diced)
            for p in self.game.setup.players)

    def refusal(self) -> str:
        message = self.session.message
        return with_thousands(refusal_reason(self.session)) if message else ""

    def view(self) -> DiceocalypseView:
        """What the screen draws now."""
        s = self.state
        roll = self.roll_to_keep()
        if s.phase == "over":
            part = self._over()
        elif roll is not None:
            part = self._keep(roll)
        else:
            part = self._entry()
        info, dice, what, numbers, primary, secondary = part
        refusal = self.refusal()
        lines = tuple(line for line in (self.news, *what) if line)[:3 - bool(refusal)]
        return DiceocalypseView(status_line(self.game), info, self.players(), dice, refusal, lines,
                         numbers, primary, secondary,
                         len(self.extra_calls()) + len(self.special_dice()), self.camera_on,
                         s.phase == "over")

    _Part = tuple[str, tuple[DieView, ...], tuple[str, ...], bool, ActionView, ActionView]

    def _over(self) -> _Part:
        s = self.state
        winner = s.winner or ""
        info = f"{winner} wins with {plural(s.scores.get(winner, 0), 'point')}"
        dice = tuple(DieView("", "empty", False) for _ in range(6))
        return (info, dice, (), False, ActionView("New game", True, True),
                ActionView("BG Stats", True, False))

    def best_indexes(self, roll: Sequence[int]) -> list[int]:
        """The dice of the best keep, by their place in the roll."""
        best = best_keep(list(roll), self.game.key)
        if best is None:
            return []
        want = list(best.dice)
        out = []
        for i, v in enumerate(roll):
            if v in want:
                want.remove(v)
                out.append(i)
        return out

    def _keep(self, roll: list[int]) -> _Part:
        key = self.game.key
        mask = scoring_mask(roll, key)
        dice: list[DieView] = []
        for i in range(6):
            if i >= len(roll):
                dice.append(DieView("", "empty", False))
                continue
            look: DieLook = "chosen" if i in self.chosen else "lit" if mask[i] else "dull"
            dice.append(DieView(str(roll[i]), look, True))
        kept = [roll[i] for i in self.chosen]
        points = keep_score(kept, key) if kept else None
        best = best_keep(roll, key)
        t = self.state.turn
        assert t is not None  # a roll to keep belongs to the turn in progress
        info = f"{t.player} rolled · {turn_line(self.game)}"
        best_text = f"best: {' '.join(map(str, best.dice))} = {best.points:,}" if best else ""
        ok = points is not None
        bank_ok = ok and self.bank_after_keep(kept)
        if points is None:
            what = (f"Scoring dice are lit; tap dice to keep ({best_text})" if kept
                    else f"Tap scoring dice to keep ({best_text})")
        else:
            after = t.points + points
            left = t.available - len(kept)
            hot = "  HOT DICE: all six again!" if left == 0 else ""
            what = (f"Keep {' '.join(map(str, kept))} = {points:,} -> {after:,} this turn{hot}   "
                    f"({best_text})")
            if not bank_ok and not self.state.on_board[t.player]:
                what += (f"\nNo bank yet: {t.player}'s first bank needs "
                         f"{self.game.options.opening_minimum:,} in one turn")
        left = t.available - len(kept) if ok else 0
        if not ok:
            keep_text = "Keep"
        elif left == 0:
            keep_text = "Keep: hot dice!"
        else:
            keep_text = f"Keep, roll {plural(left, 'die', 'dice')}"
        primary = ActionView("Keep & bank" if ok else "Choose dice", bank_ok, True)
        return (info, tuple(dice), (what,), False, primary,
                ActionView(keep_text, ok, not bank_ok))

    def _entry(self) -> _Part:
        e = self.entry
        t = self.state.turn
        if e is None:
            blank = tuple(DieView("", "empty", False) for _ in range(6))
            return turn_line(self.game), blank, (), False, ActionView("", False, True), NO_ACTION
        bank_ok = t is not None and any(isinstance(c, Bank) for c in self.legal)
        turn = f" · {turn_line(self.game)}" if t is not None else ""
        if self.special is not None:
            info = f"{e.player} rolls the {self.special[1]} die"
        else:
            info = f"{e.player} rolls {plural(e.needed, 'die', 'dice')}{turn}"
        dice: list[DieView] = []
        for i in range(6):
            if e.surplus:  # every die seen, each to tap to set aside
                seen = i < len(e.values)
                v = e.values[i] if seen else None
                dice.append(DieView("?" if v is None and seen else "" if not seen else str(v),
                                    "aside" if seen else "off", seen))
                continue
            if i >= e.needed:
                dice.append(DieView("", "off", False))
                continue
            v = e.values[i] if i < len(e.values) else None
            doubt = i in e.doubtful
            text = "?" if v is None else (f"{v}?" if doubt else str(v))
            look: DieLook = ("selected" if i == self.selected else "doubt" if doubt
                             else "empty" if v is None else "value")
            dice.append(DieView(text, look, True))
        if e.problem:
            what = e.problem
        elif e.doubtful:
            what = "Camera unsure: tap a die and its number, or Confirm"
        else:
            what = ("Roll: the camera reads it, or tap the numbers" if self.camera_on
                    else "Roll, then tap the numbers (camera off)")
        # Several must roll: any of them may go first (said while the box has room: not over
        # the news, which can take three lines at the huge text size).
        several = len(self.expected()) > 1 and self.special is None and not self.news
        said = (what, "Tap a name to enter that player's roll" if several else "")
        primary = ActionView("Enter roll", e.complete, True)
        if e.doubtful and not e.problem:
            secondary = ActionView("Confirm", True, False)
        elif bank_ok and t is not None:
            total = t.points * (2 if t.doubled else 1)
            secondary = ActionView(f"Bank {total:,}", True, False)
        else:
            secondary = NO_ACTION
        return info, tuple(dice), said, True, primary, secondary

    # -- taps ----------------------------------------------------------------------------------

    def tap_player(self, player: str) -> None:
        """Several players must roll (first turn, Battle Zone...): this one rolls next."""
        if player in self.expected() and self.special is None:
            self.roller = player
            self.entry = None
            self._sync_entry()

    def tap_die(self, i: int) -> None:
        """A die: kept or not (a roll to keep from), else chosen for a correction (tapped
        twice, a doubtful die's camera value is confirmed)."""
        roll = self.roll_to_keep()
        if roll is not None:
            if i in self.chosen:
                self.chosen.remove(i)
            elif i < len(roll):
                self.chosen.append(i)
            return
        e = self.entry
        if e is None:
            return
        if e.surplus:  # more dice seen than rolled: this one is set aside
            if i < len(e.values):
                self.entry = e.remove(i)
            self.selected = None
            return
        if self.selected == i and i in e.doubtful:
            self.entry = e.confirm(i)  # tapped twice: the camera's value is right
            self.selected = None
        else:
            self.selected = i

    def tap_number(self, v: int) -> None:
        """The number pad: the chosen die's value, else the next die of the roll."""
        e = self.entry
        if e is None:
            return
        if self.selected is None and len(e.values) >= e.needed and None not in e.values:
            self.session.note(f"{e.player}'s {plural(e.needed, 'die', 'dice')} "
                              "entered: tap a die to change it, or Clear")
            return
        try:
            if self.selected is not None and self.selected <= len(e.values):
                self.entry = e.set_value(self.selected, v)
            else:
                self.entry = e.add(v)
        except ValueError as err:
            self.session.note(str(err))
        self.selected = None

    def clear_entry(self) -> None:
        """Clear the roll being entered; a camera reading kept while numbers typed by hand
        stood (:attr:`unused`) is taken instead."""
        self.session.clear_notice()
        unused, self.unused = self.unused, None
        if self.entry is not None:
            self.entry = RollEntry(self.entry.player, self.entry.needed,
                                   die=self.entry.die)
            self.selected = None
            if unused is not None:
                self.on_reading(unused)

    def tap_primary(self) -> bool:
        """Keep & bank, or Enter roll (a game over is left by the screen)."""
        roll = self.roll_to_keep()
        if roll is not None:
            return self.keep(roll) and self.bank()
        call = self.entry.call() if self.entry is not None else None
        return call is not None and self.send(call)

    def tap_secondary(self) -> bool:
        """Keep and roll on, Confirm the camera's doubtful dice, or Bank."""
        roll = self.roll_to_keep()
        if roll is not None:
            return self.keep(roll)
        e = self.entry
        if e is not None and e.doubtful and not e.problem:
            self.entry = e.confirm_all()
            call = self.entry.call()
            return call is not None and self.send(call)
        return self.bank()

    def keep(self, roll: Sequence[int]) -> bool:
        t = self.state.turn
        assert t is not None
        kept = tuple(sorted(roll[i] for i in self.chosen))
        return self.send(Keep(t.player, kept))

    def bank(self) -> bool:
        t = self.state.turn
        if t is None:
            return False
        return self.send(Bank(t.player))

    def choose_card_player(self, player: str) -> None:
        self.cards_player = player

    def play(self, choice: DialogChoice) -> bool:
        """A choice of the Cards & dice dialog: a card, Immunity or a pick (a call), or a
        special die whose roll is entered next (the dialog's player rolls it)."""
        if isinstance(choice, Call):
            return self.send(choice)
        self.start_special(self.card_player() or "", choice)
        return False

    def start_special(self, player: str, die: SpecialDie) -> None:
        self.special = (player, die)
        self.entry = None
        self._sync_entry()

    def send(self, call: Call) -> bool:
        """One call through the session (a refusal is shown by the view). A roll the camera
        read goes with the dice the players confirmed or corrected (dice statistics)."""
        entry, read = self.entry, self.read_from
        if self.session.try_call(call) is None:
            return False
        self.special = None
        if read is not None and entry is not None and entry.call() == call:
            self.read_from = None
            reading, first, order = read
            fixed = corrections(first, entry)
            if fixed and self.correct_roll is not None:
                self.correct_roll(reading, {order[i]: str(v) for i, v in fixed.items()
                                            if i < len(order)})
        return True

    def on_reading(self, reading: Reading) -> str | None:
        """A settled camera reading: the roll the game waits for. A sure and complete reading
        is called at once; otherwise its dice wait for the players' touch. Returns the call
        made, if any."""
        if self.entry is None:
            self._sync_entry()
        e = self.entry
        if e is None:
            return None
        if e.typed:  # a number typed by hand is never overwritten by the camera
            self.unused = reading
            seen = plural(len(reading.dice), "die", "dice")
            self.session.note(f"The camera read {seen}; the numbers typed by hand stay. "
                              "Clear takes the camera's.")
            return None
        self.unused = None
        self.taken = reading
        self.entry = read_roll(reading, e.player, e.needed, die=e.die)
        self.read_from = (reading, self.entry, read_order(reading))
        self.selected = None
        call = self.entry.call()
        if call is not None and self.send(call):
            return call.text()
        return None

    def toggle_camera(self, camera: Camera | None) -> None:
        """Read rolls from the camera, or not (the app runs the camera while they are)."""
        if self.camera_on:
            self.camera_on = False
        elif camera is None:
            self.session.note("No camera: choose one in Settings")
        elif not camera.rolls_count:
            self.session.note(f"The picture is {camera.label}: its rolls are not the "
                              "table's; enter them by touch")
        else:
            self.camera_on = True


__all__ = ["Camera", "CorrectRoll", "DialogChoice", "DiceocalypseModel", "ReadFrom"]
