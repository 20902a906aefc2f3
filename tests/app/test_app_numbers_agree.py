"""Numbers that agree (issue 44, item 7), through the whole app: at the end of a Dice Forge
game each hero's tile shows the glory the result gives that hero (the track with the feats'
glory), the glory track alone beside it; End game's standings write a Dice-ocalypse score as
the game's screen does ("2,100"), and so does the History; a Dice-ocalypse game to 2,000,
chosen on the start screen, has rules help that quotes 2,000 and its Battle Zone at 1,000,
never the rulebook's 10,000 and 5,000."""

from __future__ import annotations

import re
from collections.abc import Generator
from pathlib import Path
from typing import Any

import pytest
from conftest import press_in

pytestmark = pytest.mark.app

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
#: A whole number of four digits or more written without its thousands marked.
UNMARKED = re.compile(r"(?<![\d,])\d{4,}(?![\d,])")


def texts(root: Any) -> list[str]:
    return [str(w.text) for w in root.walk(restrict=True) if getattr(w, "text", "")]


def test_tiles_results_tables_and_rules_help_say_the_same_numbers(app_dirs: Path) -> None:
    import rules
    from companion.compose import CompanionApp
    from companion.demo.drive import Driver, ManualClock, run_app

    app = CompanionApp(clock=ManualClock(), journal_file=app_dirs / "j.sqlite3")
    seen: dict[str, Any] = {}

    def script(d: Driver) -> Generator[int | None, None, None]:
        yield 2
        # 1. Dice Forge played to its end: the tiles and the result
        parsed = rules.parse_game_file((EXAMPLES / "dice-forge.game").read_text("utf-8"))
        app.start_game(parsed.setup)
        yield 2
        for entry in parsed.entries:
            app.session.call(entry.call)
        yield 3
        game = app.session.game
        assert game.is_over
        screen = app.game_screen
        places = {}
        for line in texts(screen.content):
            found = re.match(r"\d+\.\s+(.+): \[b\]([\d,]+) glory points?\[/b\]", line)
            if found:
                places[found[1]] = int(found[2].replace(",", ""))
        seen["places"] = places
        seen["tiles"] = {name: panel.numbers() for name, panel in screen.panels.items()}
        seen["tiles' glory"] = {  # the big number at the tile's top right, "[b]11[/b] glory"
            name: int(re.sub(r"\D", "", panel.glory_label.text))
            for name, panel in screen.panels.items()}
        seen["feats' glory"] = {p.name: game.score(p.name) - p.glory
                                for p in game.state.players}
        app.end_game()
        yield 2
        # 2. Dice-ocalypse to 2,000, chosen and started on the start screen
        start = app.screens["start"]
        start.choose_game("dice-ocalypse")
        yield 1
        start.choose("target", 2000)
        start._seat_names(("Ana", "Ben", "Cy"))
        yield 2
        d.tap(start.start_button)
        yield 2
        screen = app.game_screen
        s = app.session
        assert s is not None and s.game.options.target == 2000, start.message.text
        for call in ("Ana: Roll 6", "Ben: Roll 2", "Cy: Roll 1", "Ana: Roll 1 1 1 5 5 2",
                     "Ana: Keep 1 1 1 5 5", "Ana: Bank"):
            s.call(call)
        yield 2
        seen["score"] = s.game.state.scores["Ana"]
        seen["on screen"] = texts(screen)
        d.tap(screen.frame.menu)
        yield 1
        d.tap(screen.frame.menu_buttons["Rules help"])
        yield 2
        view = next(c for c in app.root_window.children if c.__class__.__name__ == "ModalView")
        seen["rules help"] = " ".join(texts(view))
        press_in(d, view, "Close")
        yield 1
        d.tap(screen.frame.menu)
        yield 1
        d.tap(screen.frame.menu_buttons["End game"])
        yield 2
        seen["end game table"] = texts(screen.frame.confirm_view)
        press_in(d, screen.frame.confirm_view, "Keep for later")
        yield 2

    run_app(app, script)
    places, tiles, feats = seen["places"], seen["tiles"], seen["feats' glory"]
    assert any(feats.values()), "the example game gives no hero glory from feats"
    assert set(places) == set(tiles)
    assert seen["tiles' glory"] == places
    for name, tile in tiles.items():
        assert tile["score"] == places[name], (name, tile, places[name])
        assert tile["glory"] == places[name] - feats[name]  # the track, as on the board
    score = f"{seen['score']:,}"
    assert seen["score"] >= 1000 and any(score in t for t in seen["on screen"])
    table = " ".join(seen["end game table"])
    assert score in table, table
    assert not UNMARKED.findall(table), table
    help_text = seen["rules help"]
    assert "Score 2,000 points" in help_text and "reaches 1,000" in help_text, help_text
    assert "10,000" not in help_text and "5,000" not in help_text
