"""The start screen's unfinished games: the Resume list, Drop (asked first) and Undo drop.

Import this module only after Kivy's environment is set (see ``companion.commands.start``).
"""

from __future__ import annotations

import time
from typing import Any

from kivy.clock import Clock
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView

from companion import theme
from companion.contract import AppHost
from companion.frame import confirm
from companion.games import plugins
from companion.journal import GameRecord
from companion.screens.lists import fill_list
from companion.session import NOT_SAVED, not_saved
from companion.widgets import w
from companion.words import plural

#: Seconds a dropped game can be taken back from the start screen.
UNDO_DROP_SECONDS = 20.0


def ago(seconds: float) -> str:
    """How long ago, in words (for the list of unfinished games)."""
    minutes = int(seconds // 60)
    if minutes < 1:
        return "just now"
    if minutes < 60:
        return f"{minutes} min ago"
    hours = minutes // 60
    if hours < 24:
        return f"{hours} h ago"
    days = hours // 24
    return "yesterday" if days == 1 else f"{days} days ago"


class UnfinishedGames:
    """The start screen's unfinished games (mixed into :class:`~companion.screens.start.
    StartScreen`, which builds the widgets named here): its Resume button says how many wait;
    its list resumes one, or drops it (asked first; Undo drop takes it back for
    :data:`UNDO_DROP_SECONDS`)."""

    app: AppHost
    message: Label  # the start screen's message box
    resume_button: Any
    undo_drop_button: Any
    confirm_view: ModalView | None
    unfinished_view: ModalView | None = None
    dropped: int | None = None  # the game last dropped, while it can be taken back
    _drop_timer: Any = None

    def refresh_resume(self) -> None:
        """The Resume button says how many games wait (it never moves; it is off with none)."""
        n = len(self.app.journal.unfinished())
        self.resume_button.text = f"Resume ({n})" if n else "Resume"
        self.resume_button.disabled = n == 0

    def describe(self, record: GameRecord) -> str:
        """An unfinished game in words: which game, who, how far, when."""
        plugin = plugins().get(record.setup.game)
        title = plugin.title if plugin is not None else record.setup.game
        last = record.clock.round if record.clock is not None else None
        far = plural(record.calls, "call") + (f", round {last}" if last and last > 1 else "")
        return (f"[b]{title}[/b]: {', '.join(record.setup.players)}\n"
                f"{far}, started {ago(time.time() - record.started)}")

    def show_unfinished(self) -> None:
        """Every unfinished game: Resume, or Drop (asked first)."""
        records = self.app.journal.unfinished()
        view = ModalView(size_hint=(0.94, 0.92), auto_dismiss=True)
        grid = GridLayout(cols=1, spacing=6, size_hint_y=None)
        grid.bind(minimum_height=grid.setter("height"))
        self.resume_buttons: dict[int, Any] = {}
        self.drop_buttons: dict[int, Any] = {}

        def resume(gid: int) -> None:
            view.dismiss(animation=False)
            self.app.resume_game(gid)

        def drop(gid: int) -> None:
            view.dismiss(animation=False)
            self.ask_drop(gid)

        for record in records:
            row = BoxLayout(size_hint_y=None, height=68, spacing=6)
            label = w("TLabel", text=self.describe(record), markup=True, halign="left",
                      font_size=self.app.fs(15), shorten=False)
            row.add_widget(label)
            b = w("TButton", text="Drop", size_hint_x=None, width=90,
                  on_release=lambda *_, g=record.id: drop(g))
            self.drop_buttons[record.id] = b
            row.add_widget(b)
            b = w("TBigButton", text="Resume", size_hint_x=None, width=130,
                  font_size=self.app.fs(20), on_release=lambda *_, g=record.id: resume(g))
            self.resume_buttons[record.id] = b
            row.add_widget(b)
            grid.add_widget(row)
        fill_list(view, "Unfinished games", grid)
        self.unfinished_view = view
        view.open(animation=False)

    def ask_drop(self, game_id: int) -> None:
        record = next((r for r in self.app.journal.unfinished() if r.id == game_id), None)
        if record is None:
            return
        self.confirm_view = confirm(
            self.app, "Drop this game?",
            f"{self.describe(record)}\n\nIt will no longer be offered for resume (it stays in "
            f"the history). You can take it back for {UNDO_DROP_SECONDS:.0f} s.",
            "Drop", lambda: self.discard(game_id), no="Keep it")

    def discard(self, game_id: int) -> None:
        """Stop offering a game for resume (it stays in the journal, marked finished); for a
        while, Undo drop brings it back."""
        try:
            self.app.journal.finish(game_id)
        except NOT_SAVED as e:  # a read-only or full card: said, nothing changed
            self.message.text = not_saved(e, self.app.journal)
            self.message.color = theme.DANGER
            return
        self.dropped = game_id
        self.message.text = "Game dropped."
        self.message.color = theme.MUTED
        self.undo_drop_button.width, self.undo_drop_button.opacity = 150, 1
        self.undo_drop_button.disabled = False
        if self._drop_timer is not None:
            self._drop_timer.cancel()
        self._drop_timer = Clock.schedule_once(lambda dt: self._forget_drop(),
                                               UNDO_DROP_SECONDS)
        self.refresh_resume()

    def undo_drop(self) -> None:
        if self.dropped is not None:
            try:
                self.app.journal.reopen(self.dropped)
                self.message.text = "Dropped game back: Resume it when you like."
            except NOT_SAVED as e:
                self.message.text = not_saved(e, self.app.journal)
                self.message.color = theme.DANGER
        self._forget_drop()
        self.refresh_resume()

    def _forget_drop(self) -> None:
        self.dropped = None
        self.undo_drop_button.width, self.undo_drop_button.opacity = 0, 0
        self.undo_drop_button.disabled = True


__all__ = ["UNDO_DROP_SECONDS", "UnfinishedGames", "ago"]
