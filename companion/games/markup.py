"""A model's :class:`~companion.games.emphasis.Text` as Kivy markup: stressed words bold,
every word escaped (a name holding "[" shows as written). For the Kivy screens only."""

from __future__ import annotations

from kivy.utils import escape_markup

from companion.games.emphasis import Text


def markup(text: Text) -> str:
    """Kivy markup for a label with ``markup=True``."""
    return "".join(f"[b]{escape_markup(s.text)}[/b]" if s.strong else escape_markup(s.text)
                   for s in text.spans)


__all__ = ["markup"]
