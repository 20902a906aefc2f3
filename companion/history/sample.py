"""Made-up game nights for tests, benchmarks and screenshots: real games, randomly played.

Each game is set up by its own rules (``random_setup``) with names from a small club of
players, played with random legal calls (``random_call``) and written to a journal exactly as
the app writes it (start, one call at a time, finish). Nothing here is used at the table.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from companion.journal import Journal

CLUB: tuple[str, ...] = ("Ana", "Ben", "Cy", "Dee", "Eli", "Fay", "Gus", "Hana")
#: The five games the companion ships (not games registered by tests or plug-ins).
GAMES: tuple[str, ...] = ("eye-for-an-eye", "occulites", "dice-ocalypse", "dice-forge",
                          "tribal-village")


def _rename(value: Any, names: dict[str, str]) -> Any:
    if isinstance(value, str):
        return names.get(value, value)
    if isinstance(value, list | tuple):
        return type(value)(_rename(v, names) for v in value)
    if isinstance(value, dict):
        return {_rename(k, names): _rename(v, names) for k, v in value.items()}
    return value


def random_game(name: str, rng: random.Random, club: Sequence[str] = CLUB,
                max_calls: int = 3000, players: int | None = None) -> Any:
    """A game of ``name`` between players drawn from ``club`` (``players`` of them, else as
    many as the game's random setup says), played at random to its end (or ``max_calls``).
    Returns the :class:`rules.Game`."""
    import rules

    cls = rules.game_class(name)
    setup = cls.random_setup(rng)
    while players is not None and len(setup.players) != players:
        if not cls.min_players <= players <= min(cls.max_players, len(club)):
            raise ValueError(f"{name} is played by {cls.min_players} to {cls.max_players} "
                             f"players, not {players} (from a club of {len(club)})")
        setup = cls.random_setup(rng)
    chosen = rng.sample(list(club), len(setup.players))
    names = dict(zip(setup.players, chosen, strict=True))
    setup = rules.Setup(setup.game, tuple(chosen), _rename(dict(setup.options), names),
                        setup.seed)
    game = rules.from_setup(setup)
    for _ in range(max_calls):
        if game.is_over:
            break
        game.apply(game.random_call(rng))
    return game


def write_game(journal: Journal, game: Any, started: float, seconds_per_call: float = 20.0,
               finish: bool = True, title: str = "") -> int:
    """Journal a played game as the app would have: returns its id."""
    gid = journal.start_game(game.setup, title, wall=started)
    for i, entry in enumerate(game.history, start=1):
        journal.record_call(gid, entry, wall=started + i * seconds_per_call)
    if finish:
        journal.finish(gid, wall=started + (len(game.history) + 1) * seconds_per_call)
    return gid


def game_night(journal: Journal, per_game: int = 2, seed: int = 7,
               start: float = 1_767_000_000.0, unfinished: int = 1,
               games: Sequence[str] = GAMES) -> list[int]:
    """``per_game`` finished games of each of ``games``, one evening after another, plus
    ``unfinished`` games cut short (the last ones). Returns the journal ids."""
    rng = random.Random(seed)
    ids = []
    when = start
    names = list(games)
    for _ in range(per_game):
        for name in names:
            game = random_game(name, rng)
            ids.append(write_game(journal, game, when))
            when += 86_400 + rng.randrange(3_600)
    for i in range(unfinished):
        name = names[i % len(names)]
        game = random_game(name, rng, max_calls=rng.randrange(5, 20))
        ids.append(write_game(journal, game, when, finish=False))
        when += 86_400
    return ids
