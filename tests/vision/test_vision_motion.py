"""The motion gate (issue 30, item 6): a cheap motion measure on every frame decides when the
full reader runs, within a budget of full reads a second, and the roll tracker uses the motion
seen between reads.

Clips here are 30 frames a second, read at most 8 times a second (a Raspberry Pi's budget):
each case checks that a throw in it IS a roll (one) and that the handling in it is not, so a
tracker that never fires, or fires on everything, fails.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from tracker_readings import HAND, SIZE, Spec, _die, _frame  # noqa: F401

from vision import Reading, RollTracker
from vision.motion import MOVING, MotionMeter, ReadGate
from vision.synthetic import Scene, SynthDie, render
from vision.tracker import Roll

FPS = 30.0
BUDGET = 8.0
NOISE = 0.02  # the meter's floor on a still frame (die areas)


class GatedClip:
    """Frames at FPS, each with the reading the reader would give and the motion level the
    meter would measure; a ReadGate picks the frames that are read, the tracker gets those
    readings and every frame's motion."""

    def __init__(self, tracker: RollTracker, budget: float = BUDGET) -> None:
        self.tr = tracker
        self.gate = ReadGate(budget, settle_s=tracker.settle_s)
        self.t = 0.0
        self.rolls: list[Roll] = []
        self.rests: list[Reading] = []
        self.read_at: list[float] = []
        self.frames = 0

    def show(self, reading: Reading, frames: int = 1, motion: float = NOISE) -> None:
        for _ in range(frames):
            if self.gate.decide(self.t, motion, settle_at=self.tr.settle_at):
                self.read_at.append(self.t)
                s = self.tr.update(reading, self.t, motion=motion)
                if s.roll is not None:
                    self.rolls.append(s.roll)
                if s.settled is not None:
                    self.rests.append(s.settled)
            else:
                s = self.tr.motion(self.t, motion)
                assert s.roll is None and s.settled is None  # nothing settles unread
            self.t += 1 / FPS
            self.frames += 1

    def quiet(self, *dice: Spec, seconds: float = 1.0) -> None:
        self.show(_frame(*dice), round(seconds * FPS))


REST = ((200.0, 200.0, 3), (300.0, 220.0, 5))  # two dice lying still


def _at_rest(expect: tuple[str, ...] | None = ("Ana",)) -> GatedClip:
    clip = GatedClip(RollTracker(settle_s=0.3, emit_initial=False))
    clip.quiet(*REST)
    assert clip.rolls == [] and len(clip.rests) == 1
    clip.tr.expect(expect)
    return clip


def _throw(clip: GatedClip, start: tuple[float, float], end: tuple[float, float], final: int,
           others: tuple[Spec, ...] = REST, frames: int = 18) -> None:
    """A die thrown in at 30 fps: it slows down towards ``end``, tumbling (a face read now
    and then, blurred in between), then lies still for a second."""
    for i in range(frames):
        u = 1 - (1 - (i + 1) / frames) ** 2
        x = start[0] + (end[0] - start[0]) * u
        y = start[1] + (end[1] - start[1]) * u
        v = None if i % 3 == 1 else 1 + (i * 5 + final) % 6
        clip.show(_frame(*others, (x, y, v if i < frames - 3 else final)), motion=2.0)
    clip.quiet(*others, (end[0], end[1], final))


def _budget_kept(times: list[float], budget: float) -> bool:
    return all(sum(1 for u in times if t <= u < t + 1.0) <= budget for t in times)


# ---------------------------------------------------------------- the meter


def _table(*dice: SynthDie, noise: float = 5.0) -> Scene:
    return Scene(640, 640, dice, background_bgr=(60, 110, 50), noise=noise)


def test_meter_sees_a_moving_die_and_not_sensor_noise() -> None:
    rng = np.random.default_rng(3)
    die = SynthDie((300.0, 300.0), 48.0, angle=15.0, value=5)
    other = SynthDie((450.0, 200.0), 48.0, angle=40.0, value=2)
    meter = MotionMeter(die_size=48.0)
    assert meter.measure(render(_table(die, other), rng)) == 0.0  # nothing to compare yet
    still = [meter.measure(render(_table(die, other, noise=8.0), rng)) for _ in range(5)]
    assert max(still) < MOVING / 10  # sensor noise (sd 8 grey levels) is not motion
    moved = dataclasses.replace(die, center=(348.0, 300.0))  # by its own size
    level = meter.measure(render(_table(moved, other), rng))
    assert level > 3 * MOVING  # about two die areas: where it was and where it is
    turned = dataclasses.replace(moved, value=2, angle=60.0)  # turned over where it lies
    assert meter.measure(render(_table(turned, other), rng)) > MOVING
    assert meter.measure(render(_table(turned, other), rng)) < MOVING / 10  # still again


def test_meter_takes_no_exposure_step_for_motion_and_checks_its_input() -> None:
    rng = np.random.default_rng(5)
    scene = _table(SynthDie((300.0, 300.0), 48.0, value=3))
    meter = MotionMeter()
    img = render(scene, rng)
    meter.measure(img)
    brighter = np.clip(render(scene, rng).astype(np.int16) + 10, 0, 255).astype(np.uint8)
    assert meter.measure(brighter) < MOVING / 10  # the camera's exposure changed, nothing moved
    assert meter.measure(img[:320]) == 0.0  # another size: starts afresh
    with pytest.raises(ValueError, match="uint8 image"):
        meter.measure(img.astype(np.float32))
    with pytest.raises(ValueError, match="uint8 image"):
        meter.measure("frame.png")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="die_size"):
        meter.die_size = 0.0
    with pytest.raises(ValueError, match="width"):
        MotionMeter(width=2)


# ---------------------------------------------------------------- the gate


def test_gate_never_exceeds_its_budget() -> None:
    """Random motion at camera rates from 10 to 120 frames a second, settling asked for at
    random: never more than the budget's reads in any second, and reads fall when all is
    still."""
    rng = np.random.default_rng(11)
    for fps in (10.0, 15.0, 24.0, 30.0, 60.0, 120.0):
        for budget in (8.0, 5.0, 2.5):
            gate = ReadGate(budget)
            times: list[float] = []
            for i in range(int(fps * 30)):
                t = i / fps + float(rng.uniform(0, 0.2 / fps))  # a camera's jitter
                level = float(rng.choice([0.0, 0.05, 0.5, 4.0, 40.0]))
                settle_at = t + float(rng.uniform(-0.5, 0.5)) if rng.random() < 0.3 else None
                if gate.decide(t, level, settle_at=settle_at):
                    times.append(t)
            assert times and _budget_kept(times, budget), (fps, budget)
            assert gate.reads == len(times) and gate.frames == int(fps * 30)
    still = ReadGate(8.0)
    reads = sum(still.decide(i / 30, NOISE) for i in range(30 * 20))
    assert reads <= 20 / still.idle_s + 1  # all still: a read every idle_s


def test_gate_reads_at_once_when_motion_stops_and_when_the_settle_is_due() -> None:
    gate = ReadGate(8.0, settle_s=0.3)
    t, picked = 0.0, []
    for i in range(60):  # two seconds of motion at 30 fps
        t = i / 30
        picked.append(gate.decide(t, 5.0))
    assert 14 <= sum(picked) <= 16  # 8 a second, evenly
    stop = 60 / 30
    assert gate.decide(stop, NOISE)  # the first still frame: at once
    settle_at = stop + 0.3
    due = [i / 30 for i in range(61, 90) if gate.decide(i / 30, NOISE, settle_at=settle_at)]
    assert any(abs(u - settle_at) < 1e-9 or 0 <= u - settle_at < 1 / 30 for u in due)


def test_gate_bad_input() -> None:
    with pytest.raises(ValueError, match="budget"):
        ReadGate(0)
    with pytest.raises(ValueError, match="budget"):
        ReadGate(float("nan"))
    gate = ReadGate()
    gate.decide(1.0, 0.0)
    with pytest.raises(ValueError, match="time went backwards"):
        gate.decide(0.5, 0.0)
    with pytest.raises(ValueError, match="motion level"):
        gate.decide(2.0, -1.0)
    with pytest.raises(ValueError, match="settle_at"):
        gate.decide(2.0, 0.0, settle_at=float("inf"))
    assert gate.reads == 1  # the bad calls counted nothing


# ---------------------------------------------------------------- the tracker, 8 reads a second


def test_a_throw_seen_at_8_reads_a_second_is_one_roll() -> None:
    clip = _at_rest(("Ana", "Ben"))
    _throw(clip, (600.0, 420.0), (450.0, 300.0), final=4)
    assert len(clip.rolls) == 1
    assert [d.value for d in clip.rolls[0].dice] == [4] and clip.rolls[0].rollers == ("Ana", "Ben")
    assert _budget_kept(clip.read_at, BUDGET) and len(clip.read_at) < clip.frames / 2
    _throw(clip, (40.0, 60.0), (150.0, 330.0), final=2, others=(*REST, (450.0, 300.0, 4)))
    assert len(clip.rolls) == 2 and [d.value for d in clip.rolls[1].dice] == [2]


@pytest.mark.parametrize("handling", ["pick-up-put-down", "pick-up-unseen-hand", "push",
                                      "shove", "hand-reach", "camera-bump", "turn-face"])
def test_handling_at_8_reads_a_second_is_no_roll_and_a_throw_after_it_is_one(
        handling: str) -> None:
    clip = _at_rest()
    a, b = REST
    after: tuple[Spec, ...] = REST
    if handling == "pick-up-put-down":  # a hand takes the first die, puts it down as a six
        clip.show(_frame(b, hand=True), 12, motion=6.0)
        after = ((420.0, 150.0, 6), b)
        clip.show(_frame(*after, hand=True), 6, motion=6.0)
    elif handling == "pick-up-unseen-hand":  # no warning: the die vanishes, appears still
        clip.show(_frame(b), 9, motion=6.0)
        after = ((420.0, 150.0, 6), b)
        clip.show(_frame(*after), 3, motion=6.0)
    elif handling == "push":  # both pushed 150 px by a finger, faces unchanged
        for i in range(15):
            clip.show(_frame((200.0 + 10 * i, 200.0, 3), (300.0 + 10 * i, 220.0, 5)),
                      motion=1.5)
        after = ((350.0, 200.0, 3), (450.0, 220.0, 5))
    elif handling == "shove":  # fast, blurred (uncertain) half the time
        for i in range(6):
            v = (None, None) if i % 2 else (3, 5)
            clip.show(_frame((200.0 + 45 * i, 200.0, v[0]), (300.0 + 45 * i, 220.0, v[1])),
                      motion=3.0)
        after = ((470.0, 200.0, 3), (570.0, 220.0, 5))
    elif handling == "hand-reach":  # a hand over the dice for a second, recognised or not
        clip.show(_frame(*REST, hand=True), 15, motion=8.0)
        clip.show(_frame(), 15, motion=8.0)
    elif handling == "camera-bump":  # a blurred jolt, then the view has moved
        clip.show(_frame((240.0, 180.0, None), (340.0, 200.0, None)), 3, motion=80.0)
        after = ((215.0, 190.0, 3), (315.0, 210.0, 5))
    elif handling == "turn-face":  # a die turned by hand where it lies
        clip.show(_frame(b, hand=True), 10, motion=4.0)
        after = ((a[0], a[1], 1), b)
    clip.quiet(*after)
    assert clip.rolls == [], handling
    assert clip.rests  # what lies there is still reported
    _throw(clip, (600.0, 420.0), (480.0, 330.0), final=5, others=after)
    assert len(clip.rolls) == 1 and [d.value for d in clip.rolls[0].dice] == [5], handling
    assert _budget_kept(clip.read_at, BUDGET)


def test_motion_between_reads_keeps_the_view_from_settling() -> None:
    """Readings that look the same but motion seen between them (a die rolling out of view
    and back, a hand waved over): the view settles only settle_s after the last motion."""
    tr = RollTracker(settle_s=0.3, emit_initial=False)
    assert tr.update(_frame(*REST), 0.0, motion=0.0).settled is None
    tr.motion(0.1, 0.0)
    tr.motion(0.25, 5.0)  # motion on a frame not read
    s = tr.update(_frame(*REST), 0.35, motion=0.0)
    assert s.moving and s.settled is None and s.still_for == pytest.approx(0.1)
    assert tr.settle_at == pytest.approx(0.55, abs=1e-5)
    assert tr.update(_frame(*REST), 0.5, motion=0.0).settled is None
    assert tr.update(_frame(*REST), 0.56, motion=0.0).settled is not None
    assert tr.settle_at is None  # at rest: nothing to confirm
    with pytest.raises(ValueError, match="motion level"):
        tr.motion(1.0, float("nan"))
    with pytest.raises(ValueError, match="time went backwards"):
        tr.motion(0.2, 0.0)


def test_motion_that_never_stops_beside_the_dice_does_not_block_settling_for_ever() -> None:
    """Something moving beside the tray all the time (a player, a screen): after
    MOTION_HOLD_S of unchanged readings the readings alone decide."""
    from vision.tracker import MOTION_HOLD_S

    clip = _at_rest()
    _throw(clip, (600.0, 420.0), (450.0, 300.0), final=4)
    clip.rolls.clear()
    others = (*REST, (450.0, 300.0, 4))
    clip.show(_frame(*others, hand=True), 6, motion=5.0)  # dice picked up under a hand
    clip.show(_frame(), 15, motion=5.0)  # in the hand for half a second
    for i in range(18):
        u = 1 - (1 - (i + 1) / 18) ** 2
        v = None if i % 3 == 1 else 1 + i % 6
        clip.show(_frame((600 - 250 * u, 60 + 200 * u, v if i < 15 else 6)), motion=5.0)
    clip.show(_frame((350.0, 260.0, 6)), round((MOTION_HOLD_S + 1.0) * FPS), motion=2.0)
    assert len(clip.rolls) == 1 and [d.value for d in clip.rolls[0].dice] == [6]


def _thrown_in(tr: RollTracker, path: list[Spec], t: float, others: tuple[Spec, ...] = REST,
               step: float = 1 / BUDGET) -> float:
    """A die read at ``path``'s places and faces, one read every ``step`` s while it moves
    (motion on every frame between); returns the time of the last read."""
    for spot in path:
        tr.motion(t - step / 2, 3.0)
        tr.update(_frame(*others, spot), t, motion=3.0)
        t += step
    return t - step


def _tracker_at_rest(dice: tuple[Spec, ...] = REST, reads: int = 4) -> tuple[RollTracker, float]:
    """A tracker that saw ``dice`` lie still for ``reads`` reads at 8 a second, then was told
    a roll is expected from Ana; and the time of the next read."""
    tr = RollTracker(settle_s=0.3, emit_initial=False)
    for k in range(reads):
        tr.update(_frame(*dice), k * 0.125, motion=0.0)
    tr.expect(("Ana",))
    return tr, reads * 0.125


def _rolls_while_still(tr: RollTracker, dice: tuple[Spec, ...], t: float,
                       reads: int = 7) -> list[tuple[int, list[int | None]]]:
    """``dice`` read still ``reads`` times after ``t``, 8 a second, no motion: (which read,
    the rolled dice's values) of each roll emitted."""
    rolls = []
    for k in range(1, reads + 1):
        s = tr.update(_frame(*dice), t + 0.125 * k, motion=0.0)
        if s.roll is not None:
            rolls.append((k, [d.value for d in s.roll.dice]))
    return rolls


def test_a_die_missed_when_the_view_was_taken_does_not_hold_the_settle_back() -> None:
    """The first still read after a throw misses a die (the reader's glitch), and the reads
    after it show every die, with no motion seen: that is the reader correcting itself, not a
    change, so the roll settles settle_s after the dice stopped, not settle_s after the
    reader found the missing die again (at 8 reads a second, 0.25 s later: with a few dice a
    glitch every few reads kept the view from settling before the next event)."""
    tr, t = _tracker_at_rest()
    t = _thrown_in(tr, [(600.0, 420.0, 2), (540.0, 380.0, 6), (500.0, 340.0, None),
                        (485.0, 334.0, 5)], t + 0.125)
    still = t + 0.125  # the die rolls to its place, stops; the first read then misses it
    tr.motion(still - 0.0625, 1.0)
    assert tr.update(_frame(*REST), still, motion=0.0).roll is None
    rolls = _rolls_while_still(tr, (*REST, (480.0, 330.0, 5)), still)
    assert rolls == [(3, [5])]  # 0.375 s after the dice stopped (was 0.625: k = 5)


def test_a_die_that_tumbled_then_lost_its_track_still_makes_the_roll() -> None:
    """At 8 reads a second a die crossing the tray fast is read twice tumbling (two faces,
    a die's size apart), then too far from there to be the same die, then where it comes to
    rest: its last track shows one face, but the die that tumbled belongs to this roll."""
    tr, t = _tracker_at_rest()
    t = _thrown_in(tr, [(40.0, 420.0, 2), (80.0, 400.0, 6), (560.0, 60.0, None),
                        (590.0, 70.0, 4), (592.0, 70.0, 4)], t + 0.125)
    rolls = _rolls_while_still(tr, (*REST, (592.0, 70.0, 4)), t)
    assert [values for _k, values in rolls] == [[4]]
    assert tr.last_roll is not None and len(tr.last_roll.dice) == 3


def test_a_die_dropped_in_that_rolls_over_on_the_way_to_rest_is_a_roll() -> None:
    """A die dropped into the tray near where it stops: it rolls over once on the way (read
    showing another face while it moved), half a die's size in all, then lies still. The
    face it showed moving is the tumbling (a die only put down, or misread once where it
    lies, shows no other face while moving). Two faces over less than a die's travel were
    not enough before."""
    tr, t = _tracker_at_rest()
    t = _thrown_in(tr, [(440.0, 298.0, None), (452.0, 301.0, 5), (464.0, 304.0, 6)],
                   t + 0.125)
    rolls = _rolls_while_still(tr, (*REST, (466.0, 305.0, 6)), t)
    assert [values for _k, values in rolls] == [[6]]
    # put down where it lies now, misread once as it is let go: no roll
    t += 2.0
    tr.update(_frame(*REST, (466.0, 305.0, 6), hand=True), t, motion=4.0)
    t = _thrown_in(tr, [(300.0, 400.0, 3), (303.0, 401.0, 4)], t + 0.125,
                   others=(*REST, (466.0, 305.0, 6)))
    assert _rolls_while_still(tr, (*REST, (466.0, 305.0, 6), (303.0, 401.0, 4)), t) == []
    assert tr.last_roll is not None and len(tr.last_roll.dice) == 3


def test_a_camera_bump_is_not_followed_die_by_die() -> None:
    """The camera knocked: two smeared reads, taken while the whole view moved (motion over
    most of it), show every die shifted and most of them uncertain; then the view settles a
    little moved. Dice followed through those reads were matched to their neighbours (two
    dice lie a die and a half apart) and came out as dice that arrived tumbling: a phantom
    roll. Reads taken while the whole view moves are not followed (a reading-level session
    of the benchmark, frames 66-98 of its session 85, at 20 frames a second)."""
    rest = ((451.0, 68.0, 5), (243.0, 360.0, 3), (183.0, 296.0, 1), (495.0, 85.0, 1))
    tr, _t = _tracker_at_rest(rest, reads=8)
    assert tr.settle_at is None  # at rest
    smeared = [(4.40, ((442.0, 45.0, None), (239.0, 342.0, None), (174.0, 278.0, 1),
                       (489.0, 73.0, None)), 174.0),
               (4.50, ((448.0, 49.0, 5), (231.0, 344.0, None), (178.0, 281.0, None),
                       (484.0, 71.0, None)), 177.0)]
    for t, dice, level in smeared:
        assert tr.update(_frame(*dice), t, motion=level).roll is None
    moved = ((459.0, 78.0, 5), (252.0, 374.0, 3), (193.0, 309.0, 1), (503.0, 100.0, 1))
    rests = []
    for k in range(10):
        s = tr.update(_frame(*moved), 4.6 + 0.15 * k, motion=0.0)
        assert s.roll is None
        rests += [s.settled] if s.settled is not None else []
    assert len(rests) == 1 and len(rests[0].dice) == 4  # the moved view is reported


def test_a_die_read_unsure_when_it_came_to_rest_is_not_rolled_again() -> None:
    """A die lying in the tray was read unsure when the view came to rest, then hidden by a
    hand for a while, and seen again with its face. It is still the die that lay there: the
    next throw's roll holds the thrown die only, not that one as well."""
    lying = ((200.0, 200.0, None), (300.0, 220.0, 5))
    tr, _t = _tracker_at_rest(lying, reads=6)
    assert tr.settle_at is None  # at rest, the first die unsure
    for k in range(6):  # a hand over it for a while: the die is not seen
        tr.update(_frame(lying[1], hand=True), 1.0 + k * 0.125, motion=3.0)
    seen = ((200.0, 200.0, 3), (300.0, 220.0, 5))
    t = _thrown_in(tr, [(600.0, 420.0, 2), (560.0, 380.0, 6), (520.0, 345.0, None),
                        (500.0, 330.0, 4)], 2.0, others=seen)
    rolls = _rolls_while_still(tr, (*seen, (500.0, 330.0, 4)), t)
    assert [values for _k, values in rolls] == [[4]]
