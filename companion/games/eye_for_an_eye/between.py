"""Eye for an Eye's between-rounds table (Kivy): the round's ranking and points with the
match points, the next round, a tie-break or the winner, as
:meth:`~companion.games.eye_for_an_eye.model.EyeForAnEyeModel.between` says."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.screenmanager import Screen
from kivy.uix.widget import Widget

from companion import theme
from companion.contract import Host
from companion.games.eye_for_an_eye.model import EyeForAnEyeModel
from companion.widgets import w
from rules import Event

#: The between-rounds table: (heading, share of the width).
COLUMNS = (("Rank", 0.07), ("Side", 0.43), ("Cup", 0.08), ("Bonus", 0.1), ("Score", 0.1),
           ("Points", 0.11), ("Match", 0.11))


class BetweenScreen(Screen):
    """The round's ranking with its points and the match points, the next round, the winner,
    a tie-break."""

    def __init__(self, host: Host, model: EyeForAnEyeModel, **kwargs: Any) -> None:
        super().__init__(name="between", **kwargs)
        self.host = host
        self.model = model
        self.calls = model.calls
        fs = host.fs
        root = w("Panel", orientation="vertical", padding=10, spacing=3, bg=theme.BACKGROUND)
        self.title = w("THeading", text="", size_hint_y=None, height=50, font_size=fs(28))
        root.add_widget(self.title)
        # A row holds a side over its characters (two lines) at the text size chosen: the
        # rows grow with it (a team's row no longer shrinks its text to fit).
        self.row_height = max(52.0, fs(17) * 2.45)
        self.table = GridLayout(cols=1, spacing=1, size_hint_y=None)
        self.table.bind(minimum_height=self.table.setter("height"))
        root.add_widget(self.table)
        root.add_widget(Widget())
        self.note = w("TLabel", text="", size_hint_y=None, height=52, color=theme.ACCENT,
                      font_size=fs(17), halign="left", shorten=False)
        self.note.bind(size=lambda wid, v: setattr(wid, "text_size", v))
        root.add_widget(self.note)
        bottom = BoxLayout(size_hint_y=None, height=64, spacing=6)
        bottom.add_widget(w("TButton", text="Arena", size_hint_x=0.25,
                            on_release=lambda *_: host.show("arena")))
        # once the match is over: the play for BG Stats (a QR code), beside New game
        self.bgstats_b = w("TButton", text="BG Stats", size_hint_x=0.25, opacity=0,
                           disabled=True, on_release=lambda *_: self.show_play_code())
        bottom.add_widget(self.bgstats_b)
        bottom.add_widget(Widget(size_hint_x=0.1))
        self.next_b = w("TBigButton", text="Next round", size_hint_x=0.4,
                        on_release=lambda *_: self.next_round())
        bottom.add_widget(self.next_b)
        root.add_widget(bottom)
        self.add_widget(root)

    def show_play_code(self) -> None:
        """The match's play as the QR code of its BG Stats link, with who won."""
        from companion.frame import offer_play

        offer_play(self.host, self.title.text)

    def next_round(self) -> None:
        if self.calls.game.is_over:
            self.host.end_game()
        else:
            self.calls.next_round()

    def _row(self, cells: Sequence[str], *, heading: bool = False) -> BoxLayout:
        height = max(32.0, self.host.fs(15) * 1.45) if heading else self.row_height
        row = BoxLayout(spacing=4, size_hint_y=None, height=height)
        for (name, share), text in zip(COLUMNS, cells, strict=True):
            side = name == "Side"
            label = w("TLabel", text=text, size_hint_x=share, shorten=False,
                      halign="left" if side else "center",
                      font_size=self.host.fs(15 if heading else (17 if side else 18)),
                      color=theme.MUTED if heading else theme.TEXT, bold=not heading
                      and name in ("Rank", "Points", "Match"))
            row.add_widget(label)
        return row

    def refresh(self, events: Sequence[Event] = ()) -> None:
        look = self.model.between(events)
        self.table.clear_widgets()
        self.table.add_widget(self._row([name for name, _ in COLUMNS], heading=True))
        for row in look.rows:
            self.table.add_widget(self._row(row))
        self.title.text = look.title
        self.next_b.text = look.next
        over = self.calls.game.is_over
        self.bgstats_b.opacity, self.bgstats_b.disabled = (1, False) if over else (0, True)
        self.note.text = look.note


__all__ = ["COLUMNS", "BetweenScreen"]
