"""Rules help for players: each game says what you are trying to do, a turn or round in order,
every call with an example the app takes (each parsed here by the game's own rules), and the
table's rulings; no file paths, markdown, code or engine notes."""

from __future__ import annotations

import re

import pytest

import rules
from companion.games import plugins
from companion.rulehelp import HELP, help_text

#: Players for each game's examples (names the examples use; Eye for an Eye's are characters).
SEATS = {"eye-for-an-eye": ("Ana", "Ben", "Cy"), "occulites": ("Ana", "Ben", "Cy"),
         "dice-ocalypse": ("Ana", "Ben", "Cy", "Dee"), "dice-forge": ("Ana", "Ben"),
         "tribal-village": ("Maya", "Leo", "Shae")}
OPTIONS = {"occulites": {"creatures": True}}


def test_every_game_of_the_app_has_help() -> None:
    assert set(HELP) == set(plugins())


@pytest.mark.parametrize("game", sorted(HELP))
def test_every_example_is_a_call_the_game_takes(game: str) -> None:
    played = rules.new_game(game, list(SEATS[game]), options=OPTIONS.get(game, {}), seed=1)
    for what, example in HELP[game].calls:
        call = played.parse(example)  # raises for words the game does not take
        assert call.text().casefold() == example.casefold(), (what, example, call.text())


@pytest.mark.parametrize("game", sorted(HELP))
def test_help_is_for_players(game: str) -> None:
    found = HELP[game]
    text = help_text(game, rules.game_class(game).title)
    assert found.goal and len(found.turn) >= 3 and found.calls and found.rulings
    for heading in ("What you are trying to do", "in order", "Calls", "How this table rules"):
        assert heading in text
    plain = re.sub(r"\[/?[bi]\]", "", text)  # the app's own bold and italics
    for bad in ("../", "shared/", ".md", ".py", ".toml", "`", "**", "](", "##", "rules/",
                "option ", "engine", "issue"):
        assert bad not in plain, (game, bad)
    for ruling in found.rulings:  # a sentence each
        assert ruling.endswith(".") and ruling.count(". ") == 0, ruling


def test_the_rules_docs_no_longer_point_at_a_folder_users_do_not_have() -> None:
    from pathlib import Path

    docs = Path(__file__).resolve().parents[2] / "docs" / "rules"
    for page in docs.glob("*.md"):
        assert "../shared" not in page.read_text(encoding="utf-8"), page.name
