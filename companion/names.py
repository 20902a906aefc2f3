"""Names that look alike: "Аna" written with a Cyrillic А beside "Ana" (issue 42).

Two names that look the same to the players but are different text are two players to the
companion: two seats, two rows of statistics, an entrant that cannot be told from another on
the page. :func:`lookalike` finds, among names already there, one that a name would be
mistaken for; :func:`disguised` says when a name mixes Latin letters with letters of another
script that look like Latin ones. Both are warnings: names in other scripts are welcome.

A name's *skeleton* is what it looks like: compatibility forms folded (NFKC: a fullwidth ``Ａ``
is ``A``), each character that Unicode lists as confusable with a Latin one replaced by it
(the confusables data of Unicode's security mechanisms, UTS #39, through the
``confusable-homoglyphs`` package), and case folded. Two names with one skeleton look alike.
The data (about 1 MB) is loaded only when a name outside ASCII is met: two names both in plain
ASCII are not compared (``Ian`` and ``lan`` stay two names without a word).
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Iterable
from typing import Any

_PLAIN = ("COMMON", "INHERITED", "Unknown")


@functools.cache
def _data() -> tuple[Any, Any]:
    from confusable_homoglyphs import categories, confusables

    return confusables.confusables_data, categories


def _script(ch: str) -> str:
    return str(_data()[1].alias(ch))


@functools.cache
def _looks_like(ch: str) -> str:
    """The prototype of the characters ``ch`` is confusable with (UTS #39: ``l`` for ``I``,
    ``1`` and the Cyrillic ``І``; ``rn`` for ``m``), or ``ch`` when it is one itself. (The
    data lists each prototype's look-alikes, and each look-alike's one prototype.)"""
    found = _data()[0].get(ch)
    return str(found[0]["c"]) if found is not None and len(found) == 1 else ch


def skeleton(name: str) -> str:
    """What ``name`` looks like (two names with one skeleton look alike).

    >>> skeleton("Ana") == skeleton("\u0410na") == skeleton("\uff21na")
    True
    """
    folded = unicodedata.normalize("NFKC", name)
    return "".join(_looks_like(c) for c in folded).casefold()


def lookalike(name: str, others: Iterable[str]) -> str | None:
    """The first of ``others`` that ``name`` would be mistaken for (it looks the same, but is
    other text), or None. The same name in another case is not a look-alike (it is the same
    name: the companion compares names without case)."""
    others = [o for o in others if o.casefold() != name.casefold()]
    if name.isascii() and all(o.isascii() for o in others):
        return None
    mine = skeleton(name)
    return next((o for o in others if skeleton(o) == mine), None)


def scripts(name: str) -> list[str]:
    """The scripts of the letters of ``name`` ("LATIN", "CYRILLIC"...), in order of use."""
    if name.isascii():
        return ["LATIN"] if any(c.isalpha() for c in name) else []
    seen = [_script(c) for c in name if c.isalpha()]
    return list(dict.fromkeys(s for s in seen if s not in _PLAIN))


def disguised(name: str) -> list[str]:
    """The scripts a name mixes when it holds Latin letters and letters of another script
    that look like Latin ones ("Аna": ["CYRILLIC", "LATIN"]); [] otherwise (a name wholly
    in one script, or mixing scripts that do not look like Latin, as Japanese does)."""
    if name.isascii():
        return []
    used = scripts(name)
    if "LATIN" not in used or len(used) < 2:
        return []
    mimics = any(_script(c) not in ("LATIN", *_PLAIN) and _looks_like(c).isascii()
                 for c in name if c.isalpha())
    return sorted(used) if mimics else []


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def _which(name: str, twin: str) -> str:
    """Which letters of ``name`` are other than ``twin``'s, in words ("its 1st letter, А, is
    Cyrillic"), or "" when that cannot be said letter by letter."""
    if len(name) != len(twin):
        return ""
    differ = [(i, c) for i, (c, t) in enumerate(zip(name, twin, strict=True))
              if c.casefold() != t.casefold()]
    if not differ or len(differ) > 3:
        return ""
    return "its " + " and its ".join(f"{_ordinal(i + 1)} letter, {c}, is {_kind(c)}"
                                     for i, c in differ)


def _kind(ch: str) -> str:
    """What a letter is, in words: "Cyrillic", "a wide form of A"."""
    tag = unicodedata.decomposition(ch).split(" ")[0]
    if tag.startswith("<"):
        return f"a {tag.strip('<>')} form of {unicodedata.normalize('NFKC', ch)}"
    return _script(ch).title()


def warning(name: str, others: Iterable[str], what: str = "the name", *,
            short: bool = False) -> str:
    """What to tell the players about ``name`` beside ``others``, or "" (nothing).
    ``short``: in a few words, for a message line ("Аna looks like Ana: its 1st letter, А,
    is Cyrillic")."""
    twin = lookalike(name, others)
    mixed = disguised(name)
    if short:
        if twin is not None:
            return f"{name} looks like {twin}" + (
                f": {_which(name, twin)}" if _which(name, twin) else ", but is other text")
        return (f"{name} mixes {' and '.join(s.title() for s in mixed)} letters"
                if mixed else "")
    if twin is not None:
        which = _which(name, twin) or (
            f"it mixes {' and '.join(s.title() for s in mixed)} letters" if mixed else
            "some of its letters are of another script or form")
        return (f"{what} {name!r} looks like {twin!r} but is other text ({which}): the "
                "companion takes them for two players. Type it again if it is the same "
                "player.")
    if mixed:
        return (f"{what} {name!r} mixes {' and '.join(s.title() for s in mixed)} letters that "
                "look alike: type it again if that is not meant.")
    return ""


__all__ = ["disguised", "lookalike", "scripts", "skeleton", "warning"]
