"""`companion doctor`: verdicts and advice for config, camera, GPIO, audio and display."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import pytest

from companion.commands import doctor
from hardware.diagnose import check_display, check_gpio, run_checks


def run_doctor(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    parser = argparse.ArgumentParser()
    doctor.add_arguments(parser)
    rc = doctor.run(parser.parse_args(list(argv)))
    return rc, capsys.readouterr().out


def test_doctor_lists_every_area_with_a_verdict(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("COMPANION_CAMERA", "synthetic")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    cfg = tmp_path / "config.toml"
    cfg.write_text("[buttons.seats.Red]\nattack = 4\nled = 'BOARD8'\n")
    rc, out = run_doctor(capsys, "--config", str(cfg))
    for area in ("system", "config", "camera", "gpio", "audio", "display"):
        assert f" {area} " in out
    assert "seat Red: attack=GPIO4(pin 7), led=GPIO14(pin 8)" in out
    assert "[warn] gpio" in out and "GPIO14 is also the serial console" in out
    assert "camera: the stand-in, rendered dice (from COMPANION_CAMERA)" in out
    assert "SDL_AUDIODRIVER=dummy" in out and "-> unset SDL_AUDIODRIVER" in out
    fails = sum(line.startswith("[FAIL]") for line in out.splitlines())
    assert re.fullmatch(rf"\d+ checks: {fails} to fix, \d+ to look at", out.splitlines()[-1])
    assert rc == (1 if fails else 0)


def test_doctor_names_a_broken_config(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cfg = tmp_path / "config.toml"
    cfg.write_text("[buttons.seats.P1]\nmove = 5\nattack = 5\n")
    rc, out = run_doctor(capsys, "--config", str(cfg))
    assert rc == 1
    assert "[FAIL] gpio" in out and "attack: pin GPIO5 is already used by" in out
    assert "-> fix [buttons] in the config file" in out
    cfg.write_text("[camera\n")
    rc, out = run_doctor(capsys, "--config", str(cfg))
    assert rc == 1 and "is not valid TOML" in out


def test_gpio_check_reports_the_mock_factory(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    first = check_gpio({})[0]
    assert first.verdict == "ok" and "mock pins" in first.finding
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "nosuch")
    first = check_gpio({})[0]
    assert first.verdict == "warn" and "Unable to find pin factory 'nosuch'" in first.finding


def test_display_check_follows_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SDL_VIDEODRIVER", "offscreen")
    assert check_display()[0].verdict == "warn"
    monkeypatch.delenv("SDL_VIDEODRIVER")
    monkeypatch.setenv("DISPLAY", ":0")
    assert check_display()[0].verdict == "ok"


def test_camera_probe_reports_the_failure_and_what_to_do(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from companion.services.standin import stand_in_camera

    monkeypatch.setenv("COMPANION_CAMERA", f"replay:{tmp_path / 'none'}")
    checks = [c for c in run_checks(tmp_path / "absent.toml", probe_camera=True,
                                    stand_in=stand_in_camera)
              if c.finding.startswith("probe")]
    assert len(checks) == 1
    probe = checks[0]
    assert probe.verdict == "warn" and "synthetic gave" in probe.finding
    assert "could not open" in probe.finding
    alone = next(c for c in run_checks(tmp_path / "absent.toml", probe_camera=True)
                 if c.finding.startswith("probe"))
    assert alone.verdict == "fail" and "the stand-in failed too" in alone.finding


@pytest.mark.parametrize(("config", "finding"), [
    ('[camera]\nsource = "bogus"\n', "unknown camera source 'bogus' (from config file)"),
    ('[audio]\nvolume = "max"\n', "[audio] volume: expected a number, got 'max'"),
    ("[audio]\nvolume = 999\n", "[audio] volume: must be <= 1.0, got 999"),
])
def test_bad_values_are_fails_with_the_fix(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str], config: str,
                                           finding: str) -> None:
    monkeypatch.delenv("COMPANION_CAMERA", raising=False)
    cfg = tmp_path / "config.toml"
    cfg.write_text(config, encoding="utf-8")
    rc, out = run_doctor(capsys, "--config", str(cfg))
    assert rc == 1
    line = next(ln for ln in out.splitlines() if finding in ln)
    assert line.startswith("[FAIL]")
    fix = out.splitlines()[out.splitlines().index(line) + 1]
    assert "->" in fix


@pytest.mark.parametrize("content", [b"\xff\xfe\x80", b"a = " + b"[" * 5000 + b"]" * 5000,
                                     None])
def test_a_damaged_config_file_is_a_fail_not_a_traceback(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes | None) -> None:
    cfg = tmp_path / "config.toml"
    if content is None:
        cfg.mkdir()
    else:
        cfg.write_bytes(content)
    rc, out = run_doctor(capsys, "--config", str(cfg))
    assert rc == 1 and "[FAIL] config" in out and "Traceback" not in out


def test_the_apps_damaged_files_are_fails(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("COMPANION_CONFIG_DIR", str(tmp_path / "cfg"))
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "data"))
    (tmp_path / "cfg").mkdir()
    (tmp_path / "data").mkdir()
    (tmp_path / "cfg" / "settings.toml").write_bytes(b"\xff not text")
    (tmp_path / "data" / "journal.sqlite3").write_bytes(b"")
    rc, out = run_doctor(capsys, "--config", str(tmp_path / "absent.toml"))
    assert rc == 1
    assert "[FAIL] settings" in out and "not UTF-8" in out
    assert "[FAIL] journal" in out and "empty (0 bytes)" in out
    assert (tmp_path / "cfg" / "settings.toml").exists()  # the doctor looks, never touches


def test_the_doctor_names_the_camera_chosen_and_why(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("COMPANION_CAMERA", "replay:/tray")
    _, out = run_doctor(capsys, "--config", str(tmp_path / "absent.toml"))
    assert "[ok]   camera" in out and "camera: 'replay:/tray' (from COMPANION_CAMERA)" in out
    monkeypatch.delenv("COMPANION_CAMERA")
    cfg = tmp_path / "config.toml"
    cfg.write_text('[camera]\nsource = "opencv:1"\n', encoding="utf-8")
    _, out = run_doctor(capsys, "--config", str(cfg))
    assert "camera: 'opencv:1' (from config file)" in out
    assert "source 'auto'" not in out
