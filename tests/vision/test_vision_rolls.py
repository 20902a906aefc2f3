"""Only real rolls count: RollTracker against handling (issue 24, item 3).

Each handling case here was emitted as a roll by the tracker before rolls were told apart
from handling; each real roll must still be emitted exactly once. Readings are built by hand
(30 px dice, 20 frames a second) so that each case shows one thing.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from tracker_readings import HAND, SIZE, Spec, _die, _frame  # noqa: F401

from vision import Reading, RollTracker, read_dice
from vision.synthetic import Scene, SynthDie, render
from vision.tracker import Roll

FPS = 20.0


class Clip:
    """A sequence of readings at FPS, fed to a tracker as it grows."""

    def __init__(self, tracker: RollTracker) -> None:
        self.tr = tracker
        self.t = 0.0
        self.rolls: list[Roll] = []
        self.rests: list[Reading] = []

    def show(self, reading: Reading, frames: int = 1) -> None:
        for _ in range(frames):
            s = self.tr.update(reading, self.t)
            self.t += 1 / FPS
            if s.roll is not None:
                assert s.settled is s.roll.reading
                self.rolls.append(s.roll)
            if s.settled is not None:
                self.rests.append(s.settled)


REST = ((200.0, 200.0, 3), (300.0, 220.0, 5))  # two dice lying still


def _at_rest(expect: tuple[str, ...] | None = ("Ana",)) -> Clip:
    """Two dice lying still from the start (not a roll), then the given expectation."""
    clip = Clip(RollTracker(settle_s=0.3, emit_initial=False))
    clip.show(_frame(*REST), 12)
    assert clip.rolls == [] and len(clip.rests) == 1
    clip.tr.expect(expect)
    return clip


def _throw(clip: Clip, start: tuple[float, float], end: tuple[float, float], final: int,
           frames: int = 10, others: tuple[Spec, ...] = ()) -> None:
    """A die thrown in from ``start``: it slows down towards ``end``, tumbling (faces read
    now and then, uncertain in between), then lies still."""
    for i in range(frames):
        u = 1 - (1 - (i + 1) / frames) ** 2
        x = start[0] + (end[0] - start[0]) * u
        y = start[1] + (end[1] - start[1]) * u
        v = None if i % 3 == 1 else 1 + (i * 5 + final) % 6
        clip.show(_frame(*others, (x, y, v if i < frames - 2 else final)))
    clip.show(_frame(*others, (end[0], end[1], final)), 12)


# ---------------------------------------------------------------- handling: never a roll


def test_die_picked_up_and_put_down_is_not_a_roll() -> None:
    clip = _at_rest()
    clip.show(_frame(REST[1], hand=True), 6)  # a hand takes the first die
    clip.show(_frame(REST[1]), 3)  # the hand is gone, the die with it
    clip.show(_frame((420.0, 150.0, 6), REST[1]), 12)  # put down elsewhere, turned to a six
    assert clip.rolls == []
    assert clip.rests and clip.rests[-1].values() == (6, 5)  # still reported as settled


def test_die_picked_up_and_put_down_unseen_hand_is_not_a_roll() -> None:
    """The hand is not recognised (no warning): the die vanishes and appears still."""
    clip = _at_rest()
    clip.show(_frame(REST[1]), 5)
    clip.show(_frame((420.0, 150.0, 6), REST[1]), 12)
    assert clip.rolls == []
    _real_roll_still_counts(clip, ((420.0, 150.0, 6), REST[1]))


def _real_roll_still_counts(clip: Clip, on_the_table: tuple[Spec, ...]) -> None:
    """The positive half of a "not a roll" test: the same tracker, expecting the same
    roll, does emit exactly one when a die is then really thrown (so the empty list above
    is the tracker telling handling apart, not a tracker that never fires)."""
    assert clip.tr.expected is not None
    _throw(clip, (600.0, 420.0), (500.0, 330.0), final=4, others=on_the_table)
    assert len(clip.rolls) == 1 and [d.value for d in clip.rolls[0].dice] == [4]


def test_dice_pushed_aside_is_not_a_roll() -> None:
    clip = _at_rest()
    for i in range(15):  # pushed 150 px by a finger, faces unchanged
        clip.show(_frame((200.0 + 10 * i, 200.0, 3), (300.0 + 10 * i, 220.0, 5)))
    clip.show(_frame((350.0, 200.0, 3), (450.0, 220.0, 5)), 12)
    assert clip.rolls == []
    assert len(clip.rests) == 2


def test_dice_pushed_fast_and_read_uncertain_on_the_way_is_not_a_roll() -> None:
    clip = _at_rest()
    for i in range(6):  # a shove: 1.5 dice a frame, blurred (uncertain) half the time
        v: tuple[int | None, int | None] = (None, None) if i % 2 else (3, 5)
        clip.show(_frame((200.0 + 45 * i, 200.0, v[0]), (300.0 + 45 * i, 220.0, v[1])))
    clip.show(_frame((470.0, 200.0, 3), (570.0, 220.0, 5)), 12)
    assert clip.rolls == []


def test_dice_swept_into_a_cup_is_not_a_roll() -> None:
    clip = _at_rest()
    for i in range(8):  # the first die swept off the edge under a hand, one tips over
        clip.show(_frame((200.0 - 25 * i, 200.0, 3 if i < 4 else 2), REST[1], hand=i < 5))
    clip.show(_frame(REST[1]), 12)
    assert clip.rolls == []


def test_die_stacked_on_another_is_not_a_roll() -> None:
    clip = _at_rest()
    for i in range(6):  # carried over (seen, same face), then only the top die is seen
        clip.show(_frame((200.0 + 16 * i, 200.0 + 3 * i, 3), REST[1]))
    clip.show(_frame((298.0, 218.0, 3)), 12)
    assert clip.rolls == []


def test_camera_bumped_is_not_a_roll() -> None:
    clip = _at_rest()
    clip.show(_frame((240.0, 180.0, None), (340.0, 200.0, None)), 2)  # a blurred jolt
    clip.show(_frame((215.0, 190.0, 3), (315.0, 210.0, 5)), 12)  # the view has moved
    assert clip.rolls == []
    _real_roll_still_counts(clip, ((215.0, 190.0, 3), (315.0, 210.0, 5)))


def test_camera_shaking_one_die_is_not_a_roll() -> None:
    clip = Clip(RollTracker(settle_s=0.3, emit_initial=False))
    clip.show(_frame((200.0, 200.0, 4)), 12)
    clip.tr.expect(("Ana",))  # a roll is expected: the shake must still not be one
    for dx in (30, -25, 20, -10):
        clip.show(_frame((200.0 + dx, 200.0, None)))
    clip.show(_frame((205.0, 200.0, 4)), 12)
    assert clip.rolls == []
    _real_roll_still_counts(clip, ((205.0, 200.0, 4),))


def test_hand_moving_dice_about_is_not_a_roll() -> None:
    clip = _at_rest()
    for i in range(10):
        clip.show(_frame((200.0, 200.0 + 6 * i, 3), REST[1], hand=True))
    clip.show(_frame((200.0, 260.0, 3), REST[1]), 12)
    assert clip.rolls == []


# ---------------------------------------------------------------- rolls: exactly once


def test_a_thrown_die_is_a_roll_with_whom_it_was_expected_from() -> None:
    clip = _at_rest(("Ana", "Ben"))
    _throw(clip, (600.0, 420.0), (450.0, 300.0), final=4, others=REST)
    assert len(clip.rolls) == 1
    roll = clip.rolls[0]
    assert roll.rollers == ("Ana", "Ben")
    assert [d.value for d in roll.dice] == [4]  # only the thrown die was rolled
    assert sorted(roll.reading.values()) == [3, 4, 5]  # the others are in view


def test_a_roll_thrown_from_a_hand_in_view_counts() -> None:
    clip = _at_rest()
    clip.show(_frame(*REST, hand=True), 4)
    for i in range(3):  # dice leave the hand while it is still in view
        clip.show(_frame(*REST, (560.0 - 30 * i, 400.0 - 20 * i, 1 + i), hand=True))
    _throw(clip, (470.0, 340.0), (420.0, 300.0), final=6, others=REST)
    assert len(clip.rolls) == 1 and [d.value for d in clip.rolls[0].dice] == [6]


def test_no_roll_when_none_is_expected() -> None:
    clip = _at_rest(None)
    _throw(clip, (600.0, 420.0), (450.0, 300.0), final=4, others=REST)
    assert clip.rolls == []
    assert clip.rests[-1].values() == (3, 5, 4)  # what lies there is still reported
    # a roll that settled while none was expected is not emitted when one is
    clip.tr.expect(("Ana",))
    clip.show(_frame(*REST, (450.0, 300.0, 4)), 12)
    assert clip.rolls == []


def test_roll_after_the_expectation_comes() -> None:
    clip = _at_rest(None)
    clip.tr.expect(())  # from anyone
    _throw(clip, (600.0, 420.0), (450.0, 300.0), final=2, others=REST)
    assert len(clip.rolls) == 1 and clip.rolls[0].rollers == ()


def test_a_re_roll_of_picked_up_dice() -> None:
    clip = _at_rest()
    clip.show(_frame(hand=True), 5)  # both picked up
    clip.show(_frame(), 5)
    _throw(clip, (40.0, 60.0), (260.0, 240.0), final=5)
    assert len(clip.rolls) == 1 and [d.value for d in clip.rolls[0].dice] == [5]


def test_roll_needs_the_dice_to_settle_first() -> None:
    clip = _at_rest()
    for i in range(30):  # a die still tumbling: a roll is not emitted while it moves
        clip.show(_frame(*REST, (100.0 + 12 * i, 400.0, 1 + i % 6)))
    assert clip.rolls == []


def test_expect_bad_input() -> None:
    tr = RollTracker()
    with pytest.raises(ValueError, match="player names"):
        tr.expect("Ana")
    with pytest.raises(ValueError, match="player names"):
        tr.expect(("Ana", ""))
    with pytest.raises(ValueError, match="player names"):
        tr.expect((1,))  # type: ignore[arg-type]
    assert tr.expected == ()
    tr.expect(["Ana"])
    assert tr.expected == ("Ana",)
    with pytest.raises(ValueError, match="roll_travel"):
        RollTracker(roll_travel=-1.0)


# ---------------------------------------------------------------- rendered frames


def _scene(dice: tuple[SynthDie, ...]) -> Scene:
    return Scene(640, 480, dice, background_bgr=(60, 110, 50), noise=2.0)


def test_rendered_roll_and_push() -> None:
    """End to end on rendered frames: a die thrown in, tumbling, is one roll; pushing the
    dice that lie there afterwards is none."""
    rng = np.random.default_rng(4)
    lying = (SynthDie((200.0, 200.0), 48.0, angle=10.0, value=3),
             SynthDie((320.0, 240.0), 48.0, angle=35.0, value=5))
    tr = RollTracker(settle_s=0.3, emit_initial=False, expect=("Ana",))
    rolls: list[Roll] = []
    t = 0.0

    def show(dice: tuple[SynthDie, ...], frames: int = 1) -> None:
        nonlocal t
        for _ in range(frames):
            s = tr.update(read_dice(render(_scene(dice), rng)), t)
            t += 1 / FPS
            if s.roll is not None:
                rolls.append(s.roll)

    show(lying, 8)
    for i in range(10):  # thrown in from the right, tumbling
        u = 1 - (1 - (i + 1) / 10) ** 2
        show((*lying, SynthDie((600 - 130 * u, 420 - 80 * u), 48.0, angle=40.0 * i,
                               value=1 + (i * 5 + 4) % 6 if i < 8 else 4)))
    thrown = SynthDie((470.0, 340.0), 48.0, angle=40.0 * 9, value=4)
    show((*lying, thrown), 8)
    assert len(rolls) == 1
    assert [d.value for d in rolls[0].dice] == [4]
    for i in range(8):  # the lying dice pushed aside together
        show((*(dataclasses.replace(d, center=(d.center[0] - 8 * i, d.center[1] + 5 * i))
                for d in lying), thrown))
    show((*(dataclasses.replace(d, center=(d.center[0] - 56, d.center[1] + 35))
            for d in lying), thrown), 8)
    assert len(rolls) == 1


# ---------------------------------------------------------------- simulated sessions


def _score(seed: int, n: int, tracker_rule: bool) -> tuple[int, int, int, int]:
    """(phantoms, handling events, missed or doubled rolls, real rolls) over sessions."""
    from vision.sequences import sessions

    phantom = missed = n_hand = n_roll = 0
    for ses in sessions(np.random.default_rng(seed), n, n):
        tr = RollTracker(settle_s=0.3, emit_initial=False)
        at: list[int] = []
        for i, (reading, exp) in enumerate(zip(ses.readings, ses.expected, strict=True)):
            tr.expect(exp)
            s = tr.update(reading, i / ses.fps)
            if (s.roll if tracker_rule else s.settled) is not None:
                at.append(i)
        for ev in ses.events:
            got = [i for i in at if ev.start <= i < ev.end]
            if ev.is_roll:
                n_roll += 1
                missed += len(got) != 1
            else:
                n_hand += 1
                phantom += bool(got)
    return phantom, n_hand, missed, n_roll


def test_simulated_sessions_have_no_phantom_or_missed_roll() -> None:
    """48 real rolls and 48 handling events of every kind, with the reader's faults
    (vision.sequences, seed 4): none goes wrong here (a regression guard; over 1000 of each
    the tracker still errs now and then, see benchmarks/rolls.py); counting every settle as
    a roll (the rule before) makes most of the handling phantom rolls."""
    phantom, n_hand, missed, n_roll = _score(4, 48, tracker_rule=True)
    assert (n_hand, n_roll) == (48, 48)
    assert phantom == 0 and missed == 0
    old_phantom, _n, _m, _r = _score(4, 48, tracker_rule=False)
    assert old_phantom > n_hand // 2


def test_sequences_are_seeded() -> None:
    from vision.sequences import sessions

    a = next(sessions(np.random.default_rng(5), 4, 4))
    b = next(sessions(np.random.default_rng(5), 4, 4))
    assert a.readings == b.readings and a.events == b.events
    kinds = {e.kind for e in a.events}
    assert len(kinds) >= 4


def test_dice_revealed_in_an_empty_tray_are_a_roll() -> None:
    """A roll under a cup: the cup (a hand) covers the tray, is lifted, dice lie still. After
    the tray was seen empty that is a roll with ``empty_tray`` (off by default); a die put
    down among dice that lay there is not."""
    clip = Clip(RollTracker(settle_s=0.3, emit_initial=False, empty_tray=True, expect=("Ana",)))
    clip.show(_frame(), 12)  # the empty tray
    clip.show(_frame(hand=True), 8)  # the cup
    clip.show(_frame((200.0, 200.0, 4), (320.0, 260.0, 2)), 12)
    assert len(clip.rolls) == 1 and sorted(d.value for d in clip.rolls[0].dice) == [2, 4]
    clip.show(_frame((200.0, 200.0, 4), (320.0, 260.0, 2), hand=True), 6)
    clip.show(_frame((200.0, 200.0, 4), (320.0, 260.0, 2), (450.0, 150.0, 6)), 12)
    assert len(clip.rolls) == 1
    strict = Clip(RollTracker(settle_s=0.3, emit_initial=False))  # the default: off
    strict.show(_frame(), 12)
    strict.show(_frame(hand=True), 8)
    strict.show(_frame((200.0, 200.0, 4), (320.0, 260.0, 2)), 12)
    assert strict.rolls == []
