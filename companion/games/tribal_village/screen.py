"""Tribal Village's table screen: setup steps, cards by tap, the trick's verdict, abilities, scores.

The screen keeps no rule of the game. What may be tapped comes from the engine: its
``legal_calls()`` (cards that may be played, decision answers), its screen helpers
(``current_player``, ``waiting_for()``, ``trick_verdict()``, ``is_on_suit()``, ``hand_score()``,
``team_of()``) and, where a choice needs checking before it is offered (the first lead's card,
Raking Talons' discard, Create Chaos' random cards), a dry run of the call on a copy of the
state (:func:`accepts`). Every tap that completes a call goes through ``session.try_call``, so
a refusal shows the engine's own reason.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.scrollview import ScrollView

from companion import theme
from companion.contract import Host
from companion.frame import GameFrame
from companion.games.table import ScreenTable, TableScreen
from companion.session import TableSession
from companion.widgets import w as _w
from rules import Game
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
from rules.tribal_village.cards import tribe_of

OFF: theme.RGBA = (0.17, 0.18, 0.21, 1)  # a choice that is not possible now
HOT_TEXT: theme.RGBA = (0, 0, 0, 1)


def accepts(game: Game[Any], text: str) -> bool:
    """Whether the engine would take ``text`` now (nothing changes)."""
    return game.is_legal(text)


class TribalVillageScreen(TableScreen):
    """One screen for the whole game: it redraws from the engine after every call."""

    def __init__(self, host: Host, session: TableSession[Any], **kwargs: Any) -> None:
        self.session: TableSession[TribalVillage] = session.typed(TribalVillage)
        super().__init__(host, session, **kwargs)
        app = host
        self.buttons: dict[str, Any] = {}  # key -> button on screen now (tests tap these)
        self._seen = -1
        self.setup_mode = "pick"  # pick | alliances | revealed: kept across calls
        self._reset_local()
        root = BoxLayout(orientation="vertical")
        self.frame = GameFrame(app, game=lambda: self.session.game, padding=(4, 2))
        self.title_label = self.frame.title
        self.undo_button, self.redo_button = self.frame.undo, self.frame.redo
        root.add_widget(self.frame)
        self.allies_label = _w("TLabel", size_hint_y=None, height=30, color=theme.ACCENT,
                               font_size=app.fs(17))
        root.add_widget(self.allies_label)
        body = BoxLayout(spacing=6, padding=(6, 2, 6, 6))
        left = BoxLayout(orientation="vertical", size_hint_x=0.63, spacing=3)
        self.prompt_label = _w("TLabel", size_hint_y=None, height=34, bold=True,
                               font_size=app.fs(20), halign="left")
        verdict_box = _w("Panel", padding=(10, 4))
        self.verdict_label = _w("TLabel", shorten=False, font_size=app.fs(18), halign="left")
        verdict_box.add_widget(self.verdict_label)
        self.message_label = _w("TLabel", size_hint_y=None, height=24, color=theme.DANGER,
                                font_size=app.fs(14), halign="left")
        self.choices = BoxLayout(orientation="vertical", spacing=4, size_hint_y=None)
        for w in (self.prompt_label, verdict_box, self.message_label, self.choices):
            left.add_widget(w)
        right = _w("Panel", orientation="vertical", size_hint_x=0.37, padding=6, spacing=2)
        self.trick_label = _w("TLabel", size_hint_y=None, height=104, shorten=False,
                              font_size=app.fs(15), halign="left", valign="top")
        self.players_box = BoxLayout(orientation="vertical", spacing=2)
        right.add_widget(self.trick_label)
        right.add_widget(self.players_box)
        body.add_widget(left)
        body.add_widget(right)
        root.add_widget(body)
        self.add_widget(root)

    # -- state kept by the screen between taps (never game state) ----------------------------

    def _reset_local(self) -> None:
        """Forget half-made choices: after every call, undo or redo."""
        self.tribe: str | None = None  # tribe tapped, waiting for its value
        self.tokens = 0  # Wild Luftle tokens to put on the next card (+N / -N)
        self.card: str | None = None  # card chosen, waiting for its ability choice
        self.take: str | None = None  # Raking Talons: card taken, waiting for the discard
        self.swap_first: str | None = None  # Plotting Distrust / alliance edit: first tribe
        self.picker: str | None = None  # setup: player picking an objective / leading
        self.reveal_sel: list[str] = []
        self.chaos: list[tuple[str, str]] | None = None  # (card, from player) being entered
        self.gifts: list[tuple[str, str]] = []  # (card, to player) being entered

    # -- the app calls this after every call, undo, redo (and refusal) ------------------------

    def refresh(self, events: Sequence[Any] = ()) -> None:
        done = len(self.session.game.history)
        if done != self._seen:
            self._seen = done
            self._reset_local()
        self.redraw()

    def redraw(self) -> None:
        game = self.session.game
        s = game.state
        self.buttons = {}
        hands = game.options.hands
        where = "game over" if game.is_over else f"hand {s.hand_no} of {hands}"
        if s.phase == "play" and not game.is_over:
            tricks = sum(len(v) for v in s.villages.values())
            where += f" · trick {tricks + 1}"
        self.title_label.text = f"Tribal Village · {where}"
        self.frame.refresh()
        self.allies_label.text = self._allies_text()
        self.prompt_label.text = self._prompt()
        self.message_label.text = self.session.message
        self._draw_side()
        self.choices.clear_widgets()
        if game.is_over:
            self._draw_over()
        elif s.phase == "setup":
            self._draw_setup()
        elif s.pending:
            self._draw_pending()
        elif self.card is not None:
            self._draw_ability()
        else:
            self._draw_play()
        # The choices take the height they need, at the bottom; the verdict gets the rest.
        kids = self.choices.children
        self.choices.height = sum(k.height for k in kids) + 4 * max(0, len(kids) - 1)
        verdict = self._verdict()  # after the choices: a setup step may set what it says
        self.verdict_label.text = verdict
        # big when it fits; setup steps leave the box less room
        roomy = len(verdict) <= 110 and game.state.phase != "setup"
        self.verdict_label.font_size = self.host.fs(22 if roomy else 18)

    # -- texts ------------------------------------------------------------------------------

    def _allies_text(self) -> str:
        layout = self.session.game.state.layout
        pairs = "   ".join(" + ".join(g) for g in layout if len(g) == 2)
        alone = ", ".join(g[0] for g in layout if len(g) == 1)
        return f"Allies: {pairs}     Unallied: {alone}"

    def _prompt(self) -> str:
        game = self.session.game
        s = game.state
        if game.is_over:
            return f"Winner: {game.standings().winner}"
        if s.phase == "setup":
            missing = [p for p, o in s.objective.items() if o is None]
            if missing:
                return f"Choose objectives: {', '.join(missing)}"
            unallied = " / ".join(g[0] for g in s.layout if len(g) == 1)
            return f"First lead: who holds the lowest {unallied}?"
        if s.pending:
            kind = s.pending[0].kind
            what = {"net": "Hunting Net", "chaos": "Create Chaos (Floris)",
                    "return": "Create Chaos: give back", "manipulate": "Manipulative (Tachydus)",
                    "discard": "discard after Tachydus", "gretin": "Lucky Gretin"}[kind]
            return f"{s.pending[0].player}: {what}"
        player = game.current_player
        suit = "leads" if s.suit is None else f"plays · suit {s.suit}"
        return f"{player} {suit}"

    def _verdict(self) -> str:
        game = self.session.game
        s = game.state
        if game.is_over:
            return game.standings().note or self._totals_text()
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
        s = self.session.game.state
        if self.setup_mode == "options":
            return "Table options: changing one deals this game again."
        if self.setup_mode == "alliances":
            return "Make this match the table's alliance cards: tap two tribes to swap them."
        if self.setup_mode == "revealed":
            return (f"Tap the objectives face up on the table ({len(self.reveal_sel)} of 5), "
                    "then Use.")
        if s.hand_scores:
            last = s.hand_scores[-1]
            return (f"Hand {len(s.hand_scores)} scored: "
                    + ", ".join(f"{p} {n}" for p, n in last.items()))
        if any(o is None for o in s.objective.values()):
            return "Face up: " + ", ".join(o.replace(" Village", "") for o in s.revealed)
        unallied = " or ".join(g[0] for g in s.layout if len(g) == 1)
        return f"Tap who holds the lowest {unallied} card, then tap the card."

    def _totals_text(self) -> str:
        s = self.session.game.state
        return "Totals: " + ", ".join(
            f"{p} {sum(h[p] for h in s.hand_scores)}" for p in self.session.game.setup.players)

    def _draw_side(self) -> None:
        game = self.session.game
        s = game.state
        lines = []
        for c in s.trick:
            note = " (no effect)" if c.no_effect else ("" if c.on_suit else " (off suit)")
            lines.append(f"{c.player}: {c.label()}{note}")
        for p in s.pending:
            lines += [f"chaos: {c}" for c in p.cards]
        self.trick_label.text = "This trick\n" + ("\n".join(lines) if lines else "-")
        self.players_box.clear_widgets()
        palette = self.host.settings.palette
        current = game.current_player
        self.player_labels: dict[str, Any] = {}
        self.score_labels: dict[str, Any] = {}
        for i, who in enumerate(game.setup.players):
            row = BoxLayout(spacing=4)
            row.add_widget(_w("Panel", size_hint_x=None, width=10,
                              bg=theme.player_colour(palette, i)))
            total = sum(h[who] for h in s.hand_scores)
            team = game.team_of(who)
            name = ("> " if who == current else "") + who + (f" (team {team})" if team else "")
            objective = s.objective.get(who) or "no objective yet"
            extras = [f"{s.hand_count[who]} cards", f"{len(s.villages[who])} tricks"]
            if s.tokens[who]:
                extras.append(f"{s.tokens[who]} token" + ("s" if s.tokens[who] > 1 else ""))
            if s.nets.get(who):
                extras.append(f"net on {s.nets[who]}")
            text = f"[b]{name}[/b] · {objective}\n{', '.join(extras)}"
            label = _w("TLabel", text=text, markup=True, shorten=False, halign="left",
                       font_size=self.host.fs(15))
            # the hand's score so far, big; the game's total (earlier hands + this one) under it
            small = int(self.host.fs(12))
            gap = "\n" if len(game.setup.players) <= 4 else " "  # 5-6 rows: one line each
            if game.is_over or (s.phase == "setup" and s.hand_scores):
                score = f"[b]{total}[/b]{gap}[size={small}]total[/size]"
            elif s.hand_scores:
                now = game.hand_score(who)
                score = f"[b]{now}[/b]{gap}[size={small}]total {total + now}[/size]"
            else:
                score = f"[b]{game.hand_score(who)}[/b]{gap}[size={small}]this hand[/size]"
            points = _w("TLabel", text=score, markup=True, shorten=False, size_hint_x=None,
                        width=90, font_size=self.host.fs(22))
            row.add_widget(label)
            row.add_widget(points)
            self.player_labels[who] = label
            self.score_labels[who] = points
            self.players_box.add_widget(row)

    # -- building blocks ----------------------------------------------------------------------

    def _button(self, key: str, text: str, on: Callable[..., object], *, enabled: bool = True,
                hot: bool = False, selected: bool = False, font: float = 16,
                **kwargs: Any) -> Any:
        """A choice: ``hot`` (accent) marks the sensible ones; disabled ones are greyed."""
        bg = theme.ACCENT if hot else theme.SELECT if selected else theme.BUTTON
        b = _w("TButton", text=text, font_size=self.host.fs(font), disabled=not enabled,
               background_color=bg if enabled else OFF,
               color=HOT_TEXT if hot else theme.TEXT, disabled_color=theme.MUTED,
               background_disabled_normal="", **kwargs)
        b.bind(on_release=lambda *_: on())
        self.buttons[key] = b
        return b

    def _row(self, widgets: Iterable[Any], height: float = 52) -> BoxLayout:
        row = BoxLayout(spacing=4, size_hint_y=None, height=height)
        for w in widgets:
            row.add_widget(w)
        self.choices.add_widget(row)
        return row

    def _grid(self, widgets: Sequence[Any], cols: int) -> GridLayout:
        rows = max(1, -(-len(widgets) // cols))
        grid = GridLayout(cols=cols, spacing=4, size_hint_y=None, height=rows * 52 - 4)
        for w in widgets:
            grid.add_widget(w)
        self.choices.add_widget(grid)
        return grid

    def _note(self, text: str, height: float = 30) -> None:
        self.choices.add_widget(_w("TLabel", text=text, size_hint_y=None, height=height,
                                   font_size=self.host.fs(16), halign="left", shorten=False))

    def _call(self, text: str) -> None:
        self.session.try_call(text)
        if self.session.message:  # refused: keep the half-made choice, show why
            self.redraw()

    def _set(self, **changes: Any) -> None:
        for k, v in changes.items():
            setattr(self, k, v)
        self.redraw()

    def _card_picker(self, allowed: set[str], hot: set[str], on_pick: Callable[[str], None],
                     tribes: Sequence[str] | None = None) -> None:
        """Tribe, then value: two taps. Only ``allowed`` cards can be tapped; ``hot`` ones are
        highlighted (e.g. on suit). A Lucky Gretin is one tap."""
        game = self.session.game
        tribes = list(tribes if tribes is not None else game.state.tribes)
        if game.options.lucky_gretin and tribes == list(game.state.tribes):
            tribes.append(GRETIN)
        if self.tribe is not None and self.tribe not in tribes:
            self.tribe = None
        if len(tribes) == 1:  # one tribe possible: its values at once
            self.tribe = tribes[0]
        widgets = []
        for t in tribes if len(tribes) > 1 else ():
            if t == GRETIN:
                widgets.append(self._button("tribe:" + t, "Gretin", lambda: on_pick(GRETIN),
                                            enabled=GRETIN in allowed, hot=GRETIN in hot))
                continue
            mine = {c for c in allowed if c != GRETIN and tribe_of(c) == t}
            widgets.append(self._button(
                "tribe:" + t, t, lambda t=t: self._set(tribe=t), enabled=bool(mine),
                hot=any(c in hot for c in mine) and self.tribe != t,
                selected=self.tribe == t))
        if widgets:
            self._grid(widgets, cols=min(5, len(widgets)))
        values = []
        for v in VALUES:
            card = f"{self.tribe} {v}"
            ok = self.tribe is not None and card in allowed
            values.append(self._button(f"value:{v}", str(v), lambda card=card: on_pick(card),
                                       enabled=ok, hot=ok and card in hot, font=20))
        self._row(values)

    def _player_row(self, players: Sequence[str], chosen: str | None,
                    on: Callable[[str], None], prefix: str = "player:") -> None:
        palette = self.host.settings.palette
        order = list(self.session.game.setup.players)
        widgets = []
        for p in players:
            colour = theme.player_colour(palette, order.index(p))
            b = self._button(prefix + p, p, lambda p=p: on(p), bold=p == chosen)
            # the chosen player in their colour, the others grey with a colour-free label
            b.background_color = colour if p == chosen else theme.BUTTON
            b.color = theme.text_on(colour) if p == chosen else theme.TEXT
            widgets.append(b)
        self._row(widgets)

    # -- setup: alliances, revealed objectives, picks, first lead ---------------------------------

    def _draw_setup(self) -> None:
        modes = [("pick", "Picks & lead"), ("alliances", "Alliance cards"),
                 ("revealed", "Objectives dealt")]
        fresh = not self.session.game.history  # options only before the game's first call
        if fresh:
            modes.append(("options", "Options"))
        elif self.setup_mode == "options":
            self.setup_mode = "pick"
        self._row([self._button("mode:" + m, text, lambda m=m: self._set(setup_mode=m),
                                selected=self.setup_mode == m, font=15)
                   for m, text in modes])
        if self.setup_mode == "options":
            self._draw_options()
        elif self.setup_mode == "alliances":
            self._draw_alliances()
        elif self.setup_mode == "revealed":
            self._draw_revealed()
        else:
            self._draw_picks()

    def _draw_alliances(self) -> None:
        """Match the table's Tribal Alliance cards: tap two tribes to swap their places."""
        layout = self.session.game.state.layout
        widgets = []
        for g in layout:
            for t in g:
                widgets.append(self._button("ally:" + t, t, lambda t=t: self._edit_ally(t),
                                            selected=self.swap_first == t))
        self._grid(widgets, cols=4)

    def _draw_options(self) -> None:
        """The engine's table options. The start screen does not know them, so changing one
        restarts this (still empty) game with the new options; the old one is dropped."""
        game = self.session.game
        o = game.options
        n = len(game.setup.players)
        self._row([
            self._button("opt:lucky_gretin", "Lucky Gretin: " + ("on" if o.lucky_gretin
                                                                  else "off"),
                         lambda: self._restart(lucky_gretin=not o.lucky_gretin),
                         selected=o.lucky_gretin, font=15),
            self._button("opt:alliance_mode", "Alliance mode (teams): "
                         + ("on" if o.alliance_mode else "off"),
                         lambda: self._restart(alliance_mode=not o.alliance_mode),
                         enabled=n in (4, 6), selected=o.alliance_mode, font=15)])
        self._row([_w("TLabel", text="Hands", size_hint_x=None, width=80,
                      font_size=self.host.fs(15)),
                   *(self._button(f"opt:hands:{h}", str(h), lambda h=h: self._restart(hands=h),
                                  selected=o.hands == h) for h in range(1, 6))])
        self._row([
            self._button("opt:tachydus_discard", "Tachydus discard: " + o.tachydus_discard,
                         lambda: self._restart(tachydus_discard="out" if o.tachydus_discard
                                               == "village" else "village"), font=15),
            self._button("opt:new_alliances_each_hand", "New alliances each hand: "
                         + ("yes" if o.new_alliances_each_hand else "no"),
                         lambda: self._restart(
                             new_alliances_each_hand=not o.new_alliances_each_hand),
                         selected=o.new_alliances_each_hand, font=15)])

    def _restart(self, **changes: Any) -> None:
        game = self.session.game
        new = self.host.restart({**game.setup.options, **changes})
        if isinstance(new, ScreenTable) and isinstance(new.screen, TribalVillageScreen):
            new.screen.setup_mode = "options"  # the players are still choosing options
            new.screen.redraw()

    def _edit_ally(self, tribe: str) -> None:
        first = self.swap_first
        if first is None or first == tribe:
            self._set(swap_first=None if first == tribe else tribe)
            return
        layout = [list(g) for g in self.session.game.state.layout]
        ga = next(g for g in layout if first in g)
        gb = next(g for g in layout if tribe in g)
        ga[ga.index(first)], gb[gb.index(tribe)] = tribe, first
        self._call(SetAlliances(tuple(tuple(g) for g in layout)).text())

    def _draw_revealed(self) -> None:
        """Match the five objective cards face up on the table."""
        s = self.session.game.state
        pool = set(s.revealed) | set(s.objective_deck)
        if not self.reveal_sel:
            self.reveal_sel = list(s.revealed)
        widgets = [self._button("reveal:" + o, o.replace(" Village", ""),
                                lambda o=o: self._toggle_reveal(o), enabled=o in pool,
                                selected=o in self.reveal_sel, font=14)
                   for o in OBJECTIVES]
        self._grid(widgets, cols=5)
        changed = sorted(self.reveal_sel) != sorted(s.revealed)
        self._row([self._button("reveal:use", "Use these objectives",
                                lambda: self._call(Reveal(tuple(self.reveal_sel)).text()),
                                enabled=changed and len(self.reveal_sel) == min(5, len(pool)),
                                hot=changed)])

    def _toggle_reveal(self, objective: str) -> None:
        sel = self.reveal_sel
        if objective in sel:
            sel.remove(objective)
        elif len(sel) < 5:
            sel.append(objective)
        self.redraw()

    def _draw_picks(self) -> None:
        game = self.session.game
        s = game.state
        missing = [p for p, o in s.objective.items() if o is None]
        if missing:
            who = self.picker if self.picker in missing else missing[0]
            self._player_row(missing, who, lambda p: self._set(picker=p))
            picks = [c for c in game.legal_calls()
                     if isinstance(c, PickObjective) and c.player == who]
            widgets = [self._button("objective:" + c.objective, c.objective,
                                    lambda c=c: self._call(c.text()), font=15)
                       for c in picks]
            self._grid(widgets, cols=3)
            return
        players = list(game.setup.players)
        picker = self.picker if self.picker in players else None
        unallied = [g[0] for g in s.layout if len(g) == 1]
        self._player_row(players, picker, lambda p: self._set(picker=p))
        if picker is None:
            return
        lead = picker
        allowed = {f"{t} {v}" for t in unallied for v in VALUES
                   if accepts(game, FirstLead(lead, f"{t} {v}").text())}
        self._card_picker(allowed, allowed, lambda c: self._call(FirstLead(lead, c).text()),
                          tribes=unallied)
        self._row([self._button("lead:none", f"No unallied card dealt: {lead} leads",
                                lambda: self._call(FirstLead(lead).text()), font=15)])

    # -- play: a card by two taps, then its ability ---------------------------------------------

    def _plays(self) -> list[Play]:
        game = self.session.game
        who = game.current_player
        return [c for c in game.legal_calls() if isinstance(c, Play) and c.player == who]

    def _draw_play(self) -> None:
        game = self.session.game
        s = game.state
        who = game.current_player
        assert who is not None  # a card is awaited from the player on turn
        plays = self._plays()
        allowed = {c.card for c in plays}
        hot = {c for c in allowed if game.is_on_suit(c)}
        held = s.tokens[who]
        if held:
            span = range(-min(held, 3), min(held, 3) + 1)
            widgets = [self._button(f"tokens:{n:+d}", "no token" if n == 0 else f"{n:+d}",
                                    lambda n=n: self._set(tokens=n), selected=self.tokens == n,
                                    font=16) for n in span]
            self._row([_w("TLabel", text="Luftle tokens", size_hint_x=None, width=120,
                          font_size=self.host.fs(15)), *widgets])
        self._card_picker(allowed, hot, self._chosen)

    def _chosen(self, card: str) -> None:
        """A card was tapped: play it, or first ask for its ability's choice."""
        game = self.session.game
        who = game.current_player
        assert who is not None
        variants = [c for c in self._plays() if c.card == card]
        if any(c.net or c.take or c.swap for c in variants):
            self._set(card=card, tribe=None)
            return
        self._call(Play(who, card, self.tokens).text())

    def _send_play(self, **ability: Any) -> None:
        game = self.session.game
        who = game.current_player
        assert self.card is not None and who is not None
        self._call(Play(who, self.card, self.tokens, **ability).text())

    def _draw_ability(self) -> None:
        game = self.session.game
        card = self.card
        assert card is not None
        variants = [c for c in self._plays() if c.card == card]
        tribe = tribe_of(card)
        back = self._button("ability:back", "Other card", lambda: self._set(card=None), font=15)
        skip = self._button("ability:skip", "Don't use it", lambda: self._send_play(), font=15)
        if tribe == "Hydris":
            self._note(f"{card}: Hunting Net - place it in front of")
            targets = sorted({c.net for c in variants if c.net})
            self._player_row(targets, None, lambda p: self._send_play(net=p), prefix="net:")
            self._row([skip, back])
        elif tribe == "Nimbus" and self.take is None:
            self._note(f"{card} off suit: Raking Talons - take a card from the trick")
            takes = sorted({c.take for c in variants if c.take})
            self._grid([self._button("take:" + t, t, lambda t=t: self._set(take=t), hot=True)
                        for t in takes], cols=3)
            self._row([skip, back])
        elif tribe == "Nimbus":
            take = self.take
            assert take is not None
            self._note(f"Took {take}: now discard a card into the trick (no effect)")
            who = game.current_player
            assert who is not None
            allowed = {c for c in [take, *self._possible(who)]
                       if accepts(game, Play(who, card, self.tokens, take=take,
                                             discard=c).text())}
            self._card_picker(allowed, {take},
                              lambda c: self._send_play(take=take, discard=c))
            self._row([self._button("ability:back", "Other take",
                                    lambda: self._set(take=None), font=15)])
        elif tribe == "Boletus":
            self._note(f"{card} off suit: Plotting Distrust - swap two alliance cards")
            pairs = {c.swap for c in variants if c.swap}
            first = self.swap_first
            widgets = []
            for g in game.state.layout:
                for t in g:
                    ok = any(t in pair for pair in pairs) if first is None else (
                        t == first or (first, t) in pairs or (t, first) in pairs)
                    widgets.append(self._button("swap:" + t, t, lambda t=t: self._swap_tap(t),
                                                enabled=ok, selected=first == t))
            self._grid(widgets, cols=4)
            self._row([skip, back])

    def _swap_tap(self, tribe: str) -> None:
        first = self.swap_first
        if first is None or first == tribe:
            self._set(swap_first=None if first == tribe else tribe)
            return
        self._send_play(swap=(first, tribe))

    def _possible(self, player: str) -> list[str]:
        """Cards ``player`` may hold, as the engine sees it (known ones, and every unseen one)."""
        game = self.session.game
        return list(game.cards_for(player))

    # -- decisions the game waits for -------------------------------------------------------------

    def _draw_pending(self) -> None:
        game = self.session.game
        s = game.state
        pend = s.pending[0]
        answers = game.legal_calls()
        who = pend.player
        if pend.kind == "net":
            assert pend.play is not None
            self._note(f"{pend.other} chose {pend.play.card}. Retrieve the net to make them "
                       "play another card?", height=50)
            self._row([self._button("net:" + ("retrieve" if c.retrieve else "leave"),
                                    c.text().split(": ", 1)[1], lambda c=c: self._call(c.text()),
                                    hot=not c.retrieve)
                       for c in answers if isinstance(c, NetAnswer)])
        elif pend.kind == "chaos":
            self._draw_chaos(who, answers)
        elif pend.kind == "return":
            self._draw_return(who, pend)
        elif pend.kind == "manipulate":
            self._draw_manipulate([c for c in answers if isinstance(c, Manipulate)])
        elif pend.kind == "discard":
            self._note(f"{who} got {pend.card} back: discard a different card")
            allowed = {c.card for c in answers if isinstance(c, Discard)}
            self._card_picker(allowed, allowed,
                              lambda c: self._call(Discard(who, c).text()))
        else:  # gretin
            self._note(f"A Lucky Gretin entered {who}'s Village: keep or change the objective")
            widgets = []
            for c in answers:
                if isinstance(c, KeepObjective):
                    widgets.append(self._button("gretin:keep", f"Keep {s.objective[who]}",
                                                lambda c=c: self._call(c.text()), hot=True,
                                                font=14))
                elif isinstance(c, PickObjective):
                    widgets.append(self._button("objective:" + c.objective, c.objective,
                                                lambda c=c: self._call(c.text()), font=14))
            self._grid(widgets, cols=3)

    def _draw_manipulate(self, answers: Sequence[Manipulate]) -> None:
        """Tachydus: whose Village (tap), then which card; Villages can hold many cards, so the
        cards scroll."""
        owners = list(dict.fromkeys(c.owner for c in answers if c.owner))
        owner = self.picker if self.picker in owners else None
        self._note("Return a card from whose Village to their hand?")
        none = next(c for c in answers if c.card is None)
        self._row([self._button("manipulate:none", "No manipulation",
                                lambda: self._call(none.text()), hot=True, font=15)])
        self._player_row(owners, owner, lambda p: self._set(picker=p), prefix="village:")
        if owner is None:
            return
        mine = [c for c in answers if c.owner == owner and c.card]
        grid = GridLayout(cols=4, spacing=4, size_hint_y=None,
                          height=max(1, -(-len(mine) // 4)) * 52 - 4)
        for c in mine:
            assert c.card is not None
            grid.add_widget(self._button(f"manipulate:{c.card} from {owner}",
                                         c.card.replace("Lucky ", ""),
                                         lambda c=c: self._call(c.text()), font=15))
        view = ScrollView(size_hint_y=None, height=min(grid.height, 3 * 52 - 4),
                          do_scroll_x=False)
        view.add_widget(grid)
        self.choices.add_widget(view)

    def _draw_chaos(self, who: str, answers: Sequence[Any]) -> None:
        full = next((c for c in answers if isinstance(c, Chaos) and c.added), None)
        givers = [q for _, q in full.added] if full else []
        if self.chaos is None:
            self._note(f"{who} won with Floris: each other player adds a random card, then "
                       f"{who} gives one back to each.", height=50)
            self._row([self._button("chaos:no", "No chaos", lambda: self._call(
                Chaos(who).text()), hot=True),
                self._button("chaos:yes", "Create chaos", lambda: self._set(chaos=[]),
                             enabled=bool(givers))])
            return
        done = self.chaos
        giver = givers[len(done)]
        self._note(f"Random card drawn from {giver}'s hand:")
        taken = {c for c, _ in done}
        allowed = {c for c in self._possible(giver) if c not in taken or c == GRETIN}

        def pick(card: str) -> None:
            added = [*done, (card, giver)]
            if len(added) == len(givers):
                self._call(Chaos(who, tuple(added)).text())
            else:
                self._set(chaos=added, tribe=None)

        self._card_picker(allowed, set(), pick)
        self._row([self._button("chaos:back", "Start again", lambda: self._set(chaos=None),
                                font=15)])

    def _draw_return(self, who: str, pend: Any) -> None:
        s = self.session.game.state
        group = [c.card for c in s.trick] + list(pend.cards)
        for card, _ in self.gifts:
            group.remove(card)
        giver = pend.givers[len(self.gifts)]
        self._note(f"{who}: give one card of the group back to {giver}")

        def give(card: str) -> None:
            gifts = [*self.gifts, (card, giver)]
            if len(gifts) == len(pend.givers):
                self._call(ChaosReturn(who, tuple(gifts)).text())
            else:
                self._set(gifts=gifts)

        self._grid([self._button("give:" + c, c, lambda c=c: give(c), font=15)
                    for c in dict.fromkeys(group)], cols=4)
        if self.gifts:
            self._row([self._button("give:back", "Start again", lambda: self._set(gifts=[]),
                                    font=15)])

    # -- the end ------------------------------------------------------------------------------

    def _draw_over(self) -> None:
        st = self.session.game.standings()
        cells = [_w("TLabel", text=c, bold=True, font_size=self.host.fs(15)) for c in st.columns]
        for row in st.rows:
            cells += [_w("TLabel", text=c, font_size=self.host.fs(15)) for c in row]
        grid = GridLayout(cols=len(st.columns), size_hint_y=None,
                          height=28 * (len(st.rows) + 1))
        for cell in cells:
            grid.add_widget(cell)
        self.choices.add_widget(grid)
        self.choices.add_widget(self._button("over:leave", "Back to start",
                                             lambda: self.host.end_game(), hot=True,
                                             size_hint_y=None, height=52))


__all__ = ["TribalVillageScreen", "accepts"]
