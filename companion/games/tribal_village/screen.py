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
from kivy.uix.widget import Widget
from kivy.utils import escape_markup

from companion import theme
from companion.contract import Host
from companion.frame import GameFrame
from companion.games.pages import one_page
from companion.games.table import TableScreen
from companion.session import TableSession
from companion.widgets import w as _w
from companion.words import plural
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
DANGER_HEX = "{:02x}{:02x}{:02x}".format(*(int(c * 255) for c in theme.DANGER[:3]))
NOTICE_HEX = "{:02x}{:02x}{:02x}".format(*(int(c * 255) for c in theme.ACCENT[:3]))
HOT_TEXT: theme.RGBA = (0, 0, 0, 1)


def accepts(game: Game[Any], text: str) -> bool:
    """Whether the engine would take ``text`` now (nothing changes)."""
    return game.is_legal(text)


#: A row of choices (touch targets stay above 48 px) and the gap between rows.
ROW = 52
GAP = 4
#: Rows of choices kept for play and decisions; the setup keeps one more per row of players.
PLAY_ROWS = 4


def rows_height(rows: int) -> float:
    return rows * ROW + max(0, rows - 1) * GAP


def grid_cols(count: int) -> int:
    """Columns for ``count`` buttons of names (players, tribes): one row up to three, then
    rows of two or three, so a 16-character name keeps its room."""
    if count <= 3:
        return max(1, count)
    return 2 if count == 4 else 3


def short_objective(name: str) -> str:
    """An objective as the buttons and rows show it: "Crowded" for "Crowded Village"."""
    return name.removesuffix(" Village")


class TribalVillageScreen(TableScreen):
    """One screen for the whole game: it redraws from the engine after every call.

    Left: what is asked (prompt), the trick's verdict (or a refusal, where the players look),
    and the choices at the bottom, in a box of fixed height so the card picker's value row
    never moves from the setup's first lead to the last trick. Right: one row per player
    with the card they played in this trick and their points."""

    def __init__(self, host: Host, session: TableSession[Any], **kwargs: Any) -> None:
        self.session: TableSession[TribalVillage] = session.typed(TribalVillage)
        super().__init__(host, session, **kwargs)
        app = host
        self.buttons: dict[str, Any] = {}  # key -> button on screen now (tests tap these)
        self._seen = -1
        self.setup_mode = "pick"  # pick | alliances | revealed: kept across calls
        self._reset_local()
        players = list(self.session.game.setup.players)
        #: Rows the setup's choices take: its tabs, the players, the card picker.
        self.setup_rows = 3 + -(-len(players) // grid_cols(len(players)))
        root = BoxLayout(orientation="vertical")
        self.frame = GameFrame(app, game=lambda: self.session.game, padding=(4, 2))
        self.title_label = self.frame.title
        self.undo_button, self.redo_button = self.frame.undo, self.frame.redo
        root.add_widget(self.frame)
        self.allies_label = _w("TLabel", size_hint_y=None, height=30, color=theme.ACCENT,
                               font_size=app.fs(16))
        root.add_widget(self.allies_label)
        body = BoxLayout(spacing=6, padding=(6, 2, 6, 6))
        left = BoxLayout(orientation="vertical", size_hint_x=0.55, spacing=4)
        self.prompt_label = _w("TLabel", size_hint_y=None, height=34, bold=True,
                               font_size=app.fs(19), halign="left")
        verdict_box = _w("Panel", padding=(10, 4))
        self.verdict_label = _w("TLabel", shorten=False, font_size=app.fs(18), halign="left",
                                markup=True)
        verdict_box.add_widget(self.verdict_label)
        self.choices = BoxLayout(orientation="vertical", spacing=GAP, size_hint_y=None,
                                 height=rows_height(PLAY_ROWS))
        for w in (self.prompt_label, verdict_box, self.choices):
            left.add_widget(w)
        right = _w("Panel", orientation="vertical", size_hint_x=0.45, padding=(4, 4), spacing=3)
        self.rows: dict[str, dict[str, Any]] = {}
        self.row_buttons: list[tuple[Any, Any]] = []  # (player row, button added to it)
        palette = app.settings.palette
        for i, who in enumerate(players):
            self.rows[who] = self._player_box(who, theme.player_colour(palette, i))
            right.add_widget(self.rows[who]["row"])
        self.player_labels = {p: r["detail"] for p, r in self.rows.items()}
        self.score_labels = {p: r["score"] for p, r in self.rows.items()}
        body.add_widget(left)
        body.add_widget(right)
        root.add_widget(body)
        self.add_widget(root)

    def _player_box(self, who: str, colour: theme.RGBA) -> dict[str, Any]:
        """One player's row, built once and updated in place: a colour strip, the name and
        objective over the counts, the card played in this trick, the points."""
        fs = self.host.fs
        row = _w("Panel", spacing=2, padding=(0, 2, 2, 2), bg=theme.PANEL)
        row.add_widget(_w("Panel", size_hint_x=None, width=6, bg=colour))
        text = BoxLayout(orientation="vertical")
        text.add_widget(Widget())
        name = _w("TLabel", text=f"[b]{who}[/b]", markup=True, halign="left",
                  font_size=fs(15), size_hint_y=None, height=20)
        detail = _w("TLabel", text="", halign="left", valign="top", font_size=fs(13),
                    color=theme.TEXT, shorten=False, size_hint_y=None, height=36)
        text.add_widget(name)
        text.add_widget(detail)
        text.add_widget(Widget())

        def heights(_w: Any, h: float) -> None:
            """The name's line and two lines of counts, as tall as the text size asks where
            the row has the room (six rows at 800x480 have less: the texts fit themselves)."""
            room = max(0.0, h - 4)
            name.height = min(fs(15) * 1.4, room * 0.36)
            detail.height = min(fs(13) * 2.6, room - name.height)

        row.bind(height=heights)
        row.add_widget(text)
        played = _w("TLabel", text="", font_size=fs(13), size_hint_x=None, width=60,
                    shorten=False)
        row.add_widget(played)
        points = BoxLayout(orientation="vertical", size_hint_x=None, width=58)
        points.add_widget(Widget())
        score = _w("TLabel", text="", bold=True, font_size=fs(22), size_hint_y=None,
                   height=30)
        under = _w("TLabel", text="", font_size=fs(12), color=theme.MUTED, size_hint_y=None,
                   height=18)
        points.add_widget(score)
        points.add_widget(under)
        points.add_widget(Widget())
        row.add_widget(points)
        return {"row": row, "name": name, "detail": detail, "played": played, "score": score,
                "under": under, "points": points}

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
        self.page = 0  # a long list of choices: the page shown
        self.notice = ""  # what the app said (Undid: ...), above the verdict until a tap

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
        where = "Game over" if game.is_over else f"Hand {s.hand_no} of {hands}"
        if s.phase == "play" and not game.is_over:
            tricks = sum(len(v) for v in s.villages.values())
            where += f" · trick {tricks + 1}"
        self.title_label.text = where
        self.frame.refresh()
        self.allies_label.text = self._allies_text()
        self.prompt_label.text = self._prompt()
        self._draw_side()
        self.choices.clear_widgets()
        for row, extra in self.row_buttons:  # a question's buttons beside the players' names
            row.remove_widget(extra)
        for r in self.rows.values():  # (they stood in for the card played and the points)
            r["played"].width, r["points"].width = 60, 58
            r["played"].opacity = r["points"].opacity = 1
        self.row_buttons = []
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
        # The choices keep one height through the setup, and another through play: the setup
        # fills them from the top (its tabs stay put), play from the bottom (the values do).
        self.choices.height = rows_height(self.setup_rows if setup else PLAY_ROWS)
        kids = self.choices.children
        used = sum(k.height for k in kids) + GAP * max(0, len(kids) - 1)
        if used < self.choices.height - 0.5:  # room left: a filler takes it
            self.choices.add_widget(Widget(), index=0 if setup else len(kids))
        verdict = escape_markup(self._verdict())  # after the choices: a setup step may
        refused = self.session.message  # set what it says
        if refused:  # the engine's reason, where the players look, instead of the verdict
            verdict = f"[color={DANGER_HEX}]{escape_markup(refused)}[/color]"
        elif self.notice:
            verdict = f"[color={NOTICE_HEX}]{escape_markup(self.notice)}[/color]\n{verdict}"
        self.verdict_label.text = verdict

    def say(self, text: str) -> None:
        """What the app tells the players (Undid: ..., a button's note): above the verdict."""
        self.notice = text
        self.redraw()

    # -- texts ------------------------------------------------------------------------------

    def _allies_text(self) -> str:
        layout = self.session.game.state.layout
        pairs = " · ".join(" + ".join(g) for g in layout if len(g) == 2)
        alone = ", ".join(g[0] for g in layout if len(g) == 1)
        return f"Allies: {pairs} · Unallied: {alone}"

    def _prompt(self) -> str:
        game = self.session.game
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
        game = self.session.game
        if game.options.alliance_mode:
            placings = game.placings()
            first = sorted({game.team_of(p) or "" for p in (placings[0] if placings else ())})
            return " and ".join(f"team {t}" for t in first) + (" win" if first else "")
        names = [n for n in (game.standings().winner or "").split(" & ") if n]
        if len(names) > 1:  # every name would not fit the prompt line; the rows show them
            return f"{len(names)} players share first place"
        return f"{names[0]} wins" if names else "no winner"

    def _verdict(self) -> str:
        game = self.session.game
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
        s = self.session.game.state
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
        game = self.session.game
        s = game.state
        totals = {p: sum(h[p] for h in s.hand_scores) for p in game.setup.players}
        best = max(totals.values())
        top = " and ".join(p for p, n in totals.items() if n == best)
        note = game.standings().note
        text = f"Most points: {top} ({plural(best, 'point')})."
        return f"{text} {note[0].upper()}{note[1:]}." if note else text

    def _draw_side(self) -> None:
        """Each player's row, updated in place (nothing there moves)."""
        game = self.session.game
        s = game.state
        current = game.current_player if s.phase == "play" and not s.pending else None
        played = {c.player: c for c in s.trick}
        for who, r in self.rows.items():
            objective = s.objective.get(who)
            r["name"].text = f"[b]{who}[/b]" + (f" · {short_objective(objective)}"
                                                if objective else "")
            team = game.team_of(who)
            first = [plural(s.hand_count[who], "card"), plural(len(s.villages[who]), "trick")]
            if team:
                first.insert(0, f"team {team}")
            extras = []
            if s.tokens[who]:
                extras.append(plural(s.tokens[who], "token"))
            if s.nets.get(who):
                extras.append(f"net on {s.nets[who]}")
            r["detail"].text = " · ".join(first) + ("\n" + " · ".join(extras) if extras else "")
            r["row"].bg = (0.26, 0.27, 0.22, 1) if who == current else theme.PANEL
            c = played.get(who)
            r["played"].color = theme.TEXT
            if c is not None:
                r["played"].text = self._card_lines(c)
            elif who == current:
                r["played"].text = "to play"
                r["played"].color = theme.ACCENT
            else:
                r["played"].text = ""
            total = sum(h[who] for h in s.hand_scores)
            if game.is_over or (s.phase == "setup" and s.hand_scores):
                r["score"].text, r["under"].text = str(total), "total"
            elif s.hand_scores:
                now = game.hand_score(who)
                r["score"].text, r["under"].text = str(now), f"total {total + now}"
            else:
                r["score"].text, r["under"].text = str(game.hand_score(who)), "this hand"

    @staticmethod
    def _card_lines(c: Any) -> str:
        """A card of the trick on two lines: its tribe, then its value and how it counts."""
        if c.card == GRETIN:
            return "Lucky\nGretin"
        tribe, value = c.card.rsplit(" ", 1)
        how = ("no effect" if c.no_effect else f"as {c.value}" if str(c.value) != value
               else "" if c.on_suit else "off suit")
        return f"{tribe}\n{value} {how}".rstrip()

    # -- building blocks ----------------------------------------------------------------------

    def _button(self, key: str, text: str, on: Callable[..., object], *, enabled: bool = True,
                hot: bool = False, selected: bool = False, font: float = 16,
                **kwargs: Any) -> Any:
        """A choice: ``hot`` (accent) marks the sensible ones, and only among those that may
        be tapped; disabled ones are greyed."""
        hot = hot and enabled
        bg = theme.ACCENT if hot else theme.SELECT if selected else theme.BUTTON
        b = _w("TButton", text=text, font_size=self.host.fs(font), disabled=not enabled,
               background_color=bg if enabled else OFF,
               color=HOT_TEXT if hot else theme.TEXT, disabled_color=theme.MUTED,
               background_disabled_normal="", **kwargs)
        b.bind(on_release=lambda *_: on())
        self.buttons[key] = b
        return b

    def _row(self, widgets: Iterable[Any], height: float = ROW) -> BoxLayout:
        row = BoxLayout(spacing=GAP, size_hint_y=None, height=height)
        for w in widgets:
            row.add_widget(w)
        self.choices.add_widget(row)
        return row

    def _grid(self, widgets: Sequence[Any], cols: int) -> GridLayout:
        rows = max(1, -(-len(widgets) // cols))
        grid = GridLayout(cols=cols, spacing=GAP, size_hint_y=None, height=rows_height(rows))
        for w in widgets:
            grid.add_widget(w)
        self.choices.add_widget(grid)
        return grid

    def _note(self, text: str, *buttons: Any) -> None:
        """A line saying what the choices below are for (two lines at most), with any buttons
        that go back or decline beside it."""
        label = _w("TLabel", text=text, font_size=self.host.fs(15), halign="left",
                   shorten=False, color=theme.MUTED)
        row = self._row([label])
        for b in buttons:
            b.size_hint_x = None
            b.width = 150
            row.add_widget(b)

    def _call(self, text: str) -> None:
        self.session.try_call(text)
        if self.session.message:  # refused: keep the half-made choice, show why
            self.redraw()

    def _set(self, **changes: Any) -> None:
        self.session.message = self.notice = ""  # a new tap: the last message has been read
        for k, v in changes.items():
            setattr(self, k, v)
        self.redraw()

    def _card_picker(self, allowed: set[str], hot: set[str], on_pick: Callable[[str], None],
                     tribes: Sequence[str] | None = None, extra: Sequence[Any] = (),
                     ready: bool = True) -> None:
        """Tribe, then value: two taps. Only ``allowed`` cards can be tapped; ``hot`` ones are
        highlighted (e.g. on suit). A Lucky Gretin is one tap. ``extra`` buttons join the
        tribes' row; nothing can be tapped until ``ready``."""
        game = self.session.game
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
                widgets.insert(len(widgets) - len(extra), self._button(
                    "tribe:" + t, "Gretin", lambda: on_pick(GRETIN),
                    enabled=ready and GRETIN in allowed, hot=GRETIN in hot))
                continue
            mine = {c for c in allowed if c != GRETIN and tribe_of(c) == t}
            widgets.insert(len(widgets) - len(extra), self._button(
                "tribe:" + t, t, lambda t=t: self._set(tribe=t), enabled=ready and bool(mine),
                hot=any(c in hot for c in mine) and self.tribe != t,
                selected=self.tribe == t))
        self._grid(widgets, cols=len(widgets) if len(widgets) <= 5 else -(-len(widgets) // 2))
        values = []
        for v in VALUES:
            card = f"{self.tribe} {v}"
            ok = ready and self.tribe is not None and card in allowed
            values.append(self._button(f"value:{v}", str(v), lambda card=card: on_pick(card),
                                       enabled=ok, hot=ok and card in hot, font=20))
        self._row(values)

    def _player_row(self, players: Sequence[str], chosen: str | None,
                    on: Callable[[str], None], prefix: str = "player:",
                    done: Iterable[str] = ()) -> None:
        """The players as buttons, in rows of up to three (a name keeps its room); those in
        ``done`` stay in their place, greyed."""
        palette = self.host.settings.palette
        order = list(self.session.game.setup.players)
        finished = set(done)
        widgets = []
        for p in players:
            colour = theme.player_colour(palette, order.index(p))
            b = self._button(prefix + p, p, lambda p=p: on(p), bold=p == chosen,
                             enabled=p not in finished, font=15)
            # the chosen player in their colour, the others grey with a colour-free label
            if p == chosen:
                b.background_color = colour
                b.color = theme.text_on(colour)
            widgets.append(b)
        self._grid(widgets, cols=grid_cols(len(widgets)))

    # -- setup: alliances, revealed objectives, picks, first lead ---------------------------------

    def _draw_setup(self) -> None:
        modes = [("pick", "Picks & lead"), ("alliances", "Alliance cards"),
                 ("revealed", "Objectives dealt")]
        self._row([self._button("mode:" + m, text, lambda m=m: self._set(setup_mode=m),
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
        layout = self.session.game.state.layout
        widgets = []
        for g in layout:
            for t in g:
                widgets.append(self._button("ally:" + t, t, lambda t=t: self._edit_ally(t),
                                            selected=self.swap_first == t))
        self._grid(widgets, cols=4)

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
        """Match the five objective cards face up on the table; "Use them" ends the grid."""
        s = self.session.game.state
        pool = set(s.revealed) | set(s.objective_deck)
        if not self.reveal_sel:
            self.reveal_sel = list(s.revealed)
        widgets = [self._button("reveal:" + o, short_objective(o),
                                lambda o=o: self._toggle_reveal(o), enabled=o in pool,
                                selected=o in self.reveal_sel, font=15)
                   for o in OBJECTIVES]
        changed = sorted(self.reveal_sel) != sorted(s.revealed)
        widgets.append(self._button("reveal:use", "Use them",
                                    lambda: self._call(Reveal(tuple(self.reveal_sel)).text()),
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
        game = self.session.game
        s = game.state
        players = list(game.setup.players)
        missing = [p for p, o in s.objective.items() if o is None]
        if missing:
            who = self.picker if self.picker in missing else missing[0]
            self._player_row(players, who, lambda p: self._set(picker=p),
                             done=[p for p in players if p not in missing])
            picks = [c for c in game.legal_calls()
                     if isinstance(c, PickObjective) and c.player == who]
            widgets = [self._button("objective:" + c.objective, short_objective(c.objective),
                                    lambda c=c: self._call(c.text()), font=15)
                       for c in picks]
            self._grid(widgets, cols=3)
            return
        picker = self.picker if self.picker in players else None
        unallied = [g[0] for g in s.layout if len(g) == 1]
        self._player_row(players, picker, lambda p: self._set(picker=p))
        lead = picker or ""
        allowed = {f"{t} {v}" for t in unallied for v in VALUES
                   if picker is not None and accepts(game, FirstLead(lead, f"{t} {v}").text())}
        none = self._button("lead:none", "None dealt",
                            lambda: self._call(FirstLead(lead).text()), enabled=bool(picker),
                            font=15)
        self._card_picker(allowed, allowed, lambda c: self._call(FirstLead(lead, c).text()),
                          tribes=unallied, extra=[none], ready=picker is not None)

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
        if held:  # Wild Luftle tokens on the next card: -held .. +held, none at first
            n = self.tokens
            said = "none" if n == 0 else f"{n:+d}"
            label = _w("TLabel", text=f"Luftle tokens on the card: {said} "
                       f"(has {held})", font_size=self.host.fs(15), halign="left")
            self._row([label,
                       self._button("tokens:-", "-1", lambda: self._set(tokens=n - 1),
                                    enabled=n > -min(held, 3), font=18, size_hint_x=None,
                                    width=64),
                       self._button("tokens:+", "+1", lambda: self._set(tokens=n + 1),
                                    enabled=n < min(held, 3), font=18, size_hint_x=None,
                                    width=64)])
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
            # The question never takes the place of the tribe buttons the next player taps
            # first: the net goes by a button beside each player's name on the right, and
            # "Other card" / "Don't use it" sit on the row of card values, which nobody can
            # tap before choosing a tribe.
            self._note(f"{card}: Hunting Net in front of whom? Tap Net beside their name.")
            self.choices.add_widget(Widget())
            targets = sorted({c.net for c in variants if c.net})
            for p in targets:
                r = self.rows[p]
                row = r["row"]
                # the button takes the place of the card played and the points (none of
                # which matter to the question), so the name keeps its room
                r["played"].width, r["points"].width = 0, 0
                r["played"].opacity = r["points"].opacity = 0
                b = self._button("net:" + p, "Net", lambda p=p: self._send_play(net=p),
                                 hot=True, font=15, size_hint_x=None, width=64)
                row.add_widget(b)
                self.row_buttons.append((row, b))
            back.size_hint_x = skip.size_hint_x = 1
            self._row([back, skip])
        elif tribe == "Nimbus" and self.take is None:
            self._note(f"{card} off suit: Raking Talons takes a card", back)
            takes = sorted({c.take for c in variants if c.take})
            self._grid([*(self._button("take:" + t, t, lambda t=t: self._set(take=t), hot=True)
                          for t in takes), skip], cols=3)
        elif tribe == "Nimbus":
            take = self.take
            assert take is not None
            self._note(f"Took {take}: discard a card into the trick",
                       self._button("ability:back", "Other take",
                                    lambda: self._set(take=None), font=15))
            who = game.current_player
            assert who is not None
            allowed = {c for c in [take, *self._possible(who)]
                       if accepts(game, Play(who, card, self.tokens, take=take,
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
                    widgets.append(self._button("swap:" + t, t, lambda t=t: self._swap_tap(t),
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
                       "play another card?")
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
            self._note(f"{who} got {pend.card} back: discard another card")
            allowed = {c.card for c in answers if isinstance(c, Discard)}
            self._card_picker(allowed, allowed,
                              lambda c: self._call(Discard(who, c).text()))
        else:  # gretin
            self._note(f"A Lucky Gretin entered {who}'s Village: keep or change the objective")
            widgets = []
            for c in answers:
                if isinstance(c, KeepObjective):
                    kept = short_objective(s.objective[who] or "")
                    widgets.append(self._button("gretin:keep", f"Keep {kept}",
                                                lambda c=c: self._call(c.text()), hot=True,
                                                font=15))
                elif isinstance(c, PickObjective):
                    widgets.append(self._button("objective:" + c.objective,
                                                short_objective(c.objective),
                                                lambda c=c: self._call(c.text()), font=15))
            self._grid(widgets, cols=3)

    def _draw_manipulate(self, answers: Sequence[Manipulate]) -> None:
        """Tachydus: whose Village (tap), then which card; Villages can hold many cards, so the
        cards scroll."""
        owners = list(dict.fromkeys(c.owner for c in answers if c.owner))
        owner = self.picker if self.picker in owners else None
        none = next(c for c in answers if c.card is None)
        if owner is None:
            self._note("Return a card from whose Village to its owner's hand?",
                       self._button("manipulate:none", "No, none", lambda: self._call(
                           none.text()), hot=True, font=15))
            self._player_row(owners, owner, lambda p: self._set(picker=p), prefix="village:")
            return
        self._note(f"{owner}'s Village: which card goes back?",
                   self._button("village:back", "Other Village",
                                lambda: self._set(picker=None), font=15))
        mine = [c for c in answers if c.owner == owner and c.card]
        widgets = []
        for c in mine:
            assert c.card is not None
            widgets.append(self._button(f"manipulate:{c.card} from {owner}",
                                        c.card.replace("Lucky ", ""),
                                        lambda c=c: self._call(c.text()), font=15))
        self._paged(widgets, cols=4, rows=PLAY_ROWS - 1)

    def _paged(self, widgets: Sequence[Any], cols: int, rows: int) -> None:
        """A grid of ``rows`` x ``cols``, one page at a time: when the buttons do not fit, the
        last cell turns the page ("More", which shows where it is). Nothing scrolls, so every
        button sits where it was drawn."""
        shown, page, pages = one_page(widgets, cols * rows, self.page)
        cells = [Widget() if w is None else w for w in shown]
        if pages > 1:
            cells.append(self._button("page:more", f"More {page + 1}/{pages}",
                                      lambda: self._set(page=page + 1), font=15))
        self._grid(cells, cols=cols)

    def _draw_chaos(self, who: str, answers: Sequence[Any]) -> None:
        full = next((c for c in answers if isinstance(c, Chaos) and c.added), None)
        givers = [q for _, q in full.added] if full else []
        if self.chaos is None:
            self._note(f"Each other player adds a random card from their hand; then {who} "
                       "gives one back to each.")
            self._row([self._button("chaos:no", "No chaos", lambda: self._call(
                Chaos(who).text()), hot=True),
                self._button("chaos:yes", "Create chaos", lambda: self._set(chaos=[]),
                             enabled=bool(givers))])
            return
        done = self.chaos
        giver = givers[len(done)]
        self._note(f"The random card from {giver}'s hand:",
                   self._button("chaos:back", "Start again", lambda: self._set(chaos=None),
                                font=15))
        taken = {c for c, _ in done}
        allowed = {c for c in self._possible(giver) if c not in taken or c == GRETIN}

        def pick(card: str) -> None:
            added = [*done, (card, giver)]
            if len(added) == len(givers):
                self._call(Chaos(who, tuple(added)).text())
            else:
                self._set(chaos=added, tribe=None)

        self._card_picker(allowed, set(), pick)

    def _draw_return(self, who: str, pend: Any) -> None:
        s = self.session.game.state
        group = [c.card for c in s.trick] + list(pend.cards)
        for card, _ in self.gifts:
            group.remove(card)
        giver = pend.givers[len(self.gifts)]
        back = [self._button("give:back", "Start again", lambda: self._set(gifts=[]), font=15)]
        self._note(f"Which card goes back to {giver}?", *(back if self.gifts else ()))

        def give(card: str) -> None:
            gifts = [*self.gifts, (card, giver)]
            if len(gifts) == len(pend.givers):
                self._call(ChaosReturn(who, tuple(gifts)).text())
            else:
                self._set(gifts=gifts)

        self._grid([self._button("give:" + c, c, lambda c=c: give(c), font=15)
                    for c in dict.fromkeys(group)], cols=4)

    # -- the end ------------------------------------------------------------------------------

    def _draw_over(self) -> None:
        """The winner above, the totals on the right; the standings table and the way back."""
        self._row([self._button("over:standings", "Final standings", self.frame.ask_end),
                   self._button("over:leave", "Back to start", lambda: self.host.end_game(),
                                hot=True)])


__all__ = ["TribalVillageScreen", "accepts"]
