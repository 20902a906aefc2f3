"""The styled widgets are typed (issue 43, item 5): ``companion.widgets.w`` is overloaded on
the names of app.kv's classes, so a screen's ``w("TButton")`` is a ``FitButton`` to mypy
strict, not ``Any``. These tests hold the typing to app.kv: every styled class it defines can
be made by name, and each name is built, through app.kv's chain of bases, on the Python class
its overload says (a rule moved onto another base would make the typing lie)."""

from __future__ import annotations

import re

import pytest

from companion import widgets
from companion.widgets import KINDS, KV

#: app.kv's classes made by other classes, never by a screen (a spinner's own options).
INNER = {"TSpinnerOption"}


def kv_rules() -> dict[str, str | None]:
    """app.kv's classes -> the class each is built on (None: a Python class of that name)."""
    text = KV.read_text(encoding="utf-8")
    return {m[1]: m[2] or None for m in re.finditer(r"^<(\w+)(?:@(\w+))?>:", text, re.M)}


def python_class(name: str) -> type:
    """The Python class ``name`` is built on, following app.kv's ``Name@Base`` chain."""
    rules = kv_rules()
    seen = []
    while rules.get(name) is not None:
        seen.append(name)
        assert len(seen) < 10, f"a loop of bases: {seen}"
        name = str(rules[name])
    found = getattr(widgets, name, None)
    assert isinstance(found, type), f"{name} is no class of companion.widgets"
    return found


def test_every_styled_class_of_app_kv_is_typed() -> None:
    made = set(kv_rules()) - INNER
    assert made, "no class read from app.kv"
    assert made <= set(KINDS), sorted(made - set(KINDS))


@pytest.mark.parametrize("name", sorted(KINDS))
def test_each_name_is_built_on_the_class_its_type_says(name: str) -> None:
    assert issubclass(python_class(name), KINDS[name]), (name, python_class(name))


def test_a_base_other_than_the_typed_one_is_found() -> None:
    """The check itself: TLabel typed as a button would be caught."""
    assert not issubclass(python_class("TLabel"), KINDS["TButton"])
