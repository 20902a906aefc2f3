"""The screens the app shows (docs/app.md): its own, given by the composition root (the start
screen and the live dice at once, the others built when first opened and let go again to free
their memory), and the game's; which one shows, and the one shown before it.

A part of the app's wiring: the app asks it to add, show, drop and rebuild screens; it knows
nothing of games.
"""

from __future__ import annotations

from collections.abc import Iterable

from kivy.uix.screenmanager import NoTransition, Screen, ScreenManager

from companion.collector import IdleCollector
from companion.contract import AppHost, AppScreens, StartPage

#: The app's screens "Back" never returns to: Back from them goes to the game.
NOT_BACK_TO = ("settings", "dice", "teach", "start")


class Shown:
    """The screen manager (``sm``: made by :meth:`make`, when the app builds), every screen
    it holds by name (``screens``) and the name shown before the current one
    (``previous``)."""

    def __init__(self, app_screens: AppScreens, collector: IdleCollector) -> None:
        self.app_screens = app_screens
        self.collector = collector
        self.sm: ScreenManager | None = None
        self.screens: dict[str, Screen] = {}
        self.previous = "start"

    def make(self, host: AppHost) -> ScreenManager:
        """The screen manager, with the start screen (shown) and the live dice."""
        self.sm = ScreenManager(transition=NoTransition())
        for screen in (self.app_screens.start(host), self.app_screens.dice(host)):
            self.add(screen)
        self.sm.current = "start"
        return self.sm

    def add(self, screen: Screen) -> None:
        """Hold ``screen`` (one of the same name is let go)."""
        assert self.sm is not None
        old = self.screens.pop(screen.name, None)
        if old is not None:
            self.sm.remove_widget(old)
        self.screens[screen.name] = screen
        self.sm.add_widget(screen)

    def remove(self, screens: Iterable[Screen]) -> None:
        """Let go of these screens (a game's, as it leaves), those still held."""
        if self.sm is None:
            return
        for screen in screens:
            if self.screens.get(screen.name) is screen:
                self.sm.remove_widget(self.screens.pop(screen.name))

    def show(self, name: str, host: AppHost) -> None:
        """Show screen ``name``; one of the app's screens built when first opened is built
        now (memory)."""
        assert self.sm is not None
        later = self.app_screens.later
        if name not in self.screens and name in later:
            self.add(later[name](host))
        if self.sm.current != name:
            self.previous = self.sm.current
            self.sm.current = name

    def knows(self, name: str) -> bool:
        """A screen of that name is held, or is one of the app's built when first opened."""
        return name in self.screens or name in self.app_screens.later

    def back_to(self, game_screen: str | None) -> str:
        """Where Back goes: the start screen with no game on; else the screen shown before
        (one of the game's, or the history...), but never the settings, the live dice, the
        teaching or the start screen: the game's first screen then."""
        if game_screen is None:
            return "start"
        if self.previous in self.screens and self.previous not in NOT_BACK_TO:
            return self.previous
        return game_screen

    def drop(self, name: str) -> None:
        """Let go of one of the app's screens built when first opened, unless it shows now:
        its memory goes back to the table; it is built again when next opened."""
        screen = self.screens.get(name)
        if name in self.app_screens.later and screen is not None and self.sm is not None \
                and self.sm.current != name:
            self.sm.remove_widget(self.screens.pop(name))
            if self.sm.transition.screen_out is screen:  # the last screen left: let go
                self.sm.transition.screen_out = self.sm.current_screen
            del screen
            # A screen's widgets hold each other (bound callbacks): only the cycle collector
            # frees them, their textures with them, and it may not run for minutes. It is
            # collected at the table's next rest (after its last timers: a scroll bar's fade).
            self.collector.soon()

    def start_page(self) -> StartPage:
        start = self.screens["start"]
        if not isinstance(start, StartPage):
            raise TypeError(f"the start screen {type(start).__name__} is not a StartPage")
        return start

    def rebuild(self, host: AppHost) -> None:
        """The start screen again (keeping what was chosen on it) and the app's screens built
        when next opened: text sizes and colours are fixed when a screen is built."""
        assert self.sm is not None
        old = self.screens.get("start")
        start = self.app_screens.start(host)
        if isinstance(old, StartPage) and isinstance(start, StartPage):
            start.restore(old.choices())
        self.add(start)
        for name in self.app_screens.later:
            screen = self.screens.pop(name, None)
            if screen is not None:
                self.sm.remove_widget(screen)
