"""The Dice-ocalypse table screen: scores, the roll, the keep, bank or roll on, cards and dice.

No rule of the game lives here. What can be called now comes from the engine's
``legal_calls()``; which dice score and the best keep from its pure helpers (``scoring_mask``,
``best_keep``, ``keep_score``); whether a bank would follow a keep from the engine asked on a
copy (``legal_after``); every tap ends as call text sent through the table session, which asks
the engine and journals the call before this screen redraws.

Layout (800x480 and up): the top bar says whose turn it is (or what the game waits for); the
scores on the left (tap a player: they roll next, where several must roll); on the right who
rolls how many dice, the six dice (the roll being entered, or the roll to keep from), what
happened and what to do, the number pad, the two actions (only a legal one is drawn in the
accent colour), Cards & dice (a dialog with every player's Act of War cards, Immunity, picks
and special dice) and Camera. Every widget is made once and only updated: nothing moves or
disappears under a finger, and a roll arriving from the camera changes values in place.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.modalview import ModalView
from kivy.uix.widget import Widget
from kivy.utils import escape_markup

from companion import theme
from companion.contract import Host
from companion.frame import GameFrame, dialog
from companion.games.diceocalypse.adapter import (
    ROLL,
    RollEntry,
    corrections,
    expected_rolls,
    legal_after,
    read_order,
    read_roll,
    with_thousands,
)
from companion.games.table import TableScreen, lines_label, refusal_reason
from companion.session import TableSession
from companion.widgets import w as _w
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
from rules.diceocalypse.game import DiceocalypseState
from vision import Reading

LIT: theme.RGBA = (0.94, 0.89, 0.26, 1)  # a scoring die
DULL: theme.RGBA = (0.30, 0.31, 0.35, 1)  # a die that does not score
EMPTY: theme.RGBA = (0.20, 0.21, 0.25, 1)  # a die still to enter
#: The tile of the player whose turn it is: white, which is no seat colour of any palette, so
#: it never reads as "that player's colour" (the seat's colour stays on the tile's strip).
LIT_TILE: theme.RGBA = theme.TEXT
NEWS_KINDS = ("bust", "hot-dice", "battle-zone", "card", "card-void", "zombie", "left-behind",
              "dice-ocalypse", "diced", "winner", "tie", "reroll", "first", "lose-turn",
              "double-turn", "bank", "immunity", "clash", "pick")
GAP = 6


def sentences(texts: Sequence[str]) -> str:
    """The engine's news read as sentences: ``["Cy is diced with 0", "Ana wins"]`` ->
    ``"Cy is diced with 0. Ana wins"`` (a text ending in ``!`` or ``?`` keeps it)."""
    out = ""
    for text in texts:
        if out:
            out += " " if out.endswith((".", "!", "?", ":")) else ". "
        out += text
    return out


def action_style(button: Any, legal: bool, main: bool) -> None:
    """An action button: enabled only when legal; the accent colour only for the main one of
    the legal actions, never for one the engine would refuse."""
    button.disabled = not legal
    lit = legal and main
    button.background_color = theme.ACCENT if lit else theme.BUTTON
    button.color = (0, 0, 0, 1) if lit else theme.TEXT
    button.bold = lit


class ScoreRow(BoxLayout):
    """One player's tile: colour strip, then a button with the name and badges (tap: this
    player rolls next), and the score.

    The current player's tile is lit white, so whose turn it is reads across the room; the
    seat's colour stays on the strip and the name is always written, so colour is never the
    only cue.
    """

    def __init__(self, app: Host, seat: int, player: str, **kwargs: Any) -> None:
        super().__init__(spacing=0, **kwargs)
        self.player = player
        self.colour = theme.player_colour(app.settings.palette, seat)
        self.add_widget(_w("Panel", size_hint_x=None, width=12, bg=self.colour))
        self.tile = _w("Panel", bg=theme.PANEL)
        self.button = _w("TButton", text=player, font_size=app.fs(17), halign="left",
                         shorten=False, markup=True, background_color=(0, 0, 0, 0))
        self.tile.add_widget(self.button)
        # a score is one line at every text size: it shrinks to fit its box rather than
        # wrap ("8,00 / 0"); the box keeps the names their room at six players
        self.score = _w("FitLabel", text="0", bold=True, font_size=app.fs(28),
                        color=theme.TEXT, size_hint_x=None, width=104, padding=(0, 0, 8, 0))
        self.tile.add_widget(self.score)
        self.add_widget(self.tile)

    def show(self, score: int, badges: str, current: bool, out: bool) -> None:
        name = f"[b]{self.player}[/b]"
        self.button.text = f"{name}\n{badges}" if badges else name
        self.tile.bg = list(LIT_TILE if current else theme.PANEL)
        ink = theme.text_on(LIT_TILE) if current else theme.TEXT
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
        self.cards_view: ModalView | None = None  # the Cards & dice dialog, while open
        self.cards_player: str | None = None
        self._cards_shown: list[tuple[str, str]] = []  # (player, call) in the dialog
        self.news = ""
        self.legal: list[Call] = []
        self._bank_after: dict[tuple[int, tuple[int, ...]], bool] = {}
        #: Rolls are read from the camera when its rolls count (a real camera, or the stand-in
        #: the players chose); a stand-in shown for want of a camera is never read.
        self.camera_on = host.camera is not None and host.camera.rolls_count

        root = _w("Panel", orientation="vertical", padding=6, spacing=6, bg=theme.BACKGROUND)
        self.frame = GameFrame(app, game=lambda: self.game)
        self.status = self.frame.title
        self.status.font_size = app.fs(19)
        self.status.shorten = False  # two lines rather than a cut
        self.undo_button, self.redo_button = self.frame.undo, self.frame.redo
        root.add_widget(self.frame)

        body = BoxLayout(spacing=8)
        self.rows_box = BoxLayout(orientation="vertical", spacing=4, size_hint_x=0.38)
        body.add_widget(self.rows_box)
        right = BoxLayout(orientation="vertical", spacing=GAP, size_hint_x=0.62)
        self.info = lines_label(app, 21, text="", bold=True, size_hint_y=None, height=56)
        right.add_widget(self.info)
        self.dice_row = BoxLayout(spacing=GAP, size_hint_y=None, height=72)
        self.dice: list[Any] = []
        for i in range(6):
            b = _w("TButton", text="", font_size=app.fs(36), bold=True, shorten=False,
                   on_release=lambda *_, i=i: self.tap_die(i))
            self.dice.append(b)
            self.dice_row.add_widget(b)
        right.add_widget(self.dice_row)
        # What happened and what to do, in a box that takes the height left over; a refusal
        # comes first, in bold, and the box's frame turns orange while it is shown.
        self.hint = lines_label(app, 16, text="", markup=True)
        inner = _w("Panel", bg=theme.PANEL, padding=(4, 0))
        inner.add_widget(self.hint)
        self.hint_box = _w("Panel", bg=theme.BACKGROUND, padding=3)
        self.hint_box.add_widget(inner)
        right.add_widget(self.hint_box)
        numbers = BoxLayout(spacing=GAP, size_hint_y=None, height=52)
        self.number_buttons = []
        for v in range(1, 7):
            b = _w("TButton", text=str(v), font_size=app.fs(24), shorten=False,
                   on_release=lambda *_, v=v: self.tap_number(v))
            self.number_buttons.append(b)
            numbers.add_widget(b)
        self.clear_button = _w("TButton", text="Clear", font_size=app.fs(16), shorten=False,
                               on_release=lambda *_: self.clear_entry())
        numbers.add_widget(self.clear_button)
        right.add_widget(numbers)
        self.actions = BoxLayout(spacing=GAP, size_hint_y=None, height=60)
        self.secondary = _w("TButton", text="", font_size=app.fs(19), shorten=False,
                            on_release=lambda *_: self.tap_secondary())
        self.primary = _w("TButton", text="", font_size=app.fs(21), shorten=False,
                          on_release=lambda *_: self.tap_primary())
        self.actions.add_widget(self.secondary)
        self.actions.add_widget(self.primary)
        right.add_widget(self.actions)
        bottom = BoxLayout(spacing=GAP, size_hint_y=None, height=52)
        self.cards_button = _w("TButton", text="Cards & dice", shorten=False,
                               on_release=lambda *_: self.toggle_cards())
        bottom.add_widget(self.cards_button)
        self.camera_button = _w("TButton", text="Camera", size_hint_x=0.7, shorten=False,
                                on_release=lambda *_: self.toggle_camera())
        bottom.add_widget(self.camera_button)
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

    @property
    def cards_open(self) -> bool:
        """The Cards & dice dialog is open."""
        return self.cards_view is not None and self.cards_view.parent is not None

    def expected(self) -> dict[str, int]:
        """Who the game waits on to roll and how many dice (asked of the engine)."""
        return expected_rolls(self.legal)

    def roll_to_keep(self) -> list[int] | None:
        t = self.state.turn
        return list(t.roll) if t is not None and t.roll is not None else None

    def extra_calls(self) -> list[Call]:
        """Cards, Immunity and picks that are legal now (for the Cards & dice dialog)."""
        return [c for c in self.legal if isinstance(c, PlayCard | Immunity | Pick)]

    def special_dice(self) -> list[tuple[str, str]]:
        """(player, die) of the special dice that may be rolled now."""
        out: list[tuple[str, str]] = []
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

    # -- redraw --------------------------------------------------------------------------------

    def refresh(self, events: Sequence[Event] = ()) -> None:
        self.legal = list(self.game.legal_calls())
        news = [with_thousands(e.text) for e in events if e.kind in NEWS_KINDS]
        self.news = sentences(news[-2:])
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
                return f"Battle Zone ({st.initiator}): everyone rolls 2 dice"
            if st.kind == "card":
                return st.play.name() if st.play else "Act of War"
            if st.kind == "clash":
                return "Cards together: Pick who was first, or roll"
            return "Tie! Roll all six dice: highest sum wins"
        who = s.turn.player if s.turn is not None else s.current
        if s.phase == "final":
            return f"Dice-ocalypse: {who}'s last turn, beat {s.final_mark:,}"
        return f"{who}'s turn"

    def badges(self, player: str) -> str:
        """What sets this player apart now, in a few words beside the score."""
        s = self.state
        out = []
        if player in s.diced:
            out.append("DICED")
        if s.phase == "play":  # cards and special dice are off in the final turns
            out.append(plural(len(s.cards[player]), "card"))
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
                p in waiting and p == (self.entry.player if self.entry else None)), p in s.diced)
        self.frame.refresh()
        self.camera_button.text = "Camera on" if self.camera_on else "Camera off"
        self.camera_button.background_color = theme.SELECT if self.camera_on else theme.BUTTON
        extras = self.extra_calls()
        specials = self.special_dice()
        n = len(extras) + len(specials)
        self.cards_button.text = f"Cards & dice ({n})" if n else "Cards & dice"
        self.cards_button.disabled = n == 0
        if self.cards_open:
            self._fill_cards(extras, specials)
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
        return f"{t.points:,} this turn{doubled}"

    def _say(self, *lines: str) -> None:
        """The message box: a refusal first (where the players look, in bold, the box framed
        in orange), then the news, then what to do; the newest lines when there are too
        many."""
        message = self.session.message
        refusal = with_thousands(refusal_reason(self.session)) if message else ""
        said = [f"[b]{escape_markup(refusal)}[/b]"] if refusal else []
        said += [escape_markup(line) for line in (self.news, *lines) if line]
        text = "\n".join(said[:3])
        if self.hint.text != text:
            self.hint.text = text
        frame = list(theme.DANGER if refusal else theme.BACKGROUND)
        if list(self.hint_box.bg) != frame:
            self.hint_box.bg = frame

    def _draw_over(self) -> None:
        s = self.state
        winner = s.winner or ""
        self.info.text = f"{winner} wins with {plural(s.scores.get(winner, 0), 'point')}"
        for b in self.dice:
            b.text, b.background_color, b.disabled = "", EMPTY, True
        self._say()
        self.primary.text = "New game"
        action_style(self.primary, True, True)
        self.secondary.text = ""
        action_style(self.secondary, False, False)
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
        self._say(what)
        left = t.available - len(kept) if ok else 0
        if not ok:
            self.secondary.text = "Keep"
        elif left == 0:
            self.secondary.text = "Keep: hot dice!"
        else:
            self.secondary.text = f"Keep, roll {plural(left, 'die', 'dice')}"
        self.primary.text = "Keep & bank" if ok else "Choose dice"
        action_style(self.primary, bank_ok, True)
        action_style(self.secondary, ok, not bank_ok)
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
            self._say()
            self.primary.text = ""
            action_style(self.primary, False, True)
            self.secondary.text = ""
            action_style(self.secondary, False, False)
            return
        turn = f" · {self._turn_line()}" if t is not None else ""
        if self.special is not None:
            self.info.text = f"{e.player} rolls the {self.special[1]} die"
        else:
            self.info.text = f"{e.player} rolls {plural(e.needed, 'die', 'dice')}{turn}"
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
        self._say(what, "Tap a name to enter that player's roll" if several else "")
        self.primary.text = "Enter roll"
        action_style(self.primary, e.complete, True)
        if e.doubtful and not e.problem:
            self.secondary.text = "Confirm"
            action_style(self.secondary, True, False)
        elif bank_ok and t is not None:
            total = t.points * (2 if t.doubled else 1)
            self.secondary.text = f"Bank {total:,}"
            action_style(self.secondary, True, False)
        else:
            self.secondary.text = ""
            action_style(self.secondary, False, False)

    # -- the Cards & dice dialog ---------------------------------------------------------------

    def _calls_by_player(self, extras: list[Any], specials: list[tuple[str, str]]
                         ) -> dict[str, list[tuple[str, str]]]:
        """Each player's calls as (words on the button, call text or "roll:<die>")."""
        by_player: dict[str, list[tuple[str, str]]] = {}
        for call in extras:
            text = str(call)
            words = text.split(": ", 1)[1].removeprefix("Play ")
            by_player.setdefault(call.player, []).append((words, text))
        for player, die in specials:
            by_player.setdefault(player, []).append((f"Roll the {die} die", f"roll:{die}"))
        return by_player

    def toggle_cards(self) -> None:
        """Open the Cards & dice dialog (or close it)."""
        if self.cards_open:
            assert self.cards_view is not None
            self.cards_view.dismiss(animation=False)
            self.draw()
            return
        body = BoxLayout(orientation="vertical", spacing=4)
        self.card_tabs = BoxLayout(spacing=4, size_hint_y=None, height=56)
        self.card_grid = GridLayout(cols=2, spacing=4, row_default_height=56,
                                    row_force_default=True)
        body.add_widget(self.card_tabs)
        body.add_widget(self.card_grid)
        self._cards_shown = []
        self.cards_view = dialog(self.host, "Cards & dice", body, [("Close", self.draw)],
                                 size=(0.96, 0.94))
        self._fill_cards(self.extra_calls(), self.special_dice())

    def _fill_cards(self, extras: list[Any], specials: list[tuple[str, str]]) -> None:
        """The dialog's player tabs and calls. A tab row is made again only when the players
        with a call change, a grid only when the chosen player's calls change; choosing
        another player only recolours the tabs."""
        by_player = self._calls_by_player(extras, specials)
        players = [p for p in self.game.setup.players if p in by_player]
        if self.cards_player not in players:
            self.cards_player = players[0] if players else None
        if [b.player for b in self.card_tabs.children[::-1]] != players:
            self.card_tabs.clear_widgets()
            for p in players:
                tab = _w("TButton", text=p, shorten=False, font_size=self.host.fs(16),
                         on_release=lambda *_, p=p: self.choose_card_player(p))
                tab.player = p
                self.card_tabs.add_widget(tab)
        for tab in self.card_tabs.children:
            colour = theme.SELECT if tab.player == self.cards_player else theme.BUTTON
            if list(tab.background_color) != list(colour):
                tab.background_color = colour
        shown = [(self.cards_player or "", text)
                 for _, text in by_player.get(self.cards_player or "", [])]
        if shown == self._cards_shown:
            return
        self._cards_shown = shown
        calls = by_player.get(self.cards_player or "", [])
        self.card_grid.cols = 2 if len(calls) <= 8 else 3
        self.card_grid.clear_widgets()
        for words, text in calls:
            self.card_grid.add_widget(_w("TButton", text=words, shorten=False,
                                         font_size=self.host.fs(17),
                                         on_release=lambda *_, t=text: self.play(t)))

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
        if self.selected is None and len(e.values) >= e.needed and None not in e.values:
            self.session.message = (f"{e.player}'s {plural(e.needed, 'die', 'dice')} "
                                    "entered: tap a die to change it, or Clear")
            self.draw()
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
        self.session.message = ""
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
        """A call from the Cards & dice dialog (which closes): a card, Immunity, a pick, or
        ``roll:<die>`` to enter a special die's roll."""
        if self.cards_view is not None:
            self.cards_view.dismiss(animation=False)
        if text.startswith("roll:"):
            self.start_special(self.cards_player or "", text[5:])
        else:
            self.send(text)

    def start_special(self, player: str, die: str) -> None:
        self.special = (player, die)
        self.entry = None
        self._sync_entry()
        self.draw()

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
            self.session.message = "No camera: choose one in Settings"
        elif not camera.rolls_count:
            self.session.message = (f"The picture is {camera.label}: its rolls are not the "
                                    "table's; enter them by touch")
        else:
            self.camera_on = True
        self.draw()

    def on_roll(self, reading: Reading) -> None:
        """The app's camera feed settled a roll (main thread)."""
        if self.camera_on:
            self.on_reading(reading)

    def close(self) -> None:
        if self.cards_open:
            assert self.cards_view is not None
            self.cards_view.dismiss(animation=False)
