"""A folder of photos as the camera behaves like a table: COMPANION_CAMERA=replay:FOLDER holds
each photo as a settled throw, so its rolls reach the game; when the folder has been shown the
game and the dice view say so (and the log), instead of "camera error: EndOfStream" and a
silent wait."""

from __future__ import annotations

import os
from collections.abc import Generator
from pathlib import Path

import pytest

pytestmark = pytest.mark.app


def _photos(folder: Path, throws: list[tuple[int, ...]]) -> Path:
    import cv2

    from vision.synthetic import Scene, SynthDie, render

    folder.mkdir(parents=True)
    for i, values in enumerate(throws):
        dice = tuple(SynthDie(center=(200.0 + 140 * k, 240.0), size=70.0, angle=12.0 * k,
                              value=v, colour="white") for k, v in enumerate(values))
        cv2.imwrite(str(folder / f"throw-{i:02d}.png"),
                    render(Scene(width=640, height=480, dice=dice)))
    return folder


def test_each_photo_is_a_roll_of_the_game_and_the_end_of_the_folder_is_said(
        app_dirs: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    import logging

    from companion.compose import CompanionApp
    from companion.drive import Driver, ManualClock, run_app

    shots = Path(os.environ.get("PHOTO_SHOTS", str(app_dirs / "shots")))
    folder = _photos(app_dirs / "photos", [(5,), (2,)])
    (app_dirs / "config").mkdir(parents=True, exist_ok=True)
    # realtime = false: the replay's own clock (20 frames a photo-second), however loaded
    (app_dirs / "config" / "config.toml").write_text(
        "[camera]\nfps = 20\nrealtime = false\n", encoding="utf-8")
    monkeypatch.setenv("COMPANION_CAMERA", f"replay:{folder}?hold=0.5")
    caplog.set_level(logging.WARNING)
    app = CompanionApp(clock=ManualClock(), journal_file=app_dirs / "j.sqlite3")
    assert app.camera is not None and app.camera.rolls_count
    seen: dict[str, object] = {}

    def script(d: Driver) -> Generator[int | None, None, None]:
        start = app.screens["start"]
        start.choose_game("dice-ocalypse")
        yield 2
        start._seat_names(["Ana", "Ben"])
        d.tap(start.start_button)
        yield 2
        s = app.session
        assert s is not None and app.game_screen is not None and app.game_screen.camera_on
        for _ in range(6000):  # each photo, one roll of the roll for first turn
            if len(s.game.history) >= 2 and app.camera.ended:
                break
            yield 1
        assert [e.call for e in s.game.history] == ["Ana: Roll 5", "Ben: Roll 2"]
        assert app.camera.ended is not None
        for _ in range(50):
            if "has ended" in s.message:
                break
            yield 1
        seen["message"] = s.message
        d.screenshot(shots / "photo-table-ended-game.png")
        app.show("dice")
        dice = app.screens["dice"]
        for _ in range(300):
            if dice.status.text == "replay ended":
                break
            yield 1
        yield 2
        seen["status"], seen["notice"] = dice.status.text, dice.notice.text
        seen["notice_h"] = dice.notice.height
        d.screenshot(shots / "photo-table-ended-dice.png")

    run_app(app, script, timeout=240)
    assert "has ended" in str(seen["message"]) and "no more rolls" in str(seen["message"])
    assert "EndOfStream" not in str(seen["status"]) and seen["status"] == "replay ended"
    assert "has ended" in str(seen["notice"]) and float(seen["notice_h"]) > 20  # type: ignore
    assert any("has ended" in r.getMessage() for r in caplog.records)
