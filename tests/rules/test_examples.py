"""The example game files in examples/: each replays to its end, and every call in it is also
read when said the way players say it (any case, number words, loose spacing and punctuation,
no "WHO:" where only one player can make the call)."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

import rules
from rules.core import NUMBER_WORDS

EXAMPLES = Path(__file__).parents[2] / "examples"
FILES = sorted(EXAMPLES.glob("*.game"))
WORDS = {n: w for w, n in NUMBER_WORDS.items()}
WINNERS = {"eye-for-an-eye-round.game": "Ben", "occulites.game": "Ana",
           "dice-ocalypse.game": "Ben", "dice-forge.game": "Ana",
           "tribal-village.game": "Shae"}


def test_there_is_an_example_for_every_game() -> None:
    games = {rules.parse_game_file(f.read_text()).setup.game for f in FILES}
    assert games == set(rules.game_names())
    assert {f.name for f in FILES} == set(WINNERS)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_example_replays_to_its_end(path: Path) -> None:
    game = rules.parse_game_file(path.read_text(), path.name).play(path.name)
    standings = game.standings()
    assert standings.winner == WINNERS[path.name]
    assert game.is_over and standings.is_over


def _words(text: str) -> str:
    return re.sub(r"\b(\d{1,2})\b",
                  lambda m: WORDS.get(int(m[1]), m[1]).capitalize(), text)


def _loose(text: str) -> str:
    text = text.replace(":", " :", 1).replace(", ", " ,", 1).replace(" ", "  ", 2)
    return f"  {text}. "


SPELLINGS: dict[str, Callable[[str], str]] = {
    "lower case": str.lower,
    "upper case": str.upper,
    "number words": _words,
    "loose spacing and a full stop": _loose,
    "all at once": lambda t: _loose(_words(t)).lower(),
}


@pytest.mark.parametrize("spelling", SPELLINGS)
@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_every_call_in_several_spellings(path: Path, spelling: str) -> None:
    parsed = rules.parse_game_file(path.read_text(), path.name)
    plain = parsed.play(path.name)
    said = [rules.Entry(SPELLINGS[spelling](e.call), e.at) for e in parsed.entries]
    assert said != list(parsed.entries) or spelling == "number words"
    again = rules.replay(parsed.setup, said)
    assert [e.call for e in again.history] == [e.call for e in plain.history]
    assert again.snapshot() == plain.snapshot()


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_calls_without_who_are_read_as_the_one_who_could_say_them(path: Path) -> None:
    """Said without "WHO:", a call is either read as the same player's call or refused with a
    request to say who; it is never taken as another player's call."""
    parsed = rules.parse_game_file(path.read_text(), path.name)
    game = rules.from_setup(parsed.setup)
    inferred = asked = 0
    for entry in parsed.entries:
        who, colon, rest = entry.call.partition(": ")
        if colon and who in game.speakers():
            try:
                call = game.parse(rest)
            except rules.InvalidCall as e:
                assert "say who" in str(e) or "not a call" in str(e), str(e)
                asked += 1
            else:
                assert call == game.parse(entry.call)
                inferred += 1
        game.apply(entry.call, entry.at)
    assert inferred > 0
    assert inferred + asked > 0
