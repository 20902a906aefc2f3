from typing import Any

from kivy.uix.widget import Widget

class ModalView(Widget):
    def open(self, *args: Any, **kwargs: Any) -> None: ...
    def dismiss(self, *args: Any, **kwargs: Any) -> None: ...
