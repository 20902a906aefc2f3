"""The Tribal Village setup at the table: match the table's Tribal Alliance cards and the
objectives dealt face up, then each player's objective and who leads first with which card."""

from __future__ import annotations

from dataclasses import dataclass

from companion.games.tribal_village.choices import TableChoices
from companion.games.tribal_village.view import short_objective
from rules.tribal_village import OBJECTIVES, VALUES, FirstLead, PickObjective, Reveal, SetAlliances


@dataclass
class SetupChoices(TableChoices):
    """The setup's tabs and what each one offers."""

    # -- setup: alliances, revealed objectives, picks, first lead ---------------------------------

    def _draw_setup(self) -> None:
        modes = [("pick", "Picks & lead"), ("alliances", "Alliance cards"),
                 ("revealed", "Objectives dealt")]
        self._row([self._choice("mode:" + m, text, lambda m=m: self._set(setup_mode=m),
                                selected=self.setup_mode == m, font=15)
                   for m, text in modes])
        if self.setup_mode == "alliances":
            self._draw_alliances()
        elif self.setup_mode == "revealed":
            self._draw_revealed()
        else:
            self._draw_picks()

    def _draw_alliances(self) -> None:
        """Match the table's Tribal Alliance cards: tap two tribes to swap their places."""
        layout = self.game.state.layout
        widgets = []
        for g in layout:
            for t in g:
                widgets.append(self._choice("ally:" + t, t, lambda t=t: self._edit_ally(t),
                                            selected=self.swap_first == t))
        self._grid(widgets, cols=4)

    def _edit_ally(self, tribe: str) -> None:
        first = self.swap_first
        if first is None or first == tribe:
            self._set(swap_first=None if first == tribe else tribe)
            return
        layout = [list(g) for g in self.game.state.layout]
        ga = next(g for g in layout if first in g)
        gb = next(g for g in layout if tribe in g)
        ga[ga.index(first)], gb[gb.index(tribe)] = tribe, first
        self._call(SetAlliances(tuple(tuple(g) for g in layout)))

    def _draw_revealed(self) -> None:
        """Match the five objective cards face up on the table; "Use them" ends the grid."""
        s = self.game.state
        pool = set(s.revealed) | set(s.objective_deck)
        if not self.reveal_sel:
            self.reveal_sel = list(s.revealed)
        widgets = [self._choice("reveal:" + o, short_objective(o),
                                lambda o=o: self._toggle_reveal(o), enabled=o in pool,
                                selected=o in self.reveal_sel, font=15)
                   for o in OBJECTIVES]
        changed = sorted(self.reveal_sel) != sorted(s.revealed)
        widgets.append(self._choice("reveal:use", "Use them",
                                    lambda: self._call(Reveal(tuple(self.reveal_sel))),
                                    enabled=changed and len(self.reveal_sel) == min(5, len(pool)),
                                    hot=changed, font=15))
        self._grid(widgets, cols=5)

    def _toggle_reveal(self, objective: str) -> None:
        sel = self.reveal_sel
        if objective in sel:
            sel.remove(objective)
        elif len(sel) < 5:
            sel.append(objective)
        self._set()

    def _draw_picks(self) -> None:
        """Every player in one place through the setup: first each picks an objective (those
        who have are greyed), then who holds the lowest unallied card, and the card."""
        game = self.game
        s = game.state
        players = list(game.setup.players)
        missing = [p for p, o in s.objective.items() if o is None]
        if missing:
            who = self.picker if self.picker in missing else missing[0]
            self._player_row(players, who, lambda p: self._set(picker=p),
                             done=[p for p in players if p not in missing])
            picks = [c for c in game.legal_calls()
                     if isinstance(c, PickObjective) and c.player == who]
            widgets = [self._choice("objective:" + c.objective, short_objective(c.objective),
                                    lambda c=c: self._call(c), font=15)
                       for c in picks]
            self._grid(widgets, cols=3)
            return
        picker = self.picker if self.picker in players else None
        unallied = [g[0] for g in s.layout if len(g) == 1]
        self._player_row(players, picker, lambda p: self._set(picker=p))
        lead = picker or ""
        allowed = {f"{t} {v}" for t in unallied for v in VALUES
                   if picker is not None and game.is_legal(FirstLead(lead, f"{t} {v}").text())}
        none = self._choice("lead:none", "None dealt",
                            lambda: self._call(FirstLead(lead)), enabled=bool(picker),
                            font=15)
        self._card_picker(allowed, allowed, lambda c: self._call(FirstLead(lead, c)),
                          tribes=unallied, extra=[none], ready=picker is not None)


__all__ = ["SetupChoices"]
