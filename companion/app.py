"""The Kivy app: start, arena, between-rounds, settings and live dice screens.

The screens hold no game rule. Every tap goes to the :class:`~companion.session.TableSession`,
which asks the engine; the screens then redraw from the engine's views (``seats()``,
``pending()``, ``round_results()``...). Only the main thread touches widgets: the camera
worker and the buttons hand their results over with ``Clock.schedule_once``.

Import this module only after Kivy's environment is set (see ``companion.commands.start``).
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Callable, Sequence
from dataclasses import fields
from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.factory import Factory
from kivy.graphics.texture import Texture
from kivy.lang import Builder
from kivy.logger import Logger
from kivy.metrics import sp
from kivy.properties import ListProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.image import Image
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView
from kivy.uix.screenmanager import NoTransition, Screen, ScreenManager
from kivy.uix.scrollview import ScrollView
from kivy.uix.widget import Widget

import rules
from companion import settings as settings_mod
from companion import theme
from companion.journal import Journal
from companion.paths import journal_path
from companion.session import ButtonPress, MonotonicClock, TableSession, counting_feedback
from rules import Event, Setup

FrameProvider = Callable[[], Any]  # returns an RGB uint8 array (H, W, 3) or None

KV = Path(__file__).with_name("app.kv")
MAX_PLAYERS = 6
DEFAULT_NAMES = ("Ana", "Ben", "Cy", "Dee", "Eli", "Fay")
BOARDS_BY_HAND = "not tracked"  # players keep their own boards; calls are trusted
BOARDS_CAMERA = "camera"  # allocation tracked, the camera fills it from the board zones
ACTION_LABELS = (("movement", "Move"), ("attack", "Attack"), ("defence", "Parry"),
                 ("heal", "Heal"), ("innate", "Innate"), ("unblockable", "Unblock."))


def _w(kind: str, **kwargs: Any) -> Any:
    """A widget of one of the styled classes in app.kv."""
    return Factory.get(kind)(**kwargs)


def fmt_clock(seconds: float) -> str:
    s = max(0, int(seconds + 0.999))
    return f"{s // 60}:{s % 60:02d}"


def fmt_clock_at(at: float | None) -> str:
    """A call's time in the log: m:ss into the round."""
    if at is None:
        return ""
    s = int(at)
    return f"{s // 60}:{s % 60:02d}"


def arena_games() -> list[str]:
    """Installed games that have an arena screen (the engine offers ``seats()``)."""
    return [n for n in rules.game_names() if hasattr(rules.game_class(n), "seats")]


def playable_games() -> list[str]:
    """Installed games the app can run: the arena games, then those with a table screen."""
    from companion.games import table_screens

    arena = arena_games()
    screens = table_screens()
    return arena + [n for n in rules.game_names() if n in screens and n not in arena]


def character_choices(game: str) -> dict[str, str]:
    """Character id -> display name, from the game's module when it has ``characters()``."""
    cls = rules.game_class(game)
    module_name = cls.__module__
    for name in (module_name, module_name.rpartition(".")[0]):
        if not name:
            continue
        module = importlib.import_module(name)
        found = getattr(module, "characters", None)
        if callable(found):
            chars = found()
            return {cid: getattr(c, "short", cid) for cid, c in chars.items()}
    return {}


class Panel(BoxLayout):
    """A box with a flat background colour (drawn by its rule in app.kv)."""

    bg = ListProperty(list(theme.PANEL))


class Bar(Widget):
    """A flat progress bar, 0..1 (drawn by its rule in app.kv)."""

    value = NumericProperty(0.0)
    fill = ListProperty(list(theme.ACCENT))


# -- screens ---------------------------------------------------------------------------------


class StartScreen(Screen):
    """Choose the game, players and characters or teams, mode, rounds, soundtrack and timer."""

    def __init__(self, app: CompanionApp, **kwargs: Any) -> None:
        super().__init__(name="start", **kwargs)
        self.app = app
        root = _w("Panel", orientation="vertical", padding=8, spacing=6, bg=theme.BACKGROUND)
        top = BoxLayout(size_hint_y=None, height=52, spacing=6)
        top.add_widget(_w("THeading", text="Players"))
        top.add_widget(_w("TButton", text="-", size_hint_x=None, width=56, font_size=app.fs(24),
                          on_release=lambda *_: self.set_count(self.count - 1)))
        top.add_widget(_w("TButton", text="+", size_hint_x=None, width=56, font_size=app.fs(24),
                          on_release=lambda *_: self.set_count(self.count + 1)))
        self.resume_box = BoxLayout(size_hint_x=None, width=0, spacing=6)
        top.add_widget(self.resume_box)
        top.add_widget(_w("TButton", text="Settings", size_hint_x=None, width=120,
                          on_release=lambda *_: app.show("settings")))
        root.add_widget(top)
        body = BoxLayout(spacing=10)
        self.rows_box = BoxLayout(orientation="vertical", spacing=4, size_hint_x=0.58)
        body.add_widget(self.rows_box)
        right = BoxLayout(orientation="vertical", spacing=6, size_hint_x=0.42)
        grid = GridLayout(cols=2, spacing=4, row_default_height=52, row_force_default=True,
                          size_hint_y=None, height=6 * 52 + 5 * 4)
        self.game_spin = _w("TSpinner", text="", values=[])
        self.mode_spin = _w("TSpinner", text="every-eye", values=["every-eye", "alliances"])
        self.rounds_spin = _w("TSpinner", text="auto",
                              values=["auto", "1", "2", "3", "4", "5", "6", "7"])
        self.timer_spin = _w("TSpinner", text="3:00",
                             values=["1:00", "2:00", "3:00", "4:00", "5:00"])
        self.sound_spin = _w("TSpinner", text="none", values=["none"])
        self.boards_spin = _w("TSpinner", text=BOARDS_BY_HAND,
                              values=[BOARDS_BY_HAND, BOARDS_CAMERA])
        for label, widget in (("Game", self.game_spin), ("Mode", self.mode_spin),
                              ("Rounds", self.rounds_spin), ("Timer", self.timer_spin),
                              ("Music", self.sound_spin), ("Boards", self.boards_spin)):
            grid.add_widget(_w("TLabel", text=label, halign="right", size_hint_x=0.4))
            grid.add_widget(widget)
        right.add_widget(grid)
        self.message = Label(text="", color=theme.DANGER, font_size=app.fs(15),
                             halign="center", valign="middle")
        self.message.bind(size=lambda w, v: setattr(w, "text_size", v))
        right.add_widget(self.message)
        self.start_button = _w("TBigButton", text="Start the game", size_hint_y=None,
                               height=64, on_release=lambda *_: self.start())
        right.add_widget(self.start_button)
        body.add_widget(right)
        root.add_widget(body)
        self.add_widget(root)
        self.count = 3
        self.noticed = False  # the start-up notice has been shown (or is about to be)
        self.notice: ModalView | None = None  # the start-up notice, once shown
        self.notice_text: Any = None
        self.names: list[Any] = []
        self.char_spins: list[Any] = []
        self.team_spins: list[Any] = []
        self.game_spin.bind(text=lambda *_: self.set_count(self.count))
        self.mode_spin.bind(text=lambda *_: self.set_count(self.count))

    def on_pre_enter(self, *args: Any) -> None:
        games = playable_games()
        self.game_spin.values = games
        if self.game_spin.text not in games:
            self.game_spin.text = games[0] if games else ""
        self.sound_spin.values = ["none", *self.app.soundtracks()]
        self.timer_spin.text = fmt_clock(self.app.settings.round_seconds)
        self.refresh_resume()
        self.set_count(self.count)
        if self.app.notices and not self.noticed:
            # what went wrong at start-up, once, in full, where there is room to read it
            self.noticed = True
            self.message.text = "Started with a problem: see the notice"
            Clock.schedule_once(lambda dt: self.show_notice(self.app.notices), 0)

    def show_notice(self, notices: Sequence[str]) -> None:
        """A dismissable notice over the start screen (a damaged settings file or journal)."""
        view = ModalView(size_hint=(0.9, 0.8), auto_dismiss=True)
        box = _w("Panel", orientation="vertical", padding=10, spacing=8, bg=theme.PANEL)
        box.add_widget(_w("THeading", text="Before you play", size_hint_y=None, height=40))
        text = _w("TLabel", text="\n\n".join(notices), halign="left", valign="top",
                  font_size=self.app.fs(16), shorten=False)  # wrapped in full, never cut
        box.add_widget(text)

        def close(*_: Any) -> None:
            view.dismiss(animation=False)
            self.message.text = ""

        box.add_widget(_w("TButton", text="OK", size_hint_y=None, height=56, on_release=close))
        view.add_widget(box)
        self.notice = view
        self.notice_text = text
        view.open(animation=False)

    def refresh_resume(self) -> None:
        self.resume_box.clear_widgets()
        offers = self.app.journal.unfinished()[:1]
        for record in offers:
            self.resume_box.add_widget(_w(
                "TButton", text=f"Resume ({record.calls} calls)\n"
                f"{', '.join(record.setup.players)}", background_color=theme.ACCENT,
                color=(0, 0, 0, 1), font_size=self.app.fs(15), shorten=False,
                on_release=lambda *_, gid=record.id: self.app.resume_game(gid)))
            self.resume_box.add_widget(_w(
                "TButton", text="Drop", size_hint_x=None, width=72,
                on_release=lambda *_, gid=record.id: self.discard(gid)))
        self.resume_box.width = 330 if offers else 0

    def discard(self, game_id: int) -> None:
        """Stop offering a game for resume (it stays in the journal, marked finished)."""
        self.app.journal.finish(game_id)
        self.refresh_resume()

    def set_count(self, count: int) -> None:
        game = self.game_spin.text
        if not game:
            return
        cls = rules.game_class(game)
        count = max(cls.min_players, min(cls.max_players, MAX_PLAYERS, count))
        old = [n.text for n in self.names]
        old_chars = [s.text for s in self.char_spins]
        self.count = count
        chars = character_choices(game)
        alliances = self.mode_spin.text == "alliances" and self._has_option("teams")
        self.rows_box.clear_widgets()
        self.names, self.char_spins, self.team_spins = [], [], []
        short = list(chars.values())
        for i in range(count):
            row = BoxLayout(spacing=4, size_hint_y=None, height=52)
            row.add_widget(_w("Panel", size_hint_x=None, width=12,
                              bg=theme.player_colour(self.app.settings.palette, i)))
            name = _w("TInput", text=old[i] if i < len(old) else DEFAULT_NAMES[i])
            self.names.append(name)
            row.add_widget(name)
            if chars:
                spin = _w("TSpinner", values=short,
                          text=old_chars[i] if i < len(old_chars) else short[i % len(short)])
                self.char_spins.append(spin)
                row.add_widget(spin)
            if alliances:
                team = _w("TSpinner", values=["Team 1", "Team 2", "Team 3"],
                          text=f"Team {i % 2 + 1}", size_hint_x=0.6)
                self.team_spins.append(team)
                row.add_widget(team)
            self.rows_box.add_widget(row)
        self.rows_box.add_widget(Widget())  # rows stay at the top
        self.mode_spin.disabled = not self._has_option("mode")
        self.boards_spin.disabled = not self._has_option("track_allocation")

    def _has_option(self, name: str) -> bool:
        cls = rules.game_class(self.game_spin.text)
        return name in {f.name for f in fields(cls.Options)}

    def build_setup(self) -> Setup:
        """The Setup these choices describe (the engine checks it when the game starts)."""
        game = self.game_spin.text
        players = tuple(n.text.strip() for n in self.names)
        options: dict[str, Any] = {}
        chars = {v: k for k, v in character_choices(game).items()}
        if self.char_spins and self._has_option("characters"):
            options["characters"] = [chars[s.text] for s in self.char_spins]
        if self._has_option("mode"):
            options["mode"] = self.mode_spin.text
        if self.team_spins and self._has_option("teams"):
            teams: dict[str, list[str]] = {}
            for player, spin in zip(players, self.team_spins, strict=True):
                teams.setdefault(spin.text, []).append(player)
            options["teams"] = [teams[k] for k in sorted(teams)]
        if self._has_option("track_allocation"):
            options["track_allocation"] = self.boards_spin.text == BOARDS_CAMERA
        if self.rounds_spin.text != "auto" and self._has_option("rounds"):
            options["rounds"] = int(self.rounds_spin.text)
        if self._has_option("round_seconds"):
            seconds = self.app.soundtrack_length(self.sound_spin.text)
            if seconds is None:
                minutes, _, secs = self.timer_spin.text.partition(":")
                seconds = int(minutes) * 60 + int(secs)
            options["round_seconds"] = float(seconds)
        return Setup(game, players, options, int(time.time()) % 100_000)

    def start(self) -> None:
        if self.boards_spin.text == BOARDS_CAMERA and not self.boards_spin.disabled:
            missing = self.app.board_problem()
            if missing:
                self.message.text = missing
                return
        try:
            self.app.start_game(self.build_setup(), soundtrack=self.sound_spin.text)
            self.message.text = ""
        except rules.RulesError as e:
            self.message.text = str(e)


class PlayerPanel(BoxLayout):
    """One seat: colour, character, health, cup, knocked-out state, parry countdown, actions."""

    def __init__(self, app: CompanionApp, seat: int, player: str, **kwargs: Any) -> None:
        super().__init__(orientation="vertical", spacing=3, padding=3, **kwargs)
        self.app = app
        self.player = player
        self.colour = theme.player_colour(app.settings.palette, seat)
        self.bg = _w("Panel", bg=theme.PANEL)
        self.header = _w("TButton", background_color=self.colour,
                         color=theme.text_on(self.colour), size_hint_y=None, height=58,
                         font_size=app.fs(19), bold=True, halign="center", shorten=False,
                         on_release=lambda *_: app.tap_target(self.player))
        self.add_widget(self.header)
        self.health = _w("TLabel", text="", size_hint_y=None, height=28, font_size=app.fs(21),
                         bold=True)
        self.add_widget(self.health)
        self.bar = _w("Bar", size_hint_y=None, height=12, fill=self.colour)
        self.add_widget(self.bar)
        self.cup = _w("TLabel", text="", size_hint_y=None, height=26, font_size=app.fs(16))
        self.add_widget(self.cup)
        self.parry = _w("TLabel", text="", size_hint_y=None, height=0, bold=True,
                        font_size=app.fs(22), color=theme.ACCENT, opacity=0)
        self.add_widget(self.parry)
        self.actions = GridLayout(cols=2, spacing=3)
        self.buttons: dict[str, Any] = {}
        self.labels = dict(ACTION_LABELS)  # what each action button says for this character
        for key, label in ACTION_LABELS:
            b = _w("TButton", text=label, font_size=app.fs(16),
                   on_release=lambda *_, k=key: app.tap_action(self.player, k))
            self.buttons[key] = b
            self.actions.add_widget(b)
        self.add_widget(self.actions)
        # While an attack wants a target: this seat's figures, when it has several (Echo and
        # his Guards), take the actions' place, so the figure is tap 3 like any target.
        self.figures = GridLayout(cols=2, spacing=3)
        self.figure_buttons: dict[str, Any] = {}

    def _show_figures(self, figures: Sequence[tuple[str, int, int]] | None) -> None:
        """Swap the action buttons for one button per standing figure (None: back)."""
        if figures is None:
            if self.figures.parent is not None:
                self.remove_widget(self.figures)
                self.add_widget(self.actions)
            return
        names = [f[0] for f in figures]
        if list(self.figure_buttons) != names:
            self.figures.clear_widgets()
            self.figure_buttons = {}
            for name in names:
                b = _w("TButton", text=name, font_size=self.app.fs(16),
                       background_color=theme.ACCENT, color=(0, 0, 0, 1),
                       on_release=lambda *_, n=name: self.app.tap_target_figure(n))
                self.figure_buttons[name] = b
                self.figures.add_widget(b)
        for name, health, most in figures:
            self.figure_buttons[name].text = f"{name}  {health}/{most}"
        if self.actions.parent is not None:
            self.remove_widget(self.actions)
            self.add_widget(self.figures)

    def show(self, seat: Any, parry_left: float | None, building: Any) -> None:
        name = seat.short if seat.short == seat.player else f"{seat.short}  ({seat.player})"
        targeting = building.needs_target and building.actor != seat.player
        if seat.knocked_out:
            self.header.text = f"{name}\nKNOCKED OUT"
            self.header.background_color = (0.35, 0.35, 0.38, 1)
            self.header.color = theme.TEXT
        elif targeting and building.proposed == seat.player:
            self.header.text = f">> {name} <<\nlet go to hit"
            self.header.background_color = theme.ACCENT
            self.header.color = (0, 0, 0, 1)
        elif targeting:
            self.header.text = f"{name}\n> TARGET <"
            self.header.background_color = theme.ACCENT
            self.header.color = (0, 0, 0, 1)
        else:
            self.header.text = name + (f"\n{seat.team}" if seat.team else "")
            self.header.background_color = self.colour
            self.header.color = theme.text_on(self.colour)
        if seat.health is not None:
            self.health.text = f"Health {seat.health}/{seat.max_health}"
            self.bar.value = seat.health / max(1, seat.max_health or 1)
        cup = f"Cup {seat.cup}" if seat.cup is not None else ""
        if seat.trophies:
            cup += "  [" + ", ".join(seat.trophies) + "]"
        if seat.allocation:
            short = {k: dict(ACTION_LABELS).get(k, k.removeprefix("card:")) for k in
                     seat.allocation}
            cup += "  On board: " + " ".join(f"{short[k]} {n}" for k, n in
                                            seat.allocation.items())
        self.cup.text = cup
        if parry_left is not None:
            self.parry.text = f"PARRY?  {parry_left:0.1f}s"
            self.parry.height, self.parry.opacity = 30, 1
        else:
            self.parry.text, self.parry.height, self.parry.opacity = "", 0, 0
        for key, b in self.buttons.items():
            label = dict(ACTION_LABELS)[key]
            name = seat.actions.get(key)
            if key in ("attack", "innate") and name and not name.startswith(f"{seat.short}'s "):
                label = name
            b.text = self.labels[key] = label
            chosen = building.actor == seat.player and building.action == key
            chosen = chosen or (key == "defence" and parry_left is not None
                                and not building.active)
            b.background_color = theme.SELECT if chosen else theme.BUTTON
            b.disabled = seat.knocked_out
        standing = [f for f in seat.figures if f[1] > 0]
        self._show_figures(standing if targeting and len(standing) > 1 else None)
        self.opacity = 0.55 if seat.knocked_out else 1.0


class ArenaScreen(Screen):
    """The round clock, one panel per seat, the count bar, the call log, undo and redo."""

    def __init__(self, app: CompanionApp, **kwargs: Any) -> None:
        super().__init__(name="arena", **kwargs)
        self.app = app
        self.root_box = _w("Panel", orientation="vertical", padding=4, spacing=4,
                           bg=theme.BACKGROUND)
        top = BoxLayout(size_hint_y=None, height=64, spacing=4)
        self.round_label = _w("TLabel", text="", size_hint_x=0.16, font_size=app.fs(17))
        self.clock_label = _w("TLabel", text="0:00", size_hint_x=0.22, bold=True,
                              font_size=app.fs(46))
        self.go = _w("TBigButton", text="Yarra Mark!", size_hint_x=0.2,
                     on_release=lambda *_: app.toggle_clock())
        top.add_widget(self.round_label)
        top.add_widget(self.clock_label)
        top.add_widget(self.go)
        self.undo_b = _w("TButton", text="Undo", size_hint_x=0.105,
                         on_release=lambda *_: app.undo())
        self.redo_b = _w("TButton", text="Redo", size_hint_x=0.105,
                         on_release=lambda *_: app.redo())
        top.add_widget(self.undo_b)
        top.add_widget(self.redo_b)
        top.add_widget(_w("TButton", text="Dice", size_hint_x=0.105,
                          on_release=lambda *_: app.show("dice")))
        top.add_widget(_w("TButton", text="More", size_hint_x=0.105,
                          on_release=lambda *_: self.open_more()))
        self.root_box.add_widget(top)
        middle = BoxLayout(spacing=4)
        self.panels_box = BoxLayout(spacing=4)
        middle.add_widget(self.panels_box)
        log_col = _w("Panel", orientation="vertical", size_hint_x=0.24, padding=4)
        self.log_col = log_col
        # The live dice view beside the arena (Settings: Dice view), above the call log.
        self.picture = Image(fit_mode="contain", size_hint_y=None, height=0, opacity=0)
        self.picture.bind(on_touch_down=lambda w, t: self._picture_tapped(t))
        self._picture_poll: Any = None
        self._picture_frame = 0
        log_col.add_widget(self.picture)
        log_col.add_widget(_w("TLabel", text="Calls", size_hint_y=None, height=24,
                              font_size=app.fs(15), color=theme.MUTED))
        # Newest call first; lines that do not fit are clipped by the label itself. (A
        # ScrollView here kept the window redrawing a few times a second while idle.)
        self.log_label = Label(text="", halign="left", valign="top", color=theme.TEXT,
                               font_size=app.fs(14))
        self.log_label.bind(size=lambda w, v: setattr(w, "text_size", v))
        log_col.add_widget(self.log_label)
        middle.add_widget(log_col)
        self.root_box.add_widget(middle)
        bottom = BoxLayout(size_hint_y=None, height=60, spacing=4)
        self.prompt = _w("TLabel", text="", size_hint_x=0.26, font_size=app.fs(15),
                         halign="left", shorten=False)
        self.prompt.bind(size=lambda w, v: setattr(w, "text_size", v))
        bottom.add_widget(self.prompt)
        self.count_buttons = []
        for n in range(1, 7):
            b = _w("TButton", text=str(n), font_size=app.fs(24), bold=True, size_hint_x=0.09,
                   color=(0, 0, 0, 1), background_color=theme.COUNT,
                   on_release=lambda *_, n=n: app.tap_count(n))
            self.count_buttons.append(b)
            bottom.add_widget(b)
        self.rear_b = _w("TButton", text="Rear", size_hint_x=0.1,
                         on_release=lambda *_: app.toggle_rear())
        bottom.add_widget(self.rear_b)
        bottom.add_widget(_w("TButton", text="Cancel", size_hint_x=0.14,
                             on_release=lambda *_: app.cancel()))
        self.root_box.add_widget(bottom)
        self.add_widget(self.root_box)
        self.panels: dict[str, PlayerPanel] = {}

    # -- the live dice view beside the arena ------------------------------------------------

    def on_enter(self, *args: Any) -> None:
        feed = self.app.frame_provider
        if self.app.settings.dice_view != "beside the arena" or feed is None:
            self.picture.height, self.picture.opacity = 0, 0
            return
        self.picture.height = self.log_col.width * 0.75
        self.picture.opacity = 1 if self._picture_frame else 0
        feed.want("arena-view")
        self._picture_poll = Clock.schedule_interval(lambda dt: self._show_picture(feed), 1 / 8)

    def on_leave(self, *args: Any) -> None:
        if self._picture_poll is not None:
            self._picture_poll.cancel()
            self._picture_poll = None
            if self.app.frame_provider is not None:
                self.app.frame_provider.release("arena-view")

    def _show_picture(self, feed: Any) -> None:
        snap = feed.latest()
        if snap is None or snap.index == self._picture_frame:
            return
        self.picture.height = self.log_col.width * 0.75
        show_picture(self.picture, snap.rgb)
        self._picture_frame = snap.index

    def _picture_tapped(self, touch: Any) -> bool:
        """A tap on the small picture opens the full-screen dice view."""
        if self.picture.opacity and self.picture.collide_point(*touch.pos):
            self.app.show("dice")
            return True
        return False

    def choose_figure(self, player: str, figures: Sequence[tuple[str, int, int]]) -> None:
        """Tap 3 on a character with several figures: which one is hit (Echo's Guards)."""
        session = self.app.session
        if session is None:
            return
        view = ModalView(size_hint=(0.9, None), height=200, auto_dismiss=True)
        box = _w("Panel", orientation="vertical", padding=8, spacing=6, bg=theme.PANEL)
        box.add_widget(_w("THeading", text=f"Which of {session.seat_of(player).short}'s "
                          "figures?", size_hint_y=None, height=40))
        row = GridLayout(cols=min(5, len(figures)), spacing=4, row_default_height=64,
                         row_force_default=True)

        def pick(name: str) -> None:
            view.dismiss(animation=False)
            session.tap_target(name)

        for name, health, most in figures:
            row.add_widget(_w("TButton", text=f"{name}: {health}/{most}", halign="center",
                              font_size=self.app.fs(17),
                              on_release=lambda *_, n=name: pick(n)))
        box.add_widget(row)
        box.add_widget(_w("TButton", text="Cancel", size_hint_y=None, height=56,
                          on_release=lambda *_: view.dismiss(animation=False)))
        view.add_widget(box)
        self.figure_view = view
        view.open(animation=False)

    def open_more(self) -> None:
        """Calls a panel has no room for (tribal cards, a dispute), and the settings."""
        session = self.app.session
        if session is None:
            return
        view = ModalView(size_hint=(0.96, 0.94), auto_dismiss=True)
        box = _w("Panel", orientation="vertical", padding=8, spacing=6, bg=theme.PANEL)
        grid = GridLayout(cols=3, spacing=4, size_hint_y=None, row_default_height=56,
                          row_force_default=True)
        grid.bind(minimum_height=grid.setter("height"))

        def call(text: str) -> None:
            view.dismiss(animation=False)
            session.try_call(text)
            self.refresh(session)

        cards = session.card_calls()
        for texts in cards.values():
            for text in texts:
                grid.add_widget(_w("TButton", text=text, font_size=self.app.fs(15),
                                   shorten=True,
                                   on_release=lambda *_, t=text: call(t)))
        if not cards:
            grid.add_widget(_w("TLabel", text="No tribal card can be readied or used now",
                               color=theme.MUTED))
        scroll = ScrollView(do_scroll_x=False)
        scroll.add_widget(grid)
        box.add_widget(_w("THeading", text="Tribal cards", size_hint_y=None, height=36))
        box.add_widget(scroll)
        box.add_widget(_w("THeading", text="Dispute: tap who is involved",
                          size_hint_y=None, height=36))
        row = BoxLayout(size_hint_y=None, height=56, spacing=4)
        chosen: list[str] = []

        def toggle(button: Any, player: str) -> None:
            if player in chosen:
                chosen.remove(player)
                button.background_color = theme.BUTTON
            else:
                chosen.append(player)
                button.background_color = theme.SELECT

        for seat in session.seats():
            if not seat.knocked_out:
                b = _w("TButton", text=seat.short, font_size=self.app.fs(15))
                b.bind(on_release=lambda btn, p=seat.player: toggle(btn, p))
                row.add_widget(b)

        def dispute() -> None:
            view.dismiss(animation=False)
            session.dispute(chosen)
            self.refresh(session)

        row.add_widget(_w("TButton", text="Clear their dice", background_color=theme.ACCENT,
                          color=(0, 0, 0, 1), on_release=lambda *_: dispute()))
        box.add_widget(row)
        bottom = BoxLayout(size_hint_y=None, height=56, spacing=4)
        def settings() -> None:
            view.dismiss(animation=False)
            self.app.show("settings")

        bottom.add_widget(_w("TButton", text="Settings", on_release=lambda *_: settings()))
        bottom.add_widget(_w("TButton", text="Close",
                             on_release=lambda *_: view.dismiss(animation=False)))
        box.add_widget(bottom)
        view.add_widget(box)
        self.more_view = view
        view.open(animation=False)

    def build_panels(self, session: TableSession) -> None:
        self.panels_box.clear_widgets()
        self.panels = {}
        # Five or six panels need the room of the call log (touch targets stay >= 48 px).
        self.log_col.size_hint_x = 0.24 if len(session.game.setup.players) <= 4 else 0.14
        for i, seat in enumerate(session.seats()):
            panel = PlayerPanel(self.app, i, seat.player)
            self.panels[seat.player] = panel
            self.panels_box.add_widget(panel)

    def refresh(self, session: TableSession) -> None:
        b = session.builder
        for seat in session.seats():
            panel = self.panels.get(seat.player)
            if panel is not None:
                panel.show(seat, session.parry_left(seat.player), b)
        self.refresh_clock(session)
        total = session.rounds_total
        if total and session.round_number > total:
            self.round_label.text = "Tie-break"
        else:
            self.round_label.text = (f"Round {session.round_number}"
                                     + (f"/{total}" if total else ""))
        self.undo_b.disabled = not session.game.can_undo
        self.redo_b.disabled = not session.game.can_redo
        for btn in self.count_buttons:
            btn.background_color = theme.ACCENT if b.needs_count else theme.COUNT
        self.rear_b.background_color = theme.SELECT if b.rear else theme.BUTTON
        if session.message:
            self.prompt.text = session.message
            self.prompt.color = theme.DANGER
        else:
            self.prompt.color = theme.TEXT
            if b.actor is not None and b.action is not None:
                seat = session.seat_of(b.actor)
                what = f"{seat.short}: {seat.actions.get(b.action) or b.action.title()}"
            if b.needs_count:
                self.prompt.text = f"{what}\nhow many?"
            elif b.needs_target:
                rear = " (rear)" if b.rear else ""
                self.prompt.text = f"{what} {b.count}{rear}\ntap the target"
            else:
                self.prompt.text = "Tap an action on a panel"
        lines = [f"{fmt_clock_at(e.at)} {e.call}" for e in session.log[-14:]]
        self.log_label.text = "\n".join(reversed(lines))

    def show_counting(self, session: TableSession, seat: int, action: str, count: int) -> None:
        """A seat's button is being pressed: its panel shows the action and the count so far,
        until the call arrives (the next refresh draws the panel as usual)."""
        seats = session.seats()
        if not 0 <= seat < len(seats):
            return
        s = seats[seat]
        panel = self.panels.get(s.player)
        label = s.actions.get(action) or dict(ACTION_LABELS).get(action) or action.title()
        if panel is not None and action in panel.buttons:
            panel.buttons[action].text = f"{panel.labels[action]} x{count}"
            panel.buttons[action].background_color = theme.SELECT
        self.prompt.text = f"{s.short}: {label} {count}...\npress again to add"
        self.prompt.color = theme.TEXT

    def refresh_clock(self, session: TableSession) -> None:
        clock = session.clock
        text = fmt_clock(clock.remaining())
        if self.clock_label.text != text:
            self.clock_label.text = text
        if clock.paused:
            colour = theme.MUTED
        else:
            colour = theme.DANGER if clock.remaining() <= 10 else theme.TEXT
        if tuple(self.clock_label.color) != tuple(colour):  # a change costs a redraw
            self.clock_label.color = colour
        go = ("Yarra Mark!" if clock.elapsed() == 0 else "Resume") if clock.paused else "Pause"
        if self.go.text != go:
            self.go.text = go
        for player, panel in self.panels.items():
            left = session.parry_left(player)
            if left is not None:
                panel.parry.text = f"PARRY?  {left:0.1f}s"


class BetweenScreen(Screen):
    """Round ranking and points, match standings, next round, final winner, tie-break."""

    def __init__(self, app: CompanionApp, **kwargs: Any) -> None:
        super().__init__(name="between", **kwargs)
        self.app = app
        root = _w("Panel", orientation="vertical", padding=10, spacing=6, bg=theme.BACKGROUND)
        self.title = _w("THeading", text="", size_hint_y=None, height=50, font_size=app.fs(28))
        root.add_widget(self.title)
        body = BoxLayout(spacing=12)
        self.table = GridLayout(cols=6, spacing=2, size_hint_x=0.62, row_default_height=40,
                                row_force_default=True)
        body.add_widget(self.table)
        right = BoxLayout(orientation="vertical", spacing=2, size_hint_x=0.38)
        right.add_widget(_w("THeading", text="Match points", size_hint_y=None, height=40))
        self.match = GridLayout(cols=2, spacing=2, row_default_height=38, row_force_default=True)
        right.add_widget(self.match)
        body.add_widget(right)
        root.add_widget(body)
        self.note = _w("TLabel", text="", size_hint_y=None, height=36, color=theme.ACCENT)
        root.add_widget(self.note)
        bottom = BoxLayout(size_hint_y=None, height=64, spacing=6)
        bottom.add_widget(_w("TButton", text="Arena", size_hint_x=0.25,
                             on_release=lambda *_: app.show("arena")))
        bottom.add_widget(Widget())
        self.next_b = _w("TBigButton", text="Next round", size_hint_x=0.4,
                         on_release=lambda *_: app.next_round())
        bottom.add_widget(self.next_b)
        root.add_widget(bottom)
        self.add_widget(root)

    def refresh(self, session: TableSession, events: Sequence[Event] = ()) -> None:
        game: Any = session.game
        results = game.round_results() if hasattr(game, "round_results") else []
        self.table.clear_widgets()
        for h in ("Rank", "Side", "Cup", "Bonus", "Score", "Points"):
            self.table.add_widget(_w("TLabel", text=h, color=theme.MUTED,
                                     font_size=self.app.fs(16)))
        last = results[-1] if results else None
        if last is not None:
            for side, cup, bonus, score, rank, points in (_result_row(r) for r in last.rows):
                for v in (rank, side, cup, bonus, score, f"+{points}"):
                    self.table.add_widget(_w("TLabel", text=str(v)))
        self.match.clear_widgets()
        points = game.match_points() if hasattr(game, "match_points") else {}
        for side, p in sorted(points.items(), key=lambda kv: -kv[1]):
            self.match.add_widget(_w("TLabel", text=str(side), halign="left"))
            self.match.add_widget(_w("TLabel", text=str(p)))
        winner = getattr(game, "winner", None)
        number = session.round_number
        if last is not None:
            number = getattr(last, "round_number", None) or getattr(last, "number", number)
        if game.is_over:
            self.title.text = f"Winner: {winner}" if winner else "The match is over"
            self.next_b.text = "New game"
        else:
            self.title.text = f"Round {number} results"
            self.next_b.text = "Next round"
        notes = [e.text for e in events if e.kind in ("tie-break", "match-over")]
        ended_by = getattr(last, "ended_by", "") if last is not None else ""
        if ended_by:
            notes.insert(0, f"Round ended by {ended_by}")
        if getattr(last, "tiebreak", False):
            notes.insert(0, "Tie-break round")
        total = session.rounds_total
        if not game.is_over and total:
            if number >= total:  # the match is not over after its last round: a tie
                if not any(e.kind == "tie-break" for e in events):
                    notes.append("Tied: a tie-break round is next")
                self.next_b.text = "Tie-break round"
            else:
                notes.append(f"{total - number} round(s) to play")
        self.note.text = ".  ".join(notes)


def _result_row(row: Any) -> tuple[Any, ...]:
    """(side, cup, standing bonus, score, rank, points) from an engine's result row."""
    if isinstance(row, tuple | list):
        return tuple(row)
    return (row.side, row.cup, row.standing_bonus, row.score, row.rank, row.points)


class SettingsScreen(Screen):
    """Camera, calibration profile, button map, volume, soundtrack folder, colours, text size."""

    def __init__(self, app: CompanionApp, **kwargs: Any) -> None:
        super().__init__(name="settings", **kwargs)
        self.app = app
        root = _w("Panel", orientation="vertical", padding=8, spacing=4, bg=theme.BACKGROUND)
        root.add_widget(_w("THeading", text="Settings", size_hint_y=None, height=44))
        grid = GridLayout(cols=4, spacing=4, row_default_height=48, row_force_default=True)
        s = app.settings
        self.camera = _w("TSpinner", text=s.camera,
                         values=["synthetic", "picamera2", "opencv:0", "none"])
        self.profile = _w("TSpinner", text=s.calibration_profile,
                          values=self.profile_choices(s.calibration_profile))
        self.buttons = _w("TSpinner", text=s.button_map, values=["default", "none"])
        self.volume = _w("TSpinner", text=f"{round(s.volume * 100)}%",
                         values=[f"{v}%" for v in range(0, 101, 10)])
        self.folder = _w("TInput", text=s.soundtrack_folder, hint_text="empty: usual music folder")
        self.palette = _w("TSpinner", text=s.palette, values=list(settings_mod.PALETTES))
        self.text_size_spin = _w("TSpinner", text=s.text_size,
                                 values=list(settings_mod.TEXT_SIZES))
        self.parry = _w("TSpinner", text=f"{s.parry_seconds:g} s",
                        values=[f"{v} s" for v in (2, 3, 4, 5, 6, 8)])
        self.dice_view = _w("TSpinner", text=s.dice_view, values=list(settings_mod.DICE_VIEWS))
        for label, widget in (("Camera", self.camera), ("Calibration", self.profile),
                              ("Buttons", self.buttons), ("Volume", self.volume),
                              ("Soundtracks", self.folder), ("Colours", self.palette),
                              ("Text size", self.text_size_spin), ("Parry window", self.parry),
                              ("Dice view", self.dice_view)):
            grid.add_widget(_w("TLabel", text=label, halign="right", size_hint_x=0.5))
            grid.add_widget(widget)
        root.add_widget(grid)
        swatches = BoxLayout(size_hint_y=None, height=40, spacing=4)
        self.swatches = swatches
        root.add_widget(swatches)
        self.message = _w("TLabel", text="", size_hint_y=None, height=30, color=theme.DANGER)
        root.add_widget(self.message)
        bottom = BoxLayout(size_hint_y=None, height=60, spacing=6)
        bottom.add_widget(_w("TButton", text="Back", on_release=lambda *_: app.back()))
        bottom.add_widget(_w("TButton", text="End game", on_release=lambda *_: app.end_game()))
        bottom.add_widget(_w("TBigButton", text="Save", on_release=lambda *_: self.save()))
        root.add_widget(bottom)
        self.add_widget(root)
        self.palette.bind(text=lambda *_: self.show_swatches())
        self.show_swatches()

    @staticmethod
    def profile_choices(chosen: str) -> list[str]:
        """"default" (the current profile), "none", and every stored profile by name."""
        try:
            from companion.paths import profile_store

            stored = profile_store().names()
        except Exception as e:  # an unreadable config folder must not stop the settings
            Logger.warning(f"companion: calibration profiles not listed: {e}")
            stored = []
        return list(dict.fromkeys(["default", "none", *stored, chosen]))

    def on_pre_enter(self, *args: Any) -> None:
        self.profile.values = self.profile_choices(self.profile.text)

    def show_swatches(self) -> None:
        self.swatches.clear_widgets()
        for i in range(MAX_PLAYERS):
            colour = theme.player_colour(self.palette.text, i)
            swatch = _w("Panel", bg=colour)
            swatch.add_widget(_w("TLabel", text=f"Seat {i + 1}", color=theme.text_on(colour)))
            self.swatches.add_widget(swatch)

    def save(self) -> None:
        s = settings_mod.Settings(
            camera=self.camera.text, calibration_profile=self.profile.text or "default",
            button_map=self.buttons.text, volume=int(self.volume.text.rstrip("%")) / 100,
            soundtrack_folder=self.folder.text.strip(), palette=self.palette.text,
            text_size=self.text_size_spin.text,
            parry_seconds=float(self.parry.text.split()[0]),
            round_seconds=self.app.settings.round_seconds, dice_view=self.dice_view.text)
        try:
            self.app.apply_settings(s)
            self.message.text = "Saved."
            self.message.color = theme.ACCENT
        except settings_mod.SettingsError as e:
            self.message.text = str(e)
            self.message.color = theme.DANGER


def show_picture(image: Image, rgb: Any) -> None:
    """Put an RGB frame (H, W, 3 uint8) on an Image widget, reusing its texture."""
    h, w = rgb.shape[:2]
    texture = image.texture
    if texture is None or tuple(texture.size) != (w, h):
        texture = Texture.create(size=(w, h), colorfmt="rgb")
        texture.flip_vertical()
    # the array's own memory, not a bytes copy of each frame (a C-contiguous array's
    # memoryview needs no copy; any other array is copied once here)
    view = memoryview(rgb if rgb.flags.c_contiguous else rgb.copy()).cast("B")
    texture.blit_buffer(view, colorfmt="rgb", bufferfmt="ubyte")
    image.texture = texture
    image.opacity = 1
    image.canvas.ask_update()


class DiceScreen(Screen):
    """The camera picture with vision's dice overlay, from a frame provider, off the UI thread."""

    def __init__(self, app: CompanionApp, **kwargs: Any) -> None:
        super().__init__(name="dice", **kwargs)
        self.app = app
        root = _w("Panel", orientation="vertical", padding=6, spacing=4, bg=theme.BACKGROUND)
        top = BoxLayout(size_hint_y=None, height=56, spacing=6)
        top.add_widget(_w("THeading", text="Live dice"))
        self.status = _w("TLabel", text="", color=theme.MUTED)
        top.add_widget(self.status)
        top.add_widget(_w("TButton", text="Back", size_hint_x=None, width=140,
                          on_release=lambda *_: app.back()))
        root.add_widget(top)
        self.image = Image(fit_mode="contain")
        self.placeholder = _w("TLabel", text="no camera", font_size=app.fs(30),
                              color=theme.MUTED, size_hint_y=None, height=0, opacity=0)
        root.add_widget(self.placeholder)
        root.add_widget(self.image)
        self.add_widget(root)
        self._poll: Any = None
        self.frames = 0

    def on_enter(self, *args: Any) -> None:
        feed = self.app.frame_provider
        if feed is None:
            self.placeholder.height, self.placeholder.opacity = 200, 1
            self.image.opacity = 0
            self.status.text = f"camera: {self.app.settings.camera}"
            return
        self.placeholder.height, self.placeholder.opacity = 0, 0
        self.image.opacity = 1 if self.frames else 0
        if not self.frames:
            self.status.text = f"camera: {self.app.settings.camera}: starting"
        feed.want("dice-view")
        self._poll = Clock.schedule_interval(lambda dt: self._show(feed), 1 / 15)

    def on_leave(self, *args: Any) -> None:
        feed = self.app.frame_provider
        if getattr(self, "_poll", None) is not None:
            self._poll.cancel()
            self._poll = None
        if feed is not None:
            feed.release("dice-view")

    def _show(self, feed: Any) -> None:
        """Main thread: show the feed's newest picture (vision's overlay drawn in) if new."""
        if feed.error:
            self.status.text = f"camera error: {feed.error}"
            return
        snap = feed.latest()
        if snap is None or snap.index == self.frames:
            return
        show_picture(self.image, snap.rgb)
        self.frames = snap.index
        dice = snap.reading.dice
        unsure = sum(1 for d in dice if d.value is None and d.face is None)
        state = "dice moving" if snap.moving else "still"
        self.status.text = (f"camera: {feed.label}  {len(dice)} dice"
                            + (f", {unsure} unsure" if unsure else "") + f"  ({state})")


# -- the app ---------------------------------------------------------------------------------


class CompanionApp(App):
    """The table companion. Everything game-related goes through ``self.session``."""

    font_scale = NumericProperty(1.0)
    title_text = StringProperty("Table Companion")

    def __init__(self, *, journal_file: Path | None = None,
                 clock: MonotonicClock = time.monotonic,
                 frame_provider: FrameProvider | None = None,
                 settings: settings_mod.Settings | None = None,
                 settings_file: Path | None = None,
                 tick_seconds: float = 0.1, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.title = "Table Companion"
        self.settings_file = settings_file
        self.settings_problem = ""  # why the saved settings could not be used, if so
        if settings is None:
            try:
                settings = settings_mod.load(settings_file)
            except settings_mod.SettingsError as e:  # never refuse to start over a bad file
                Logger.error(f"companion: settings not used: {e}")
                self.settings_problem = (f"Settings file not used ({e}); playing with the "
                                         "defaults. Save in Settings to replace it.")
                settings = settings_mod.Settings()
        self.settings = settings
        self.font_scale = self.settings.font_scale
        # a damaged journal is set aside (kept) and a new one started: the app still opens
        self.journal, self.journal_problem = Journal.open_or_set_aside(
            journal_file or journal_path())
        if self.journal_problem:
            Logger.error(f"companion: {self.journal_problem}")
        #: what the players must know before playing (shown once, on the start screen)
        self.notices = [p for p in (self.settings_problem, self.journal_problem) if p]
        self.clock = clock
        self.board_zones: tuple[Any, ...] = ()  # calibration.zones.Zone of the profile
        self.board: Any = None  # companion.allocation.BoardWatcher while the camera allocates
        if frame_provider is None:
            frame_provider = self._feed_for(self.settings)
        self.frame_provider = frame_provider
        if frame_provider is not None:
            frame_provider.on_roll = self._roll_from_camera
        self.tick_seconds = tick_seconds
        self.session: TableSession | None = None
        self.game_screen: Any = None  # a companion/games/ table screen, when not the arena
        self.sm: ScreenManager | None = None
        self.previous = "start"
        self.heard: list[str] = []  # announcer cues, for the log and tests
        self._sounds: dict[str, Any] = {}
        self._music: Any = None
        self._ticker: Any = None
        self.last_events: Sequence[Event] = ()
        self.button_seats: tuple[str, ...] | None = None  # seat names of the button map
        self.seat_leds: Any = None  # hardware.buttons.SeatLeds when the map has LEDs

    # -- building ---------------------------------------------------------------------------

    def fs(self, size: float) -> float:
        """A font size scaled by the text-size setting."""
        return float(sp(size)) * float(self.font_scale)

    def build(self) -> ScreenManager:
        if KV.name not in str(Builder.files):
            Builder.load_file(str(KV))
        Window.clearcolor = theme.BACKGROUND
        sm = ScreenManager(transition=NoTransition())
        self.screens: dict[str, Any] = {
            "start": StartScreen(self), "arena": ArenaScreen(self),
            "between": BetweenScreen(self), "dice": DiceScreen(self),
        }  # the settings screen is built when first opened (~5 MB of widgets): see show()
        for screen in self.screens.values():
            sm.add_widget(screen)
        self.sm = sm
        sm.current = "start"
        self.screens["start"].on_pre_enter()
        return sm

    def open_buttons(self) -> str:
        """Open the GPIO buttons of the hardware config's ``[buttons]`` map (the default
        two-seat map when the config has none). Returns what happened, for the log."""
        if self.settings.button_map == "none":
            return "buttons: off in settings"
        try:
            from hardware.buttons import ButtonMap, ButtonPad
            from hardware.config import load_config

            config = load_config()
            bmap = ButtonMap.from_config(config) if "buttons" in config else ButtonMap.default()
            self.button_pad = ButtonPad(bmap, self.submit_hardware)
        except Exception as e:  # no GPIO here, or a bad map: the touchscreen still works
            return f"buttons: not available ({e})"
        self.button_seats = bmap.seats
        if bmap.leds:
            try:
                from hardware.buttons import SeatLeds

                self.seat_leds = SeatLeds(bmap)
            except Exception as e:  # LEDs are optional: the buttons still work
                return f"buttons: seats {', '.join(bmap.seats)}; LEDs not available ({e})"
        return f"buttons: seats {', '.join(bmap.seats)}"

    def update_leds(self) -> None:
        """Seat LEDs follow the game: lit while that seat may parry, blinking when knocked out.
        Only a change of state touches a pin."""
        leds, session, seats = self.seat_leds, self.session, self.button_seats
        if leds is None or seats is None:
            return
        if session is None:
            for hw in seats:
                if leds.state(hw) not in ("off", "none"):
                    leds.reaction(hw, False)
            return
        for hw, seat in zip(seats, session.seats(), strict=False):
            if seat.knocked_out:
                want = "blink"
            else:
                want = "on" if session.parry_left(seat.player) is not None else "off"
            state = leds.state(hw)
            if state in (want, "none"):
                continue
            if want == "blink":
                leds.knockout(hw)
            else:
                leds.reaction(hw, want == "on")

    def on_stop(self) -> None:
        pad = getattr(self, "button_pad", None)
        if pad is not None:
            pad.close()
        if self.seat_leds is not None:
            self.seat_leds.close()
        if self._ticker is not None:
            self._ticker.cancel()
        if self.session is not None:
            self.session.pause()
        self.screens["dice"].on_leave()
        if self.frame_provider is not None:
            self.frame_provider.close()
        self.journal.close()

    def show(self, name: str) -> None:
        assert self.sm is not None
        if name == "settings" and name not in self.screens:
            self.screens[name] = SettingsScreen(self)
            self.sm.add_widget(self.screens[name])
        if self.sm.current != name:
            self.previous = self.sm.current
            self.sm.current = name

    def back(self) -> None:
        if self.session is None:
            self.show("start")
        elif self.game_screen is not None:
            self.show(self.game_screen.name)
        elif self.session.phase == "playing":
            self.show("arena")
        else:
            self.show("between")

    # -- games ------------------------------------------------------------------------------

    def start_game(self, setup: Setup, soundtrack: str = "none") -> TableSession:
        session = TableSession.new(self.journal, setup, title=", ".join(setup.players),
                                   clock=self.clock,
                                   parry_seconds=self.settings.parry_seconds)
        self.soundtrack = soundtrack
        self._attach(session)
        return session

    def resume_game(self, game_id: int) -> TableSession:
        session = TableSession.resume(self.journal, game_id, clock=self.clock,
                                      parry_seconds=self.settings.parry_seconds)
        self.soundtrack = "none"
        self._attach(session)
        if session.phase != "playing" and self.game_screen is None:
            self.screens["between"].refresh(session)
            self.show("between")
        return session

    def _attach(self, session: TableSession) -> None:
        if self._ticker is not None:
            self._ticker.cancel()
        self.session = session
        session.subscribe(self.on_session)
        self.game_screen = None
        if self.frame_provider is not None:
            self.frame_provider.release("game")
        if session.game.name not in arena_games():
            self._attach_table_screen(session)
            return
        self._start_board(session)
        arena: ArenaScreen = self.screens["arena"]
        arena.build_panels(session)
        arena.refresh(session)
        self.show("arena")
        self._ticker = Clock.schedule_interval(self._tick, self.tick_seconds)

    # -- the camera -----------------------------------------------------------------------------

    @staticmethod
    def _calibration(settings: settings_mod.Settings) -> Any:
        """The chosen calibration profile: "default" is the current one (``companion calibrate
        use``), "none" reads uncalibrated; None when there is none or it cannot be read."""
        name = settings.calibration_profile
        if name in ("", "none"):
            return None
        try:
            from companion.paths import profile_store

            store = profile_store()
            return store.current() if name == "default" else store.load(name)
        except Exception as e:  # a bad profile must not stop the app: read uncalibrated
            Logger.warning(f"companion: calibration profile not used: {e}")
            return None

    def _feed_for(self, settings: settings_mod.Settings) -> FrameProvider | None:
        """The camera feed for these settings, with the chosen calibration profile if any;
        also takes the profile's board zones (``self.board_zones``)."""
        from companion.preview import frame_provider_for

        cp = self._calibration(settings)
        self.board_zones = tuple(cp.zones) if cp is not None else ()
        feed = frame_provider_for(settings.camera, cp.profile if cp is not None else None)
        if feed is not None:
            feed.zones = self.board_zones
        return feed

    def _roll_from_camera(self, reading: Any) -> None:
        """Camera thread: a settled roll; hand it to the main thread."""
        Clock.schedule_once(lambda dt: self.on_settled_roll(reading))

    def on_settled_roll(self, reading: Any) -> None:
        """Main thread: give a settled roll to the game's table screen, if it reads dice."""
        self.last_roll = reading
        if self.board is not None and self.session is not None:
            self._board_roll(reading)
        on_roll = getattr(self.game_screen, "on_roll", None)
        if on_roll is not None:
            on_roll(reading)

    def _board_roll(self, reading: Any) -> None:
        """Dice seen on the players' boards: their changes become Allocate/Recover calls."""
        from companion.allocation import apply_board

        session = self.session
        assert session is not None and self.board is not None
        if session.phase != "playing":
            return
        if self.board.round != session.round_number:
            self.board.reset()
            self.board.round = session.round_number
        lines = apply_board(session, self.board, reading.dice)
        refused = [line for line in lines if line.startswith("camera: ")]
        if refused:
            session.message = refused[-1]
            self.screens["arena"].refresh(session)

    def board_problem(self) -> str:
        """Why the camera cannot fill the players' boards now ("" when it can)."""
        if self.frame_provider is None:
            return "The camera fills the boards only with a camera: choose one in Settings."
        if not self.board_zones:
            return ("The calibration profile has no board zones: mark each action space with "
                    "'companion calibrate zones' (docs/calibration.md), or play boards "
                    "'not tracked'.")
        return ""

    def _start_board(self, session: TableSession) -> None:
        """Let the camera allocate dice when the game tracks allocation and zones exist."""
        self.board = None
        if not getattr(session.game.options, "track_allocation", False) or not self.board_zones:
            return
        from companion.allocation import BoardWatcher

        self.board = BoardWatcher(self.board_zones)
        self.board.round = session.round_number
        if self.frame_provider is not None:
            self.frame_provider.want("game")

    def _attach_table_screen(self, session: TableSession) -> None:
        """Show a game's own table screen (companion/games/<module>/)."""
        from companion.games import table_screens

        name = f"game-{session.game.name}"
        assert self.sm is not None
        if name in self.screens:
            self.sm.remove_widget(self.screens.pop(name))
        screen = table_screens()[session.game.name].make_screen(self, session)
        screen.name = name
        self.screens[name] = screen
        self.sm.add_widget(screen)
        self.game_screen = screen
        if getattr(screen, "wants_camera", False) and self.frame_provider is not None:
            self.frame_provider.want("game")
        screen.refresh(session)
        self.show(name)

    def end_game(self) -> None:
        """Leave the game: it stays in the journal and is offered for resume."""
        if self.session is not None:
            self.session.pause()
        if self._ticker is not None:
            self._ticker.cancel()
        self.session = None
        self.game_screen = None
        self.board = None
        if self.frame_provider is not None:
            self.frame_provider.release("game")
        self.update_leds()
        self.show("start")
        self.screens["start"].on_pre_enter()

    def _tick(self, dt: float) -> None:
        if self.session is not None:
            self.session.tick()
            self.update_leds()
            if self.sm is not None and self.sm.current == "arena":
                self.screens["arena"].refresh_clock(self.session)

    def on_session(self, what: str, events: Sequence[Event]) -> None:
        """Listener of the session: redraw, announce, and go between rounds when one ends."""
        session = self.session
        if session is None or what == "tick":
            return
        if what in ("yarra-mark", "yarra-bung", "one-minute", "ten-seconds", "pause", "resume"):
            self.announce(what)
        for e in events:
            if e.kind in ("knockout", "round-over", "match-over"):
                self.announce(e.kind)
        self.last_events = events
        self.update_leds()
        if self.game_screen is not None:
            self.game_screen.refresh(session, events)
            return
        if what in ("call", "undo", "redo") and session.phase != "playing":
            self.screens["between"].refresh(session, events)
            self.show("between")
            return
        if what in ("call", "undo", "redo") and self.sm is not None \
                and self.sm.current == "between":
            self.show("arena")
        self.screens["arena"].refresh(session)

    # -- taps (all of them end in the session) ----------------------------------------------

    def tap_action(self, player: str, action: str) -> None:
        if self.session is not None:
            self.session.tap_action(player, action)

    def tap_count(self, n: int) -> None:
        if self.session is not None:
            self.session.tap_count(n)

    def tap_target(self, player: str) -> None:
        if self.session is not None and self.session.builder.needs_target:
            figures = self.session.figures_to_target(player)
            if figures:
                self.screens["arena"].choose_figure(player, figures)
            else:
                self.session.tap_target(player)

    def tap_target_figure(self, figure: str) -> None:
        """Tap 3 on one figure of a character with several (Echo's Guards)."""
        if self.session is not None and self.session.builder.needs_target:
            self.session.tap_target(figure)

    def toggle_rear(self) -> None:
        if self.session is not None:
            self.session.toggle_rear()

    def cancel(self) -> None:
        if self.session is not None:
            self.session.message = ""
            self.session.cancel()

    def undo(self) -> None:
        if self.session is not None:
            self.session.undo()

    def redo(self) -> None:
        if self.session is not None:
            self.session.redo()

    def toggle_clock(self) -> None:
        if self.session is None:
            return
        if self.session.clock.paused:
            self.session.start_round()
        else:
            self.session.pause()
        self.screens["arena"].refresh(self.session)

    def next_round(self) -> None:
        if self.session is None:
            return
        if self.session.game.is_over:
            self.end_game()
            return
        self.session.next_round()

    def submit_hardware(self, event: Any) -> None:
        """Thread-safe: an event from :class:`hardware.buttons.ButtonPad`, handed over to the
        main thread, where it becomes a :class:`ButtonPress`."""
        Clock.schedule_once(lambda dt: self._hardware(event))

    def _hardware(self, event: Any) -> None:
        if self.session is None or self.button_seats is None:
            return
        counting = counting_feedback(event, self.button_seats)
        if counting is not None:  # a press still being counted: show it at once
            if self.sm is not None and self.sm.current == "arena":
                self.screens["arena"].show_counting(self.session, *counting)
            return
        try:
            press = ButtonPress.from_hardware(event, self.button_seats)
        except rules.RulesError as e:
            self.session.message = str(e)
            self.screens["arena"].refresh(self.session)
            return
        if press is not None:
            self._press(press)

    def submit_press(self, press: ButtonPress) -> None:
        """Thread-safe: a hardware button press, handed to the main thread."""
        Clock.schedule_once(lambda dt: self._press(press))

    def _press(self, press: ButtonPress) -> None:
        if self.session is not None:
            try:
                self.session.press(press)
            except rules.RulesError as e:
                self.session.message = str(e)
                self.screens["arena"].refresh(self.session)

    # -- settings and sound -------------------------------------------------------------------

    def apply_settings(self, s: settings_mod.Settings) -> None:
        settings_mod.save(s.check(), self.settings_file)
        if self.settings_problem:
            self.notices.remove(self.settings_problem)
            self.settings_problem = ""
            self.screens["start"].message.text = ""
        if (s.camera, s.calibration_profile) != (self.settings.camera,
                                                 self.settings.calibration_profile):
            if self.frame_provider is not None:
                self.frame_provider.close()
            self.frame_provider = self._feed_for(s)
            if self.frame_provider is not None:
                self.frame_provider.on_roll = self._roll_from_camera
                if self.board is not None or getattr(self.game_screen, "wants_camera", False):
                    self.frame_provider.want("game")
        self.settings = s
        self.font_scale = s.font_scale
        if self.session is not None:
            self.session.parry_seconds = s.parry_seconds
            self.screens["arena"].build_panels(self.session)
            self.screens["arena"].refresh(self.session)

    def soundtracks(self) -> list[str]:
        """Soundtracks in the soundtrack folder (the hardware layer reads their lengths)."""
        from hardware.audio import list_soundtracks

        return [t.path.name for t in list_soundtracks(settings_mod.soundtrack_dir(self.settings))]

    def soundtrack_length(self, name: str) -> float | None:
        """The length of a soundtrack: the round lasts as long as its music."""
        if name in ("", "none"):
            return None
        from hardware.audio import audio_length

        path = settings_mod.soundtrack_dir(self.settings) / name
        try:
            length = audio_length(path)
        except Exception:
            return None
        self._music_path = path
        return float(length)

    def _sound(self, cue: str) -> Any:
        """The sound for a cue: a file named after it in the soundtrack folder, else the
        hardware layer's built-in one; None when there is neither."""
        if cue not in self._sounds:
            from kivy.core.audio import SoundLoader

            name = CUE_FILES.get(cue, cue.replace("-", "_"))
            path: Path | None = None
            folder = settings_mod.soundtrack_dir(self.settings)
            if folder.is_dir():
                path = next(iter(sorted(folder.glob(f"{name}.*"))), None)
            if path is None:
                try:
                    from hardware.audio import builtin_sound

                    path = builtin_sound(name)
                except Exception:
                    path = None
            self._sounds[cue] = SoundLoader.load(str(path)) if path is not None else None
        return self._sounds[cue]

    def announce(self, cue: str) -> None:
        """Play a cue ("yarra-mark", "yarra-bung", "knockout", "one-minute"...): the announcer,
        and the round's music from Yarra Mark! to Yarra Bung!. Remembers what was heard."""
        self.heard.append(cue)
        music_path = getattr(self, "_music_path", None)
        if cue in ("yarra-mark", "resume") and music_path is not None:
            if self._music is None:
                from kivy.core.audio import SoundLoader

                self._music = SoundLoader.load(str(music_path))
            if self._music is not None:
                self._music.volume = self.settings.volume
                self._music.play()
        if cue in ("yarra-bung", "round-over", "pause") and self._music is not None:
            self._music.stop()
        sound = self._sound(cue) if cue in CUE_FILES else None
        if sound is not None:
            sound.volume = self.settings.volume
            sound.play()


#: Announcer cues -> sound names (files in the soundtrack folder or hardware's built-ins).
CUE_FILES = {"yarra-mark": "yarra_mark", "yarra-bung": "yarra_bung", "knockout": "knockout",
             "one-minute": "one_minute", "ten-seconds": "ten_seconds", "hit": "hit"}


__all__ = ["ArenaScreen", "BetweenScreen", "CompanionApp", "DiceScreen", "SettingsScreen",
           "StartScreen", "arena_games", "fmt_clock"]
