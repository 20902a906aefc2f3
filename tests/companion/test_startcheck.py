"""The start screen's checks in players' words (companion.startcheck), and the start options
that take only some numbers of players agree with the rules."""

from __future__ import annotations

import pytest

import rules
from companion.games import plugins
from companion.startcheck import choices_for, fits, name_problem, tidy
from rules import Setup


def test_an_empty_name_says_which_seat_and_that_the_grey_text_is_only_a_hint() -> None:
    said = name_problem(["Ana", "Ben", "   "])
    assert said is not None and said.startswith("Player 3 has no name yet")
    assert "only a hint" in said and "non-empty" not in said and "''" not in said


def test_long_repeated_and_odd_names_are_said_in_words() -> None:
    long = name_problem(["Bartholomew Kempington", "Ben"])
    assert long is not None and "22 characters" in long and "at most 16" in long
    same = name_problem(["Ana", "Ben", "ana"])
    assert same == ("Players 1 and 3 are both called ana: give each a different name (an "
                    "initial will do).")
    assert "starts with a letter" in str(name_problem(["4Ana", "Ben"]))
    assert "letters, digits" in str(name_problem(["Ana:x", "Ben"]))
    assert name_problem(["  Ana  ", "Ben  Cole"]) is None  # spaces are tidied, not refused
    assert tidy("  Ben  Cole ") == "Ben Cole"


def test_every_eye_is_not_offered_at_five_or_six_players() -> None:
    mode = next(o for o in plugins()["eye-for-an-eye"].options if o.key == "mode")
    assert choices_for(mode, 4) == ["Every Eye for Themselves", "Alliances (teams)"]
    assert choices_for(mode, 6) == ["Alliances (teams)"]
    assert fits(mode, "every-eye", 6) == "Every Eye for Themselves is for 2 to 4 players"


@pytest.mark.parametrize("game", sorted(plugins()))
def test_the_counts_the_start_screen_offers_are_the_ones_the_rules_take(game: str) -> None:
    cls = rules.game_class(game)
    for option in plugins()[game].options:
        if not option.counts:
            continue
        for value, _words in option.choices:
            for count in range(cls.min_players, cls.max_players + 1):
                players = tuple(f"P{i}" for i in range(count))
                try:
                    rules.from_setup(Setup(game, players, {option.key: value}, 1))
                    took = True
                except rules.SetupError as e:
                    took = "players" not in str(e)  # refused for another reason
                assert took == (fits(option, value, count) is None), (value, count)
