"""Looking at the Dice Forge table from Menu (Kivy): the Sanctuary with what is left, the
feats with their prices, and the module's board (Titans or the Goddess's labyrinth), in one
dialog that turns between them."""

from __future__ import annotations

from collections.abc import Sequence

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.modalview import ModalView
from kivy.uix.widget import Widget
from kivy.utils import escape_markup

from companion import theme
from companion.contract import Host
from companion.frame import MenuItem, dialog
from companion.games.dice_forge.art import face_art
from companion.games.dice_forge.faces import FacePainter
from companion.games.dice_forge.model import DiceForgeModel, feat_price, sanctuary_faces, short_card
from companion.widgets import w as _w
from rules.dice_forge.table import GODDESS, TITANS

ZONE_COLOUR = {"rebellion_a": (0.45, 0.16, 0.10, 1), "rebellion_b": (0.36, 0.20, 0.12, 1),
               "none": (0.22, 0.23, 0.27, 1), "loyalty_1": (0.10, 0.25, 0.36, 1),
               "loyalty_2": (0.08, 0.30, 0.45, 1), "loyalty_3": (0.05, 0.36, 0.55, 1)}
#: A feat no longer to be had (drawn flat, so it never looks like a live button).
OFF: theme.RGBA = (0.17, 0.18, 0.21, 1)
GAP = 4


def hex_colour(rgba: Sequence[float]) -> str:
    return "".join(f"{int(c * 255):02x}" for c in rgba[:3])


class Looks:
    """The Menu's looks at the table; ``look_view`` is the dialog open, if any."""

    def __init__(self, host: Host, model: DiceForgeModel) -> None:
        self.host = host
        self.model = model
        self.look_view: ModalView | None = None

    def _look(self, title: str, body: Widget) -> ModalView:
        """A dialog showing part of the table, with buttons to turn to the other parts."""
        turns: list[MenuItem] = [("Sanctuary", self.look_sanctuary), ("Feats", self.look_feats)]
        if self.model.game.state.module != "none":
            turns.append(("Board", self.look_board))
        self.look_view = dialog(self.host, title, body, [*turns, ("Close", lambda: None)],
                                size=(0.96, 0.94))
        return self.look_view

    def look_sanctuary(self) -> ModalView:
        left = self.model.faces_left()
        grid = GridLayout(cols=4, spacing=GAP)
        for face, cost in sanctuary_faces():
            cell = BoxLayout(spacing=4)
            caption = f"{cost} gold\n{left.get(face, 0)} left"
            if not self.model.words and face_art(face) is not None:
                picture = Widget()
                picture.painter = FacePainter(picture, face, dim=not left.get(face))
                cell.add_widget(picture)
            else:
                caption = f"{face}\n{caption}"
            cell.add_widget(_w("TLabel", text=caption, font_size=self.host.fs(14),
                               shorten=False, halign="left",
                               color=theme.TEXT if left.get(face) else theme.MUTED))
            grid.add_widget(cell)
        return self._look("Sanctuary: what is left", grid)

    def look_feats(self) -> ModalView:
        grid = GridLayout(cols=3, spacing=GAP)
        for _slot, name, sun, moon, left in self.model.game.feat_view():
            price = feat_price(sun, moon)
            grid.add_widget(_w("Panel", bg=theme.BUTTON if left else OFF, padding=(4, 2)))
            grid.children[0].add_widget(_w(
                "TLabel", text=f"{short_card(name)}\n{price} · {left} left",
                font_size=self.host.fs(14), shorten=False,
                color=theme.TEXT if left else theme.MUTED))
        return self._look("Feats: price and cards left", grid)

    def marks(self, names: Sequence[str]) -> str:
        """Heroes on a board space: their first letters (as many as tell them apart) in
        their colours."""
        s = self.model.game.state
        players = [p.name for p in s.players]
        n = 2
        while n < 16 and len({q[:n] for q in players}) < len(players):
            n += 1
        palette = self.host.settings.palette
        return " ".join(f"[color={hex_colour(theme.player_colour(palette, players.index(q)))}]"
                        f"[b]{escape_markup(q[:n])}[/b][/color]" for q in names)

    def look_board(self) -> ModalView:
        s = self.model.game.state
        fs = self.host.fs
        if s.module == "titans":
            grid = GridLayout(cols=8, spacing=2)
            for space, row in sorted(TITANS.items()):
                here = [p.name for p in s.players if p.titan == space]
                cell = _w("Panel", orientation="vertical", bg=ZONE_COLOUR.get(row[4],
                                                                              theme.PANEL))
                cell.add_widget(_w("TLabel", text=f"[b]{space}[/b]  {row[3]:+d}", markup=True,
                                   font_size=fs(16)))
                cell.add_widget(_w("TLabel", text=self.marks(here), markup=True,
                                   font_size=fs(15)))
                grid.add_widget(cell)
            return self._look("Titans: space and its glory at the end", grid)
        left = ", ".join(s.treasures_left) or "none"
        grid = GridLayout(cols=6, spacing=2)
        for space, data in sorted(GODDESS.items()):
            here = [p.name for p in s.players if p.golem == space]
            kind, _, arg = str(data.get("reward", "none")).partition(":")
            forge = f"forge -{arg} gold" if arg.strip("0") else "forge a face"  # no discount
            reward = {"celestial": f"celestial x{arg}", "forge": forge,
                      "steal": f"steal {arg}", "gain": arg, "pay": arg.replace("=", " > "),
                      "choose": arg.replace("|", " / "), "per_forged": "per forged",
                      "treasure": "treasure", "goddess": "the Goddess",
                      "none": ""}.get(kind, kind)
            hall = s.halls.get(str(space))
            if hall:
                reward = f"hall: {hall}"
            cell = _w("Panel", orientation="vertical", bg=theme.BUTTON, padding=(3, 0))
            top = BoxLayout(size_hint_y=0.4)
            top.add_widget(_w("TLabel", text=f"[b]{space}[/b]", markup=True, halign="left",
                              font_size=fs(15), size_hint_x=0.35))
            top.add_widget(_w("TLabel", text=self.marks(here), markup=True, halign="right",
                              font_size=fs(14)))
            cell.add_widget(top)
            cell.add_widget(_w("TLabel", text=escape_markup(reward), font_size=fs(11.5),
                               shorten=False, size_hint_y=0.6))
            grid.add_widget(cell)
        return self._look(f"Goddess: the labyrinth (treasures left: {left})", grid)


__all__ = ["Looks", "hex_colour"]
