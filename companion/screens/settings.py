"""The Settings screen: the table's settings in words, saved to the settings file.

Import this module only after Kivy's environment is set (see ``companion.commands.start``).
"""

from __future__ import annotations

from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.screenmanager import Screen
from kivy.uix.widget import Widget

from companion import settings as settings_mod
from companion import theme
from companion.contract import AppHost
from companion.screens.start import MAX_PLAYERS
from companion.widgets import w

#: The Settings screen's words for "leave it to the config file".
AS_CONFIGURED = "as configured"

#: The Settings screen's words for the values it stores.
CAMERA_WORDS = dict(zip(settings_mod.CAMERAS, (
    AS_CONFIGURED, "find one", "Pi camera", "USB camera", "rendered dice (no camera)",
    "no camera"), strict=True))
PALETTE_WORDS = {"okabe-ito": "colour-blind safe", "classic": "classic"}
BUTTON_WORDS = {"default": "the usual map", "none": "no buttons"}
KEYBOARD_WORDS = {"auto": "on screen unless one is plugged in", "on-screen": "on screen",
                  "physical": "plugged-in keyboard"}
#: Voice calls: off, or on (when a microphone is found) at a sensitivity (docs/voice.md).
VOICE_WORDS = {"off": "off", "careful": "on, careful", "normal": "on", "eager": "on, eager"}
MICROPHONE_WORDS = dict(zip(settings_mod.MICROPHONES, (
    AS_CONFIGURED, "find one", "USB (ALSA)", "desktop (PipeWire)", "no microphone"),
    strict=True))


def _words(table: dict[str, str], value: str) -> str:
    return table.get(value, value)


def _value(table: dict[str, str], words: str) -> str:
    return next((v for v, w in table.items() if w == words), words)


class SettingsScreen(Screen):
    """Camera, calibration profile, button map, volume, soundtrack folder, keyboard, colours,
    text size, Eye for an Eye's parry window, where the live dice show, voice calls and the
    microphone: in words. The heading's line says what was saved, or what is wrong (no
    microphone found)."""

    def __init__(self, app: AppHost, **kwargs: Any) -> None:
        super().__init__(name="settings", **kwargs)
        self.app = app
        root = w("Panel", orientation="vertical", padding=8, spacing=4, bg=theme.BACKGROUND)
        s = app.settings
        small = app.fs(16)
        heading = BoxLayout(size_hint_y=None, height=44, spacing=8)
        heading.add_widget(w("THeading", text="Settings", size_hint_x=0.28))
        self.message = w("TLabel", text="", color=theme.DANGER, font_size=small,
                         halign="right", valign="middle", shorten=True,
                         shorten_from="right")
        self.message.bind(size=lambda wid, v: setattr(wid, "text_size", v))
        heading.add_widget(self.message)
        root.add_widget(heading)
        grid = GridLayout(cols=4, spacing=4, row_default_height=48, row_force_default=True,
                          size_hint_y=None, height=6 * 48 + 5 * 4)

        def spin(table: dict[str, str], value: str) -> Any:
            words = _words(table, value)
            return w("TSpinner", text=words, values=list(dict.fromkeys([*table.values(), words])),
                     font_size=small)

        self.camera = spin(CAMERA_WORDS, s.camera)
        self.profile = w("TSpinner", text=s.calibration_profile, font_size=small,
                         values=self.profile_choices(s.calibration_profile))
        self.buttons = spin(BUTTON_WORDS, s.button_map)
        # "as configured" says what that is: the volume playing now when none is set here
        configured = f"{AS_CONFIGURED} ({round(app.volume * 100)}%)" \
            if s.volume is None else AS_CONFIGURED
        volume = configured if s.volume is None else f"{round(s.volume * 100)}%"
        self.volume = w("TSpinner", text=volume, font_size=small,
                        values=[configured, *(f"{v}%" for v in range(0, 101, 10))])
        self.folder = w("TInput", text=s.soundtrack_folder, font_size=small,
                        hint_text="the usual music folder")
        self.keyboard = spin(KEYBOARD_WORDS, s.keyboard)
        self.palette = spin(PALETTE_WORDS, s.palette)
        self.text_size_spin = w("TSpinner", text=s.text_size, font_size=small,
                                values=list(settings_mod.TEXT_SIZES))
        self.parry = w("TSpinner", text=f"{s.parry_seconds:g} s", font_size=small,
                       values=[f"{v} s" for v in (2, 3, 4, 5, 6, 8)])
        self.dice_view = w("TSpinner", text=s.dice_view, font_size=small,
                           values=list(settings_mod.DICE_VIEWS))
        self.voice = spin(VOICE_WORDS, "off" if s.voice_calls == "off"
                          else s.voice_sensitivity)
        self.microphone = spin(MICROPHONE_WORDS, s.microphone)
        for label, widget in (("Camera", self.camera), ("Calibration", self.profile),
                              ("Buttons", self.buttons), ("Volume", self.volume),
                              ("Music folder", self.folder), ("Keyboard", self.keyboard),
                              ("Colours", self.palette), ("Text size", self.text_size_spin),
                              ("Parry (Eye)", self.parry), ("Dice view", self.dice_view),
                              ("Voice calls", self.voice), ("Microphone", self.microphone)):
            grid.add_widget(w("TLabel", text=label, halign="right", size_hint_x=0.5,
                              font_size=small))
            grid.add_widget(widget)
        root.add_widget(grid)
        swatches = BoxLayout(size_hint_y=None, height=36, spacing=4)
        self.swatches = swatches
        root.add_widget(swatches)
        root.add_widget(Widget())  # what is left of the height, at larger screens
        bottom = BoxLayout(size_hint_y=None, height=60, spacing=6)
        # End game is not here: it lives in each game's Menu, asked first
        bottom.add_widget(w("TButton", text="Back", on_release=lambda *_: app.back()))
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
        self.say_microphone()

    def say_microphone(self) -> None:
        """No microphone found (voice calls on): the heading's line says so."""
        from companion.voice.service import microphone_status

        status = microphone_status(self.app.settings, self.app.config_file)
        if not status.found and self.app.settings.voice_calls != "off" \
                and not self.message.text:
            self.message.text = status.words
            self.message.color = theme.MUTED

    def show_swatches(self) -> None:
        self.swatches.clear_widgets()
        for i in range(MAX_PLAYERS):
            colour = theme.player_colour(_value(PALETTE_WORDS, self.palette.text), i)
            swatch = w("Panel", bg=colour)
            swatch.add_widget(w("TLabel", text=f"Seat {i + 1}", color=theme.text_on(colour)))
            self.swatches.add_widget(swatch)

    def save(self) -> None:
        volume = self.volume.text
        s = settings_mod.Settings(
            camera=_value(CAMERA_WORDS, self.camera.text),
            calibration_profile=self.profile.text or "default",
            button_map=_value(BUTTON_WORDS, self.buttons.text),
            volume=None if volume.startswith(AS_CONFIGURED) else int(volume.rstrip("%")) / 100,
            soundtrack_folder=self.folder.text.strip(),
            keyboard=_value(KEYBOARD_WORDS, self.keyboard.text),
            palette=_value(PALETTE_WORDS, self.palette.text),
            text_size=self.text_size_spin.text,
            parry_seconds=float(self.parry.text.split()[0]),
            round_seconds=self.app.settings.round_seconds, dice_view=self.dice_view.text,
            voice_calls="off" if _value(VOICE_WORDS, self.voice.text) == "off" else "auto",
            microphone=_value(MICROPHONE_WORDS, self.microphone.text),
            voice_sensitivity=_value(VOICE_WORDS, self.voice.text)
            if _value(VOICE_WORDS, self.voice.text) != "off"
            else self.app.settings.voice_sensitivity)
        try:
            self.app.apply_settings(s)
            now = self.app.screens.get("settings", self)  # built again for new text sizes
            now.message.text = "Saved."
            now.message.color = theme.ACCENT
        except settings_mod.SettingsError as e:
            self.message.text = str(e)
            self.message.color = theme.DANGER


__all__ = ["AS_CONFIGURED", "SettingsScreen"]
