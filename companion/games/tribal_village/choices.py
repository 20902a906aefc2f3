"""The Tribal Village table's half-made choices, and the blocks of buttons built from them.

:class:`TableChoices` keeps what the table is in the middle of between taps (never game state:
a tribe tapped waiting for its value, Wild Luftle tokens, a card waiting for its ability's
choice, the setup's tab...) and the building blocks every stage draws with: a choice and what
its tap does, rows, grids and notes, the card picker (tribe, then value) and the players as
buttons. The setup (:mod:`.setup`), the decisions the game waits for (:mod:`.decisions`) and
play (:mod:`.model`) draw with these.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, fields
from typing import Any

from companion.games.pages import one_page
from companion.games.tribal_village.view import FILLER, Block, Choice, grid_cols
from companion.session import TableSession
from rules import Call
from rules.tribal_village import VALUES, Play, TribalVillage
from rules.tribal_village.cards import GRETIN, tribe_of


@dataclass
class TableChoices:
    """Half-made choices between taps, and the choices drawn from them (see the module)."""

    session: TableSession[TribalVillage]
    setup_mode: str = "pick"  # pick | alliances | revealed: kept across calls
    tribe: str | None = None  # tribe tapped, waiting for its value
    tokens: int = 0  # Wild Luftle tokens to put on the next card (+N / -N)
    card: str | None = None  # card chosen, waiting for its ability choice
    take: str | None = None  # Raking Talons: card taken, waiting for the discard
    swap_first: str | None = None  # Plotting Distrust / alliance edit: first tribe
    picker: str | None = None  # setup: player picking an objective / leading
    reveal_sel: list[str] = field(default_factory=list)
    chaos: list[tuple[str, str]] | None = None  # (card, from player) being entered
    gifts: list[tuple[str, str]] = field(default_factory=list)  # (card, to player)
    page: int = 0  # a long list of choices: the page shown
    notice: str = ""  # what the app said (Undid: ...), above the verdict until a tap
    blocks: list[Block] = field(default_factory=list)
    beside: dict[str, Choice] = field(default_factory=dict)
    actions: dict[str, Callable[[], None]] = field(default_factory=dict)
    _seen: int = -1

    @property
    def game(self) -> TribalVillage:
        return self.session.game


    def _reset_local(self) -> None:
        """Forget half-made choices: after every call, undo or redo."""
        self.tribe = self.card = self.take = self.swap_first = self.picker = None
        self.tokens = self.page = 0
        self.reveal_sel = []
        self.chaos = None
        self.gifts = []
        self.notice = ""


    # -- building blocks --------------------------------------------------------------------

    def _choice(self, key: str, text: str, on: Callable[..., object], *, enabled: bool = True,
                hot: bool = False, selected: bool = False, font: float = 16,
                bold: bool = False, seat: int | None = None,
                width: float | None = None) -> Choice:
        """A choice and what its tap does; ``hot`` only among those that may be tapped."""
        def act() -> None:
            on()

        self.actions[key] = act
        return Choice(key, text, enabled, hot and enabled, selected, font, bold, seat, width)

    def _row(self, choices: Iterable[Choice], text: str = "") -> None:
        self.blocks.append(Block("row", tuple(choices), text=text))

    def _grid(self, choices: Sequence[Choice], cols: int) -> None:
        self.blocks.append(Block("grid", tuple(choices), cols))

    def _note(self, text: str, *choices: Choice) -> None:
        """A line saying what the choices below are for, with any buttons that go back or
        decline beside it."""
        self.blocks.append(Block("note", tuple(choices), text=text))

    def _call(self, call: Call) -> None:
        self.session.try_call(call)

    def _set(self, **changes: Any) -> None:
        """A half-made choice changes: the last message has been read."""
        unknown = set(changes) - {f.name for f in fields(self)}
        if unknown:
            raise TypeError(f"{type(self).__name__} has no choice {', '.join(sorted(unknown))}")
        self.session.clear_notice()
        self.notice = ""
        for k, v in changes.items():
            setattr(self, k, v)

    def _card_picker(self, allowed: set[str], hot: set[str], on_pick: Callable[[str], None],
                     tribes: Sequence[str] | None = None, extra: Sequence[Choice] = (),
                     ready: bool = True) -> None:
        """Tribe, then value: two taps. Only ``allowed`` cards can be tapped; ``hot`` ones are
        highlighted (e.g. on suit). A Lucky Gretin is one tap. ``extra`` buttons join the
        tribes' row; nothing can be tapped until ``ready``."""
        game = self.game
        tribes = list(tribes if tribes is not None else game.state.tribes)
        if game.options.lucky_gretin and tribes == list(game.state.tribes):
            tribes.append(GRETIN)
        if self.tribe is not None and self.tribe not in tribes:
            self.tribe = None
        if len(tribes) == 1 and ready:  # one tribe possible: its values at once
            self.tribe = tribes[0]
        widgets = list(extra)
        for t in tribes:
            if t == GRETIN:
                widgets.insert(len(widgets) - len(extra), self._choice(
                    "tribe:" + t, "Gretin", lambda: on_pick(GRETIN),
                    enabled=ready and GRETIN in allowed, hot=GRETIN in hot))
                continue
            mine = {c for c in allowed if c != GRETIN and tribe_of(c) == t}
            widgets.insert(len(widgets) - len(extra), self._choice(
                "tribe:" + t, t, lambda t=t: self._set(tribe=t), enabled=ready and bool(mine),
                hot=any(c in hot for c in mine) and self.tribe != t,
                selected=self.tribe == t))
        self._grid(widgets, cols=len(widgets) if len(widgets) <= 5 else -(-len(widgets) // 2))
        values = []
        for v in VALUES:
            card = f"{self.tribe} {v}"
            ok = ready and self.tribe is not None and card in allowed
            values.append(self._choice(f"value:{v}", str(v), lambda card=card: on_pick(card),
                                       enabled=ok, hot=ok and card in hot, font=20))
        self._row(values)

    def _player_row(self, players: Sequence[str], chosen: str | None,
                    on: Callable[[str], None], prefix: str = "player:",
                    done: Iterable[str] = ()) -> None:
        """The players as buttons, in rows of up to three (a name keeps its room); those in
        ``done`` stay in their place, greyed."""
        order = list(self.game.setup.players)
        finished = set(done)
        widgets = []
        for p in players:
            # the chosen player in their seat's colour, the others grey with a colour-free label
            widgets.append(self._choice(prefix + p, p, lambda p=p: on(p), bold=p == chosen,
                                        enabled=p not in finished, font=15,
                                        seat=order.index(p) if p == chosen else None))
        self._grid(widgets, cols=grid_cols(len(widgets)))

    def _paged(self, widgets: Sequence[Choice], cols: int, rows: int) -> None:
        """A grid of ``rows`` x ``cols``, one page at a time: when the buttons do not fit, the
        last cell turns the page ("More", which shows where it is). Nothing scrolls, so every
        button sits where it was drawn."""
        shown, page, pages = one_page(widgets, cols * rows, self.page)
        cells = [FILLER if w is None else w for w in shown]
        if pages > 1:
            cells.append(self._choice("page:more", f"More {page + 1}/{pages}",
                                      lambda: self._set(page=page + 1), font=15))
        self._grid(cells, cols=cols)

    def _plays(self) -> list[Play]:
        game = self.game
        who = game.current_player
        return [c for c in game.legal_calls() if isinstance(c, Play) and c.player == who]


    def _possible(self, player: str) -> list[str]:
        """Cards ``player`` may hold, as the engine sees it (known ones, and every unseen one)."""
        game = self.game
        return list(game.cards_for(player))


__all__ = ["TableChoices"]
