"""Board zones: shapes, counting dice by centre, profile storage (v3, v2 upgrade), the CLI."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from types import SimpleNamespace

import cv2
import numpy as np
import pytest

from calibration import profiles
from calibration import zones as Z
from calibration.profiles import CalibrationProfile, ProfileError
from companion import paths
from companion.cli import main
from vision.synthetic import SYNTH_COLOURS, SynthDie, random_scene, render


@pytest.fixture()
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("COMPANION_CONFIG_DIR", str(tmp_path / "cfg"))
    return tmp_path / "cfg"


def _die(x: float, y: float) -> SimpleNamespace:
    return SimpleNamespace(center=(x, y))


def test_count_dice_by_centre_with_empty_zones_reported() -> None:
    parry = Z.rectangle(1, "Parry", 0, 0, 100, 50)
    move = Z.rectangle(1, "Movement", 100, 0, 100, 50)
    other = Z.rectangle(2, "Parry", 0, 300, 100, 50)
    counts = Z.count_dice([parry, move, other],
                          [_die(10, 10), _die(90, 40), _die(150, 25), _die(400, 400)])
    assert counts == {(1, "parry"): 2, (1, "movement"): 1, (2, "parry"): 0}


def test_a_space_inside_a_bigger_roll_area_wins() -> None:
    area = Z.rectangle(1, Z.ROLL_AREA, 0, 0, 300, 300)
    space = Z.rectangle(1, "Heal", 50, 50, 60, 60)
    assert Z.zone_at([area, space], 70, 70) == space
    assert Z.zone_at([area, space], 200, 200) == area
    assert Z.zone_at([area, space], 400, 10) is None


@pytest.mark.parametrize(("make", "message"), [
    (lambda: Z.Zone(0, "Parry", ((0, 0), (1, 0), (1, 1))), r"seat must be 1\.\.6, got 0"),
    (lambda: Z.Zone(7, "Parry", ((0, 0), (1, 0), (1, 1))), r"seat must be 1\.\.6, got 7"),
    (lambda: Z.Zone(1, "  ", ((0, 0), (9, 0), (9, 9))), r"the space needs a name"),
    (lambda: Z.Zone(1, "Parry", ((0, 0), (9, 0))), r"'Parry': an outline needs at least 3"),
    (lambda: Z.Zone(1, "Parry", ((0, 0), (9, 0), (18, 0))), r"encloses no area"),
    (lambda: Z.Zone(1, "Parry", ((0, 0), (9, float("nan")), (9, 9))), r"bad coordinate nan"),
    (lambda: Z.rectangle(2, "Heal", 0, 0, -5, 10), r"seat 2 'Heal': width and height"),
    (lambda: Z.check_zones([Z.rectangle(1, "Parry", 0, 0, 9, 9),
                            Z.rectangle(1, "parry", 50, 0, 9, 9)]), r"'parry' is given twice"),
    (lambda: Z.remove_zone([Z.rectangle(1, "Parry", 0, 0, 9, 9)], 2, "Parry"),
     r"no zone for seat 2 'Parry'; have: seat 1 'Parry'"),
])
def test_bad_zones_are_named(make: object, message: str) -> None:
    with pytest.raises(Z.ZoneError, match=message):
        make()  # type: ignore[operator]


def test_zones_round_trip_in_a_profile_and_v2_files_upgrade(store: Path) -> None:
    zones = (Z.rectangle(1, "Parry", 10.5, 20, 80, 40),
             Z.Zone(2, "Spear Thrust", ((300, 10), (390.25, 12), (380, 70), (305, 66))))
    p = CalibrationProfile(name="den", zones=zones)
    path = paths.profile_store().save(p)
    back = paths.profile_store().load("den")
    assert back == p and back.zones == zones
    assert back.dumps() == path.read_text(encoding="utf-8")
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["version"] == 4
    old = {k: v for k, v in data.items() if k not in ("zones", "dice")} | {"version": 2}
    old["profile"] = {k: v for k, v in old["profile"].items() if k != "head"}
    upgraded = profiles.loads(json.dumps(old), "old.json")
    assert upgraded.zones == () and dataclasses.replace(upgraded, zones=zones) == p
    assert paths.profile_store().summary("den")["zones"] == 2


@pytest.mark.parametrize(("change", "message"), [
    (lambda d: d["zones"][0].update(seat="1"), r"zones\[0\]\.seat: expected an integer"),
    (lambda d: d["zones"][0].update(colour="red"), r"unknown key 'zones\[0\]\.colour'"),
    (lambda d: d["zones"][0].update(polygon=[[0, 0], [1, 1]]),
     r"zones\[0\]\.polygon: expected at least 3 items"),
    (lambda d: d["zones"][0].update(seat=9), r"zones\[0\]: zone seat must be 1\.\.6, got 9"),
    (lambda d: d["zones"].append(dict(d["zones"][0])), r"'Parry' is given twice"),
    (lambda d: d.pop("zones"), r"missing key 'zones'"),
])
def test_bad_zones_in_a_file_are_named(change: object, message: str) -> None:
    data = CalibrationProfile(name="den", zones=(Z.rectangle(1, "Parry", 0, 0, 50, 50),)
                              ).to_dict()
    change(data)  # type: ignore[operator]
    with pytest.raises(ProfileError, match=message):
        profiles.loads(json.dumps(data), "den.json")


def test_draw_zones_marks_the_picture_and_leaves_the_input() -> None:
    frame = np.zeros((200, 300, 3), np.uint8)
    out = Z.draw_zones(frame, [Z.rectangle(1, "Parry", 20, 20, 100, 80)],
                       colours=[(0, 255, 0)], counts={(1, "parry"): 2})
    assert frame.max() == 0
    assert out[20, 60, 1] > 200 and out[100, 20, 1] > 200  # top and left edges drawn
    assert out[150, 250].max() == 0


def test_cli_adds_draws_and_removes_zones(store: Path, tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    rng = np.random.default_rng(5)
    sc = random_scene(rng, width=640, height=480, n_dice=(0, 0), clutter=0, noise=1.0)
    dice = tuple(SynthDie(center=c, size=40.0, angle=15.0, value=v, face=None, colour="red",
                          body_bgr=SYNTH_COLOURS["red"], pip_bgr=(240, 240, 240))
                 for c, v in (((100.0, 100.0), 3), ((170.0, 110.0), 5), ((450.0, 300.0), 2)))
    photo = tmp_path / "boards.png"
    cv2.imwrite(str(photo), render(dataclasses.replace(sc, dice=dice), rng))
    assert main(["calibrate", "zones", "--profile", "den",
                 "--rect", "1", "Parry", "50,50,180,120",
                 "--add", "2", "Spear Thrust", "400,250", "520,250", "520,360", "400,360",
                 "--draw", str(photo)]) == 0
    out = capsys.readouterr().out
    assert "2 dice on seat 1 Parry" in out and "1 die on seat 2 Spear Thrust" in out
    assert (tmp_path / "boards.zones.png").exists()
    stored = paths.profile_store().load("den").zones
    assert [(z.seat, z.space) for z in stored] == [(2, "Spear Thrust"), (1, "Parry")]
    assert main(["calibrate", "zones", "--profile", "den", "--remove", "1", "parry"]) == 0
    assert [z.space for z in paths.profile_store().load("den").zones] == ["Spear Thrust"]
    capsys.readouterr()
    assert main(["calibrate", "zones", "--profile", "den", "--rect", "x", "Heal", "1,2,3,4"]) == 2
    assert "seat must be a number 1..6, got 'x'" in capsys.readouterr().err
    assert main(["calibrate", "zones", "--profile", "den", "--add", "1", "Heal", "1,2"]) == 2
    assert "at least 3 corners" in capsys.readouterr().err
    unchanged = paths.profile_store().load("den").zones
    assert [z.space for z in unchanged] == ["Spear Thrust"]

