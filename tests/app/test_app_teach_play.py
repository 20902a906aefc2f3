"""In play, the dice the players confirm or correct teach the table: a roll the camera gave
the game (a folder of photos as the table), the players' answer for its die, and the table's
profile holds that die as an example of its own (and a reading the camera kept no picture of
teaches nothing)."""

from __future__ import annotations

import json
from collections.abc import Generator
from pathlib import Path
from typing import Any

import pytest
from teach_table import wait

pytestmark = pytest.mark.app


def test_dice_confirmed_in_play_become_the_table_s_examples(
        app_dirs: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import cv2

    from companion.compose import CompanionApp
    from companion.demo.drive import Driver, ManualClock, run_app
    from vision import Reading
    from vision.synthetic import Scene, SynthDie, render

    folder = app_dirs / "photos"
    folder.mkdir(parents=True)
    die = SynthDie(center=(320.0, 240.0), size=70.0, angle=12.0, value=5, colour="white")
    cv2.imwrite(str(folder / "throw.png"), render(Scene(width=640, height=480, dice=(die,))))
    (app_dirs / "config").mkdir(parents=True, exist_ok=True)
    (app_dirs / "config" / "config.toml").write_text(
        "[camera]\nfps = 20\nrealtime = false\n", encoding="utf-8")
    monkeypatch.setenv("COMPANION_CAMERA", f"replay:{folder}?hold=1000")
    app = CompanionApp(clock=ManualClock(), journal_file=app_dirs / "j.sqlite3")
    profile = app_dirs / "config" / "profiles" / "default.json"
    seen: dict[str, Any] = {}

    def examples() -> list[dict[str, Any]]:
        if not profile.exists():
            return []
        return list(json.loads(profile.read_text(encoding="utf-8"))["dice"]["examples"])

    def script(d: Driver) -> Generator[int | None, None, None]:
        start = app.screens["start"]
        start.choose_game("dice-ocalypse")
        yield 2
        start._seat_names(["Ana", "Ben"])
        d.tap(start.start_button)
        yield 2
        s = app.session
        assert s is not None
        yield from wait(lambda: len(s.game.history) >= 1, "the roll from the camera")
        roll = app.last_roll
        assert roll is not None and [x.value for x in roll.dice] == [5]
        seen["crops"] = app.camera.crops_of(roll)
        # the players confirm the camera's 5 (as the game's screen tells the app)
        app.correct_roll(roll, {0: "5"})
        yield from wait(lambda: len(examples()) == 1, "the die kept as an example")
        seen["examples"] = examples()
        # a picture the camera kept nothing of teaches nothing (and says no error)
        other = Reading(dice=roll.dice, frame_shape=roll.frame_shape)
        app.correct_roll(other, {0: "2"})
        teacher = app.teacher
        assert teacher is not None
        seen["then"] = teacher.forget().result(timeout=60).words
        seen["after"] = examples()

    run_app(app, script, timeout=300)
    crops = seen["crops"]
    assert crops is not None and len(crops) == 1 and crops[0].shape == (64, 64, 3)
    (example,) = seen["examples"]
    assert example["label"] == 5 and example["origin"] == "play" and example["heat"] == 1.0
    assert "Forgot 1 die:" in seen["then"] and seen["after"] == []
