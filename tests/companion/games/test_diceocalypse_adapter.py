"""The Dice-ocalypse camera adapter: readings (stand-in dice) -> roll calls."""

from __future__ import annotations

import pytest
from dice_readings import die

import rules
from companion.games.diceocalypse.adapter import (
    RollEntry,
    call_for,
    corrections,
    expected_rolls,
    legal_after,
    read_order,
    read_roll,
    table_order,
    with_thousands,
)
from rules.diceocalypse import Roll, SpecialRoll
from vision.types import Reading


def reading(*dice: tuple[float, float, int | None] | tuple[float, float, int | None, float],
            ) -> Reading:
    """Dice as vision reads them: (x, y, value[, confidence])."""
    out = []
    for d in dice:
        conf = d[3] if len(d) == 4 else 0.95
        out.append(die(float(d[0]), float(d[1]), d[2], float(conf)))
    return Reading(tuple(out), (480, 640))


def test_a_sure_reading_becomes_the_roll_in_table_order() -> None:
    r = reading((300, 105, 5), (100, 100, 1), (200, 95, 5), (120, 300, 2), (20, 310, 3),
                (250, 290, 6))
    assert call_for(r, "Ana", 6) == Roll("Ana", (1, 5, 5, 3, 2, 6))


def test_the_roll_has_as_many_dice_as_are_being_rolled() -> None:
    r = reading((10, 10, 1), (60, 10, 5))
    assert call_for(r, "Ben", 2) == Roll("Ben", (1, 5))
    entry = read_roll(r, "Ben", 3)
    assert entry.text() is None and not entry.complete
    assert entry.add(4).text() == "Ben: Roll 1 5 4"


def test_too_many_dice_is_a_problem_that_names_the_counts() -> None:
    r = reading((10, 10, 1), (60, 10, 5), (110, 10, 6))
    entry = read_roll(r, "Cy", 2)
    assert entry.text() is None
    assert entry.problem == ("3 dice in the tray, Cy rolls 2 dice: tap the die not rolled to "
                             "set it aside")
    assert entry.surplus == 1
    fixed = entry.remove(2)
    assert fixed.problem == "" and fixed.text() == "Cy: Roll 1 5"


def test_uncertain_dice_wait_for_a_touch_then_confirm_or_correct() -> None:
    r = reading((10, 10, 3, 0.4), (60, 10, None, 0.2), (110, 10, 5))
    entry = read_roll(r, "Ana", 3)
    assert entry.doubtful == {0, 1}
    assert entry.text() is None
    with pytest.raises(ValueError, match="die 2: no value to confirm"):
        entry.confirm(1)
    entry = entry.confirm(0)
    assert entry.doubtful == {1} and entry.text() is None
    entry = entry.set_value(1, 6)
    assert entry.text() == "Ana: Roll 3 6 5"
    # confirm_all keeps a die with no value doubtful
    again = read_roll(r, "Ana", 3).confirm_all()
    assert again.doubtful == {1}


def test_a_roll_can_always_be_entered_by_touch() -> None:
    entry = RollEntry("Dee", 6)
    for v in (6, 6, 4, 1, 2, 3):
        entry = entry.add(v)
    assert entry.text() == "Dee: Roll 6 6 4 1 2 3"
    with pytest.raises(ValueError, match="Dee rolls 6 dice and 6 are entered"):
        entry.set_value(6, 1)
    with pytest.raises(ValueError, match="a die shows 1 to 6"):
        entry.set_value(0, 7)


def test_special_dice_use_their_own_words() -> None:
    r = reading((10, 10, 4))
    assert call_for(r, "Cy", 1, die="Zombie") == SpecialRoll("Cy", "Zombie", 4)


def test_rows_are_read_top_to_bottom_then_left_to_right() -> None:
    dice = [die(x, y, v) for x, y, v in
            ((300, 12, 1), (10, 200, 2), (150, 0, 3), (200, 210, 4))]
    assert [d.value for d in table_order(dice)] == [3, 1, 2, 4]


def test_expected_rolls_come_from_the_engine() -> None:
    game = rules.new_game("dice-ocalypse", ["Ana", "Ben", "Cy"])
    assert expected_rolls(game.legal_calls()) == {"Ana": 1, "Ben": 1, "Cy": 1}
    for text in ("Ana: Roll 6", "Ben: Roll 2", "Cy: Roll 1", "Ana: Roll 1 1 1 5 3 2",
                 "Ana: Keep 1 1 1"):
        game.apply(text)
    assert expected_rolls(game.legal_calls()) == {"Ana": 3}
    # the adapter's call is accepted by the engine as it stands
    text = call_for(reading((0, 0, 5), (50, 0, 2), (100, 0, 2)), "Ana", 3)
    assert text is not None
    events = game.apply(text)
    assert events[0].data["scoring"] == (5,)


def test_legal_after_asks_a_copy_and_leaves_the_game_as_it_was() -> None:
    """"Keep & bank" is offered only when the bank would follow the keep: the engine is asked
    on a copy; the game, its history and its redo list are untouched."""
    game = rules.new_game("dice-ocalypse", ["Ana", "Ben"])
    for text in ("Ana: Roll 6", "Ben: Roll 2", "Ana: Roll 1 1 1 5 3 2"):
        game.apply(text)
    before = (list(game.history), game.state)
    assert legal_after(game, "Ana: Keep 1 1 1", "Ana: Bank")  # 1,000: the opening score
    assert not legal_after(game, "Ana: Keep 5", "Ana: Bank")  # 50 does not open
    assert not legal_after(game, "Ana: Keep 3", "Ana: Bank")  # a 3 does not score: refused
    assert not legal_after(game, "Ben: Keep 1", "Ben: Bank")  # not Ben's turn
    assert (list(game.history), game.state) == before


def test_scores_read_with_thousands_separators() -> None:
    assert with_thousands("Ana banks 4000 for 12050; 3 dice, 1,100 kept") == \
        "Ana banks 4,000 for 12,050; 3 dice, 1,100 kept"
    assert with_thousands("at least 1000 in one turn, 50 now") == \
        "at least 1,000 in one turn, 50 now"


def test_scoring_keys_have_short_names_on_the_start_screen() -> None:
    from companion.games.diceocalypse import OPTIONS, key_words
    from rules.diceocalypse import key_names, scoring_key

    words = [key_words(n, scoring_key(n).title) for n in key_names()]
    assert all(w and "(" not in w and len(w) <= 24 for w in words), words
    assert len(set(words)) == len(words), words
    key = next(o for o in OPTIONS if o.key not in ("target",))
    assert [v for v, _ in key.choices][1:] == list(key_names())[1:]


class CountingTracker:
    """A stand-in for vision.RollTracker: settles when the same values were seen twice."""

    def __init__(self) -> None:
        self.last: tuple[int | None, ...] | None = None
        self.emitted: tuple[int | None, ...] | None = None

    def update(self, reading: Reading, t: float) -> object:
        values = tuple(d.value for d in reading.dice)
        settled = None
        if values == self.last and values != self.emitted:
            settled, self.emitted = reading, values
        self.last = values

        class State:
            pass

        state = State()
        state.settled = settled  # type: ignore[attr-defined]
        return state

    def reset(self) -> None:
        self.last = self.emitted = None


@pytest.mark.parametrize("values", [(1, 1, 1, 5, 5, 2), (6, 4, 2, 6, 3), (3,), (4, 4),
                                    (2, 3, 4, 6, 6, 2)])
def test_rendered_rolls_through_vision_become_the_call(values: tuple[int, ...]) -> None:
    """The real pipeline: a synthetic frame -> read_dice -> RollTracker -> adapter -> the call
    the engine accepts."""
    import numpy as np

    from vision import RollTracker, read_dice
    from vision.synthetic import Scene, SynthDie, render

    dice = tuple(SynthDie((60.0 + 100.0 * i, 200.0 + 7.0 * i), 50.0, angle=11.0 * i, value=v)
                 for i, v in enumerate(values))
    rng = np.random.default_rng(len(values))
    tracker = RollTracker(settle_s=0.3)
    frame = render(Scene(640, 480, dice, background_bgr=(60, 110, 50), noise=2.0), rng)
    settled = [tracker.update(read_dice(frame), 0.2 * t).settled for t in range(4)]
    found = [r for r in settled if r is not None]
    assert len(found) == 1, "one settled roll for dice lying still"
    call = call_for(found[0], "Ana", len(values))
    assert call == Roll("Ana", tuple(values))
    assert call.text() == "Ana: Roll " + " ".join(map(str, values))


def test_the_dice_the_players_confirmed_or_corrected_are_named_by_the_readings_index() -> None:
    """For the dice statistics: the entry lists dice as they lie, the reading as the camera
    found them; each confirmed or corrected die maps back to its place in the reading."""
    seen = reading((300, 100, 4), (100, 100, 2, 0.3), (200, 100, 6))
    entry = read_roll(seen, "Ana", 3)
    assert entry.values == (2, 6, 4) and entry.doubtful == {0}
    order = read_order(seen)
    assert [seen.dice[i].value for i in order] == [2, 6, 4]
    final = entry.confirm(0).set_value(2, 5)  # the unsure 2 confirmed, the 4 was a 5
    fixed = corrections(entry, final)
    assert fixed == {0: 2, 2: 5}
    assert {order[i]: v for i, v in fixed.items()} == {1: 2, 0: 5}
    assert corrections(entry, entry.confirm_all()) == {0: 2}
    assert corrections(read_roll(seen, "Ana", 3, min_confidence=0.1),
                       read_roll(seen, "Ana", 3, min_confidence=0.1)) == {}
    # A die entered by touch past those the camera saw is not the camera's.
    two = read_roll(reading((100, 100, 3), (200, 100, 3)), "Ana", 3)
    assert corrections(two, two.add(6)) == {}
