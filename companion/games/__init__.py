"""Every game of the companion, one folder each: ``companion/games/<game>/``.

A game's package declares ``PLUGIN``, a :class:`companion.contract.GamePlugin` (its rules short
name, title, whether it uses the table's buttons, how to make its table); its screens and
adapters live beside it. Kivy is imported only when a table is made, so listing the games
stays cheap.
"""

from __future__ import annotations

import functools
import importlib
import pkgutil
from collections.abc import Mapping
from types import MappingProxyType

import rules
from companion.contract import GamePlugin


@functools.cache
def plugins() -> Mapping[str, GamePlugin]:
    """Rules short name -> the game's plugin, for every game installed in both rooms (rules/
    and companion/games/), in the registry's order. The packages are scanned once, at the
    first call; the mapping is read-only."""
    found: dict[str, GamePlugin] = {}
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda i: i.name):
        if info.name.startswith("_") or not info.ispkg:
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        plugin = module.__dict__.get("PLUGIN")
        if isinstance(plugin, GamePlugin):
            found[plugin.name] = plugin
    names = rules.game_names()
    return MappingProxyType({n: found[n] for n in names if n in found})


def playable_games() -> list[str]:
    """Installed games the app can run (both rooms present), in the registry's order."""
    return list(plugins())


__all__ = ["playable_games", "plugins"]
