"""Tribal Village's table screen: draws :mod:`companion.games.tribal_village.model` (setup
steps, cards by tap, the trick's verdict, abilities, scores) and forwards touches to it; no rule
and no table logic here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.widget import Widget
from kivy.utils import escape_markup

from companion import theme
from companion.contract import Host
from companion.frame import GameFrame
from companion.games.table import TableScreen
from companion.games.tribal_village.model import TribalVillageModel
from companion.games.tribal_village.view import PLAY_ROWS, Block, Choice
from companion.session import TableSession
from companion.widgets import w as _w
from rules import Event
from rules.tribal_village import TribalVillage

OFF: theme.RGBA = (0.17, 0.18, 0.21, 1)  # a choice that is not possible now
DANGER_HEX = "{:02x}{:02x}{:02x}".format(*(int(c * 255) for c in theme.DANGER[:3]))
NOTICE_HEX = "{:02x}{:02x}{:02x}".format(*(int(c * 255) for c in theme.ACCENT[:3]))
HOT_TEXT: theme.RGBA = (0, 0, 0, 1)
#: A row of choices (touch targets stay above 48 px) and the gap between rows.
ROW = 52
GAP = 4
#: The width of a button beside a note (go back, decline).
NOTE_BUTTON = 150


def rows_height(rows: int) -> float:
    return rows * ROW + max(0, rows - 1) * GAP


class TribalVillageScreen(TableScreen):
    """One screen for the whole game: it redraws from the engine after every call.

    Left: what is asked (prompt), the trick's verdict (or a refusal, where the players look),
    and the choices at the bottom, in a box of fixed height so the card picker's value row
    never moves from the setup's first lead to the last trick. Right: one row per player
    with the card they played in this trick and their points."""

    model: TribalVillageModel

    def __init__(self, host: Host, session: TableSession[Any], **kwargs: Any) -> None:
        self.session: TableSession[TribalVillage] = session.typed(TribalVillage)
        super().__init__(host, session, **kwargs)
        app = host
        self.model = TribalVillageModel(self.session)
        self.buttons: dict[str, Any] = {}  # key -> button on screen now (tests tap these)
        # Buttons of the last drawing, taken again by the next: a Kivy button costs some 3 ms
        # to make here (its style's rules and bindings), a redraw shows a dozen or more, and a
        # Pi is 3-5 times slower; setting a few properties costs far less.
        self._spare: list[Any] = []
        players = list(self.session.game.setup.players)
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

        def points_heights(_w: Any, h: float) -> None:
            """The points as tall as the text size asks, "this hand" under them in what is
            left (six rows at 800x480: the points first)."""
            under.height = min(fs(12) * 1.3, h * 0.3)
            score.height = min(fs(22) * 1.3, h - under.height)

        points.bind(height=points_heights)
        return {"row": row, "name": name, "detail": detail, "played": played, "score": score,
                "under": under, "points": points}


    # -- the app calls this after every call, undo, redo (and refusal) ------------------------

    def refresh(self, events: Sequence[Event] = ()) -> None:
        """Redraw (the model has read the change already: its host handed it over first)."""
        self.model.refresh()
        self.redraw()

    def say(self, text: str) -> None:
        """What the app tells the players (Undid: ..., a button's note): above the verdict."""
        self.model.say(text)
        self.redraw()

    def choose(self, **changes: Any) -> None:
        """A half-made choice set as its taps would (the layout walks reach each one so)."""
        self.model._set(**changes)
        self.redraw()

    def tap(self, key: str) -> None:
        """A choice tapped: the model acts; the screen answers its own keys."""
        if key == "over:standings":
            self.frame.ask_end()
            return
        if key == "over:bgstats":
            self.frame.show_play_code()
            return
        if key == "over:leave":
            self.host.end_game()
            return
        self.act(lambda: self.model.tap(key))

    def redraw(self) -> None:
        view = self.model.view()
        for b in self.buttons.values():
            if b.parent is not None:
                b.parent.remove_widget(b)
        self._spare.extend(self.buttons.values())
        self.buttons = {}
        self.title_label.text = view.title
        self.frame.refresh()
        self.allies_label.text = view.allies
        self.prompt_label.text = view.prompt
        for p in view.players:
            r = self.rows[p.player]
            r["name"].text = f"[b]{escape_markup(p.player)}[/b]" + (
                f" · {escape_markup(p.objective)}" if p.objective else "")
            r["detail"].text = p.detail
            r["row"].bg = (0.26, 0.27, 0.22, 1) if p.current else theme.PANEL
            r["played"].text = p.played
            r["played"].color = theme.ACCENT if p.to_play else theme.TEXT
            r["score"].text, r["under"].text = p.score, p.under
        self.choices.clear_widgets()
        for row, extra in self.row_buttons:  # a question's buttons beside the players' names
            row.remove_widget(extra)
        for r in self.rows.values():  # (they stood in for the card played)
            r["played"].width, r["played"].opacity = 60, 1
        self.row_buttons = []
        for block in view.blocks:
            self._block(block)
        for who, choice in view.beside.items():
            # the button takes the place of the card played in this trick (which does not
            # matter to the question): the name and the points keep theirs
            r = self.rows[who]
            r["played"].width, r["played"].opacity = 0, 0
            b = self._button(choice)
            r["row"].add_widget(b, index=1)  # before the points
            self.row_buttons.append((r["row"], b))
        # The choices keep one height through the setup, and another through play: the setup
        # fills them from the top (its tabs stay put), play from the bottom (the values do).
        self.choices.height = rows_height(view.rows)
        kids = self.choices.children
        used = sum(k.height for k in kids) + GAP * max(0, len(kids) - 1)
        placed = any(block.kind == "filler" for block in view.blocks)  # the model's own room
        if used < self.choices.height - 0.5 and not placed:  # room left: a filler takes it
            self.choices.add_widget(Widget(), index=0 if view.setup else len(kids))
        verdict = escape_markup(view.verdict)
        if view.refusal:  # the engine's reason, where the players look, instead of the verdict
            verdict = f"[color={DANGER_HEX}]{escape_markup(view.refusal)}[/color]"
        elif view.notice:
            verdict = f"[color={NOTICE_HEX}]{escape_markup(view.notice)}[/color]\n{verdict}"
        self.verdict_label.text = verdict

    # -- drawing the model's choices ------------------------------------------------------------

    def _button(self, c: Choice) -> Any:
        """A choice: ``hot`` (accent) marks the sensible ones; disabled ones are greyed; the
        chosen player in their seat's colour."""
        if not c.key:
            return Widget()
        bg = theme.ACCENT if c.hot else theme.SELECT if c.selected else theme.BUTTON
        colour = HOT_TEXT if c.hot else theme.TEXT
        if c.seat is not None:
            bg = theme.player_colour(self.host.settings.palette, c.seat)
            colour = theme.text_on(bg)
        b = self._spare.pop() if self._spare else self._new_button()
        b.choice_key = c.key
        b.text, b.font_size, b.bold = c.text, self.host.fs(c.font), c.bold
        b.disabled = not c.enabled
        b.background_color = bg if c.enabled or c.seat is not None else OFF
        b.color = colour
        if c.width is None:
            b.size_hint_x = 1
        else:
            b.size_hint_x, b.width = None, c.width
        self.buttons[c.key] = b
        return b

    def _new_button(self) -> Any:
        b = _w("TButton", disabled_color=theme.MUTED, background_disabled_normal="")
        b.bind(on_release=lambda button: self.tap(button.choice_key))
        return b

    def _block(self, block: Block) -> None:
        if block.kind == "filler":
            self.choices.add_widget(Widget())
            return
        if block.kind == "grid":
            rows = max(1, -(-len(block.choices) // block.cols))
            grid = GridLayout(cols=block.cols, spacing=GAP, size_hint_y=None,
                              height=rows_height(rows))
            for c in block.choices:
                grid.add_widget(self._button(c))
            self.choices.add_widget(grid)
            return
        row = BoxLayout(spacing=GAP, size_hint_y=None, height=ROW)
        if block.text:
            note = block.kind == "note"
            row.add_widget(_w("TLabel", text=block.text, font_size=self.host.fs(15),
                              halign="left", shorten=not note,
                              color=theme.MUTED if note else theme.TEXT))
        for c in block.choices:
            b = self._button(c)
            if block.kind == "note":
                b.size_hint_x, b.width = None, NOTE_BUTTON
            row.add_widget(b)
        self.choices.add_widget(row)


__all__ = ["TribalVillageScreen"]
