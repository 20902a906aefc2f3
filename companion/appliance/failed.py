"""The screen shown instead of the app after too many crashes in a row (companion.appliance.starts).

It says what failed, with the last lines of the log, and has one button, Try again, which clears
the count and ends this process: the appliance (systemd or lwrespawn) then starts the app anew.
It feeds systemd's watchdog like the app, so it stays up as long as the players need to read it.
"""

from __future__ import annotations

from typing import Any

from companion.appliance.starts import Starts, failure_text


def show_failure(starts: Starts, lines: list[str]) -> None:
    """Run the failure screen until Try again is tapped (Kivy's Config must be set already)."""
    from kivy.app import App
    from kivy.clock import Clock
    from kivy.uix.boxlayout import BoxLayout
    from kivy.uix.button import Button
    from kivy.uix.label import Label
    from kivy.uix.scrollview import ScrollView

    from companion.appliance.notify import watch_over

    text = failure_text(starts, lines)

    class FailedApp(App):
        title = "Table companion: failed to start"

        def build(self) -> Any:
            box = BoxLayout(orientation="vertical", padding=16, spacing=12)
            scroll = ScrollView()
            label = Label(text=text, halign="left", valign="top", size_hint_y=None,
                          font_size="15sp")
            label.bind(width=lambda w, v: setattr(w, "text_size", (v, None)),
                       texture_size=lambda w, v: setattr(w, "height", v[1]))
            scroll.add_widget(label)
            box.add_widget(scroll)
            again = Button(text="Try again", size_hint_y=None, height=72, font_size="22sp")
            again.bind(on_release=lambda _b: self.try_again())
            box.add_widget(again)
            return box

        def try_again(self) -> None:
            starts.reset()
            self.stop()

    watch_over(Clock)
    FailedApp().run()
