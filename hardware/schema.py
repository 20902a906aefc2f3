"""Settings tables declared once as schemas, read strictly, with errors that name the key.

A table of a settings or config file is declared as a :class:`msgspec.Struct` (each key's
type, its bounds as :class:`msgspec.Meta`, its choices as a ``Literal``, no unknown key:
``forbid_unknown_fields``). :func:`checked` converts a parsed table to it and says what was
wrong in the words of the file's reader: where (the file or the table, e.g. ``[camera]``),
the key, and what was wrong: the known keys for an unknown one, the choices, the kind of value
expected, the bound, and the value that was given.

Here, below every package that reads settings (the hardware's config tables, the companion's
settings file), because each of those may import ``hardware``.
"""

from __future__ import annotations

import re
import types
import typing
from typing import Any, TypeVar

import msgspec

T = TypeVar("T")

#: msgspec's names of the kinds of value, in a player's words.
KINDS = {"float": "a number", "int": "a whole number", "str": "text", "bool": "true or false",
         "array": "a list", "object": "a table", "null": "nothing"}

#: A step of msgspec's path: ``.key``, ``[index]``, or ``[...]`` (a key of a dict, unnamed).
_PATH_PART = re.compile(r"\.([^.\[]+)|\[(\d+|\.\.\.)\]")


def checked(data: Any, schema: type[T], where: str,
            error: type[Exception] = ValueError) -> T:
    """``data`` (a parsed TOML or JSON table) as ``schema``. Raised when ...: ``error`` with
    :func:`describe`'s words for the first thing that is wrong."""
    try:
        return msgspec.convert(data, schema, strict=True)
    except msgspec.ValidationError as e:
        raise error(describe(e, data, schema, where)) from None


def describe(e: msgspec.ValidationError, data: Any, schema: type[Any], where: str) -> str:
    """``<where> <key>: <what was wrong>``, e.g. ``[camera] fsp: unknown setting; known:
    fps, height, ...`` or ``[audio] volume: must be <= 1, got 2``."""
    message, found, at = str(e).rpartition(" - at `")
    if not found:
        message, at = str(e), "$`"
    parts: list[str | int] = [name or (int(index) if index.isdigit() else "[...]")
                              for name, index in _PATH_PART.findall(at.rstrip("`")[1:])]
    value, declared = _follow(data, schema, parts)
    kind = _unwrap(declared)
    unknown = re.fullmatch(r"Object contains unknown field `(.+)`", message)
    if unknown:
        known = sorted(getattr(kind, "__struct_fields__", ()))
        return (f"{_name(where, [*parts, unknown[1]])}: unknown setting; known: "
                + ", ".join(known))
    if message.startswith("Invalid enum value"):
        choices = [str(c) for c in _choices(kind)]
        return f"{_name(where, parts)}: {_shown(value)} is not a choice; choose one of " \
               + ", ".join(choices)
    if message.startswith("Object missing required field"):
        missing = message.split("`")[1]
        return f"{_name(where, [*parts, missing])}: missing"
    length = re.fullmatch(r"Expected `array` of length (\d+)(?:, got \d+)?", message)
    if length:
        return f"{_name(where, parts)}: expected a list of {length[1]}, got {_shown(value)}"
    bound = re.fullmatch(r"Expected `[^`]+` (.+)", message)
    if bound:  # the bound in the schema's own words when it has them (Meta's description)
        said = _description(declared) or bound[1]
        return f"{_name(where, parts)}: must be {said}, got {_shown(value)}"
    expected = re.fullmatch(r"Expected `([^`]+)`, got `[^`]+`", message)
    if expected:
        names = [k for k in expected[1].split(" | ") if k != "null"]
        if "float" in names and "int" in names:  # a whole number is a number
            names.remove("int")
        kinds = [KINDS.get(k, k) for k in names]
        return f"{_name(where, parts)}: expected {' or '.join(kinds)}, got {_shown(value)}"
    return f"{_name(where, parts)}: {message}"


def _name(where: str, parts: list[str | int]) -> str:
    """``[camera]`` and ``["main_size", 1]`` -> ``[camera] main_size[1]``."""
    key = ""
    for part in parts:
        if isinstance(part, int) or part == "[...]":  # (msgspec does not name a dict's key)
            key += f"[{part}]" if isinstance(part, int) else part
        else:
            key += f".{part}" if key else part
    return f"{where} {key}".strip() if key else where


def _follow(data: Any, schema: Any, parts: list[str | int]) -> tuple[Any, Any]:
    """The value given at ``parts`` (None when not there) and the schema type there."""
    value, kind = data, schema
    for part in parts:
        kind = _inner(kind, part)
        try:
            value = value[part]
        except (KeyError, IndexError, TypeError):
            value = None
    return value, kind


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _description(kind: Any) -> str:
    """The ``description`` of the :class:`msgspec.Meta` on a type (``X | None`` too)."""
    if typing.get_origin(kind) in (typing.Union, types.UnionType):
        return next(filter(None, map(_description, typing.get_args(kind))), "")
    if typing.get_origin(kind) is typing.Annotated:
        for meta in typing.get_args(kind)[1:]:
            if isinstance(meta, msgspec.Meta) and meta.description:
                return meta.description
    return ""


def _unwrap(kind: Any) -> Any:
    """The type inside ``Annotated[...]`` and ``X | None``."""
    while True:
        origin = typing.get_origin(kind)
        if origin is typing.Annotated:
            kind = typing.get_args(kind)[0]
        elif origin in (typing.Union, types.UnionType):
            args = [a for a in typing.get_args(kind)
                    if a not in (type(None), msgspec.UnsetType)]
            if len(args) != 1:
                return kind
            kind = args[0]
        else:
            return kind


def _inner(kind: Any, part: str | int) -> Any:
    kind = _unwrap(kind)
    if isinstance(part, str):
        hints = typing.get_type_hints(kind, include_extras=True) if isinstance(kind, type) \
            else {}
        if part in hints:
            return hints[part]
        args = typing.get_args(kind)  # dict[str, X]
        return args[1] if len(args) == 2 else Any
    args = typing.get_args(kind)  # tuple[X, Y] or list[X]
    if not args:
        return Any
    return args[part] if len(args) > part and args[-1] is not Ellipsis else args[0]


def _choices(kind: Any) -> tuple[Any, ...]:
    kind = _unwrap(kind)
    return typing.get_args(kind) if typing.get_origin(kind) is typing.Literal else ()


__all__ = ["KINDS", "checked", "describe"]
