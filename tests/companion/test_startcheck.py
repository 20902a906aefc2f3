"""The start screen's checks in players' words (companion.startcheck), and the start options
that take only some numbers of players agree with the rules."""

from __future__ import annotations

import itertools

import pytest

import rules
from companion.games import plugins
from companion.startcheck import (
    BOARDS_BY_HAND,
    BOARDS_CAMERA,
    BOARDS_NEED_A_CAMERA,
    BOARDS_NEED_ZONES,
    choices_for,
    fits,
    name_problem,
    none_fits,
    players_words,
    refit,
    team_problem,
    tidy,
)
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


def test_teams_alliances_cannot_play_are_said_in_players_words() -> None:
    assert team_problem({"Team 1": ["Ana", "Ben"], "Team 2": ["Cy", "Dee"]}) is None
    assert team_problem({"Team 1": ["A", "B"], "Team 2": ["C", "D"], "Team 3": ["E", "F"]}) \
        is None
    four_two = team_problem({"Team 2": ["Eli", "Fay"], "Team 1": ["Ana", "Ben", "Cy", "Dee"]})
    assert four_two == ("With 6 players, Alliances is two teams of 3 or three teams of 2. Now "
                        "Team 1: Ana, Ben, Cy, Dee; Team 2: Eli, Fay. Choose each player's team "
                        "beside their name.")
    one_team = team_problem({"Team 1": ["Ana", "Ben", "Cy", "Dee"]})
    assert one_team is not None and one_team.startswith(
        "With 4 players, Alliances is two teams of 2. Now Team 1: Ana, Ben, Cy, Dee.")
    five = team_problem({"Team 1": ["A", "B", "C"], "Team 2": ["D", "E"]})
    assert five == ("Alliances is for 4 or 6 players (two teams of 2, two teams of 3, three "
                    "teams of 2), not 5: one more player joins, or one sits out.")
    # every team_problem's verdict is the engine's
    for teams in ({"Team 1": ["A", "B", "C"], "Team 2": ["D"]},
                  {"Team 1": ["A", "B"], "Team 2": ["C", "D"]}):
        players = tuple(p for names in teams.values() for p in names)
        try:
            rules.from_setup(Setup("eye-for-an-eye", players, {
                "mode": "alliances", "teams": list(teams.values())}, 1))
            took = True
        except rules.SetupError:
            took = False
        assert took == (team_problem(teams) is None), teams


def test_the_boards_problems_name_the_start_screens_choice_not_the_engines_value() -> None:
    boards = next(o for o in plugins()["eye-for-an-eye"].options if o.key == "track_allocation")
    assert [words for _value, words in boards.choices] == [BOARDS_BY_HAND, BOARDS_CAMERA]
    for said in (BOARDS_NEED_A_CAMERA, BOARDS_NEED_ZONES):
        assert f'Boards: "{BOARDS_BY_HAND}"' in said
        assert "not tracked" not in said and "'companion" not in said


def test_every_eye_is_not_offered_at_five_or_six_players() -> None:
    mode = next(o for o in plugins()["eye-for-an-eye"].options if o.key == "mode")
    assert choices_for(mode, 4) == ["Every Eye for Themselves", "Alliances (teams)"]
    assert choices_for(mode, 6) == ["Alliances (teams)"]
    assert fits(mode, "every-eye", 6) == "Every Eye for Themselves is for 2 to 4 players"


def test_no_mode_takes_five_and_the_words_say_so_without_contradiction() -> None:
    """Issue 44, item 9: at 5 "+" switched to Alliances, said "Alliances (teams): 4 to 6
    players", and the start then refused 5."""
    mode = next(o for o in plugins()["eye-for-an-eye"].options if o.key == "mode")
    assert choices_for(mode, 5) == []
    assert fits(mode, "alliances", 5) == "Alliances (teams) is for 4 or 6 players"
    said = none_fits(mode, 5)
    assert said == ("No mode takes 5 players: seat 4 or 6 to play. Every Eye for Themselves "
                    "is for 2 to 4; Alliances (teams) is for 4 or 6.")
    for words in ("Every Eye for Themselves", "Alliances (teams)"):  # the choice stays
        assert refit(mode, words, 5) == (words, said)
    assert refit(mode, "Every Eye for Themselves", 6) == (
        "Alliances (teams)", "Alliances (teams) is chosen for 6: Every Eye for Themselves is "
        "for 2 to 4 players.")
    assert none_fits(mode, 4) is None and none_fits(mode, 6) is None
    assert players_words((2, 3, 4)) == "2 to 4" and players_words((4, 6)) == "4 or 6"


@pytest.mark.parametrize("game", sorted(plugins()))
def test_the_counts_the_start_screen_offers_are_the_ones_the_rules_take(game: str) -> None:
    cls = rules.game_class(game)
    for option in plugins()[game].options:
        if not option.counts:
            continue
        for value, _words in option.choices:
            for count in range(cls.min_players, cls.max_players + 1):
                players = tuple(f"P{i}" for i in range(count))
                took = any(_takes(game, players, {option.key: value, **extra})
                           for extra in _team_splits(players, value))
                assert took == (fits(option, value, count) is None), (value, count)


def _takes(game: str, players: tuple[str, ...], options: dict[str, object]) -> bool:
    try:
        rules.from_setup(Setup(game, players, options, 1))
    except rules.SetupError as e:
        return "players" not in str(e) and "teams" not in str(e)  # refused for another reason
    return True


def _team_splits(players: tuple[str, ...], value: object) -> list[dict[str, object]]:
    """No options more, or for Alliances every way to seat the players in teams of 2 or 3
    (so a count is taken when any seating is: Alliances takes 4 and 6, not 5)."""
    if value != "alliances":
        return [{}]
    splits = []
    for sizes in ((2, 2), (2, 3), (3, 3), (2, 2, 2), (2, 2, 3), (2, 3, 3)):
        if sum(sizes) == len(players):
            at = [sum(sizes[:i]) for i in range(len(sizes) + 1)]
            splits.append({"teams": [list(players[a:b]) for a, b in itertools.pairwise(at)]})
    return splits or [{"teams": [list(players)]}]
