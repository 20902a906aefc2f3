"""How the screens count things in words, with no Kivy."""

from __future__ import annotations


def plural(n: int, word: str, words: str | None = None) -> str:
    """A count and its noun, agreeing (``words`` for an irregular plural), thousands marked.

    >>> plural(1, "point"), plural(2000, "point"), plural(0, "round"), plural(2, "die", "dice")
    ('1 point', '2,000 points', '0 rounds', '2 dice')
    """
    return f"{n:,} {word if n == 1 else (words or word + 's')}"


def thousands(text: str) -> str:
    """A whole number of a table cell as the screens write numbers, thousands marked; any other
    text as it is.

    >>> thousands("2100"), thousands("-1500"), thousands("350"), thousands("3:00"), thousands("")
    ('2,100', '-1,500', '350', '3:00', '')
    """
    digits = text.removeprefix("-")
    return f"{int(text):,}" if digits.isdigit() and digits.isascii() else text


def together(name: str) -> str:
    """A name that a wrapped line never breaks inside ("Floris Band III" stays on one line):
    its spaces made no-break spaces.

    >>> together("Floris Band III")
    'Floris\xa0Band\xa0III'
    """
    return name.replace(" ", "\u00a0")


def fmt_clock(seconds: float) -> str:
    """Seconds left as the clock shows them: m:ss, rounded up."""
    s = max(0, int(seconds + 0.999))
    return f"{s // 60}:{s % 60:02d}"


def fmt_clock_at(at: float | None) -> str:
    """A call's time in the log: m:ss into the round."""
    if at is None:
        return ""
    s = int(at)
    return f"{s // 60}:{s % 60:02d}"


__all__ = ["fmt_clock", "fmt_clock_at", "plural", "thousands", "together"]
