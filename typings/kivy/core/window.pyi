from typing import Any

Window: Any
