"""The export panel: the games the filters let through, written to the data folder's exports/
(:class:`ExportPanel`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView

from companion import theme
from companion.history.export import export_to_folder
from companion.history.screen.pages import HistoryPages
from companion.history.screen.rows import esc
from companion.history.summary import game_title
from companion.widgets import w


def exports_folder() -> Path:
    """Where the screen writes exports: ``exports/`` in the companion's data folder."""
    from companion.paths import data_dir

    return data_dir() / "exports"


class ExportPanel(HistoryPages):
    """CSV, BG Stats, the game files: written on the worker's second thread."""

    export_view: ModalView | None
    export_text: Any  # the panel's text
    exported: list[Path]  # the files written (tests)

    def open_export(self) -> None:
        """The export panel: CSV, BG Stats, the game files; written to the data folder's
        exports/, which the panel names."""
        view = ModalView(size_hint=(0.92, 0.9), auto_dismiss=False)
        box = w("Panel", orientation="vertical", padding=10, spacing=8, bg=theme.PANEL)
        box.add_widget(w("THeading", text="Export the games shown", size_hint_y=None,
                         height=44))
        what = ", ".join(x for x in (game_title(self.game_filter) if self.game_filter else "",
                                     self.player_filter or "") if x) or "every game"
        text = Label(text="", halign="left", valign="top", font_size=self.app.fs(16),
                     color=theme.TEXT, markup=True)
        text.bind(size=lambda lab, v: setattr(lab, "text_size", (v[0] - 10, v[1])))
        text.text = (f"Games: {esc(what)}.\nFiles go to [b]{esc(str(exports_folder()))}"
                     "[/b] (copy them off with a USB stick or over the network).")
        box.add_widget(text)
        buttons = GridLayout(cols=3, spacing=6, size_hint_y=None, height=64)
        for kind, label in (("csv", "CSV"), ("bgstats", "BG Stats"), ("zip", "Game files")):
            buttons.add_widget(w("TButton", text=label,
                                 on_release=lambda *_, k=kind: self.export(k)))
        box.add_widget(buttons)
        box.add_widget(w("TButton", text="Close", size_hint_y=None, height=56,
                         on_release=lambda *_: view.dismiss(animation=False)))
        view.add_widget(box)
        self.export_view = view
        self.export_text = text
        view.open(animation=False)

    def export(self, kind: str) -> None:
        """Write the games the filters let through: ``kind`` is "csv", "bgstats" or "zip"."""
        game, player = self.game_filter, self.player_filter
        folder = exports_folder()
        self._export_say("Writing...")

        def job(path: Path) -> tuple[Path, str]:
            return export_to_folder(path, folder, kind, game, player)

        def done(result: tuple[Path, str]) -> None:
            out, what = result
            self.exported.append(out)
            self._export_say(f"Wrote {what} to [b]{esc(out.name)}[/b] in that folder.")
            self.say(f"Exported {what} to {out}")

        def failed(why: str) -> None:
            self._export_say(f"[color=#d55e00]Not written: {esc(why)}[/color]")

        self.worker.apart(job, done, failed)

    def _export_say(self, text: str) -> None:
        if self.export_text is not None:
            head = self.export_text.text.split("\n\n")[0]
            self.export_text.text = f"{head}\n\n{text}"

