"""The one question every game answers the same way: ``prompt()`` (who acts now, in which
phase, is a clock running, is a roll expected) and ``placings()`` (finishing positions).

The app asks these instead of each game's own attributes, so every game must answer them
consistently at every step of random play.
"""

from __future__ import annotations

import random

import pytest

import rules
from rules.core import Prompt, rank_by

STEPS = 400


def _check(game: rules.Game) -> Prompt:  # type: ignore[type-arg]
    prompt = game.prompt()
    players = set(game.setup.players)
    assert prompt.over == game.is_over, (prompt, game.is_over)
    assert set(prompt.actors) <= players, prompt
    assert set(prompt.rollers) <= players, prompt
    assert not prompt.rollers or prompt.roll, f"rollers without a roll expected: {prompt}"
    if prompt.over:
        assert not prompt.roll and prompt.clock is None, prompt
    if prompt.clock is not None:
        assert prompt.clock > 0
    assert prompt.text, f"{game.name}: the prompt has no words for the screen: {prompt}"
    places = game.placings()
    flat = [p for group in places for p in group]
    assert sorted(flat) == sorted(game.setup.players), places
    assert all(places), f"an empty group in {places}"
    return prompt


@pytest.mark.parametrize("name", rules.game_names())
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_prompt_and_placings_hold_through_random_play(name: str, seed: int) -> None:
    rng = random.Random(seed)
    game = rules.from_setup(rules.game_class(name).random_setup(rng))
    phases = set()
    for _ in range(STEPS):
        phases.add(_check(game).phase)
        if game.is_over:
            break
        game.apply(game.random_call(rng))
    _check(game)
    assert len(phases) >= 2, f"{name}: random play saw only the phases {phases}"
    if game.is_over:
        winner = game.standings().winner
        assert winner is not None
        named = [p for p in game.setup.players if p in winner]
        if named:  # the winner is said by player names (not a team's): they come first
            assert set(game.placings()[0]) <= set(named), (winner, game.placings())


def test_eye_for_an_eye_runs_its_clock_only_while_playing() -> None:
    game = rules.new_game("eye-for-an-eye", ["Ana", "Ben", "Cy"], {"round_seconds": 120})
    prompt = game.prompt()
    assert (prompt.phase, prompt.clock, prompt.roll) == ("playing", 120.0, True)
    assert prompt.actors == ("Ana", "Ben", "Cy")
    game.apply("Yarra Bung!", 120)
    between = game.prompt()
    assert between.phase == "between-rounds"
    assert between.clock is None and not between.roll and between.actors == ()


def test_diceocalypse_expects_a_roll_from_the_player_on_turn_only() -> None:
    game = rules.new_game("dice-ocalypse", ["Ana", "Ben"])
    first = game.prompt()
    assert first.roll and set(first.rollers) == {"Ana", "Ben"}  # the roll-off for the order
    game.apply("Ana: Roll 6")
    game.apply("Ben: Roll 2")
    turn = game.prompt()
    assert turn.rollers == ("Ana",) and turn.actors == ("Ana",)


def test_occulites_expects_rolls_from_those_not_lined_up() -> None:
    game = rules.new_game("occulites", ["Ana", "Ben", "Cy"])
    for player, tribe in (("Ana", "Hydris"), ("Ben", "Nimbus"), ("Cy", "Ignis")):
        assert game.prompt().phase == "tribes"
        game.apply(f"{player}: Tribe {tribe}")
    prompt = game.prompt()
    assert prompt.phase == "allocate" and prompt.roll
    assert prompt.rollers == ("Ana", "Ben", "Cy")
    assert prompt.clock is not None and prompt.clock > game.options.deadline


def test_tribal_village_never_expects_dice() -> None:
    game = rules.new_game("tribal-village", ["Ana", "Ben", "Cy"])
    prompt = game.prompt()
    assert not prompt.roll and prompt.clock is None and prompt.phase == "setup"


def test_rank_by_groups_ties_and_puts_declared_winners_first() -> None:
    assert rank_by(["A", "B", "C", "D"], {"A": 1, "B": 3, "C": 3, "D": 0}) == (
        ("B", "C"), ("A",), ("D",))
    assert rank_by(["A", "B", "C"], {"A": 2, "B": 2, "C": 1}, first=["B"]) == (
        ("B",), ("A",), ("C",))
