"""One place decides where the user's files are (hardware.config), and every reader asks it:
the app's settings, the hand-written config.toml, the calibration profiles, the journal, the
soundtracks and the doctor all follow COMPANION_CONFIG_DIR / COMPANION_CONFIG /
COMPANION_DATA_DIR."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion import paths, settings
from hardware import config as hw_config
from hardware.config import load_config, soundtracks_dir


@pytest.fixture()
def folders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    cfg, data = tmp_path / "cfg", tmp_path / "data"
    monkeypatch.setenv("COMPANION_CONFIG_DIR", str(cfg))
    monkeypatch.setenv("COMPANION_DATA_DIR", str(data))
    monkeypatch.delenv("COMPANION_CONFIG", raising=False)
    return cfg, data


def test_every_reader_follows_the_config_and_data_folders(folders: tuple[Path, Path]) -> None:
    cfg, data = folders
    assert hw_config.config_file() == cfg / "config.toml"
    assert paths.settings_path() == cfg / "settings.toml"
    assert paths.profile_store().folder == cfg
    assert paths.journal_path() == data / "journal.sqlite3"
    assert soundtracks_dir() == data / "soundtracks"
    cfg.mkdir()
    (cfg / "config.toml").write_text('[camera]\nsource = "opencv:2"\n', encoding="utf-8")
    assert load_config() == {"camera": {"source": "opencv:2"}}
    (cfg / "settings.toml").write_text('volume = 0.25\n', encoding="utf-8")
    assert settings.load().volume == 0.25


def test_companion_config_names_the_file_itself(folders: tuple[Path, Path], tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    elsewhere = tmp_path / "table-7.toml"
    monkeypatch.setenv("COMPANION_CONFIG", str(elsewhere))
    assert hw_config.config_file() == elsewhere


def test_without_overrides_the_platform_folders_are_used(monkeypatch: pytest.MonkeyPatch,
                                                         tmp_path: Path) -> None:
    for var in ("COMPANION_CONFIG_DIR", "COMPANION_DATA_DIR", "COMPANION_CONFIG"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xc"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xd"))
    assert paths.config_dir() == tmp_path / "xc" / "table-companion"
    assert paths.journal_path() == tmp_path / "xd" / "table-companion" / "journal.sqlite3"


def test_the_doctor_checks_the_config_in_the_config_folder(
        folders: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    from companion.cli import main

    cfg, _ = folders
    cfg.mkdir()
    (cfg / "config.toml").write_text("[camera\n", encoding="utf-8")
    main(["doctor"])
    assert str(cfg / "config.toml") in capsys.readouterr().out
