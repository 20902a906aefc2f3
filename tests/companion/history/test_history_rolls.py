"""The roll log: settled rolls kept in the journal's database, corrections, face counts."""

from __future__ import annotations

import random
from pathlib import Path
from types import SimpleNamespace

import pytest

from companion.history import (
    CONFIDENT,
    Roll,
    RolledDie,
    RollLog,
    RollLogError,
    assess_counts,
    dice_from_reading,
)
from companion.history.rolls import same_dice
from companion.journal import Journal
from vision.types import Die, Reading


def _die(face: str | None, colour: str | None = "red", confidence: float = 0.95) -> RolledDie:
    return RolledDie(face, colour, confidence)


@pytest.fixture
def log(tmp_path: Path) -> RollLog:
    return RollLog(Journal(tmp_path / "journal.sqlite3"))


def test_confident_reads_count_unsure_ones_do_not(log: RollLog) -> None:
    log.record([_die("6"), _die("6"), _die("2", confidence=CONFIDENT - 0.01), _die(None)],
               game_id=None)
    log.record([_die("3", colour="white"), _die("6", colour=None)])
    groups = {g.label: g for g in log.counts()}
    red = groups["the red dice"]
    assert red.read == {"6": 2} and red.unsure == 2 and red.counted == 2
    assert groups["the white dice"].read == {"3": 1}
    assert groups["dice of unknown colour"].read == {"6": 1}
    assert log.rolls() == 2


def test_a_correction_counts_with_the_players_face(log: RollLog) -> None:
    rid = log.record([_die("5"), _die("1", confidence=0.3), _die("4")], game_id=7)
    log.correct(rid, {0: "6", 1: "2"})
    red = log.counts()[0]
    assert red.read == {"4": 1}
    assert red.corrected == {"6": 1, "2": 1}
    assert red.unsure == 0 and red.counted == 3 and red.corrected_total == 2
    assert red.faces == {"4": 1, "6": 1, "2": 1}
    dice = log.dice(rid)
    assert [d.fixed for d in dice] == ["6", "2", None]
    assert [d.face for d in dice] == ["5", "1", "4"]  # what the camera read is kept
    # Correcting again replaces the earlier correction, it does not add to it.
    log.correct(rid, {0: "3"})
    assert log.counts()[0].corrected == {"3": 1, "2": 1}
    assert log.db.execute("SELECT corrected, game_id FROM roll_log WHERE id=?",
                          (rid,)).fetchone() == (1, 7)


def test_counts_kept_beside_the_rolls_equal_a_recount(log: RollLog) -> None:
    rng = random.Random(5)
    rolls = []
    for _ in range(300):
        dice = tuple(RolledDie(rng.choice("123456") if rng.random() > 0.05 else None,
                               rng.choice(["red", "white", None]), rng.random())
                     for _ in range(rng.randint(1, 5)))
        rolls.append(Roll(dice, rng.choice([None, 1, 2]), rng.choice([None, "Ana's set"])))
    ids = log.record_many(rolls)
    for rid in rng.sample(ids, 40):
        n = len(log.dice(rid))
        log.correct(rid, {rng.randrange(n): rng.choice("123456")})
    def kept() -> list[tuple[object, ...]]:
        return sorted(((g.dice_set or "", g.colour or "", sorted(g.read.items()),
                        sorted(g.corrected.items()), g.unsure) for g in log.counts()),
                      key=repr)

    before = kept()
    log.recount()
    assert kept() == before
    assert sum(g.counted + g.unsure for g in log.counts()) == sum(len(r.dice) for r in rolls)


def test_named_sets_are_judged_apart(log: RollLog) -> None:
    log.record([_die("1"), _die("2")], dice_set="Ana's red dice")
    log.record([_die("1")])
    labels = sorted(g.label for g in log.counts())
    assert labels == ["Ana's red dice (red)", "the red dice"]
    verdicts = assess_counts(log.counts())
    assert all(v.status == "too-few" for v in verdicts)


def test_clear_forgets_a_set_or_a_colour(log: RollLog) -> None:
    log.record([_die("1"), _die("2", colour="white")])
    log.record([_die("3")], dice_set="old set")
    assert log.clear(colour="white") == 1
    assert {g.label for g in log.counts()} == {"the red dice", "old set (red)"}
    assert log.clear(dice_set="old set") == 1
    assert [g.label for g in log.counts()] == ["the red dice"]
    assert log.clear() == 1 and log.counts() == [] and log.rolls() == 0


def test_bad_rolls_are_refused_with_what_was_wrong(log: RollLog) -> None:
    with pytest.raises(RollLogError, match="no dice"):
        log.record([])
    with pytest.raises(RollLogError, match=r"confidence must be within 0\.\.1"):
        RolledDie("3", "red", 1.5)
    with pytest.raises(RollLogError, match="face must be a non-empty string"):
        RolledDie("", "red", 0.9)
    with pytest.raises(RollLogError, match="dice_set must be a non-empty name"):
        log.record([_die("1")], dice_set="  ")
    rid = log.record([_die("1")])
    with pytest.raises(RollLogError, match=r"no die 3 \(the roll has 1 die\)"):
        log.correct(rid, {3: "2"})
    with pytest.raises(RollLogError, match="roll 999: not in the roll log"):
        log.correct(999, {0: "2"})
    with pytest.raises(RollLogError, match="a roll takes RolledDie"):
        log.record_many([Roll((_die("1"),)), Roll(("6",))])  # type: ignore[arg-type]
    assert log.rolls() == 1  # nothing of the refused batch was kept


def test_a_vision_reading_becomes_plain_dice(log: RollLog) -> None:
    corners = ((0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0))
    reading = Reading((Die((5.0, 5.0), corners, 0.0, 20.0, 4, "4", "green", 0.93),
                       Die((9.0, 5.0), corners, 0.0, 20.0, None, None, "green", 0.2),
                       Die((9.0, 9.0), corners, 0.0, 20.0, None, "attack", None, 0.8)),
                      (480, 640))
    dice = dice_from_reading(reading)
    assert dice == (RolledDie("4", "green", 0.93), RolledDie(None, "green", 0.2),
                    RolledDie("attack", None, 0.8))
    log.record(dice, game_id=1)
    assert {g.label: g.counted for g in log.counts()} == {"the green dice": 1,
                                                         "dice of unknown colour": 1}


def test_only_a_vision_reading_becomes_dice() -> None:
    """The roll log takes vision's typed dice, not anything that has a ``dice`` attribute
    (a stand-in without faces was once kept as an unread die of confidence 0)."""
    fake = SimpleNamespace(dice=(SimpleNamespace(center=(5.0, 5.0)),))
    with pytest.raises(RollLogError, match=r"a roll is read from a vision\.Reading, "
                                           r"got SimpleNamespace"):
        dice_from_reading(fake)  # type: ignore[arg-type]
    corners = ((0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0))
    die = Die((5.0, 5.0), corners, 0.0, 20.0, 4, "4", "green", 0.93)
    with pytest.raises(RollLogError, match=r"same_dice: seen must hold vision\.Die values, "
                                           r"got SimpleNamespace"):
        same_dice([die], list(fake.dice))  # type: ignore[arg-type]
    assert same_dice([die], [die]) == {0: 0}


def test_a_later_picture_of_dice_lying_still_names_the_same_dice() -> None:
    """A screen reads the tray again (the camera's newest picture) after the roll was kept:
    each die is the recorded die within half a die of it; dice that moved, or that could be
    either of two, are not matched."""
    def die(x: float, y: float, size: float = 40.0) -> Die:
        corners = ((x - 20, y - 20), (x + 20, y - 20), (x + 20, y + 20), (x - 20, y + 20))
        return Die((x, y), corners, 0.0, size, 3, "3", "red", 0.9)

    recorded = [die(100, 100), die(200, 100), die(300, 100)]
    later = [die(302, 98), die(101, 103), die(250, 300), die(199, 100)]
    assert same_dice(recorded, later) == {0: 2, 1: 0, 3: 1}
    crowded = [die(100, 100), die(110, 100)]  # both within reach: no guess
    assert same_dice(crowded, [die(105, 100)]) == {}
    assert same_dice(recorded, [die(100, 100), die(102, 100)]) == {}  # one die, two claims
