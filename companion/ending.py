"""A game the players end before the rules do: its result, in plain Python (no Kivy).

End game (in every game's Menu) offers three ways out of a game that is not over yet:

- **End game**: the game is finished by agreement with its standings at that moment. The
  players placed first by the game's own ranking (:meth:`rules.Game.placings`) win; when
  everyone stands level, nobody does. History and statistics count it as a finished game.
- **No result**: finished by agreement with no result: a game played, won by nobody.
- **Keep for later**: nothing is recorded; the game stays in Resume.

The journal keeps which one it was (:meth:`companion.journal.Journal.finish`'s ``ending``, a
:class:`rules.Ending`), and so does the game file it exports (its ``ending`` key), so the game
comes back the same on another companion; the history derives the result from it
(:func:`agreed_results`). A game left with no call at all is not kept
(:meth:`companion.journal.Journal.discard_empty`).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from rules import Ending, Game, PlayerResult, Standings

#: The two ways players end a game themselves (the journal's and the game file's words).
AGREED = Ending.AGREED
NO_RESULT = Ending.NO_RESULT
ENDINGS = (AGREED, NO_RESULT)

#: How the history notes such a game (its list and detail show this as the game's state).
AGREED_NOTE = "ended by agreement"
NO_RESULT_NOTE = "ended by agreement, no result"
ABANDONED_NOTE = "abandoned"


def leaders(game: Game[Any]) -> tuple[str, ...]:
    """Who would win if the game ended now: the first group of its placings, or nobody when
    everyone stands level (or the game has no placings yet)."""
    if game.is_over:
        winner = game.standings().winner
        return tuple(winner.split(" & ")) if winner else ()
    placings = game.placings()
    if len(placings) < 2:
        return ()
    return tuple(placings[0])


def agreed_results(game: Game[Any], ending: Ending | str
                   ) -> tuple[tuple[PlayerResult, ...], str | None, str]:
    """The result of a game ended by the players: (each player's result, the winner's name
    or None, the note the history shows). Scores, roles and cards are the game's own; ranks
    come from its placings; ``ending`` is :data:`AGREED` or :data:`NO_RESULT`.
    Raised when it is neither: ValueError naming it."""
    if ending not in ENDINGS:
        raise ValueError(f"ending {str(ending)!r}: must be one of "
                         f"{', '.join(e.value for e in ENDINGS)}")
    results = game.results()
    if ending == NO_RESULT:
        return (tuple(replace(r, rank=None, won=False) for r in results), None,
                NO_RESULT_NOTE)
    rank: dict[str, int] = {}
    place = 1
    for group in game.placings():
        for player in group:
            rank[player] = place
        place += len(group)
    top = set(leaders(game))
    out = tuple(replace(r, rank=rank.get(r.player, r.rank), won=r.player in top)
                for r in results)
    winner = " & ".join(p for p in game.setup.players if p in top) or None
    note = AGREED_NOTE
    own = game.standings().note
    return out, winner, f"{note}; {own}" if own else note


def ended_standings(game: Game[Any], ending: Ending | None) -> Standings:
    """The game's standings as its result says (``companion replay`` of a game file with an
    ``ending``): the winner and note of an ending by the players, "abandoned" for a game
    left; the game's own standings when ``ending`` is None."""
    standings = game.standings()
    if ending is None or game.is_over:
        return standings
    if ending == Ending.ABANDONED:
        return replace(standings, note=ABANDONED_NOTE)
    _, winner, note = agreed_results(game, ending)
    return replace(standings, winner=winner, is_over=True, note=note)


def end_words(game: Game[Any]) -> str:
    """What the End game dialog says about ending now, in players' words."""
    top = leaders(game)
    if not top:
        who = "Nobody wins: everyone stands level."
    elif len(top) == 1:
        who = f"{top[0]} wins."
    else:
        who = f"{' and '.join(top)} share the win."
    return (f"End game records these standings as the result: {who} "
            "No result records a game won by nobody. Either way it leaves Resume. "
            "Keep for later leaves it in Resume.")


__all__ = ["ABANDONED_NOTE", "AGREED", "AGREED_NOTE", "ENDINGS", "NO_RESULT", "NO_RESULT_NOTE",
           "agreed_results", "end_words", "ended_standings", "leaders"]
