"""One game opened from the list: its final standings, then call by call (:class:`GameReplay`)."""

from __future__ import annotations

from dataclasses import dataclass

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.slider import Slider

from companion import theme
from companion.history.index import History
from companion.history.replayer import Replayer, Step
from companion.history.screen.pages import HistoryPages
from companion.history.screen.rows import counted, esc, scrolling
from companion.history.summary import GameSummary, game_title
from companion.history.text import minutes, state
from companion.widgets import fmt_clock_at, w
from companion.words import thousands


@dataclass(frozen=True)
class Opened:
    """One game opened: its summary and where its replay stands (None: it does not replay)."""

    summary: GameSummary
    step: Step | None
    problem: str


class GameReplay(HistoryPages):
    """One game: its standings after any call, stepped through forwards and back (or a jump
    with the slider), and "Resume" when it is unfinished."""

    opened: Opened | None
    _replayer: Replayer | None  # lives on the worker's thread
    _want_step: int  # the call to step to (-1: the last)
    _table_shape: tuple[int, int, bool] | None  # the standings' cells

    def _build_game(self) -> None:
        fs = self.app.fs
        self.game_view = BoxLayout(orientation="vertical", spacing=4)
        self.game_info = w("TLabel", text="", size_hint_y=None, height=fs(16) * 1.5,
                           font_size=fs(16), halign="left", markup=True)
        self.game_view.add_widget(self.game_info)
        self.table = GridLayout(cols=1, spacing=2)
        self.game_view.add_widget(scrolling(self.table))
        # as tall as the call and what it did (up to 3 lines at the largest text size)
        self.step_label = Label(text="", markup=True, halign="left", valign="middle",
                                font_size=fs(16), color=theme.TEXT, size_hint_y=None,
                                height=fs(16) * 2.8)
        self.step_label.bind(
            width=lambda lab, v: setattr(lab, "text_size", (v - 8, None)),
            texture_size=lambda lab, v: setattr(lab, "height", max(fs(16) * 2.8, v[1] + 4)))
        self.game_view.add_widget(self.step_label)
        controls = BoxLayout(size_hint_y=None, height=58, spacing=6)
        self.first_button = w("TButton", text="<<", size_hint_x=None, width=64, bold=True,
                              on_release=lambda *_: self.step_to(0))
        self.back_step = w("TButton", text="<", size_hint_x=None, width=64, bold=True,
                           on_release=lambda *_: self.step_by(-1))
        self.slider = Slider(min=0, max=1, value=1, step=1, cursor_size=(36, 36))
        self.slider.bind(value=lambda *_: self._slid())
        self.next_step = w("TButton", text=">", size_hint_x=None, width=64, bold=True,
                           on_release=lambda *_: self.step_by(+1))
        self.last_button = w("TButton", text=">>", size_hint_x=None, width=64, bold=True,
                             on_release=lambda *_: self.step_to(None))
        self.resume_button = w("TBigButton", text="Resume", size_hint_x=None, width=130,
                               font_size=fs(20), on_release=lambda *_: self.resume())
        for widget in (self.first_button, self.back_step, self.slider, self.next_step,
                       self.last_button, self.resume_button):
            controls.add_widget(widget)
        self.game_view.add_widget(controls)

    def open_game(self, game_id: int) -> None:
        """Open one game: its summary and final standings, ready to step through."""
        self.say(f"Opening game {game_id}...")
        self._want_step = -1  # the end

        def job(h: History) -> Opened:
            summary = h.game(game_id)
            record = h.journal.load(game_id)
            try:
                self._replayer = Replayer(record.setup, record.entries)
            except Exception as e:  # a setup that no longer starts a game
                self._replayer = None
                return Opened(summary, None, f"it does not replay: {e}")
            replayer = self._replayer
            return Opened(summary, replayer.goto(replayer.total), replayer.problem)

        self.worker.read(job, self._show_game, self.failed(f"Game {game_id} could not be read"))

    def _show_game(self, opened: Opened) -> None:
        self.opened = opened
        self.view = "game"
        self._show_body()
        g = opened.summary
        self.heading.text = f"Game {g.id}: {game_title(g.game)}"
        winner = f", [b]{esc(g.winner)} won[/b]" if g.winner else ""
        self.game_info.text = (f"{g.date}, {minutes(g.duration)}, {counted(g.calls, 'call')}, "
                               f"{state(g)}{winner}")
        self.resume_button.disabled = not g.can_resume
        self.resume_button.opacity = 1 if g.can_resume else 0
        self.resume_button.width = 130 if g.can_resume else 0
        self.say(f"Game {g.id}: {opened.problem}" if opened.problem else "",
                 problem=bool(opened.problem))
        step = opened.step
        for widget in (self.first_button, self.back_step, self.slider, self.next_step,
                       self.last_button):
            widget.disabled = step is None or step.total == 0
        self._quiet = True
        self.slider.max = max(1, step.total if step else 1)
        self._quiet = False
        self._show_step(step)

    def step_by(self, calls: int) -> None:
        step = self.opened.step if self.opened else None
        if step is not None:
            self.step_to(step.index + calls)

    def step_to(self, index: int | None) -> None:
        """Go to after ``index`` calls (None: the last), on the worker's thread; a burst of
        requests (the slider dragged) is worked out once, for the last."""
        if self.opened is None or self.opened.step is None:
            return
        self._want_step = -1 if index is None else max(0, index)

        def job(h: History) -> Step | None:
            replayer = self._replayer
            if replayer is None:
                return None
            want = self._want_step
            target = replayer.total if want < 0 else min(want, replayer.total)
            if target == replayer.position:
                return replayer.step()
            return replayer.goto(target)

        self.worker.read(job, self._stepped, self.failed("The replay stopped"))

    def _slid(self) -> None:
        if not self._quiet:
            self.step_to(int(self.slider.value))

    def _stepped(self, step: Step | None) -> None:
        if step is None or self.opened is None:
            return
        self.opened = Opened(self.opened.summary, step, self.opened.problem)
        self._show_step(step)

    def _show_step(self, step: Step | None) -> None:
        if step is None:
            self.table.clear_widgets()
            self.step_label.text = ""
            return
        standings = step.standings
        columns = standings.columns
        # columns as wide as their cells (a long heading wraps onto a second line)
        widths = [2 + min(40, max(4, *(len(r[i]) for r in standings.rows),
                                  *(len(word) for word in columns[i].split())))
                  for i in range(len(columns))]
        height = self.app.fs(16) * 1.5
        wraps = any(len(c) + 2 > width for c, width in zip(columns, widths, strict=True))
        cells = [(row_index, i, thousands(cell))  # numbers as the game's screen wrote them
                 for row_index, row in enumerate((columns, *standings.rows))
                 for i, cell in enumerate(row)]
        shape = (len(columns), len(cells), wraps)
        if shape == self._table_shape and len(self.table.children) == len(
                cells):  # the same table, a call later or earlier: only its texts change
            for label, (_, i, cell) in zip(reversed(self.table.children), cells, strict=True):
                label.text = cell
                label.size_hint_x = widths[i]
        else:
            self.table.clear_widgets()
            self.table.cols = max(1, len(columns))
            for row_index, i, cell in cells:
                label = w("TLabel", text=cell, size_hint_x=widths[i], size_hint_y=None,
                          height=height, font_size=self.app.fs(16 if row_index else 15),
                          bold=row_index == 0, halign="left" if i == 0 else "center",
                          color=theme.MUTED if row_index == 0 else theme.TEXT)
                if row_index == 0 and wraps:
                    label.shorten = False
                    label.height = self.app.fs(15) * 2.6
                self.table.add_widget(label)
        self._table_shape = shape
        if step.entry is None:
            said = f"The start: {step.total} calls to step through" if step.total else \
                "No calls were made in this game"
        else:
            at = fmt_clock_at(step.entry.at)
            did = "; ".join(e.text for e in step.events if e.text and e.text != step.entry.call)
            said = (f"[b]Call {step.index} of {step.total}[/b]" + (f" ({at})" if at else "")
                    + f": {esc(step.entry.call)}" + (f"\n{esc(did)}" if did else ""))
        self.step_label.text = said
        self.first_button.disabled = self.back_step.disabled = step.at_start
        self.next_step.disabled = self.last_button.disabled = step.at_end
        self._quiet = True
        self.slider.value = step.index
        self._quiet = False

    def resume(self) -> None:
        """Take up the opened game where it was left."""
        if self.opened is None or not self.opened.summary.can_resume:
            return
        gid = self.opened.summary.id
        if self.app.resume_game(gid) is None:
            self.show_view("games")
            self.say(f"Game {gid} cannot be resumed: the notice says why.", problem=True)
            self.load()

