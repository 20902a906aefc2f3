"""Layout of the app's own screens at every text size on 800x480 and 1280x720 (nothing cut,
nothing overlapping, every touch target at least 48 px inside the window); the player colours
differ for colour-blind eyes."""

from __future__ import annotations

from collections.abc import Generator
from pathlib import Path
from typing import Any

import pytest
from conftest import DISPLAYS, LONG_NAMES, TEXT_SIZES, undrawn_frames

pytestmark = pytest.mark.app


def first_picture(dice: Any, within: float = 60.0) -> Generator[int, None, None]:
    """Frames until the live dice view shows the rendered dice's first picture (the camera
    runs on its own thread: undrawn frames pass faster than it starts)."""
    import time

    until = time.monotonic() + within
    while dice.frames == 0:
        assert time.monotonic() < until, f"the dice view showed no picture in {within} s"
        time.sleep(0.01)  # the camera's thread needs the processor more than the frames do
        yield 1


def test_the_app_screens_hold_their_layout_at_every_text_size(app_dirs: Path) -> None:
    """The start screen (with its dialogs), Settings, the live dice view and the tournament
    screen: every text size, both displays; nothing cut, nothing overlapping, touch targets
    of 48 px. The games' own screens: tests/app/test_app_layout_<game>.py."""
    from dataclasses import replace

    from kivy.core.window import Window

    import rules
    from companion.compose import CompanionApp
    from companion.demo.drive import Driver, ManualClock, layout_problems, run_app
    from companion.journal import Journal
    from rules import Entry, Setup

    with Journal(app_dirs / "j.sqlite3") as journal:  # two unfinished games, long names
        for game, names in (("dice-ocalypse", LONG_NAMES[:6]),
                            ("tribal-village", LONG_NAMES[:4])):
            setup = Setup(game, tuple(names), {}, 7)
            gid = journal.start_game(setup)  # with a call: a game with none is not kept
            journal.record_call(gid, Entry(rules.from_setup(setup).legal_calls()[0].text()))
    app = CompanionApp(clock=ManualClock(), journal_file=app_dirs / "j.sqlite3")
    problems: list[str] = []
    checked: list[str] = []

    def check(name: str, widget: Any, text_size: str) -> Generator[int | None, None, None]:
        for size in DISPLAYS:
            Window.size = size
            yield 3
            problems.extend(f"{text_size}: {p}" for p in layout_problems(widget, size))
            checked.append(f"{name}@{size}@{text_size}")
        Window.size = DISPLAYS[0]
        yield 1

    def script(d: Driver) -> Generator[int | None, None, None]:
        with undrawn_frames():
            yield from walk(d)

    def walk(d: Driver) -> Generator[int | None, None, None]:
        yield 2
        for text_size in TEXT_SIZES:
            app.apply_settings(replace(app.settings, text_size=text_size))
            yield 2
            start = app.screens["start"]
            app.show("start")
            start._seat_names(LONG_NAMES)
            yield 2
            yield from check("start", start, text_size)
            start.show_unfinished()
            yield 2
            yield from check("unfinished", start.unfinished_view, text_size)
            start.unfinished_view.dismiss(animation=False)
            start.show_recent()
            yield 2
            yield from check("recent", start.recent_view, text_size)
            start.recent_view.dismiss(animation=False)
            for name in ("settings", "dice", "tournament"):
                app.show(name)
                yield 3
                if name == "dice":
                    yield from first_picture(app.screens["dice"])
                yield from check(name, app.screens[name], text_size)

    run_app(app, script, timeout=600)
    assert len(checked) == len(TEXT_SIZES) * len(DISPLAYS) * 6
    assert problems == [], "\n".join(problems[:40]) + f"\n... {len(problems)} in all"


# Viénot, Brettel & Mollon (1999) dichromat simulation matrices, in linear RGB.
_SIM = {"protanopia": ((0.11238, 0.88762, 0.0), (0.11238, 0.88762, 0.0),
                       (0.00401, -0.00401, 1.0)),
        "deuteranopia": ((0.29275, 0.70725, 0.0), (0.29275, 0.70725, 0.0),
                         (-0.02234, 0.02234, 1.0))}


def _closest_pair(palette: str, kind: str) -> float:
    from companion import theme

    def lin(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    def enc(c: float) -> float:
        c = min(1.0, max(0.0, c))
        return 12.92 * c if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055

    m = _SIM[kind]
    seen = []
    for i in range(6):
        rgb = [lin(c) for c in theme.player_colour(palette, i)[:3]]
        seen.append([enc(sum(m[r][k] * rgb[k] for k in range(3))) for r in range(3)])
    return min(sum((a - b) ** 2 for a, b in zip(seen[i], seen[j], strict=True)) ** 0.5
               for i in range(6) for j in range(i + 1, 6))


@pytest.mark.parametrize("kind", sorted(_SIM))
def test_player_colours_stay_distinct_for_dichromats(kind: str) -> None:
    assert _closest_pair("okabe-ito", kind) > 0.2
    if kind == "deuteranopia":  # the check has teeth: red/green seats run together
        assert _closest_pair("classic", kind) < 0.2


@pytest.mark.drawn
def test_undrawn_frames_lay_out_as_drawn_ones(app_dirs: Path) -> None:
    """The whole-app tests run in undrawn frames (conftest.undrawn_frames: no drawing; the
    layout walks without the frame cap too): the start screen with the longest names at the
    largest text, at both displays, has exactly the geometry, texts and text sizes there that
    drawn frames give it, and a screenshot taken in undrawn frames shows what a drawn frame
    does."""
    from dataclasses import replace

    import cv2
    import numpy as np
    from conftest import geometry
    from kivy.core.window import Window

    from companion.compose import CompanionApp
    from companion.demo.drive import Driver, ManualClock, run_app

    app = CompanionApp(clock=ManualClock(), journal_file=app_dirs / "j.sqlite3")
    seen: dict[str, list[Any]] = {"drawn": [], "undrawn": []}

    def look(how: str) -> Generator[int | None, None, None]:
        for size in (*DISPLAYS, DISPLAYS[0]):
            Window.size = size
            yield 3
            seen[how].append(geometry(app.screens["start"]))

    def script(d: Driver) -> Generator[int | None, None, None]:
        yield 2
        app.apply_settings(replace(app.settings, text_size="huge"))
        yield 2
        start = app.screens["start"]
        app.show("start")
        start.choose_game("eye-for-an-eye")
        start._seat_names(LONG_NAMES)
        yield 3
        yield from look("drawn")
        d.screenshot(app_dirs / "drawn.png")
        with undrawn_frames():
            yield from look("undrawn")
            start.choose_game("dice-forge")  # a change that no drawn frame has shown yet
            yield 3
            d.screenshot(app_dirs / "undrawn-forge.png")
        yield 3
        d.screenshot(app_dirs / "drawn-forge.png")
        yield from look("drawn")

    run_app(app, script, timeout=120)
    drawn, undrawn = seen["drawn"][:3], seen["undrawn"]
    assert drawn[0] != drawn[1] and len(drawn[0]) > 20, "the two displays lay out alike"
    assert undrawn == drawn
    assert seen["drawn"][3:] != drawn  # drawn again after, with Dice Forge chosen
    shots = {n: cv2.imread(str(app_dirs / f"{n}.png")) for n in
             ("drawn", "undrawn-forge", "drawn-forge")}
    assert all(v is not None for v in shots.values()), "a screenshot was not saved"
    assert np.array_equal(shots["undrawn-forge"], shots["drawn-forge"])
    assert not np.array_equal(shots["drawn"], shots["drawn-forge"])  # the change is seen


def test_a_script_past_its_time_says_where_it_stands(app_dirs: Path) -> None:
    """run_app's time limit fails the test with where the script waits and how far it went
    (a hang and a slow machine look different), not a bare "still running"."""
    from companion.compose import CompanionApp
    from companion.demo.drive import Driver, ManualClock, run_app

    app = CompanionApp(clock=ManualClock(), journal_file=app_dirs / "j.sqlite3")

    def never_done() -> Generator[int, None, None]:
        while True:
            yield 1  # waits for something that never comes

    def script(d: Driver) -> Generator[int | None, None, None]:
        yield from never_done()  # from its first step (the app may start slower than 1 s)

    with pytest.raises(TimeoutError) as caught:
        run_app(app, script, timeout=1)
    said = str(caught.value)
    assert "app script still running after 1 s (" in said, said
    assert f"{__file__}:" in said and "(never_done)" in said, said
    assert " frames, " in said and "processor time" in said, said
