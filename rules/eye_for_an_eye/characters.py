"""Characters as data: one TOML file per character, shipped here and extendable by users.

A file gives the character's health, dice, the five actions of its player board (movement,
attack, heal, defence, innate), its three tribal cards (Band I-III) and, for characters such as
Chief Echo, several figures sharing one board. Each action names its die icon, its minimum
requirement spaces (``required``) and total spaces, whether it is a reaction (a name between
asterisks in the rulebook) and its effect. Fields the rulebook does not publish are listed in
``provisional``; see docs/rules/eye-for-an-eye.md.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from rules.core import SetupError

#: The six icons on every Eye for an Eye die, named once. ``ready`` readies tribal cards and
#: powers innate actions; ``resolve`` resolves readied cards.
ICONS: tuple[str, ...] = ("movement", "attack", "defence", "heal", "ready", "resolve")

#: The five actions of a player board, by their generic names.
ACTION_KINDS: tuple[str, ...] = ("movement", "attack", "heal", "defence", "innate")

#: What an action or card can do. ``unknown`` is an effect not published: taken at the players'
#: word (the dice are spent, nothing else changes).
EFFECT_KINDS: tuple[str, ...] = ("move", "face", "hits", "heal", "cancel", "unknown")


class CharacterError(SetupError):
    """Raised when a character file is malformed; names the file and the field."""


@dataclass(frozen=True)
class Effect:
    """What resolving an action does. Hits, heals and cancels are ``per_die * dice + amount``."""

    kind: str
    per_die: int = 0
    amount: int = 0
    unblockable: bool = False

    def total(self, dice: int) -> int:
        return self.per_die * dice + self.amount


@dataclass(frozen=True)
class Action:
    """One action of a player board or a tribal card's resolving side."""

    key: str  # "movement", "attack", "heal", "defence", "innate", or "card:<name>"
    name: str
    icon: str
    required: int
    spaces: int
    reaction: bool
    text: str
    effect: Effect


@dataclass(frozen=True)
class Card:
    """A tribal card: readied with ``ready_cost`` dice of ``ready_icon``, then resolved."""

    band: int
    name: str
    ready_icon: str
    ready_cost: int
    action: Action


@dataclass(frozen=True)
class Figure:
    """A figure in the arena. Most boards have one; Chief Echo's has five."""

    name: str
    health: int


@dataclass(frozen=True)
class Character:
    """A character's player board."""

    id: str
    name: str
    short: str
    tribe: str
    health: int
    dice: int
    actions: Mapping[str, Action]
    cards: tuple[Card, ...]
    figures: tuple[Figure, ...]
    provisional_fields: tuple[str, ...] = ()

    @property
    def provisional(self) -> bool:
        """True when any part of this board is not published and was filled in by us."""
        return bool(self.provisional_fields)

    def action(self, key: str) -> Action:
        return self.actions[key]

    def card(self, name: str) -> Card | None:
        for card in self.cards:
            if card.name.casefold() == name.casefold():
                return card
        return None


def _field(data: Mapping[str, Any], key: str, kind: type, where: str) -> Any:
    if key not in data:
        raise CharacterError(f"{where}: missing {key!r}")
    value = data[key]
    if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
        raise CharacterError(f"{where}: {key!r} must be a whole number, got {value!r}")
    if not isinstance(value, kind):
        raise CharacterError(f"{where}: {key!r} must be {kind.__name__}, got {value!r}")
    return value


def _check_keys(data: Mapping[str, Any], allowed: set[str], where: str) -> None:
    extra = set(data) - allowed
    if extra:
        raise CharacterError(f"{where}: unknown keys {sorted(extra)}; allowed: "
                             + ", ".join(sorted(allowed)))


def _effect(data: Any, where: str) -> Effect:
    if not isinstance(data, Mapping):
        raise CharacterError(f"{where}: 'effect' must be a table")
    _check_keys(data, {"kind", "per_die", "amount", "unblockable"}, f"{where}.effect")
    kind = _field(data, "kind", str, f"{where}.effect")
    if kind not in EFFECT_KINDS:
        raise CharacterError(f"{where}.effect: kind {kind!r} is not one of "
                             + ", ".join(EFFECT_KINDS))
    per_die = data.get("per_die", 0)
    amount = data.get("amount", 0)
    unblockable = data.get("unblockable", False)
    for key, value in (("per_die", per_die), ("amount", amount)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise CharacterError(f"{where}.effect: {key!r} must be a whole number >= 0")
    if not isinstance(unblockable, bool):
        raise CharacterError(f"{where}.effect: 'unblockable' must be true or false")
    return Effect(kind, per_die, amount, unblockable)


def _action(key: str, data: Any, where: str) -> Action:
    if not isinstance(data, Mapping):
        raise CharacterError(f"{where}: must be a table")
    _check_keys(data, {"name", "icon", "required", "spaces", "reaction", "text", "effect",
                       "ready_icon", "ready_cost", "band"}, where)
    icon = _field(data, "icon", str, where)
    if icon not in ICONS:
        raise CharacterError(f"{where}: icon {icon!r} is not one of {', '.join(ICONS)}")
    required = _field(data, "required", int, where)
    spaces = _field(data, "spaces", int, where)
    if not 0 <= required <= spaces:
        raise CharacterError(f"{where}: needs 0 <= required ({required}) <= spaces ({spaces})")
    reaction = data.get("reaction", False)
    if not isinstance(reaction, bool):
        raise CharacterError(f"{where}: 'reaction' must be true or false")
    name = _field(data, "name", str, where).strip()
    if not name or ":" in name or " on " in f" {name} ":
        raise CharacterError(f"{where}: name {name!r} must be non-empty, without ':' or ' on '")
    return Action(key, name, icon, required, spaces, reaction,
                  str(data.get("text", "")), _effect(data.get("effect"), where))


def character_from_dict(data: Mapping[str, Any], source: str = "character") -> Character:
    """Build a :class:`Character` from a parsed TOML table, strictly."""
    _check_keys(data, {"id", "name", "short", "tribe", "health", "dice", "provisional",
                       "actions", "cards", "figures"}, source)
    cid = _field(data, "id", str, source)
    health = _field(data, "health", int, source)
    dice = _field(data, "dice", int, source)
    if health < 1 or dice < 1:
        raise CharacterError(f"{source}: health and dice must be at least 1")
    actions_raw = _field(data, "actions", dict, source)
    missing = [k for k in ACTION_KINDS if k not in actions_raw]
    if missing:
        raise CharacterError(f"{source}: missing actions {missing}")
    _check_keys(actions_raw, set(ACTION_KINDS), f"{source}.actions")
    actions = {k: _action(k, actions_raw[k], f"{source}.actions.{k}") for k in ACTION_KINDS}
    cards = []
    for i, raw in enumerate(data.get("cards", []), start=1):
        where = f"{source}.cards[{i}]"
        ready_icon = _field(raw, "ready_icon", str, where)
        if ready_icon not in ICONS:
            raise CharacterError(f"{where}: ready_icon {ready_icon!r} is not an icon")
        name = _field(raw, "name", str, where)
        cards.append(Card(_field(raw, "band", int, where), name, ready_icon,
                          _field(raw, "ready_cost", int, where),
                          _action(f"card:{name}", raw, where)))
    figures_raw = data.get("figures") or [{"name": _field(data, "short", str, source),
                                           "health": health}]
    figures = tuple(Figure(_field(f, "name", str, f"{source}.figures"),
                           _field(f, "health", int, f"{source}.figures")) for f in figures_raw)
    if sum(f.health for f in figures) != health:
        raise CharacterError(f"{source}: figures' health adds to "
                             f"{sum(f.health for f in figures)}, not the board's {health}")
    names = [a.name.casefold() for a in actions.values()] + [c.name.casefold() for c in cards]
    if len(set(names)) != len(names):
        raise CharacterError(f"{source}: action and card names must differ")
    provisional = data.get("provisional", [])
    if not isinstance(provisional, list) or not all(isinstance(p, str) for p in provisional):
        raise CharacterError(f"{source}: 'provisional' must be a list of field names")
    return Character(cid, _field(data, "name", str, source), _field(data, "short", str, source),
                     _field(data, "tribe", str, source), health, dice, actions, tuple(cards),
                     figures, tuple(provisional))


_REGISTRY: dict[str, Character] = {}


def load_character_file(path: Path | str) -> Character:
    """Read one character file. Raises :class:`CharacterError` naming the file and field."""
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as e:
        raise CharacterError(f"{path}: cannot read character file: {e}") from e
    return character_from_dict(data, str(path))


def register_character(character: Character) -> None:
    """Make a user's character available to new games (its id must be new)."""
    characters()
    if character.id in _REGISTRY:
        raise CharacterError(f"character id {character.id!r} is already taken")
    _REGISTRY[character.id] = character


def characters() -> dict[str, Character]:
    """Every known character by id: the shipped ones first, then any a user registered."""
    if not _REGISTRY:
        folder = resources.files(__package__).joinpath("characters")
        order = ["grubic", "riparian", "banksia", "pluma", "incendiary", "echo"]
        found = {}
        for entry in folder.iterdir():
            if entry.name.endswith(".toml"):
                data = tomllib.loads(entry.read_text(encoding="utf-8"))
                c = character_from_dict(data, f"characters/{entry.name}")
                found[c.id] = c
        for cid in sorted(found, key=lambda c: (order.index(c) if c in order else 99, c)):
            _REGISTRY[cid] = found[cid]
    return dict(_REGISTRY)
