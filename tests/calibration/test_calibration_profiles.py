"""Profiles: exact round trips, strict reading, upgrades, the store and the current pointer."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import numpy as np
import pytest
from calib_synth import face_samples

from calibration import faces, profiles
from calibration.profiles import CalibrationProfile, ProfileError
from companion import paths
from vision.profile import FACE_FEATURES, ColourModel, Palette, Profile, TableRegion


@pytest.fixture()
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("COMPANION_CONFIG_DIR", str(tmp_path / "cfg"))
    return tmp_path / "cfg"


def _full() -> CalibrationProfile:
    rng = np.random.default_rng(1)
    samples = face_samples(rng, ("attack", "heal"), 2, "eye-for-an-eye")
    fs = faces.learn(samples, "e4e")
    region = TableRegion(polygon=((10.5, 20.25), (600.0, 22.0), (590.1, 460.0), (12.0, 455.5)),
                         homography=(1.01, 0.02, -3.5, 0.001, 0.99, 2.25, 1e-05, -2e-05, 1.0),
                         table_size=(546, 402))
    palette = Palette((ColourModel("red", (40, 38, 205), 47.64),
                       ColourModel("blue", (184, 108, 26), 47.28)))
    vp = Profile(table=region, palette=palette, face_sets=(fs,), die_size=29.14)
    return CalibrationProfile(
        name="kitchen-picam", profile=vp, camera="picam v3", notes="north window",
        table=profiles.TableInfo("markers", (300.64, 220.55), 1.821, 16.0, 0.1047),
        palette=profiles.PaletteInfo(0.3, (
            profiles.ColourInfo("red", (115.0, 191.0, 169.0), (2.0, 2.965, 2.0), 5),
            profiles.ColourInfo("blue", (114.0, 133.0, 81.0), (7.413, 2.0, 2.0), 5))),
        face_sets=(profiles.FaceSetInfo("e4e", "eye-for-an-eye", {"attack": 2, "heal": 2},
                                        0.75, profiles.features_id(),
                                        faces.encode_captures(samples)),),
    )


def test_round_trip_is_exact(store: Path) -> None:
    p = _full()
    path = paths.profile_store().save(p)
    text = path.read_text(encoding="utf-8")
    back = paths.profile_store().load("kitchen-picam")
    assert back == p
    assert back.dumps() == text
    assert back.profile.face_sets[0].examples == p.profile.face_sets[0].examples
    # and through the generic from_dict
    assert profiles.from_dict(json.loads(text)) == p


def test_vision_read_command_accepts_the_file(store: Path) -> None:
    from companion.commands.read import _load_profile

    path = paths.profile_store().save(_full())
    assert _load_profile(path) == _full().profile


def _text(mutate) -> str:  # type: ignore[no-untyped-def]
    d = _full().to_dict()
    mutate(d)
    return json.dumps(d)


@pytest.mark.parametrize(("mutate", "message"), [
    (lambda d: d.update(colour="red"), r"unknown key 'colour' \(allowed here: format"),
    (lambda d: d["palette"]["colours"][1].update(hue=3),
     r"unknown key 'palette\.colours\[1\]\.hue'"),
    (lambda d: d["profile"]["table"].update(corners=[]), r"unknown key 'profile\.table\.corners'"),
    (lambda d: d["profile"]["palette"]["colours"][0].update(bgr=[1, "2", 3]),
     r"profile\.palette\.colours\[0\]\.bgr\[1\]: expected an integer, got a string"),
    (lambda d: d["table"].update(die_mm="16"), r"table\.die_mm: expected a number, got a "
                                               r"string"),
    (lambda d: d["profile"].update(die_size=True), r"profile\.die_size: expected a number, "
                                                   r"got true or false"),
    (lambda d: d["profile"]["table"].update(homography=[1.0] * 8),
     r"profile\.table\.homography: expected at least 9 items"),
    (lambda d: d.pop("camera"), r"missing key 'camera'"),
    (lambda d: d.update(format="something-else"), r"format: expected 'table-companion-profile'"),
    (lambda d: d.update(version=5), r"version 5 is newer than this companion"),
    (lambda d: d["profile"]["face_sets"][0].update(colour=1),
     r"unknown key 'profile\.face_sets\[0\]\.colour'"),
    (lambda d: d["profile"]["face_sets"][0].pop("features"),
     r"missing key 'profile\.face_sets\[0\]\.features'"),
    (lambda d: d["face_sets"][0]["captures"].update(heal=[3]),
     r"face_sets\[0\]\.captures\.heal\[0\]: expected a string, got an integer"),
    (lambda d: d["profile"]["face_sets"][0]["examples"][0][1].pop(),
     r"example 0 has 192 features, expected 193"),
    (lambda d: d.update(version="2"), r'version: expected an integer, got "2"'),
    (lambda d: d.update(name="../etc"), r"profile name '\.\./etc' is not valid"),
    (lambda d: d["profile"]["table"].update(homography=[0.0] * 9), r"homography is singular"),
    (lambda d: d["face_sets"][0].update(name="other"), r"face set info 'other' has no face set"),
])
def test_bad_content_is_named(mutate, message: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ProfileError, match=message):
        profiles.loads(_text(mutate), "test.json")


@pytest.mark.parametrize(("text", "message"), [
    ("", r"test\.json: not valid JSON"),
    ('{"version": 2, "name": ', r"test\.json: not valid JSON"),
    ("[1, 2]", r"test\.json: a profile must be a JSON object, got list"),
    ('{"version": NaN}', r"NaN is not a number JSON allows"),
    ('{"name": "x"}', r"version: expected an integer, got null"),
    ('{"version": 0}', r"version 0 is not a profile version"),
])
def test_corrupt_files_give_clear_errors(text: str, message: str) -> None:
    with pytest.raises(ProfileError, match=message):
        profiles.loads(text, "test.json")


def test_truncated_and_binary_files_on_disk(store: Path) -> None:
    path = paths.profile_store().save(_full())
    full = path.read_bytes()
    path.write_bytes(full[: len(full) // 2])
    with pytest.raises(ProfileError, match=r"kitchen-picam\.json.*not valid JSON"):
        paths.profile_store().load("kitchen-picam")
    path.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(ProfileError, match="cannot be read"):
        paths.profile_store().load("kitchen-picam")
    # a broken file is an error, never silently replaced by a new profile
    with pytest.raises(ProfileError):
        paths.profile_store().load_or_new("kitchen-picam")
    assert "cannot be read" in paths.profile_store().summary("kitchen-picam")["error"]


V1 = {
    "version": 1,
    "name": "old-setup",
    "polygon": [[0, 0], [640, 0], [640, 480], [0, 480]],
    "homography": None,
    "table_size": None,
    "die_size": 40.0,
    "colours": {"red": [40, 40, 200], "white": [228, 230, 232]},
    "face_sets": [],
}


def test_version_1_is_upgraded() -> None:
    p = profiles.loads(json.dumps(V1), "old.json")
    assert p.name == "old-setup"
    assert p.profile.table is not None and p.profile.table.polygon[2] == (640.0, 480.0)
    assert p.profile.palette is not None and p.profile.palette.names == ("red", "white")
    assert p.profile.palette.colours[0].bgr == (40, 40, 200)
    assert p.profile.die_size == 40.0
    assert "upgraded from a version 1" in p.notes
    again = profiles.loads(p.dumps())
    assert again == p and json.loads(p.dumps())["version"] == profiles.VERSION == 4


def test_version_1_is_checked_strictly_too() -> None:
    bad = dict(V1, colours={"red": [40, 40]})
    with pytest.raises(ProfileError, match=r"colours\.red: expected 3 items, got 2"):
        profiles.loads(json.dumps(bad), "old.json")
    with pytest.raises(ProfileError, match=r"unknown key 'palette'"):
        profiles.loads(json.dumps(dict(V1, palette=None)), "old.json")


def test_store_list_use_current(store: Path) -> None:
    assert paths.profile_store().names() == [] and paths.profile_store().current() is None
    paths.profile_store().save(_full())
    paths.profile_store().save(CalibrationProfile(name="attic"))
    assert paths.profile_store().names() == ["attic", "kitchen-picam"]
    assert paths.profile_store().current_name() is None
    assert paths.profile_store().use("attic").name == "attic"
    assert paths.profile_store().current_name() == "attic"
    assert (store / "current-profile").read_text().strip() == "attic"
    with pytest.raises(ProfileError, match="no profile named 'cellar'; stored: attic, "
                                           "kitchen-picam"):
        paths.profile_store().use("cellar")
    assert paths.profile_store().current_name() == "attic"
    # a renamed file is caught
    (store / "profiles" / "attic.json").rename(store / "profiles" / "loft.json")
    with pytest.raises(ProfileError, match="holds a profile named 'attic', not 'loft'"):
        paths.profile_store().load("loft")
    (store / "current-profile").write_text("bad name!\n")
    with pytest.raises(ProfileError, match="not valid"):
        paths.profile_store().current_name()


def test_face_set_update_replaces_by_name() -> None:
    p = _full()
    fs = dataclasses.replace(p.profile.face_sets[0], threshold=9.0)
    info = dataclasses.replace(p.face_sets[0], cv_accuracy=1.0)
    q = p.with_face_set(fs, info)
    assert len(q.profile.face_sets) == 1 and q.profile.face_sets[0].threshold == 9.0
    assert q.face_sets[0].cv_accuracy == 1.0




def test_face_sets_from_other_features_are_flagged(store: Path) -> None:
    p = _full()
    assert profiles.stale_face_sets(p) == []
    old = dataclasses.replace(p, face_sets=(dataclasses.replace(p.face_sets[0],
                                                                features="0123456789abcdef"),))
    assert profiles.stale_face_sets(old) == ["e4e"]
    paths.profile_store().save(old)
    assert paths.profile_store().summary("kitchen-picam")["stale_face_sets"] == ["e4e"]


def _v2(p: CalibrationProfile) -> dict:  # type: ignore[type-arg]
    """``p`` as a version 2 file held it: no captures, no zones, vision face sets without
    ``features`` (their examples were vision's polar Fourier descriptor, 144 numbers)."""
    d = p.to_dict()
    d["version"] = 2
    del d["zones"], d["dice"], d["profile"]["head"]
    for info in d["face_sets"]:
        del info["captures"]
        info["features"] = "0123456789abcdef"
    for fs in d["profile"]["face_sets"]:
        del fs["features"]
        fs["examples"] = [[li, [0.5] * 144] for li, _f in fs["examples"]]
    return d


def test_version_2_face_sets_are_left_out_and_flagged(store: Path) -> None:
    p = _full()
    old = profiles.loads(json.dumps(_v2(p)), "v2.json")
    # table, palette and what calibration measured survive; the old face set cannot be used
    assert old.profile.table == p.profile.table and old.profile.palette == p.profile.palette
    assert old.palette == p.palette and old.table == p.table
    assert old.profile.face_sets == ()
    assert [i.name for i in old.face_sets] == ["e4e"] and old.face_sets[0].captures == {}
    assert profiles.stale_face_sets(old) == ["e4e"]
    assert "face set 'e4e' was learned with vision's older face features" in old.notes
    assert "learned again" in old.notes and old.notes.startswith("north window; ")
    # the upgraded profile is a version 4 profile that round-trips exactly
    paths.profile_store().save(old)
    back = paths.profile_store().load("kitchen-picam")
    assert back == old and json.loads(back.dumps())["version"] == 4
    # a version 2 file is checked strictly too
    bad = _v2(p)
    bad["face_sets"][0]["captures"] = {}
    with pytest.raises(ProfileError, match=r"unknown key 'face_sets\[0\]\.captures'"):
        profiles.loads(json.dumps(bad), "v2.json")


def test_face_sets_with_captures_are_learned_again_for_new_features() -> None:
    p = _full()
    d = p.to_dict()
    d["notes"] = ""
    d["face_sets"][0]["features"] = "0123456789abcdef"
    d["face_sets"][0]["cv_accuracy"] = 0.5
    d["profile"]["face_sets"][0]["features"] = "polar-fourier-1"
    d["profile"]["face_sets"][0]["examples"] = [[0, [0.5] * 144]]
    new = profiles.loads(json.dumps(d), "old-features.json")
    assert new.profile.face_sets == p.profile.face_sets  # the same as learning them now
    assert profiles.stale_face_sets(new) == []
    assert new.face_sets[0].cv_accuracy is None  # measured with the old features
    assert new.face_sets[0].captures == p.face_sets[0].captures
    assert new.notes == ("face set 'e4e' was learned again from its captures with vision's "
                         f"face features {FACE_FEATURES}")
    # damaged captures are named
    d["face_sets"][0]["captures"]["heal"] = ["not base64!"]
    with pytest.raises(ProfileError, match=r"captures\.heal\[0\]: not base64"):
        profiles.loads(json.dumps(d), "old-features.json")
    d["face_sets"][0]["captures"]["heal"] = ["aGVsbG8="]  # base64 of "hello": no PNG
    with pytest.raises(ProfileError, match=r"captures\.heal\[0\]: not a PNG image"):
        profiles.loads(json.dumps(d), "old-features.json")


def test_captures_round_trip_pixel_exact() -> None:
    rng = np.random.default_rng(3)
    crop = rng.integers(0, 256, (48, 48, 3), dtype=np.uint8)
    assert np.array_equal(faces.decode_crop(faces.encode_crop(crop)), crop)
