"""What the Dice-ocalypse table says, read from the engine: the status line (whose turn, which
stage), the points of the turn, the badges beside a player's score, and the engine's news as
sentences."""

from __future__ import annotations

from collections.abc import Sequence

from companion.words import plural
from rules.diceocalypse import Diceocalypse
from rules.diceocalypse.events import EventKind

#: The engine's events said in the message box (typed: a kind the engine does not make is
#: an error for mypy).
NEWS_KINDS: frozenset[EventKind] = frozenset({
    "bust", "hot-dice", "battle-zone", "card", "card-void", "zombie", "left-behind",
    "dice-ocalypse", "diced", "winner", "tie", "reroll", "first", "lose-turn", "double-turn",
    "bank", "immunity", "clash"})


def sentences(texts: Sequence[str]) -> str:
    """The engine's news read as sentences: ``["Cy is diced with 0", "Ana wins"]`` ->
    ``"Cy is diced with 0. Ana wins"`` (a text ending in ``!`` or ``?`` keeps it)."""
    out = ""
    for text in texts:
        if out:
            out += " " if out.endswith((".", "!", "?", ":")) else ". "
        out += text
    return out


def status_line(game: Diceocalypse) -> str:
    """Whose turn it is, or which stage the game is in."""
    s = game.state
    st = s.stage
    if s.phase == "over":
        return f"{s.winner} is the Die-structor!"
    if st is not None:
        if st.kind == "order":
            return "Who goes first? Everyone rolls one die"
        if st.kind == "battle":
            return f"Battle Zone ({st.initiator}): everyone rolls 2 dice"
        if st.kind == "card":
            return st.play.name() if st.play else "Act of War"
        if st.kind == "clash":
            return "Cards together: Pick who was first, or roll"
        return "Tie! Roll all six dice: highest sum wins"
    who = s.turn.player if s.turn is not None else s.current
    if s.phase == "final":
        return f"Dice-ocalypse: {who}'s last turn, beat {s.final_mark:,}"
    return f"{who}'s turn"


def badges(game: Diceocalypse, player: str) -> str:
    """What sets this player apart now, in a few words beside the score."""
    s = game.state
    out = []
    if player in s.diced:
        out.append("DICED")
    if s.phase == "play":  # cards and special dice are off in the final turns
        out.append(plural(len(s.cards[player]), "card"))
        if not s.immunity[player]:
            out.append("Immunity used")
        if s.zombie == player:
            out.append("Zombie")
        if s.left_behind == player:
            out.append("Left Behind")
        current = s.turn.player if s.turn is not None else s.current
        if not s.on_board[player] and player == current:
            out.append(f"opens {game.options.opening_minimum:,}")
    if s.lose_turn[player]:
        out.append("loses turn")
    if s.double_next[player]:
        out.append("next x2")
    return " · ".join(out)


def turn_line(game: Diceocalypse) -> str:
    """The points of the turn in progress ("" between turns)."""
    t = game.state.turn
    if t is None:
        return ""
    doubled = " (doubled)" if t.doubled else ""
    return f"{t.points:,} this turn{doubled}"


__all__ = ["NEWS_KINDS", "badges", "sentences", "status_line", "turn_line"]
