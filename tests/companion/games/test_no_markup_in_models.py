"""No markup in models (issue 43): a game's plain-Python modules give the screen plain data
(texts, typed emphasis), and only a Kivy module beside them turns that into Kivy markup.

Every module under ``companion/games/<game>/`` that imports no Kivy is read as a syntax tree;
no string constant in it, the literal parts of f-strings included, may hold a Kivy markup tag.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

GAMES = Path(__file__).resolve().parents[3] / "companion" / "games"

#: Kivy's markup tags (kivy.core.text.markup), opening ("[b]", "[color=") or closing ("[/b]").
TAG = re.compile(r"\[/?(?:b|i|u|s|sub|sup|size|color|font|font_context|font_family"
                 r"|font_features|ref|anchor|text_language)(?:\]|=)")


def imports_kivy(tree: ast.Module) -> bool:
    """Whether the module imports Kivy anywhere (at the top or inside a function)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            if any(a.name == "kivy" or a.name.startswith("kivy.") for a in node.names):
                return True
        elif isinstance(node, ast.ImportFrom) and node.module and (
                node.module == "kivy" or node.module.startswith("kivy.")):
            return True
    return False


def markup_in(tree: ast.Module) -> list[tuple[int, str]]:
    """(line, string) of each string constant holding a markup tag; an f-string's literal
    parts are constants of its tree, so ``f"[b]{who}[/b]"`` is found by its "[b]"."""
    return sorted((node.lineno, node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str)
            and TAG.search(node.value))


def model_modules() -> list[Path]:
    found = []
    for path in sorted(GAMES.glob("*/*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        if not imports_kivy(tree):
            found.append(path)
    return found


def test_the_check_sees_the_models_and_knows_markup() -> None:
    """The walk finds the games' plain modules (not the screens), and its pattern finds a tag
    in a string constant and in an f-string, but not brackets that are no tag."""
    names = {f"{p.parent.name}/{p.name}" for p in model_modules()}
    assert {"occulites/model.py", "tribal_village/model.py", "diceocalypse/model.py",
            "dice_forge/model.py", "eye_for_an_eye/model.py"} <= names
    assert not any(n.endswith("/screen.py") for n in names)
    found = markup_in(ast.parse('x = f"[b]{who}[/b] · [color=ff0000]no[/color]"\ny = "[i]"\n'
                                'z = "[1, 2] and [index] [sizes] [b ]"\n'))
    assert sorted(found) == [(1, "[/b] · [color=ff0000]no[/color]"), (1, "[b]"), (2, "[i]")]


@pytest.mark.parametrize("path", model_modules(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_a_game_model_module_holds_no_markup(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = markup_in(tree)
    assert not found, (f"{path.relative_to(GAMES.parents[1])} imports no Kivy but writes Kivy "
                       "markup (give the screen plain data): "
                       + "; ".join(f"line {n}: {s!r}" for n, s in found))
