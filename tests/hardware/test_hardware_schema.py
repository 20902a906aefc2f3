"""Settings tables declared as msgspec schemas: every refusal names the key (its path, for a
key inside a list or a table) and what was wrong, in the reader's words."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec
import pytest

from hardware.errors import ConfigError
from hardware.schema import checked


class Zone(msgspec.Struct, forbid_unknown_fields=True):
    name: Annotated[str, msgspec.Meta(min_length=1, description="a name, not empty")]
    corners: list[tuple[int, int]]


class Table(msgspec.Struct, forbid_unknown_fields=True):
    mode: Literal["fast", "careful"] = "fast"
    gain: Annotated[float, msgspec.Meta(gt=0, le=8)] | None = None
    zones: list[Zone] = []


@pytest.mark.parametrize(("data", "message"), [
    ({"mdoe": "fast"}, "[table] mdoe: unknown setting; known: gain, mode, zones"),
    ({"mode": "slow"}, "[table] mode: 'slow' is not a choice; choose one of fast, careful"),
    ({"gain": 0}, "[table] gain: must be > 0.0, got 0"),
    ({"gain": "2"}, "[table] gain: expected a number, got '2'"),
    ({"gain": True}, "[table] gain: expected a number, got True"),
    ({"zones": [{"name": "a", "corners": []}, {"name": "b", "corners": [[1, 2, 3]]}]},
     "[table] zones[1].corners[0]: expected a list of 2, got [1, 2, 3]"),
    ({"zones": [{"name": "", "corners": []}]},
     "[table] zones[0].name: must be a name, not empty, got ''"),
    ({"zones": [{"name": "a", "corners": [], "colour": "red"}]},
     "[table] zones[0].colour: unknown setting; known: corners, name"),
    ({"zones": [{"corners": []}]}, "[table] zones[0].name: missing"),
    (["mode"], "[table]: expected a table, got ['mode']"),
])
def test_a_refusal_names_the_key_and_what_was_wrong(data: object, message: str) -> None:
    with pytest.raises(ConfigError) as refused:
        checked(data, Table, "[table]", ConfigError)
    assert str(refused.value) == message


def test_a_sound_table_is_read_as_declared() -> None:
    table = checked({"mode": "careful", "gain": 2, "zones": [{"name": "a", "corners": [[1, 2]]}]},
                    Table, "[table]", ConfigError)
    assert table == Table("careful", 2.0, [Zone("a", [(1, 2)])])
