"""What the Tournament screen says about a tournament, in players' words (no Kivy): the game,
format and mode by their names rather than the engine's ("Dice Forge", not "dice-forge"), where
each entrant is in the current round, and the round's state, with a clear "every result is in"
once the last result has come."""

from __future__ import annotations

from collections.abc import Sequence

import rules
from rules.tournament import Tournament

#: The formats' engine names, in words, in the order offered.
FORMATS = {"eye-for-an-eye": "Rulebook cup", "groups": "Group play"}
#: Eye for an Eye's modes, in words (as the start screen says them).
MODES = {"every-eye": "Every Eye for Themselves", "alliances": "Alliances (teams)"}
#: The stages, in words.
STAGES = {"qualifying": "qualifying", "group": "group round", "elimination-1": "elimination",
          "elimination-2": "semi-final (AD, BC)", "final": "final",
          "tie-break": "tie-break"}


def stage_words(stage: str) -> str:
    return STAGES.get(stage, stage)


def game_words(name: str) -> str:
    """A registered game's name as players know it; an unknown one as it is."""
    try:
        return rules.game_class(name).title
    except rules.SetupError:
        return name


def engine_name(words: str, named: dict[str, str]) -> str:
    """The engine's name for what a list of words shows (the words themselves when unknown)."""
    return next((k for k, v in named.items() if v == words), words)


def tables_words(numbers: Sequence[int]) -> str:
    """"table 2", "tables 1 and 3", "tables 1, 2 and 4"."""
    shown = [str(n) for n in numbers]
    if len(shown) == 1:
        return f"table {shown[0]}"
    return "tables " + ", ".join(shown[:-1]) + " and " + shown[-1]


def status_words(t: Tournament, name: str, status: str) -> str:
    """Where an entrant is now, for the standings' Status column. The engine's "playing"
    (still in the tournament) becomes what the entrant does in the current round: "at table
    2" while that table plays, "result in" while others play, "bye", "settle table 2" where two
    results disagree, "round 3 done" once every result is in; "entered" before round 1."""
    r = t.current
    if status != "playing":
        return status
    if r is None:
        return "entered"
    table = next((tb for tb in r.tables if name in tb.seats), None)
    if r.complete:
        return f"round {r.number} done"
    if name in r.byes:
        return "bye"
    if table is None:
        return "not in this round"
    if table.number in r.conflicts:
        return f"settle table {table.number}"
    if table.number not in r.results:
        return f"at table {table.number}"
    return "result in"


def round_words(t: Tournament) -> str:
    """The current round's state in a sentence: who is still playing, or that every result
    is in and what comes next (or who won)."""
    r = t.current
    if r is None:
        return "No round drawn yet."
    head = f"Round {r.number} ({stage_words(r.stage)})"
    if t.is_over:
        return f"{head}: every result is in. Over: {t.winner()} wins."
    if r.conflicts:
        return f"{head}: results disagree at {tables_words(sorted(r.conflicts))}: settle it."
    missing = t.missing()
    if missing:
        return f"{head}: waiting for {tables_words(missing)}."
    return f"{head}: every result is in. Next: draw round {r.number + 1}."


__all__ = ["FORMATS", "MODES", "engine_name", "game_words", "round_words", "stage_words",
           "status_words", "tables_words"]
