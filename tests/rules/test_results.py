"""``Game.results()``: each player's score, rank, win, role and cards, typed for statistics.

The results must say what the standings say (the same scores, the same winners), for every
game, finished or not; the history and the BG Stats export read nothing else.
"""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

import pytest

import rules
from rules.core import PlayerResult, rank_by_score

#: The standings column that holds the score each game ranks by.
SCORE_COLUMN = {"eye-for-an-eye": "total", "occulites": "points", "dice-ocalypse": "score",
                "dice-forge": "score", "tribal-village": "total"}


def test_rank_by_score_shares_ties_and_honours_a_tie_break() -> None:
    assert rank_by_score([10, 30, 30, 5]) == [3, 1, 1, 4]
    assert rank_by_score([30, 30, 5], first=[1]) == [2, 1, 3]
    assert rank_by_score([]) == []
    assert rank_by_score([0, 0]) == [1, 1]


def _played(name: str, seed: int, steps: int = 600) -> rules.Game:  # type: ignore[type-arg]
    rng = random.Random(seed)
    game = rules.from_setup(rules.game_class(name).random_setup(rng))
    for _ in range(steps):
        if game.is_over:
            break
        game.apply(game.random_call(rng))
    return game


def _check_against_standings(game: rules.Game) -> list[PlayerResult]:  # type: ignore[type-arg]
    results = list(game.results())
    standings = game.standings()
    assert [r.player for r in results] == list(game.setup.players)
    column = standings.columns.index(SCORE_COLUMN[game.setup.game])
    shown = {row[0]: row[column] for row in standings.rows}
    for r in results:
        assert r.score is not None
        assert shown[r.player] == str(int(r.score)), (r, shown)
    winners = [r for r in results if r.won]
    if game.is_over:
        assert winners, f"{game.setup.game}: over with no winner in {results}"
        assert standings.winner is not None
        for r in winners:
            assert r.player in standings.winner or (r.team or "?") in standings.winner
            assert r.rank == 1, r
    else:
        assert winners == []
    return results


@pytest.mark.parametrize("name", sorted(SCORE_COLUMN))
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_results_agree_with_the_standings(name: str, seed: int) -> None:
    game = _played(name, seed)
    assert game.is_over, f"{name} seed {seed}: random play did not finish"
    results = _check_against_standings(game)
    kinds = {"eye-for-an-eye": "character", "occulites": "tribe",
             "tribal-village": "objective"}
    if name in kinds:
        assert game.role_kind == kinds[name]
        # Occulites can be played without Tribes; then nobody has one.
        assert all(r.role for r in results) or name == "occulites", results
    if name in ("dice-forge", "dice-ocalypse"):
        assert game.card_kind is not None
    # Halfway through, nobody has won yet and the scores are still those shown.
    half = rules.replay(game.setup, game.history[: len(game.history) // 2])
    _check_against_standings(half)


def test_diceocalypse_cards_played_are_the_ones_gone_from_the_hand() -> None:
    text = (Path(__file__).parent / "diceocalypse_golden.game").read_text(encoding="utf-8")
    game = rules.parse_game_file(text).play()
    results = game.results()
    hands = game.state.cards
    for r in results:
        assert set(r.cards).isdisjoint(hands[r.player])
        assert len(r.cards) + len(hands[r.player]) == 5
    assert sum(r.won for r in results) == (1 if game.is_over else 0)


def test_a_shared_dice_forge_victory_makes_two_winners() -> None:
    # Random play until two players end level on glory with the tie kept (tiebreak off),
    # trying first the seed that gave the first such game (found by this search in 130 games).
    for seed in (130, *range(200)):
        game = _played("dice-forge", seed)
        if not game.is_over:
            continue
        final = game.state.final
        best = max(final.values())
        if sum(v == best for v in final.values()) > 1:
            break
    else:
        pytest.skip("no tied Dice Forge game in 200 seeds")
    winners = [r.player for r in game.results() if r.won]
    assert len(winners) > 1
    assert game.standings().winner == " and ".join(winners)
    assert {r.rank for r in game.results() if r.won} == {1}


def test_default_results_name_only_the_winner() -> None:
    @dataclasses.dataclass
    class Opts:
        pass

    class Tiny(rules.Game[dict[str, int]]):
        name = "tiny"
        title = "Tiny"
        Options = Opts

        def initial_state(self, rng: random.Random) -> dict[str, int]:
            return {"n": 0}

        def parse(self, text: str) -> rules.Call:
            raise rules.InvalidCall(text)

        def _apply(self, state: dict[str, int], call: rules.Call,
                   at: float | None) -> list[rules.Event]:
            return []

        @property
        def is_over(self) -> bool:
            return True

        def standings(self) -> rules.Standings:
            return rules.Standings(("player",), (("A",), ("B",)), "B", True)

    game = Tiny(rules.Setup("tiny", ("A", "B")))
    assert [(r.player, r.won, r.score) for r in game.results()] == [("A", False, None),
                                                                    ("B", True, None)]
