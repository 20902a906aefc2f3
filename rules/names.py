"""Names as people see them: one way of writing each, and nothing in them that cannot be seen.

A name typed on a keyboard may come as ``e`` and a combining accent or as ``é`` (the same
to the eye, not to a computer): :func:`normal` writes it one way (Unicode's NFC). Some
characters show as nothing at all (a zero-width space, the Hangul filler) or turn the
direction of the text around them (a right-to-left override): two names that look the same
would then be two players, and an export or a terminal would show something else than the
name. :func:`invisible` names such a character; the places where a name comes in (the start
screen, a tournament's entrants, imported game files) refuse it. Names already kept (a
journal, a tournament's events) are read as they are.

The characters refused are Unicode's *default ignorable* code points (DerivedCoreProperties:
shown as nothing when a font has no glyph for them), which hold every format and direction
control, and the fillers that look like a blank letter; and more than a few accents stacked on
one letter.
"""

from __future__ import annotations

import unicodedata

#: Unicode's Default_Ignorable_Code_Point ranges (DerivedCoreProperties.txt, Unicode 15):
#: zero-width and joiner characters, direction marks, embeddings, overrides and isolates,
#: the Hangul fillers, variation selectors, tags, the soft hyphen, invisible operators.
DEFAULT_IGNORABLE: tuple[tuple[int, int], ...] = (
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160),
    (0x17B4, 0x17B5), (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E),
    (0x2060, 0x206F), (0x3164, 0x3164), (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF))
#: Blank characters that are not default ignorable but show as nothing all the same.
BLANK = frozenset({0x2800})  # BRAILLE PATTERN BLANK
#: Accents (combining marks) one letter may carry; more is text piled up to hide others.
MOST_MARKS = 4


def normal(name: str) -> str:
    """``name`` written one way (NFC): what was typed as a letter and a combining accent is
    the accented letter.

    >>> normal("Jose\\u0301") == "Jos\\u00e9"
    True
    """
    return unicodedata.normalize("NFC", name)


def _ignorable(code: int) -> bool:
    return code in BLANK or any(low <= code <= high for low, high in DEFAULT_IGNORABLE)


def invisible(name: str) -> str:
    """What in ``name`` cannot be seen, in words ("U+200B ZERO WIDTH SPACE, which shows as
    nothing"), or "" when everything in it shows.

    >>> invisible("Ana")
    ''
    >>> invisible("A\\u202ena")
    'U+202E RIGHT-TO-LEFT OVERRIDE, which turns the text around it'
    """
    marks = 0
    for ch in name:
        code = ord(ch)
        if _ignorable(code):
            what = unicodedata.name(ch, "an unnamed character")
            turns = 0x202A <= code <= 0x202E or 0x2066 <= code <= 0x2069 or code in (
                0x200E, 0x200F, 0x061C)
            return (f"U+{code:04X} {what}, which "
                    + ("turns the text around it" if turns else "shows as nothing"))
        marks = marks + 1 if unicodedata.combining(ch) else 0
        if marks > MOST_MARKS:
            return f"more than {MOST_MARKS} accents on one letter"
    return ""


__all__ = ["DEFAULT_IGNORABLE", "MOST_MARKS", "invisible", "normal"]
