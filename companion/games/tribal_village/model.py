"""Tribal Village at the table, without Kivy: what the screen shows and what each tap means.

The model keeps no rule of the game. What may be tapped comes from the engine: its
``legal_calls()`` (cards that may be played, decision answers), its screen helpers
(``current_player``, ``waiting_for()``, ``trick_verdict()``, ``is_on_suit()``, ``hand_score()``,
``team_of()``) and, where a choice needs checking before it is offered (the first lead's card,
Raking Talons' discard), a dry run of the call (``game.is_legal``). Every tap that completes a
call goes through ``session.try_call``, so a refusal shows the engine's own reason.

:meth:`TribalTable.view` is everything the screen draws (:class:`TableView`): the title, the
prompt, the verdict, each player's row, and the choices as blocks of buttons (:class:`Block`
of :class:`Choice`, each known by its key: ``"tribe:Hydris"``, ``"value:3"``, ``"net:Ana"``...).
:meth:`TribalTable.tap` takes a tap on a key. Tested as plain Python (tests/companion/).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, fields
from typing import Any, Literal

from companion.games.pages import one_page
from companion.session import SessionChange, TableSession
from companion.words import plural
from rules import Call
from rules.tribal_village import (
    GRETIN,
    OBJECTIVES,
    VALUES,
    Chaos,
    ChaosReturn,
    Discard,
    FirstLead,
    KeepObjective,
    Manipulate,
    NetAnswer,
    PickObjective,
    Play,
    Reveal,
    SetAlliances,
    TribalVillage,
)
from rules.tribal_village.cards import Played, tribe_of
from rules.tribal_village.game import Pending

#: Rows of choices kept for play and decisions; the setup keeps one more per row of players.
PLAY_ROWS = 4
#: Keys the screen answers itself (the standings dialog, leaving the game).
SCREEN_KEYS = ("over:standings", "over:bgstats", "over:leave")


def grid_cols(count: int) -> int:
    """Columns for ``count`` buttons of names (players, tribes): one row up to three, then
    rows of two or three, so a 16-character name keeps its room."""
    if count <= 3:
        return max(1, count)
    return 2 if count == 4 else 3


def short_objective(name: str) -> str:
    """An objective as the buttons and rows show it: "Crowded" for "Crowded Village"."""
    return name.removesuffix(" Village")


@dataclass(frozen=True)
class Choice:
    """A button of the choices. ``hot`` (the accent colour) marks the sensible ones, and only
    among those that may be tapped; ``seat`` draws it in that seat's colour (the chosen
    player); ``width`` fixes its width (else it shares the row). An empty key is an empty
    cell that keeps a grid's places."""

    key: str
    text: str = ""
    enabled: bool = True
    hot: bool = False
    selected: bool = False
    font: float = 16
    bold: bool = False
    seat: int | None = None
    width: float | None = None


#: An empty cell of a grid.
FILLER = Choice("")


@dataclass(frozen=True)
class Block:
    """A part of the choices, top to bottom: a ``row`` of buttons (after ``text``, when
    given), a ``grid`` of ``cols`` columns, a ``note`` saying what the choices below are for
    (with any buttons that go back or decline beside it), or a ``filler`` taking room."""

    kind: Literal["row", "grid", "note", "filler"]
    choices: tuple[Choice, ...] = ()
    cols: int = 1
    text: str = ""


@dataclass(frozen=True)
class PlayerView:
    """One player's row on the right: name (and objective), counts, the card played in this
    trick (or "to play"), the points; ``current`` while it is their turn."""

    player: str
    name: str
    detail: str
    played: str
    to_play: bool
    score: str
    under: str
    current: bool


@dataclass(frozen=True)
class TableView:
    """Everything the Tribal Village screen draws."""

    title: str
    allies: str
    prompt: str
    verdict: str
    refusal: str  # the engine's reason, shown instead of the verdict
    notice: str  # what the app said (Undid: ...), above the verdict
    players: tuple[PlayerView, ...]
    blocks: tuple[Block, ...]
    #: A question's buttons beside the players' names (the Hunting Net), by player.
    beside: dict[str, Choice]
    setup: bool  # the setup's choices fill from the top, play's from the bottom
    rows: int  # rows of choices kept (the box's height never changes within a stage)


@dataclass
class TribalTable:
    """The table's model: half-made choices between taps (never game state)."""

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

    def __post_init__(self) -> None:
        self.session.subscribe(self._changed)
        self.refresh()

    def _changed(self, change: SessionChange) -> None:
        if change.game_changed:
            self.refresh()

    def close(self) -> None:
        self.session.unsubscribe(self._changed)

    @property
    def game(self) -> TribalVillage:
        return self.session.game

    @property
    def setup_rows(self) -> int:
        """Rows the setup's choices take: its tabs, the players, the card picker."""
        players = len(self.game.setup.players)
        return 3 + -(-players // grid_cols(players))

    def _reset_local(self) -> None:
        """Forget half-made choices: after every call, undo or redo."""
        self.tribe = self.card = self.take = self.swap_first = self.picker = None
        self.tokens = self.page = 0
        self.reveal_sel = []
        self.chaos = None
        self.gifts = []
        self.notice = ""

    def refresh(self) -> None:
        """The game changed: half-made choices are forgotten."""
        done = len(self.game.history)
        if done != self._seen:
            self._seen = done
            self._reset_local()

    def say(self, text: str) -> None:
        """What the app tells the players (Undid: ..., a button's note): above the verdict."""
        self.notice = text

    # -- the view --------------------------------------------------------------------------

    def view(self) -> TableView:
        """What the screen draws now (and which action each key's tap takes)."""
        game = self.game
        s = game.state
        self.blocks, self.beside, self.actions = [], {}, {}
        hands = game.options.hands
        where = "Game over" if game.is_over else f"Hand {s.hand_no} of {hands}"
        if s.phase == "play" and not game.is_over:
            tricks = sum(len(v) for v in s.villages.values())
            where += f" · trick {tricks + 1}"
        setup = s.phase == "setup" and not game.is_over
        if game.is_over:
            self._draw_over()
        elif setup:
            self._draw_setup()
        elif s.pending:
            self._draw_pending()
        elif self.card is not None:
            self._draw_ability()
        else:
            self._draw_play()
        verdict = self._verdict()  # after the choices: a setup step may set what it says
        return TableView(where, self._allies_text(), self._prompt(), verdict,
                         self.session.message, self.notice, self._players(),
                         tuple(self.blocks), dict(self.beside), setup,
                         self.setup_rows if setup else PLAY_ROWS)

    def tap(self, key: str) -> bool:
        """A tap on the choice ``key`` as the view shows it now; False when no such choice can
        be tapped (it is not shown, or not enabled)."""
        view = self.view()
        shown = [c for b in view.blocks for c in b.choices] + list(view.beside.values())
        if not any(c.key == key and c.enabled for c in shown) or key not in self.actions:
            return False
        self.actions[key]()
        return True

    def keys(self) -> list[str]:
        """Every choice shown now, enabled or not."""
        view = self.view()
        return [c.key for b in view.blocks for c in b.choices if c.key] + list(view.beside)

    def _players(self) -> tuple[PlayerView, ...]:
        game = self.game
        s = game.state
        current = game.current_player if s.phase == "play" and not s.pending else None
        played = {c.player: c for c in s.trick}
        out = []
        for who in game.setup.players:
            objective = s.objective.get(who)
            name = f"[b]{who}[/b]" + (f" · {short_objective(objective)}" if objective else "")
            team = game.team_of(who)
            first = [plural(s.hand_count[who], "card"), plural(len(s.villages[who]), "trick")]
            if team:
                first.insert(0, f"team {team}")
            extras = []
            if s.tokens[who]:
                extras.append(plural(s.tokens[who], "token"))
            if s.nets.get(who):
                extras.append(f"net on {s.nets[who]}")
            detail = " · ".join(first) + ("\n" + " · ".join(extras) if extras else "")
            c = played.get(who)
            text = self._card_lines(c) if c is not None else "to play" if who == current else ""
            total = sum(h[who] for h in s.hand_scores)
            if game.is_over or (s.phase == "setup" and s.hand_scores):
                score, under = str(total), "total"
            elif s.hand_scores:
                now = game.hand_score(who)
                score, under = str(now), f"total {total + now}"
            else:
                score, under = str(game.hand_score(who)), "this hand"
            out.append(PlayerView(who, name, detail, text, c is None and who == current,
                                  score, under, who == current))
        return tuple(out)

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
            raise TypeError(f"TribalTable has no choice {', '.join(sorted(unknown))}")
        self.session.clear_notice()
        self.notice = ""
        for k, v in changes.items():
            setattr(self, k, v)

    # -- texts ------------------------------------------------------------------------------

    def _allies_text(self) -> str:
        layout = self.game.state.layout
        pairs = " · ".join(" + ".join(g) for g in layout if len(g) == 2)
        alone = ", ".join(g[0] for g in layout if len(g) == 1)
        return f"Allies: {pairs} · Unallied: {alone}"

    def _prompt(self) -> str:
        game = self.game
        s = game.state
        if game.is_over:
            return f"Game over: {self._winner()}"
        if s.phase == "setup":
            if self.setup_mode == "alliances":
                return "Alliance cards as on the table"
            if self.setup_mode == "revealed":
                return "Objectives dealt face up"
            missing = [p for p, o in s.objective.items() if o is None]
            if missing:
                chosen = len(s.objective) - len(missing)
                return f"Objectives: {chosen} of {len(s.objective)} chosen"
            unallied = " or ".join(g[0] for g in s.layout if len(g) == 1)
            return f"First lead: the lowest {unallied}"
        if s.pending:
            kind = s.pending[0].kind
            what = {"net": "Hunting Net", "chaos": "Create Chaos (Floris)",
                    "return": "Create Chaos: give back", "manipulate": "Manipulative (Tachydus)",
                    "discard": "discard after Tachydus", "gretin": "Lucky Gretin"}[kind]
            return f"{s.pending[0].player}: {what}"
        player = game.current_player
        suit = "leads" if s.suit is None else f"plays · suit {s.suit}"
        return f"{player} {suit}"

    def _winner(self) -> str:
        """Who won, short enough for the prompt line (teams by letter)."""
        game = self.game
        if game.options.alliance_mode:
            placings = game.placings()
            first = sorted({game.team_of(p) or "" for p in (placings[0] if placings else ())})
            return " and ".join(f"team {t}" for t in first) + (" win" if first else "")
        names = [n for n in (game.standings().winner or "").split(" & ") if n]
        if len(names) > 1:  # every name would not fit the prompt line; the rows show them
            return f"{len(names)} players share first place"
        return f"{names[0]} wins" if names else "no winner"

    def _verdict(self) -> str:
        game = self.game
        s = game.state
        if game.is_over:
            return self._totals_text()
        verdict = game.trick_verdict() if s.trick else None
        if verdict is not None:
            done = s.trick_winner is not None
            return ("Trick won: " if done else "Winning now: ") + verdict.reason
        if s.phase == "setup":
            return self._setup_hint()
        if s.last_verdict:
            return "Last trick: " + s.last_verdict
        return game.waiting_for()

    def _setup_hint(self) -> str:
        """What the setup step on screen asks for, short enough for a squeezed box."""
        s = self.game.state
        if self.setup_mode == "alliances":
            return "Tap two tribes to swap their places."
        if self.setup_mode == "revealed":
            return f"Tap the five face up on the table ({len(self.reveal_sel)} of 5), then Use."
        if s.hand_scores:
            last = s.hand_scores[-1]
            best = max(last.values())
            top = " and ".join(p for p, n in last.items() if n == best)
            return (f"Hand {len(s.hand_scores)} scored: most points {top} "
                    f"({plural(best, 'point')}).")
        if any(o is None for o in s.objective.values()):
            return "Tap a player, then the objective they keep."
        return "Tap who holds it, then the card."

    def _totals_text(self) -> str:
        game = self.game
        s = game.state
        totals = {p: sum(h[p] for h in s.hand_scores) for p in game.setup.players}
        best = max(totals.values())
        top = " and ".join(p for p, n in totals.items() if n == best)
        note = game.standings().note
        text = f"Most points: {top} ({plural(best, 'point')})."
        return f"{text} {note[0].upper()}{note[1:]}." if note else text

    @staticmethod
    def _card_lines(c: Played) -> str:
        """A card of the trick on two lines: its tribe, then its value and how it counts."""
        if c.card == GRETIN:
            return "Lucky\nGretin"
        tribe, value = c.card.rsplit(" ", 1)
        how = ("no effect" if c.no_effect else f"as {c.value}" if str(c.value) != value
               else "" if c.on_suit else "off suit")
        return f"{tribe}\n{value} {how}".rstrip()

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

    # -- play: a card by two taps, then its ability ---------------------------------------------

    def _plays(self) -> list[Play]:
        game = self.game
        who = game.current_player
        return [c for c in game.legal_calls() if isinstance(c, Play) and c.player == who]

    def _draw_play(self) -> None:
        game = self.game
        s = game.state
        who = game.current_player
        assert who is not None  # a card is awaited from the player on turn
        plays = self._plays()
        allowed = {c.card for c in plays}
        hot = {c for c in allowed if game.is_on_suit(c)}
        held = s.tokens[who]
        if held:  # Wild Luftle tokens on the next card: -held .. +held, none at first
            n = self.tokens
            said = "none" if n == 0 else f"{n:+d}"
            self._row([self._choice("tokens:-", "-1", lambda: self._set(tokens=n - 1),
                                    enabled=n > -min(held, 3), font=18, width=64),
                       self._choice("tokens:+", "+1", lambda: self._set(tokens=n + 1),
                                    enabled=n < min(held, 3), font=18, width=64)],
                      text=f"Luftle tokens on the card: {said} (has {held})")
        self._card_picker(allowed, hot, self._chosen)

    def _chosen(self, card: str) -> None:
        """A card was tapped: play it, or first ask for its ability's choice."""
        game = self.game
        who = game.current_player
        assert who is not None
        variants = [c for c in self._plays() if c.card == card]
        if any(c.net or c.take or c.swap for c in variants):
            self._set(card=card, tribe=None)
            return
        self._call(Play(who, card, self.tokens))

    def _send_play(self, *, net: str | None = None, take: str | None = None,
                   discard: str | None = None, swap: tuple[str, str] | None = None) -> None:
        game = self.game
        who = game.current_player
        assert self.card is not None and who is not None
        self._call(Play(who, self.card, self.tokens, net=net, take=take, discard=discard,
                        swap=swap))

    def _draw_ability(self) -> None:
        game = self.game
        card = self.card
        assert card is not None
        variants = [c for c in self._plays() if c.card == card]
        tribe = tribe_of(card)
        back = self._choice("ability:back", "Other card", lambda: self._set(card=None), font=15)
        skip = self._choice("ability:skip", "Don't use it", lambda: self._send_play(), font=15)
        if tribe == "Hydris":
            # The question never takes the place of the tribe buttons the next player taps
            # first, nor of the value just tapped (a double tap would answer it): the net
            # goes by a button beside each player's name on the right, "Other card" and
            # "Don't use it" stand on the top row, above what the question asks, and the
            # rows of the tribes and values below stay empty.
            self._row([back, skip])
            self._note(f"{card}: Hunting Net in front of whom? Tap Net beside their name.")
            self.blocks.append(Block("filler"))
            targets = sorted({c.net for c in variants if c.net})
            for p in targets:
                # the button takes the place of the card played in this trick (which does
                # not matter to the question), so the name and the points keep theirs
                self.beside[p] = self._choice("net:" + p, "Net",
                                              lambda p=p: self._send_play(net=p), hot=True,
                                              font=15, width=64)
        elif tribe == "Nimbus" and self.take is None:
            self._note(f"{card} off suit: Raking Talons takes a card", back)
            takes = sorted({c.take for c in variants if c.take})
            self._grid([*(self._choice("take:" + t, t, lambda t=t: self._set(take=t), hot=True)
                          for t in takes), skip], cols=3)
        elif tribe == "Nimbus":
            take = self.take
            assert take is not None
            self._note(f"Took {take}: discard a card into the trick",
                       self._choice("ability:back", "Other take",
                                    lambda: self._set(take=None), font=15))
            who = game.current_player
            assert who is not None
            allowed = {c for c in [take, *self._possible(who)]
                       if game.is_legal(Play(who, card, self.tokens, take=take,
                                             discard=c).text())}
            self._card_picker(allowed, {take},
                              lambda c: self._send_play(take=take, discard=c))
        elif tribe == "Boletus":
            self._note(f"{card} off suit: swap two alliance cards", back)
            pairs = {c.swap for c in variants if c.swap}
            first = self.swap_first
            widgets = []
            for g in game.state.layout:
                for t in g:
                    ok = any(t in pair for pair in pairs) if first is None else (
                        t == first or (first, t) in pairs or (t, first) in pairs)
                    widgets.append(self._choice("swap:" + t, t, lambda t=t: self._swap_tap(t),
                                                enabled=ok, selected=first == t))
            self._grid([*widgets, skip], cols=3 if len(widgets) < 6 else 4)

    def _swap_tap(self, tribe: str) -> None:
        first = self.swap_first
        if first is None or first == tribe:
            self._set(swap_first=None if first == tribe else tribe)
            return
        self._send_play(swap=(first, tribe))

    def _possible(self, player: str) -> list[str]:
        """Cards ``player`` may hold, as the engine sees it (known ones, and every unseen one)."""
        game = self.game
        return list(game.cards_for(player))

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

    # -- the end ------------------------------------------------------------------------------

    def _draw_over(self) -> None:
        """The winner above, the totals on the right; the standings table, the play for BG
        Stats and the way back (answered by the screen: :data:`SCREEN_KEYS`)."""
        self._row([self._choice("over:standings", "Final standings", lambda: None),
                   self._choice("over:bgstats", "BG Stats", lambda: None),
                   self._choice("over:leave", "Back to start", lambda: None, hot=True)])


__all__ = ["FILLER", "PLAY_ROWS", "SCREEN_KEYS", "Block", "Choice", "PlayerView", "TableView",
           "TribalTable", "grid_cols", "short_objective"]
