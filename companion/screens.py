"""The app's own screens (Kivy), shared by every game: start, settings, the live dice view.

Import this module only after Kivy's environment is set (see ``companion.commands.start``).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import fields
from typing import TYPE_CHECKING, Any

from kivy.clock import Clock
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.image import Image
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView
from kivy.uix.screenmanager import Screen
from kivy.uix.scrollview import ScrollView
from kivy.uix.widget import Widget

import rules
from companion import settings as settings_mod
from companion import theme
from companion.games import plugins
from companion.widgets import fmt_clock, show_picture, w
from rules import Setup

if TYPE_CHECKING:
    from companion.app import CompanionApp

MAX_PLAYERS = 6
DEFAULT_NAMES = ("Ana", "Ben", "Cy", "Dee", "Eli", "Fay")
BOARDS_BY_HAND = "not tracked"  # players keep their own boards; calls are trusted
BOARDS_CAMERA = "camera"  # allocation tracked, the camera fills it from the board zones
#: The Settings screen's words for "leave it to the config file".
AS_CONFIGURED = "as configured"


def playable_games() -> list[str]:
    """Installed games the app can run (both rooms present), in the registry's order."""
    return list(plugins())


class StartScreen(Screen):
    """Choose the game, players and characters or teams, mode, rounds, soundtrack and timer."""

    def __init__(self, app: CompanionApp, **kwargs: Any) -> None:
        super().__init__(name="start", **kwargs)
        self.app = app
        self.count: int = 3
        root = w("Panel", orientation="vertical", padding=8, spacing=6, bg=theme.BACKGROUND)
        top = BoxLayout(size_hint_y=None, height=52, spacing=6)
        top.add_widget(w("THeading", text="Players"))
        top.add_widget(w("TButton", text="-", size_hint_x=None, width=56, font_size=app.fs(24),
                         on_release=lambda *_: self.set_count(self.count - 1)))
        top.add_widget(w("TButton", text="+", size_hint_x=None, width=56, font_size=app.fs(24),
                         on_release=lambda *_: self.set_count(self.count + 1)))
        self.resume_box = BoxLayout(size_hint_x=None, width=0, spacing=6)
        top.add_widget(self.resume_box)
        top.add_widget(w("TButton", text="History", size_hint_x=None, width=120,
                         on_release=lambda *_: app.show("history")))
        top.add_widget(w("TButton", text="Settings", size_hint_x=None, width=120,
                         on_release=lambda *_: app.show("settings")))
        root.add_widget(top)
        body = BoxLayout(spacing=10)
        self.rows_box = BoxLayout(orientation="vertical", spacing=4, size_hint_x=0.58)
        body.add_widget(self.rows_box)
        right = BoxLayout(orientation="vertical", spacing=6, size_hint_x=0.42)
        grid = GridLayout(cols=2, spacing=4, row_default_height=52, row_force_default=True,
                          size_hint_y=None, height=6 * 52 + 5 * 4)
        self.game_spin = w("TSpinner", text="", values=[])
        self.mode_spin = w("TSpinner", text="every-eye", values=["every-eye", "alliances"])
        self.rounds_spin = w("TSpinner", text="auto",
                             values=["auto", "1", "2", "3", "4", "5", "6", "7"])
        self.timer_spin = w("TSpinner", text="3:00",
                            values=["1:00", "2:00", "3:00", "4:00", "5:00"])
        self.sound_spin = w("TSpinner", text="none", values=["none"])
        self.boards_spin = w("TSpinner", text=BOARDS_BY_HAND,
                             values=[BOARDS_BY_HAND, BOARDS_CAMERA])
        for label, widget in (("Game", self.game_spin), ("Mode", self.mode_spin),
                              ("Rounds", self.rounds_spin), ("Timer", self.timer_spin),
                              ("Music", self.sound_spin), ("Boards", self.boards_spin)):
            grid.add_widget(w("TLabel", text=label, halign="right", size_hint_x=0.4))
            grid.add_widget(widget)
        right.add_widget(grid)
        self.message = Label(text="", color=theme.DANGER, font_size=app.fs(15),
                             halign="center", valign="middle")
        self.message.bind(size=lambda wid, v: setattr(wid, "text_size", v))
        right.add_widget(self.message)
        self.start_button = w("TBigButton", text="Start the game", size_hint_y=None,
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
        """A dismissable notice over the start screen (a damaged file, a game that cannot be
        resumed)."""
        view = ModalView(size_hint=(0.9, 0.8), auto_dismiss=True)
        box = w("Panel", orientation="vertical", padding=10, spacing=8, bg=theme.PANEL)
        box.add_widget(w("THeading", text="Before you play", size_hint_y=None, height=40))
        # wrapped in full, never cut: a long notice scrolls
        text = Label(text="\n\n".join(notices), halign="left", valign="top",
                     font_size=self.app.fs(16), color=theme.TEXT, size_hint_y=None)
        text.bind(width=lambda wid, v: setattr(wid, "text_size", (v - 30, None)),
                  texture_size=lambda wid, v: setattr(wid, "height", v[1]))
        scroll = ScrollView(do_scroll_x=False, bar_width=8)
        scroll.add_widget(text)
        box.add_widget(scroll)

        def close(*_: Any) -> None:
            view.dismiss(animation=False)
            self.message.text = ""

        box.add_widget(w("TButton", text="OK", size_hint_y=None, height=56, on_release=close))
        view.add_widget(box)
        self.notice = view
        self.notice_text = text
        view.open(animation=False)

    def refresh_resume(self) -> None:
        self.resume_box.clear_widgets()
        offers = self.app.journal.unfinished()[:1]
        for record in offers:
            self.resume_box.add_widget(w(
                "TButton", text=f"Resume ({record.calls} calls)\n"
                f"{', '.join(record.setup.players)}", background_color=theme.ACCENT,
                color=(0, 0, 0, 1), font_size=self.app.fs(15), shorten=False,
                on_release=lambda *_, gid=record.id: self.app.resume_game(gid)))
            self.resume_box.add_widget(w(
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
        chars = self.characters()
        alliances = self.mode_spin.text == "alliances" and self._has_option("teams")
        self.rows_box.clear_widgets()
        self.names, self.char_spins, self.team_spins = [], [], []
        short = list(chars.values())
        for i in range(count):
            row = BoxLayout(spacing=4, size_hint_y=None, height=52)
            row.add_widget(w("Panel", size_hint_x=None, width=12,
                             bg=theme.player_colour(self.app.settings.palette, i)))
            name = w("TInput", text=old[i] if i < len(old) else DEFAULT_NAMES[i])
            self.names.append(name)
            row.add_widget(name)
            if chars:
                spin = w("TSpinner", values=short,
                         text=old_chars[i] if i < len(old_chars) else short[i % len(short)])
                self.char_spins.append(spin)
                row.add_widget(spin)
            if alliances:
                team = w("TSpinner", values=["Team 1", "Team 2", "Team 3"],
                         text=f"Team {i % 2 + 1}", size_hint_x=0.6)
                self.team_spins.append(team)
                row.add_widget(team)
            self.rows_box.add_widget(row)
        self.rows_box.add_widget(Widget())  # rows stay at the top
        self.mode_spin.disabled = not self._has_option("mode")
        self.boards_spin.disabled = not self._has_option("track_allocation")

    def characters(self) -> dict[str, str]:
        """The chosen game's characters (id -> name), when it has any."""
        plugin = plugins().get(self.game_spin.text)
        if plugin is None or plugin.characters is None:
            return {}
        return dict(plugin.characters())

    def _has_option(self, name: str) -> bool:
        cls = rules.game_class(self.game_spin.text)
        return name in {f.name for f in fields(cls.Options)}

    def build_setup(self) -> Setup:
        """The Setup these choices describe (the engine checks it when the game starts)."""
        game = self.game_spin.text
        players = tuple(n.text.strip() for n in self.names)
        options: dict[str, Any] = {}
        chars = {v: k for k, v in self.characters().items()}
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


def _choice(value: str) -> str:
    return value if value else AS_CONFIGURED


def _setting(value: str) -> str:
    return "" if value == AS_CONFIGURED else value


class SettingsScreen(Screen):
    """Camera, calibration profile, button map, volume, soundtrack folder, colours, text size."""

    def __init__(self, app: CompanionApp, **kwargs: Any) -> None:
        super().__init__(name="settings", **kwargs)
        self.app = app
        root = w("Panel", orientation="vertical", padding=8, spacing=4, bg=theme.BACKGROUND)
        root.add_widget(w("THeading", text="Settings", size_hint_y=None, height=44))
        grid = GridLayout(cols=4, spacing=4, row_default_height=48, row_force_default=True)
        s = app.settings
        cameras = [_choice(c) for c in settings_mod.CAMERAS]
        self.camera = w("TSpinner", text=_choice(s.camera),
                        values=list(dict.fromkeys([*cameras, _choice(s.camera)])))
        self.profile = w("TSpinner", text=s.calibration_profile,
                         values=self.profile_choices(s.calibration_profile))
        self.buttons = w("TSpinner", text=s.button_map, values=["default", "none"])
        # "as configured" says what that is: the volume playing now when none is set here
        configured = f"{AS_CONFIGURED} ({round(app.sounds.volume * 100)}%)" \
            if s.volume is None else AS_CONFIGURED
        volume = configured if s.volume is None else f"{round(s.volume * 100)}%"
        self.volume = w("TSpinner", text=volume,
                        values=[configured, *(f"{v}%" for v in range(0, 101, 10))])
        self.folder = w("TInput", text=s.soundtrack_folder,
                        hint_text="empty: usual music folder")
        self.palette = w("TSpinner", text=s.palette, values=list(settings_mod.PALETTES))
        self.text_size_spin = w("TSpinner", text=s.text_size,
                                values=list(settings_mod.TEXT_SIZES))
        self.parry = w("TSpinner", text=f"{s.parry_seconds:g} s",
                       values=[f"{v} s" for v in (2, 3, 4, 5, 6, 8)])
        self.dice_view = w("TSpinner", text=s.dice_view, values=list(settings_mod.DICE_VIEWS))
        for label, widget in (("Camera", self.camera), ("Calibration", self.profile),
                              ("Buttons", self.buttons), ("Volume", self.volume),
                              ("Soundtracks", self.folder), ("Colours", self.palette),
                              ("Text size", self.text_size_spin), ("Parry window", self.parry),
                              ("Dice view", self.dice_view)):
            grid.add_widget(w("TLabel", text=label, halign="right", size_hint_x=0.5))
            grid.add_widget(widget)
        root.add_widget(grid)
        swatches = BoxLayout(size_hint_y=None, height=40, spacing=4)
        self.swatches = swatches
        root.add_widget(swatches)
        self.message = w("TLabel", text="", size_hint_y=None, height=30, color=theme.DANGER)
        root.add_widget(self.message)
        bottom = BoxLayout(size_hint_y=None, height=60, spacing=6)
        bottom.add_widget(w("TButton", text="Back", on_release=lambda *_: app.back()))
        bottom.add_widget(w("TButton", text="End game", on_release=lambda *_: app.end_game()))
        bottom.add_widget(w("TBigButton", text="Save", on_release=lambda *_: self.save()))
        root.add_widget(bottom)
        self.add_widget(root)
        self.palette.bind(text=lambda *_: self.show_swatches())
        self.show_swatches()

    @staticmethod
    def profile_choices(chosen: str) -> list[str]:
        """"default" (the current profile), "none", and every stored profile by name."""
        from companion.paths import profile_store

        try:
            stored = profile_store().names()
        except OSError:  # an unreadable config folder must not stop the settings
            stored = []
        return list(dict.fromkeys(["default", "none", *stored, chosen]))

    def on_pre_enter(self, *args: Any) -> None:
        self.profile.values = self.profile_choices(self.profile.text)

    def show_swatches(self) -> None:
        self.swatches.clear_widgets()
        for i in range(MAX_PLAYERS):
            colour = theme.player_colour(self.palette.text, i)
            swatch = w("Panel", bg=colour)
            swatch.add_widget(w("TLabel", text=f"Seat {i + 1}", color=theme.text_on(colour)))
            self.swatches.add_widget(swatch)

    def save(self) -> None:
        volume = self.volume.text
        s = settings_mod.Settings(
            camera=_setting(self.camera.text), calibration_profile=self.profile.text or "default",
            button_map=self.buttons.text,
            volume=None if volume.startswith(AS_CONFIGURED) else int(volume.rstrip("%")) / 100,
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


class DiceScreen(Screen):
    """The camera picture with vision's dice overlay, from the camera feed, off the UI thread."""

    def __init__(self, app: CompanionApp, **kwargs: Any) -> None:
        super().__init__(name="dice", **kwargs)
        self.app = app
        root = w("Panel", orientation="vertical", padding=6, spacing=4, bg=theme.BACKGROUND)
        top = BoxLayout(size_hint_y=None, height=56, spacing=6)
        top.add_widget(w("THeading", text="Live dice"))
        self.status = w("TLabel", text="", color=theme.MUTED)
        top.add_widget(self.status)
        top.add_widget(w("TButton", text="Back", size_hint_x=None, width=140,
                         on_release=lambda *_: app.back()))
        root.add_widget(top)
        self.image = Image(fit_mode="contain")
        self.placeholder = w("TLabel", text="no camera", font_size=app.fs(30),
                             color=theme.MUTED, size_hint_y=None, height=0, opacity=0)
        root.add_widget(self.placeholder)
        root.add_widget(self.image)
        self.add_widget(root)
        self._poll: Any = None
        self.frames = 0

    def on_enter(self, *args: Any) -> None:
        camera = self.app.camera
        if camera is None:
            self.placeholder.height, self.placeholder.opacity = 200, 1
            self.image.opacity = 0
            self.status.text = "no camera (Settings: Camera)"
            return
        self.placeholder.height, self.placeholder.opacity = 0, 0
        self.image.opacity = 1 if self.frames else 0
        if not self.frames:
            self.status.text = f"{camera.label}: starting"
        camera.want("dice-view")
        self._poll = Clock.schedule_interval(lambda dt: self._show(), 1 / 15)

    def on_leave(self, *args: Any) -> None:
        if self._poll is not None:
            self._poll.cancel()
            self._poll = None
        if self.app.camera is not None:
            self.app.camera.release("dice-view")

    def _show(self) -> None:
        """Main thread: show the feed's newest picture (vision's overlay drawn in) if new."""
        camera = self.app.camera
        if camera is None:
            return
        if camera.error:
            self.status.text = f"camera error: {camera.error}"
            return
        snap = camera.latest()
        if snap is None or snap.index == self.frames:
            return
        show_picture(self.image, snap.rgb)
        self.frames = snap.index
        dice = snap.reading.dice
        unsure = sum(1 for d in dice if d.value is None and d.face is None)
        state = "dice moving" if snap.moving else "still"
        self.status.text = (f"{camera.label}  {len(dice)} dice"
                            + (f", {unsure} unsure" if unsure else "") + f"  ({state})")


__all__ = ["BOARDS_BY_HAND", "BOARDS_CAMERA", "DiceScreen", "SettingsScreen", "StartScreen",
           "playable_games"]
