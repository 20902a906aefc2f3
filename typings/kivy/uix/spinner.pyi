from typing import Any

from kivy.uix.button import Button

class Spinner(Button):
    def _update_dropdown(self, *largs: Any) -> None: ...
    def on_is_open(self, instance: Any, value: bool) -> None: ...
