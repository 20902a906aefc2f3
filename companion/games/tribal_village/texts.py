"""What the Tribal Village table says, read from the engine: the allies line, the prompt (whose
turn, which decision), the trick's verdict or the setup step's hint, the final totals and a
card of the trick on two lines. Plain words: the screen escapes them."""

from __future__ import annotations

from companion.words import plural
from rules.tribal_village import TribalVillage
from rules.tribal_village.cards import GRETIN, Played

#: What each decision the game waits for is called on the prompt line.
DECISIONS = {"net": "Hunting Net", "chaos": "Create Chaos (Floris)",
             "return": "Create Chaos: give back", "manipulate": "Manipulative (Tachydus)",
             "discard": "discard after Tachydus", "gretin": "Lucky Gretin"}


def allies_line(game: TribalVillage) -> str:
    layout = game.state.layout
    pairs = " · ".join(" + ".join(g) for g in layout if len(g) == 2)
    alone = ", ".join(g[0] for g in layout if len(g) == 1)
    return f"Allies: {pairs} · Unallied: {alone}"


def prompt(game: TribalVillage, setup_mode: str) -> str:
    """Who acts now and what is asked; ``setup_mode`` is the setup's tab on screen."""
    s = game.state
    if game.is_over:
        return f"Game over: {winner_words(game)}"
    if s.phase == "setup":
        if setup_mode == "alliances":
            return "Alliance cards as on the table"
        if setup_mode == "revealed":
            return "Objectives dealt face up"
        missing = [p for p, o in s.objective.items() if o is None]
        if missing:
            chosen = len(s.objective) - len(missing)
            return f"Objectives: {chosen} of {len(s.objective)} chosen"
        unallied = " or ".join(g[0] for g in s.layout if len(g) == 1)
        return f"First lead: the lowest {unallied}"
    if s.pending:
        return f"{s.pending[0].player}: {DECISIONS[s.pending[0].kind]}"
    player = game.current_player
    suit = "leads" if s.suit is None else f"plays · suit {s.suit}"
    return f"{player} {suit}"


def winner_words(game: TribalVillage) -> str:
    """Who won, short enough for the prompt line (teams by letter)."""
    if game.options.alliance_mode:
        placings = game.placings()
        first = sorted({game.team_of(p) or "" for p in (placings[0] if placings else ())})
        return " and ".join(f"team {t}" for t in first) + (" win" if first else "")
    names = [n for n in (game.standings().winner or "").split(" & ") if n]
    if len(names) > 1:  # every name would not fit the prompt line; the rows show them
        return f"{len(names)} players share first place"
    return f"{names[0]} wins" if names else "no winner"


def verdict(game: TribalVillage, setup_mode: str, revealed_chosen: int) -> str:
    """The trick's verdict (won, or winning now), else the setup step's hint, the last
    trick's verdict or what the game waits for; the totals once the game is over."""
    s = game.state
    if game.is_over:
        return totals_words(game)
    said = game.trick_verdict() if s.trick else None
    if said is not None:
        done = s.trick_winner is not None
        return ("Trick won: " if done else "Winning now: ") + said.reason
    if s.phase == "setup":
        return setup_hint(game, setup_mode, revealed_chosen)
    if s.last_verdict:
        return "Last trick: " + s.last_verdict
    return game.waiting_for()


def setup_hint(game: TribalVillage, setup_mode: str, revealed_chosen: int) -> str:
    """What the setup step on screen asks for, short enough for a squeezed box."""
    s = game.state
    if setup_mode == "alliances":
        return "Tap two tribes to swap their places."
    if setup_mode == "revealed":
        return f"Tap the five face up on the table ({revealed_chosen} of 5), then Use."
    if s.hand_scores:
        last = s.hand_scores[-1]
        best = max(last.values())
        top = " and ".join(p for p, n in last.items() if n == best)
        return (f"Hand {len(s.hand_scores)} scored: most points {top} "
                f"({plural(best, 'point')}).")
    if any(o is None for o in s.objective.values()):
        return "Tap a player, then the objective they keep."
    return "Tap who holds it, then the card."


def totals_words(game: TribalVillage) -> str:
    s = game.state
    totals = {p: sum(h[p] for h in s.hand_scores) for p in game.setup.players}
    best = max(totals.values())
    top = " and ".join(p for p, n in totals.items() if n == best)
    note = game.standings().note
    text = f"Most points: {top} ({plural(best, 'point')})."
    return f"{text} {note[0].upper()}{note[1:]}." if note else text


def card_lines(c: Played) -> str:
    """A card of the trick on two lines: its tribe, then its value and how it counts."""
    if c.card == GRETIN:
        return "Lucky\nGretin"
    tribe, value = c.card.rsplit(" ", 1)
    how = ("no effect" if c.no_effect else f"as {c.value}" if str(c.value) != value
           else "" if c.on_suit else "off suit")
    return f"{tribe}\n{value} {how}".rstrip()


__all__ = ["allies_line", "card_lines", "prompt", "verdict", "winner_words"]
