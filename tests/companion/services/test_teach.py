"""Teaching the dice by touch, as plain Python: the teaching screen's model (what a tap on the
picture means, the keypad, dice laid out 1 to 6, when a picture may be kept) and the table's
teacher (lessons kept, learned, fitted again for new models, forgotten; a damaged profile said
and left as it is)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from companion.teach import Mode, Source, Teacher, TeachModel, draw_marks
from vision import Die, Profile, Reading


def _die(x: float, y: float, value: int | None, size: float = 40.0) -> Die:
    h = size / 2
    return Die(center=(x, y), corners=((x - h, y - h), (x + h, y - h), (x + h, y + h),
                                       (x - h, y + h)), angle=0.0, size=size, value=value,
               face=None if value is None else str(value), colour="white",
               confidence=0.9 if value else 0.1)


FRAME = np.full((480, 640, 3), 200, np.uint8)


def _reading(dice: tuple[Die, ...]) -> Reading:
    return Reading(dice=dice, frame_shape=(480, 640))


def test_a_tap_on_a_die_chooses_it_and_the_keypad_sets_its_face() -> None:
    m = TeachModel()
    m.take(FRAME, _reading((_die(100, 100, 3), _die(300, 200, None), _die(500, 300, None))))
    assert m.problem() is not None and "2 dice have no face yet" in m.problem()  # type: ignore
    assert m.selected == 1  # the first die with no face is asked for at once
    m.set_value(5)
    assert m.marks[1].value == 5 and m.marks[1].source is Source.SET
    assert m.selected == 2  # and then the next: one tap a die
    m.set_value(2)
    assert m.selected is None and m.problem() is None
    m.tap(95, 105)  # a die read right, but wrong: a tap chooses it
    assert m.selected == 0
    m.set_value(4)
    assert sorted(v for v, _c, _s in m.lesson()) == [2, 4, 5]


def test_a_tap_beside_every_die_adds_one_there_and_no_die_takes_it_away() -> None:
    m = TeachModel()
    m.take(FRAME, _reading((_die(100, 100, 3),)))
    m.tap(400, 300)
    assert len(m.marks) == 2 and m.marks[1].source is Source.ADDED
    assert m.marks[1].size == 40.0 and m.selected == 1  # the size of the dice seen
    assert m.problem() is not None  # the added die has no face yet
    m.not_a_die()
    assert len(m.marks) == 1 and m.problem() is None


def test_something_the_camera_took_for_a_die_is_marked_no_die() -> None:
    m = TeachModel()
    m.take(FRAME, _reading((_die(100, 100, 3), _die(300, 100, 2))))
    m.tap(300, 100)
    m.not_a_die()
    assert m.marks[1].source is Source.NOT_A_DIE and not m.marks[1].is_die
    assert [v for v, _c, _s in m.lesson()] == [3]  # the thing that is no die is not a die


def test_dice_laid_out_show_one_to_six_left_to_right() -> None:
    m = TeachModel()
    dice = tuple(_die(60 + 100 * k, 240, v) for k, v in enumerate([1, 2, 5, 4, None, 6]))
    m.take(FRAME, _reading(tuple(reversed(dice))), Mode.LAYOUT)
    assert [mk.value for mk in m.marks] == [1, 2, 3, 4, 5, 6]
    assert [mk.source for mk in m.marks] == [Source.READ, Source.READ, Source.SET, Source.READ,
                                             Source.SET, Source.READ]


def test_a_picture_with_no_die_cannot_be_kept_and_kept_ones_are_counted() -> None:
    m = TeachModel()
    with pytest.raises(ValueError, match="Take a picture first"):
        m.lesson()
    m.take(FRAME, _reading(()))
    assert "No dice in this picture" in (m.problem() or "")
    m.tap(320, 240)
    m.set_value(4)
    assert m.lesson() == [(4, (320.0, 240.0), 40.0)]
    m.kept()
    assert (m.lessons, m.dice, m.taken) == (1, 1, None)
    with pytest.raises(ValueError, match=r"1\.\.6"):
        m.set_value(7)


def test_the_picture_rings_each_die_and_marks_the_chosen_one() -> None:
    m = TeachModel()
    m.take(FRAME, _reading((_die(100, 100, 3), _die(300, 200, 2))))
    m.tap(300, 200)
    rgb = draw_marks(FRAME, m.marks, m.selected)
    assert rgb.shape == FRAME.shape and not np.array_equal(rgb, FRAME)
    # the chosen die's ring is yellow (RGB), the other's green
    ring = rgb[200, 300 - round(40 * 0.62)]
    assert ring[0] > 200 and ring[1] > 200 and ring[2] < 100
    assert (FRAME == 200).all()  # the frame itself is untouched


# -- the table's teacher ------------------------------------------------------------------------


def _teacher(tmp_path: Path) -> tuple[Teacher, list[Profile]]:
    from calibration.profiles import ProfileStore

    applied: list[Profile] = []
    return Teacher(ProfileStore(tmp_path / "cfg"), "den", applied.append), applied


def _roll(values: list[int], seed: int = 0) -> tuple[
        np.ndarray, list[tuple[int, tuple[float, float], float]]]:
    from vision.synthetic import Scene, SynthDie, render

    dice = tuple(SynthDie(center=(80.0 + 95.0 * k, 220.0), size=56.0, angle=9.0 * k + seed,
                          value=v, colour="white") for k, v in enumerate(values))
    scene = Scene(width=640, height=480, dice=dice)
    return render(scene), [(int(t.value or 0), t.center, t.size) for t in scene.truth()]


def test_the_teacher_keeps_lessons_learns_and_forgets(tmp_path: Path) -> None:
    teacher, applied = _teacher(tmp_path)
    try:
        for k, values in enumerate(([1, 2, 3, 4, 5, 6], [6, 5, 4, 3, 2, 1])):
            frame, dice = _roll(values, seed=k)
            assert teacher.add_view(frame, dice).result(timeout=120).words == "Kept: 6 dice."
        assert teacher.holds() == 12 and applied == []  # kept, not yet learned
        learned = teacher.learn().result(timeout=120)
        assert learned.words.startswith("Learned 12 dice.") and learned.dice == 12
        assert len(applied) == 1 and applied[0].head is not None
        saved = teacher.store.load("den")
        assert saved.dice.views == 2 and saved.profile.head == applied[0].head
        forgot = teacher.forget().result(timeout=60)
        assert forgot.words.startswith("Forgot 12 dice") and applied[-1].head is None
        assert teacher.store.load("den").dice.examples == ()
    finally:
        teacher.close()
    done = teacher.learn().result(timeout=5)  # closed: refused in words
    assert done.failed and "closing" in done.words


def test_a_head_fitted_for_other_models_is_fitted_again_and_used(tmp_path: Path) -> None:
    from dataclasses import replace

    from vision.profile import TableHead

    teacher, applied = _teacher(tmp_path)
    try:
        frame, dice = _roll([1, 2, 3, 4, 5, 6])
        teacher.add_view(frame, dice).result(timeout=120)
        teacher.learn().result(timeout=120)
        cp = teacher.store.load("den")
        old = TableHead.build("0123456789abcdef", 0.45, None, None, 6)  # a release ago
        teacher.store.save(replace(cp, profile=replace(cp.profile, head=old)))
        said = teacher.refresh().result(timeout=120)
        assert "fitted again" in said.words
        assert applied[-1].head is not None and applied[-1].head.model != old.model
        assert teacher.store.load("den").profile.head == applied[-1].head
        # fitted for these models now: nothing more to do
        assert "read as taught" in teacher.refresh().result(timeout=60).words
    finally:
        teacher.close()


def test_a_damaged_profile_is_said_and_left_as_it_is(tmp_path: Path) -> None:
    teacher, applied = _teacher(tmp_path)
    path = teacher.store.profile_path("den")
    path.parent.mkdir(parents=True)
    path.write_text('{"format": "table-companion-profile", "version": 4', encoding="utf-8")
    try:
        frame, dice = _roll([2])
        said = teacher.add_view(frame, dice).result(timeout=120)
        assert said.failed and "den.json" in said.words and "not valid JSON" in said.words
        assert teacher.holds() == 0 and applied == []
        assert path.read_text(encoding="utf-8").endswith('"version": 4')  # never replaced
    finally:
        teacher.close()
