from typing import Any

from kivy.uix.widget import Widget

class TextInput(Widget):
    def insert_text(self, substring: str, from_undo: bool = ...) -> Any: ...
