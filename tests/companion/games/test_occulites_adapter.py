"""The Occulites camera adapter: dice on the tray -> each player's line-up (cards 1-6 left to
right), unsure dice flagged, call text the engine accepts. Dice are vision's own Die and
Reading; the last test renders a synthetic frame and reads it with vision."""

from __future__ import annotations

import random
from typing import Any

import pytest
from dice_readings import die as seen_die

import rules
from companion.games.occulites.adapter import (
    MIN_CONFIDENCE,
    SlotRead,
    band_zones,
    corrections,
    lineup_call,
    read_lineups,
    slot_of,
)
from rules.occulites import Die, LineUp
from vision.types import Die as SeenDie
from vision.types import Reading


def die(x: float, y: float, colour: str | None, value: int | None,
        confidence: float = 0.95) -> SeenDie:
    return seen_die(x, y, value, confidence, colour=colour)


def reading(dice: list[Any], shape: tuple[int, int] = (480, 640)) -> Reading:
    return Reading(tuple(dice), shape)


def rows_of(lineups: list[list[tuple[str, int]]], jitter: random.Random) -> list[Any]:
    """Line-ups laid in rows, seat 1 at the top, slightly crooked, in shuffled order."""
    out = []
    for r, lineup in enumerate(lineups):
        for i, (colour, pips) in enumerate(lineup):
            out.append(die(50 + 95 * i + jitter.uniform(-8, 8),
                           70 + 130 * r + jitter.uniform(-20, 20), colour, pips))
    jitter.shuffle(out)
    return out


ANA = [("green", 5), ("green", 3), ("pink", 2), ("green", 6), ("green", 1), ("green", 4)]
BEN = [("blue", 4), ("blue", 4), ("blue", 6), ("blue", 1), ("black", 2), ("blue", 3)]
CY = [("red", 1), ("red", 2), ("red", 3), ("red", 4), ("red", 5), ("red", 6)]


@pytest.mark.parametrize("seed", range(5))
def test_rows_read_left_to_right_in_seat_order(seed: int) -> None:
    reads = read_lineups(reading(rows_of([ANA, BEN, CY], random.Random(seed))),
                         ["Ana", "Ben", "Cy"])
    assert list(reads) == ["Ana", "Ben", "Cy"]
    for player, truth in zip(reads, (ANA, BEN, CY), strict=True):
        r = reads[player]
        assert r.complete and r.uncertain == () and r.problems == ()
        assert [(s.colour, s.pips) for s in r.slots] == truth
        assert r.call() == lineup_call(player, truth)


def test_call_is_the_engines_line_up_and_is_accepted() -> None:
    game = rules.new_game("occulites", ["Ana", "Ben"], seed=3)
    game.apply("Ana: Tribe Palaudis")
    game.apply("Ben: Tribe Hydris")
    ana = [("green", n) for n in (5, 3, 2, 6, 1, 4)]
    ben = [("blue", n) for n in (4, 4, 6, 1, 2, 3)]
    reads = read_lineups(reading(rows_of([ana, ben], random.Random(1))), ["Ana", "Ben"])
    for p in ("Ana", "Ben"):
        call = reads[p].call()
        assert call == LineUp(p, tuple(Die(c, n) for c, n in (ana if p == "Ana" else ben)))
        assert game.parse(call.text()) == call  # its words are the engine's own
        assert game.lineup_problems(p, list(reads[p].dice() or ())) == []
        game.apply(call)
    game.apply("Reveal")
    assert len(game.state.outcomes) == 6 or game.state.round == 2


def test_unsure_dice_are_flagged_not_guessed() -> None:
    ben = rows_of([ANA, BEN], random.Random(2))
    ben = sorted(ben, key=lambda d: (d.center[1] > 135, d.center[0]))
    # Ben's card 2: no pips read; card 4: a colour the game has no dice of; card 6: doubtful.
    ben[6 + 1] = die(*ben[7].center, "blue", None)
    ben[6 + 3] = die(*ben[9].center, "grey", 1)
    ben[6 + 5] = die(*ben[11].center, "blue", 3, MIN_CONFIDENCE - 0.1)
    reads = read_lineups(reading(ben), ["Ana", "Ben"])
    assert reads["Ana"].complete
    r = reads["Ben"]
    assert r.uncertain == (2, 4, 6) and not r.complete
    assert r.call() is None and r.dice() is None
    assert [s.text() for s in r.slots] == ["blue 4", "blue ?", "blue 6", "? 1", "black 2",
                                          "blue 3"]
    # A doubtful die that was read still counts once confirmed: its values are kept.
    assert r.slots[5].colour == "blue" and r.slots[5].pips == 3 and r.slots[5].uncertain


def test_slot_of_accepts_only_game_colours_and_pips() -> None:
    assert slot_of(die(1, 1, "Green", 6)).colour == "green"
    assert slot_of(die(1, 1, "gold", 6)).colour is None
    assert slot_of(die(1, 1, None, 6)).uncertain
    assert slot_of(die(1, 1, "red", None)).pips is None
    assert not slot_of(die(1, 1, "red", 2)).uncertain


def test_wrong_count_falls_back_to_bands_and_says_so() -> None:
    dice = rows_of([ANA, BEN], random.Random(4))
    dice = [d for d in dice if d.colour != "black"]  # Ben's black die is off the tray
    reads = read_lineups(reading(dice), ["Ana", "Ben"])
    assert reads["Ana"].complete
    assert reads["Ben"].problems == ("5 dice seen in Ben's zone, a line-up has 6",)
    assert not reads["Ben"].complete and reads["Ben"].call() is None
    assert [(s.colour, s.pips) for s in reads["Ben"].slots] == [d for d in BEN
                                                                if d[0] != "black"]
    # Fewer dice than players: equal bands, seat 1 at the top.
    few = read_lineups(reading([die(10, 400, "red", 2)]), ["Ana", "Ben"])
    assert len(few["Ana"].slots) == 0 and len(few["Ben"].slots) == 1
    assert band_zones((480, 640), 2) == [(0.0, 0.0, 640.0, 240.0), (0.0, 240.0, 640.0, 480.0)]
    with pytest.raises(ValueError, match="at least 1 player"):
        band_zones((480, 640), 0)


def test_calibrated_zones_side_by_side() -> None:
    # Two players facing each other across the tray: zones are the left and right halves.
    zones = {"Ana": (0.0, 0.0, 320.0, 480.0), "Ben": (320.0, 0.0, 640.0, 480.0)}
    dice = [die(20 + 45 * i, 200 + 3 * i, c, n) for i, (c, n) in enumerate(ANA)]
    dice += [die(340 + 45 * i, 260 - 4 * i, c, n) for i, (c, n) in enumerate(BEN)]
    dice[0] = die(-5, 200, "green", 5)  # just outside every zone: the nearest one takes it
    reads = read_lineups(reading(dice[::-1]), ["Ana", "Ben"], zones)
    assert [(s.colour, s.pips) for s in reads["Ana"].slots] == ANA
    assert [(s.colour, s.pips) for s in reads["Ben"].slots] == BEN
    with pytest.raises(ValueError, match="no zone for Cy"):
        read_lineups(reading(dice), ["Ana", "Ben", "Cy"], zones)
    with pytest.raises(ValueError, match="no players"):
        read_lineups(reading(dice), [])


def test_lineup_call_is_the_engines() -> None:
    assert lineup_call("Ana", ANA) == LineUp("Ana", tuple(Die(c, n) for c, n in ANA))
    assert lineup_call("Ana", [Die(c, n) for c, n in ANA]).text().startswith(
        "Ana: Line-up green 5, ")


def test_rendered_tray_through_vision() -> None:
    """Two line-ups drawn by vision's renderer, read by vision.read_dice: every die it is sure
    of lands on the right player's right card."""
    import vision
    from vision import synthetic

    truth = {"Ana": [("green", n) for n in (5, 3, 2, 6, 1, 4)],
             "Ben": [("blue", n) for n in (4, 4, 6, 1, 2, 3)]}
    frame = render_tray(synthetic, truth)
    reads = read_lineups(vision.read_dice(frame), list(truth))
    sure = 0
    for p, lineup in truth.items():
        assert len(reads[p].slots) == 6, reads[p]
        for slot, (colour, pips) in zip(reads[p].slots, lineup, strict=True):
            if not slot.uncertain:
                sure += 1
                assert (slot.colour, slot.pips) == (colour, pips)
    assert sure >= 10


def render_tray(synthetic: Any, lineups: dict[str, list[tuple[str, int]]]) -> Any:
    """A 640x480 BGR frame with each player's line-up as a row, seat 1 at the top."""
    dice = []
    for r, lineup in enumerate(lineups.values()):
        for i, (colour, pips) in enumerate(lineup):
            dark = colour in ("green", "blue", "black", "red", "purple")
            dice.append(synthetic.SynthDie(
                center=(70.0 + 100 * i, 150.0 + 180 * r), size=56.0, angle=8.0 * i,
                value=pips, colour=colour, body_bgr=synthetic.SYNTH_COLOURS[colour],
                pip_bgr=(235, 235, 235) if dark else (30, 30, 30)))
    return synthetic.render(synthetic.Scene(width=640, height=480, dice=tuple(dice)))


def test_roll_zones_from_calibration_give_each_player_a_rectangle() -> None:
    from calibration.zones import ROLL_AREA, Zone, rectangle
    from companion.games.occulites.adapter import roll_zones

    zones = (rectangle(1, ROLL_AREA, 0, 0, 600, 100),
             Zone(2, "Roll", ((10, 150), (590, 160), (600, 260), (0, 250))),
             rectangle(1, "Parry", 0, 300, 50, 50))
    assert roll_zones(zones, ["Ana", "Ben"]) == {"Ana": (0.0, 0.0, 600.0, 100.0),
                                                 "Ben": (0.0, 150.0, 600.0, 260.0)}
    assert roll_zones(zones, ["Ana", "Ben", "Cy"]) is None  # Cy's area is not marked
    assert roll_zones((), ["Ana"]) is None
    # The rectangles split a reading into line-ups by zone, not by rows.
    dice = [die(50.0 + 90 * i, y, "red", 1 + i, 0.9) for y in (50.0, 200.0) for i in range(6)]
    lineups = read_lineups(reading(dice), ["Ana", "Ben"], roll_zones(zones, ["Ana", "Ben"]))
    assert [len(lineups[p].slots) for p in ("Ana", "Ben")] == [6, 6]
    assert all(s.center is not None and s.center[1] == 200.0 for s in lineups["Ben"].slots)


def test_the_dice_the_players_confirmed_or_corrected_are_named_by_the_readings_index() -> None:
    """For the dice statistics: a line-up's unsure dice, confirmed or corrected by touch, map
    back to their place in the reading (by their centre); sure dice left alone do not."""
    dice = [die(50 + 95 * i, 100, "green", pips, confidence)
            for i, (pips, confidence) in enumerate(
                [(5, 0.95), (3, 0.3), (2, 0.95), (6, 0.95), (1, 0.4), (4, 0.95)])]
    shuffled = [dice[i] for i in (3, 0, 5, 1, 4, 2)]
    read = read_lineups(reading(shuffled), ["Ana"])["Ana"]
    assert read.uncertain == (2, 5)
    final: list[SlotRead | None] = list(read.slots)
    final[1] = SlotRead("green", 3)  # confirmed as read
    final[4] = SlotRead("green", 2)  # a 1 read unsure was a 2
    final[5] = SlotRead("green", 5)  # a sure 4 changed by the players
    assert corrections(read.slots, final, shuffled) == {3: "3", 4: "2", 2: "5"}
    assert corrections(read.slots, list(read.slots), shuffled) == {3: "3", 4: "1"}  # all confirmed


def test_one_die_seen_is_said_as_one_die() -> None:
    """"1 die", never "1 dice", in what the players read."""
    dice = rows_of([ANA, BEN], random.Random(4))
    ana = [d for d in dice if d.center[1] < 135]  # row 0 about y 70, row 1 about y 200
    ben = [d for d in dice if d.center[1] >= 135][:1]  # one of Ben's dice left on the tray
    reads = read_lineups(reading(ana + ben), ["Ana", "Ben"])
    assert reads["Ben"].problems == ("1 die seen in Ben's zone, a line-up has 6",)
