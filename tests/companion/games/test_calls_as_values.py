"""Calls travel as values (issue 43): no game's model or adapter builds a call's words for the
session to parse again. The session takes the engine's own call objects; their words are
made once, by the engine, for the journal.

Checked two ways: every game's code is read (the syntax tree) for a call handed to the
session, or to a model's own sending method, as text (a string, an f-string, ``str(...)`` or
``....text()``); and the sending methods are typed to take a :class:`rules.Call` (mypy strict
sees a string passed to them).
"""

from __future__ import annotations

import ast
import inspect
import typing
from pathlib import Path

import pytest

from companion.games.dice_forge.model import DiceForgeModel
from companion.games.diceocalypse.model import DiceocalypseModel
from companion.games.tribal_village.model import TribalVillageModel
from rules import Call

GAMES = Path(__file__).resolve().parents[3] / "companion" / "games"
#: The methods a model hands a call to (the session's, and the models' own).
SENDERS = {"try_call", "call", "send", "_call", "perform"}


def text_arguments(source: str, filename: str) -> list[str]:
    """Each place in ``source`` where a sender gets text: 'file:line: sender(argument)'."""
    found = []
    for node in ast.walk(ast.parse(source, filename)):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr in SENDERS and node.args):
            continue
        arg = node.args[0]
        as_text = (isinstance(arg, ast.JoinedStr)
                   or (isinstance(arg, ast.Constant) and isinstance(arg.value, str))
                   or (isinstance(arg, ast.Call) and isinstance(arg.func, ast.Name)
                       and arg.func.id == "str")
                   or (isinstance(arg, ast.Call) and isinstance(arg.func, ast.Attribute)
                       and arg.func.attr == "text")
                   or (isinstance(arg, ast.Attribute) and arg.attr == "text"))
        if as_text:
            found.append(f"{filename}:{node.lineno}: {node.func.attr}({ast.unparse(arg)})")
    return found


def test_no_game_hands_the_session_a_calls_words() -> None:
    files = sorted(GAMES.rglob("*.py"))
    assert len(files) > 20  # every game's model, adapter, screen and plugin
    found = [hit for f in files
             for hit in text_arguments(f.read_text(encoding="utf-8"), str(f.relative_to(GAMES)))]
    assert found == [], "calls built as text:\n" + "\n".join(found)


@pytest.mark.parametrize("source", [
    'self.session.try_call(f"{who}: Pass")',
    'self.send(str(Keep(player, kept)))',
    'self._call(Chaos(who).text())',
    'self.session.try_call("Reveal")',
    'session.call(board_call.text)',
])
def test_the_check_finds_text_handed_to_a_sender(source: str) -> None:
    assert len(text_arguments(source, "example.py")) == 1


def test_a_call_value_is_not_text() -> None:
    assert text_arguments("self.session.try_call(Pass(who))\nself.send(call)", "x.py") == []


@pytest.mark.parametrize(("model", "method"), [
    (DiceocalypseModel, "send"), (DiceForgeModel, "call"), (TribalVillageModel, "_call"),
])
def test_the_models_sending_methods_take_a_call(model: type, method: str) -> None:
    function = getattr(model, method)
    first = next(p for p in inspect.signature(function).parameters if p != "self")
    assert typing.get_type_hints(function)[first] is Call
