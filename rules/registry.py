"""The games by short name, and the two ways to get one: new, or replayed from its history."""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Mapping
from typing import Any

from rules.core import Entry, Game, RulesError, Setup, SetupError

# Short name -> module that defines ``GAME`` (its Game subclass). Modules load on first use.
_MODULES: dict[str, str] = {
    "eye-for-an-eye": "rules.eye_for_an_eye",
    "occulites": "rules.occulites",
    "dice-ocalypse": "rules.diceocalypse",
    "dice-forge": "rules.dice_forge",
    "tribal-village": "rules.tribal_village",
}
_EXTRA: dict[str, type[Game[Any]]] = {}


def register(cls: type[Game[Any]]) -> type[Game[Any]]:
    """Add a game class under its ``name`` (for games defined outside this package)."""
    _EXTRA[cls.name] = cls
    return cls


def _load(name: str) -> type[Game[Any]] | None:
    if name in _EXTRA:
        return _EXTRA[name]
    module_name = _MODULES.get(name)
    if module_name is None:
        return None
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as e:
        if e.name == module_name:
            return None
        raise
    game: type[Game[Any]] = module.GAME
    return game


def game_names() -> list[str]:
    """The short names of every game that is installed, in a stable order."""
    return [n for n in [*_MODULES, *_EXTRA] if _load(n) is not None]


def game_class(name: str) -> type[Game[Any]]:
    """The class of the game called ``name``. Raises :class:`SetupError` for an unknown name."""
    cls = _load(name) if isinstance(name, str) else None
    if cls is None:
        raise SetupError(f"unknown game {name!r}; choose one of: {', '.join(game_names())}")
    return cls


def new_game(
    name: str,
    players: Iterable[str],
    options: Mapping[str, Any] | None = None,
    seed: int = 0,
) -> Game[Any]:
    """Start a game by short name, e.g. ``new_game("eye-for-an-eye", ["Ana", "Ben"])``."""
    return from_setup(Setup(name, tuple(players), dict(options or {}), seed))


def from_setup(setup: Setup) -> Game[Any]:
    """Start the game a :class:`Setup` describes."""
    return game_class(setup.game)(setup)


class ReplayError(RulesError):
    """Raised when a history cannot be replayed; names the entry (1-based) and why."""

    def __init__(self, index: int, entry: Entry, cause: RulesError) -> None:
        self.index = index
        self.entry = entry
        self.cause = cause
        super().__init__(f"call {index} ({entry.call!r}): {cause}")


def replay(setup: Setup, history: Iterable[Entry | Mapping[str, Any] | str]) -> Game[Any]:
    """Play a history again from its setup. ``replay(g.setup, g.history)`` equals ``g``."""
    game = from_setup(setup)
    for i, item in enumerate(history, start=1):
        if isinstance(item, str):
            entry = Entry(item)
        elif isinstance(item, Entry):
            entry = item
        else:
            entry = Entry.from_json(item)
        try:
            game.apply(entry.call, entry.at)
        except RulesError as e:
            raise ReplayError(i, entry, e) from e
    return game
