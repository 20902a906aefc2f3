"""Result and profile types: validation messages and plain-JSON round trips."""

from __future__ import annotations

import json

import numpy as np
import pytest

from vision import (
    DEFAULT_PALETTE,
    ColourModel,
    Die,
    FaceSet,
    Palette,
    Profile,
    Reading,
    ReadWarning,
    TableRegion,
    WarningKind,
)
from vision.types import HAND_IN_VIEW


def _die(**kw: object) -> Die:
    base: dict[str, object] = dict(center=(10.0, 20.0),
                                   corners=((0.0, 0.0), (20.0, 0.0), (20.0, 20.0), (0.0, 20.0)),
                                   angle=0.0, size=20.0, value=3, face="3", colour="red",
                                   confidence=0.9)
    base.update(kw)
    return Die(**base)  # type: ignore[arg-type]


def test_die_round_trip() -> None:
    d = _die()
    assert Die.from_dict(json.loads(json.dumps(d.to_dict()))) == d


@pytest.mark.parametrize(("kw", "msg"), [
    ({"value": 7}, "Die.value must be 1..6"),
    ({"value": True}, "Die.value must be 1..6"),
    ({"confidence": 1.5}, "Die.confidence must be within 0..1"),
    ({"size": 0.0}, "Die.size must be a positive"),
    ({"center": (1.0,)}, r"Die.center must be an \(x, y\) tuple"),
    ({"corners": ((0.0, 0.0),)}, "Die.corners must be a tuple of 4 points"),
    ({"face": "4"}, "disagrees with Die.value"),
    ({"colour": ""}, "Die.colour must be a non-empty string"),
])
def test_die_rejects_bad_fields(kw: dict[str, object], msg: str) -> None:
    with pytest.raises(ValueError, match=msg):
        _die(**kw)


def test_uncertain_die_and_reading() -> None:
    d = _die(value=None, face=None, confidence=0.1)
    r = Reading(dice=(_die(), d), frame_shape=(480, 640))
    assert r.values() == (3, None)
    assert r.uncertain == (d,)
    assert Reading.from_dict(json.loads(json.dumps(r.to_dict()))) == r


def test_reading_empty_and_validation() -> None:
    black = ReadWarning(WarningKind.UNREADABLE_FRAME, "frame is all black")
    e = Reading.empty((10, 20), black)
    assert e.dice == () and e.warnings == (black,) and e.frame_shape == (10, 20)
    assert Reading.empty().warnings == ()
    with pytest.raises(ValueError, match="frame_shape"):
        Reading(dice=(), frame_shape=(1, 2, 3))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="tuple of Die"):
        Reading(dice=[_die()], frame_shape=(1, 2))  # type: ignore[arg-type]


def test_warnings_are_typed() -> None:
    """A reading's warnings say their kind as a type, not as a prefix of their words: code
    asks ``warned(kind)``; the words are for people; a bare string is refused."""
    r = Reading(dice=(_die(),), frame_shape=(480, 640), warnings=(HAND_IN_VIEW,))
    assert r.warned(WarningKind.OCCLUSION) and not r.warned(WarningKind.UNREADABLE_FRAME)
    assert str(HAND_IN_VIEW) == HAND_IN_VIEW.text and "hand" in HAND_IN_VIEW.text
    plain = json.loads(json.dumps(r.to_dict()))
    assert plain["warnings"] == [{"kind": "occlusion", "text": HAND_IN_VIEW.text}]
    assert Reading.from_dict(plain) == r
    with pytest.raises(ValueError, match="tuple of ReadWarning"):
        Reading(dice=(), frame_shape=(1, 2), warnings=("occlusion: a hand",))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="warning kind must be one of"):
        Reading.from_dict({**plain, "warnings": [{"kind": "glare", "text": "too bright"}]})
    with pytest.raises(ValueError, match="a reading's warning must be"):
        Reading.from_dict({**plain, "warnings": ["occlusion: a hand"]})
    with pytest.raises(ValueError, match=r"ReadWarning\.kind must be a WarningKind"):
        ReadWarning("occlusion", "a hand")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"ReadWarning\.text must be a non-empty string"):
        ReadWarning(WarningKind.OCCLUSION, "")


def test_palette_names_rulebook_colours() -> None:
    for name in ("green", "blue", "pink", "black", "yellow", "red", "purple", "orange", "white",
                 "gold", "grey", "marbled"):
        assert name in DEFAULT_PALETTE.names
    assert DEFAULT_PALETTE.classify((40, 40, 200))[0] == "red"
    assert DEFAULT_PALETTE.classify((70, 160, 40))[0] == "green"
    assert DEFAULT_PALETTE.classify((230, 230, 230))[0] == "white"
    assert DEFAULT_PALETTE.classify((35, 35, 35))[0] == "black"
    tiny = Palette((ColourModel("red", (0, 0, 255), 20.0), ColourModel("blue", (255, 0, 0), 20.0)))
    assert tiny.classify((0, 255, 0)) == (None, 0.0)


def test_palette_validation() -> None:
    with pytest.raises(ValueError, match="duplicate colour names"):
        Palette((ColourModel("red", (0, 0, 255)), ColourModel("red", (0, 0, 250))))
    with pytest.raises(ValueError, match="bgr must be 3 ints"):
        ColourModel("red", (0, 0, 256))


def test_profile_round_trip() -> None:
    rng = np.random.default_rng(0)
    crops = {k: [rng.integers(0, 255, (40, 40, 3), dtype=np.uint8)] for k in ("a", "b")}
    fs = FaceSet.learn(crops, name="test")
    h = (1.0, 0.0, 5.0, 0.0, 1.0, 3.0, 0.0, 0.0, 1.0)
    p = Profile(table=TableRegion(((0, 0), (100, 0), (100, 80), (0, 80)), h, (120, 90)),
                palette=DEFAULT_PALETTE, face_sets=(fs,), die_size=30.0)
    text = json.dumps(p.to_dict())
    q = Profile.from_dict(json.loads(text))
    assert q.to_dict() == p.to_dict()
    assert q.table == p.table and q.palette == p.palette and q.die_size == 30.0
    assert q.face_sets[0].labels == ("a", "b")


def test_profile_rejects_bad_input() -> None:
    with pytest.raises(ValueError, match="profile: Object contains unknown field `tabel`"):
        Profile.from_dict({"tabel": None})
    with pytest.raises(ValueError, match=r"Expected `array` of length 3, got 2 - at "
                                         r"`\$.palette.colours\[0\].bgr`"):
        Profile.from_dict({"palette": {"colours": [{"name": "red", "bgr": [1, 2]}]}})
    with pytest.raises(ValueError, match="profile: Expected `object`, got `array`"):
        Profile.from_dict([1, 2])  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="at least 3 points"):
        TableRegion(((0, 0), (1, 1)))
    with pytest.raises(ValueError, match="singular"):
        TableRegion(((0, 0), (1, 0), (1, 1)), (0.0,) * 9, (10, 10))
    with pytest.raises(ValueError, match="table_size is required"):
        TableRegion(((0, 0), (1, 0), (1, 1)), (1, 0, 0, 0, 1, 0, 0, 0, 1))
    with pytest.raises(ValueError, match="die_size must be > 0"):
        Profile(die_size=-1.0)


def test_table_mask() -> None:
    t = TableRegion(((10, 10), (50, 10), (50, 40), (10, 40)))
    m = t.mask((60, 80))
    assert m[25, 30] == 255 and m[5, 5] == 0 and m.shape == (60, 80)
