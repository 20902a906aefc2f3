"""Long lists of choices shown a page at a time, for the table screens (pure, no Kivy).

A screen's grid of buttons never scrolls (a button stays where it was drawn, and every button
on show can be reached): when the choices do not fit, the last cell turns the page.

>>> one_page(list("abcdefgh"), room=4, page=0)
(['a', 'b', 'c'], 0, 3)
>>> one_page(list("abcdefgh"), room=4, page=5)
(['g', 'h', None], 2, 3)
>>> one_page(list("abc"), room=4, page=0)
(['a', 'b', 'c'], 0, 1)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")


def one_page(items: Sequence[T], room: int, page: int) -> tuple[list[T | None], int, int]:
    """The items of page ``page`` (counted round) in a grid of ``room`` cells, the page shown
    and how many pages there are. When everything fits, all items and one page; else
    ``room - 1`` cells per page (padded with None, so the page-turning cell is always the
    last one) and the caller adds the page-turning cell."""
    if len(items) <= room:
        return list(items), 0, 1
    per = room - 1
    pages = -(-len(items) // per)
    page %= pages
    shown: list[T | None] = list(items[page * per:(page + 1) * per])
    shown += [None] * (per - len(shown))
    return shown, page, pages


__all__ = ["one_page"]
