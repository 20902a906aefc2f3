"""Action names are the printed names at every size (issue 44, item 5), through the whole app:
at 3 players (tall panels) and 6 (two rows of three) and at every text size, each action
button of Eye for an Eye's arena says the name the log and the rules help use, the character
board's own ("Spear Thrust", "Watch Out!") or the rulebook's ("Movement", "Unblockable"),
whole on its button; so does a button still being counted ("Spear Thrust x3"), and the call it
makes reads the same in the log."""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from conftest import LONG_NAMES

pytestmark = pytest.mark.app

SIX = ["grubic", "riparian", "banksia", "pluma", "incendiary", "echo"]
GENERIC = {"movement": "Movement", "attack": "Attack", "defence": "Parry", "heal": "Heal",
           "innate": "Innate", "unblockable": "Unblockable"}


def printed(seat: Any, key: str) -> str:
    """The action's name on the character's board, or the rulebook's where the board has
    none of its own (a provisional "Banksia's Innate" is the rulebook's Innate)."""
    board = seat.character.actions.get(key)
    if board is None or board.name.startswith(f"{seat.character.short}'s "):
        return GENERIC[key]
    return str(board.name)


def test_every_action_button_says_its_printed_name_whole(app_dirs: Path) -> None:
    from companion.compose import CompanionApp
    from companion.demo.drive import Driver, ManualClock, cut_text, run_app
    from rules import Setup

    app = CompanionApp(clock=ManualClock(), journal_file=app_dirs / "j.sqlite3")
    teams = [list(LONG_NAMES[0:6:2]), list(LONG_NAMES[1:6:2])]
    tables = ((LONG_NAMES[:3], {"characters": SIX[:3]}),
              (LONG_NAMES[:6], {"mode": "alliances", "teams": teams, "characters": SIX}))
    wrong: list[str] = []
    seen: dict[str, Any] = {}

    def script(d: Driver) -> Generator[int | None, None, None]:
        yield 2
        for text_size in ("normal", "large", "huge"):
            app.apply_settings(replace(app.settings, text_size=text_size))
            yield 2
            for players, options in tables:
                app.start_game(Setup("eye-for-an-eye", players, options, 5))
                yield 3
                arena = app.screens["arena"]
                where = f"{len(players)} players, {text_size}"
                for seat in app.table.calls.seats():
                    panel = arena.panels[seat.player]
                    for key, button in panel.buttons.items():
                        want = printed(seat, key)
                        if button.text != want or cut_text(button):
                            wrong.append(f"{where}: {seat.character.short} {key}: "
                                         f"{button.text!r} ({cut_text(button)}), not {want!r}")
                # a seat's button being counted (the table's arcade buttons): name and count
                grubic = arena.panels[LONG_NAMES[0]]
                arena.show_counting(0, "attack", 3)
                yield 2
                counting = grubic.buttons["attack"]
                if counting.text.split() != ["Spear", "Thrust", "x3"] or cut_text(counting):
                    wrong.append(f"{where}: counting {counting.text!r} {cut_text(counting)}")
                if text_size == "huge" and len(players) == 6:
                    d.tap(arena.go)  # Yarra Mark!
                    yield 1
                    yield from d.call(LONG_NAMES[0], "attack", 2, LONG_NAMES[1])
                    seen["log"] = app.session.log[-1].call
                    seen["button"] = grubic.buttons["attack"].text
                app.end_game()
                yield 2

    run_app(app, script)
    assert wrong == [], "\n".join(wrong)
    assert seen["log"].startswith("Grubic: Spear Thrust 2 on Riparian"), seen["log"]
    assert seen["button"] == "Spear Thrust"
