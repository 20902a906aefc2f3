"""The start screen, as a new group meets it: the last group is seated after a restart; why a
game will not start is said whole in players' words at huge text (an empty name, a long one, a
repeated one); a mode that does not take this many players is not offered; players left out
by a smaller game are named; old messages are cleared."""

from __future__ import annotations

import os
from collections.abc import Generator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.app


def test_start_screen_problems_are_whole_and_in_players_words(app_dirs: Path) -> None:
    from companion.compose import CompanionApp
    from companion.demo.drive import Driver, ManualClock, layout_problems, run_app
    from companion.journal import Journal
    from rules import Entry, Setup

    journal_file = app_dirs / "j.sqlite3"
    with Journal(journal_file) as journal:  # last night's group, from an earlier run
        gid = journal.start_game(Setup("dice-ocalypse", ("Dara", "Grace", "Hugo"), {}, 1))
        journal.record_call(gid, Entry("Dara: Roll 4"))
    shots = Path(os.environ.get("START_SHOTS", str(app_dirs / "shots")))
    app = CompanionApp(clock=ManualClock(), journal_file=journal_file)
    seen: dict[str, Any] = {"problems": []}

    def dialog_text(view: Any) -> str:
        return " ".join(getattr(w, "text", "") for w in view.walk())

    def script(d: Driver) -> Generator[int | None, None, None]:
        start = app.screens["start"]
        yield 2
        seen["seated"] = [n.text for n in start.names]
        app.apply_settings(replace(app.settings, text_size="huge"))
        yield 3
        start = app.screens["start"]
        assert [n.text for n in start.names] == seen["seated"]  # kept at another text size
        start.choose_game("dice-ocalypse")
        yield 1
        start._seat_names(["Ana", "Ben", ""])
        yield 1
        d.tap(start.start_button)
        yield 2
        assert app.session is None
        seen["empty"] = dialog_text(start.problem_view)
        seen["problems"] += layout_problems(start.problem_view, (800, 480))
        d.screenshot(shots / "start-empty-name-huge.png")
        start.problem_view.dismiss(animation=False)
        yield 1
        seen["message"] = start.message.text
        seen["problems"] += layout_problems(start, (800, 480))
        d.screenshot(shots / "start-empty-name-message-huge.png")
        start.names[2].text = "Cy"  # typing a name clears the old problem
        yield 1
        seen["cleared"] = start.message.text
        start.names[2].text = "Bartholomew Kemps"
        d.tap(start.start_button)
        yield 2
        seen["long"] = dialog_text(start.problem_view)
        start.problem_view.dismiss(animation=False)
        start.names[2].text = "ana"
        d.tap(start.start_button)
        yield 2
        seen["same"] = dialog_text(start.problem_view)
        start.problem_view.dismiss(animation=False)
        # Eye for an Eye: Every Eye for Themselves is not offered at 6, Alliances not at 3
        start.choose_game("eye-for-an-eye")
        yield 1
        start._seat_names(["Ana", "Ben", "Cy", "Dee", "Eli", "Fay"])
        yield 2
        seen["modes6"] = (list(start.mode_spin.values), start.mode_spin.text)
        seen["note6"] = start.message.text
        seen["problems"] += layout_problems(start, (800, 480))
        d.screenshot(shots / "start-eye-6-huge.png")
        # Dice Forge takes 4: the two left out are named
        start.choose_game("dice-forge")
        yield 2
        seen["forge"] = ([n.text for n in start.names], start.message.text)
        start.choose_game("eye-for-an-eye")
        yield 1
        start.set_count(3)
        yield 2
        seen["modes3"] = (list(start.mode_spin.values), start.mode_spin.text)

    run_app(app, script)
    assert seen["seated"] == ["Dara", "Grace", "Hugo"]  # not Ana, Ben, Cy
    assert "Player 3 has no name yet" in seen["empty"] and "only a hint" in seen["empty"]
    assert "non-empty" not in seen["empty"] and "''" not in seen["empty"]
    assert seen["message"].startswith("Player 3 has no name yet")
    assert seen["cleared"] == ""
    assert "17 characters" in seen["long"] and "at most 16" in seen["long"]
    assert "Players 1 and 3 are both called ana" in seen["same"]
    assert seen["modes6"] == (["Alliances (teams)"], "Alliances (teams)")
    assert seen["note6"] == ("Alliances (teams) is chosen for 6: Every Eye for Themselves is "
                             "for 2 to 4 players.")
    assert seen["forge"][0] == ["Ana", "Ben", "Cy", "Dee"]
    assert "Eli and Fay are not seated" in seen["forge"][1]
    assert seen["modes3"] == (["Every Eye for Themselves"], "Every Eye for Themselves")
    assert seen["problems"] == [], "\n".join(seen["problems"])
