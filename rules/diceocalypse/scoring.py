"""Scoring keys and the pure helpers a table screen needs: which dice score, what a keep is worth.

A scoring key is data (``keys.toml`` in this package). A *keep* is the dice a player sets aside
from one roll; it scores the best way its dice can be grouped, and every kept die must belong to
a scoring group.

>>> key = scoring_key("ten-thousand")
>>> keep_score((1, 5, 5), key)
200
>>> scoring_mask((1, 2, 3, 4, 6, 6), key)
(True, False, False, False, False, False)
>>> best_keep((2, 2, 2, 1, 3, 4), key)
KeepOption(dice=(1, 2, 2, 2), points=300)
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from itertools import product
from typing import Any, Literal

__all__ = [
    "KeepOption",
    "ScoringKey",
    "best_keep",
    "default_key_name",
    "is_bust",
    "keep_options",
    "keep_score",
    "key_names",
    "scoring_dice",
    "scoring_key",
    "scoring_mask",
]

FACES = (1, 2, 3, 4, 5, 6)
MoreMode = Literal["double", "add", "fixed"]


@dataclass(frozen=True)
class ScoringKey:
    """One scoring table; see ``keys.toml`` for what each field means."""

    name: str
    title: str
    singles: Mapping[int, int] = field(hash=False)
    three_of_a_kind: tuple[int, int, int, int, int, int]
    more_of_a_kind: MoreMode
    four_of_a_kind: int = 0
    five_of_a_kind: int = 0
    six_of_a_kind: int = 0
    three_pairs: int = 0
    straight: int = 0
    four_and_pair: int = 0
    two_triplets: int = 0
    provisional: bool = True
    notes: str = ""

    def of_a_kind(self, face: int, n: int) -> int:
        """Points for ``n`` (3 to 6) dice showing ``face``."""
        base = self.three_of_a_kind[face - 1]
        if n == 3:
            return base
        if self.more_of_a_kind == "double":
            return base * (1 << (n - 3))
        if self.more_of_a_kind == "add":
            return base * (n - 2)
        fixed: dict[int, int] = {4: self.four_of_a_kind, 5: self.five_of_a_kind,
                                 6: self.six_of_a_kind}
        return fixed[n]


@dataclass(frozen=True)
class KeepOption:
    """A set of dice that may be kept from a roll, sorted, and what keeping them scores."""

    dice: tuple[int, ...]
    points: int


def _check_dice(dice: Iterable[int], what: str) -> tuple[int, ...]:
    values = tuple(dice)
    for v in values:
        if isinstance(v, bool) or not isinstance(v, int) or v not in FACES:
            raise ValueError(f"{what} {values!r}: every die must be a whole number 1 to 6, "
                             f"got {v!r}")
    if len(values) > 6:
        raise ValueError(f"{what} {values!r}: at most six dice, got {len(values)}")
    return values


def _counts(dice: Iterable[int]) -> tuple[int, ...]:
    c = [0] * 6
    for v in dice:
        c[v - 1] += 1
    return tuple(c)


def _whole_roll(counts: tuple[int, ...], key: ScoringKey) -> int:
    """Points for the six-dice combinations that use exactly these six dice (0 if none)."""
    shape = sorted(n for n in counts if n)
    best = 0
    if key.straight and shape == [1, 1, 1, 1, 1, 1]:
        best = max(best, key.straight)
    if key.three_pairs and shape == [2, 2, 2]:
        best = max(best, key.three_pairs)
    if key.four_and_pair and shape == [2, 4]:
        best = max(best, key.four_and_pair)
    if key.two_triplets and shape == [3, 3]:
        best = max(best, key.two_triplets)
    return best


@cache
def _best(counts: tuple[int, ...], key: ScoringKey) -> int | None:
    """Best points using every die in ``counts``, or None when some die cannot score."""
    total = sum(counts)
    if total == 0:
        return 0
    found: list[int] = []
    if total == 6:
        whole = _whole_roll(counts, key)
        if whole:
            found.append(whole)
    face = next(i for i, n in enumerate(counts) if n) + 1
    rest = list(counts)
    if key.singles.get(face, 0):
        rest[face - 1] -= 1
        sub = _best(tuple(rest), key)
        if sub is not None:
            found.append(sub + key.singles[face])
        rest[face - 1] += 1
    for n in range(3, counts[face - 1] + 1):
        rest[face - 1] -= n
        sub = _best(tuple(rest), key)
        if sub is not None:
            found.append(sub + key.of_a_kind(face, n))
        rest[face - 1] += n
    return max(found) if found else None


def keep_score(keep: Sequence[int], key: ScoringKey) -> int | None:
    """What keeping these dice (from one roll) scores; None if any kept die does not score.

    >>> keep_score((2, 2, 2, 2), scoring_key("ten-thousand"))
    400
    >>> keep_score((1, 3), scoring_key("ten-thousand")) is None
    True
    """
    dice = _check_dice(keep, "keep")
    if not dice:
        return None
    return _best(_counts(dice), key)


def keep_options(roll: Sequence[int], key: ScoringKey) -> list[KeepOption]:
    """Every different keep a roll allows, best first (most points, then most dice)."""
    dice = _check_dice(roll, "roll")
    counts = _counts(dice)
    options = []
    for take in product(*(range(n + 1) for n in counts)):
        if not any(take):
            continue
        points = _best(tuple(take), key)
        if points is not None:
            kept = tuple(f for f, n in zip(FACES, take, strict=True) for _ in range(n))
            options.append(KeepOption(kept, points))
    options.sort(key=lambda o: (-o.points, -len(o.dice), o.dice))
    return options


def best_keep(roll: Sequence[int], key: ScoringKey) -> KeepOption | None:
    """The keep worth most points (ties: more dice, for hot dice); None for a bust."""
    options = keep_options(roll, key)
    return options[0] if options else None


def is_bust(roll: Sequence[int], key: ScoringKey) -> bool:
    """True when no die of the roll scores."""
    return not keep_options(roll, key)


def scoring_dice(roll: Sequence[int], key: ScoringKey) -> tuple[int, ...]:
    """The dice of a roll that can score in some keep, sorted (empty for a bust)."""
    mask = scoring_mask(roll, key)
    return tuple(sorted(v for v, m in zip(roll, mask, strict=True) if m))


def scoring_mask(roll: Sequence[int], key: ScoringKey) -> tuple[bool, ...]:
    """For each die of the roll, in its place, whether it can be part of a scoring keep.

    With several dice of one face and only some of them able to score, the first ones are marked.
    """
    options = keep_options(roll, key)
    most = [0] * 6
    for o in options:
        for i, n in enumerate(_counts(o.dice)):
            most[i] = max(most[i], n)
    mask = []
    for v in roll:
        mask.append(most[v - 1] > 0)
        most[v - 1] -= 1 if most[v - 1] > 0 else 0
    return tuple(mask)


# -- the data file -----------------------------------------------------------------------------

_FIELDS = {
    "title", "singles", "three-of-a-kind", "more-of-a-kind", "four-of-a-kind", "five-of-a-kind",
    "six-of-a-kind", "three-pairs", "straight", "four-and-pair", "two-triplets", "provisional",
    "notes",
}


def _points(name: str, what: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"scoring key {name!r}: {what} must be a whole number 0 or more, "
                         f"got {value!r}")
    return value


def _key_from_table(name: str, table: Mapping[str, Any]) -> ScoringKey:
    unknown = set(table) - _FIELDS
    if unknown:
        raise ValueError(f"scoring key {name!r}: unknown fields {sorted(unknown)}")
    singles_raw = table.get("singles", {})
    singles = {}
    for face, value in singles_raw.items():
        if not str(face).isdigit() or int(face) not in FACES:
            raise ValueError(f"scoring key {name!r}: singles face {face!r} is not 1 to 6")
        singles[int(face)] = _points(name, f"singles {face}", value)
    triples = table.get("three-of-a-kind")
    if not isinstance(triples, list) or len(triples) != 6:
        raise ValueError(f"scoring key {name!r}: three-of-a-kind must list 6 numbers, "
                         f"got {triples!r}")
    t = tuple(_points(name, "three-of-a-kind", p) for p in triples)
    mode = table.get("more-of-a-kind")
    if mode not in ("double", "add", "fixed"):
        raise ValueError(f"scoring key {name!r}: more-of-a-kind must be 'double', 'add' or "
                         f"'fixed', got {mode!r}")

    def pts(field_name: str) -> int:
        return _points(name, field_name, table.get(field_name, 0))

    if mode == "fixed" and not all(
            pts(f) for f in ("four-of-a-kind", "five-of-a-kind", "six-of-a-kind")):
        raise ValueError(f"scoring key {name!r}: 'fixed' needs four-, five- and six-of-a-kind")
    return ScoringKey(
        name=name,
        title=str(table.get("title", name)),
        singles=singles,
        three_of_a_kind=(t[0], t[1], t[2], t[3], t[4], t[5]),
        more_of_a_kind=mode,
        four_of_a_kind=pts("four-of-a-kind"),
        five_of_a_kind=pts("five-of-a-kind"),
        six_of_a_kind=pts("six-of-a-kind"),
        three_pairs=pts("three-pairs"),
        straight=pts("straight"),
        four_and_pair=pts("four-and-pair"),
        two_triplets=pts("two-triplets"),
        provisional=bool(table.get("provisional", True)),
        notes=str(table.get("notes", "")),
    )


@cache
def _all_keys() -> tuple[str, dict[str, ScoringKey]]:
    text = resources.files(__package__).joinpath("keys.toml").read_text(encoding="utf-8")
    data = tomllib.loads(text)
    keys = {name: _key_from_table(name, table) for name, table in data["keys"].items()}
    default = data["default"]
    if default not in keys:
        raise ValueError(f"keys.toml: default {default!r} is not one of {sorted(keys)}")
    return default, keys


def key_names() -> list[str]:
    """The names of the shipped scoring keys, the default first."""
    default, keys = _all_keys()
    return [default, *(k for k in keys if k != default)]


def default_key_name() -> str:
    """The name of the default scoring key."""
    return _all_keys()[0]


def scoring_key(name: str) -> ScoringKey:
    """A shipped scoring key by name. Raises ValueError naming the choices for an unknown name."""
    keys = _all_keys()[1]
    if name not in keys:
        raise ValueError(f"unknown scoring key {name!r}; choose one of: {', '.join(key_names())}")
    return keys[name]
