"""Teaching the table its own dice, by touch, in the real app: from the live dice view to the
teaching screen; a roll taken, a die's face set by a tap, a die the camera missed added by a
tap, something that is not a die marked so, the picture kept; six dice laid out 1 to 6 taken as
they lie; Learn fits the reader (the profile file holds the examples and the head, and the
camera reads with it); Forget, asked first, takes it all back. Screenshots of each step."""

from __future__ import annotations

import json
import os
from collections.abc import Generator
from pathlib import Path
from typing import Any

import pytest
from teach_table import COIN, FAINT, ROLL, Camera, at, photos, wait

pytestmark = pytest.mark.app


def test_a_table_is_taught_by_touch_and_forgets_it(app_dirs: Path) -> None:
    from companion import settings as settings_mod
    from companion.compose import CompanionApp
    from companion.demo.drive import Driver, ManualClock, layout_problems, run_app
    from companion.teach import Source

    # TEACH_SHOTS=docs/screenshots writes the docs' pictures of teaching
    shots = Path(os.environ.get("TEACH_SHOTS", str(app_dirs / "shots")))
    roll, laid_out = photos()
    camera = Camera(roll)
    app = CompanionApp(clock=ManualClock(), journal_file=app_dirs / "j.sqlite3",
                       settings=settings_mod.Settings(camera="opencv:0"),
                       settings_file=app_dirs / "settings.json", open_camera=lambda s: camera)
    profile = app_dirs / "config" / "profiles" / "default.json"
    seen: dict[str, Any] = {}

    def script(d: Driver) -> Generator[int | None, None, None]:
        app.show("dice")
        yield 2
        d.tap(app.screens["dice"].teach_button)
        yield 2
        teach = app.screens["teach"]
        assert app.sm.current == "teach"
        yield from wait(lambda: teach.shown is not None and teach.shown.plain is not None
                        and len(teach.shown.reading.dice) >= 3, "the roll in the picture")
        d.screenshot(shots / "teach-1-live.png")
        seen["problems_live"] = layout_problems(app.sm.current_screen, (800, 480))
        d.tap(teach.take_button)
        yield 2
        model = teach.model
        assert model.taken is not None and model.mode.value == "roll"
        seen["read"] = sorted(m.value for m in model.marks if m.value is not None)
        shape = model.taken.shape
        # every die of the roll: tap it and give its face (the camera's own, or corrected)
        for value, (x, y) in ROLL:
            d.tap_at(*at(teach.picture, shape, x, y))
            yield 2
            assert model.selected is not None
            if value == ROLL[1][0]:
                d.screenshot(shots / "teach-2-choose-face.png")
                seen["problems_keypad"] = layout_problems(app.sm.current_screen, (800, 480))
            d.tap(teach.faces[value - 1])
            yield 1
        # the die the camera missed, added by a tap, and its face
        d.tap_at(*at(teach.picture, shape, *FAINT[1]))
        yield 2
        assert model.marks[model.selected].source is Source.ADDED
        d.tap(teach.faces[FAINT[0] - 1])
        yield 1
        # a tap on the bare table adds a die there; No die takes it away again
        count = len(model.marks)
        d.tap_at(*at(teach.picture, shape, 600.0, 60.0))
        yield 2
        assert len(model.marks) == count + 1 and model.marks[-1].source is Source.ADDED
        d.tap(teach.no_die)
        yield 1
        seen["added_and_taken_away"] = len(model.marks) == count
        # the coin, if the camera took it for a die, is no die
        for i, m in enumerate(model.marks):
            if abs(m.center[0] - COIN[0]) < 30 and abs(m.center[1] - COIN[1]) < 30:
                d.tap_at(*at(teach.picture, shape, *m.center))
                yield 2
                assert model.selected == i
                d.tap(teach.no_die)
                yield 1
        d.screenshot(shots / "teach-3-corrected.png")
        seen["lesson"] = sorted(v for v, _c, _s in model.lesson())
        d.tap(teach.layout_button)  # "Right"
        yield from wait(lambda: teach.busy is None and "Kept" in teach.status.text,
                        "the first picture kept")
        # the second picture: six dice laid out 1 to 6
        camera.image = laid_out
        yield from wait(lambda: teach.shown is not None
                        and len(teach.shown.reading.dice) == 6, "the dice laid out")
        d.tap(teach.layout_button)  # "Take 1-6"
        yield 2
        seen["laid_out"] = [m.value for m in sorted(model.marks, key=lambda m: m.center[0])]
        d.tap(teach.layout_button)  # "Right"
        yield from wait(lambda: teach.busy is None and model.lessons == 2, "the layout kept")
        yield from wait(lambda: "Kept" in teach.status.text, "the layout's examples")
        d.tap(teach.learn_button)
        yield 1
        seen["learning"] = teach.status.text
        yield from wait(lambda: teach.busy is None and "Learned" in teach.status.text,
                        "the lesson learned", seconds=300.0)
        d.screenshot(shots / "teach-4-learned.png")
        seen["learned"] = teach.status.text
        seen["file"] = json.loads(profile.read_text(encoding="utf-8"))
        seen["camera_head"] = app.camera.profile.head if app.camera.profile else None
        d.tap(teach.forget_button)
        yield 2
        d.screenshot(shots / "teach-5-forget.png")
        dialog = app.sm.current_screen.get_root_window().children[0]
        forget = next(b for b in dialog.walk() if getattr(b, "text", "") == "Forget")
        d.tap(forget)
        yield from wait(lambda: teach.busy is None and "Forgot" in teach.status.text,
                        "forgetting")
        seen["forgot"] = json.loads(profile.read_text(encoding="utf-8"))
        seen["camera_after"] = app.camera.profile.head if app.camera.profile else None
        d.tap(app.screens["teach"].children[0].children[-1].children[0])  # Back
        yield 2
        seen["back_to"] = app.sm.current

    run_app(app, script, timeout=600)
    assert seen["problems_live"] == [] and seen["problems_keypad"] == []
    assert seen["lesson"] == sorted([*(v for v, _c in ROLL), FAINT[0]])
    assert seen["added_and_taken_away"]
    assert seen["laid_out"] == [1, 2, 3, 4, 5, 6]
    assert "Learning" in seen["learning"]
    taught = seen["file"]
    dice = [e for e in taught["dice"]["examples"] if e["label"] > 0]
    assert sorted(e["label"] for e in dice) == sorted([2, 5, 6, 3, 1, 2, 3, 4, 5, 6])
    assert {e["origin"] for e in dice} == {"tap"} and taught["dice"]["views"] == 2
    assert taught["profile"]["head"] is not None and seen["camera_head"] is not None
    assert "Learned 10 dice" in seen["learned"]
    assert seen["forgot"]["dice"]["examples"] == [] and seen["forgot"]["profile"]["head"] is None
    assert seen["camera_after"] is None and seen["back_to"] == "dice"
