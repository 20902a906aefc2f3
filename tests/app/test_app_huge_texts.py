"""Texts that say a number, a name or a message grow with the text size and stay whole (issue
44, item 4), through the whole app at 800x480 with as many players as each game takes (long
names): Dice-ocalypse's message box after a refused die (its words at huge at least GROWS of
their normal size, every line inside the box: the news gives way first where all would not
fit); the start screen's strip above Start after a refusal (six option rows leave it one
line: it shows a whole line, the refusal's headline, never the start of the message cut off
mid-sentence; the dialog says it all); Occulites at five players: the line-ups' numbers, the
cards' numbers and the players' points grow, everything whole."""

from __future__ import annotations

import random
import re
from collections.abc import Generator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from conftest import LONG_NAMES
from table_tours import occulites_tour

pytestmark = pytest.mark.app

#: The drawn size at huge must be at least this share of the normal one (huge asks 1.45).
GROWS = 1.3


def first_line_size(widget: Any, line: int = 0) -> float:
    """The drawn size of one line of a widget's text: its own size (Kivy markup) where the
    screen sized it apart, else the widget's."""
    lines = str(widget.text).split("\n")
    sized = re.match(r"\[size=(\d+)\]", lines[line]) if line < len(lines) else None
    return float(sized[1]) if sized else float(widget.font_size)


def test_occulites_numbers_and_points_grow(app_dirs: Path) -> None:
    from companion.compose import CompanionApp
    from companion.demo.drive import Driver, ManualClock, layout_problems, run_app
    from companion.settings import Settings
    from companion.widgets import natural_size
    from rules import Setup

    app = CompanionApp(clock=ManualClock(), journal_file=app_dirs / "j.sqlite3",
                       settings=Settings(camera="none"))
    seen: dict[str, dict[str, Any]] = {"normal": {}, "huge": {}}
    problems: list[str] = []

    def script(d: Driver) -> Generator[int | None, None, None]:
        yield 2
        for text_size in ("normal", "huge"):
            app.apply_settings(replace(app.settings, text_size=text_size))
            yield 3
            app.start_game(Setup("occulites", LONG_NAMES[:5], {}, 3))
            yield 3
            s, g = app.session, app.session.game
            rng = random.Random(4)
            while g.phase != "allocate":
                s.call(g.random_call(rng))
            for p in LONG_NAMES[:5]:  # everyone lines up
                s.call(next(c for c in g.legal_calls() if str(c).startswith(f"{p}:")))
            yield 3
            screen = app.game_screen
            row = screen.rows[LONG_NAMES[0]]
            seen[text_size] = {"line-up number": first_line_size(row.slots[0]),
                               "card number": first_line_size(screen.card_labels[0]),
                               "points": first_line_size(row.header, 1)}
            problems.extend(f"{text_size}: {p}" for p in layout_problems(screen, (800, 480)))
            # Share Knowledge: the players' names on the sources' buttons break between
            # words, never inside one ("Bartholome / w Kemp")
            yield from occulites_tour(app, 1, lambda name, widget=None, on=screen: broken(name, on))
            app.end_game()
            yield 2

    def broken(name: str, screen: Any) -> Generator[int, None, None]:
        if name == "share, from where":
            for b in screen.source_buttons.values():
                for word in str(b.text).split():
                    wide = natural_size(b, b.font_size, None, word)[0]
                    if wide > b.text_size[0] + 1:
                        problems.append(f"{app.settings.text_size}: {word!r} of {b.text!r} is "
                                        f"{wide:.0f} px wide, the button's text {b.text_size[0]}")
            seen.setdefault("share", {})[app.settings.text_size] = len(screen.source_buttons)
        yield 1

    run_app(app, script)
    assert problems == [], "\n".join(problems)
    share = seen.pop("share")
    assert share == {"normal": 6, "huge": 6}, share  # the pool and the five players
    small = {k: v for k, v in seen["huge"].items() if v < GROWS * seen["normal"][k]}
    assert small == {}, (seen["normal"], seen["huge"])


def test_message_box_and_start_strip_grow_and_stay_whole(app_dirs: Path) -> None:
    from companion.compose import CompanionApp
    from companion.demo.drive import Driver, ManualClock, run_app
    from companion.settings import Settings
    from companion.widgets import natural_size
    from rules import Setup

    app = CompanionApp(clock=ManualClock(), journal_file=app_dirs / "j.sqlite3",
                       settings=Settings(camera="none"))
    seen: dict[str, dict[str, Any]] = {"normal": {}, "huge": {}}

    def whole(label: Any) -> bool:
        """All of a label's lines show inside its box."""
        room = label.height if label.text_size[1] is None else label.text_size[1]
        high = natural_size(label, label.font_size, label.width)[1]
        return bool(high <= max(room, label.parent.height) + 1)

    def script(d: Driver) -> Generator[int | None, None, None]:
        yield 2
        for text_size in ("normal", "huge"):
            app.apply_settings(replace(app.settings, text_size=text_size))
            yield 3
            said = seen[text_size]
            # Dice-ocalypse: one number too many for the roll, by touch
            app.start_game(Setup("dice-ocalypse", LONG_NAMES[:6], {"target": 2000}, 3))
            yield 3
            screen = app.game_screen
            for i, p in enumerate(LONG_NAMES[:6]):
                app.session.call(f"{p}: Roll {6 - i}")
            yield 2
            for _ in range(7):
                d.tap(screen.number_buttons[5])
                yield 1
            yield 2
            hint = screen.hint
            said["box"] = (hint.font_size, hint.text, whole(hint),
                           natural_size(hint, hint.font_size, hint.width)[1], hint.height)
            app.end_game()
            yield 2
            # the start screen: six players, two of them called Ana
            start = app.screens["start"]
            start.choose_game("eye-for-an-eye")
            start.choose("mode", "alliances")
            yield 1
            start._seat_names(["Ana", "Ben", "Cy", "Ana", "Eli", "Fay"])
            yield 2
            d.tap(start.start_button)
            yield 3
            start.problem_view.dismiss(animation=False)
            yield 3
            shown = start.message if start.message.parent is not None \
                else getattr(start, "message_line", start.message)
            said["strip"] = (shown.font_size, shown.text, whole(shown))

    run_app(app, script)
    normal, huge = seen["normal"], seen["huge"]
    size, text, fits, *_ = huge["box"]
    assert "6 dice entered" in text and fits, huge["box"]
    assert size >= GROWS * normal["box"][0], (normal["box"], huge["box"])
    size, text, fits = huge["strip"]
    assert fits, huge["strip"]
    assert text in ("Players 1 and 4 are both called Ana.",
                    "Not started yet: tap Start to read why.") or (
        text.startswith("Players 1 and 4 are both called Ana: give each a different name")
    ), text
    assert size >= GROWS * normal["strip"][0], (normal["strip"], huge["strip"])
