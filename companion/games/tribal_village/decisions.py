"""Decisions a Tribal Village game waits for, at the table: the Hunting Net's answer, Create
Chaos (Floris) and the cards given back, Manipulative (Tachydus) and its discard, a Lucky
Gretin's objective. The answers come from the engine's ``legal_calls()``."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from companion.games.tribal_village.choices import TableChoices
from companion.games.tribal_village.view import PLAY_ROWS, Block, short_objective
from rules import Call
from rules.tribal_village import (
    GRETIN,
    Chaos,
    ChaosReturn,
    Discard,
    KeepObjective,
    Manipulate,
    NetAnswer,
    PickObjective,
)
from rules.tribal_village.game import Pending


@dataclass
class DecisionChoices(TableChoices):
    """What each pending decision offers, and the taps that answer it."""

    # -- decisions the game waits for -------------------------------------------------------------

    def _draw_pending(self) -> None:
        game = self.game
        s = game.state
        pend = s.pending[0]
        answers = game.legal_calls()
        who = pend.player
        if pend.kind == "net":
            assert pend.play is not None
            # The question comes the moment a card is chosen by its value: its answers stand
            # on the top row, above what it asks, and the rows of the tribes and values below
            # stay empty, so a second tap on the value (or the player's next tap on a tribe)
            # answers nothing.
            self._row([self._choice("net:" + ("retrieve" if c.retrieve else "leave"),
                                    c.text().split(": ", 1)[1], lambda c=c: self._call(c),
                                    hot=not c.retrieve)
                       for c in answers if isinstance(c, NetAnswer)])
            self._note(f"{pend.other} chose {pend.play.card}. Retrieve the net to make them "
                       "play another card?")
            self.blocks.append(Block("filler"))
        elif pend.kind == "chaos":
            self._draw_chaos(who, answers)
        elif pend.kind == "return":
            self._draw_return(who, pend)
        elif pend.kind == "manipulate":
            self._draw_manipulate([c for c in answers if isinstance(c, Manipulate)])
        elif pend.kind == "discard":
            self._note(f"{who} got {pend.card} back: discard another card")
            allowed = {c.card for c in answers if isinstance(c, Discard)}
            self._card_picker(allowed, allowed,
                              lambda c: self._call(Discard(who, c)))
        else:  # gretin
            self._note(f"A Lucky Gretin entered {who}'s Village: keep or change the objective")
            widgets = []
            for c in answers:
                if isinstance(c, KeepObjective):
                    kept = short_objective(s.objective[who] or "")
                    widgets.append(self._choice("gretin:keep", f"Keep {kept}",
                                                lambda c=c: self._call(c), hot=True,
                                                font=15))
                elif isinstance(c, PickObjective):
                    widgets.append(self._choice("objective:" + c.objective,
                                                short_objective(c.objective),
                                                lambda c=c: self._call(c), font=15))
            self._grid(widgets, cols=3)

    def _draw_manipulate(self, answers: Sequence[Manipulate]) -> None:
        """Tachydus: whose Village (tap), then which card; Villages can hold many cards, so the
        cards scroll."""
        owners = list(dict.fromkeys(c.owner for c in answers if c.owner))
        owner = self.picker if self.picker in owners else None
        none = next(c for c in answers if c.card is None)
        if owner is None:
            self._note("Return a card from whose Village to its owner's hand?",
                       self._choice("manipulate:none", "No, none", lambda: self._call(none),
                                    hot=True, font=15))
            self._player_row(owners, owner, lambda p: self._set(picker=p), prefix="village:")
            return
        self._note(f"{owner}'s Village: which card goes back?",
                   self._choice("village:back", "Other Village",
                                lambda: self._set(picker=None), font=15))
        mine = [c for c in answers if c.owner == owner and c.card]
        widgets = []
        for c in mine:
            assert c.card is not None
            widgets.append(self._choice(f"manipulate:{c.card} from {owner}",
                                        c.card.replace("Lucky ", ""),
                                        lambda c=c: self._call(c), font=15))
        self._paged(widgets, cols=4, rows=PLAY_ROWS - 1)

    def _draw_chaos(self, who: str, answers: Sequence[Call]) -> None:
        full = next((c for c in answers if isinstance(c, Chaos) and c.added), None)
        givers = [q for _, q in full.added] if full else []
        if self.chaos is None:
            self._note(f"Each other player adds a random card from their hand; then {who} "
                       "gives one back to each.")
            self._row([self._choice("chaos:no", "No chaos", lambda: self._call(Chaos(who)),
                                    hot=True),
                       self._choice("chaos:yes", "Create chaos", lambda: self._set(chaos=[]),
                             enabled=bool(givers))])
            return
        done = self.chaos
        giver = givers[len(done)]
        self._note(f"The random card from {giver}'s hand:",
                   self._choice("chaos:back", "Start again", lambda: self._set(chaos=None),
                                font=15))
        taken = {c for c, _ in done}
        allowed = {c for c in self._possible(giver) if c not in taken or c == GRETIN}

        def pick(card: str) -> None:
            added = [*done, (card, giver)]
            if len(added) == len(givers):
                self._call(Chaos(who, tuple(added)))
            else:
                self._set(chaos=added, tribe=None)

        self._card_picker(allowed, set(), pick)

    def _draw_return(self, who: str, pend: Pending) -> None:
        s = self.game.state
        group = [c.card for c in s.trick] + list(pend.cards)
        for card, _ in self.gifts:
            group.remove(card)
        giver = pend.givers[len(self.gifts)]
        back = [self._choice("give:back", "Start again", lambda: self._set(gifts=[]), font=15)]
        self._note(f"Which card goes back to {giver}?", *(back if self.gifts else ()))

        def give(card: str) -> None:
            gifts = [*self.gifts, (card, giver)]
            if len(gifts) == len(pend.givers):
                self._call(ChaosReturn(who, tuple(gifts)))
            else:
                self._set(gifts=gifts)

        self._grid([self._choice("give:" + c, c, lambda c=c: give(c), font=15)
                    for c in dict.fromkeys(group)], cols=4)


__all__ = ["DecisionChoices"]
