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

from typing import Any

from kivy.uix.screenmanager import Screen

from companion.app import AppCore
from companion.contract import AppHost, AppScreens
from companion.screens import DiceScreen, SettingsScreen, StartScreen
from companion.tournament.hub import TournamentHub


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

    def on_start(self) -> None:
        self._keep(TournamentHub.at_start(self))

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
    from companion.teachscreen import TeachScreen

    return TeachScreen(host)


def _history_screen(host: AppHost) -> Screen:
    from companion.history.screen import HistoryScreen  # its charts' imports: when opened

    return HistoryScreen(host)


__all__ = ["CompanionApp"]
