"""The Tournament screen's Standings and Final pages (Kivy).
"""

from __future__ import annotations

from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label

from companion import theme
from companion.tournament.page import (
    ROW,
    Page,
    PageHost,
    column,
    para,
    scroller,
)
from companion.tournament.wording import (
    round_words,
    stage_words,
    status_words,
)
from companion.widgets import w
from rules.tournament import TIE_BREAKS


class StandingsPage(Page):
    title = "Standings"
    COLUMNS = (("#", 0.07), ("Name", 0.3), ("Pts", 0.1), ("Wins", 0.1), ("Opp", 0.1),
               ("Status", 0.33))

    def __init__(self, screen: PageHost) -> None:
        super().__init__(screen)
        head = BoxLayout(size_hint_y=None, height=34, spacing=4)
        for name, share in self.COLUMNS:
            head.add_widget(w("TLabel", text=name, size_hint_x=share, color=theme.MUTED,
                              font_size=self.app.fs(16),
                              halign="left" if name in ("Name", "Status") else "center"))
        self.root.add_widget(head)
        self.rows = column(2)
        self.root.add_widget(scroller(self.rows))
        self.note = para(self.app, "", size=15, color=theme.MUTED)
        self.root.add_widget(self.note)

    @staticmethod
    def cell(text: str, share: float, size: float, color: Any, halign: str) -> Label:
        """One cell: wraps inside its column, never runs into the next."""
        label = Label(text=text, size_hint_x=share, font_size=size, color=color,
                      halign=halign, valign="middle", markup=True)
        label.bind(size=lambda wid, v: setattr(wid, "text_size", v))
        return label

    def refresh(self) -> None:
        desk = self.hub.desk
        if desk is None:
            return
        summary = desk.summary()
        t = desk.tournament
        self.rows.clear_widgets()
        size = self.app.fs(17)
        for i, x in enumerate(summary["standings"]):
            height = max(ROW - 8, size * (2.6 if x["tiebreak"] else 1.6))
            row = w("Panel", size_hint_y=None, height=height, spacing=4,
                    bg=theme.PANEL if i % 2 == 0 else theme.BACKGROUND)
            cells = (str(x["rank"]), x["name"], str(x["points"]), str(x["wins"]),
                     str(x["opponents"]))
            for (name, share), text in zip(self.COLUMNS, cells, strict=False):
                row.add_widget(self.cell(text, share, size, theme.TEXT,
                                         "left" if name == "Name" else "center"))
            status = status_words(t, x["name"], x["status"]) + (
                f"\n[color=#f0e342]{x['tiebreak']}[/color]" if x["tiebreak"] else "")
            row.add_widget(self.cell(status, self.COLUMNS[-1][1], self.app.fs(15),
                                     theme.MUTED, "left"))
            self.rows.add_widget(row)
        state = round_words(t) + " " if summary["round"] else ""
        self.note.text = (state + "Equal points are split by " + ", then ".join(
            TIE_BREAKS[1:]) + " (the tag says which). Opp: opponents' points.")


class FinalPage(Page):
    title = "Final"

    def __init__(self, screen: PageHost) -> None:
        super().__init__(screen)
        self.lines = column(8)
        self.root.add_widget(scroller(self.lines))

    def refresh(self) -> None:
        desk = self.hub.desk
        if desk is None:
            return
        summary = desk.summary()
        t = desk.tournament
        self.lines.clear_widgets()
        add = self.lines.add_widget
        if summary["over"]:
            add(w("THeading", text=f"Winner: {summary['winner']}", size_hint_y=None,
                  height=44, color=theme.ACCENT))
            add(para(self.app, "\n".join(f"{i}. {x['name']} ({x['reached']})"
                                         for i, x in enumerate(summary["ranking"], 1))))
        if not summary["bracket"]:
            fmt = t.format
            rounds = sum(1 for r in t.rounds if r.stage in ("qualifying", "group"))
            what = "The elimination groups (A-D, then AD and BC) and the final" \
                if fmt.style == "eye-for-an-eye" else f"The final table of {fmt.final_size}"
            add(para(self.app, f"{what} are drawn from the standings after round "
                     f"{fmt.rounds} ({rounds} of {fmt.rounds} drawn so far).",
                     color=theme.MUTED))
            return
        bracket = summary["bracket"]
        for i, stage in enumerate(bracket):
            words = stage_words(stage["stage"])
            add(w("THeading", text=words[:1].upper() + words[1:], size_hint_y=None,
                  height=40))
            if not stage["groups"]:
                skipped = any(later["groups"] for later in bracket[i + 1:])
                add(para(self.app, "Not played with this many entrants." if skipped else
                         "Drawn when the round before is over.", color=theme.MUTED))
                continue
            for g in stage["groups"]:
                label = "The final" if g["group"] == "final" else f"Group {g['group']}"
                text = f"[b]{label}[/b]: {', '.join(g['members'])}"
                if g["result"]:
                    text += f"\n  result: {g['result']}"
                for tb in g["tiebreaks"]:
                    text += f"\n  tie-break: {tb}"
                if g["through"] and g["group"] != "final":
                    text += f"\n  [color=#f0e342]through: {', '.join(g['through'])}[/color]"
                if g["bye"]:
                    text += "  (bye)"
                add(para(self.app, text, size=17))
