"""`companion calibrate ...` end to end, headless from folders of synthetic photos."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import cv2
import numpy as np
import pytest
from calib_synth import perspective, tray_frame

from calibration import faces
from companion import paths
from companion.cli import main
from vision.synthetic import SYNTH_COLOURS, SynthDie, random_scene


def _photo(rng: np.random.Generator, hom: np.ndarray, dice: list[SynthDie]) -> np.ndarray:
    sc = random_scene(rng, width=640, height=480, n_dice=(0, 0), clutter=0, noise=2.0)
    sc = dataclasses.replace(sc, dice=tuple(dice), background_bgr=(150, 150, 150),
                             gradient=(0.1, 30.0))
    return tray_frame(sc, hom, rng)


def _dice(rng: np.random.Generator, n: int, colour: str | None = None,
          face: str | None = None) -> list[SynthDie]:
    names = ["red", "blue", "yellow"]
    out = []
    for i in range(n):
        c = colour or names[int(rng.integers(3))]
        dark = c in ("red", "blue")
        out.append(SynthDie(
            center=(160.0 + 85.0 * (i % 4), 170.0 + 90.0 * (i // 4)), size=36.0,
            angle=float(rng.uniform(0, 90)),
            value=None if face else int(rng.integers(1, 7)), face=face, colour=c,
            body_bgr=SYNTH_COLOURS[c], pip_bgr=(235, 235, 235) if dark else (30, 30, 30)))
    return out


def _write(path: Path, img: np.ndarray) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    assert cv2.imwrite(str(path), img)
    return path


def test_headless_calibration_from_folders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("COMPANION_CONFIG_DIR", str(tmp_path / "cfg"))
    rng = np.random.default_rng(21)
    hom = perspective(rng, 640, 480, 0.1)
    assert main(["calibrate", "markers", "-o", str(tmp_path / "sheet.png")]) == 0
    tray = _write(tmp_path / "tray.png", _photo(rng, hom, []))
    assert main(["calibrate", "table", str(tray), "--profile", "test-table",
                 "--camera", "synthetic", "--die-mm", "18",
                 "--preview", str(tmp_path / "top.png")]) == 0
    out = capsys.readouterr().out
    assert "reprojection error" in out and "'test-table' is now the current profile" in out
    assert cv2.imread(str(tmp_path / "top.png")) is not None

    for colour in ("red", "blue", "yellow"):
        _write(tmp_path / "colours" / colour / "1.png",
               _photo(rng, hom, _dice(rng, 5, colour=colour)))
    assert main(["calibrate", "palette", "--from", str(tmp_path / "colours")]) == 0
    out = capsys.readouterr().out
    assert "red: 5 dice in 1 image(s)" in out
    assert "every pair of colours is told apart" in out

    for face in ("attack", "heal", "defence"):
        for k in range(2):
            _write(tmp_path / "faces" / face / f"{k}.png",
                   _photo(rng, hom, _dice(rng, 4, face=face)))
    assert main(["calibrate", "faces", "--from", str(tmp_path / "faces"),
                 "--game", "eye-for-an-eye"]) == 0
    out = capsys.readouterr().out
    assert "not shown yet (3): movement, ready, resolve" in out
    assert "cross-validated accuracy" in out

    # rolls with labels beside them
    roll_dir = tmp_path / "rolls"
    for k in range(3):
        dice = _dice(rng, 6)
        img = _photo(rng, hom, dice)
        _write(roll_dir / f"roll{k}.png", img)
        pts = cv2.perspectiveTransform(
            np.array([d.center for d in dice], np.float64).reshape(-1, 1, 2), hom).reshape(-1, 2)
        labels = {"dice": [{"x": float(p[0]), "y": float(p[1]), "face": str(d.value),
                            "colour": d.colour} for p, d in zip(pts, dice, strict=True)]}
        (roll_dir / f"roll{k}.png.json").write_text(json.dumps(labels))
    # pip dice are read with a profile without icon faces
    cp = paths.profile_store().load("test-table")
    paths.profile_store().save(dataclasses.replace(
        cp, name="pips", face_sets=(),
        profile=dataclasses.replace(cp.profile, face_sets=())))
    assert main(["calibrate", "check", str(roll_dir), "--profile", "pips", "--json"]) == 0
    rep = json.loads(capsys.readouterr().out)
    assert rep["images"] == 3 and rep["faces_total"] == 18 and rep["colours_total"] == 18
    assert rep["colour_accuracy"] == 1.0
    assert rep["face_accuracy"] >= 0.9, rep

    assert main(["calibrate", "list"]) == 0
    out = capsys.readouterr().out
    assert "* test-table: camera synthetic, table markers, 3 colours, face sets eye-for-an-eye" \
        in out
    assert main(["calibrate", "use", "pips"]) == 0
    assert paths.profile_store().current_name() == "pips"


def test_cli_errors_are_clear(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                              capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("COMPANION_CONFIG_DIR", str(tmp_path / "cfg"))
    assert main(["calibrate", "use", "nothing"]) == 2
    assert "no profile named 'nothing'" in capsys.readouterr().err
    assert main(["calibrate", "show", "nothing"]) == 2  # not a summary holding the error
    captured = capsys.readouterr()
    assert "no profile named 'nothing'" in captured.err and captured.out == ""
    assert main(["calibrate", "table", str(tmp_path)]) == 2
    assert f"image {str(tmp_path)!r} is a folder" in capsys.readouterr().err
    blank = _write(tmp_path / "blank.png", np.full((480, 640, 3), 128, np.uint8))
    assert main(["calibrate", "table", str(blank)]) == 2
    assert "markers not found" in capsys.readouterr().err
    assert main(["calibrate", "table", "--corners", "0,0", "100,0", "100,80", "0,80",
                 "--tray-mm", "300x240", "--dry-run"]) == 0
    assert "dry run" in capsys.readouterr().out
    assert main(["calibrate", "faces", "--from", str(tmp_path / "nowhere")]) == 2
    assert "does not exist" in capsys.readouterr().err
    assert main(["calibrate", "faces", "--from", str(blank)]) == 2
    assert f"folder {str(blank)!r} is a file" in capsys.readouterr().err
    assert main(["calibrate", "markers", "--output", str(blank / "sheet.png")]) == 2
    assert f"{blank}: a file is where a folder is needed" in capsys.readouterr().err
    assert main(["calibrate", "faces", "--templates"]) == 0
    assert "eye-for-an-eye: movement, attack" in capsys.readouterr().out
    (tmp_path / "cfg" / "profiles").mkdir(parents=True)
    (tmp_path / "cfg" / "profiles" / "broken.json").write_text("{not json")
    assert main(["calibrate", "list"]) == 0
    assert "broken: BROKEN" in capsys.readouterr().out
    assert main(["calibrate", "palette", "--from", str(tmp_path), "--profile", "broken"]) == 2
    assert "not valid JSON" in capsys.readouterr().err


def test_roll_clusters_and_tapped_faces(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("COMPANION_CONFIG_DIR", str(tmp_path / "cfg"))
    rng = np.random.default_rng(22)
    hom = np.eye(3)
    tray = _write(tmp_path / "tray.png", _photo(rng, hom, []))
    assert main(["calibrate", "table", str(tray), "--profile", "rolls"]) == 0
    assert "is now the current profile" in capsys.readouterr().out
    dice = [dataclasses.replace(d, colour=c, body_bgr=SYNTH_COLOURS[c])
            for d, c in zip(_dice(rng, 8), ["red", "blue"] * 4, strict=True)]
    roll = _write(tmp_path / "roll.png", _photo(rng, hom, dice))
    assert main(["calibrate", "palette", "--roll", str(roll), "--clusters", "2"]) == 0
    out = capsys.readouterr().out
    assert out.count("cluster ") == 2 and "4 dice at" in out
    # cluster 0 is the leftmost: the first die is red
    assert main(["calibrate", "palette", "--roll", str(roll), "--name", "0=red",
                 "--name", "1=blue", "--profile", "rolls"]) == 0
    assert "saved profile 'rolls'" in capsys.readouterr().out
    pal = paths.profile_store().load("rolls").profile.palette
    assert pal is not None and pal.names == ("red", "blue")

    taps = []
    for k, face in enumerate(("attack", "heal", "attack", "heal")):
        fdice = _dice(rng, 2, face=face)
        _write(tmp_path / f"t{k}.png", _photo(rng, hom, fdice))
        taps += [{"image": f"t{k}.png", "x": d.center[0] + 3, "y": d.center[1] - 2,
                  "face": face} for d in fdice]
    (tmp_path / "taps.json").write_text(json.dumps({"taps": taps}))
    assert main(["calibrate", "faces", "--taps", str(tmp_path / "taps.json"), "--set", "mine",
                 "--profile", "rolls"]) == 0
    out = capsys.readouterr().out
    assert "attack: 4 crop(s)" in out and "heal: 4 crop(s)" in out
    cp = paths.profile_store().load("rolls")
    assert [f.name for f in cp.profile.face_sets] == ["mine"]
    assert cp.face_sets[0].samples == {"attack": 4, "heal": 4}
    # the captures are kept, so the set can be learned again from them
    assert {k: len(v) for k, v in cp.face_sets[0].captures.items()} == {"attack": 4, "heal": 4}
    assert faces.decode_crop(cp.face_sets[0].captures["heal"][0]).shape == (48, 48, 3)
    # more captures later, added to the same set
    assert main(["calibrate", "faces", "--taps", str(tmp_path / "taps.json"), "--set", "mine",
                 "--profile", "rolls", "--add"]) == 0
    grown = paths.profile_store().load("rolls").face_sets[0]
    assert grown.samples == {"attack": 8, "heal": 8}
    assert grown.captures["attack"][:4] == cp.face_sets[0].captures["attack"]
    assert {k: len(v) for k, v in grown.captures.items()} == {"attack": 8, "heal": 8}
    bad = [dict(taps[0], x=5, y=5)]
    (tmp_path / "bad.json").write_text(json.dumps({"taps": bad}))
    assert main(["calibrate", "faces", "--taps", str(tmp_path / "bad.json"),
                 "--profile", "rolls"]) == 2
    assert "taps[0]: no die near (5, 5)" in capsys.readouterr().err


def test_snap_saves_camera_photos_and_names_failures(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("COMPANION_CONFIG_DIR", str(tmp_path / "cfg"))
    out = tmp_path / "snaps"
    # The stand-in's rendered dice are refused as calibration photos unless asked for.
    assert main(["calibrate", "snap", "-o", str(out), "--camera", "synthetic"]) == 2
    assert "is the stand-in" in capsys.readouterr().err and not out.exists()
    assert main(["calibrate", "snap", "-o", str(out), "--camera", "synthetic", "--stand-in",
                 "--count", "2", "--every", "0", "--warmup", "1"]) == 0
    assert "rendered dice from the stand-in" in capsys.readouterr().out
    shots = sorted(out.glob("snap-*.png"))
    assert [p.name for p in shots] == ["snap-001.png", "snap-002.png"]
    first = cv2.imread(str(shots[0]))
    assert first is not None and first.shape[2] == 3 and first.std() > 5  # a real picture
    one = tmp_path / "tray.png"
    assert main(["calibrate", "snap", "-o", str(one), "--camera", f"replay:{out}",
                 "--warmup", "0"]) == 0
    again = cv2.imread(str(one))
    assert again is not None and np.array_equal(again, first)
    capsys.readouterr()
    # A replay that runs out: the photos saved so far are said, and the status says it failed.
    assert main(["calibrate", "snap", "-o", str(tmp_path / "more"), "--camera",
                 f"replay:{out}", "--count", "3", "--every", "0", "--warmup", "0"]) == 2
    assert "(2 of 3 photos saved)" in capsys.readouterr().err
    assert main(["calibrate", "snap", "-o", str(one), "--camera", "bogus"]) == 2
    assert "unknown camera source 'bogus'" in capsys.readouterr().err
    assert main(["calibrate", "snap", "-o", str(one), "--count", "0"]) == 2


def test_snap_with_no_camera_refuses_rather_than_saving_rendered_dice(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Step 3 of the first game night on a machine with no camera: the old default (the app's
    camera setting, "synthetic") saved a rendered picture as the tray photo."""
    monkeypatch.setenv("COMPANION_CONFIG_DIR", str(tmp_path / "cfg"))
    monkeypatch.delenv("COMPANION_CAMERA", raising=False)
    from hardware.camera import opencv, picam
    from hardware.errors import CameraUnavailable

    def nothing(self: object) -> None:
        raise CameraUnavailable("no such camera here")

    monkeypatch.setattr(picam.Picamera2Source, "open", nothing)
    monkeypatch.setattr(opencv.OpenCVSource, "open", nothing)
    tray = tmp_path / "tray.png"
    assert main(["calibrate", "snap", "-o", str(tray)]) == 2
    assert "no camera found" in capsys.readouterr().err
    assert not tray.exists()


def test_a_hostile_profile_is_refused_like_the_app_does(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 33: a deeply nested profile gave a RecursionError traceback in `use`, `show`
    and `list`, and one bad profile made `list` fail; a FIFO profile hung them."""
    import os

    monkeypatch.setenv("COMPANION_CONFIG_DIR", str(tmp_path / "cfg"))
    folder = tmp_path / "cfg" / "profiles"
    folder.mkdir(parents=True)
    (folder / "deep.json").write_text("[" * 200_000 + "]" * 200_000)
    (folder / "deeper.json").write_text('{"a": ' * 100_000 + "1" + "}" * 100_000)
    os.mkfifo(folder / "pipe.json")
    for name in ("deep", "deeper", "pipe"):
        assert main(["calibrate", "use", name]) == 2
        err = capsys.readouterr().err
        assert f"{name}.json" in err and "Traceback" not in err
        assert ("not a plain file" if name == "pipe" else "nested too deeply") in err
        assert main(["calibrate", "show", name]) == 2
        assert "Traceback" not in capsys.readouterr().err
    (tmp_path / "cfg" / "current-profile").write_text("[" * 5000)
    assert main(["calibrate", "list"]) == 0
    out = capsys.readouterr().out
    for name in ("deep", "deeper", "pipe"):
        assert f"{name}: BROKEN" in out
    assert "the current-profile choice cannot be read" in out
