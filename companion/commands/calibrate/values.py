"""What is typed after `companion calibrate STEP`, read with errors that name it (X,Y pairs,
seats), and the error line a step ends with."""

from __future__ import annotations

import sys


def fail(msg: str) -> int:
    print(f"companion calibrate: {msg}", file=sys.stderr)
    return 2


def pair(text: str, sep: str, what: str) -> tuple[float, float]:
    try:
        a, b = text.lower().split(sep)
        return float(a), float(b)
    except ValueError as e:
        raise ValueError(f"{what} must look like 12{sep}34, got {text!r}") from e


def seat_number(text: str) -> int:
    try:
        return int(text)
    except ValueError as e:
        raise ValueError(f"seat must be a number 1..6, got {text!r}") from e


__all__ = ["fail", "pair", "seat_number"]
