"""One hero's panel of the Dice Forge table (Kivy), built once and updated in place from the
model's :class:`~companion.games.dice_forge.model.HeroLook`."""

from __future__ import annotations

from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget
from kivy.utils import escape_markup

from companion import theme
from companion.contract import Host
from companion.games.dice_forge.faces import FacePainter, SymbolPainter
from companion.games.dice_forge.view import RESOURCES, HeroLook
from companion.widgets import w as _w


class PlayerPanel(BoxLayout):
    """One hero at a glance, built once and updated in place: name and glory as it would count
    now (the track, the feats, the Titans: the result's figure at the end); gold, sun, moon
    (and ancient shards with Titans) with their caps; the faces up as pictures; feats, the
    module's token and the glory track as on the board."""

    def __init__(self, app: Host, seat: int, name: str, module: str, **kwargs: Any) -> None:
        super().__init__(orientation="horizontal", spacing=4, **kwargs)
        self.name = name
        colour = theme.player_colour(app.settings.palette, seat)
        self.add_widget(_w("Panel", size_hint_x=None, width=12, bg=colour))
        body = _w("Panel", orientation="vertical", padding=(6, 2), spacing=1, bg=theme.PANEL)
        self.body = body
        top = BoxLayout(size_hint_y=0.36, spacing=4)
        self.name_label = _w("TLabel", text=f"[b]{escape_markup(name)}[/b]", markup=True,
                             halign="left", font_size=app.fs(19), color=colour)
        self.glory_label = _w("TLabel", text="", markup=True, halign="right",
                              font_size=app.fs(18), size_hint_x=None, width=104)
        top.add_widget(self.name_label)
        top.add_widget(self.glory_label)
        body.add_widget(top)
        mid = BoxLayout(size_hint_y=0.30, spacing=2)
        self.res_labels: dict[str, Any] = {}
        self.symbols: list[SymbolPainter] = []
        for key in RESOURCES:
            if key == "ancient" and module != "titans":
                continue
            icon = Widget(size_hint_x=None, width=24)
            self.symbols.append(SymbolPainter(icon, key))
            label = _w("TLabel", text="", markup=True, font_size=app.fs(16), halign="left")
            self.res_labels[key] = label
            mid.add_widget(icon)
            mid.add_widget(label)
        body.add_widget(mid)
        low = BoxLayout(size_hint_y=0.34, spacing=4)
        self.die_views = [Widget(size_hint_x=None), Widget(size_hint_x=None)]
        self.die_faces = [FacePainter(v, pad=1) for v in self.die_views]
        for view in self.die_views:  # square, and no bigger than a finger needs to see
            low.bind(height=lambda _l, h, v=view: setattr(v, "width", min(h, 46)))
            low.add_widget(view)
        self.token_label = _w("TLabel", text="", font_size=app.fs(14), halign="left",
                              color=theme.MUTED)
        self.score_label = _w("TLabel", text="", font_size=app.fs(14), halign="right",
                              color=theme.MUTED, size_hint_x=None, width=76)
        low.add_widget(self.token_label)
        low.add_widget(self.score_label)
        body.add_widget(low)
        self.add_widget(body)

    def show(self, look: HeroLook, words: bool) -> None:
        self.body.bg = (0.26, 0.27, 0.21, 1) if look.active else theme.PANEL
        for symbol in self.symbols:
            symbol.set_tile(self.body.bg)
        # the glory as it counts (the track, the feats' glory, the Titans), the number the
        # result gives at the end; the track's own, as on the board, under it
        self.glory_label.text = f"[b]{look.score:,}[/b] glory"
        for key, have, cap in look.reserves:
            self.res_labels[key].text = f"[b]{have}[/b]/{cap}"
        self.token_label.text = look.token
        self.score_label.text = f"track {look.glory:,}"
        for view, painter, face in zip(self.die_views, self.die_faces, look.faces_up,
                                       strict=True):
            painter.show(None if words else face)
            view.face = face  # what the picture shows, in words (tests and checks)
        self.dice_label_text = f"die 1: {look.faces_up[0]}   die 2: {look.faces_up[1]}"

    def numbers(self) -> dict[str, int]:
        """The figures on show, read back from the labels' text (for tests and checks)."""
        out: dict[str, int] = {}
        for key, label in self.res_labels.items():
            out[key] = int(label.text.split("[b]")[1].split("[/b]")[0])
            out[f"{key}_cap"] = int(label.text.rsplit("/", 1)[1])
        out["glory"] = int(self.score_label.text.rsplit(" ", 1)[1].replace(",", ""))
        out["score"] = int(self.glory_label.text.split("[b]")[1].split("[/b]")[0]
                           .replace(",", ""))
        return out


__all__ = ["PlayerPanel"]
