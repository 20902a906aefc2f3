"""The Tournament screen in players' words, at the largest text size: the New page offers
games, formats and modes by name (never "eye-for-an-eye" or "every-eye") and only the seats a
format takes (Alliances: 2 or 3 teams a table, never the engine's refusal), a group tournament
of Dice Forge is made by touch from those words, and once the round's last result is in the
Round and Standings pages say so: nobody still reads as "playing"."""

from __future__ import annotations

from collections.abc import Generator
from pathlib import Path
from typing import Any

import pytest
from tournament_touch import choose, open_new_page, shots_folder

pytestmark = pytest.mark.app


def test_tournament_pages_speak_in_names_and_say_when_every_result_is_in(
        app_dirs: Path) -> None:
    import rules
    from companion import settings as settings_mod
    from companion.compose import CompanionApp
    from companion.demo.drive import Driver, ManualClock, run_app, touch_problems

    shots = shots_folder(app_dirs)
    app = CompanionApp(clock=ManualClock(), journal_file=app_dirs / "j.sqlite3",
                       settings=settings_mod.Settings(text_size="huge"))
    seen: dict[str, Any] = {"problems": []}

    def look(d: Driver, name: str) -> None:
        seen["problems"] += touch_problems(app.sm.current_screen, (800, 480))
        d.screenshot(shots / f"tournament-words-{name}.png")

    def script(d: Driver) -> Generator[int | None, None, None]:
        scr = yield from open_new_page(d, app)
        new = scr.pages["new"]
        seen["offered"] = [*new.game.values, *new.style.values, *new.mode.values]
        seen["shown"] = [new.game.text, new.style.text, new.mode.text]
        look(d, "new")
        yield from choose(d, new.mode, "Alliances (teams)")  # tables of 2 or 3 teams
        seen["alliances"] = (new.table_size.values, new.table_size.text,
                             new.create_button.disabled, new.describe.text)
        yield from choose(d, new.mode, "Every Eye for Themselves")
        yield from choose(d, new.game, "Dice Forge")
        yield from choose(d, new.table_size, "2")
        new.name.text = "League"
        d.tap(new.create_button)
        yield 3
        hub = app.tournaments
        assert hub is not None and hub.desk is not None, new.describe.text
        seen["game"] = hub.desk.tournament.format.game
        for name in ("Ana", "Ben", "Cy", "Dee"):
            hub.add_entrant(name)
        number = hub.draw_next()
        t = hub.desk.tournament
        first, second = t.current.tables
        hub.report_by_hand(number, first.number, tuple((n,) for n in first.seats))
        d.tap(scr.tab_buttons["standings"])
        yield 3
        page = scr.pages["standings"]
        seen["half"] = page.note.text
        seen["half_status"] = {n: status_of(page, n) for n in ("Ana", "Ben", "Cy", "Dee")}
        hub.report_by_hand(number, second.number, tuple((n,) for n in second.seats))
        yield 3
        seen["done"] = page.note.text
        seen["done_status"] = {n: status_of(page, n) for n in ("Ana", "Ben", "Cy", "Dee")}
        seen["tables"] = (first.seats, second.seats)
        look(d, "standings-every-result-in")
        d.tap(scr.tab_buttons["round"])
        yield 3
        seen["round"] = scr.pages["round"].label.text
        seen["draw"] = (scr.pages["round"].draw.text, scr.pages["round"].draw.disabled)
        look(d, "round-every-result-in")

    def status_of(page: Any, name: str) -> str:
        for row in page.rows.children:
            cells = [c.text for c in reversed(row.children)]
            if cells[1] == name:
                return str(cells[-1]).split("\n")[0]  # (a tie-break tag below)
        raise AssertionError(f"{name} is not in the standings")

    run_app(app, script)
    engine = set(rules.game_names()) | {"every-eye", "alliances", "groups"}
    assert not engine & set(seen["offered"] + seen["shown"]), seen["offered"]
    assert seen["shown"][0] == "Eye for an Eye" and "Dice Forge" in seen["offered"]
    # Seats offers what Alliances takes (4 became 3), never the engine's "format: table-size"
    values, seats, disabled, said = seen["alliances"]
    assert (values, seats, disabled) == (["2", "3"], "3", False), said
    assert "table-size" not in said and "format:" not in said
    assert seen["game"] == "dice-forge"  # made from the words chosen
    (a, b), (c, e) = seen["tables"]
    assert seen["half_status"][a] == seen["half_status"][b] == "result in"
    assert seen["half_status"][c] == seen["half_status"][e] == "at table 2"
    assert "waiting for table 2" in seen["half"]
    assert set(seen["done_status"].values()) == {"round 1 done"}  # nobody "playing"
    assert "every result is in" in seen["done"] and "draw round 2" in seen["done"]
    assert seen["round"] == "Round 1: group round, every result is in"
    assert seen["draw"] == ("Draw round 2", False)
    assert seen["problems"] == []
