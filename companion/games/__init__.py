"""Each game's table screen, found by module: ``companion/games/<module>/``.

A game module exports ``GAME`` (the rules short name, e.g. ``"occulites"``) and
``make_screen(app, session) -> kivy Screen``; the screen has a ``refresh(session, events=())``
method that the app calls after every call, undo and redo. Eye for an Eye's arena is the app's
own :class:`companion.app.ArenaScreen` and needs no module here. Kivy is imported only by the
modules' screens, so listing the games stays cheap.
"""

from __future__ import annotations

import importlib
import pkgutil
from types import ModuleType


def table_screens() -> dict[str, ModuleType]:
    """Rules short name -> the module that builds its table screen."""
    found: dict[str, ModuleType] = {}
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda i: i.name):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        name = getattr(module, "GAME", None)
        if isinstance(name, str) and callable(getattr(module, "make_screen", None)):
            found[name] = module
    return found
