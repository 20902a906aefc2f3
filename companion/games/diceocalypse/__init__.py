"""Dice-ocalypse at the table: scores, the roll read by the camera or tapped in, the best keep,
bank or roll on, the Act of War cards and the special dice (see docs/app-diceocalypse.md).

Kivy is imported only when a table is made, so listing the games stays cheap.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.contract import GamePlugin, Host, StartOption, TableGame, no_buttons, no_voice

if TYPE_CHECKING:
    from companion.session import TableSession

GAME = "dice-ocalypse"
TITLE = "Dice-ocalypse"
BUTTONS = no_buttons(TITLE)


def make_table(host: Host, session: TableSession[Any]) -> TableGame:
    from companion.games.diceocalypse.screen import DiceocalypseScreen
    from companion.games.table import ScreenTable

    return ScreenTable(DiceocalypseScreen(host, session, name=f"game-{GAME}"), BUTTONS)


def _battle_zone(target: int) -> dict[str, int]:
    """A shorter game keeps the Battle Zone halfway (the rulebook: 5,000 of 10,000)."""
    return {"battle_zone_at": max(50, target // 2)}


def key_words(name: str, title: str) -> str:
    """A scoring key in words for the start screen: its title without the remark in
    brackets (``"Farkle (widely sold boxed table)"`` -> ``"Farkle"``), short enough for the
    option's box; the docs (docs/app-diceocalypse.md) say what each one scores."""
    short = {"ten-thousand-additive": "Additive kinds"}
    return short.get(name, title.split(" (")[0])


def _keys() -> tuple[tuple[str | None, str], ...]:
    from rules.diceocalypse import key_names, scoring_key

    names = key_names()
    words = [key_words(n, scoring_key(n).title) for n in names]
    return ((None, words[0]), *zip(names[1:], words[1:], strict=True))


#: The options, offered in words on the start screen before the game starts (the table
#: screen has no spinners: nothing on it moves once play begins).
OPTIONS = (
    StartOption("target", "Target", ((None, "10,000 (the rulebook)"),
                                     *((t, f"{t:,}") for t in (5000, 3000, 2000, 1000))),
                also=_battle_zone),
    StartOption("scoring_key", "Scoring key", _keys()),
)

PLUGIN = GamePlugin(GAME, TITLE, BUTTONS, make_table, options=OPTIONS, voice=no_voice(TITLE),
                    loads=("companion.games.diceocalypse.screen",))

__all__ = ["GAME", "OPTIONS", "PLUGIN", "key_words"]
