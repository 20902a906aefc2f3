from typing import Any

class _EventLoop:
    window: Any
    input_providers: list[Any]
    def post_dispatch_input(self, etype: str, me: Any) -> None: ...

EventLoop: _EventLoop
