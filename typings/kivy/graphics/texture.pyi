from typing import Any

class Texture:
    size: tuple[int, int]
    @staticmethod
    def create(size: tuple[int, int] = ..., colorfmt: str = ..., bufferfmt: str = ...,
               **kwargs: Any) -> Texture: ...
    def flip_vertical(self) -> None: ...
    def blit_buffer(self, pbuffer: Any, size: Any = ..., colorfmt: str = ...,
                    bufferfmt: str = ..., **kwargs: Any) -> None: ...
