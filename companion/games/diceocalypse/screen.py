"""The Dice-ocalypse table screen: scores, the roll, the keep, bank or roll on, cards and dice.

No rule of the game lives here. What can be called now comes from the engine's
``legal_calls()``; which dice score and the best keep from its pure helpers (``scoring_mask``,
``best_keep``, ``keep_score``); every tap ends as call text sent through the table session,
which asks the engine and journals the call before this screen redraws.

Layout (800x480 and up): a top bar saying whose turn it is (or what the game waits for), the
scores on the left, the dice on the right: the roll being entered (camera or touch), then the
keep (scoring dice lit, the best keep chosen, tap dice to change it), bank or roll on, and a
panel for the Act of War cards, Immunity, picks and the special dice.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.widget import Widget

from companion import theme
from companion.contract import Host
from companion.frame import GameFrame
from companion.games.diceocalypse.adapter import (
    ROLL,
    TARGETS,
    RollEntry,
    corrections,
    expected_rolls,
    read_order,
    read_roll,
)
from companion.games.table import TableScreen
from companion.session import TableSession
from companion.widgets import w as _w
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
    key_names,
    scoring_mask,
)
from rules.diceocalypse.game import DiceocalypseState
from vision import Reading

#: Targets offered before the first call (a short game is handy to learn, or to test).
LIT: theme.RGBA = (0.94, 0.89, 0.26, 1)  # a scoring die
DULL: theme.RGBA = (0.30, 0.31, 0.35, 1)  # a die that does not score
EMPTY: theme.RGBA = (0.20, 0.21, 0.25, 1)  # a die still to enter
NEWS_KINDS = ("bust", "hot-dice", "battle-zone", "card", "card-void", "zombie", "left-behind",
              "dice-ocalypse", "diced", "winner", "tie", "reroll", "first", "lose-turn",
              "double-turn", "bank", "immunity", "clash", "pick")


def _label(app: Host, size: float, **kwargs: Any) -> Label:
    kwargs.setdefault("color", theme.TEXT)
    kwargs.setdefault("halign", "center")
    kwargs.setdefault("valign", "middle")
    lab = Label(font_size=app.fs(size), **kwargs)
    lab.bind(size=lambda w, v: setattr(w, "text_size", v))
    return lab



class ScoreRow(BoxLayout):
    """One player's tile: colour strip, name and badges (tap: this player rolls next), score.

    The current player's tile takes their colour, so whose turn it is reads across the room;
    the name is always written too, so colour is never the only cue.
    """

    def __init__(self, app: Host, seat: int, player: str, **kwargs: Any) -> None:
        super().__init__(spacing=0, **kwargs)
        self.player = player
        self.colour = theme.player_colour(app.settings.palette, seat)
        self.add_widget(_w("Panel", size_hint_x=None, width=12, bg=self.colour))
        self.tile = _w("Panel", bg=theme.PANEL)
        self.button = _w("TButton", text=player, font_size=app.fs(20), halign="left",
                         shorten=False, markup=True, background_color=(0, 0, 0, 0))
        self.button.bind(size=lambda w, v: setattr(w, "text_size", (v[0] - 12, v[1])))
        self.tile.add_widget(self.button)
        self.score = _label(app, 32, text="0", bold=True, size_hint_x=0.9, halign="right",
                            padding=(8, 0))
        self.tile.add_widget(self.score)
        self.add_widget(self.tile)

    def show(self, score: int, badges: str, current: bool, out: bool) -> None:
        small = int(self.button.font_size * 0.7)
        name = f"[b]{self.player}[/b]"
        self.button.text = f"{name}\n[size={small}]{badges}[/size]" if badges else name
        self.tile.bg = self.colour if current else theme.PANEL
        ink = theme.text_on(self.colour) if current else theme.TEXT
        self.button.color = ink
        self.score.text = f"{score:,}"
        self.score.color = theme.MUTED if out and not current else ink


class DiceocalypseScreen(TableScreen):
    """The table screen; the app calls :meth:`refresh` after every call, undo and redo."""

    def __init__(self, host: Host, session: TableSession[Any], **kwargs: Any) -> None:
        self.session: TableSession[Diceocalypse] = session.typed(Diceocalypse)
        super().__init__(host, session, **kwargs)
        app = host
        self.entry: RollEntry | None = None
        self.selected: int | None = None  # die index chosen for a correction
        #: The camera's reading behind the entry, as read, and each die's index in it.
        self.read_from: tuple[Reading, RollEntry, list[int]] | None = None
        self.roller: str | None = None  # chosen roller when several must roll
        self.template = ROLL
        self.special: tuple[str, str] | None = None  # (player, die name) being rolled
        self.chosen: list[int] = []  # indexes of the roll chosen to keep
        self.chosen_for: tuple[int, ...] | None = None
        self.cards_open = False
        self.news = ""
        self.legal: list[Call] = []
        #: Rolls are read from the camera when its rolls count (a real camera, or the stand-in
        #: the players chose); a stand-in shown for want of a camera is never read.
        self.camera_on = host.camera is not None and host.camera.rolls_count

        root = _w("Panel", orientation="vertical", padding=6, spacing=6, bg=theme.BACKGROUND)
        self.frame = GameFrame(app, game=lambda: self.game)
        self.status = self.frame.title
        self.status.font_size = app.fs(22)
        self.undo_button, self.redo_button = self.frame.undo, self.frame.redo
        root.add_widget(self.frame)

        body = BoxLayout(spacing=8)
        self.rows_box = BoxLayout(orientation="vertical", spacing=4, size_hint_x=0.38)
        body.add_widget(self.rows_box)
        right = BoxLayout(orientation="vertical", spacing=6, size_hint_x=0.62)
        self.info = _label(app, 26, text="", bold=True, size_hint_y=None, height=44)
        right.add_widget(self.info)
        self.dice_row = BoxLayout(spacing=6, size_hint_y=None, height=80)
        self.dice: list[Any] = []
        for i in range(6):
            b = _w("TButton", text="", font_size=app.fs(38), bold=True,
                   on_release=lambda *_, i=i: self.tap_die(i))
            self.dice.append(b)
            self.dice_row.add_widget(b)
        right.add_widget(self.dice_row)
        self.hint = _label(app, 16, text="", size_hint_y=None, height=60)
        right.add_widget(self.hint)

        # The roll pad (entering a roll) and the card panel share this space.
        self.swap = BoxLayout(orientation="vertical", spacing=6)
        self.pad = BoxLayout(orientation="vertical", spacing=6)
        numbers = BoxLayout(spacing=6, size_hint_y=None, height=56)
        self.number_buttons = []
        for v in range(1, 7):
            b = _w("TButton", text=str(v), font_size=app.fs(26),
                   on_release=lambda *_, v=v: self.tap_number(v))
            self.number_buttons.append(b)
            numbers.add_widget(b)
        self.clear_button = _w("TButton", text="Clear", on_release=lambda *_: self.clear_entry())
        numbers.add_widget(self.clear_button)
        self.pad.add_widget(numbers)
        self.actions = BoxLayout(spacing=6, size_hint_y=None, height=64)
        self.pad.add_widget(self.actions)
        self.primary = _w("TBigButton", text="", on_release=lambda *_: self.tap_primary())
        self.secondary = _w("TButton", text="", font_size=app.fs(20),
                            on_release=lambda *_: self.tap_secondary())
        self.actions.add_widget(self.secondary)
        self.actions.add_widget(self.primary)
        # The card panel: one tab per player with something to play, then that player's calls.
        self.cards_panel = BoxLayout(orientation="vertical", spacing=4)
        self.card_tabs = BoxLayout(spacing=4, size_hint_y=None, height=50)
        self.card_grid = GridLayout(cols=2, spacing=4, row_default_height=50,
                                    row_force_default=True)
        self.cards_panel.add_widget(self.card_tabs)
        self.cards_panel.add_widget(self.card_grid)
        self.cards_player: str | None = None
        self.swap.add_widget(self.pad)
        right.add_widget(self.swap)

        bottom = BoxLayout(spacing=6, size_hint_y=None, height=52)
        self.cards_button = _w("TButton", text="Cards & dice",
                               on_release=lambda *_: self.toggle_cards())
        bottom.add_widget(self.cards_button)
        self.camera_button = _w("TButton", text="Camera", size_hint_x=0.7,
                                on_release=lambda *_: self.toggle_camera())
        bottom.add_widget(self.camera_button)
        self.options_box = BoxLayout(spacing=6, size_hint_x=1.4)
        opts = dict(session.game.setup.options)
        self.target_spin = _w("TSpinner", values=[str(t) for t in TARGETS],
                              text=str(opts.get("target", 10000)))
        self.key_spin = _w("TSpinner", values=key_names(),
                           text=str(opts.get("scoring-key", session.game.options.scoring_key)))
        self.target_spin.bind(text=lambda w, v: self.set_option("target", int(v)))
        self.key_spin.bind(text=lambda w, v: self.set_option("scoring-key", v))
        self.options_box.add_widget(self.target_spin)
        self.options_box.add_widget(self.key_spin)
        bottom.add_widget(self.options_box)
        right.add_widget(bottom)
        body.add_widget(right)
        root.add_widget(body)
        self.add_widget(root)

        self.rows: dict[str, ScoreRow] = {}
        for seat, player in enumerate(session.game.setup.players):
            row = ScoreRow(app, seat, player)
            row.button.bind(on_release=lambda *_, p=player: self.tap_player(p))
            self.rows[player] = row
            self.rows_box.add_widget(row)
        self.rows_box.add_widget(Widget(size_hint_y=0.01))

    # -- reading the engine --------------------------------------------------------------------

    def wants_camera(self) -> bool:
        return self.camera_on

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
        """Cards, Immunity and picks that are legal now (for the card panel)."""
        return [c for c in self.legal if isinstance(c, PlayCard | Immunity | Pick)]

    def special_dice(self) -> list[tuple[str, str]]:
        """(player, die) of the special dice that may be rolled now."""
        out: list[tuple[str, str]] = []
        for c in self.legal:
            if isinstance(c, SpecialRoll) and (c.player, c.die) not in out:
                out.append((c.player, c.die))
        return out

    # -- redraw --------------------------------------------------------------------------------

    def refresh(self, events: Sequence[Event] = ()) -> None:
        self.legal = list(self.game.legal_calls())
        news = [e.text for e in events if e.kind in NEWS_KINDS]
        self.news = "  ".join(news[-2:])
        if events:
            self.entry = None
            self.selected = None
            self.special = None if self.special not in self.special_dice() else self.special
            if self.special is None:
                self.template = ROLL
        self._sync_entry()
        self.draw()

    def _sync_entry(self) -> None:
        """Keep the roll being entered matched to who must roll now."""
        if self.special is not None:
            player, die = self.special
            self.template = f"{{player}}: {die} {{dice}}"
            need = {player: 1}
        else:
            self.template = ROLL
            need = self.expected()
        if not need or self.roll_to_keep() is not None:
            self.entry = None
            return
        roller = self.roller if self.roller in need else next(iter(need))
        self.roller = roller
        e = self.entry
        if e is None or e.player != roller or e.needed != need[roller] \
                or e.template != self.template:
            self.entry = RollEntry(roller, need[roller], template=self.template)
            self.selected = None

    def status_text(self) -> str:
        s = self.state
        st = s.stage
        if s.phase == "over":
            return f"{s.winner} is the Die-structor!"
        if st is not None:
            if st.kind == "order":
                return "Who goes first? Everyone rolls one die"
            if st.kind == "battle":
                return f"BATTLE ZONE ({st.initiator}): everyone rolls two dice"
            if st.kind == "card":
                return st.play.name() if st.play else "Act of War"
            if st.kind == "clash":
                return "Cards together: Pick who was first, or roll"
            return "Tie! Roll all six dice: highest sum wins"
        who = s.turn.player if s.turn is not None else s.current
        if s.phase == "final":
            return f"DICE-OCALYPSE: {who}'s last turn, beat {s.final_mark:,}"
        return f"{who}'s turn"

    def badges(self, player: str) -> str:
        """What sets this player apart now, short enough for one line beside a big score."""
        s = self.state
        out = []
        if player in s.diced:
            out.append("DICED")
        if s.phase == "play":  # cards and special dice are off in the final turns
            n = len(s.cards[player])
            out.append(f"{n} card{'s' if n != 1 else ''}")
            if not s.immunity[player]:
                out.append("Immunity used")
            if s.zombie == player:
                out.append("Zombie")
            if s.left_behind == player:
                out.append("Left Behind")
            current = s.turn.player if s.turn is not None else s.current
            if not s.on_board[player] and player == current:
                out.append(f"opens {self.game.options.opening_minimum:,}")
        if s.lose_turn[player]:
            out.append("loses turn")
        if s.double_next[player]:
            out.append("next x2")
        return " · ".join(out)

    def draw(self) -> None:
        s = self.state
        self.status.text = self.status_text()
        active = s.turn.player if s.turn is not None else (
            s.current if s.stage is None and s.phase in ("play", "final") else None)
        waiting = set(self.expected()) if s.stage is not None else set()
        for p, row in self.rows.items():
            row.show(s.scores[p], self.badges(p), p == active or p == s.winner or (
                p == self.roller and p in waiting), p in s.diced)
        self.frame.refresh()
        self.options_box.opacity = 1 if not self.game.history else 0
        self.options_box.disabled = bool(self.game.history)
        self.options_box.size_hint_x = 1.4 if not self.game.history else 0.001
        self.camera_button.text = "Camera on" if self.camera_on else "Camera off"
        self.camera_button.background_color = theme.SELECT if self.camera_on else theme.BUTTON
        extras = self.extra_calls()
        specials = self.special_dice()
        n = len(extras) + len(specials)
        self.cards_button.text = f"Cards & dice ({n})" if n else "Cards & dice"
        self.cards_button.disabled = n == 0 and not self.cards_open
        if self.cards_open:
            self._draw_cards(extras, specials)
        roll = self.roll_to_keep()
        if s.phase == "over":
            self._draw_over()
        elif roll is not None:
            self._draw_keep(roll)
        else:
            self._draw_entry()

    def _turn_line(self) -> str:
        t = self.state.turn
        if t is None:
            return ""
        doubled = " (doubled)" if t.doubled else ""
        return f"Turn {t.points:,}{doubled}"

    def _draw_over(self) -> None:
        s = self.state
        winner = s.winner or ""
        self.info.text = f"{winner} wins with {s.scores.get(winner, 0):,}"
        for b in self.dice:
            b.text, b.background_color, b.disabled = "", EMPTY, True
        self.hint.text = self.news
        self.primary.text = "New game"
        self.primary.disabled = False
        self.secondary.text = ""
        self.secondary.disabled = True
        for b in (*self.number_buttons, self.clear_button):
            b.disabled = True

    def _draw_keep(self, roll: list[int]) -> None:
        key = self.game.key
        mask = scoring_mask(roll, key)
        if self.chosen_for != tuple(roll):
            self.chosen_for = tuple(roll)
            self.chosen = self._best_indexes(roll)
        for i, b in enumerate(self.dice):
            if i < len(roll):
                b.text = str(roll[i])
                b.disabled = False
                if i in self.chosen:
                    b.background_color, b.color = theme.SELECT, theme.TEXT
                elif mask[i]:
                    b.background_color, b.color = LIT, (0, 0, 0, 1)
                else:
                    b.background_color, b.color = DULL, theme.MUTED
            else:
                b.text, b.background_color, b.disabled = "", EMPTY, True
        kept = [roll[i] for i in self.chosen]
        points = keep_score(kept, key) if kept else None
        best = best_keep(roll, key)
        t = self.state.turn
        assert t is not None  # a roll to keep belongs to the turn in progress
        self.info.text = f"{t.player} rolled · {self._turn_line()}"
        best_text = f"best: {' '.join(map(str, best.dice))} = {best.points:,}" if best else ""
        if points is None:
            self.hint.text = (f"Scoring dice are lit; tap dice to keep ({best_text})"
                              if kept else f"Tap scoring dice to keep ({best_text})")
        else:
            after = t.points + points
            left = t.available - len(kept)
            hot = "  HOT DICE: all six again!" if left == 0 else ""
            self.hint.text = (f"Keep {' '.join(map(str, kept))} = {points:,} -> turn "
                              f"{after:,}{hot}   ({best_text})")
        if self.news and not self.cards_open:
            self.hint.text = f"{self.news}\n{self.hint.text}"
        ok = points is not None
        left = t.available - len(kept) if ok else 0
        if not ok:
            self.secondary.text = "Keep"
        elif left == 0:
            self.secondary.text = "Keep: hot dice!"
        else:
            self.secondary.text = f"Keep, roll {left} {'die' if left == 1 else 'dice'}"
        self.secondary.disabled = not ok
        self.primary.text = "Keep & bank" if ok else "Choose dice"
        self.primary.disabled = not ok
        for b in (*self.number_buttons, self.clear_button):
            b.disabled = True

    def _best_indexes(self, roll: list[int]) -> list[int]:
        best = best_keep(roll, self.game.key)
        if best is None:
            return []
        want = list(best.dice)
        out = []
        for i, v in enumerate(roll):
            if v in want:
                want.remove(v)
                out.append(i)
        return out

    def _draw_entry(self) -> None:
        e = self.entry
        t = self.state.turn
        bank_ok = t is not None and any(isinstance(c, Bank) for c in self.legal)
        for b in (*self.number_buttons, self.clear_button):
            b.disabled = e is None
        if e is None:
            for b in self.dice:
                b.text, b.background_color, b.disabled = "", EMPTY, True
            self.info.text = self._turn_line()
            self.hint.text = self.news or self.session.message
            self.primary.text, self.primary.disabled = "", True
            self.secondary.text, self.secondary.disabled = "", True
            return
        what = "die" if e.needed == 1 else "dice"
        turn = f" · {self._turn_line()}" if t is not None else ""
        if self.special is not None:
            self.info.text = f"{e.player} rolls the {self.special[1]} die"
        else:
            self.info.text = f"{e.player} rolls {e.needed} {what}{turn}"
        for i, b in enumerate(self.dice):
            if i >= e.needed:
                b.text, b.background_color, b.disabled = "", theme.BACKGROUND, True
                continue
            b.disabled = False
            v = e.values[i] if i < len(e.values) else None
            doubt = i in e.doubtful
            b.text = "?" if v is None else (f"{v}?" if doubt else str(v))
            if i == self.selected:
                b.background_color, b.color = theme.SELECT, theme.TEXT
            elif doubt:
                b.background_color, b.color = theme.DANGER, theme.TEXT
            else:
                b.background_color, b.color = (EMPTY if v is None else theme.COUNT), (
                    theme.TEXT if v is None else (0, 0, 0, 1))
        lines = []
        if self.news:
            lines.append(self.news)
        if self.session.message:
            lines.append(self.session.message)
        if e.problem:
            lines.append(e.problem)
        elif e.doubtful:
            lines.append("Camera unsure: tap a die and its number, or Confirm")
        elif not lines:
            lines.append("Roll: the camera reads it, or tap the numbers" if self.camera_on
                         else "Roll, then tap the numbers (camera off)")
        self.hint.text = "\n".join(lines[-2:])
        self.primary.text = "Enter roll"
        self.primary.disabled = not e.complete
        if e.doubtful and not e.problem:
            self.secondary.text, self.secondary.disabled = "Confirm", False
        elif bank_ok and t is not None:
            total = t.points * (2 if t.doubled else 1)
            self.secondary.text, self.secondary.disabled = f"Bank {total:,}", False
        else:
            self.secondary.text, self.secondary.disabled = "", True

    def _draw_cards(self, extras: list[Any], specials: list[tuple[str, str]]) -> None:
        by_player: dict[str, list[tuple[str, Any]]] = {}
        for call in extras:
            text = str(call)
            by_player.setdefault(call.player, []).append(
                (text.split(": ", 1)[1], lambda *_, t=text: self.play(t)))
        for player, die in specials:
            by_player.setdefault(player, []).append(
                (f"Roll the {die} die",
                 lambda *_, p=player, d=die: self.start_special(p, d)))
        players = [p for p in self.game.setup.players if p in by_player]
        if self.cards_player not in players:
            self.cards_player = players[0] if players else None
        self.card_tabs.clear_widgets()
        for p in players:
            chosen = p == self.cards_player
            self.card_tabs.add_widget(_w(
                "TButton", text=p, background_color=theme.SELECT if chosen else theme.BUTTON,
                on_release=lambda *_, p=p: self.choose_card_player(p)))
        self.card_tabs.add_widget(_w("TButton", text="Back", background_color=theme.COUNT,
                                     color=(0, 0, 0, 1),
                                     on_release=lambda *_: self.toggle_cards()))
        self.card_grid.clear_widgets()
        for text, action in by_player.get(self.cards_player or "", []):
            self.card_grid.add_widget(_w("TButton", text=text, font_size=self.host.fs(17),
                                         on_release=action))

    def choose_card_player(self, player: str) -> None:
        self.cards_player = player
        self.draw()

    # -- taps ----------------------------------------------------------------------------------

    def tap_player(self, player: str) -> None:
        """Several players must roll (first turn, Battle Zone...): this one rolls next."""
        if player in self.expected() and self.special is None:
            self.roller = player
            self.entry = None
            self._sync_entry()
            self.draw()

    def tap_die(self, i: int) -> None:
        roll = self.roll_to_keep()
        if roll is not None:
            if i in self.chosen:
                self.chosen.remove(i)
            elif i < len(roll):
                self.chosen.append(i)
            self.draw()
            return
        e = self.entry
        if e is None:
            return
        if self.selected == i and i in e.doubtful:
            self.entry = e.confirm(i)  # tapped twice: the camera's value is right
            self.selected = None
        else:
            self.selected = i
        self.draw()

    def tap_number(self, v: int) -> None:
        e = self.entry
        if e is None:
            return
        try:
            if self.selected is not None and self.selected <= len(e.values):
                self.entry = e.set_value(self.selected, v)
            else:
                self.entry = e.add(v)
        except ValueError as err:
            self.session.message = str(err)
        self.selected = None
        self.draw()

    def clear_entry(self) -> None:
        if self.entry is not None:
            self.entry = RollEntry(self.entry.player, self.entry.needed,
                                   template=self.entry.template)
            self.selected = None
            self.draw()

    def tap_primary(self) -> None:
        s = self.state
        if s.phase == "over":
            self.host.end_game()
            return
        roll = self.roll_to_keep()
        if roll is not None:
            if self.keep(roll):
                self.bank()
            return
        if self.entry is not None and self.entry.text():
            self.send(self.entry.text() or "")

    def tap_secondary(self) -> None:
        roll = self.roll_to_keep()
        if roll is not None:
            self.keep(roll)
            return
        e = self.entry
        if e is not None and e.doubtful and not e.problem:
            self.entry = e.confirm_all()
            self.draw()
            if self.entry.text():
                self.send(self.entry.text() or "")
            return
        self.bank()

    def keep(self, roll: list[int]) -> bool:
        t = self.state.turn
        assert t is not None
        kept = tuple(sorted(roll[i] for i in self.chosen))
        return self.send(str(Keep(t.player, kept)))

    def bank(self) -> bool:
        t = self.state.turn
        if t is None:
            return False
        return self.send(str(Bank(t.player)))

    def play(self, text: str) -> None:
        self.cards_open = False
        self._show_swap()
        self.send(text)

    def start_special(self, player: str, die: str) -> None:
        self.special = (player, die)
        self.cards_open = False
        self._show_swap()
        self.entry = None
        self._sync_entry()
        self.draw()

    def toggle_cards(self) -> None:
        self.cards_open = not self.cards_open
        self._show_swap()
        self.draw()

    def _show_swap(self) -> None:
        # The open card panel takes the dice row's room too.
        self.dice_row.opacity = 0 if self.cards_open else 1
        self.dice_row.disabled = self.cards_open
        self.dice_row.height = 0 if self.cards_open else 80
        self.swap.clear_widgets()
        self.swap.add_widget(self.cards_panel if self.cards_open else self.pad)

    def send(self, text: str) -> bool:
        """One call through the session; a refusal shows its reason on screen. A roll the
        camera read goes with the dice the players confirmed or corrected (dice statistics)."""
        entry, read = self.entry, self.read_from
        done = self.session.try_call(text) is not None
        if not done:
            self.draw()
        else:
            self.special = None
            if read is not None and entry is not None and entry.text() == text:
                self.read_from = None
                reading, first, order = read
                fixed = corrections(first, entry)
                if fixed:
                    self.host.correct_roll(reading, {order[i]: str(v) for i, v in fixed.items()
                                                     if i < len(order)})
        return done

    def on_reading(self, reading: Reading) -> str | None:
        """A settled camera reading: the roll the game waits for. A sure and complete reading
        is called at once; otherwise its dice wait on screen for the players' touch.
        Returns the call made, if any."""
        if self.entry is None:
            self._sync_entry()
        e = self.entry
        if e is None:
            return None
        self.entry = read_roll(reading, e.player, e.needed, template=e.template)
        self.read_from = (reading, self.entry, read_order(reading))
        self.selected = None
        text = self.entry.text()
        if text is not None and self.send(text):
            return text
        self.draw()
        return None

    # -- the camera ------------------------------------------------------------------------------

    def toggle_camera(self) -> None:
        """Read rolls from the camera, or not (the app runs the camera while they are)."""
        camera = self.host.camera
        if self.camera_on:
            self.camera_on = False
        elif camera is None:
            self.session.message = "no camera: choose one in Settings"
        elif not camera.rolls_count:
            self.session.message = (f"the picture is {camera.label}: its rolls are not the "
                                    "table's; enter them by touch")
        else:
            self.camera_on = True
        self.draw()

    def on_roll(self, reading: Reading) -> None:
        """The app's camera feed settled a roll (main thread)."""
        if self.camera_on:
            self.on_reading(reading)

    def set_option(self, name: str, value: Any) -> None:
        """Before the first call: start the game again with this option (same players)."""
        if self.game.history:
            return
        setup = self.game.setup
        if setup.options.get(name) == value:
            return
        options = dict(setup.options)
        options[name] = value
        if name == "target":
            # A shorter game keeps the Battle Zone halfway (the rulebook: 5,000 of 10,000).
            options["battle-zone-at"] = max(50, int(value) // 2)
        self.host.restart(options)


