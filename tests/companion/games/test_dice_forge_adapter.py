"""The Dice Forge camera adapter: face-set labels -> Rolled call text, uncertain dice flagged."""

from __future__ import annotations

import pytest

import rules
import vision
from companion.games.dice_forge.adapter import call_from_reading, face_name, read_roll, rolled_call
from rules.dice_forge import Rolled


def Die(center: tuple[float, float], face: str | None,
        confidence: float = 0.95) -> vision.Die:
    """A die the camera read: its centre, its face-set label and how sure."""
    x, y = center
    corners = ((x - 20, y - 20), (x + 20, y - 20), (x + 20, y + 20), (x - 20, y + 20))
    return vision.Die((x, y), corners, 0.0, 40.0, None, face, None, confidence)


def Reading(dice: tuple[vision.Die, ...]) -> vision.Reading:
    return vision.Reading(dice, (480, 640))


DICE = [["1 sun", "1 gold", "1 gold", "1 gold", "1 gold", "1 gold"],
        ["1 moon", "2 glory", "1 gold", "1 gold", "1 gold", "1 gold"]]


def test_labels_become_the_engines_face_words() -> None:
    assert face_name("3_gold_or_2_glory") == "3 gold or 2 glory"
    assert face_name("1-loyalty-+-1-glory") == "1 loyalty + 1 glory"
    assert face_name(None) is None


def test_each_face_goes_to_the_die_that_carries_it_whatever_the_position() -> None:
    got = read_roll(Reading((Die((10, 5), "1_moon"), Die((90, 5), "1_sun"))), DICE)
    assert got.faces == ("1 sun", "1 moon") and got.certain


def test_a_certain_reading_is_a_call_the_engine_accepts() -> None:
    g = rules.new_game("dice-forge", ["Ana", "Ben"], seed=3)
    ana = g.state.player("Ana")
    reading = Reading((Die((5, 5), ana.dice[1][1].replace(" ", "_")),
                       Die((50, 5), ana.dice[0][0].replace(" ", "_"))))
    call, _got = call_from_reading("Ana", reading, ana.dice)
    assert call == Rolled("Ana", (ana.dice[0][0], ana.dice[1][1]))
    g.apply(call)
    assert g.history[-1].call == f"Ana: Rolled {ana.dice[0][0]}, {ana.dice[1][1]}"


def test_low_confidence_and_unknown_faces_are_flagged_for_touch() -> None:
    text, got = call_from_reading("Ana", Reading((Die((0, 0), "1_sun", 0.3),
                                                  Die((9, 0), "2_glory"))), DICE)
    assert text is None and got.faces == ("1 sun", "2 glory") and got.uncertain == (True, False)
    text, got = call_from_reading("Ana", Reading((Die((0, 0), "6_gold"),
                                                  Die((9, 0), "2_glory"))), DICE)
    assert text is None and got.faces == (None, "2 glory") and "no die" in got.problem
    text, got = call_from_reading("Ana", Reading((Die((0, 0), None),)), DICE)
    assert text is None and got.problem == "the camera sees 1 die; this roll has 2"


def test_a_minor_blessing_names_its_die() -> None:
    call, _got = call_from_reading("Ben", Reading((Die((3, 3), "2_glory"),)), DICE, which=(1,))
    assert call is not None and call.text() == "Ben: Rolled 2 glory on die 2"
    assert rolled_call("Ben", ["1 sun"], 1) == Rolled("Ben", ("1 sun",), 1)
    with pytest.raises(ValueError, match="names two faces"):
        rolled_call("Ben", ["1 sun"])


def test_each_die_of_the_roll_names_the_die_of_the_reading_read_for_it() -> None:
    """For the dice statistics: which die of the reading stood for die 1 and die 2."""
    seen = Reading((Die((90, 5), "1_sun"), Die((10, 5), "2_glory", 0.3)))
    got = read_roll(seen, DICE)
    assert got.faces == ("1 sun", "2 glory") and got.uncertain == (False, True)
    assert got.dice == (0, 1)
    got = read_roll(Reading((Die((10, 5), "1_moon"), Die((90, 5), "1_sun"))), DICE)
    assert got.dice == (1, 0)
    assert read_roll(Reading((Die((10, 5), "1_moon"),)), DICE).dice == ()
