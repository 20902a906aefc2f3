from typing import Any

class _Factory:
    def get(self, classname: str) -> Any: ...

Factory: _Factory
