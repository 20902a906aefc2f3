"""The Kivy app: wiring and lifecycle, nothing of any game and none of its own screens.

It reads the start-up files (:mod:`companion.startfiles`: none can stop it), opens the camera
the table chose, the sounds and the buttons, shows the app's own screens it is given
(:class:`~companion.contract.AppScreens`: the composition root, :mod:`companion.compose`, makes
them; they see this app only as an :class:`~companion.contract.AppHost`), and runs one game at
a time: the game's plugin (``companion/games/<game>/``) makes its
:class:`~companion.contract.TableGame`, whose screens see this app only as a
:class:`~companion.contract.Host`. Every change of the game at the table is told to the
listeners (:meth:`AppCore.listen`) as a typed :class:`~companion.session.SessionChange`. Only
the main thread touches widgets: the camera worker and the buttons hand their results over with
``Clock.schedule_once``.

Only the composition root imports this module, after Kivy's environment is set (see
``companion.commands.start``).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.metrics import sp
from kivy.properties import NumericProperty
from kivy.uix.screenmanager import Screen, ScreenManager

from calibration.zones import Zone
from companion import settings as settings_mod
from companion import startfiles, theme
from companion.collector import IdleCollector
from companion.contract import (
    AppScreens,
    CameraView,
    GamePlugin,
    HearsCalls,
    SessionListener,
    TableGame,
)
from companion.history.recorder import RollRecorder, check_corrections
from companion.journal import Journal
from companion.services.camera import CameraService
from companion.services.feed import CameraFeed, Source
from companion.services.gamehost import GameHost
from companion.services.keyboard import typing, use_keyboard
from companion.services.music import Music
from companion.services.runner import GameRunner
from companion.services.seats import SeatButtons
from companion.services.shown import Shown
from companion.services.teaching import Teaching
from companion.session import (
    MonotonicClock,
    SessionChange,
    TableSession,
)
from companion.teach import Teacher
from companion.voice.phrases import HeardCall
from companion.widgets import load_kv
from hardware.audio import Sounds
from hardware.audio.played import Played
from hardware.buttons import ButtonEvent
from rules import Ending, Event, Setup
from vision import Profile, Reading

#: Kivy's key code of Page Down (a presenter's clicker sends it: the next photo).
PAGE_DOWN = 281


class AppCore(App):
    """The table companion's wiring and lifecycle: the :class:`companion.contract.Host` of
    every game's screens and the :class:`companion.contract.AppHost` of its own, which it is
    given (``screens``) by the composition root."""

    font_scale = NumericProperty(1.0)

    def __init__(self, *, screens: AppScreens, journal_file: Path | str | None = None,
                 clock: MonotonicClock = time.monotonic,
                 camera: CameraFeed | None = None,
                 settings: settings_mod.Settings | None = None,
                 settings_file: Path | str | None = None,
                 camera_flag: str | None = None,
                 open_camera: Callable[[str], Source] | None = None,
                 tick_seconds: float = 0.1, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.title = "Table Companion"
        self._listeners: list[SessionListener] = []
        self._stop_listeners: list[Callable[[], None]] = []
        journal_file = Path(journal_file) if journal_file is not None else None
        settings_file = Path(settings_file) if settings_file is not None else None
        self.settings_file = settings_file
        started = startfiles.read_all(settings=settings, settings_file=settings_file,
                                      journal_file=journal_file)
        self._settings = started.settings
        self.config_file = started.config
        self.journal: Journal = started.journal
        #: what the players must know before playing (shown once, on the start screen)
        self.notices: list[str] = started.notices
        self.font_scale = self._settings.font_scale
        self.clock = clock
        self.tick_seconds = tick_seconds
        #: The arcade buttons and the seats' lights (companion.services.seats).
        self.buttons = SeatButtons()
        self.last_roll: Reading | None = None
        self.keyboard_mode = "system"  # Kivy's keyboard mode in use (see use_keyboard)
        #: The roll log kept during play, on a thread of its own (companion.history.recorder).
        self.rolls = RollRecorder(self.journal)
        #: The cyclic garbage collector's long walks, only while nobody touches (built: once
        #: the start screen is).
        self.collector = IdleCollector()
        self._collecting: Any = None
        #: The screens the app shows (companion.services.shown).
        self.shown = Shown(screens, self.collector)
        #: The camera the table chose, its calibration, its gate (companion.services.camera).
        self.cameras = CameraService(config=self.config_file, notices=self.notices,
                                     flag=camera_flag, open_source=open_camera,
                                     on_roll=self._roll_from_camera,
                                     on_view=self._view_from_camera,
                                     on_examples=lambda: self.teaching.refit())
        #: The table's teacher for the profile in use (companion.services.teaching).
        self.teaching = Teaching(lambda: self._settings, self.cameras)
        self.cameras.use(camera if camera is not None else self.cameras.open(self._settings))
        #: What the speaker plays, for the listener to take away from what it hears.
        self.played = Played(clock=clock)
        #: The soundtrack and the announcer (companion.services.music).
        self.music = Music(self._settings, self.config_file, self.played, self.notices)
        #: The game at the table (companion.services.runner); its screens get a narrow host.
        self.games = GameRunner(journal=self.journal, clock=clock, tick_seconds=tick_seconds,
                                host=GameHost(self), shown=self.shown, show=self.show,
                                music=self.music, cameras=self.cameras, buttons=self.buttons,
                                announce=self._announce, every=Clock.schedule_interval)

    # -- the Host ---------------------------------------------------------------------------

    @property
    def settings(self) -> settings_mod.Settings:
        return self._settings

    @property
    def camera(self) -> CameraView | None:
        return self.cameras.feed

    @property
    def board_zones(self) -> tuple[Zone, ...]:
        return self.cameras.zones

    def now(self) -> float:
        return self.clock()

    def fs(self, size: float) -> float:
        """A font size scaled by the text-size setting."""
        return float(sp(size)) * float(self.font_scale)

    @property
    def volume(self) -> float:
        return float(self.sounds.volume)

    @property
    def teacher(self) -> Teacher | None:
        """The table's teacher (companion.services.teaching), for the profile in use."""
        return self.teaching.teacher

    @property
    def sm(self) -> ScreenManager | None:
        return self.shown.sm

    @property
    def screens(self) -> dict[str, Screen]:
        return self.shown.screens

    @property
    def previous(self) -> str:
        return self.shown.previous

    def show(self, name: str) -> None:
        self.shown.show(name, self)

    def drop_screen(self, name: str) -> None:
        """Let go of one of the app's screens built when first opened (see Shown.drop)."""
        self.shown.drop(name)

    def back(self) -> None:
        self.show(self.shown.back_to(self.table.screens[0].name if self.table else None))

    def undo(self) -> None:
        """Take back the last call, and say which (the players see what Undo took back)."""
        if self.session is not None and self.table is not None:
            entry = self.session.undo()
            if entry is not None:
                self.table.say(f"Undid: {entry.call}")

    def redo(self) -> None:
        if self.session is not None and self.table is not None:
            entry = self.session.redo()
            if entry is not None:
                self.table.say(f"Redid: {entry.call}")

    def sound(self, name: str) -> bool:
        return self.sounds.play(name)

    def mute(self, on: bool) -> None:
        self.sounds.muted = on

    def muted(self) -> bool:
        return self.sounds.muted

    def vision_profile(self) -> Profile | None:
        return self.cameras.profile

    @property
    def heard(self) -> list[str]:
        """Every sound asked for so far, in order (for the log and tests)."""
        return self.sounds.heard

    @property
    def game_screen(self) -> Screen | None:
        """The screen the current game shows first (None with no game on)."""
        return self.table.screens[0] if self.table is not None else None

    # -- building ---------------------------------------------------------------------------

    def build(self) -> ScreenManager:
        load_kv()
        # What is made so far (modules, classes, kv rules, the app's own parts) lives as long
        # as the app: frozen, never walked again by the collector, whose long walks wait for
        # the table to rest (companion.collector). The screens are not: the start screen is
        # built again at another text size, and the old one must be freed.
        self._collecting = self.collector.install(Clock, Window)
        Window.clearcolor = theme.BACKGROUND
        self.use_keyboard(self._settings.keyboard)
        sm = self.shown.make(self)
        self.shown.start_page().on_pre_enter()
        Window.bind(on_key_down=self._on_key_down)
        return sm

    def _on_key_down(self, _window: Any, key: int, _scancode: int, text: str | None,
                     _modifiers: Any) -> bool:
        """A plugged-in keyboard's key, when no text field is being typed in: N (or Page
        Down) asks a table of photos for its next photo. True when the key was used."""
        if not (text in ("n", "N") or key == PAGE_DOWN) or typing(self.sm):
            return False
        camera = self.cameras.feed
        return camera is not None and camera.next_photo()

    # -- listeners ----------------------------------------------------------------------------

    def listen(self, listener: SessionListener) -> None:
        if listener not in self._listeners:
            self._listeners.append(listener)

    def unlisten(self, listener: SessionListener) -> None:
        if listener in self._listeners:
            self._listeners.remove(listener)

    def _announce(self, change: SessionChange) -> None:
        for listener in list(self._listeners):
            listener(change)

    def add_stop_listener(self, listener: Callable[[], None]) -> None:
        if listener not in self._stop_listeners:
            self._stop_listeners.append(listener)

    def remove_stop_listener(self, listener: Callable[[], None]) -> None:
        if listener in self._stop_listeners:
            self._stop_listeners.remove(listener)

    def hear_call(self, heard: HeardCall) -> bool:
        """A call heard aloud reaches the game at the table, if it takes them."""
        if isinstance(self.table, HearsCalls):
            self.table.on_heard(heard)
            return True
        return False

    def on_stop(self) -> None:
        Window.unbind(on_key_down=self._on_key_down)
        for listener in list(self._stop_listeners):
            listener()
        if self._collecting is not None:
            self._collecting.cancel()
            self.collector.stop()
        self.buttons.close()
        self.games.detach()
        dice = self.screens.get("dice")
        if dice is not None:
            dice.on_leave()
        self.teaching.on_stop()
        self.cameras.close()
        self.rolls.close()
        self.music.close()
        self.journal.close()

    # -- the start-up files, camera and sound -----------------------------------------------

    @property
    def sounds(self) -> Sounds:
        return self.music.sounds

    def soundtracks(self) -> list[str]:
        return self.music.soundtracks()

    def soundtrack_length(self, name: str) -> float | None:
        return self.music.soundtrack_length(name)

    # -- the camera's rolls -----------------------------------------------------------------

    def _roll_from_camera(self, reading: Reading) -> None:
        """Camera thread: a settled roll; hand it to the main thread."""
        Clock.schedule_once(lambda dt: self.on_settled_roll(reading))

    def _view_from_camera(self, reading: Reading) -> None:
        """Camera thread: the view settled (a roll or dice moved by hand)."""
        Clock.schedule_once(lambda dt: self.on_settled_view(reading))

    def on_settled_view(self, reading: Reading) -> None:
        """Main thread: dice were moved and lie still again (boards read by the camera)."""
        if self.table is not None and self.cameras.rolls_count:
            self.table.on_settled(reading)

    def on_settled_roll(self, reading: Reading) -> None:
        """Main thread: a settled roll reaches the game, unless it comes from a stand-in the
        players did not choose (rendered dice are never taken for theirs). The game says
        whether it took it (:meth:`took_roll`)."""
        self.last_roll = reading
        if self.table is not None and self.cameras.rolls_count:
            self.table.on_roll(reading)

    def took_roll(self, reading: Reading) -> None:
        """The game took these dice as the players' roll: the roll log keeps them."""
        recorded = self.rolls.recorded
        if recorded is not None and recorded[0] is reading:
            return  # the same picture, told twice
        if self.session is not None and reading.dice:
            self.rolls.record(self.session.game_id, reading)

    # -- the roll log (docs/history.md) -----------------------------------------------------

    def correct_roll(self, reading: Reading, corrections: Mapping[int, str]) -> None:
        check_corrections(reading, corrections)
        self.teaching.from_play(reading, corrections)
        self.rolls.correct(reading, corrections)

    def board_problem(self) -> str:
        return self.cameras.board_problem()

    # -- games ------------------------------------------------------------------------------

    @property
    def session(self) -> TableSession[Any] | None:
        """The game's session (None with no game on)."""
        return self.games.session

    @property
    def table(self) -> TableGame | None:
        return self.games.table

    @property
    def plugin(self) -> GamePlugin | None:
        return self.games.plugin

    @property
    def last_events(self) -> Sequence[Event]:
        """What the last call did (for the log, tests)."""
        return self.games.last_events

    def start_game(self, setup: Setup, soundtrack: str = "none") -> TableSession[Any]:
        """Start a new game (see GameRunner.start)."""
        return self.games.start(setup, soundtrack)

    def resume_game(self, game_id: int) -> TableSession[Any] | None:
        return self.games.resume(game_id)

    def restart(self, options: Mapping[str, Any]) -> TableGame | None:
        return self.games.restart(options)

    def play_link(self) -> str | None:
        return self.games.play_link()

    def end_game(self, ending: Ending | None = None) -> str | None:
        return self.games.end(ending)

    def _tick(self, dt: float) -> None:
        self.games.tick(dt)

    def on_session(self, change: SessionChange) -> None:
        self.games.on_session(change)

    def open_buttons(self) -> str:
        """Open the table's buttons (see :meth:`SeatButtons.open`); what happened, for the
        log."""
        if self._settings.button_map == "none":
            return "buttons: off in settings"
        return self.buttons.open(self.config_file, self.submit_hardware)

    def submit_hardware(self, event: ButtonEvent) -> None:
        """Thread-safe: an event from :class:`hardware.buttons.ButtonPad`, handed over to the
        main thread."""
        Clock.schedule_once(lambda dt: self.on_button(event))

    def on_button(self, event: ButtonEvent) -> None:
        self.games.on_button(event)

    def update_leds(self) -> None:
        self.games.update_leds()

    # -- settings ---------------------------------------------------------------------------

    def apply_settings(self, s: settings_mod.Settings) -> None:
        settings_mod.save(s.check(), self.settings_file)
        old = self._settings
        self._settings = s
        self.font_scale = s.font_scale
        if (s.camera, s.calibration_profile) != (old.camera, old.calibration_profile):
            self.cameras.use(self.cameras.open(s))
        self.music.use_settings(s)
        if s.keyboard != old.keyboard:
            self.use_keyboard(s.keyboard)
        looks = (s.font_scale, s.palette) != (old.font_scale, old.palette)
        current = self.sm.current if self.sm is not None else "settings"
        if looks and self.sm is not None:  # every screen again, in the new sizes and colours
            self.shown.rebuild(self)
        if self.session is not None and (looks or s.parry_seconds != old.parry_seconds):
            self.games.attach(self.session, pause=False)
        if self.sm is not None:
            self.show(current if self.shown.knows(current) else "settings")

    def use_keyboard(self, setting: str) -> str:
        """The keyboard Settings chose (companion.services.keyboard); Kivy's mode."""
        self.keyboard_mode = use_keyboard(setting)
        return self.keyboard_mode


__all__ = ["AppCore"]
