from typing import Any

class _Builder:
    files: list[str]
    def load_file(self, filename: str, **kwargs: Any) -> Any: ...
    def load_string(self, string: str, **kwargs: Any) -> Any: ...

Builder: _Builder
