from typing import Any

class _Factory:
    def get(self, classname: str) -> Any: ...
    def register(self, classname: str, cls: Any = ..., module: str | None = ...) -> None: ...

Factory: _Factory
