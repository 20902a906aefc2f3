"""The Dice of the Occulites table screen (Kivy).

Left: the six cards of the round above one row per player (name, points, Tribe and what they
are doing; then the six dice of the line-up, in the cards' columns). Right: what to do now, by
phase: choose Tribes (or draft dice), enter or read line-ups, step through the six cards, Share
Knowledge, the final scores. The screen keeps no rule: it sends call text through the session
and draws the engine's views (``current_cards()``, ``whose_turn()``, ``share_choices()``,
``standings()``, the reveal's card events). See docs/app-occulites.md.

Every widget is made once: a redraw (after a call, a settled camera view, a timer cue) only
changes texts, colours and what is enabled, so a finger on a button never loses it. Each
phase's controls are a panel built the first time the phase comes and shown while it lasts.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from kivy.clock import Clock
from kivy.core.text.markup import MarkupLabel
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.widget import Widget

from companion import theme
from companion.contract import Host
from companion.frame import GameFrame
from companion.games.occulites.adapter import (
    LineupRead,
    SlotRead,
    corrections,
    lineup_text,
    read_lineups,
    roll_zones,
)
from companion.games.table import TableScreen, lines_label, refusal_reason
from companion.session import TableSession
from companion.widgets import w as _w
from companion.words import plural
from rules import Event
from rules.occulites import (
    COLOURS,
    POOL,
    TRIBE_NAMES,
    TRIBES,
    OcculitesGame,
    TimerCue,
    timer_cues,
)
from rules.occulites.game import OcculitesOptions
from vision import Reading

#: How each dice colour is drawn (the colour's name is always written on it too, so colour is
#: never the only cue).
DIE_RGBA: dict[str, theme.RGBA] = {
    "green": (0.10, 0.55, 0.25, 1), "blue": (0.10, 0.35, 0.85, 1),
    "pink": (0.96, 0.58, 0.78, 1), "black": (0.0, 0.0, 0.0, 1),
    "yellow": (0.95, 0.85, 0.20, 1), "red": (0.80, 0.12, 0.12, 1),
    "purple": (0.50, 0.25, 0.70, 1), "orange": (0.95, 0.55, 0.10, 1),
    "white": (0.95, 0.95, 0.95, 1),
}
EMPTY = theme.BUTTON
#: A player's header when it is their turn (or their card): white, which is no seat colour of
#: any palette, so it never reads as "that player" (the header also says why it is lit).
LIT_HEADER: theme.RGBA = theme.TEXT
#: A player's header: room for a 16-character name at the smallest fitted size.
HEADER_W = 150
#: The right-hand panel's share of the window's width, and its least width.
SIDE_SHARE = 0.315
SIDE_MIN = 252
CARDS = 6
ROW = theme.TOUCH  # every button row of the panel
GAP = 4


def die_colour(colour: str | None) -> theme.RGBA:
    return DIE_RGBA.get(colour or "", EMPTY)


def primary(button: Any, legal: bool) -> None:
    """A panel's main action: the accent colour only while it can be taken."""
    button.disabled = not legal
    button.background_color = theme.ACCENT if legal else theme.BUTTON
    button.color = (0, 0, 0, 1) if legal else theme.TEXT


class Outlined(BoxLayout):
    """A widget inside a coloured frame: the frame lights up to highlight it."""

    def __init__(self, child: Any, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.frame = _w("Panel", padding=3, bg=theme.BACKGROUND)
        self.frame.add_widget(child)
        self.add_widget(self.frame)
        self.child = child

    def light(self, colour: theme.RGBA | None) -> None:
        want = list(colour or theme.BACKGROUND)
        if list(self.frame.bg) != want:
            self.frame.bg = want


class PlayerRow(BoxLayout):
    """One player: a header (name, points, Tribe, what they are doing; tap it to act for this
    player) and six dice."""

    def __init__(self, screen: OcculitesScreen, seat: int, player: str) -> None:
        super().__init__(spacing=GAP)
        app = screen.host
        self.player = player
        self.colour = theme.player_colour(app.settings.palette, seat)
        self.header = _w("TButton", background_color=self.colour,
                         color=theme.text_on(self.colour), size_hint_x=None, width=HEADER_W,
                         font_size=app.fs(16), shorten=False, markup=True,
                         on_release=lambda *_: screen.tap_player(player))
        self.add_widget(self.header)
        self.slots: list[Any] = []
        self.outlines: list[Outlined] = []
        for i in range(CARDS):
            b = _w("TButton", text="", markup=True, font_size=app.fs(15), shorten=False,
                   on_release=lambda *_, i=i: screen.tap_slot(player, i))
            o = Outlined(b)
            self.slots.append(b)
            self.outlines.append(o)
            self.add_widget(o)


def _grid(cols: int, rows: int) -> GridLayout:
    return GridLayout(cols=cols, spacing=GAP, size_hint_y=None, row_force_default=True,
                      row_default_height=ROW, height=rows * ROW + (rows - 1) * GAP)


def _stack(*parts: Any) -> BoxLayout:
    """Rows of controls, top to bottom, as tall as they are."""
    box = BoxLayout(orientation="vertical", spacing=GAP, size_hint_y=None)
    for part in parts:
        box.add_widget(part)
    box.height = sum(p.height for p in parts) + GAP * (len(parts) - 1)
    return box


class OcculitesScreen(TableScreen):
    """One game of Dice of the Occulites at the table."""

    def __init__(self, host: Host, session: TableSession[Any], **kwargs: Any) -> None:
        self.session: TableSession[OcculitesGame] = session.typed(OcculitesGame)
        super().__init__(host, session, **kwargs)
        self.players: list[str] = list(session.game.setup.players)
        self.sel: tuple[str, int] | None = None  # the die slot being entered
        self.chooser: str | None = None  # the player choosing a Tribe
        self.drafts: dict[str, list[SlotRead | None]] = {}  # line-ups being entered/confirmed
        self.flagged: dict[str, set[int]] = {}  # slots (0-5) the players must confirm
        self.snapshot: dict[str, tuple[Any, ...]] = {}  # line-ups before the reveal
        self.resolving: dict[str, Any] | None = None  # the reveal being stepped through
        self.share_give: str | None = None  # Share Knowledge: the die given,
        self.share_source: str | None = None  # then where the die taken comes from
        #: Each player's line-up area on the table, from the calibration profile (or None).
        self.zones = roll_zones(host.board_zones, self.players)
        self.fired: set[int] = set()  # timer cues already heard this roll
        self.round_seen = session.game.state.round
        self.notice = ""
        self.settled: Reading | None = None  # the camera feed's newest settled view
        #: Line-ups the camera left to confirm: (its reading, the slots as read, the draft).
        self.read_slots: dict[str, tuple[Reading, tuple[SlotRead | None, ...],
                                         list[SlotRead | None]]] = {}
        self._history = len(session.game.history)
        self.panels: dict[str, Any] = {}  # each phase's controls, made once
        self.shown_panel = ""
        self._build()

    def wants_camera(self) -> bool:
        return True

    @property
    def timer_on(self) -> bool:
        """True once the dice were rolled this round (the round clock counts from the roll)."""
        return (self.game.phase == "allocate" and self.resolving is None
                and self.session.clock.state != "ready")

    @property
    def since_roll(self) -> float:
        """Seconds since the dice were rolled (the round clock's time)."""
        return self.session.clock.elapsed

    # -- building ---------------------------------------------------------------------------

    def _build(self) -> None:
        app = self.host
        root = _w("Panel", orientation="vertical", padding=6, spacing=6, bg=theme.BACKGROUND)
        self.timer_label = lines_label(app, 17, text="", size_hint_x=None, width=118,
                                       bold=True, color=theme.ACCENT)
        self.frame = GameFrame(app, extras=[self.timer_label], game=lambda: self.game)
        self.title_label = self.frame.title
        self.title_label.font_size = app.fs(17)
        self.title_label.shorten = False  # two lines rather than a cut
        self.undo_button, self.redo_button = self.frame.undo, self.frame.redo
        root.add_widget(self.frame)
        body = BoxLayout(spacing=8)
        left = BoxLayout(orientation="vertical", spacing=GAP)
        cards = BoxLayout(spacing=GAP, size_hint_y=None, height=64)
        cards.add_widget(Widget(size_hint_x=None, width=HEADER_W))
        self.card_labels: list[Any] = []
        self.card_inners: list[Any] = []
        self.card_outlines: list[Outlined] = []
        for _ in range(CARDS):
            label = lines_label(app, 12, text="", markup=True)
            inner = _w("Panel", bg=theme.PANEL)
            inner.add_widget(label)
            o = Outlined(inner)
            self.card_inners.append(inner)
            self.card_labels.append(label)
            self.card_outlines.append(o)
            cards.add_widget(o)
        left.add_widget(cards)
        self.rows: dict[str, PlayerRow] = {}
        for seat, p in enumerate(self.players):
            row = PlayerRow(self, seat, p)
            self.rows[p] = row
            left.add_widget(row)
        body.add_widget(left)
        self._refit_slots = Clock.create_trigger(lambda dt: self._fit_slots(), -1)
        self.rows[self.players[0]].slots[0].bind(size=lambda *_: self._refit_slots())
        self.side = _w("Panel", orientation="vertical", size_hint_x=None, width=SIDE_MIN,
                       spacing=GAP, padding=4, bg=theme.PANEL)
        body.bind(width=lambda _, v: setattr(self.side, "width",
                                             max(SIDE_MIN, round(v * SIDE_SHARE))))
        self.message = _w("TLabel", text="", font_size=app.fs(15), halign="left",
                          valign="top", shorten=False, markup=True)
        self.side.add_widget(self.message)
        self.tools = BoxLayout(orientation="vertical", size_hint_y=None, height=0)
        self.side.add_widget(self.tools)
        body.add_widget(self.side)
        root.add_widget(body)
        self.add_widget(root)

    def _fit_slots(self) -> None:
        """One text size for every die of the line-ups (the largest that lets the widest
        colour name fit), rather than each die's own: a table of dice reads evenly."""
        slot = self.rows[self.players[0]].slots[0]
        wanted = self.host.fs(15)
        core = MarkupLabel(text="[b]6?[/b]\norange", font_size=wanted)
        core.refresh()
        w, h = core.texture.size if core.texture is not None else (1, 1)
        scale = min(1.0, (slot.width - 8) / max(1, w), (slot.height - 4) / max(1, h))
        size = max(wanted * 0.5, wanted * scale * 0.98)
        for row in self.rows.values():
            for b in row.slots:
                b.font_size = size

    def _button(self, text: str, action: Callable[[], object], *, size: float = 15,
                colour: str | None = None, **kwargs: Any) -> Any:
        """A panel button (drawn in a die's colour when ``colour`` is given)."""
        if colour is not None:
            bg = die_colour(colour)
            kwargs.update(background_color=bg, color=theme.text_on(bg))
        kwargs.setdefault("shorten", False)
        return _w("TButton", text=text, font_size=self.host.fs(size),
                  on_release=lambda *_: action(), **kwargs)

    def _colour_grid(self, action: Callable[[str], object], size: float = 15
                     ) -> tuple[GridLayout, dict[str, Any]]:
        """The nine dice colours, 3 by 3, always in the same places."""
        grid = _grid(3, 3)
        buttons: dict[str, Any] = {}
        for c in COLOURS:
            b = self._button(c, partial(action, c), size=size, colour=c)
            buttons[c] = b
            grid.add_widget(b)
        return grid, buttons

    def _show_panel(self, name: str) -> None:
        """The controls of a phase: made the first time, then only shown again."""
        if name == self.shown_panel:
            return
        panel = self.panels.get(name)
        if panel is None:
            panel = self.panels[name] = getattr(self, f"_make_{name}")()
        self.tools.clear_widgets()
        self.tools.add_widget(panel)
        self.tools.height = panel.height
        self.shown_panel = name

    def _make_tribes(self) -> Any:
        grid = _grid(2, (len(TRIBE_NAMES) + 1) // 2)
        self.tribe_buttons: dict[str, Any] = {}
        for t in TRIBE_NAMES:
            colour = TRIBES[t].colour
            b = self._button(f"{t}\n{colour}", partial(self.choose_tribe, t), size=14,
                             colour=colour)
            self.tribe_buttons[t] = b
            grid.add_widget(b)
        return _stack(grid)

    def _make_draft(self) -> Any:
        grid, self.take_colour_buttons = self._colour_grid(self.take_die, size=14)
        return _stack(grid)

    def _make_allocate(self) -> Any:
        colours, self.colour_buttons = self._colour_grid(self.tap_colour)
        pips = _grid(4, 2)
        self.pip_buttons: list[Any] = []
        for n in range(1, 7):
            b = self._button(str(n), partial(self.tap_pips, n), size=22, bold=True,
                             background_color=theme.COUNT, color=(0, 0, 0, 1))
            self.pip_buttons.append(b)
            pips.add_widget(b)
        self.confirm_button = self._button("OK", self.confirm, size=16)
        self.clear_button = self._button("Clear", self.clear_selection, size=16)
        pips.add_widget(self.confirm_button)
        pips.add_widget(self.clear_button)
        actions = BoxLayout(spacing=GAP, size_hint_y=None, height=ROW)
        self.read_button = self._button("Camera", self.read_camera, size=16)
        self.roll_button = self._button("Timer", self.roll, size=16)
        self.reveal_button = self._button("Reveal", self.reveal, size=18, bold=True)
        for b in (self.read_button, self.roll_button, self.reveal_button):
            actions.add_widget(b)
        return _stack(colours, pips, actions)

    def _make_resolving(self) -> Any:
        row = BoxLayout(spacing=GAP, size_hint_y=None, height=56)
        self.back_button = self._button("<", lambda: self.step(-1), size=20,
                                        size_hint_x=None, width=64)
        self.next_button = self._button("", lambda: self.step(1), size=19, bold=True)
        row.add_widget(self.back_button)
        row.add_widget(self.next_button)
        return _stack(row)

    def _make_share(self) -> Any:
        self.share_colours, self.share_colour_buttons = self._colour_grid(self.tap_share_colour)
        self.sources = _grid(2, 3)
        self.source_buttons: dict[str, Any] = {}
        for source in (POOL, *self.players):
            text = "the pool" if source == POOL else source
            b = self._button(text, partial(self.choose_source, source), size=14)
            self.source_buttons[source] = b
            self.sources.add_widget(b)
        self.share_body = BoxLayout(size_hint_y=None, height=self.sources.height)
        row = BoxLayout(spacing=GAP, size_hint_y=None, height=ROW)
        self.share_back = self._button("Back", self.share_back_step, size=16)
        self.pass_button = self._button("Pass", self.pass_share, size=18, bold=True)
        row.add_widget(self.share_back)
        row.add_widget(self.pass_button)
        return _stack(self.share_body, row)

    def _make_over(self) -> Any:
        self.finish_button = self._button("Finish", self.host.end_game, size=22, bold=True,
                                          size_hint_y=None, height=56)
        primary(self.finish_button, True)
        return _stack(self.finish_button)

    # -- from the session ---------------------------------------------------------------------

    @property
    def game(self) -> OcculitesGame:
        return self.session.game

    def refresh(self, events: Sequence[Event] = ()) -> None:
        """Redraw after a call, an undo or a redo (the app calls this)."""
        session = self.session
        st = self.game.state
        kinds = [e.kind for e in events]
        history = len(self.game.history)
        changed, self._history = history != self._history, history
        if "reveal" in kinds:
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
        texts = [e.text for e in events if e.kind in ("round-over", "game-over", "creature",
                                                       "reshuffle", "share", "pass")]
        if not events and not changed and session.message:  # a refused call: say why
            self.notice = refusal_reason(session)
        elif texts and self.resolving is None:
            self.notice = ". ".join(texts)
        elif events:
            self.notice = ""
        if self.game.phase == "allocate":
            self.snapshot = dict(st.lineups)
        if events or changed:
            self.share_give = self.share_source = None
        self.draw()

    def _start_resolving(self, events: Sequence[Event]) -> None:
        cards = [e for e in events if e.kind == "card"]
        extra: dict[int, list[str]] = {}
        number = 0
        for e in events:
            if e.kind == "card":
                number = int(e.data.get("number", 0))
            elif number and e.kind not in ("round-over", "game-over", "share-turn", "round",
                                           "creature", "reshuffle"):
                extra.setdefault(number, []).append(e.text)
        after = [e.text for e in events if e.kind in ("round-over", "game-over")]
        self.fired.clear()
        self.resolving = {
            "round": self.round_seen, "step": 1, "lineups": dict(self.snapshot),
            "cards": [str(e.data.get("card", "")) for e in cards],
            "outcomes": [{"text": e.text, **dict(e.data)} for e in cards],
            "extra": extra, "after": ". ".join(after),
        }

    # -- drawing (in place) -------------------------------------------------------------------

    def draw(self) -> None:
        g = self.game
        st = g.state
        phase = g.phase
        rounds = g.options.rounds
        if self.resolving is not None:
            title = f"Round {self.resolving['round']} of {rounds}: the cards"
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
        self.title_label.text = title
        self.frame.refresh()
        self._draw_cards()
        self._draw_rows()
        self._draw_timer()
        if self.resolving is not None:
            self._show_panel("resolving")
            self._tools_resolving()
        elif phase == "tribes":
            self._show_panel("tribes")
            self._tools_tribes()
        elif phase == "draft":
            self._show_panel("draft")
            self._tools_draft()
        elif phase == "allocate":
            self._show_panel("allocate")
            self._tools_allocate()
        elif phase == "share":
            self._show_panel("share")
            self._tools_share()
        else:
            self._show_panel("over")
            self._tools_over()

    def _outcome_for(self, number: int) -> dict[str, Any] | None:
        if self.resolving is not None:
            if number > self.resolving["step"]:
                return None
            found = [o for o in self.resolving["outcomes"] if o.get("number") == number]
            return found[0] if found else None
        if self.game.phase in ("share", "over"):
            for o in self.game.state.outcomes:
                if o.number == number:
                    return {"number": o.number, "winner": o.winner, "points": o.points,
                            "discoverers": list(o.discoverers), "reason": o.reason,
                            "text": o.explanation}
        return None

    def _card_ids(self) -> list[str]:
        if self.resolving is not None:
            return list(self.resolving["cards"])
        return [c.id for c in self.game.current_cards()]

    def _draw_cards(self) -> None:
        from rules.occulites import CARDS as ALL_CARDS

        ids = self._card_ids()
        step = self.resolving["step"] if self.resolving is not None else None
        for i in range(CARDS):
            label, outline = self.card_labels[i], self.card_outlines[i]
            if i >= len(ids):
                label.text = ""
                self.card_inners[i].bg = list(theme.PANEL)
                outline.light(None)
                continue
            card = ALL_CARDS[ids[i]]
            bg = die_colour(card.colour)
            self.card_inners[i].bg = list(bg)
            label.color = theme.text_on(bg)
            name = card.set[:-1] if card.set in ("Creatures", "Predators") else card.set
            # The colour is always written (it decides ties): never the colour alone.
            lines = [f"[b]{card.number}[/b] {card.colour}", name]
            out = self._outcome_for(i + 1)
            if out is not None:
                # Who won is framed on the players' dice below; the card says how.
                points = int(out.get("points", 0))
                shared = len(out.get("discoverers", []))
                lines.append("[b]nobody[/b]" if not shared else
                             f"[b]+{points} alone[/b]" if out.get("winner") else
                             f"[b]+{points} each[/b]")
            label.text = "\n".join(lines)
            outline.light(theme.ACCENT if step == i + 1 else None)

    def _lineup_of(self, player: str) -> list[SlotRead | None]:
        if player in self.drafts:
            return list(self.drafts[player])
        source = (self.resolving["lineups"] if self.resolving is not None
                  else self.game.state.lineups)
        dice = source.get(player)
        if not dice:
            return [None] * CARDS
        return [SlotRead(d.colour, d.pips) for d in dice]

    def _shown_points(self, player: str) -> int:
        points = int(self.game.state.points[player])
        if self.resolving is not None:  # the engine's points already hold all six cards
            step = self.resolving["step"]
            for o in self.resolving["outcomes"]:
                if o.get("number", 0) > step and player in o.get("discoverers", []):
                    points -= int(o.get("points", 0))
        return points

    def _winners(self) -> dict[int, set[str]]:
        """Card index (0-5) -> the players whose die discovered it, as far as shown."""
        out: dict[int, set[str]] = {}
        for i in range(CARDS):
            o = self._outcome_for(i + 1)
            if o is not None:
                out[i] = set(o.get("discoverers", []))
        return out

    def _draw_rows(self) -> None:
        g = self.game
        st = g.state
        turn = g.whose_turn()
        step = self.resolving["step"] if self.resolving is not None else None
        current = self._outcome_for(step) if step is not None else None
        winners = self._winners()
        for p, row in self.rows.items():
            tribe = st.tribe_of.get(p) or ""
            status = ""
            if self.resolving is None and g.phase == "allocate":
                if self.flagged.get(p):
                    status = "check ?"
                elif p in st.lineups:
                    status = "lined up"
                else:
                    status = "waiting"
            elif g.phase == "tribes" and p == self._chooser():
                status = "choosing"
            elif g.phase == "draft":
                status = plural(sum(st.dice[p].values()), "die", "dice") + (
                    ", turn" if p == turn else "")
            elif p == turn and self.resolving is None:
                status = "your turn"
            won = current is not None and p in current.get("discoverers", [])
            if won:
                status = "WINS" if current is not None and current.get("winner") == p \
                    else "shares"
            points = plural(self._shown_points(p), "point")
            about = f"{points} · {tribe}" if tribe else points
            row.header.text = f"[b]{p}[/b]\n{about}\n{status}"
            highlight = won or (p == turn and self.resolving is None) or \
                (g.phase == "tribes" and p == self._chooser())
            bg = LIT_HEADER if highlight else row.colour
            row.header.background_color = bg
            row.header.color = theme.text_on(bg)
            slots = self._lineup_of(p)
            flags = self.flagged.get(p, set())
            for i, (b, o) in enumerate(zip(row.slots, row.outlines, strict=True)):
                s = slots[i]
                colour = s.colour if s else None
                pips = s.pips if s else None
                bg = die_colour(colour)
                b.background_color = bg
                b.color = theme.text_on(bg)
                mark = "?" if i in flags and pips else ""
                b.text = "" if s is None else (f"[b]{pips or '?'}{mark}[/b]\n{colour or '?'}")
                lit: theme.RGBA | None = None
                if self.sel == (p, i):
                    lit = theme.TEXT
                elif i in flags:
                    lit = theme.DANGER
                elif (step is None or step == i + 1) and p in winners.get(i, ()):
                    lit = theme.ACCENT
                o.light(lit)

    def _draw_timer(self) -> None:
        if not self.timer_on:
            self.timer_label.text = ""
            return
        elapsed = self.since_roll
        opts = self.timer_options()
        if elapsed < opts.look_seconds:
            self.timer_label.text = f"Look\n{self._secs(opts.look_seconds - elapsed)}"
        elif elapsed < opts.deadline:
            self.timer_label.text = f"Line up\n{self._secs(opts.deadline - elapsed)}"
        else:
            self.timer_label.text = "Reveal!"

    @staticmethod
    def _secs(left: float) -> str:
        s = max(0, int(left + 0.999))
        return f"{s // 60}:{s % 60:02d}"

    def _say(self, *lines: str) -> None:
        text = "\n".join(line for line in (self.notice, *lines) if line)
        if self.message.text != text:
            self.message.text = text

    # -- each phase's panel, drawn in place ---------------------------------------------------

    def _chooser(self) -> str | None:
        st = self.game.state
        free = [p for p in self.players if st.tribe_of.get(p) is None]
        if self.chooser in free:
            return self.chooser
        return free[0] if free else None

    def _tools_tribes(self) -> None:
        who = self._chooser()
        st = self.game.state
        self._say(f"[b]{who}[/b]: which Tribe are you most interested in? (Tap a player to "
                  "choose for them.)")
        taken = {t for t in st.tribe_of.values() if t}
        for t, b in self.tribe_buttons.items():
            b.disabled = t in taken or t not in self.game.options.tribes
            b.opacity = 0.35 if b.disabled else 1

    def _tools_draft(self) -> None:
        who = self.game.whose_turn()
        pool = self.game.state.pool
        self._say(f"[b]{who}[/b]: take one die from the pool.")
        for c, b in self.take_colour_buttons.items():
            b.text = f"{c}\n{pool[c]} left"
            b.disabled = pool[c] == 0
            b.opacity = 0.35 if b.disabled else 1

    def _tools_allocate(self) -> None:
        st = self.game.state
        waiting = [p for p in self.players if p not in st.lineups]
        if self.sel is not None:
            p, i = self.sel
            if i in self.flagged.get(p, set()):
                prompt = (f"[b]{p}, card {i + 1}[/b]: the camera is not sure of this die. "
                          "OK, or tap its colour and pips.")
            else:
                prompt = f"[b]{p}, card {i + 1}[/b]: tap the colour, then the pips."
        elif waiting:
            prompt = (f"Waiting for {plural(len(waiting), 'line-up')}: read them with Camera, "
                      "or tap a player's first die and enter it (colour, then pips).")
        else:
            prompt = "Everyone is lined up: Reveal!"
        self._say(prompt)
        held = st.dice.get(self.sel[0], {}) if self.sel else {}
        for c, b in self.colour_buttons.items():
            b.disabled = self.sel is None or not held.get(c)
            b.opacity = 0.3 if b.disabled else 1
        for b in self.pip_buttons:
            b.disabled = self.sel is None
        self.confirm_button.disabled = not self._can_confirm()
        self.clear_button.disabled = self.sel is None and not self.drafts
        self.roll_button.disabled = self.timer_on
        timed = self.game.options.timer and not self.timer_on  # Timer mode: roll, then tap
        self.roll_button.text = "Roll!" if timed else "Timer"
        self.roll_button.background_color = theme.SELECT if timed else theme.BUTTON
        primary(self.reveal_button, not waiting or self._may_forfeit())

    def _may_forfeit(self) -> bool:
        opts = self.game.options
        return bool(opts.timer and opts.late_lineups == "forfeit" and self.timer_on
                    and self.since_roll >= opts.deadline)

    def _tools_resolving(self) -> None:
        r = self.resolving
        assert r is not None
        step = r["step"]
        out = self._outcome_for(step)
        text = out["text"] if out else f"Card {step}: nothing to resolve."
        self._say(text, *r["extra"].get(step, []))
        self.back_button.disabled = step <= 1
        if step < len(r["outcomes"]):
            label = f"Card {step + 1} >"
        elif self.game.phase == "share" and r["round"] == self.game.state.round:
            label = "Share Knowledge"
        elif self.game.phase == "over":
            label = "Final scores"
        else:
            label = f"Round {self.game.state.round}"
        self.next_button.text = label
        primary(self.next_button, True)

    def _tools_share(self) -> None:
        g = self.game
        st = g.state
        number, who = st.share_queue[0]
        nth = st.shares[who] + 1
        choices = g.share_choices()
        lines = [f"[b]{who}[/b] won card {number} alone: Share Knowledge? Share {nth} of 3 "
                 f"costs {plural(nth, 'point')} ({who} has {st.points[who]})."]
        if not choices:
            lines.append("No swap is possible now: Pass.")
            self.share_give = self.share_source = None
        elif self.share_give is None:
            lines.append("1. Which of your dice do you give?")
        elif self.share_source is None:
            lines.append(f"2. Your {self.share_give} die for a die from where?")
        else:
            where = "the pool" if self.share_source == POOL else self.share_source
            lines.append(f"3. Your {self.share_give} die for which of {where}'s dice?"
                         if self.share_source != POOL else
                         f"3. Your {self.share_give} die for which die of the pool?")
        self._say(*lines)
        giving = self.share_give is None or self.share_source is not None
        shown = self.share_colours if giving else self.sources
        if shown.parent is not self.share_body:
            self.share_body.clear_widgets()
            self.share_body.add_widget(shown)
        if self.share_give is None:
            can = {c.give for c in choices}
        else:
            can = {c.take for c in choices if c.give == self.share_give
                   and c.source == self.share_source}
        for c, b in self.share_colour_buttons.items():
            b.disabled = c not in can
            b.opacity = 0.3 if b.disabled else 1
        sources = {c.source for c in choices if c.give == self.share_give}
        for s, b in self.source_buttons.items():
            b.disabled = s not in sources
            b.opacity = 0.3 if b.disabled else 1
        self.share_back.disabled = self.share_give is None
        self.pass_button.text = "Pass"
        primary(self.pass_button, True)

    def _tools_over(self) -> None:
        s = self.game.standings()
        ranked = sorted(s.rows, key=lambda r: -int(r[2]))
        lines = [f"[b]Winner: {s.winner}[/b]" + (f" ({s.note})" if s.note else "")]
        lines += [f"{r[0]}{f' ({r[1]})' if r[1] != '-' else ''}: "
                  f"{plural(int(r[2]), 'point')}, {r[3]} won alone" for r in ranked]
        self.notice = ""  # the round's end and the winner are said here in full
        self._say(*lines)

    # -- taps ---------------------------------------------------------------------------------

    def tap_player(self, player: str) -> None:
        if self.game.phase == "tribes":
            self.chooser = player
        elif self.game.phase == "allocate" and self.resolving is None:
            flags = sorted(self.flagged.get(player, set()))
            self.select(player, flags[0] if flags else 0)
            return
        self.draw()

    def choose_tribe(self, tribe: str) -> None:
        who = self._chooser()
        if who is not None:
            self.chooser = None
            self.session.try_call(f"{who}: Tribe {tribe}")

    def take_die(self, colour: str) -> None:
        """The Lots of Interests draft: the player on turn takes a die of this colour."""
        self.session.try_call(f"{self.game.whose_turn()}: Take {colour}")

    def tap_slot(self, player: str, index: int) -> None:
        """A die of a line-up: enter or correct it (only while line-ups are given)."""
        if self.resolving is None and self.game.phase == "allocate":
            self.select(player, index)

    def select(self, player: str, index: int) -> None:
        """Pick the die slot to enter; a player holding one colour gets it filled in."""
        self.sel = (player, index)
        draft = self.drafts.setdefault(player, self._lineup_of(player))
        held = [c for c, n in self.game.state.dice[player].items() if n]
        if draft[index] is None and len(held) == 1:
            draft[index] = SlotRead(held[0], None)
        self.draw()

    def clear_selection(self) -> None:
        """Drop the line-up being entered for the selected player (the engine's stays)."""
        if self.sel is not None:
            self.drafts.pop(self.sel[0], None)
            self.flagged.pop(self.sel[0], None)
        self.sel = None
        self.notice = ""
        self.draw()

    def tap_colour(self, colour: str) -> None:
        if self.sel is None:
            return
        p, i = self.sel
        draft = self.drafts.setdefault(p, self._lineup_of(p))
        old = draft[i]
        draft[i] = SlotRead(colour, old.pips if old else None)
        self.draw()

    def tap_pips(self, pips: int) -> None:
        if self.sel is None:
            return
        p, i = self.sel
        draft = self.drafts.setdefault(p, self._lineup_of(p))
        old = draft[i]
        if old is None or old.colour is None:
            self.notice = f"{p}, card {i + 1}: tap the die's colour first"
            self.draw()
            return
        draft[i] = SlotRead(old.colour, pips)
        self._settled(p, i)

    def _can_confirm(self) -> bool:
        if self.sel is None:
            return False
        p, i = self.sel
        slot = self.drafts.get(p, [None] * CARDS)[i]
        return slot is not None and slot.colour is not None and slot.pips is not None

    def confirm(self) -> None:
        """Accept the selected die as the camera read it (or as entered)."""
        if self._can_confirm():
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
            self.draw()
            return
        text = lineup_text(player, [(str(c), int(n)) for c, n in dice])
        if self.session.try_call(text) is not None:
            read = self.read_slots.pop(player, None)
            if read is not None and read[2] is draft:  # the dice statistics: what was fixed
                fixed = corrections(read[1], draft, read[0].dice)
                if fixed:
                    self.host.correct_roll(read[0], fixed)
            self.drafts.pop(player, None)
            self.flagged.pop(player, None)
            self.draw()
        else:
            self.notice = refusal_reason(self.session)
            self.sel = (player, 0)
            self.draw()

    def tap_share_colour(self, colour: str) -> None:
        """Share Knowledge: the die given, or (once its source is chosen) the die taken."""
        if self.share_give is None:
            self.share_give = colour
            self.draw()
        elif self.share_source is not None:
            who = self.game.state.share_queue[0][1]
            self.session.try_call(f"{who}: Share {self.share_give} for {colour} from "
                                  f"{self.share_source}")

    def choose_source(self, source: str) -> None:
        self.share_source = source
        self.draw()

    def share_back_step(self) -> None:
        if self.share_source is not None:
            self.share_source = None
        else:
            self.share_give = None
        self.draw()

    def choose_give(self, colour: str | None) -> None:
        self.share_give = colour
        self.share_source = None
        self.draw()

    def pass_share(self) -> None:
        who = self.game.state.share_queue[0][1]
        self.session.try_call(f"{who}: Pass")

    def step(self, delta: int) -> None:
        """Resolution: show the next (or previous) card; after card 6, go on."""
        r = self.resolving
        if r is None:
            return
        step = r["step"] + delta
        if step < 1:
            return
        if step > len(r["outcomes"]):
            self.resolving = None
            self.notice = r["after"]
        else:
            r["step"] = step
        self.draw()

    def reveal(self) -> None:
        self.sel = None
        self.session.try_call("Reveal")

    # -- camera -------------------------------------------------------------------------------

    def on_settled(self, reading: Reading) -> None:
        """The app's camera feed saw the dice lie still (main thread): line-ups are laid out
        by hand, so any settled view counts, not only rolls. Not used as line-ups by itself:
        during allocation the dice settle after the roll too, before they are lined up. It only
        tells the players the camera is ready; Camera reads the tray. Only the words change:
        no button moves or is made again under a finger."""
        self.settled = reading
        if self.resolving is None and self.game.phase == "allocate" and not self.notice:
            self.notice = (f"The camera sees {plural(len(reading.dice), 'die', 'dice')}: "
                           "tap Camera to read them.")
            self.draw()

    def camera_reading(self) -> tuple[Reading | None, str]:
        """The tray as the camera sees it now: (reading or None, why not)."""
        camera = self.host.camera
        if camera is None:
            return None, "No camera: choose one in Settings, or enter the line-ups by touch."
        if not camera.rolls_count:
            return None, (f"The picture is {camera.label}, not your table: enter the "
                          "line-ups by touch, or connect a camera.")
        snap = camera.latest()
        if snap is None:
            error = camera.error
            return None, (f"Camera: {error}" if error else
                          "The camera is starting: tap Camera again in a moment.")
        if snap.moving:
            return None, "The dice are still moving: tap Camera when they are still."
        return snap.reading, ""

    def read_camera(self) -> None:
        """Read every line-up on the tray from the camera."""
        reading, why = self.camera_reading()
        if reading is None:
            self.notice = why
            self.draw()
            return
        self.apply_reading(reading)

    def apply_reading(self, reading: Reading) -> dict[str, LineupRead]:
        """Use a camera reading: sure line-ups become calls at once; the others wait on the
        players' rows with their unsure dice flagged."""
        reads = read_lineups(reading, self.players, self.zones)
        st = self.game.state
        notes = []
        counts = []  # zones holding other than six dice
        for p, read in reads.items():
            text = read.call_text()
            if read.complete and text is not None:
                current = st.lineups.get(p)
                if current is not None and lineup_text(p, current) == text:
                    continue
                self.drafts.pop(p, None)
                self.flagged.pop(p, None)
                if self.session.try_call(text) is None:
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
                counts.append(f"{p} {read.seen}")
        if counts:  # one line for all of them: the rows show which dice are missing
            notes.append(f"Dice seen: {', '.join(counts)} (a line-up has {CARDS}).")
        # Unsure dice are framed in orange and the first is selected: the prompt says so.
        first = next((p for p in self.players if self.flagged.get(p)), None)
        self.sel = None
        if first is not None:
            self.sel = (first, min(self.flagged[first]))
        self.notice = "\n".join(notes) if notes else "Line-ups read."
        self.draw()
        return reads

    # -- timer --------------------------------------------------------------------------------

    def timer_options(self) -> OcculitesOptions:
        """The game's options with the timer on (the screen offers it in every game)."""
        return dataclasses.replace(self.game.options, timer=True)

    def cues(self) -> tuple[TimerCue, ...]:
        return timer_cues(self.timer_options())

    def roll(self) -> None:
        """The dice are rolled: 15 s to look, then 30 s to line up (the game's options); the
        round clock counts from now, and each line-up carries its seconds since the roll."""
        self.fired.clear()
        self.session.start_clock(fresh=True)
        self.tick()
        self.draw()

    def tick(self) -> None:
        if not self.timer_on:
            return
        elapsed = self.since_roll
        for n, cue in enumerate(self.cues()):
            if n not in self.fired and cue.at <= elapsed:
                self.fired.add(n)
                if cue.sound:
                    self._play(cue.sound)
                self.notice = cue.text
                self.draw()
        self._draw_timer()

    def _play(self, name: str) -> None:
        """A cue's sound: ``occulites_<name>`` from the soundtrack folder, else the built-in
        "hit"."""
        if not self.host.sound(f"occulites_{name}"):
            self.host.sound("hit")

    def say(self, text: str) -> None:
        self.notice = text
        self.draw()


__all__ = ["DIE_RGBA", "OcculitesScreen"]
