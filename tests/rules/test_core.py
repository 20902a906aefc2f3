"""The rules core on a tiny game defined here: options, undo/redo, replay, game files, errors."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Literal

import pytest

import rules
from rules import Call, Event, Game, IllegalCall, InvalidCall, SetupError, Standings
from rules.core import format_time, normalise_time, options_from_mapping, parse_time
from rules.registry import _EXTRA


@dataclass(frozen=True)
class Add(Call):
    player: str
    n: int

    def text(self) -> str:
        return f"{self.player}: Add {self.n}"


@dataclass
class CountState:
    totals: dict[str, int]
    rng: random.Random
    bonus: list[int] = field(default_factory=list)


@dataclass(frozen=True)
class CountOptions:
    target: int = 10
    style: Literal["plain", "fancy"] = "plain"


class Count(Game[CountState]):
    """Players add 1-3 to their total; the first to reach the target wins."""

    name = "count-test"
    title = "Count"
    min_players = 1
    max_players = 3
    Options = CountOptions

    def initial_state(self, rng: random.Random) -> CountState:
        return CountState({p: 0 for p in self.setup.players}, rng)

    def parse(self, text: str) -> Call:
        who, _, rest = text.partition(":")
        words = rest.split()
        if len(words) != 2 or words[0] != "Add" or not words[1].isdigit():
            raise InvalidCall(f"{text!r}: expected 'NAME: Add N'")
        if who not in self.setup.players:
            raise InvalidCall(f"{text!r}: no player called {who!r}")
        return Add(who, int(words[1]))

    def _apply(self, state: CountState, call: Call, at: float | None) -> list[Event]:
        assert isinstance(call, Add)
        state.bonus.append(state.rng.randint(0, 9))  # touch the state before validating
        if not 1 <= call.n <= 3:
            raise IllegalCall(f"{call}: add 1 to 3, not {call.n}")
        state.totals[call.player] += call.n
        return [Event("add", str(call))]

    @property
    def is_over(self) -> bool:
        return max(self.state.totals.values()) >= self.options.target

    def legal_calls(self) -> list[Call]:
        if self.is_over:
            return []
        return [Add(p, n) for p in self.setup.players for n in (1, 2, 3)]

    def standings(self) -> Standings:
        rows = tuple((p, str(t)) for p, t in self.state.totals.items())
        best = max(self.state.totals, key=lambda p: self.state.totals[p])
        return Standings(("player", "total"), rows, best if self.is_over else None, self.is_over)


@pytest.fixture
def registered() -> Iterator[None]:
    rules.register(Count)
    yield
    del _EXTRA[Count.name]


def test_illegal_call_leaves_state_even_after_touching_it(registered: None) -> None:
    game = rules.new_game("count-test", ["Ana", "Ben"], seed=3)
    game.apply("Ana: Add 2")
    before = game.snapshot()
    with pytest.raises(IllegalCall, match=r"Ana: Add 7: add 1 to 3, not 7"):
        game.apply("Ana: Add 7")
    assert game.snapshot() == before
    assert len(game.history) == 1


def test_undo_redo_and_new_call_clears_redo(registered: None) -> None:
    game = rules.new_game("count-test", ["Ana", "Ben"], seed=3)
    s0 = game.snapshot()
    game.apply("Ana: Add 2", at=1.5)
    s1 = game.snapshot()
    assert game.undo().call == "Ana: Add 2"
    assert game.snapshot() == s0
    assert game.redo().at == 1.5
    assert game.snapshot() == s1
    game.undo()
    game.apply("Ben: Add 1")
    assert not game.can_redo
    with pytest.raises(IllegalCall, match="redo: nothing to redo"):
        game.redo()
    game.undo()
    with pytest.raises(IllegalCall, match="undo: nothing to undo"):
        game.undo()


def test_replay_equals_live_including_rng(registered: None) -> None:
    game = rules.new_game("count-test", ["Ana", "Ben"], seed=11)
    for text in ["Ana: Add 3", "Ben: Add 1", "Ana: Add 2"]:
        game.apply(text, at=2.0)
    again = rules.replay(game.setup, game.history)
    assert again.snapshot() == game.snapshot()
    other_seed = rules.replay(rules.Setup("count-test", ("Ana", "Ben"), {}, 12), game.history)
    assert other_seed.snapshot() != game.snapshot()


def test_replay_error_names_the_call(registered: None) -> None:
    setup = rules.Setup("count-test", ("Ana", "Ben"))
    with pytest.raises(rules.ReplayError, match=r"call 2 \('Ben: Add 9'\): Ben: Add 9: add 1 to 3"):
        rules.replay(setup, ["Ana: Add 1", "Ben: Add 9"])


def test_finished_game_takes_no_calls(registered: None) -> None:
    game = rules.new_game("count-test", ["Ana"], options={"target": 3})
    game.apply("Ana: Add 3")
    assert game.is_over
    with pytest.raises(IllegalCall, match="the game is over"):
        game.apply("Ana: Add 1")


def test_options_are_strict() -> None:
    assert options_from_mapping(CountOptions, {"target": 5}).target == 5
    with pytest.raises(SetupError, match=r"unknown option 'targte'; known options: target, style"):
        options_from_mapping(CountOptions, {"targte": 5})
    with pytest.raises(SetupError, match=r"option target='5': must be a whole number"):
        options_from_mapping(CountOptions, {"target": "5"})
    with pytest.raises(SetupError, match=r"option style='gaudy': choose one of 'plain', 'fancy'"):
        options_from_mapping(CountOptions, {"style": "gaudy"})


def test_setup_errors(registered: None) -> None:
    with pytest.raises(SetupError, match="unknown game 'chess'"):
        rules.new_game("chess", ["A", "B"])
    with pytest.raises(SetupError, match="Count takes 1 to 3 players, got 4"):
        rules.new_game("count-test", ["A", "B", "C", "D"])
    with pytest.raises(SetupError, match="player names must differ"):
        rules.new_game("count-test", ["Ana", "ana"])
    with pytest.raises(SetupError, match="must not contain ':'"):
        rules.new_game("count-test", ["A:B"])


def test_times() -> None:
    assert normalise_time(1.23456) == 1.235
    assert format_time(62.5) == "1:02.500"
    assert parse_time("1:02.500") == 62.5
    assert parse_time("7.25") == 7.25
    for t in [0.001, 59.999, 61.301, 3599.123]:
        assert parse_time(format_time(t)) == normalise_time(t)
    with pytest.raises(InvalidCall, match="time 'soon'"):
        parse_time("soon")
    with pytest.raises(InvalidCall, match="must be a finite number"):
        normalise_time(-1.0)


def test_game_file_errors_name_the_line(registered: None) -> None:
    text = ('game = "count-test"\nplayers = ["Ana", "Ben"]\n---\n'
            "# a comment\n[0:01.000] Ana: Add 2\n\nBen: Add 5\n")
    parsed = rules.parse_game_file(text, "night.game")
    assert parsed.lines == (5, 7)
    with pytest.raises(rules.GameFileError,
                       match=r"night.game, line 7: Ben: Add 5: add 1 to 3"):
        parsed.play("night.game")
    with pytest.raises(rules.GameFileError, match="no '---' line"):
        rules.parse_game_file('game = "count-test"\n')
    with pytest.raises(rules.GameFileError, match="setup is not valid TOML"):
        rules.parse_game_file("game = \n---\n")
    with pytest.raises(rules.GameFileError, match=r"line 4: time 'x1'"):
        rules.parse_game_file('game = "count-test"\nplayers = ["A"]\n---\n[x1] A: Add 1\n')
    with pytest.raises(rules.GameFileError, match=r"unknown keys \['colour'\]"):
        rules.parse_game_file('game = "count-test"\nplayers = ["A"]\ncolour = 1\n---\n')


def test_game_file_round_trip_with_options(registered: None) -> None:
    game = rules.new_game("count-test", ["Ana", "Ben"], options={"style": "fancy"}, seed=5)
    game.apply("Ana: Add 1", at=0.5)
    game.apply("Ben: Add 3")
    text = rules.format_game_file(game.setup, game.history, "two calls")
    assert text.startswith("# two calls\n")
    assert "[0:00.500] Ana: Add 1\nBen: Add 3\n" in text
    assert rules.parse_game_file(text).play().snapshot() == game.snapshot()


def test_standings_format() -> None:
    s = Standings(("player", "cup"), (("Ana", "12"), ("Benedict", "3")), "Ana", True)
    assert s.format().splitlines() == ["player    cup", "--------  ---", "Ana       12",
                                       "Benedict  3", "Winner: Ana"]
    assert s.to_json()["rows"][1] == {"player": "Benedict", "cup": "3"}


def test_check_and_is_legal_change_nothing(registered: None) -> None:
    game = rules.new_game("count-test", ["Ana", "Ben"], seed=3)
    before = game.snapshot()
    assert game.is_legal("Ana: Add 2")
    assert not game.is_legal("Ana: Add 9")
    assert not game.is_legal("gibberish")
    assert game.check("Ben: Add 1") == Add("Ben", 1)
    with pytest.raises(IllegalCall, match="add 1 to 3, not 9"):
        game.check("Ana: Add 9")
    assert game.snapshot() == before and game.history == ()
