"""One test for every registered game: random play with Hypothesis.

For each game it checks that undo restores the exact state and redo the state after, that a
call's words parse back to the same call, that an illegal or garbled call leaves the game as it
was, that conservation laws hold (``check_invariants``), that the history is plain JSON and
replays to the live game, and that a finished game takes no more calls.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

import rules
from rules import IllegalCall, InvalidCall, RulesError

MAX_STEPS = 250
GARBLE = ["", "   ", "Frobnicate 3", "Parry -1", "Undo everything", "P9: Movement 99",
          "🎲", "on on on", "3 3 3"]


@pytest.mark.parametrize("name", rules.game_names())
@settings(max_examples=30, deadline=None, phases=(Phase.explicit, Phase.reuse, Phase.generate),
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(rng=st.randoms(use_true_random=False))
def test_random_play_keeps_every_law(name: str, rng: random.Random) -> None:
    cls = rules.game_class(name)
    setup = cls.random_setup(rng)
    game = rules.from_setup(setup)
    seen_calls: list[str] = []
    for _ in range(MAX_STEPS):
        if game.is_over:
            break
        game.check_invariants()
        before = game.snapshot()
        call = game.random_call(rng)
        text = call.text()
        assert game.parse(text) == call, f"{text!r} does not parse back to {call!r}"
        # A garbled or impossible call changes nothing.
        junk = rng.choice(GARBLE)
        with pytest.raises(RulesError):
            game.apply(junk)
        assert game.snapshot() == before
        try:
            game.apply(call)
        except RulesError as e:
            raise AssertionError(f"legal call {text!r} refused after "
                                 f"{[x.call for x in game.history]}: {e}") from e
        seen_calls.append(text)
        game.check_invariants()
        after = game.snapshot()
        game.undo()
        assert game.snapshot() == before, f"undo of {text!r} did not restore the state"
        game.redo()
        assert game.snapshot() == after, f"redo of {text!r} did not give the same state"
    history = [e.to_json() for e in game.history]
    json.dumps(history)
    json.dumps(game.snapshot())
    json.dumps(game.standings().to_json())
    replayed = rules.replay(game.setup, [rules.Entry.from_json(e) for e in history])
    assert replayed.snapshot() == game.snapshot()
    assert replayed.is_over == game.is_over
    if game.is_over:
        assert list(game.legal_calls()) == []
        final = game.snapshot()
        for text in seen_calls[-5:]:
            with pytest.raises((IllegalCall, InvalidCall)):
                game.apply(text)
        assert game.snapshot() == final


@pytest.mark.parametrize("name", rules.game_names())
def test_game_file_round_trip(name: str) -> None:
    cls = rules.game_class(name)
    rng = random.Random(1234)
    game = rules.from_setup(cls.random_setup(rng))
    for _ in range(40):
        if game.is_over:
            break
        game.apply(game.random_call(rng), at=None)
    text = rules.format_game_file(game.setup, game.history, comment=f"{name} test")
    parsed = rules.parse_game_file(text)
    assert parsed.setup == game.setup
    assert parsed.play().snapshot() == game.snapshot()


def test_every_game_module_loads() -> None:
    assert "eye-for-an-eye" in rules.game_names()
