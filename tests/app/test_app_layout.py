"""Layout: every screen fits 800x480 and 1280x720 with 3 and 6 players; every touch target is
at least 48 px and lies inside the window; the player colours differ for colour-blind eyes."""

from __future__ import annotations

from collections.abc import Generator
from pathlib import Path

import pytest
from conftest import arena_game, arena_of

pytestmark = pytest.mark.app


def test_every_screen_fits_both_displays(app_dirs: Path) -> None:
    from kivy.core.window import Window

    from companion.app import CompanionApp
    from companion.drive import Driver, ManualClock, run_app, touch_problems

    game = arena_game()
    app = CompanionApp(clock=ManualClock(), journal_file=app_dirs / "j.sqlite3")
    problems: list[str] = []
    checked: list[str] = []

    def check_all(d: Driver, size: tuple[int, int]) -> Generator[int | None, None, None]:
        for name in ("start", "settings", "dice"):
            app.show(name)
            yield 3
            problems.extend(touch_problems(app.sm.current_screen, size))
            checked.append(f"{name}@{size}")
        if app.session is not None:
            for name in ("arena", "between"):
                app.show(name)
                yield 3
                problems.extend(touch_problems(app.sm.current_screen, size))
                checked.append(f"{name}@{size}")

    def script(d: Driver) -> Generator[int | None, None, None]:
        start = app.screens["start"]
        start.choose_game(game)
        yield 2
        for count in (3, 6):
            if count == 6 and start.mode_spin is not None:
                start.choose("mode", "alliances")  # Every Eye for Themselves takes 2-4
                yield 1
            start.set_count(count)
            if len(start.names) != count:
                continue  # the game takes fewer players
            app.show("start")
            yield 2
            d.tap(start.start_button)
            yield 2
            s = app.session
            assert s is not None, start.message.text
            # A pending attack shows the parry countdown, which takes room in a panel.
            calls = arena_of(app)
            s.start_clock()
            calls.tap_action("Ana", "attack")
            calls.tap_count(2)
            calls.tap_target("Ben")
            for size in ((800, 480), (1280, 720)):
                Window.size = size
                yield 3
                yield from check_all(d, size)
            Window.size = (800, 480)
            app.end_game()
            yield 2

    run_app(app, script)
    assert checked.count("arena@(800, 480)") == 2  # with 3 and with 6 players
    assert checked.count("between@(1280, 720)") == 2
    assert problems == []


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
