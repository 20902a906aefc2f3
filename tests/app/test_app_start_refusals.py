"""A walk through every refusal and problem the start screen says, at normal text and at the
largest, on 800x480: each name problem (none, too long, not starting with a letter, a character
a name cannot hold, the same name twice), a mode that does not take six players, players a
smaller game leaves out, the camera asked to fill the boards with no camera, and teams
Alliances cannot play. Each is whole (dialog and message box: nothing cut, nothing overlapping,
touch targets of 48 px; a message too long for its box shows there, whole, its headline or
where it is said in full, never the start of its first line: widgets.fit_whole), and every
text the walk visits grows with the text size: the drawn font size at huge is at least GROWS of
the normal one. The message box above Start may grow less (a long message a little smaller,
down to 0.7 of the text size; the dialog says the problem at full size): it must still grow.
Screenshots at huge to $REFUSAL_SHOTS when set."""

from __future__ import annotations

import os
from collections.abc import Generator, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.app

#: The drawn size at huge must be at least this share of the normal one (huge asks 1.45).
GROWS = 1.3
SIX = ["Ana", "Ben", "Cy", "Dee", "Eli", "Fay"]


def texts_of(root: Any) -> dict[str, float]:
    """Every visible text under ``root`` (labels, buttons, fields) by its words, with its drawn
    font size."""
    found: dict[str, float] = {}
    todo = [root]
    while todo:
        widget = todo.pop()
        if widget.opacity == 0:
            continue
        todo.extend(widget.children)
        text = getattr(widget, "text", "")
        if isinstance(text, str) and text.strip() and hasattr(widget, "font_size"):
            found[text] = float(widget.font_size)
    return found


def test_every_start_refusal_is_whole_and_grows_with_the_text_size(app_dirs: Path) -> None:
    from companion import settings as settings_mod
    from companion.compose import CompanionApp
    from companion.demo.drive import Driver, ManualClock, layout_problems, run_app
    from companion.startcheck import BOARDS_CAMERA
    from companion.widgets import headline, natural_size

    shots = Path(os.environ.get("REFUSAL_SHOTS", str(app_dirs / "shots")))
    app = CompanionApp(clock=ManualClock(), journal_file=app_dirs / "j.sqlite3",
                       settings=settings_mod.Settings(camera="none"))
    problems: list[str] = []
    said: dict[str, dict[str, str]] = {"normal": {}, "huge": {}}
    sizes: dict[str, dict[str, dict[str, float]]] = {"normal": {}, "huge": {}}
    message_size: dict[str, float] = {}
    shorter: dict[str, dict[str, str]] = {"normal": {}, "huge": {}}

    def look(d: Driver, text_size: str, case: str, start: Any, dialog: bool) -> None:
        where = f"{case}, {text_size}"
        slug = case.replace(" ", "-")
        if dialog:
            view = start.problem_view
            assert view is not None and view.parent is not None, f"{where}: no dialog"
            said[text_size][case] = " ".join(texts_of(view))
            sizes[text_size][case] = texts_of(view)
            problems.extend(f"{where}: {p}" for p in layout_problems(view, (800, 480)))
            if text_size == "huge":
                d.screenshot(shots / f"start-refusal-{slug}-dialog-huge.png")
            view.dismiss(animation=False)
        else:
            said[text_size][case] = start.message.text
        problems.extend(f"{where}: {p}" for p in layout_problems(start, (800, 480)))
        # the message box shows the message whole, or (too long for it) a whole shorter line:
        # its headline, or where it is said in full (issue 44, item 4: never "give each a")
        label = start.message if start.message.parent is not None else start.message_line
        message_size[text_size] = float(label.font_size)
        box = label.parent
        high = natural_size(label, label.font_size, box.width)[1]
        if high > box.height + 1:
            problems.append(f"{where}: {label.text!r} needs {high:.0f} px, has {box.height}")
        if label is start.message_line:
            head = headline(start.message.text)
            if not head or not label.text.startswith((head, "Not started yet")):
                problems.append(f"{where}: {label.text!r} for {start.message.text!r}")
            shorter[text_size][case] = label.text
        if text_size == "huge":
            d.screenshot(shots / f"start-refusal-{slug}-huge.png")

    def names_refused(d: Driver, text_size: str, start: Any) -> Iterator[int]:
        start.choose_game("dice-ocalypse")
        yield 1
        for case, names in (("empty", ["Ana", "Ben", ""]),
                            ("long", ["Ana", "Ben", "Bartholomew Kempe"]),
                            ("digit first", ["Ana", "Ben", "9 Lives"]),
                            ("bad character", ["Ana", "Ben", "Cy/Dee"]),
                            ("same", ["Ana", "Ben", "ana"])):
            start._seat_names(names)
            yield 1
            d.tap(start.start_button)
            yield 2
            assert app.session is None, case
            look(d, text_size, case, start, dialog=True)
            yield 1

    def choices_refused(d: Driver, text_size: str, start: Any) -> Iterator[int]:
        start.choose_game("eye-for-an-eye")
        yield 1
        start._seat_names(SIX)
        yield 2
        look(d, text_size, "six in the arena", start, dialog=False)
        start.choose_game("dice-forge")
        yield 2
        look(d, text_size, "left out", start, dialog=False)
        start.choose_game("eye-for-an-eye")
        yield 1
        start.set_count(4)
        yield 1
        start._seat_names(SIX[:4])
        start.option_spins["track_allocation"].text = BOARDS_CAMERA
        yield 1
        d.tap(start.start_button)
        yield 2
        look(d, text_size, "no camera for the boards", start, dialog=True)
        start.option_spins["track_allocation"].text = start.option_spins[
            "track_allocation"].values[0]
        start._seat_names(SIX)
        yield 2
        for spin in start.team_spins:  # four against two: the engine refuses
            spin.text = "Team 1"
        start.team_spins[-1].text = start.team_spins[-2].text = "Team 2"
        yield 1
        d.tap(start.start_button)
        yield 2
        assert app.session is None
        look(d, text_size, "teams", start, dialog=True)

    def script(d: Driver) -> Generator[int | None, None, None]:
        yield 2
        for text_size in ("normal", "huge"):
            app.apply_settings(replace(app.settings, text_size=text_size))
            yield 3
            start = app.screens["start"]
            yield from names_refused(d, text_size, start)
            yield from choices_refused(d, text_size, start)

    run_app(app, script, timeout=240)
    normal, huge = said["normal"], said["huge"]
    assert normal == huge  # the same words at every size
    assert "Player 3 has no name yet" in huge["empty"]
    assert "17 characters" in huge["long"]
    assert "starts with a letter" in huge["digit first"]
    assert "letters, digits, spaces" in huge["bad character"]
    assert "Players 1 and 3 are both called ana" in huge["same"]
    assert huge["six in the arena"] == ("Alliances (teams) is chosen for 6: Every Eye for "
                                        "Themselves is for 2 to 4 players.")
    assert "Eli and Fay are not seated" in huge["left out"]
    assert "The camera can fill the boards only when there is one" in huge[
        "no camera for the boards"]
    assert 'Boards: "kept by the players"' in huge["no camera for the boards"]
    # the teams in players' words, not the engine's ("teams: ... got 4 vs 2")
    assert ("With 6 players, Alliances is two teams of 3 or three teams of 2. Now Team 1: "
            "Ana, Ben, Cy, Dee; Team 2: Eli, Fay.") in huge["teams"]
    assert "teams:" not in huge["teams"] and " vs " not in huge["teams"]
    assert problems == [], "\n".join(problems)
    smaller = [f"{case}: {text!r} {size:.1f} px at normal, {sizes['huge'][case][text]:.1f} "
               "at huge" for case, texts in sizes["normal"].items()
               for text, size in texts.items()
               if sizes["huge"][case][text] < size * GROWS]
    assert smaller == [], "\n".join(smaller)
    assert message_size["huge"] > message_size["normal"]
    # at huge, a refusal too long for the box above Start (six players, six option rows)
    # says there, whole, where it is said in full (its headline needs two lines)
    assert shorter["huge"]["teams"] == "Not started yet: tap Start to read why.", shorter
