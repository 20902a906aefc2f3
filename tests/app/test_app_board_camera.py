"""The camera fills the players' boards: dice in a board zone become Allocate calls."""

from __future__ import annotations

import os
import time
from collections.abc import Generator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from companion import paths

pytestmark = pytest.mark.app


@dataclass
class FakeFrame:
    image: np.ndarray
    t: float
    index: int


class BoardsCamera:
    """A rendered table whose dice the test moves; virtual time, 0.1 s per frame."""

    name = "fake"  # a camera, not the stand-in

    def __init__(self) -> None:
        self.set_dice([])
        self.reads = 0

    def set_dice(self, centres: list[tuple[float, float]]) -> None:
        from vision.synthetic import Scene, SynthDie, render

        dice = tuple(SynthDie(center=c, size=56.0, angle=12.0, value=1 + i % 6, colour="white")
                     for i, c in enumerate(centres))
        self.image = render(Scene(width=640, height=480, dice=dice))

    def read(self) -> FakeFrame:
        self.reads += 1
        return FakeFrame(self.image, self.reads * 0.1, self.reads)

    def close(self) -> None:
        pass


def test_dice_on_a_board_zone_are_allocated_by_the_camera(
        app_dirs: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from calibration import profiles
    from calibration.zones import rectangle
    from companion import settings as settings_mod
    from companion.compose import CompanionApp
    from companion.demo.drive import Driver, ManualClock, run_app
    from companion.startcheck import BOARDS_CAMERA

    paths.profile_store().save(profiles.CalibrationProfile(name="den", zones=(
        rectangle(1, "Parry", 20, 20, 260, 200), rectangle(1, "Spear Thrust", 20, 260, 260, 200),
        rectangle(2, "Parry", 360, 20, 260, 200))))
    paths.profile_store().use("den")
    camera = BoardsCamera()
    app = CompanionApp(clock=ManualClock(), journal_file=app_dirs / "j.sqlite3",
                       settings=settings_mod.Settings(camera="opencv:0"),
                       settings_file=app_dirs / "settings.json", open_camera=lambda s: camera)
    assert [z.space for z in app.board_zones] == ["Parry", "Spear Thrust", "Parry"]

    def wait_until(check: Any, seconds: float = 30.0) -> Generator[int, None, None]:
        end = time.monotonic() + seconds
        while not check():
            assert time.monotonic() < end, "the camera never made the call"
            yield 2

    # BOARD_SHOTS=docs/screenshots writes the README's pictures of this flow.
    shots = Path(os.environ.get("BOARD_SHOTS", str(app_dirs / "shots")))

    def script(d: Driver) -> Generator[int | None, None, None]:
        start = app.screens["start"]
        start.choose_game("eye-for-an-eye")
        yield 2
        start.set_count(2)
        assert not start.boards_spin.disabled
        start.boards_spin.text = BOARDS_CAMERA
        zones, app.cameras.zones = app.board_zones, ()
        d.tap(start.start_button)  # without zones the camera cannot fill the boards
        yield 1
        assert app.session is None  # said in players' words, naming the choice to make
        assert start.message.text.startswith("The camera cannot read the boards yet")
        assert 'Boards: "kept by the players"' in start.message.text
        ok = next(b for b in start.problem_view.walk() if getattr(b, "text", "") == "OK")
        d.tap(ok)  # the problem is said in a dialog as well: the players read it, then OK
        yield 1
        app.cameras.zones = zones
        d.tap(start.start_button)
        yield 2
        s = app.session
        assert s is not None and app.sm.current == "arena", start.message.text
        assert s.game.options.track_allocation and app.table.board is not None
        ana = s.game.seats()[0].character.short
        # Two dice on seat 1's Parry, one on seat 2's Parry.
        camera.set_dice([(90.0, 80.0), (200.0, 150.0), (480.0, 110.0)])
        yield from wait_until(lambda: len(s.log) >= 2)
        assert s.game.seats()[0].allocation == {"defence": 2}
        assert s.game.seats()[1].allocation == {"defence": 1}
        assert [e.call for e in app.journal.load(s.game_id).entries] == [
            f"{ana}: Allocate 2 to Parry", f"{s.game.seats()[1].character.short}: "
            "Allocate 1 to Parry"]
        yield 2
        badges = d.arena.panels["Ana"].badges  # dice on each board space, on its button
        assert badges["defence"].text == "2" and badges["defence"].opacity == 1
        assert badges["attack"].opacity == 0
        d.screenshot(shots / "11-arena-boards-by-camera.png")
        # One die moved from Parry to Spear Thrust.
        camera.set_dice([(90.0, 80.0), (150.0, 360.0), (480.0, 110.0)])
        yield from wait_until(lambda: len(s.log) >= 4)
        assert s.game.seats()[0].allocation == {"defence": 1, "attack": 1}
        yield 1
        assert (badges["defence"].text, badges["attack"].text) == ("1", "1")
        # Undo takes the camera's call back like any call.
        app.undo()
        yield 1
        assert s.game.seats()[0].allocation == {"defence": 1}
        app.show("dice")
        yield 10
        snap = app.camera.latest()
        assert snap is not None
        # The zones are outlined in the seats' colours on the live picture.
        assert tuple(snap.rgb[20, 150]) != tuple(camera.image[20, 150, ::-1])
        d.screenshot(shots / "12-live-dice-board-zones.png")
        app.show("settings")
        yield 1
        assert app.screens["settings"].profile.values == ["default", "none", "den"]
        app.end_game()
        yield 1
        assert app.table is None and not app.camera.wanted  # the camera stops with the game

    run_app(app, script)
