"""Tribal Village objectives: the 14 cards from objectives.toml (provisional) and their scoring.

A Village is scored as its separate tricks (a list of piles), since Secret, Crowded and Balanced
Villages need the tricks kept apart. Lucky Gretin cards never count towards an objective.
"""

from __future__ import annotations

import tomllib
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from rules.tribal_village.cards import GRETIN, ally_of, card_value, tribe_of

__all__ = ["OBJECTIVES", "Objective", "score_objective"]

Layout = Sequence[Sequence[str]]
Tricks = Sequence[Sequence[str]]


@dataclass(frozen=True)
class Objective:
    """One objective card: its name, scoring kind, that kind's numbers and its text."""

    name: str
    kind: str
    text: str
    params: Mapping[str, Any] = field(default_factory=dict, hash=False, compare=False)
    provisional: bool = True


def _cards(tricks: Tricks) -> list[str]:
    return [c for trick in tricks for c in trick if c != GRETIN]


def _int(obj: Objective, key: str) -> int:
    value = obj.params.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"objective {obj.name!r}: '{key}' must be a whole number, got {value!r}")
    return value


def _tricks_table(obj: Objective, tricks: Tricks, layout: Layout) -> int:
    table = obj.params.get("table", {})
    return int(table.get(str(len(tricks)), 0))


def _per_trick(obj: Objective, tricks: Tricks, layout: Layout) -> int:
    need = _int(obj, "min_cards")
    return _int(obj, "points") * sum(1 for t in tricks if len(_cards([t])) >= need)


def _trick_tribes(obj: Objective, tricks: Tricks, layout: Layout) -> int:
    need = _int(obj, "min_tribes")
    return _int(obj, "points") * sum(
        1 for t in tricks if len({tribe_of(c) for c in _cards([t])}) >= need)


def _distinct_tribes(obj: Objective, tricks: Tricks, layout: Layout) -> int:
    return _int(obj, "points") * len({tribe_of(c) for c in _cards(tricks)})


def _most_common_tribe(obj: Objective, tricks: Tricks, layout: Layout) -> int:
    counts = Counter(tribe_of(c) for c in _cards(tricks))
    return _int(obj, "points") * max(counts.values(), default=0)


def _allied_pairs(obj: Objective, tricks: Tricks, layout: Layout) -> int:
    counts = Counter(tribe_of(c) for c in _cards(tricks))
    pairs = sum(min(counts[g[0]], counts[g[1]]) for g in layout if len(g) == 2)
    return _int(obj, "points") * pairs


def _unallied_cards(obj: Objective, tricks: Tricks, layout: Layout) -> int:
    return _int(obj, "points") * sum(
        1 for c in _cards(tricks) if ally_of(tribe_of(c), layout) is None)


def _value_range(obj: Objective, tricks: Tricks, layout: Layout) -> int:
    low, high = _int(obj, "low"), _int(obj, "high")
    return _int(obj, "points") * sum(
        1 for c in _cards(tricks) if low <= card_value(c) <= high)


def _same_value_pairs(obj: Objective, tricks: Tricks, layout: Layout) -> int:
    counts = Counter(card_value(c) for c in _cards(tricks))
    return _int(obj, "points") * sum(n // 2 for n in counts.values())


def _longest_run(obj: Objective, tricks: Tricks, layout: Layout) -> int:
    values = sorted({card_value(c) for c in _cards(tricks)})
    best = run = 0
    for i, v in enumerate(values):
        run = run + 1 if i and v == values[i - 1] + 1 else 1
        best = max(best, run)
    return _int(obj, "points") * best


def _per_cards(obj: Objective, tricks: Tricks, layout: Layout) -> int:
    return _int(obj, "points") * (len(_cards(tricks)) // _int(obj, "per"))


def _fewer_cards(obj: Objective, tricks: Tricks, layout: Layout) -> int:
    return max(0, _int(obj, "base") - _int(obj, "minus") * len(_cards(tricks)))


def _value_sum(obj: Objective, tricks: Tricks, layout: Layout) -> int:
    total = sum(card_value(c) for c in _cards(tricks))
    return _int(obj, "points") * (total // _int(obj, "per"))


_KINDS: dict[str, Callable[[Objective, Tricks, Layout], int]] = {
    "tricks_table": _tricks_table,
    "per_trick": _per_trick,
    "trick_tribes": _trick_tribes,
    "distinct_tribes": _distinct_tribes,
    "most_common_tribe": _most_common_tribe,
    "allied_pairs": _allied_pairs,
    "unallied_cards": _unallied_cards,
    "value_range": _value_range,
    "same_value_pairs": _same_value_pairs,
    "longest_run": _longest_run,
    "per_cards": _per_cards,
    "fewer_cards": _fewer_cards,
    "value_sum": _value_sum,
}


def score_objective(obj: Objective, tricks: Tricks, layout: Layout) -> int:
    """Points ``obj`` gives a Village held as separate tricks, under the hand's final alliances.

    >>> score_objective(OBJECTIVES["Crowded Village"], [["Ignis 1", "Floris 2"], ["Lucky Gretin"]],
    ...                 [])
    2
    """
    return _KINDS[obj.kind](obj, tricks, layout)


def load_objectives(text: str) -> dict[str, Objective]:
    """Read objective cards from TOML text; raises ValueError naming a bad card."""
    data = tomllib.loads(text)
    found: dict[str, Objective] = {}
    for raw in data.get("objective", []):
        name = raw.get("name")
        kind = raw.get("kind")
        if not isinstance(name, str) or not name.strip():
            raise ValueError(f"objective {raw!r}: needs a name")
        if kind not in _KINDS:
            raise ValueError(f"objective {name!r}: unknown kind {kind!r}; "
                             f"known kinds: {', '.join(_KINDS)}")
        if name in found:
            raise ValueError(f"objective {name!r}: listed twice")
        params = {k: v for k, v in raw.items() if k not in ("name", "kind", "text", "provisional")}
        obj = Objective(name, kind, str(raw.get("text", "")), params,
                        bool(raw.get("provisional", True)))
        score_objective(obj, [], [])  # fails early on missing or mistyped numbers
        found[name] = obj
    return found


OBJECTIVES: dict[str, Objective] = load_objectives(
    resources.files(__package__).joinpath("objectives.toml").read_text(encoding="utf-8"))
