"""Eye for an Eye at huge text, 800x480, six players in Alliances (issue 31): a seat's
"Health 15/15", its team and cup line and the message box grow with the text size (drawn
size at huge against normal) and stay whole; the newest call in the message box ("Last
call: ... Hits land on Riparian from Grubic") is whole, and so is a long refusal there (95
characters, made by touch); between rounds, a team's row ("Team
1" over its characters) grows as the other rows do, is never shrunk below its size and is
whole.

EYE_GROW_SHOTS=<folder> keeps the screenshots (eye-6-huge-arena.png, eye-6-huge-refusal.png,
eye-6-huge-between.png)."""

from __future__ import annotations

import os
from collections.abc import Generator
from dataclasses import replace
from pathlib import Path

import pytest
from conftest import LONG_NAMES

pytestmark = pytest.mark.app

#: The drawn size at huge must be at least this share of the normal one (huge asks 1.45).
GROWS = 1.3
SIX = ["grubic", "riparian", "banksia", "pluma", "incendiary", "echo"]


def test_health_cup_message_and_team_rows_grow_and_stay_whole(app_dirs: Path) -> None:
    from companion.compose import CompanionApp
    from companion.demo.drive import Driver, ManualClock, cut_text, run_app
    from rules import Setup

    shots = Path(os.environ.get("EYE_GROW_SHOTS", str(app_dirs / "shots")))
    clock = ManualClock()
    app = CompanionApp(clock=clock, journal_file=app_dirs / "j.sqlite3")
    sizes: dict[str, dict[str, float]] = {"normal": {}, "huge": {}}
    problems: list[str] = []
    teams = [list(LONG_NAMES[0:6:2]), list(LONG_NAMES[1:6:2])]
    setup = Setup("eye-for-an-eye", LONG_NAMES[:6],
                  {"mode": "alliances", "teams": teams, "characters": SIX}, 5)

    def whole(where: str, label: object) -> None:
        why = cut_text(label)
        if why:
            problems.append(f"{where}: {getattr(label, 'text', '')!r} {why}")

    def script(d: Driver) -> Generator[int | None, None, None]:
        yield 2
        for text_size in ("normal", "huge"):
            app.apply_settings(replace(app.settings, text_size=text_size))
            yield 2
            drawn = sizes[text_size]
            app.start_game(setup)
            yield 3
            arena = app.screens["arena"]
            s = app.session
            assert s is not None
            d.tap(arena.go)
            yield 1
            s.call("Grubic: Spear Thrust 2 on Riparian")
            s.call("Hits land on Riparian from Grubic")
            yield 3
            newest = "0:00 Hits land on Riparian from Grubic"  # "Last call:" gives way at huge
            assert arena.prompt.text in (f"Last call:\n{newest}", newest), arena.prompt.text
            for player, panel in arena.panels.items():
                whole(f"{text_size} {player} health", panel.health)
                whole(f"{text_size} {player} team and cup", panel.cup)
            whole(f"{text_size} message box", arena.prompt)
            panel = next(iter(arena.panels.values()))
            drawn["health"] = panel.health.font_size
            drawn["team and cup"] = panel.cup.font_size
            drawn["message box"] = arena.prompt.font_size
            if text_size == "huge":
                d.screenshot(shots / "eye-6-huge-arena.png")
            # a long refusal, by touch: Grubic's Spear Thrust on Incendiary, on his own team
            grubic, incendiary = LONG_NAMES[0], LONG_NAMES[4]
            yield from d.call(grubic, "attack", 1, incendiary)
            yield 3
            refusal = arena.prompt.text
            assert arena.refused and "friendly fire is off" in refusal, refusal
            if len(refusal) < 90:
                problems.append(f"{text_size}: the refusal is not a long one: {refusal!r}")
            whole(f"{text_size} a long refusal", arena.prompt)
            if text_size == "huge":
                d.screenshot(shots / "eye-6-huge-refusal.png")
            clock.advance(s.clock.remaining + 1)  # Yarra Bung!
            app._tick(0.0)
            yield 3
            between = app.screens["between"]
            assert app.sm.current == "between"
            rows = [row.children[::-1] for row in between.table.children[::-1][1:]]
            assert len(rows) == 2, between.table.children
            for row in rows:
                for label in row:
                    whole(f"{text_size} between-rounds row", label)
            for row in rows:  # a team's row is never drawn smaller than asked (issue 31)
                if row[1].font_size < row[1]._wanted - 0.01:
                    problems.append(f"{text_size}: {row[1].text!r} shrunk to "
                                    f"{row[1].font_size:.1f} from {row[1]._wanted:.1f}")
            drawn["team row"] = min(row[1].font_size for row in rows)
            drawn["rank"] = min(row[0].font_size for row in rows)
            if text_size == "huge":
                d.screenshot(shots / "eye-6-huge-between.png")
            app.end_game()
            yield 2

    run_app(app, script)
    assert problems == [], "\n".join(problems)
    small = {k: v for k, v in sizes["huge"].items() if v < GROWS * sizes["normal"][k]}
    assert small == {}, f"do not grow: {small} (normal {sizes['normal']})"
