from typing import Any

class MotionEvent:
    sx: float
    sy: float
    profile: list[str]
    pos: tuple[float, float]
    def __init__(self, device: str, id: Any, args: Any, is_touch: bool = ...,
                 type_id: str | None = ...) -> None: ...
    def depack(self, args: Any) -> None: ...
