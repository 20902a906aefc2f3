"""One model contract for the five games (issue 43, item 1): each game's model is a
:class:`companion.contract.GameModel` named ``<Game>Model`` whose ``view()`` answers a
``<Game>View``; none listens to the session itself (its host hands it every change before the
screen draws)."""

from __future__ import annotations

import ast
import importlib
import typing
from pathlib import Path

import pytest

from companion.contract import GameModel

GAMES = Path(__file__).resolve().parents[3] / "companion" / "games"
#: game folder -> (its model, its view), by name.
MODELS = {
    "eye_for_an_eye": ("EyeForAnEyeModel", "EyeForAnEyeView"),
    "occulites": ("OcculitesModel", "OcculitesView"),
    "diceocalypse": ("DiceocalypseModel", "DiceocalypseView"),
    "dice_forge": ("DiceForgeModel", "DiceForgeView"),
    "tribal_village": ("TribalVillageModel", "TribalVillageView"),
}


def test_every_game_folder_is_named() -> None:
    folders = {p.parent.name for p in GAMES.glob("*/__init__.py")}
    assert folders == set(MODELS)


@pytest.mark.parametrize("game", sorted(MODELS))
def test_each_model_is_a_game_model_whose_view_is_its_view(game: str) -> None:
    model_name, view_name = MODELS[game]
    model = getattr(importlib.import_module(f"companion.games.{game}.model"), model_name)
    assert issubclass(model, GameModel), f"{model_name} lacks on_session or view"
    hints = typing.get_type_hints(model.view)
    assert hints["return"].__name__ == view_name


def subscriptions(source: str) -> list[int]:
    """The lines where ``source`` subscribes something to a session."""
    return [node.lineno for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr == "subscribe"]


def test_no_game_listens_to_the_session_itself() -> None:
    files = sorted(GAMES.rglob("*.py"))
    found = {str(f.relative_to(GAMES)): lines for f in files
             if (lines := subscriptions(f.read_text(encoding="utf-8")))}
    assert found == {}, "a game's host hands its model the session's changes"


def test_the_check_finds_a_subscription() -> None:
    assert subscriptions("def f(self):\n    self.session.subscribe(self._changed)\n") == [2]
    assert subscriptions("self.on_session(change)") == []
