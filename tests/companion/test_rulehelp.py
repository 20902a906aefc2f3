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


def test_the_help_quotes_the_figures_of_the_game_being_played() -> None:
    """A Dice-ocalypse game to 2,000 (the start screen moves its Battle Zone to 1,000) is
    explained with its own figures, not the rulebook's 10,000 and 5,000; so are Occulites'
    rounds. With no game (the rules' defaults), the rulebook's."""
    short = rules.new_game("dice-ocalypse", ["Ana", "Ben"],
                           options={"target": 2000, "battle_zone_at": 1000}, seed=1)
    text = help_text("dice-ocalypse", short.title, short.options)
    assert "Score 2,000 points or more" in text and "reaches 1,000, a Battle Zone" in text
    assert "passes 2,000, everyone else has one last turn" in text
    assert "10,000" not in text and "5,000" not in text
    assert "10,000" in help_text("dice-ocalypse", short.title)
    calm = rules.new_game("dice-ocalypse", ["Ana", "Ben"],
                          options={"battle_zone": "off", "opening_minimum": 500}, seed=1)
    text = help_text("dice-ocalypse", calm.title, calm.options)
    assert "no Battle Zones" in text and "at least 500." in text and "5,000" not in text
    three = rules.new_game("occulites", ["Ana", "Ben"], options={"rounds": 3}, seed=1)
    assert "After 3 rounds" in help_text("occulites", three.title, three.options)
    assert "After 5 rounds" in help_text("occulites", three.title)
