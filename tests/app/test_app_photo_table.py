"""A folder of photos as the camera (``--camera replay:FOLDER``) is a table that waits for the
game (issue 44, item 2), in the real app by touch, Dice-ocalypse, six players, huge text:

- the next photo comes when the game asks for a roll (the next roller, the next turn), or on
  the live dice view's Next photo, or the N key; never by time (it moved on every 3 s: five
  photos went by in 15 s of the roll-off);
- a photo with more dice than the roll says so, and each die seen can be set aside by a tap
  (it said "remove them here" with no way to, and Enter roll stayed off);
- a number typed by hand is never overwritten by the next photo;
- when the folder has been shown, the game and the dice view say so (and the log).
"""

from __future__ import annotations

import os
from collections.abc import Generator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from conftest import LONG_NAMES

pytestmark = pytest.mark.app

#: The photos, in order: Ana's roll-off with two dice too many, the others' roll-off, Ana's
#: first roll with a die the camera misses, the photo the players skip to, Ana's three dice.
THROWS = [(4, 6, 2), (1,), (2,), (3,), (4,), (5,), (1, 5, 5, 3, 2), (6, 6, 6, 6, 6, 6),
          (2, 3, 4)]


def _photos(folder: Path, throws: list[tuple[int, ...]]) -> Path:
    import cv2

    from vision.synthetic import Scene, SynthDie, render

    folder.mkdir(parents=True)
    for i, values in enumerate(throws):
        dice = tuple(SynthDie(center=(110.0 + 140 * (k % 4), 150.0 + 180 * (k // 4)),
                              size=70.0, angle=12.0 * k, value=v, colour="white")
                     for k, v in enumerate(values))
        cv2.imwrite(str(folder / f"throw-{i:02d}.png"),
                    render(Scene(width=640, height=480, dice=dice)))
    return folder


def test_the_photo_table_waits_for_the_game_and_its_dice_are_the_players_to_fix(
        app_dirs: Path, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    import logging

    from kivy.core.window import Window

    from companion.compose import CompanionApp
    from companion.demo.drive import Driver, ManualClock, layout_problems, run_app

    shots = Path(os.environ.get("PHOTO_SHOTS", str(app_dirs / "shots")))
    folder = _photos(app_dirs / "photos", THROWS)
    (app_dirs / "config").mkdir(parents=True, exist_ok=True)
    # realtime = false: the replay's own clock, however loaded the machine
    (app_dirs / "config" / "config.toml").write_text(
        "[camera]\nfps = 20\nrealtime = false\n", encoding="utf-8")
    monkeypatch.setenv("COMPANION_CAMERA", f"replay:{folder}")
    caplog.set_level(logging.WARNING)
    app = CompanionApp(clock=ManualClock(), journal_file=app_dirs / "j.sqlite3")
    camera = app.camera
    assert camera is not None and camera.rolls_count and camera.photo_table
    players = LONG_NAMES[:6]
    seen: dict[str, Any] = {"problems": []}

    def shown() -> list[int | None]:
        snap = camera.latest()
        return [] if snap is None else sorted(d.value or 0 for d in snap.reading.dice)

    def wait(until: Any, frames: int = 3000) -> Generator[int, None, None]:
        for _ in range(frames):
            if until():
                return
            yield 1
        raise AssertionError("the photo table did not get there")

    def time_goes_by(n: int = 80) -> Generator[int, None, None]:
        start = camera.taken
        yield from wait(lambda: camera.taken >= start + n)

    def script(d: Driver) -> Generator[int | None, None, None]:
        app.apply_settings(replace(app.settings, text_size="huge"))
        yield 2
        start = app.screens["start"]
        start.choose_game("dice-ocalypse")
        yield 2
        start._seat_names(list(players))
        d.tap(start.start_button)
        yield 2
        s = app.session
        screen = app.game_screen
        assert s is not None and screen is not None and screen.camera_on
        calls = lambda: [e.call for e in s.game.history]  # noqa: E731
        # 1. Ana's roll-off photo shows three dice: said, and two set aside by touch
        yield from wait(lambda: screen.model.entry is not None
                        and len(screen.model.entry.values) == 3)
        yield 2
        seen["surplus"] = (screen.hint.text, [b.text for b in screen.dice],
                           screen.primary.disabled)
        seen["problems"] += layout_problems(screen, (800, 480))
        d.screenshot(shots / "photo-table-6-huge-dice-to-set-aside.png")
        yield from time_goes_by()  # time alone shows no other photo
        seen["still the first"] = (shown(), calls())
        for value in ("4", "2"):
            d.tap(next(b for b in screen.dice if b.text == value))
            yield 2
        seen["set aside"] = ([b.text for b in screen.dice], screen.primary.disabled)
        d.tap(screen.primary)  # Enter roll
        yield 2
        # 2. the others' roll-off: one photo each, as the game asks
        yield from wait(lambda: len(s.game.history) >= 6)
        seen["roll-off"] = calls()
        # 3. Ana's first roll: five dice seen, the sixth typed by hand
        yield from wait(lambda: screen.model.entry is not None
                        and len(screen.model.entry.values) == 5)
        yield 2
        d.tap(screen.number_buttons[3])  # a 4
        yield 2
        d.screenshot(shots / "photo-table-6-huge-typed.png")
        # the players ask for the next photo on the live dice view
        app.show("dice")
        yield 2
        dice_view = app.screens["dice"]
        seen["next photo button"] = (dice_view.next_photo.opacity, dice_view.next_photo.width)
        seen["problems"] += layout_problems(dice_view, (800, 480))
        d.tap(dice_view.next_photo)
        yield from wait(lambda: shown() == [6] * 6)
        yield from wait(lambda: dice_view.frames == camera.latest().index)
        d.screenshot(shots / "photo-table-6-huge-dice-view.png")
        app.back()
        yield 3
        seen["typed kept"] = ([b.text for b in screen.dice], screen.hint.text)
        d.screenshot(shots / "photo-table-6-huge-typed-kept.png")
        d.tap(screen.primary)  # Enter roll: the dice entered, the typed 4 among them
        yield 2
        seen["first roll"] = calls()[-1]
        # 4. choosing what to keep: no roll is asked for, no photo comes
        yield from time_goes_by()
        seen["keeping"] = (shown(), len(s.game.history))
        # the N key shows the next photo; with no roll asked, it is not given
        Window.dispatch("on_key_down", ord("n"), 0, "n", [])
        yield from wait(lambda: shown() == [2, 3, 4])
        yield from time_goes_by(20)
        seen["after the key"] = len(s.game.history)
        d.tap(screen.secondary)  # Keep (the best keep), roll the rest: the photo is given
        yield from wait(lambda: len(s.game.history) >= seen["after the key"] + 2)
        seen["kept and rolled"] = calls()[-2:]
        # 5. the next roll is asked for: the folder has ended, and that is said
        yield from wait(lambda: camera.ended is not None and "has ended" in s.message)
        seen["message"] = s.message
        d.screenshot(shots / "photo-table-ended-game.png")
        app.show("dice")
        dice = app.screens["dice"]
        yield from wait(lambda: dice.status.text == "replay ended", 300)
        yield 2
        seen["status"], seen["notice"] = dice.status.text, dice.notice.text
        d.screenshot(shots / "photo-table-ended-dice.png")

    run_app(app, script, timeout=300)
    hint, dice_texts, enter_off = seen["surplus"]
    assert "3 dice in the tray" in hint and "tap the 2 dice not rolled to set them aside" in hint
    assert sorted(dice_texts[:3]) == ["2", "4", "6"] and enter_off
    assert seen["still the first"] == ([2, 4, 6], [])
    assert seen["set aside"] == (["6", "", "", "", "", ""], False)
    assert seen["roll-off"] == [f"{p}: Roll {v}" for p, v in zip(players, (6, 1, 2, 3, 4, 5),
                                                                   strict=True)]
    assert seen["next photo button"][0] == 1 and seen["next photo button"][1] >= 48
    texts, said = seen["typed kept"]
    assert texts == ["1", "5", "5", "3", "2", "4"]  # the typed 4 is still there
    assert "the numbers typed by hand stay" in said
    assert seen["first roll"] == f"{players[0]}: Roll 1 5 5 3 2 4"
    assert seen["keeping"] == ([6] * 6, 7)  # nothing taken while a keep is chosen
    assert seen["after the key"] == 7  # the key's photo waited for the roll to be asked
    assert seen["kept and rolled"][1] == f"{players[0]}: Roll 2 3 4"
    assert seen["problems"] == [], "\n".join(seen["problems"])
    assert "has ended" in str(seen["message"]) and "no more rolls" in str(seen["message"])
    assert seen["status"] == "replay ended" and "has ended" in str(seen["notice"])
    assert any("has ended" in r.getMessage() for r in caplog.records)
