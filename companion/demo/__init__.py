"""`companion demo`: a scripted 3-player round played through the real app, offscreen.

The clock is a :class:`~companion.demo.drive.ManualClock` moved on by the script, so a three-minute
round takes a few seconds. Every call is made by touching the screen's widgets, as a player
would. Screenshots of each screen, the final standings and the game file go into the output
folder.
"""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Generator
from pathlib import Path
from typing import Any

PLAYERS = ("Ana", "Ben", "Cy")
#: How long the demo waits for the live dice view's pictures before it gives up.
DICE_VIEW_GUARD_S = 120.0
GAME = "eye-for-an-eye"


def prepare_environment(offscreen: bool = True) -> None:
    """Kivy's environment for a run with no display, sound card or user files touched."""
    if offscreen:
        os.environ["SDL_VIDEODRIVER"] = "offscreen"
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
    os.environ.setdefault("KIVY_NO_FILELOG", "1")
    os.environ.setdefault("KIVY_HOME", tempfile.mkdtemp(prefix="companion-kivy-"))
    os.environ.setdefault("KIVY_CLIPBOARD", "dummy")
    os.environ.setdefault("KIVY_LOG_MODE", "MIXED")  # keep Python's stderr for our errors


def run_demo(output: Path, game: str = GAME, size: tuple[int, int] = (800, 480),
             rounds: int = 2) -> dict[str, Path]:
    """Play the scripted round; returns the files written, by name."""
    prepare_environment()
    scratch = Path(tempfile.mkdtemp(prefix="companion-demo-"))
    # the demo's own folders, whatever the user's are: it never reads or writes their files
    os.environ["COMPANION_DATA_DIR"] = str(scratch / "data")
    os.environ["COMPANION_CONFIG_DIR"] = str(scratch / "config")
    os.environ.pop("COMPANION_CONFIG", None)

    from companion.compose import CompanionApp
    from companion.demo.drive import Driver, ManualClock, run_app

    output.mkdir(parents=True, exist_ok=True)
    clock = ManualClock()
    # the stand-in camera, chosen: the demo's rolls are rendered dice, and it says so
    app = CompanionApp(clock=clock, journal_file=scratch / "journal.sqlite3",
                       camera_flag="synthetic")
    written: dict[str, Path] = {}

    def advance(seconds: float) -> None:
        """Move the round clock on, then let the app tick as it does 10 times a second."""
        clock.advance(seconds)
        app._tick(0.0)

    def shot(d: Driver, name: str) -> None:
        written[name] = d.screenshot(output / f"{name}.png")

    def seat(player: str) -> Any:
        assert app.session is not None
        return next(s for s in app.session.game.seats() if s.player == player)

    def script(d: Driver) -> Generator[int | None, None, None]:
        start = app.screens["start"]
        start.choose_game(game)
        yield 2
        start.rounds_spin.text = str(rounds)
        start.timer_spin.text = "3:00"
        yield 2
        shot(d, "01-start")
        d.tap(start.start_button)
        yield 3
        arena = app.screens["arena"]
        shot(d, "02-arena-ready")
        d.tap(arena.go)  # Yarra Mark!
        yield 2
        advance(4.2)
        yield from d.call("Ana", "attack", 3, "Ben")
        advance(1.1)
        yield 3
        shot(d, "03-arena-parry-window")
        yield from d.call("Ben", "defence", 2)
        advance(2.0)
        yield from d.call("Cy", "movement", 2)
        advance(1.5)
        d.action("Cy", "attack")
        yield 1
        d.count(2)
        yield 3
        shot(d, "03b-arena-choose-target")
        d.target("Ana")
        yield 1
        advance(3.5)  # Ana does not parry: the window closes and the hits land
        yield 3
        yield from d.call("Ana", "heal")
        d.tap(arena.undo_b)
        yield 2
        d.tap(arena.redo_b)
        yield 2
        d.tap(arena.go)  # pause for a dispute
        yield 2
        shot(d, "04-arena-paused")
        d.tap(arena.go)
        yield 2
        for _ in range(12):  # Ana hits Ben with unblockable hits until Ben is knocked out
            advance(2.0)
            if seat("Ben").knocked_out:
                break
            yield from d.call("Ana", "unblockable", 3, "Ben")
            yield 2
        yield 3
        shot(d, "05-arena-knockout")
        advance(200.0)  # the clock runs out: Yarra Bung!
        yield 4
        shot(d, "06-between-rounds")
        app.show("settings")
        yield 3
        shot(d, "07-settings")
        app.show("dice")
        yield 2
        dice = app.screens["dice"]
        started = time.monotonic()
        while dice.frames < 3:  # the camera opens in the view's worker thread
            # a guard against a hang, not a speed target: rendering and reading a frame takes
            # seconds on an emulated arm64 Pi under load, where 20 s was once too short
            if time.monotonic() - started > DICE_VIEW_GUARD_S:
                raise RuntimeError(f"the live dice view showed no picture in "
                                   f"{DICE_VIEW_GUARD_S:g} s: {dice.status.text}")
            yield 1
        feed = app.camera
        while time.monotonic() - started < DICE_VIEW_GUARD_S:  # dice at rest, read, on screen
            snap = feed.latest() if feed is not None else None
            if snap is not None and len(snap.reading.dice) >= 2 and not snap.moving \
                    and dice.frames == snap.index:
                break
            yield 1
        shot(d, "08-live-dice")
        app.back()
        yield 2
        game_id = app.session.game_id if app.session is not None else None
        app.end_game()  # leave the match: the start screen offers it for resume
        yield 3
        start.show_unfinished()
        yield 2
        shot(d, "09-start-resume-offer")
        if start.unfinished_view is not None:
            start.unfinished_view.dismiss(animation=False)
        session_box["id"] = game_id

    session_box: dict[str, Any] = {}
    # a guard against a hang, not a speed target: an emulated arm64 Pi runs ~12x slower
    run_app(app, script, size=size, timeout=1800)
    if session_box.get("id") is None:
        raise RuntimeError("the demo did not start a game")
    from companion.journal import Journal

    with Journal(scratch / "journal.sqlite3") as journal:
        session_game = journal.resume(session_box["id"])
        exported = journal.export(session_box["id"])
    standings = output / "standings.txt"
    lines = [session_game.standings().format(), ""]
    from companion.games.eye_for_an_eye.model import result_row
    from rules.eye_for_an_eye import EyeForAnEye

    results = session_game.round_results() if isinstance(session_game, EyeForAnEye) else []
    for result in results:
        ended = result.ended_by
        lines.append(f"Round {result.number}" + (f" (ended by {ended})" if ended else ""))
        table = [("side", "cup", "bonus", "score", "rank", "points"),
                 *(tuple(str(v) for v in result_row(r)) for r in result.rows)]
        widths = [max(len(row[i]) for row in table) for i in range(6)]
        for row in table:
            cells = (c.ljust(w) for c, w in zip(row, widths, strict=True))
            lines.append(("  " + "  ".join(cells)).rstrip())
    standings.write_text("\n".join(lines) + "\n", encoding="utf-8")
    written["standings"] = standings
    game_file = output / "game.txt"
    game_file.write_text(exported, encoding="utf-8")
    written["game"] = game_file
    return written
