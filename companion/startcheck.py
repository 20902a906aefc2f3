"""What the start screen checks before a game starts, said in players' words (no Kivy).

- :func:`name_problem`: the names typed, one problem at a time, naming the seat and what to
  do ("Player 3 has no name yet: type one ..."), never the engine's wording.
- :func:`choices_for`: the choices of a start option that take this many players, and what to
  say about one that does not ("Every Eye for Themselves is for 2 to 4 players").
"""

from __future__ import annotations

from collections.abc import Sequence

import rules
from companion.contract import StartOption
from rules.core import check_player_name

#: The longest name the table's screens show whole (the engine takes longer ones).
SCREEN_NAME_CHARS = 16


def name_problem(names: Sequence[str], most: int = SCREEN_NAME_CHARS) -> str | None:
    """The first problem with the names as typed (seat order), in players' words; None when
    every seat has a name the game takes."""
    seen: dict[str, int] = {}
    for seat, raw in enumerate(names, start=1):
        name = " ".join(raw.split()) if raw.strip() else ""
        if not name:
            return (f"Player {seat} has no name yet: type one (the grey \"player {seat}\" in "
                    "the box is only a hint).")
        if len(name) > most:
            return (f"\"{name}\" is {len(name)} characters long: names of at most {most} fit "
                    "the table's screen. Shorten it, or use a nickname.")
        if not name[0].isalpha():
            return f"\"{name}\" (player {seat}): a name starts with a letter."
        try:
            check_player_name(name)
        except rules.SetupError:
            return (f"\"{name}\" (player {seat}): use letters, digits, spaces, ' - and . "
                    "only.")
        key = name.casefold()
        if key in seen:
            return (f"Players {seen[key]} and {seat} are both called {name}: give each a "
                    "different name (an initial will do).")
        seen[key] = seat
    return None


def tidy(name: str) -> str:
    """A name as the game takes it: outer spaces gone, one space between words."""
    return " ".join(name.split())


def choices_for(option: StartOption, count: int) -> list[str]:
    """The words of the option's choices that take ``count`` players."""
    return [words for value, words in option.choices if fits(option, value, count) is None]


def fits(option: StartOption, value: object, count: int) -> str | None:
    """None when the choice takes ``count`` players, else why not, in words."""
    for v, low, high in option.counts:
        if v == value and not low <= count <= high:
            return f"{option.words(value)} is for {low} to {high} players"
    return None


__all__ = ["SCREEN_NAME_CHARS", "choices_for", "fits", "name_problem", "tidy"]
