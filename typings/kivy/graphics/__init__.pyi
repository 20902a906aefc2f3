from typing import Any

class Instruction:
    def __init__(self, *args: Any, **kwargs: Any) -> None: ...

class Color(Instruction):
    rgba: tuple[float, ...] | list[float]

class Rectangle(Instruction):
    pos: tuple[float, float]
    size: tuple[float, float]

class Line(Instruction):
    points: list[float]
