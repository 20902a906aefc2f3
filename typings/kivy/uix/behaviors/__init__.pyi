from typing import Any

class ButtonBehavior:
    def __init__(self, **kwargs: Any) -> None: ...
