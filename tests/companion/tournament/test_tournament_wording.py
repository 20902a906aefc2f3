"""What the Tournament screen says, in players' words: games, formats and modes by name, where
each entrant is in the round, and "every result is in" once the last result has come."""

from __future__ import annotations

import pytest

import rules
from companion.tournament.wording import (
    FORMATS,
    MODES,
    engine_name,
    game_words,
    round_words,
    status_words,
    tables_words,
)
from rules.tournament import Tournament


def statuses(t: Tournament) -> dict[str, str]:
    return {row.name: status_words(t, row.name, row.status) for row in t.standings()}


def test_games_formats_and_modes_are_shown_by_name_and_read_back() -> None:
    for name in rules.game_names():
        words = game_words(name)
        assert words == rules.game_class(name).title and words != name
    assert game_words("no-such-game") == "no-such-game"
    shown = [*FORMATS.values(), *MODES.values()]
    assert not any("-" in w for w in shown)  # no engine names such as "every-eye"
    for named in (FORMATS, MODES):
        for key, words in named.items():
            assert engine_name(words, named) == key


@pytest.mark.parametrize(("numbers", "said"), [((2,), "table 2"), ((1, 3), "tables 1 and 3"),
                                               ((1, 2, 4), "tables 1, 2 and 4")])
def test_tables_in_words(numbers: tuple[int, ...], said: str) -> None:
    assert tables_words(numbers) == said


def test_a_round_from_its_draw_to_its_last_result() -> None:
    t = Tournament.new("Cup", {"game": "dice-forge", "table-size": 2, "rounds": 2}, seed=1)
    for name in ("Ana", "Ben", "Cy", "Dee", "Eli"):
        t.add_entrant(name)
    assert round_words(t) == "No round drawn yet."
    assert set(statuses(t).values()) == {"entered"}
    r = t.draw_next()
    assert len(r.tables) == 2 and len(r.byes) == 1
    first, second = r.tables
    said = statuses(t)
    assert said[r.byes[0]] == "bye"
    assert {said[n] for n in first.seats} == {f"at table {first.number}"}
    assert round_words(t) == f"Round 1 (group round): waiting for tables {first.number} and " \
                             f"{second.number}."
    t.report(1, first.number, tuple((n,) for n in first.seats), "director", "1")
    said = statuses(t)
    assert {said[n] for n in first.seats} == {"result in"}
    assert {said[n] for n in second.seats} == {f"at table {second.number}"}
    assert round_words(t) == f"Round 1 (group round): waiting for table {second.number}."
    t.report(1, second.number, tuple((n,) for n in second.seats), "director", "2")
    # the last result: nobody reads as playing, the round says every result is in
    assert set(statuses(t).values()) == {"round 1 done"}
    assert round_words(t) == "Round 1 (group round): every result is in. Next: draw round 2."


def test_two_results_that_disagree_are_said_until_settled() -> None:
    t = Tournament.new("Cup", {"game": "dice-forge", "table-size": 2, "rounds": 1}, seed=2)
    for name in ("Ana", "Ben"):
        t.add_entrant(name)
    r = t.draw_next()
    seats = r.tables[0].seats
    t.report(1, 1, tuple((n,) for n in seats), "table-1", "a")
    t.report(1, 1, tuple((n,) for n in reversed(seats)), "director", "b")
    assert t.conflicts()
    assert round_words(t) == "Round 1 (group round): results disagree at table 1: settle it."
    assert set(statuses(t).values()) == {"settle table 1"}


def test_a_finished_tournament_names_its_winner() -> None:
    t = Tournament.new("Cup", {"game": "dice-forge", "table-size": 2, "rounds": 1,
                               "final-size": 2}, seed=3)
    for name in ("Ana", "Ben"):
        t.add_entrant(name)
    for _ in range(4):
        if t.is_over:
            break
        r = t.draw_next()
        for tb in r.tables:
            t.report(r.number, tb.number, tuple((n,) for n in tb.seats), "director",
                     f"{r.number}/{tb.number}")
    assert t.is_over
    said = round_words(t)
    assert "every result is in" in said and f"Over: {t.winner()} wins." in said
    assert "playing" not in statuses(t).values()
