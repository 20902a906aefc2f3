"""The teaching screen's model, as plain Python: what a tap on the picture means, the keypad,
dice laid out 1 to 6, and when a picture may be kept."""

from __future__ import annotations

import numpy as np
import pytest

from companion.teach import Mode, Source, TeachModel, draw_marks
from vision import Die, Reading


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
    m.take(FRAME, _reading((_die(100, 100, 3), _die(300, 200, None))))
    assert m.problem() is not None and "no face yet" in m.problem()  # type: ignore[operator]
    m.tap(305, 195)
    assert m.selected == 1
    m.set_value(5)
    assert m.marks[1].value == 5 and m.marks[1].source is Source.SET and m.selected is None
    assert m.problem() is None
    assert sorted(v for v, _c, _s in m.lesson()) == [3, 5]


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
