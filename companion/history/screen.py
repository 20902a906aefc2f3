"""The History screen on the table (Kivy): every game, one game call by call, statistics drawn
as charts, the dice's fairness, and export to a folder the players can reach.

Opened from the start screen's "History" button (``app.show("history")``, built the first
time: :class:`companion.contract.AppScreens`; it sees the app as an
:class:`~companion.contract.AppHost`). Four tabs under one pair of filters (a game, a
player; touch only):

- **Games**: every game, newest first, 10 to a page: game, winner (or "unfinished"), date,
  players, length and calls. A tap opens one: its final standings, then call by call
  (forwards, back, or a jump with the slider), and "Resume" when it is unfinished.
- **Players**: games, wins, win rates and streaks; a chart of win rates (one player: per
  game), or of scores game after game once a game is chosen.
- **Per game**: plays, length, players, winning scores; a chart of lengths, or, for one game,
  of each character / tribe / objective / card played and won.
- **Dice**: each group of dice the camera read, its face shares with 95% intervals and the
  fairness verdict in words.

Everything that reads the journal runs on the screen's own thread (:class:`Worker`: the
index's refresh, a page of games, the statistics, a replay) and comes back through
``Clock.schedule_once``; exports and the dice verdicts run on a second thread. The dice
verdicts are worked out by ``companion stats --dice --json`` in a child process, so the app
never loads scipy (~28 MB); the charts are drawn with Kivy's own graphics
(:mod:`companion.history.drawn`), so it never loads matplotlib (~50 MB). Both measured:
docs/history.md.

Import this module only after Kivy's environment is set (see ``companion.commands.start``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

from kivy.clock import Clock
from kivy.graphics import Color, Rectangle
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView
from kivy.uix.screenmanager import Screen
from kivy.uix.scrollview import ScrollView
from kivy.uix.slider import Slider
from kivy.uix.widget import Widget

from companion import theme
from companion.contract import AppHost
from companion.history import chartdata
from companion.history.drawn import ChartView
from companion.history.export import export_to_folder
from companion.history.fairness import Fairness, verdicts_apart
from companion.history.index import History
from companion.history.replayer import Replayer, Step
from companion.history.stats import Statistics, statistics
from companion.history.summary import GameSummary, game_title
from companion.history.text import minutes, number, percent, state
from companion.widgets import fmt_clock_at, w
from companion.words import thousands

T = TypeVar("T")

#: Games to a page of the list (two screens' worth: every row costs a moment to draw).
PAGE = 10
#: Games of one game in its scores chart (the newest).
SCORES_GAMES = 30
ALL_GAMES = "All games"
ALL_PLAYERS = "All players"
TABS = (("games", "Games"), ("players", "Players"), ("per-game", "Per game"), ("dice", "Dice"))


class Worker:
    """The history's own threads. Jobs on the first get the screen's :class:`History` (its own
    connection to the journal) one at a time, in order; jobs on the second (exports, the dice
    verdicts: seconds, not milliseconds) get the journal's path. Results and failures come back
    to the main thread through ``Clock.schedule_once``. ``busy`` counts jobs not yet back."""

    def __init__(self, path: Path, readonly: str = "") -> None:
        self.path = path
        self.readonly = readonly  # the app's journal takes no writes: nor does the index
        self._reads = ThreadPoolExecutor(1, thread_name_prefix="history")
        self._slow = ThreadPoolExecutor(1, thread_name_prefix="history-slow")
        self._history: History | None = None  # made and used on the first thread only
        self.busy = 0
        self.closed = False

    def read(self, job: Callable[[History], T], done: Callable[[T], None],
             failed: Callable[[str], None]) -> None:
        def task() -> T:
            if self._history is None:
                self._history = History(self.path, readonly=self.readonly)
            return job(self._history)

        self._submit(self._reads, task, done, failed)

    def apart(self, job: Callable[[Path], T], done: Callable[[T], None],
              failed: Callable[[str], None]) -> None:
        self._submit(self._slow, lambda: job(self.path), done, failed)

    def _submit(self, pool: ThreadPoolExecutor, task: Callable[[], T],
                done: Callable[[T], None], failed: Callable[[str], None]) -> None:
        self.busy += 1

        def back(ok: bool, result: Any) -> None:
            self.busy -= 1
            if ok:
                done(result)
            else:
                failed(result)

        def run() -> None:
            try:
                result: Any = task()
                ok = True
            except Exception as e:  # shown on the screen, never lost in a thread
                result, ok = f"{e}" or type(e).__name__, False
            Clock.schedule_once(lambda dt: back(ok, result))

        pool.submit(run)

    def close(self) -> None:
        """Let the threads finish what they have (idempotent); the history's connection is
        closed on its own thread."""
        if self.closed:
            return
        self.closed = True

        def shut() -> None:
            if self._history is not None:
                self._history.close()

        self._reads.submit(shut)
        self._reads.shutdown(wait=False)
        self._slow.shutdown(wait=False)


@dataclass(frozen=True)
class Page:
    """What the list shows: the games played here, one page of games."""

    games: tuple[str, ...]
    total: int
    offset: int
    page: tuple[GameSummary, ...]
    refreshed: int


@dataclass(frozen=True)
class Opened:
    """One game opened: its summary and where its replay stands (None: it does not replay)."""

    summary: GameSummary
    step: Step | None
    problem: str


class Row(ButtonBehavior, BoxLayout):
    """A row of the lists: a title line (with a right-hand note) and a muted second line that
    wraps onto more lines when it must (six long names at the largest text); a tap anywhere on
    it does ``on_tap``. At least one touch target tall. A row is used again for the next page
    or the next statistics (:meth:`update`): only the texts that change are laid out again."""

    def __init__(self, app: AppHost, title: str, note: str, second: str,
                 on_tap: Callable[[], None], *, chosen: bool = False) -> None:
        big, small = app.fs(18), app.fs(15)
        self.line_height = 1.3 * big
        self.small = small
        super().__init__(orientation="vertical", padding=(10, 4), spacing=0, size_hint_y=None,
                         height=max(theme.TOUCH + 8, 1.3 * (big + small) + 10))
        self.title_label = w("TLabel", text=title, markup=True, halign="left", font_size=big)
        # as wide as its words: the title gives way (it is cut short), the note never
        self.note_label = Label(text=note, markup=True, font_size=small, size_hint_x=None)
        self.note_label.bind(texture_size=lambda lab, v: setattr(lab, "width", v[0] + 4))
        self.line = BoxLayout(spacing=8, size_hint_y=None, height=self.line_height)
        self.line.add_widget(self.title_label)
        self.add_widget(self.line)
        # a plain Label (TLabel's rule keeps its text to one line, shortened)
        self.second_label = Label(text=second, markup=True, halign="left", valign="top",
                                  font_size=small, size_hint_y=None, height=1.3 * small)
        self.second_label.bind(
            width=lambda lab, v: setattr(lab, "text_size", (v, None)),
            texture_size=lambda lab, v: setattr(lab, "height", max(v[1], 1.3 * small)))
        self.second_label.bind(height=self._grow)
        self.add_widget(self.second_label)
        with self.canvas.before:
            self.paint = Color(*theme.PANEL)
            self.back = Rectangle(pos=self.pos, size=self.size)
        self.bind(pos=self._place, size=self._place, state=self._pressed)
        self.on_tap = on_tap
        self.bind(on_release=lambda *_: self.on_tap())
        self.update(title, note, second, on_tap, chosen=chosen)

    def update(self, title: str, note: str, second: str, on_tap: Callable[[], None], *,
               chosen: bool = False) -> None:
        """Show another game, player or group of dice in this row."""
        self.title_label.text = title
        self.note_label.text = note
        self.second_label.text = second
        shows_note = self.note_label.parent is not None
        if note and not shows_note:
            self.line.add_widget(self.note_label)
        elif not note and shows_note:
            self.line.remove_widget(self.note_label)
        muted = theme.TEXT if chosen else theme.MUTED
        self.note_label.color = self.second_label.color = muted
        self.base = theme.SELECT if chosen else theme.PANEL
        self.paint.rgba = self.base
        self.on_tap = on_tap

    def _grow(self, _label: Any, height: float) -> None:
        self.height = max(theme.TOUCH + 8, self.line_height + height + 10)

    def _place(self, *_: Any) -> None:
        self.back.pos, self.back.size = self.pos, self.size

    def _pressed(self, _row: Any, value: str) -> None:
        self.paint.rgba = theme.BUTTON if value == "down" else self.base


RowText = tuple[str, str, str, Callable[[], None], bool]  # title, note, second, on_tap, chosen


def fill_rows(app: AppHost, grid: Any, rows: list[RowText]) -> None:
    """Show ``rows`` in ``grid``, top to bottom, using its :class:`Row` widgets again (their
    texts changed in place; rows not needed now are kept aside for later) and making only
    the ones missing."""
    spare: list[Row] = grid.__dict__.setdefault("spare_rows", [])
    have = [c for c in reversed(grid.children) if isinstance(c, Row)]
    for c in list(grid.children):
        if not isinstance(c, Row):
            grid.remove_widget(c)
    for row in have[len(rows):]:
        grid.remove_widget(row)
        spare.append(row)
    for i, (title, note, second, on_tap, chosen) in enumerate(rows):
        if i < len(have):
            have[i].update(title, note, second, on_tap, chosen=chosen)
        elif spare:
            row = spare.pop()
            row.update(title, note, second, on_tap, chosen=chosen)
            grid.add_widget(row)
        else:
            grid.add_widget(Row(app, title, note, second, on_tap, chosen=chosen))


class ClipScroll(ScrollView):
    """Kivy's ScrollView, its content clipped by the GL scissor instead of the stencil buffer
    (the same scrolling, touch and bars). A rectangle needs no stencil, and the stencil is
    dear on a software rasteriser: on this machine's Mesa llvmpipe its first use costs ~70 MB
    of memory, a scissor ~3 MB (measured: docs/history.md). When Kivy's canvas for the
    ScrollView is not the one expected, the stencil stays."""

    def __init__(self, **kwargs: Any) -> None:
        from kivy.graphics.scissor_instructions import ScissorPop, ScissorPush

        super().__init__(**kwargs)
        # One bar colour, never faded: a fade redraws the whole window ~30 times, and on the
        # software GL here that grew the memory by ~60 MB the first time (measured).
        self.bar_color = self.bar_inactive_color = [*theme.MUTED[:3], 0.8]
        before, after = self.canvas.before, self.canvas.after
        stencil_in = ["StencilPush", "BindTexture", "Rectangle", "StencilUse"]
        stencil_out = ["StencilUnUse", "BindTexture", "Rectangle", "StencilPop"]
        self.clipped = ([type(c).__name__ for c in before.children] == stencil_in
                        and [type(c).__name__ for c in after.children[:4]] == stencil_out)
        if not self.clipped:
            return
        before.clear()
        for instruction in list(after.children[:4]):
            if type(instruction).__name__ != "BindTexture":  # goes with its Rectangle
                after.remove(instruction)
        self._scissor = ScissorPush(x=0, y=0, width=1, height=1)
        before.add(self._scissor)
        after.insert(0, ScissorPop())
        self.bind(pos=self._clip, size=self._clip)

    def _clip(self, *_: Any) -> None:
        x, y = self.to_window(self.x, self.y)
        self._scissor.x, self._scissor.y = int(x), int(y)
        self._scissor.width, self._scissor.height = int(self.width), int(self.height)


def _scroll(inner: Any) -> ScrollView:
    inner.size_hint_y = None
    inner.bind(minimum_height=inner.setter("height"))
    view = ClipScroll(do_scroll_x=False, bar_width=8, scroll_type=["bars", "content"])
    view.add_widget(inner)
    return view


def _text_pane(app: AppHost) -> tuple[ScrollView, Label]:
    """A scrolling pane of wrapped text."""
    label = Label(text="", markup=True, halign="left", valign="top", font_size=app.fs(16),
                  color=theme.TEXT, size_hint_y=None, padding=(8, 6))
    label.bind(width=lambda lab, v: setattr(lab, "text_size", (v, None)),
               texture_size=lambda lab, v: setattr(lab, "height", v[1]))
    view = ClipScroll(do_scroll_x=False, bar_width=8)
    view.add_widget(label)
    return view, label


def _count(n: int, what: str) -> str:
    """``"1 game"``, ``"3 games"``."""
    return f"{n:,} {what}{'' if n == 1 else 's'}"


def _esc(text: str) -> str:
    """Text shown with markup on: names cannot start markup."""
    return text.replace("&", "&amp;").replace("[", "&bl;").replace("]", "&br;")


def exports_folder() -> Path:
    """Where the screen writes exports: ``exports/`` in the companion's data folder."""
    from companion.paths import data_dir

    return data_dir() / "exports"


class HistoryScreen(Screen):
    """The History screen (see the module docstring)."""

    def __init__(self, app: AppHost, **kwargs: Any) -> None:
        super().__init__(name="history", **kwargs)
        self.app = app
        self.worker = Worker(app.journal.path, app.journal.readonly)
        self.game_filter: str | None = None
        self.player_filter: str | None = None
        self.view = "games"
        self.offset = 0
        self.total = 0
        self.page: tuple[GameSummary, ...] = ()
        self.titles: dict[str, str] = {}  # game title -> short name
        self.stats: Statistics | None = None
        self.stats_for: tuple[str | None, str | None] | None = None
        self.recent: tuple[GameSummary, ...] = ()  # the newest games of one game (scores)
        self.show_scores = False
        self.dice: tuple[Fairness, ...] | None = None
        self.dice_choice = 0
        self.opened: Opened | None = None
        self._replayer: Replayer | None = None  # lives on the worker's thread
        self._want_step = 0
        self._quiet = False  # filters being set by the screen, not by a tap
        self._table_shape: tuple[int, int, bool] | None = None  # the standings' cells
        self.loads = 0  # pages shown so far (tests)
        self.export_view: ModalView | None = None
        self.export_text: Any = None
        self.exported: list[Path] = []
        app.add_stop_listener(self._stopping)

        fs = app.fs
        root = w("Panel", orientation="vertical", padding=6, spacing=4, bg=theme.BACKGROUND)
        self.top_bar = BoxLayout(size_hint_y=None, height=52, spacing=6)
        self.heading = w("THeading", text="History", size_hint_x=None, width=fs(22) * 4.8)
        self.game_spin = w("TSpinner", text=ALL_GAMES, values=[ALL_GAMES])
        self.player_spin = w("TSpinner", text=ALL_PLAYERS, values=[ALL_PLAYERS],
                             size_hint_x=0.8)
        for spinner in (self.game_spin, self.player_spin):  # dozens of names: made when opened
            spinner.lazy_options = True
        self.export_button = w("TButton", text="Export", size_hint_x=None, width=110,
                               on_release=lambda *_: self.open_export())
        self.back_button = w("TButton", text="Back", size_hint_x=None, width=100,
                             on_release=lambda *_: self.go_back())
        root.add_widget(self.top_bar)
        self.tabs_row = BoxLayout(size_hint_y=None, height=50, spacing=4)
        self.tabs: dict[str, Any] = {}
        for key, text in TABS:
            b = w("TButton", text=text, on_release=lambda *_, k=key: self.show_view(k))
            self.tabs[key] = b
            self.tabs_row.add_widget(b)
        root.add_widget(self.tabs_row)
        self.body = BoxLayout()
        root.add_widget(self.body)
        self.status = w("TLabel", text="", size_hint_y=None, height=0,
                        font_size=fs(15), color=theme.MUTED, halign="left")
        root.add_widget(self.status)
        self.add_widget(root)
        self._build_list()
        self._build_stats()
        self._build_game()
        self.game_spin.bind(text=lambda *_: self._filters_changed())
        self.player_spin.bind(text=lambda *_: self._filters_changed())

    # -- building --------------------------------------------------------------------------

    def _build_list(self) -> None:
        fs = self.app.fs
        self.list_view = BoxLayout(orientation="vertical", spacing=4)
        pager = BoxLayout(size_hint_y=None, height=50, spacing=6)
        self.newer = w("TButton", text="Newer", size_hint_x=None, width=120,
                       on_release=lambda *_: self.turn(-1))
        self.older = w("TButton", text="Older", size_hint_x=None, width=120,
                       on_release=lambda *_: self.turn(+1))
        self.page_label = w("TLabel", text="", font_size=fs(16), color=theme.MUTED)
        pager.add_widget(self.newer)
        pager.add_widget(self.page_label)
        pager.add_widget(self.older)
        self.list_view.add_widget(pager)
        self.rows = GridLayout(cols=1, spacing=4)
        self.list_view.add_widget(_scroll(self.rows))

    def _build_stats(self) -> None:
        self.stats_view = BoxLayout(spacing=6)
        self.left = BoxLayout(orientation="vertical", size_hint_x=0.42)
        self.stat_rows = GridLayout(cols=1, spacing=4)
        self.stat_list = _scroll(self.stat_rows)
        self.card, self.card_text = _text_pane(self.app)
        right = BoxLayout(orientation="vertical", spacing=4, size_hint_x=0.58)
        self.chart = ChartView(self.app.fs)
        right.add_widget(self.chart)
        self.chart_switch = BoxLayout(size_hint_y=None, height=50, spacing=4)
        self.rates_button = w("TButton", text="Win rates",
                              on_release=lambda *_: self.set_scores(False))
        self.scores_button = w("TButton", text="Scores",
                               on_release=lambda *_: self.set_scores(True))
        self.chart_switch.add_widget(self.rates_button)
        self.chart_switch.add_widget(self.scores_button)
        right.add_widget(self.chart_switch)
        self.stats_view.add_widget(self.left)
        self.stats_view.add_widget(right)

    def _build_game(self) -> None:
        fs = self.app.fs
        self.game_view = BoxLayout(orientation="vertical", spacing=4)
        self.game_info = w("TLabel", text="", size_hint_y=None, height=fs(16) * 1.5,
                           font_size=fs(16), halign="left", markup=True)
        self.game_view.add_widget(self.game_info)
        self.table = GridLayout(cols=1, spacing=2)
        self.game_view.add_widget(_scroll(self.table))
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

    # -- entering, leaving, filters ---------------------------------------------------------

    @property
    def busy(self) -> bool:
        """True while anything asked of the history is still being worked out."""
        return self.worker.busy > 0

    def _stopping(self) -> None:
        self.worker.close()

    def on_leave(self, *args: Any) -> None:
        """Players leave the history for the start screen or a game: the screen lets go of
        its thread, its connection and its widgets (built again when next opened; the
        table's memory goes to the game and the camera)."""
        self.worker.close()
        self.app.remove_stop_listener(self._stopping)
        Clock.schedule_once(lambda dt: self.app.drop_screen(self.name))

    def on_pre_enter(self, *args: Any) -> None:
        if self.view == "game":
            self.view = "games"
        self._show_body()
        self.load()

    def say(self, text: str, problem: bool = False) -> None:
        """A line at the bottom of the screen (none when there is nothing to say)."""
        self.status.text = text
        self.status.color = theme.DANGER if problem else theme.MUTED
        self.status.height = self.app.fs(15) * 1.6 if text else 0

    def failed(self, what: str) -> Callable[[str], None]:
        return lambda why: self.say(f"{what}: {why}", problem=True)

    def go_back(self) -> None:
        """From one game back to the list; from the list and the statistics to the start."""
        if self.view == "game":
            self.show_view("games")
        else:
            self.app.show("start")

    def _filters_changed(self) -> None:
        if self._quiet:
            return
        game = self.game_spin.text
        player = self.player_spin.text
        self.game_filter = None if game == ALL_GAMES else self.titles.get(game, game)
        self.player_filter = None if player == ALL_PLAYERS else player
        self.offset = 0
        self.show_scores = self.show_scores and self.game_filter is not None
        self.load()

    def set_filters(self, game: str | None = None, player: str | None = None) -> None:
        """Choose the filters as a tap on a spinner would (game: short name)."""
        self._quiet = True
        self.game_spin.text = ALL_GAMES if game is None else game_title(game)
        self.player_spin.text = ALL_PLAYERS if player is None else player
        self._quiet = False
        self._filters_changed()

    # -- the list -------------------------------------------------------------------------------

    def load(self) -> None:
        """Bring the index up to date and show the current page (and then the tab's data)."""
        game, player, offset = self.game_filter, self.player_filter, self.offset
        self.say("Reading the history...")

        def progress(done: int, total: int) -> None:
            Clock.schedule_once(lambda dt: self.say(
                f"Reading games into the history: {done:,} of {total:,} (once)"))

        def job(h: History) -> Page:
            refreshed = h.refresh(progress)
            return Page(tuple(h.game_names()), h.count(game, player), offset,
                        tuple(h.games(game, player, limit=PAGE, offset=offset)), refreshed)

        self.worker.read(job, self._show_page, self.failed("The history could not be read"))
        if not self.player_spin.values[1:]:  # the players, for their filter: after the page

            def names(h: History) -> tuple[str, ...]:
                return tuple(h.players())

            self.worker.read(names, self._show_players,
                             self.failed("The players could not be read"))
        if self.view in ("players", "per-game"):
            self.load_stats()
        elif self.view == "dice" and self.dice is None:
            self.load_dice()

    def _show_players(self, players: tuple[str, ...]) -> None:
        self.player_spin.values = [ALL_PLAYERS, *players]

    def _show_page(self, page: Page) -> None:
        self.loads += 1
        self.titles = {game_title(g): g for g in page.games}
        self._quiet = True
        self.game_spin.values = [ALL_GAMES, *self.titles]
        self._quiet = False
        self.total, self.offset, self.page = page.total, page.offset, page.page
        fill_rows(self.app, self.rows, [self._game_row(g) for g in page.page])
        if not page.page:
            self.rows.add_widget(w("TLabel", text=self._nothing(), size_hint_y=None,
                                   height=60, color=theme.MUTED))
        first = page.offset + 1 if page.page else 0
        self.page_label.text = (f"Games {first:,}-{page.offset + len(page.page):,} of "
                                f"{page.total:,}")
        self.newer.disabled = page.offset <= 0
        self.older.disabled = page.offset + len(page.page) >= page.total
        if self.status.text.startswith("Reading"):
            self.say("")

    def _nothing(self) -> str:
        what = " of " + game_title(self.game_filter) if self.game_filter else ""
        who = f" with {self.player_filter}" if self.player_filter else ""
        return f"No games{what}{who} yet." if what or who else \
            "No games yet: every game played here is kept."

    def _game_row(self, g: GameSummary) -> RowText:
        if g.error:
            result = "[color=#d55e00]does not replay[/color]"
        elif g.can_resume:
            result = "[color=#f0e442]unfinished[/color]"
        elif g.winner:
            result = f"{_esc(g.winner)} won"
        else:
            result = state(g)
        players = ", ".join(_esc(p.player) for p in g.players)
        return (f"[b]{_esc(game_title(g.game))}[/b]  {result}", g.date,
                f"{players}  -  " + _whole(f"{minutes(g.duration)}, {g.calls} calls"),
                partial(self.open_game, g.id), False)

    def turn(self, pages: int) -> None:
        """Newer (-1) or older (+1) games."""
        self.offset = max(0, self.offset + pages * PAGE)
        self.load()

    # -- tabs -------------------------------------------------------------------------------------

    def show_view(self, view: str) -> None:
        self.view = view
        self._show_body()
        if view in ("players", "per-game"):
            self.load_stats()
        elif view == "dice":
            self.load_dice()

    def _show_body(self) -> None:
        view = self.view
        self.body.clear_widgets()
        in_game = view == "game"
        self.tabs_row.disabled = in_game
        self.tabs_row.opacity = 0 if in_game else 1
        self.tabs_row.height = 0 if in_game else 50
        for key, b in self.tabs.items():
            b.background_color = theme.SELECT if key == view else theme.BUTTON
        self.top_bar.clear_widgets()
        shown: list[Widget] = [self.heading, self.back_button] if in_game else [
            self.heading, self.game_spin, self.player_spin, self.export_button,
            self.back_button]
        for widget in shown:
            self.top_bar.add_widget(widget)
        self.heading.size_hint_x = 1 if in_game else None
        if not in_game:
            self.heading.width = self.app.fs(22) * 4.8
        if in_game:
            self.body.add_widget(self.game_view)
            return
        self.heading.text = "History"
        if view == "games":
            self.body.add_widget(self.list_view)
        else:
            self.body.add_widget(self.stats_view)
            self._draw_stats()

    # -- statistics -------------------------------------------------------------------------

    def load_stats(self) -> None:
        key = (self.game_filter, self.player_filter)
        if self.stats is not None and self.stats_for == key:
            self._draw_stats()
            return
        self.chart.show(None, "Working out the statistics...")
        game, player = key

        def job(h: History) -> tuple[Statistics, tuple[GameSummary, ...]]:
            h.refresh()
            recent = tuple(h.games(game, player, limit=SCORES_GAMES)) if game else ()
            return statistics(h, game=game, player=player), recent

        def done(result: tuple[Statistics, tuple[GameSummary, ...]]) -> None:
            if key != (self.game_filter, self.player_filter):
                return  # the filters changed meanwhile: their own job follows
            self.stats, self.recent = result
            self.stats_for = key
            self._draw_stats()

        self.worker.read(job, done, self.failed("The statistics could not be worked out"))

    def set_scores(self, on: bool) -> None:
        self.show_scores = on
        self._draw_stats()

    def _draw_stats(self) -> None:
        view = self.view
        if view not in ("players", "per-game", "dice"):
            return
        self.left.clear_widgets()
        switch = view == "players" and self.game_filter is not None
        self.chart_switch.disabled = not switch
        self.chart_switch.opacity = 1 if switch else 0
        self.chart_switch.height = 50 if switch else 0
        self.rates_button.background_color = theme.BUTTON if self.show_scores else theme.SELECT
        self.scores_button.background_color = theme.SELECT if self.show_scores else theme.BUTTON
        if view == "dice":
            self._draw_dice()
            return
        stats = self.stats
        if stats is None or self.stats_for != (self.game_filter, self.player_filter):
            self.chart.show(None, "Working out the statistics...")
            return
        if view == "players":
            self._draw_players(stats)
        else:
            self._draw_games(stats)

    def _draw_players(self, stats: Statistics) -> None:
        one = stats.player(self.player_filter) if self.player_filter else None
        if self.player_filter is not None:
            fill_rows(self.app, self.stat_rows, [])
            self.left.add_widget(self.card)
            self.card_text.text = self._player_card(one) if one else (
                f"{_esc(self.player_filter)} has no games here"
                + (f" of {game_title(self.game_filter)}" if self.game_filter else "") + ".")
        else:
            self.left.add_widget(self.stat_list)
            fill_rows(self.app, self.stat_rows, [(
                f"[b]{_esc(p.player)}[/b]", "",
                (f"{percent(p.win_rate)}: " if p.games else "")
                + f"{p.wins} of {_count(p.games, 'game')}, streak {p.streak.text()}",
                partial(self.set_filters, self.game_filter, p.player), False)
                for p in stats.players])
            if not stats.players:
                self.left.add_widget(w("TLabel", text="No players yet.", color=theme.MUTED))
        if self.show_scores and self.game_filter is not None:
            names = [self.player_filter] if self.player_filter else None
            title = (f"Scores in {game_title(self.game_filter)}"
                     + (f" (last {SCORES_GAMES} games)" if len(self.recent) >= SCORES_GAMES
                        else ""))
            self.chart.show(chartdata.scores(self.recent, names, title))
        elif one is not None and self.game_filter is None:
            self.chart.show(chartdata.player_games(one))
        else:
            title = "Win rate" + (f" in {game_title(self.game_filter)}"
                                  if self.game_filter else "")
            self.chart.show(chartdata.wins(stats.players if one is None else [one], title))

    def _player_card(self, p: Any) -> str:
        lines = [f"[b][size={int(self.app.fs(19))}]{_esc(p.player)}[/size][/b]",
                 f"{_count(p.games, 'game')} over, {p.wins} won ({percent(p.win_rate)})"
                 + (f", {p.unfinished} unfinished" if p.unfinished else ""),
                 f"Streak: {p.streak.text()}; longest winning streak {p.longest_winning_streak}"]
        if p.opponents:
            lines.append("Most played against: "
                         + ", ".join(f"{_esc(n)} ({k})" for n, k in p.opponents))
        for g in p.per_game:
            lines.append(f"[b]{game_title(g.game)}[/b]: {_count(g.games, 'game')}, {g.wins} won; "
                         f"average {number(g.average)}, best {number(g.best)}")
        return "\n".join(lines)

    def _draw_games(self, stats: Statistics) -> None:
        one = stats.game(self.game_filter) if self.game_filter else None
        if self.game_filter is not None:
            fill_rows(self.app, self.stat_rows, [])
            self.left.add_widget(self.card)
            self.card_text.text = self._game_card(one) if one else (
                f"No games of {game_title(self.game_filter)} here"
                + (f" with {_esc(self.player_filter)}" if self.player_filter else "") + ".")
            if one is not None:
                self.chart.show(chartdata.roles(one))
            else:
                self.chart.show(chartdata.BarChart(game_title(self.game_filter),
                                                   empty="No finished games yet."))
            return
        self.left.add_widget(self.stat_list)
        fill_rows(self.app, self.stat_rows, [(
            f"[b]{_esc(g.title)}[/b]", "",
            ("" if g.average_minutes is None else f"{g.average_minutes:.0f} min, ")
            + f"{_count(g.games, 'game')}, {number(g.average_players)} players"
            + (f", {g.unfinished} unfinished" if g.unfinished else ""),
            partial(self.set_filters, g.game, self.player_filter), False)
            for g in stats.games])
        if not stats.games:
            self.left.add_widget(w("TLabel", text="No games yet.", color=theme.MUTED))
        self.chart.show(chartdata.game_lengths(stats.games))

    def _game_card(self, g: Any) -> str:
        lines = [f"[b][size={int(self.app.fs(19))}]{_esc(g.title)}[/size][/b]",
                 f"{_count(g.games, 'game')} over" + (f", {g.unfinished} unfinished" if g.unfinished
                                            else ""),
                 f"Average: {number(g.average_calls)} calls, "
                 + ("-" if g.average_minutes is None else f"{g.average_minutes:.0f} min")
                 + f", {number(g.average_players)} players",
                 f"Winning score: {number(g.average_winning_score)} on average"]
        if g.best_by:
            lines.append(f"Best score: {number(g.best_score)} ({_esc(g.best_by)})")
        for kind, items in ((g.role_kind, g.roles), (g.card_kind, g.cards)):
            if kind and items:
                top = ", ".join(f"{_esc(c.name)} {c.won}/{c.played}" for c in items[:5])
                lines.append(f"Each {kind} (won/played): {top}")
        return "\n".join(lines)

    # -- dice ---------------------------------------------------------------------------------

    def load_dice(self) -> None:
        """The dice verdicts, worked out by ``companion stats --dice --json`` in a child
        process (scipy stays out of the app)."""
        if self.dice is None:
            self.chart.show(None, "Working out the dice verdicts...")

        def job(path: Path) -> tuple[Fairness, ...]:
            return verdicts_apart(path)

        def done(found: tuple[Fairness, ...]) -> None:
            self.dice = found
            self.dice_choice = min(self.dice_choice, max(0, len(found) - 1))
            self._draw_stats()

        self.worker.apart(job, done, self.failed("The dice could not be judged"))

    def choose_dice(self, index: int) -> None:
        self.dice_choice = index
        self._draw_stats()

    def _draw_dice(self) -> None:
        found = self.dice
        self.left.add_widget(self.stat_list)
        if found is None:
            fill_rows(self.app, self.stat_rows, [])
            self.chart.show(None, "Working out the dice verdicts...")
            return
        if not found:
            fill_rows(self.app, self.stat_rows, [])
            self.left.add_widget(w("TLabel", text="No rolls yet.", color=theme.MUTED))
            self.chart.show(None, "No rolls recorded yet: the camera records every settled "
                                  "roll of a game.")
            return
        fill_rows(self.app, self.stat_rows, [(
            f"[b]{_esc(f.label[:1].upper() + f.label[1:])}[/b]", "",
            f"{f.rolls:,} rolls: " + _STATUS.get(f.status, f.status)
            + (f" ({f.face})" if f.status == "biased" else ""),
            partial(self.choose_dice, i), i == self.dice_choice) for i, f in enumerate(found)])
        # the verdict in words under the groups, so the bars get the chart's whole height
        chosen = found[self.dice_choice]
        self.left.add_widget(self.card)
        self.card_text.text = _esc(chosen.verdict[:1].upper() + chosen.verdict[1:] + ".") + (
            f"\n({chosen.unsure:,} unsure dice not counted.)" if chosen.unsure else "")
        self.chart.show(dataclasses.replace(chartdata.dice(chosen), note=""))

    # -- one game -----------------------------------------------------------------------------

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
        winner = f", [b]{_esc(g.winner)} won[/b]" if g.winner else ""
        self.game_info.text = (f"{g.date}, {minutes(g.duration)}, {_count(g.calls, 'call')}, "
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
                    + f": {_esc(step.entry.call)}" + (f"\n{_esc(did)}" if did else ""))
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

    # -- export -------------------------------------------------------------------------------

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
        text.text = (f"Games: {_esc(what)}.\nFiles go to [b]{_esc(str(exports_folder()))}"
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
            self._export_say(f"Wrote {what} to [b]{_esc(out.name)}[/b] in that folder.")
            self.say(f"Exported {what} to {out}")

        def failed(why: str) -> None:
            self._export_say(f"[color=#d55e00]Not written: {_esc(why)}[/color]")

        self.worker.apart(job, done, failed)

    def _export_say(self, text: str) -> None:
        if self.export_text is not None:
            head = self.export_text.text.split("\n\n")[0]
            self.export_text.text = f"{head}\n\n{text}"


def _whole(text: str) -> str:
    """Words kept on one line when a row's text wraps (no-break spaces)."""
    return text.replace(" ", "\u00a0")


_STATUS = {"fair": "no evidence of bias", "biased": "shows a bias", "too-few": "too few rolls",
           "none": "no confident rolls", "untested": "icon faces, not tested"}


__all__ = ["ClipScroll", "HistoryScreen", "Row", "Worker", "exports_folder"]
