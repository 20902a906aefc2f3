"""How the screens count things in words, with no Kivy."""

from __future__ import annotations


def plural(n: int, word: str, words: str | None = None) -> str:
    """A count and its noun, agreeing (``words`` for an irregular plural), thousands marked.

    >>> plural(1, "point"), plural(2000, "point"), plural(0, "round"), plural(2, "die", "dice")
    ('1 point', '2,000 points', '0 rounds', '2 dice')
    """
    return f"{n:,} {word if n == 1 else (words or word + 's')}"


__all__ = ["plural"]
