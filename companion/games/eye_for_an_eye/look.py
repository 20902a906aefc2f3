"""How the arena says things, with no Kivy: the words of its buttons, plurals, and the
highlight colours (none of which is a seat colour: tests/companion/games/test_eye_table.py checks
both palettes).

Each highlight also changes a text or a shape (the target's white outline, "let go to hit",
the count on the Parry button), so colour is never the only cue.
"""

from __future__ import annotations

from companion.words import plural
from rules.eye_for_an_eye.game import SeatView

RGBA = tuple[float, float, float, float]

#: The six action buttons of a panel, in their places (left to right, top to bottom).
ACTION_KEYS = ("movement", "attack", "defence", "heal", "innate", "unblockable")
#: What an action button says where the character's board gives the action no name of its
#: own: the rulebook's word. A button always says the printed name, at every text size and
#: player count (the log and the rules help use it): it shrinks to fit rather than change.
ACTION_WORDS: dict[str, tuple[str, ...]] = {
    "movement": ("Movement",), "attack": ("Attack",), "defence": ("Parry",),
    "heal": ("Heal",), "innate": ("Innate",), "unblockable": ("Unblockable",)}
#: Action key -> the icon of the dice it spends (``rules.eye_for_an_eye.characters.ICONS``):
#: a character's board may name another (see :func:`action_icon`).
ACTION_ICONS = {"movement": "movement", "attack": "attack", "defence": "defence",
                "heal": "heal", "innate": "ready", "unblockable": "resolve"}

#: A panel that may be the target of the attack being built: white header, white outline.
TARGET: RGBA = (1.0, 1.0, 1.0, 1.0)
#: "Tap here now": the action being built, the Parry of an open window, a count to choose.
LIVE: RGBA = (0.92, 0.92, 0.94, 1.0)
#: An action with no legal call now (a tap on it says why).
DIM: RGBA = (0.19, 0.20, 0.24, 1.0)
#: A seat knocked out, or sitting out a tie-break round.
KNOCKED: RGBA = (0.35, 0.35, 0.38, 1.0)
#: The message box when something was refused: white text on dark red.
REFUSED: RGBA = (0.50, 0.10, 0.08, 1.0)
BLACK: RGBA = (0.0, 0.0, 0.0, 1.0)
#: Every colour the arena uses to single something out.
HIGHLIGHTS: dict[str, RGBA] = {"target": TARGET, "live": LIVE, "dim": DIM,
                               "knocked out": KNOCKED, "refused": REFUSED}


def action_words(seat: SeatView, key: str) -> tuple[str, ...]:
    """What ``seat``'s ``key`` button says: the board's own name of the action when it has
    one of its own ("Spear Thrust", "Watch Out!"), else the rulebook's word ("Attack",
    "Unblockable"); never another word at another size."""
    board = seat.character.actions.get(key)
    own = board.name if board is not None else None
    generic = ACTION_WORDS[key]
    if own is None or own.startswith(f"{seat.character.short}'s ") or own in generic:
        return generic
    return (own,)


def action_icon(seat: SeatView, key: str) -> str:
    """The die icon an action spends: the board's own, else the usual one."""
    board = seat.character.actions.get(key)
    return board.icon if board is not None and key != "unblockable" else ACTION_ICONS[key]


def figure_words(name: str) -> tuple[str, ...]:
    """A figure's name, then its initials and number, for a narrow button.

    >>> figure_words("Guard 3"), figure_words("Echo")
    (('Guard 3', 'G3'), ('Echo',))
    """
    parts = name.split()
    short = "".join(p if p.isdigit() else p[0] for p in parts)
    return (name, short) if len(parts) > 1 else (name,)


__all__ = ["ACTION_ICONS", "ACTION_KEYS", "ACTION_WORDS", "HIGHLIGHTS", "action_icon",
           "action_words", "figure_words", "plural"]
