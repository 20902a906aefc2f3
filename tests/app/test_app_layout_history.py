"""Layout of the History screen at every text size on the 7" display (800x480) and a 1024x600
one: every view (the list, one game at its end and stepped, the players, one player, the scores,
per game, one game's characters, the dice, the export panel) with 6-player games and the
longest player names; nothing cut, nothing overlapping, every touch target at least 48 px inside
the window (companion.demo.drive.layout_problems), and every bar and word of a chart inside it.
Screenshots at the largest text to $HISTORY_SHOTS when set: the start screen with its History
button, the list with the longest names (docs/screenshots/history-*-long-huge.png)."""

from __future__ import annotations

import os
from collections.abc import Generator, Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import LONG_NAMES, TEXT_SIZES, undrawn_frames
from test_app_history import _club_journal, find, settle

pytestmark = pytest.mark.app

#: The Pi's 7" touchscreen, and the common 7"/10" panel one size up.
HISTORY_DISPLAYS = ((800, 480), (1024, 600))


def _long_names(path: Path) -> None:
    """Two 6-player games of players with the longest names the start screen takes, one
    finished and one cut short, the newest in the journal (first in the list)."""
    import random

    from companion.history.sample import random_game, write_game
    from companion.journal import Journal

    rng = random.Random(3)
    with Journal(path) as journal:
        for k, (name, players, finish) in enumerate((("eye-for-an-eye", 6, True),
                                                     ("tribal-village", 4, False))):
            game = random_game(name, rng, club=LONG_NAMES, players=players,
                               max_calls=3000 if finish else 20)
            write_game(journal, game, 1_769_000_000.0 + k * 3600, finish=finish)


def chart_problems(name: str, history: Any) -> list[str]:
    """Each bar and word of the chart shown inside the chart's own box."""
    chart = history.chart
    if chart.get_root_window() is None or chart.width <= 10:
        return []
    x0, y0 = chart.to_window(chart.x, chart.y)
    return [f"{name}: {what!r} at {x:.0f},{y:.0f} {w:.0f}x{h:.0f} outside the chart "
            f"{x0:.0f},{y0:.0f} {chart.width:.0f}x{chart.height:.0f}"
            for what, (x, y, w, h) in chart.texts + chart.bars
            if x < x0 - 1 or y < y0 - 1 or x + w > x0 + chart.width + 1
            or y + h > y0 + chart.height + 1]


def test_every_history_view_holds_its_layout_at_every_text_size(app_dirs: Path) -> None:
    from dataclasses import replace

    from kivy.core.window import Window

    from companion.compose import CompanionApp
    from companion.demo.drive import Driver, ManualClock, layout_problems, run_app
    from companion.settings import Settings

    path = app_dirs / "j.sqlite3"
    _club_journal(path)
    _long_names(path)
    app = CompanionApp(clock=ManualClock(), journal_file=path, settings=Settings(camera="none"))
    problems: list[str] = []
    checked: list[str] = []
    shots = Path(os.environ.get("HISTORY_SHOTS", str(app_dirs / "shots")))

    def check(name: str, widget: Any, history: Any, text_size: str) -> Iterator[int]:
        for size in HISTORY_DISPLAYS:
            Window.size = size
            yield 3
            where = f"{name}, {text_size}"
            problems.extend(f"{where}: {p}" for p in layout_problems(widget, size))
            problems.extend(f"{where} at {size}: {p}" for p in chart_problems(name, history))
            checked.append(f"{name}@{size}@{text_size}")
        Window.size = HISTORY_DISPLAYS[0]
        yield 2

    def views(d: Driver, text_size: str) -> Generator[int | None, None, None]:
        app.show("history")
        h = app.screens["history"]
        yield from settle(h)
        yield from check("list", h, h, text_size)
        if text_size == "huge":
            d.screenshot(shots / "history-list-long-huge.png")
        # the newest games: the long names' (an unfinished one first, then a finished one)
        assert set(LONG_NAMES) >= {p.player for g in h.page[:2] for p in g.players}
        for index, name in ((0, "unfinished game"), (1, "long names")):
            d.tap(list(reversed(h.rows.children))[index])
            yield 1
            yield from settle(h)
            assert h.view == "game"
            yield from check(f"{name} at its end", h, h, text_size)
            h.step_to(3)
            yield from settle(h)
            yield from check(f"{name} at call 3", h, h, text_size)
            d.tap(h.back_button)
            yield from settle(h)
        six = next(g for g in h.page if g.game == "eye-for-an-eye" and len(g.players) == 6)
        h.set_filters("eye-for-an-eye", None)
        yield from settle(h)
        row = next(r for r in h.rows.children
                   if getattr(r, "game_id", None) == six.id or
                   r.second_label.text.startswith(", ".join(p.player for p in six.players)))
        d.tap(row)
        yield 1
        yield from settle(h)
        yield from check("6 players at the end", h, h, text_size)
        h.step_to(12)
        yield from settle(h)
        yield from check("6 players at call 12", h, h, text_size)
        d.tap(h.back_button)
        yield 1
        h.set_filters(None, None)
        d.tap(h.tabs["players"])
        yield 1
        yield from settle(h)
        yield from check("players", h, h, text_size)
        h.set_filters("dice-ocalypse", None)
        yield from settle(h)
        d.tap(h.scores_button)
        yield 2
        yield from check("scores", h, h, text_size)
        h.set_filters(None, LONG_NAMES[0])
        yield from settle(h)
        yield from check("one player", h, h, text_size)
        h.set_filters(None, None)
        d.tap(h.tabs["per-game"])
        yield 1
        yield from settle(h)
        yield from check("per game", h, h, text_size)
        for game in ("eye-for-an-eye", "dice-forge", "tribal-village"):
            h.set_filters(game, None)
            yield from settle(h)
            yield from check(f"per game: {game}", h, h, text_size)
        h.set_filters(None, None)
        d.tap(h.tabs["dice"])
        yield 1
        yield from settle(h)
        for i in range(len(h.dice)):
            h.choose_dice(i)
            yield 2
            yield from check(f"dice {i}", h, h, text_size)
        d.tap(h.export_button)
        yield 2
        d.tap(find(h.export_view, "CSV"))
        yield 1
        yield from settle(h)
        yield from check("export", h.export_view, h, text_size)
        d.tap(find(h.export_view, "Close"))
        yield 2
        app.show("start")
        yield 2

    def script(d: Driver) -> Generator[int | None, None, None]:
        yield 2
        for text_size in TEXT_SIZES:
            app.apply_settings(replace(app.settings, text_size=text_size))
            yield 2
            if text_size == "huge":
                start = app.screens["start"]
                app.show("start")
                start._seat_names(LONG_NAMES)
                yield 3
                d.screenshot(shots / "history-start-long-huge.png")
            if text_size == "huge":  # screenshots: drawn frames
                yield from views(d, text_size)
            else:
                with undrawn_frames():
                    yield from views(d, text_size)

    run_app(app, script, timeout=600)
    per_size = len(checked) // len(TEXT_SIZES)
    assert per_size >= 2 * 17 and len(checked) == per_size * len(TEXT_SIZES)
    assert problems == [], "\n".join(problems[:40]) + f"\n... {len(problems)} in all"
