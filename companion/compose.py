"""The composition root: the companion as ``companion start`` runs it.

The one module that knows the app class (:class:`companion.app.AppCore`) and the app's own
screens together. It gives the app its screens (start, live dice; settings, history,
tournament and teaching the dice built when first opened) as
:class:`~companion.contract.AppScreens`, and makes the tournament hub when the app starts.
The screens and the hub see the app only as an :class:`~companion.contract.AppHost`; the app
imports none of them.

Import this module only after Kivy's environment is set (see ``companion.commands.start``).
"""

from __future__ import annotations

import importlib
import threading
from collections.abc import Callable, Iterable
from typing import Any

from kivy.clock import Clock
from kivy.logger import Logger
from kivy.uix.screenmanager import Screen

from companion.app import AppCore
from companion.contract import AppHost, AppScreens
from companion.games import plugins
from companion.screens.dice import DiceScreen
from companion.screens.settings import SettingsScreen
from companion.screens.start import StartScreen
from companion.settings import Settings
from companion.tournament.hub import TournamentHub
from companion.voice.service import ListeningService


class CompanionApp(AppCore):
    """The table companion: :class:`~companion.app.AppCore` with the app's own screens and
    the tournament this companion directs or plays in (``tournaments``, made when the app
    starts: a table rejoins its tournament, a director serves again, after a restart)."""

    def __init__(self, **kwargs: Any) -> None:
        screens = AppScreens(start=StartScreen, dice=DiceScreen,
                             later={"settings": SettingsScreen, "history": _history_screen,
                                    "tournament": self._tournament_screen,
                                    "teach": _teach_screen})
        super().__init__(screens=screens, **kwargs)
        self.tournaments: TournamentHub | None = None
        #: Calls heard aloud (docs/voice.md): listens while a game that takes them is on.
        self.listening = ListeningService(self, self.played, _on_app_thread)
        #: The thread importing the screens' modules behind the start screen, once started.
        self.loading_behind: threading.Thread | None = None

    def on_start(self) -> None:
        self._keep(TournamentHub.at_start(self))
        # What the first tap on a game, the History or the Tournament would import, imported
        # behind the start screen once it is up (a screen answers its first tap sooner).
        Clock.schedule_once(lambda dt: self._load_behind(), LOAD_BEHIND_AFTER_S)

    def _load_behind(self) -> None:
        self.loading_behind = load_behind((
            "companion.history.screen", "companion.tournament.screen",
            *(m for p in plugins().values() for m in p.loads)))

    def apply_settings(self, s: Settings) -> None:
        old = self.settings
        super().apply_settings(s)
        voice = (s.voice_calls, s.microphone, s.voice_sensitivity)
        if voice != (old.voice_calls, old.microphone, old.voice_sensitivity):
            self.listening.restart()

    def _keep(self, hub: TournamentHub) -> TournamentHub:
        """The app's tournament hub from now on (closed when the app stops)."""
        self.tournaments = hub
        self.add_stop_listener(hub.close)
        return hub

    def _tournament_screen(self, host: AppHost) -> Screen:
        from companion.tournament.screen import TournamentScreen

        hub = self.tournaments if self.tournaments is not None else \
            self._keep(TournamentHub(host))  # opened before the app started
        return TournamentScreen(host, hub)


def _teach_screen(host: AppHost) -> Screen:
    from companion.teach.screen import TeachScreen

    return TeachScreen(host)


def _on_app_thread(work: Callable[[], None]) -> None:
    """Run ``work`` on the app's thread at its next frame."""
    from kivy.clock import Clock

    Clock.schedule_once(lambda dt: work())


#: Seconds after the start screen is up before the screens' modules are imported behind it.
LOAD_BEHIND_AFTER_S = 2.0


def load_behind(modules: Iterable[str]) -> threading.Thread:
    """Import ``modules`` on a thread of their own (Python imports are thread-safe: a module
    the main thread needs meanwhile is waited for, never imported twice). Returns the thread;
    a module that fails to import is left to fail where it is used, as before."""

    def work() -> None:
        for name in modules:
            try:
                importlib.import_module(name)
            except Exception as e:  # said, and tried again (as before) where it is used
                Logger.warning(f"companion: {name} was not imported ahead: {e}")

    thread = threading.Thread(target=work, name="load-behind", daemon=True)
    thread.start()
    return thread


def _history_screen(host: AppHost) -> Screen:
    from companion.history.screen import HistoryScreen  # its charts' imports: when opened

    return HistoryScreen(host)


__all__ = ["CompanionApp"]
