"""A refused call says which call and why as fields (issue 34: typed messages): nobody has to
cut the call's words off the message to find the reason."""

from __future__ import annotations

import pytest

import rules
from rules import IllegalCall, Setup


def game(name: str, players: tuple[str, ...]) -> rules.Game:  # type: ignore[type-arg]
    return rules.from_setup(Setup(name, players, {}, 1))


def test_a_refusal_carries_its_call_and_reason() -> None:
    g = game("dice-forge", ("Ana", "Ben"))
    call = g.parse("Ben: Pass")
    with pytest.raises(IllegalCall) as caught:
        g.apply(call)
    e = caught.value
    assert e.call == call
    assert e.reason and not e.reason.startswith("Ben: Pass")
    assert str(e) == f"Ben: Pass: {e.reason}"


def test_check_refuses_the_same_way_and_words_are_parsed_first() -> None:
    g = game("eye-for-an-eye", ("Ana", "Ben"))
    words = g.seats()[0].character.short + ": Heal"
    with pytest.raises(IllegalCall) as caught:
        g.check(words)
    assert caught.value.call == g.parse(words)
    assert str(caught.value) == f"{words}: {caught.value.reason}"


def test_a_refusal_of_no_call_has_no_call() -> None:
    g = game("dice-forge", ("Ana", "Ben"))
    with pytest.raises(IllegalCall) as caught:
        g.undo()
    assert caught.value.call is None
    assert caught.value.reason == str(caught.value) == "undo: nothing to undo"
