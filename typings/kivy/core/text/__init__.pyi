from typing import Any

from kivy.graphics.texture import Texture

class Label:
    texture: Texture | None
    def __init__(self, text: str = ..., **kwargs: Any) -> None: ...
    def refresh(self) -> None: ...
