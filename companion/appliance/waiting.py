"""The screen shown instead of the app while the data stick is not mounted (power-pull protection).

It draws :class:`companion.appliance.datamount.DataWait`'s view, looked at twice a second: the
countdown, then what to do; a **Play without saving** button once waiting no longer helps. It
ends the moment the stick is mounted (or the button is tapped), and ``companion start`` starts
the app. It feeds systemd's watchdog like the app, so it stays up as long as the wait lasts.
"""

from __future__ import annotations

import logging
from typing import Any

from companion.appliance.datamount import LOOK_EVERY_S, DataWait, Outcome, Phase

log = logging.getLogger(__name__)
#: How long the screen says "the data stick is here" before the app starts.
SHOW_ARRIVAL_S = 1.0


def show_wait(wait: DataWait) -> Outcome:
    """Run the waiting screen until the stick is mounted, Play without saving is tapped, or the
    window is closed (Kivy's Config must be set already)."""
    from kivy.app import App
    from kivy.clock import Clock
    from kivy.core.window import Window
    from kivy.uix.boxlayout import BoxLayout
    from kivy.uix.button import Button
    from kivy.uix.label import Label
    from kivy.uix.scrollview import ScrollView

    from companion import theme
    from companion.appliance.notify import watch_over

    outcome = [Outcome.CLOSED]
    log.warning("companion: waiting for the data stick %s: %s", wait.protect, wait.problem())

    class WaitApp(App):
        title = "Table companion: waiting for the data stick"

        def build(self) -> Any:
            Window.clearcolor = theme.BACKGROUND
            box = BoxLayout(orientation="vertical", padding=20, spacing=8)
            top = BoxLayout(orientation="horizontal", size_hint_y=None, height=72)
            self.heading = Label(text="", font_size="28sp", bold=True, halign="left",
                                 valign="middle", color=theme.TEXT)
            self.heading.bind(size=lambda w, v: setattr(w, "text_size", v))
            self.countdown = Label(text="", font_size="44sp", bold=True, color=theme.ACCENT,
                                   size_hint_x=None, width=170)
            top.add_widget(self.heading)
            top.add_widget(self.countdown)
            box.add_widget(top)
            scroll = ScrollView(do_scroll_x=False, bar_width=8)
            self.body = Label(text="", font_size="19sp", halign="left", valign="top",
                              color=theme.TEXT, size_hint_y=None)
            self.body.bind(width=lambda w, v: setattr(w, "text_size", (v - 16, None)),
                           texture_size=lambda w, v: setattr(w, "height", v[1]))
            scroll.add_widget(self.body)
            box.add_widget(scroll)
            self.unsaved = Button(text="Play without saving", size_hint_y=None, height=64,
                                  font_size="22sp")
            self.unsaved.bind(on_release=lambda _b: self.play_unsaved())
            box.add_widget(self.unsaved)
            self.refresh(0.0)
            Clock.schedule_interval(self.refresh, LOOK_EVERY_S)
            return box

        def refresh(self, _dt: float) -> None:
            if outcome[0] is Outcome.MOUNTED:
                return
            view = wait.look()
            self.heading.text = view.title
            self.countdown.text = view.countdown
            self.body.text = "\n\n".join(view.lines)
            self.unsaved.disabled = not view.may_play_unsaved
            self.unsaved.opacity = 1 if view.may_play_unsaved else 0
            if view.phase is Phase.HERE:
                outcome[0] = Outcome.MOUNTED
                log.warning("companion: the data stick %s is mounted after %.0f s",
                            wait.protect, wait.waited)
                Clock.schedule_once(lambda _dt: self.stop(), SHOW_ARRIVAL_S)

        def play_unsaved(self) -> None:
            if outcome[0] is Outcome.CLOSED and not self.unsaved.disabled:
                outcome[0] = Outcome.UNSAVED
                log.warning("companion: the players chose to play without saving (%s not "
                            "mounted)", wait.protect)
                self.stop()

    watch_over(Clock)
    WaitApp().run()
    return outcome[0]
