"""Typing at the table (docs/app.md, "Keyboard"): the on-screen keyboard, docked at the bottom,
unless a keyboard is plugged in; and whether a text field has the keyboard now (a plugged-in
keyboard's keys are then its own, not the app's).

Kivy's window and config: only the app calls these, on its main thread.
"""

from __future__ import annotations

from typing import Any


def keyboard_mode(on_screen: bool) -> str:
    """Kivy's name for the keyboard mode: a plugged-in keyboard always types; the on-screen
    one is docked at the bottom of the screen."""
    return "systemanddock" if on_screen else "system"


def use_keyboard(setting: str) -> str:
    """Type names and folders on the on-screen keyboard (docked at the bottom; the screen
    lifts a field it would hide, see widgets.TypingInput) unless a keyboard is plugged in
    ("auto"), always ("on-screen"), or never ("physical"). Returns Kivy's keyboard mode."""
    from kivy.config import Config
    from kivy.core.window import Window

    from hardware.keyboard import typing_keyboards

    on_screen = setting == "on-screen" or (setting == "auto" and not typing_keyboards())
    mode = keyboard_mode(on_screen)
    Config.set("kivy", "keyboard_mode", mode)  # in memory (config.ini is not written)
    Window.use_syskeyboard = True  # a plugged-in keyboard types in every mode
    Window.allow_vkeyboard = Window.docked_vkeyboard = on_screen
    Window.single_vkeyboard = True
    Window.softinput_mode = ""  # the screen lifts a field itself (widgets.TypingInput)
    return mode


def typing(root: Any) -> bool:
    """A text field under ``root`` (a widget, or None) has the keyboard: a name is being
    typed, and keys are its own."""
    from kivy.uix.textinput import TextInput

    return root is not None and any(isinstance(w, TextInput) and w.focus
                                    for w in root.walk(restrict=True))
