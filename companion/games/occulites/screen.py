"""The Dice of the Occulites table screen (Kivy).

Left: the six cards of the round above one row per player (name, Tribe, points, and the six
dice of the line-up, in the cards' columns). Right: what to do now, by phase: choose Tribes
(or draft dice), enter or read line-ups, step through the six cards, Share Knowledge, the
final scores. The screen keeps no rule: it sends call text through the session and draws the
engine's views (``current_cards()``, ``whose_turn()``, ``share_choices()``, ``standings()``,
the reveal's card events). See docs/app-occulites.md.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

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
from companion.games.table import TableScreen
from companion.session import TableSession
from companion.widgets import w as _w
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

#: How each dice colour is drawn (the colour's name is always written too).
DIE_RGBA: dict[str, theme.RGBA] = {
    "green": (0.10, 0.55, 0.25, 1), "blue": (0.10, 0.35, 0.85, 1),
    "pink": (0.96, 0.58, 0.78, 1), "black": (0.0, 0.0, 0.0, 1),
    "yellow": (0.95, 0.85, 0.20, 1), "red": (0.80, 0.12, 0.12, 1),
    "purple": (0.50, 0.25, 0.70, 1), "orange": (0.95, 0.55, 0.10, 1),
    "white": (0.95, 0.95, 0.95, 1),
}
EMPTY = theme.BUTTON
HEADER_W = 112
SIDE_W = 252
CARDS = 6
#: Modes offered on the screen before the first call (option key, button text).
MODES = (("timer", "Timer mode"), ("creatures", "Creatures &\nPredators"),
         ("lots_of_interests", "Lots of\nInterests"),
         ("conflicted_interests", "Conflicted\nInterests"))


def die_colour(colour: str | None) -> theme.RGBA:
    return DIE_RGBA.get(colour or "", EMPTY)


class Outlined(BoxLayout):
    """A widget inside a coloured frame: the frame lights up to highlight it."""

    def __init__(self, child: Any, **kwargs: Any) -> None:
        super().__init__(padding=3, **kwargs)
        self.frame = _w("Panel", padding=3, bg=theme.BACKGROUND)
        self.frame.add_widget(child)
        self.add_widget(self.frame)
        self.child = child

    def light(self, colour: theme.RGBA | None) -> None:
        self.frame.bg = list(colour or theme.BACKGROUND)


class PlayerRow(BoxLayout):
    """One player: a header (name, Tribe, points; tap it to act for this player) and six dice."""

    def __init__(self, screen: OcculitesScreen, seat: int, player: str) -> None:
        super().__init__(spacing=4)
        app = screen.host
        self.player = player
        self.colour = theme.player_colour(app.settings.palette, seat)
        self.header = _w("TButton", background_color=self.colour,
                         color=theme.text_on(self.colour), size_hint_x=None, width=HEADER_W,
                         font_size=app.fs(15), bold=True, shorten=False, markup=True,
                         on_release=lambda *_: screen.tap_player(player))
        self.add_widget(self.header)
        self.slots: list[Any] = []
        self.outlines: list[Outlined] = []
        for i in range(CARDS):
            b = _w("TButton", text="", markup=True, font_size=app.fs(14), shorten=False,
                   on_release=lambda *_, i=i: screen.tap_slot(player, i))
            o = Outlined(b)
            self.slots.append(b)
            self.outlines.append(o)
            self.add_widget(o)


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
        self.share_give: str | None = None
        #: Each player's line-up area on the table, from the calibration profile (or None).
        self.zones = roll_zones(host.board_zones, self.players)
        self.fired: set[int] = set()  # timer cues already heard this roll
        self.round_seen = session.game.state.round
        self.notice = ""
        self.settled: Reading | None = None  # the camera feed's newest settled roll
        #: Line-ups the camera left to confirm: (its reading, the slots as read, the draft).
        self.read_slots: dict[str, tuple[Reading, tuple[SlotRead | None, ...],
                                         list[SlotRead | None]]] = {}
        self._history = len(session.game.history)
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
        self.timer_label = _w("TLabel", text="", size_hint_x=None, width=100, bold=True,
                              font_size=app.fs(18), color=theme.ACCENT, shorten=False)
        self.frame = GameFrame(app, extras=[self.timer_label], game=lambda: self.game)
        self.title_label = self.frame.title
        self.title_label.font_size = app.fs(17)
        self.undo_button, self.redo_button = self.frame.undo, self.frame.redo
        root.add_widget(self.frame)
        body = BoxLayout(spacing=8)
        left = BoxLayout(orientation="vertical", spacing=4)
        cards = BoxLayout(spacing=4, size_hint_y=None, height=74)
        cards.add_widget(Widget(size_hint_x=None, width=HEADER_W))
        self.card_labels: list[Any] = []
        self.card_inners: list[Any] = []
        self.card_outlines: list[Outlined] = []
        for _ in range(CARDS):
            label = _w("TLabel", text="", markup=True, font_size=app.fs(12), shorten=False)
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
        side = _w("Panel", orientation="vertical", size_hint_x=None, width=SIDE_W, spacing=4,
                  padding=4, bg=theme.PANEL)
        self.message = _w("TLabel", text="", font_size=app.fs(15), halign="left",
                          valign="top", shorten=False, markup=True)
        side.add_widget(self.message)
        self.tools = BoxLayout(orientation="vertical", spacing=4, size_hint_y=None, height=0)
        side.add_widget(self.tools)
        body.add_widget(side)
        root.add_widget(body)
        self.add_widget(root)

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
            self.notice = session.message
        elif texts and self.resolving is None:
            self.notice = ". ".join(texts)
        elif events:
            self.notice = ""
        if self.game.phase == "allocate":
            self.snapshot = dict(st.lineups)
        self.share_give = None if "share" in kinds or "pass" in kinds else self.share_give
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

    # -- drawing ------------------------------------------------------------------------------

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
            title = f"Game over after {rounds} rounds"
        else:
            what = st.tribe or "mixed piles"
            step = "Share Knowledge" if phase == "share" else "line up"
            title = f"Round {st.round} of {rounds}: {what}, {step}"
        self.title_label.text = title
        self.frame.refresh()
        self._draw_cards()
        self._draw_rows()
        self._draw_timer()
        self.tools.clear_widgets()
        self.tools.height = 0
        if self.resolving is not None:
            self._tools_resolving()
        elif phase == "tribes":
            self._tools_tribes()
        elif phase == "draft":
            self._tools_draft()
        elif phase == "allocate":
            self._tools_allocate()
        elif phase == "share":
            self._tools_share()
        else:
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
            lines = [f"[b]{card.number}[/b]", name, card.colour]
            out = self._outcome_for(i + 1)
            if out is not None:
                who = out.get("winner") or " & ".join(out.get("discoverers", [])) or "nobody"
                lines[2] = f"[b]{who} +{out.get('points', 0)}[/b]"
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

    def _draw_rows(self) -> None:
        g = self.game
        st = g.state
        turn = g.whose_turn()
        step = self.resolving["step"] if self.resolving is not None else None
        current = self._outcome_for(step) if step is not None else None
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
                status = f"{sum(st.dice[p].values())} dice" + (", turn" if p == turn else "")
            elif p == turn and self.resolving is None:
                status = "your turn"
            won = current is not None and p in current.get("discoverers", [])
            if won:
                status = "WINS" if current is not None and current.get("winner") == p \
                    else "shares"
            row.header.text = (f"{p}  [b]{self._shown_points(p)}[/b]\n"
                               f"[size={int(self.host.fs(13))}]{tribe}\n{status}[/size]")
            highlight = won or (p == turn and self.resolving is None) or \
                (g.phase == "tribes" and p == self._chooser())
            bg = theme.ACCENT if highlight else row.colour
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
                big = int(self.host.fs(22))
                mark = "?" if i in flags and pips else ""
                b.text = "" if s is None else (f"[size={big}][b]{pips or '?'}{mark}[/b][/size]"
                                               f"\n{colour or '?'}")
                lit: theme.RGBA | None = None
                if self.sel == (p, i):
                    lit = theme.TEXT
                elif i in flags:
                    lit = theme.DANGER
                elif step == i + 1 and won:
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

    def _say(self, text: str) -> None:
        self.message.text = text

    def _tools_height(self, *heights: float) -> None:
        self.tools.height = sum(heights) + 4 * max(0, len(heights) - 1)

    def _grid(self, cols: int, rows: int) -> GridLayout:
        g = GridLayout(cols=cols, spacing=4, size_hint_y=None, height=rows * 52 + (rows - 1) * 4)
        return g

    # -- tools by phase -----------------------------------------------------------------------

    def _chooser(self) -> str | None:
        st = self.game.state
        free = [p for p in self.players if st.tribe_of.get(p) is None]
        if self.chooser in free:
            return self.chooser
        return free[0] if free else None

    def _tools_tribes(self) -> None:
        who = self._chooser()
        st = self.game.state
        self._say(f"{self.notice}\n" if self.notice else "")
        self.message.text += (f"[b]{who}[/b]: which Tribe are you most interested in? "
                              "(tap a player to choose for them)")
        taken = {t for t in st.tribe_of.values() if t}
        grid = self._grid(2, 4)
        self.tribe_buttons: dict[str, Any] = {}
        for t in TRIBE_NAMES:
            colour = TRIBES[t].colour
            bg = die_colour(colour)
            b = _w("TButton", text=f"{t}\n{colour}", background_color=bg, color=theme.text_on(bg),
                   font_size=self.host.fs(15), shorten=False,
                   on_release=lambda *_, t=t: self.choose_tribe(t))
            b.disabled = t in taken or t not in self.game.options.tribes
            if b.disabled:
                b.opacity = 0.35
            self.tribe_buttons[t] = b
            grid.add_widget(b)
        modes = self._modes()
        self.tools.add_widget(grid)
        if modes is not None:
            self.tools.add_widget(modes)
            self._tools_height(grid.height, modes.height)
        else:
            self._tools_height(grid.height)

    def _modes(self) -> GridLayout | None:
        """Mode toggles, offered until the first call (a change starts the game again)."""
        self.mode_buttons: dict[str, Any] = {}
        if self.game.history:
            return None
        grid = self._grid(2, 2)
        for key, label in MODES:
            on = self.mode_on(key)
            b = _w("TButton", text=("ON: " if on else "") + label, font_size=self.host.fs(14),
                   shorten=False, background_color=theme.SELECT if on else theme.BUTTON,
                   on_release=lambda *_, key=key: self.toggle_mode(key))
            self.mode_buttons[key] = b
            grid.add_widget(b)
        return grid

    def toggle_mode(self, key: str) -> None:
        """Turn a mode on or off before play: the game starts again with the new options
        (the empty one is closed in the journal, so it is not offered for resume)."""
        if self.game.history:
            return
        options = dict(self.game.setup.options)
        options[key] = not self.mode_on(key)
        self.host.restart(options)

    def mode_on(self, key: str) -> bool:
        """Whether one of the screen's modes (:data:`MODES`) is on in this game."""
        opts = self.game.options
        return {"timer": opts.timer, "creatures": opts.creatures,
                "lots_of_interests": opts.lots_of_interests,
                "conflicted_interests": opts.conflicted_interests}[key]

    def _tools_draft(self) -> None:
        who = self.game.whose_turn()
        pool = self.game.state.pool
        self._say((f"{self.notice}\n" if self.notice else "")
                  + f"[b]{who}[/b]: take one die from the pool.")
        grid = self._grid(3, 3)
        self.take_colour_buttons: dict[str, Any] = {}
        for c in COLOURS:
            bg = die_colour(c)
            b = _w("TButton", text=f"{c}\n{pool[c]} left", background_color=bg,
                   color=theme.text_on(bg), font_size=self.host.fs(14), shorten=False,
                   on_release=lambda *_, c=c: self.session.try_call(f"{who}: Take {c}"))
            b.disabled = pool[c] == 0
            self.take_colour_buttons[c] = b
            grid.add_widget(b)
        modes = self._modes()
        self.tools.add_widget(grid)
        if modes is not None:
            self.tools.add_widget(modes)
            self._tools_height(grid.height, modes.height)
        else:
            self._tools_height(grid.height)

    def _tools_allocate(self) -> None:
        st = self.game.state
        waiting = [p for p in self.players if p not in st.lineups]
        lines = [self.notice] if self.notice else []
        if self.sel is not None:
            p, i = self.sel
            lines.append(f"[b]{p}, card {i + 1}[/b]: tap the colour, then the pips.")
            if i in self.flagged.get(p, set()):
                lines.append("The camera is not sure of this die: Confirm or correct it.")
        elif waiting:
            lines.append(f"Waiting for {', '.join(waiting)}. Read the camera, or tap a "
                         "player's first die to enter their line-up (colour, then pips).")
        else:
            lines.append("Everyone is lined up: Reveal! (tap a die to correct it)")
        self._say("\n".join(lines))
        held = st.dice.get(self.sel[0], {}) if self.sel else {}
        grid = self._grid(3, 3)
        self.colour_buttons: dict[str, Any] = {}
        for c in COLOURS:
            bg = die_colour(c)
            b = _w("TButton", text=c, background_color=bg, color=theme.text_on(bg),
                   font_size=self.host.fs(15), on_release=lambda *_, c=c: self.tap_colour(c))
            b.disabled = self.sel is None or not held.get(c)
            b.opacity = 0.3 if b.disabled else 1
            self.colour_buttons[c] = b
            grid.add_widget(b)
        pips = self._grid(4, 2)
        self.pip_buttons: list[Any] = []
        for n in range(1, 7):
            b = _w("TButton", text=str(n), font_size=self.host.fs(22), bold=True,
                   background_color=theme.COUNT, color=(0, 0, 0, 1),
                   on_release=lambda *_, n=n: self.tap_pips(n))
            b.disabled = self.sel is None
            self.pip_buttons.append(b)
            pips.add_widget(b)
        self.confirm_button = _w("TButton", text="OK", font_size=self.host.fs(16),
                                 on_release=lambda *_: self.confirm())
        self.confirm_button.disabled = not self._can_confirm()
        pips.add_widget(self.confirm_button)
        self.clear_button = _w("TButton", text="Clear", font_size=self.host.fs(16),
                               on_release=lambda *_: self.clear_selection())
        pips.add_widget(self.clear_button)
        actions = BoxLayout(spacing=4, size_hint_y=None, height=56)
        self.read_button = _w("TButton", text="Camera", font_size=self.host.fs(16),
                              on_release=lambda *_: self.read_camera())
        self.roll_button = _w("TButton", text="Timer", font_size=self.host.fs(16),
                              on_release=lambda *_: self.roll())
        self.roll_button.disabled = self.timer_on
        if self.game.options.timer and not self.timer_on:  # Timer mode: roll, then tap
            self.roll_button.text = "Roll!"
            self.roll_button.background_color = theme.SELECT
        self.reveal_button = _w("TBigButton", text="Reveal", font_size=self.host.fs(18),
                                on_release=lambda *_: self.reveal())
        self.reveal_button.disabled = bool(waiting) and not self._may_forfeit()
        for b in (self.read_button, self.roll_button, self.reveal_button):
            actions.add_widget(b)
        for w in (grid, pips, actions):
            self.tools.add_widget(w)
        self._tools_height(grid.height, pips.height, actions.height)

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
        extra = r["extra"].get(step, [])
        self._say(f"[size={int(self.host.fs(17))}]{text}[/size]"
                  + ("\n" + "\n".join(extra) if extra else ""))
        row = BoxLayout(spacing=4, size_hint_y=None, height=64)
        self.back_button = _w("TButton", text="<", size_hint_x=None, width=64,
                              on_release=lambda *_: self.step(-1))
        self.back_button.disabled = step <= 1
        row.add_widget(self.back_button)
        if step < len(r["outcomes"]):
            label = f"Card {step + 1} >"
        elif self.game.phase == "share" and r["round"] == self.game.state.round:
            label = "Share Knowledge"
        elif self.game.phase == "over":
            label = "Final scores"
        else:
            label = f"Round {self.game.state.round}"
        self.next_button = _w("TBigButton", text=label, font_size=self.host.fs(19),
                              on_release=lambda *_: self.step(1))
        row.add_widget(self.next_button)
        self.tools.add_widget(row)
        self._tools_height(row.height)

    def _tools_share(self) -> None:
        g = self.game
        st = g.state
        number, who = st.share_queue[0]
        nth = st.shares[who] + 1
        choices = g.share_choices()
        gives = sorted({c.give for c in choices}, key=COLOURS.index)
        lines = [self.notice] if self.notice else []
        lines.append(f"[b]{who}[/b] won card {number} alone: Share Knowledge? Share {nth} of "
                     f"3 costs {nth} point{'s' if nth > 1 else ''} ({who} has {st.points[who]}).")
        if not choices:
            lines.append("No swap is possible now: Pass.")
        elif self.share_give is None:
            lines.append("1. Which of your dice do you give?")
        else:
            lines.append(f"2. Your {self.share_give} die for which die?")
        self._say("\n".join(lines))
        self.give_buttons: dict[str, Any] = {}
        self.take_buttons: dict[str, Any] = {}
        heights: list[float] = []
        if self.share_give is None:
            grid = self._grid(3, max(1, (len(gives) + 2) // 3))
            for c in gives:
                bg = die_colour(c)
                b = _w("TButton", text=c, background_color=bg, color=theme.text_on(bg),
                       font_size=self.host.fs(15),
                       on_release=lambda *_, c=c: self.choose_give(c))
                self.give_buttons[c] = b
                grid.add_widget(b)
        else:
            takes = [c for c in choices if c.give == self.share_give]
            grid = self._grid(2, max(1, (len(takes) + 1) // 2))
            for share in takes:
                bg = die_colour(share.take)
                where = "pool" if share.source == POOL else share.source
                key = f"{share.take} from {where}"
                b = _w("TButton", text=key, background_color=bg, color=theme.text_on(bg),
                       font_size=self.host.fs(14), shorten=False,
                       on_release=lambda *_, c=share: self.session.try_call(c))
                self.take_buttons[key] = b
                grid.add_widget(b)
        if gives:
            self.tools.add_widget(grid)
            heights.append(grid.height)
        row = BoxLayout(spacing=4, size_hint_y=None, height=56)
        if self.share_give is not None:
            row.add_widget(_w("TButton", text="Back", on_release=lambda *_: self.choose_give(None)))
        self.pass_button = _w("TBigButton", text=f"{who}: Pass", font_size=self.host.fs(18),
                              on_release=lambda *_: self.session.try_call(f"{who}: Pass"))
        row.add_widget(self.pass_button)
        self.tools.add_widget(row)
        heights.append(row.height)
        self._tools_height(*heights)

    def _tools_over(self) -> None:
        s = self.game.standings()
        ranked = sorted(s.rows, key=lambda r: -int(r[2]))
        lines = [f"[b]Winner: {s.winner}[/b]" + (f" ({s.note})" if s.note else "")]
        lines += [f"{r[0]} ({r[1]}): {r[2]} points, {r[3]} won alone" for r in ranked]
        self._say("\n".join(lines))
        self.finish_button = _w("TBigButton", text="Finish", size_hint_y=None, height=60,
                                on_release=lambda *_: self.host.end_game())
        self.tools.add_widget(self.finish_button)
        self._tools_height(60)

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
            self.notice = self.session.message
            self.sel = (player, 0)
            self.draw()

    def choose_give(self, colour: str | None) -> None:
        self.share_give = colour
        self.draw()

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
        tells the players the camera is ready; Camera reads the tray."""
        self.settled = reading
        if self.resolving is None and self.game.phase == "allocate" and not self.notice:
            self.notice = f"The camera sees {len(reading.dice)} dice: tap Camera to read them."
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
        for p, read in reads.items():
            text = read.call_text()
            if read.complete and text is not None:
                current = st.lineups.get(p)
                if current is not None and lineup_text(p, current) == text:
                    continue
                self.drafts.pop(p, None)
                self.flagged.pop(p, None)
                if self.session.try_call(text) is None:
                    notes.append(self.session.message)
                    self.drafts[p] = list(read.slots)
                    self.flagged[p] = set(range(CARDS))
                    self.read_slots[p] = (reading, tuple(self.drafts[p]), self.drafts[p])
                continue
            slots: list[SlotRead | None] = list(read.slots) + [None] * (CARDS - len(read.slots))
            self.drafts[p] = slots
            self.read_slots[p] = (reading, tuple(slots), slots)
            self.flagged[p] = {i for i, s in enumerate(slots) if s is None or s.uncertain}
            notes += list(read.problems)
            if read.uncertain:
                notes.append(f"{p}: check card{'s' if len(read.uncertain) > 1 else ''} "
                             + ", ".join(map(str, read.uncertain)))
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
