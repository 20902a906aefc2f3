"""Text with emphasis, as plain data: what a game's model gives its screen instead of markup.

A model says which words to stress (a player's name, a card's number) with :class:`Text`, a
run of :class:`Span` s; only the Kivy screen beside it turns that into Kivy markup
(:func:`companion.games.markup.markup`), escaping the words as it goes. A span never runs over
a line break: a screen may size a text line by line.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class Span:
    """Words of a text, stressed (drawn bold) or not."""

    text: str
    strong: bool = False


@dataclass(frozen=True)
class Text:
    """A text as runs of words, some stressed; ``plain`` is what it says."""

    spans: tuple[Span, ...] = ()

    @property
    def plain(self) -> str:
        return "".join(s.text for s in self.spans)

    def __bool__(self) -> bool:
        return any(s.text for s in self.spans)

    def __add__(self, other: Text | str) -> Text:
        return Text(self.spans + _spans(other))


def _spans(text: Text | str) -> tuple[Span, ...]:
    if isinstance(text, Text):
        return text.spans
    return (Span(text),) if text else ()


def plain(text: str) -> Text:
    """Words with no stress."""
    return Text(_spans(text))


def strong(text: str) -> Text:
    """Words to stress."""
    if "\n" in text:
        raise ValueError(f"stressed words run over a line break: {text!r}")
    return Text((Span(text, True),) if text else ())


def joined(texts: Iterable[Text | str], sep: str = "\n") -> Text:
    """Texts one after another, ``sep`` between them (empty ones left out)."""
    out = Text()
    for t in texts:
        t = t if isinstance(t, Text) else plain(t)
        if t:
            out = out + sep + t if out else t
    return out


__all__ = ["Span", "Text", "joined", "plain", "strong"]
