"""The History screen through the real app, by touch: two games played, then the history
opened from the start screen, one game stepped through call by call, an unfinished one
resumed, the games exported; a settled camera roll recorded in the roll log and a die the
players corrected counted as corrected (Dice-ocalypse and Dice Forge); every history screen
at 800x480 with normal and the largest text, with 6-player games (screenshots to
$HISTORY_SHOTS when set: docs/screenshots/history-*.png)."""

from __future__ import annotations

import csv
import gc
import json
import os
import shutil
import sys
import time
import weakref
import zipfile
from collections.abc import Generator, Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import arena_of, leave_game

pytestmark = pytest.mark.app


def find(root: Any, text: str) -> Any:
    """The visible button (or row) under ``root`` whose text is ``text``."""
    todo = [root]
    while todo:
        widget = todo.pop()
        if getattr(widget, "opacity", 1) == 0:
            continue
        if getattr(widget, "text", None) == text and hasattr(widget, "on_release"):
            return widget
        todo.extend(widget.children)
    raise AssertionError(f"no button {text!r} on {root!r}")


def begin(d: Any, game: str, players: int = 2) -> Iterator[int]:
    """A new game from the start screen, by touch: the game, how many play, Start."""
    start = d.app.screens["start"]
    start.choose_game(game)
    yield 2
    start.set_count(players)
    d.tap(start.start_button)
    yield 2
    assert d.app.session is not None, start.message.text


def settle(screen: Any) -> Iterator[int]:
    """Frames until the history screen has nothing left to work out (its second thread's
    jobs back), for up to two minutes however fast the frames pass."""
    until = time.monotonic() + 120
    while screen.busy and time.monotonic() < until:
        yield 1
    assert not screen.busy, "the history screen is still working after 120 s"
    yield 2


def test_two_games_then_history_step_resume_and_export(app_dirs: Path) -> None:
    from companion.compose import CompanionApp
    from companion.demo.drive import Driver, ManualClock, run_app, touch_problems
    from companion.history import History
    from companion.settings import Settings

    clock = ManualClock()
    app = CompanionApp(clock=clock, journal_file=app_dirs / "j.sqlite3",
                       settings=Settings(camera="none"))
    seen: dict[str, Any] = {}

    def advance(seconds: float) -> None:
        clock.advance(seconds)
        app._tick(0.0)

    def script(d: Driver) -> Generator[int | None, None, None]:
        start = app.screens["start"]
        # Game 1: Eye for an Eye, one round, played to its end by touch.
        start.choose_game("eye-for-an-eye")
        yield 2
        start.choose("rounds", 1)
        d.tap(start.start_button)
        yield 2
        s = app.session
        assert s is not None and app.sm.current == "arena"
        seen["eye"] = s.game_id
        d.tap(app.screens["arena"].go)
        yield 2
        for target in ("Ben", "Cy"):
            for _ in range(30):
                if s.game.state.phase != "playing" or \
                        arena_of(app).seat_of(target).knocked_out:
                    break
                yield from d.call("Ana", "unblockable", 3, target)
                advance(0.5)
        yield 2
        assert s.game.is_over and app.sm.current == "between"
        seen["eye_calls"] = [e.call for e in s.log]
        between = app.screens["between"]
        assert between.next_b.text == "New game"
        d.tap(between.next_b)  # the match is over: back to the start screen
        yield 2
        assert app.sm.current == "start" and app.session is None
        # Game 2: Dice-ocalypse, two players, left after four calls (unfinished).
        yield from begin(d, "dice-ocalypse")
        s = app.session
        assert s is not None
        seen["dice"] = s.game_id
        scr = app.game_screen
        for value in (5, 2):  # the roll for first turn: Ana 5, Ben 2
            d.tap(scr.number_buttons[value - 1])
            yield 1
            d.tap(scr.primary)
            yield 2
        for value in (1, 5, 2, 3, 4, 6):
            d.tap(scr.number_buttons[value - 1])
            yield 1
        d.tap(scr.primary)
        yield 2
        seen["dice_calls"] = [e.call for e in s.log]
        assert seen["dice_calls"][:2] == ["Ana: Roll 5", "Ben: Roll 2"]
        assert len(seen["dice_calls"]) >= 3, app.session.message
        yield from leave_game(d, scr)  # Menu, End game, asked first
        assert app.sm.current == "start" and app.session is None

        # The history, from the start screen's top bar.
        d.tap(find(start, "History"))
        yield 1
        history = app.screens["history"]
        assert app.sm.current == "history"
        yield from settle(history)
        assert history.total == 2
        rows = list(reversed(history.rows.children))
        assert [r.title_label.text.split("[/b]")[0] for r in rows] == \
            ["[b]Dice-ocalypse", "[b]Eye for an Eye"]
        assert "unfinished" in rows[0].title_label.text
        assert "Ana won" in rows[1].title_label.text
        assert rows[1].second_label.text.startswith("Ana, Ben, Cy")
        assert all(r.height >= 48 for r in rows)
        assert touch_problems(history, (800, 480)) == []
        # Filters by touch: a game, then a player, then all again.
        history.game_spin.text = "Eye for an Eye"
        yield from settle(history)
        assert history.total == 1 and history.page[0].game == "eye-for-an-eye"
        history.game_spin.text = "All games"
        history.player_spin.text = "Cy"
        yield from settle(history)
        assert [g.id for g in history.page] == [seen["eye"]]
        history.player_spin.text = "All players"
        yield from settle(history)
        assert history.total == 2

        # One game, opened at its end, then stepped through.
        d.tap(list(reversed(history.rows.children))[1])
        yield 1
        yield from settle(history)
        assert history.view == "game" and history.heading.text.endswith("Eye for an Eye")
        step = history.opened.step
        assert step.index == step.total == len(seen["eye_calls"]) and step.at_end
        assert history.resume_button.disabled  # a finished game is not resumed
        assert touch_problems(history, (800, 480)) == []
        cells = [c.text for c in reversed(history.table.children)]
        assert cells[:2] == ["player", "character"] and "knocked out" in cells
        def press(button: Any) -> Iterator[int]:
            d.tap(button)
            yield 1
            yield from settle(history)

        yield from press(history.first_button)
        assert history.opened.step.index == 0
        cells = [c.text for c in reversed(history.table.children)]
        assert "knocked out" not in cells and cells.count("15") == 3  # full health
        yield from press(history.next_step)
        assert history.opened.step.index == 1
        assert seen["eye_calls"][0] in history.step_label.text
        yield from press(history.next_step)
        assert history.opened.step.index == 2
        yield from press(history.back_step)
        assert history.opened.step.index == 1
        history.slider.value = 5  # dragged
        yield 1
        yield from settle(history)
        assert history.opened.step.index == 5
        assert seen["eye_calls"][4] in history.step_label.text
        yield from press(history.last_button)
        assert history.opened.step.at_end
        yield from press(history.back_button)  # back to the list
        assert history.view == "games"

        # Export: CSV, BG Stats and the game files, into the data folder's exports/.
        d.tap(history.export_button)
        yield 2
        assert str(app_dirs / "data" / "exports") in history.export_text.text
        for label in ("CSV", "BG Stats", "Game files"):
            d.tap(find(history.export_view, label))
            yield 1
            yield from settle(history)
        assert "Wrote 2 game files" in history.export_text.text
        seen["exported"] = list(history.exported)
        d.tap(find(history.export_view, "Close"))
        yield 2

        # The unfinished game, resumed from the history.
        d.tap(next(reversed(history.rows.children)))
        yield 1
        yield from settle(history)
        assert not history.resume_button.disabled
        d.tap(history.resume_button)
        yield 2
        assert app.session is not None and app.session.game_id == seen["dice"]
        assert [e.call for e in app.session.log] == seen["dice_calls"]
        assert app.sm.current == app.game_screen.name

        # Left, the History lets go of itself: nothing of the app holds it any more (its
        # widgets and textures are freed, not kept for the rest of the evening).
        left = weakref.ref(history)
        history = rows = None  # the test's own references let go
        until = time.monotonic() + 1.5  # the scroll bars' fade timers (0.5 s) run out
        while time.monotonic() < until:
            yield 1
        gc.collect()
        assert "history" not in app.screens
        assert left() is None, [type(r).__name__ for r in gc.get_referrers(left())]

    run_app(app, script, timeout=300)
    csv_file, html_file, zip_file = seen["exported"]
    assert csv_file.parent == app_dirs / "data" / "exports"
    with csv_file.open(encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == 5  # one per player per game: 3 + 2
    assert {r["player"] for r in rows if r["won"] == "1"} == {"Ana"}
    assert html_file.name.endswith("-bgstats.html")
    assert html_file.read_text(encoding="utf-8").count("createPlay.html?data=") == 1
    with zipfile.ZipFile(zip_file) as z:
        assert len(z.namelist()) == 2
    with History(app_dirs / "j.sqlite3") as h:  # nothing left behind half-written
        assert not list((app_dirs / "data" / "exports").glob(".part-*"))
        h.refresh()
        assert h.game(seen["eye"]).winner == "Ana"


class TableCamera:
    """A camera whose rolls count and whose newest picture the test sets (a CameraView)."""

    label, stand_in, rolls_count, error, ended = "test camera", False, True, None, None
    snap: Any = None

    def want(self, who: str) -> None:
        pass

    def release(self, who: str) -> None:
        pass

    def expect(self, rollers: Any, turn: int = 0) -> None:
        pass

    photo_table = False

    def next_photo(self) -> bool:
        return False

    def latest(self) -> Any:
        return self.snap

    def crops_of(self, reading: Any) -> None:
        return None  # no picture kept: the players' corrections teach nothing

    def close(self) -> None:
        pass


def _die(x: float, value: int | None, confidence: float, face: str | None = None,
         colour: str | None = "red") -> Any:
    from vision import Die

    corners = ((x - 20, 80.0), (x + 20, 80.0), (x + 20, 120.0), (x - 20, 120.0))
    return Die((x, 100.0), corners, 0.0, 40.0, value,
               face if face is not None else (None if value is None else str(value)),
               colour, confidence)


def _rolls(path: Path) -> list[tuple[bool, list[list[Any]]]]:
    import sqlite3

    with sqlite3.connect(path) as db:
        if not db.execute("SELECT 1 FROM sqlite_master WHERE name = 'roll_log'").fetchone():
            return []  # no roll recorded yet
        return [(bool(c), json.loads(d)) for c, d in
                db.execute("SELECT corrected, dice FROM roll_log ORDER BY id")]


def _knows_forge_faces(app: Any) -> tuple[str, str]:
    """The calibration profile in use gets a face set that knows every Dice Forge face on the
    table; returns a face of die 1 and one of die 2 of the player who rolls first."""
    from vision import Profile
    from vision.profile import FEATURE_LENGTH, FaceSet

    st = app.session.game.state
    roller = st.player(st.steps[0].player)
    labels = tuple(sorted({f for p in st.players for dd in p.dice for f in dd}))
    app.cameras.profile = Profile(face_sets=(FaceSet(
        "dice-forge", labels, tuple((i, (0.0,) * FEATURE_LENGTH)
                                    for i in range(len(labels))), 1.0),))
    return roller.dice[0][0], roller.dice[1][0]


def _written(path: Path, count: int) -> Iterator[int]:
    """Frames until the roll log holds ``count`` rolls (it writes on its own thread), then a
    few more (a roll written late would show); it holds exactly ``count``."""
    for _ in range(600):
        if len(_rolls(path)) >= count:
            break
        yield 1
    yield 3
    assert len(_rolls(path)) == count


def test_settled_rolls_are_recorded_and_corrected_dice_count_as_corrected(
        app_dirs: Path) -> None:
    from companion.compose import CompanionApp
    from companion.demo.drive import Driver, ManualClock, run_app
    from companion.history import RollLog
    from vision import Reading

    path = app_dirs / "j.sqlite3"
    app = CompanionApp(clock=ManualClock(), journal_file=path)
    camera = TableCamera()
    app.cameras.feed = camera  # type: ignore[assignment]
    seen: dict[str, Any] = {}

    def script(d: Driver) -> Generator[int | None, None, None]:
        # The Occulites choose their Tribes: no roll is expected, dice seen then are no roll.
        yield from begin(d, "occulites")
        assert app.session is not None and not app.session.prompt().roll
        app.on_settled_roll(Reading((_die(200.0, 3, 0.9),), (480, 640)))
        yield 3
        assert app.rolls.recorded is None and _rolls(path) == []
        app.end_game()
        yield 2

        yield from begin(d, "dice-ocalypse")
        s, scr = app.session, app.game_screen
        assert s is not None and scr.camera_on and s.prompt().roll
        # Ana's roll for first turn, read unsure (a 3 at 0.3): recorded at once.
        unsure = Reading((_die(200.0, 3, 0.3),), (480, 640))
        app.on_settled_roll(unsure)
        yield from _written(path, 1)
        assert _rolls(path) == [(False, [["3", "red", 0.3, None]])]
        assert scr.dice[0].text == "3?" and scr.primary.disabled
        # The players correct it by touch: the die, then 4.
        d.tap(scr.dice[0])
        yield 1
        d.tap(scr.number_buttons[3])
        yield 1
        d.tap(scr.primary)
        yield 2
        assert s.log[-1].call == "Ana: Roll 4"
        # Ben's roll, read sure: called at once, recorded, not corrected.
        app.on_settled_roll(Reading((_die(300.0, 2, 0.95),), (480, 640)))
        yield 2
        assert s.log[-1].call == "Ben: Roll 2"
        yield from _written(path, 2)
        with pytest.raises(ValueError, match="no die 3"):  # a screen's mistake, named
            app.correct_roll(unsure, {3: "4"})
        app.end_game()
        yield 2

        # Dice Forge: a blessing roll read with one face unsure; the players keep the face
        # preselected and tap the other (the camera's, confirmed).
        yield from begin(d, "dice-forge")
        s, scr = app.session, app.game_screen
        sure, doubt = _knows_forge_faces(app)
        roller = s.game.state.steps[0].player
        seen["doubt"] = doubt
        reading = Reading((_die(100.0, None, 0.95, sure, "white"),
                           _die(300.0, None, 0.35, doubt, "white")), (480, 640))
        app.on_settled_roll(reading)
        yield 2
        assert not s.game.history and scr.model.picked == {0: sure}
        yield from _written(path, 3)
        d.tap(scr.buttons[f"die2:{doubt}"])
        yield 2
        assert s.game.history[0].call == f"{roller}: Rolled {sure}, {doubt}"

    run_app(app, script, timeout=180)
    rolls = _rolls(path)  # the app has stopped: its roll log's thread is done
    assert rolls[0] == (True, [["3", "red", 0.3, "4"]])  # the camera's 3, the players' 4
    assert rolls[1] == (False, [["2", "red", 0.95, None]])
    corrected, forge = rolls[2]
    assert corrected and [d[3] for d in forge] == [None, seen["doubt"]]
    with RollLog(path) as log:
        red = next(c for c in log.counts() if c.colour == "red")
        assert red.corrected == {"4": 1} and red.read == {"2": 1} and red.unsure == 0


# -- every screen at 800x480 -------------------------------------------------------------------


def _club_journal(path: Path) -> None:
    """Two evenings of each game, four 6-player games (one cut short) and rolls of a fair
    white and a red die loaded on six."""
    import random

    from companion.history import Roll, RolledDie, RollLog
    from companion.history.fairness import loaded_die
    from companion.history.sample import game_night, random_game, write_game
    from companion.journal import Journal

    with Journal(path) as journal:
        journal.db.execute("PRAGMA synchronous=OFF")
        game_night(journal, per_game=2, seed=5, unfinished=1)
        rng = random.Random(9)
        for k, name in enumerate(("eye-for-an-eye", "dice-ocalypse", "tribal-village")):
            write_game(journal, random_game(name, rng, players=6), 1_768_000_000.0 + k * 86_400)
        write_game(journal, random_game("dice-ocalypse", rng, players=6, max_calls=12),
                   1_768_400_000.0, finish=False)
    rolls = []
    for colour, weights in (("white", [1 / 6] * 6), ("red", loaded_die(6, 0.2))):
        for _ in range(1500):
            face = rng.choices("123456", weights=weights)[0]
            rolls.append(Roll((RolledDie(face, colour, rng.uniform(0.5, 0.99)),), game_id=1))
    with RollLog(path) as log:
        log.record_many(rolls)


@pytest.fixture(scope="module")
def club_journal(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The club's journal, written once for the module (some 5 s of random play); each test
    opens a copy of it."""
    path = tmp_path_factory.mktemp("club") / "j.sqlite3"
    _club_journal(path)
    return path


@pytest.mark.parametrize("text_size", ["normal", "huge"])
def test_every_history_screen_fits_800x480(app_dirs: Path, club_journal: Path,
                                           text_size: str) -> None:
    """Each view with 6-player games: touch targets of 48 px or more, nothing outside the
    window, each chart's bars and words inside the chart; matplotlib and scipy never loaded
    into the app. Screenshots of each."""
    from companion.compose import CompanionApp
    from companion.demo.drive import Driver, ManualClock, run_app, touch_problems
    from companion.settings import Settings

    path = app_dirs / "j.sqlite3"
    for suffix in ("", "-wal"):  # closed, SQLite leaves no write-ahead log; copied if it did
        if Path(f"{club_journal}{suffix}").exists():
            shutil.copyfile(f"{club_journal}{suffix}", f"{path}{suffix}")
    shots = Path(os.environ.get("HISTORY_SHOTS", str(app_dirs / "shots")))
    tag = "" if text_size == "normal" else f"-{text_size}"
    app = CompanionApp(clock=ManualClock(), journal_file=path,
                       settings=Settings(text_size=text_size, camera="none"))
    problems: list[str] = []

    def check(name: str, d: Driver, history: Any) -> None:
        problems.extend(touch_problems(history, (800, 480)))
        for rows in (history.rows, history.stat_rows):
            for r in rows.children:
                if not hasattr(r, "title_label"):
                    continue
                if r.height < 48:
                    problems.append(f"{name}: row {r.title_label.text!r} is {r.height:.0f} "
                                    "px tall")
                if r.title_label.width < 0.4 * r.width:  # its note must not crowd it out
                    problems.append(f"{name}: row {r.title_label.text!r} has "
                                    f"{r.title_label.width:.0f} of {r.width:.0f} px")
        chart = history.chart
        if chart.get_root_window() is not None and chart.width > 10:
            x0, y0 = chart.to_window(chart.x, chart.y)
            for what, (x, y, w, h) in chart.texts + chart.bars:
                if x < x0 - 1 or y < y0 - 1 or x + w > x0 + chart.width + 1 or \
                        y + h > y0 + chart.height + 1:
                    problems.append(f"{name}: {what!r} at {x:.0f},{y:.0f} {w:.0f}x{h:.0f} "
                                    f"outside the chart {x0:.0f},{y0:.0f} "
                                    f"{chart.width:.0f}x{chart.height:.0f}")
        d.screenshot(shots / f"history-{name}{tag}.png")

    def script(d: Driver) -> Generator[int | None, None, None]:
        yield 2
        app.show("history")
        history = app.screens["history"]
        yield from settle(history)
        check("list", d, history)
        six = next(g for g in history.page if g.game == "eye-for-an-eye" and
                   len(g.players) == 6)
        row = next(r for r in history.rows.children if r.second_label.text.startswith(
            ", ".join(p.player for p in six.players)))
        d.tap(row)
        yield 1
        yield from settle(history)
        assert len(history.table.children) == 7 * history.table.cols  # header + 6 players
        check("game-end", d, history)
        history.step_to(12)
        yield from settle(history)
        check("game-step", d, history)
        d.tap(history.back_button)
        yield 1
        d.tap(history.tabs["players"])
        yield 1
        yield from settle(history)
        check("players", d, history)
        history.set_filters("dice-ocalypse", None)
        yield from settle(history)
        d.tap(history.scores_button)
        yield 2
        check("players-scores", d, history)
        history.set_filters(None, "Ana")
        yield from settle(history)
        check("player", d, history)
        history.set_filters(None, None)
        d.tap(history.tabs["per-game"])
        yield 1
        yield from settle(history)
        check("games", d, history)
        history.set_filters("eye-for-an-eye", None)
        yield from settle(history)
        check("game-characters", d, history)
        history.set_filters(None, None)
        d.tap(history.tabs["dice"])
        yield 1
        yield from settle(history)
        assert [f.label for f in history.dice] == ["the red dice", "the white dice"] or \
            [f.label for f in history.dice] == ["the white dice", "the red dice"]
        red = next(i for i, f in enumerate(history.dice) if f.label == "the red dice")
        history.choose_dice(red)
        yield 2
        assert history.card_text.text.startswith("The red dice show 6 too often")
        assert [b.label for b in history.chart.chart.bars] == list("123456")
        check("dice", d, history)
        d.tap(history.export_button)
        yield 2
        d.tap(find(history.export_view, "CSV"))
        yield 1
        yield from settle(history)
        problems.extend(touch_problems(history.export_view, (800, 480)))
        d.screenshot(shots / f"history-export{tag}.png")
        d.tap(find(history.export_view, "Close"))
        yield 2
        assert "matplotlib" not in sys.modules and "scipy" not in sys.modules

    run_app(app, script, timeout=300)
    assert problems == []


def test_only_rolls_the_game_takes_enter_the_roll_log(app_dirs: Path) -> None:
    """The roll log keeps the camera's dice only when the game took them as the roll: not a
    Dice-ocalypse roll while the players have the camera off (they enter rolls by touch), not
    a Dice Forge roll while no face set reads its faces, not the Occulites' settled tray (they
    read line-ups with Camera), whose Camera reading is kept once a round."""
    from companion.compose import CompanionApp
    from companion.contract import Snapshot
    from companion.demo.drive import Driver, ManualClock, run_app
    from vision import Reading

    path = app_dirs / "j.sqlite3"
    app = CompanionApp(clock=ManualClock(), journal_file=path)
    camera = TableCamera()
    app.cameras.feed = camera  # type: ignore[assignment]

    def script(d: Driver) -> Generator[int | None, None, None]:
        yield from begin(d, "dice-ocalypse")
        s, scr = app.session, app.game_screen
        assert s is not None and scr.camera_on and s.prompt().roll
        d.tap(scr.camera_button)  # the players turn the camera off
        yield 2
        assert not scr.camera_on
        app.on_settled_roll(Reading((_die(200.0, 3, 0.95),), (480, 640)))
        yield 2
        assert not s.log and app.rolls.recorded is None
        d.tap(scr.camera_button)
        yield 2
        taken = Reading((_die(300.0, 5, 0.95),), (480, 640))
        app.on_settled_roll(taken)
        yield 2
        assert s.log[-1].call == "Ana: Roll 5"
        yield from _written(path, 1)
        app.end_game()
        yield 2

        # Dice Forge with no face set for its faces: the players tap the faces.
        yield from begin(d, "dice-forge")
        s, scr = app.session, app.game_screen
        assert app.cameras.profile is None or not scr.camera_ready()
        app.on_settled_roll(Reading((_die(100.0, 4, 0.95),), (480, 640)))
        yield 2
        assert app.rolls.recorded is not None and app.rolls.recorded[0] is taken
        app.end_game()
        yield 2

        # The Occulites: tribes, then the dice are rolled and lined up.
        yield from begin(d, "occulites")
        s, scr = app.session, app.game_screen
        g = s.game
        d.tap(scr.tribe_buttons["Palaudis"])
        yield 1
        d.tap(scr.rows["Ben"].header)
        yield 1
        d.tap(scr.tribe_buttons["Hydris"])
        yield 2
        assert g.phase == "allocate"
        tray = Reading(tuple(_die(60.0 + 60 * i, 1 + i % 6, 0.95, colour="green")
                             for i in range(6)), (480, 640))
        app.on_settled_roll(tray)  # the roll settles: the players line their dice up
        yield 2
        assert app.rolls.recorded is not None and app.rolls.recorded[0] is taken
        lined_up = Reading(tuple(_die_at(60.0 + 90 * i, 80.0, 1 + i, "green") for i in range(6))
                           + tuple(_die_at(67.0 + 90 * i, 230.0 + 5 * i, 6 - i, "blue")
                                   for i in range(6)), (480, 640))
        camera.snap = Snapshot(1, None, lined_up, False)
        d.tap(scr.read_button)  # both line-ups read by Camera: the round's roll
        yield 2
        assert app.rolls.recorded is not None and app.rolls.recorded[0] is lined_up
        yield from _written(path, 2)
        d.tap(scr.read_button)  # read again (a die fixed): the same round's dice
        yield 2
        yield from _written(path, 2)

    run_app(app, script, timeout=180)
    assert len(_rolls(path)) == 2


def test_a_call_the_model_makes_is_drawn_after_the_model_has_finished(app_dirs: Path) -> None:
    """A sure camera roll: the Dice-ocalypse model calls it, and only after its call is made
    forgets the reading it came from. The screen draws once the model is done (never in the
    middle of its send, from the session's listener, with the reading still held)."""
    from companion.compose import CompanionApp
    from companion.demo.drive import Driver, ManualClock, run_app
    from vision import Reading

    app = CompanionApp(clock=ManualClock(), journal_file=app_dirs / "j.sqlite3")
    app.cameras.feed = TableCamera()  # type: ignore[assignment]
    finished: list[bool] = []  # at each draw after the roll: the model had forgotten it

    def script(d: Driver) -> Generator[int | None, None, None]:
        yield from begin(d, "dice-ocalypse")
        s, scr = app.session, app.game_screen
        draw = scr.draw

        def counted() -> None:
            finished.append(scr.model.read_from is None)
            draw()

        scr.draw = counted
        app.on_settled_roll(Reading((_die(200.0, 3, 0.95),), (480, 640)))
        yield 2
        assert s.log[-1].call == "Ana: Roll 3"

    run_app(app, script, timeout=120)
    assert finished and all(finished), finished


def _die_at(x: float, y: float, pips: int, colour: str) -> Any:
    from vision import Die

    corners = ((x - 20, y - 20), (x + 20, y - 20), (x + 20, y + 20), (x - 20, y + 20))
    return Die((x, y), corners, 0.0, 40.0, pips, str(pips), colour, 0.95)


def test_a_roll_is_logged_once_and_only_when_the_game_reads_it(app_dirs: Path) -> None:
    """Dice Forge: a picture its model turns down (three dice for a roll of two) is not
    kept; the roll it reads is kept once, however often the players tap Camera. The
    Occulites: a Camera tap before the dice are lined up keeps nothing; the round's line-ups
    read whole are kept once."""
    from companion.compose import CompanionApp
    from companion.contract import Snapshot
    from companion.demo.drive import Driver, ManualClock, run_app
    from vision import Reading

    path = app_dirs / "j.sqlite3"
    app = CompanionApp(clock=ManualClock(), journal_file=path)
    camera = TableCamera()
    app.cameras.feed = camera  # type: ignore[assignment]

    def script(d: Driver) -> Generator[int | None, None, None]:
        yield from begin(d, "dice-forge")
        s, scr = app.session, app.game_screen
        sure, doubt = _knows_forge_faces(app)
        three = Reading(tuple(_die(100.0 + 100 * i, None, 0.95, sure, "white")
                              for i in range(3)), (480, 640))
        camera.snap = Snapshot(1, None, three, False)
        scr.use_camera()  # three dice for a roll of two: turned down
        yield 2
        assert "3 dice" in scr.model.message and app.rolls.recorded is None
        yield from _written(path, 0)
        for n in (2, 3):  # the roll, read twice (the players tap Camera again)
            camera.snap = Snapshot(n, None, Reading(
                (_die(100.0, None, 0.95, sure, "white"),
                 _die(300.0, None, 0.35, doubt, "white")), (480, 640)), False)
            scr.use_camera()
            yield 2
        assert not s.game.history and scr.model.picked == {0: sure}
        yield from _written(path, 1)
        app.end_game()
        yield 2

        yield from begin(d, "occulites")
        scr = app.game_screen
        d.tap(scr.tribe_buttons["Palaudis"])  # Ana: green dice
        yield 1
        d.tap(scr.rows["Ben"].header)
        yield 1
        d.tap(scr.tribe_buttons["Hydris"])  # Ben: blue dice
        yield 2
        camera.snap = Snapshot(4, None, Reading((), (480, 640)), False)
        d.tap(scr.read_button)  # the tray is empty
        yield 2
        ana = [_die_at(60.0 + 90 * i, 80.0, 1 + i, "green") for i in range(6)]
        ben = [_die_at(60.0 + 90 * i + 7, 230.0 + 5 * i, 6 - i, "blue") for i in range(6)]
        camera.snap = Snapshot(5, None, Reading(tuple(ana[:3]), (480, 640)), False)
        d.tap(scr.read_button)  # dice still being lined up
        yield 2
        yield from _written(path, 1)
        whole = Reading(tuple(ana + ben), (480, 640))
        camera.snap = Snapshot(6, None, whole, False)
        d.tap(scr.read_button)
        yield 2
        assert app.rolls.recorded is not None and app.rolls.recorded[0] is whole
        yield from _written(path, 2)
        camera.snap = Snapshot(7, None, Reading(tuple(ana + ben), (480, 640)), False)
        d.tap(scr.read_button)  # read again: the same round's roll
        yield 2
        yield from _written(path, 2)

    run_app(app, script, timeout=180)
    assert len(_rolls(path)) == 2
