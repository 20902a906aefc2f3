"""Settings are read strictly; `companion` with no display points to `companion demo`."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from companion import settings


def test_settings_round_trip_and_defaults(tmp_path: Path) -> None:
    path = tmp_path / "settings.toml"
    assert settings.load(path) == settings.Settings()
    s = settings.Settings(camera="opencv:0", volume=0.5, palette="classic", text_size="huge",
                          soundtrack_folder='C:\\music "loud"', dice_view="beside the arena")
    settings.save(s, tmp_path / "new" / "settings.toml")  # a folder not made yet
    assert settings.load(tmp_path / "new" / "settings.toml") == s
    settings.save(s, path)
    assert settings.load(path) == s
    assert s.font_scale > 1


@pytest.mark.parametrize(("text", "message"), [
    ("volumes = 0.5", "volumes: unknown setting; known: button_map, "),
    ("volume = 2", "volume: must be <= 1.0, got 2"),
    ('palette = "rainbow"', "palette: 'rainbow' is not a choice; choose one of okabe-ito, classic"),
    ("camera = 3", "camera: expected text, got 3"),
    ("volume = nan", "volume: must be >= 0.0, got nan"),
    ("[camera]\nsource = 'x'", "camera: expected text, got {'source': 'x'}"),
    ("volume = true", "volume: expected a number, got True"),
    ("volume = ", "not valid TOML"),
    ('dice_view = "corner"', "dice_view: 'corner' is not a choice; choose one of full screen, "
                             "beside the arena"),
    ('camera = "a\\u0000b"', "camera: must be one line of at most 1000 characters"),
])
def test_settings_errors_name_the_key(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "settings.toml"
    path.write_text(text + "\n", encoding="utf-8")
    with pytest.raises(settings.SettingsError) as refused:
        settings.load(path)
    assert str(refused.value).startswith(f"{path}: ") and message in str(refused.value)


def test_no_display_points_to_demo() -> None:
    env = {k: v for k, v in os.environ.items()
           if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")}
    if Path("/proc/device-tree/model").exists():
        pytest.skip("on a Raspberry Pi the app would start")
    proc = subprocess.run([sys.executable, "-m", "companion"], env=env, capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == 2
    assert "no display" in proc.stdout and "companion demo" in proc.stdout


def test_soundtracks_are_looked_for_where_the_doctor_says(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    import shutil

    from companion.startfiles import read_config
    from hardware.audio import builtin_sound
    from hardware.diagnose import check_audio

    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("COMPANION_CONFIG", str(tmp_path / "absent.toml"))
    default = settings.Settings()
    assert settings.soundtrack_dir(default) == tmp_path / "data" / "soundtracks"
    (tmp_path / "data" / "soundtracks").mkdir(parents=True)
    shutil.copy(builtin_sound("drum_loop"), tmp_path / "data" / "soundtracks" / "arena.ogg")
    said = " ".join(c.finding for c in check_audio({}))
    assert f"soundtracks in {tmp_path / 'data' / 'soundtracks'}: arena" in said
    # [audio] soundtracks in the hardware config moves it for both
    config = tmp_path / "config.toml"
    config.write_text(f'[audio]\nsoundtracks = "{tmp_path / "music"}"\n', encoding="utf-8")
    monkeypatch.setenv("COMPANION_CONFIG", str(config))
    assert settings.soundtrack_dir(default, read_config()[0]) == tmp_path / "music"
    # a broken config file does not take the music away (the doctor reports the file)
    config.write_text("[audio\n", encoding="utf-8")
    assert settings.soundtrack_dir(default, read_config()[0]) == \
        tmp_path / "data" / "soundtracks"
    # the Settings screen's folder wins
    chosen = settings.Settings(soundtrack_folder=str(tmp_path / "mine"))
    assert settings.soundtrack_dir(chosen) == tmp_path / "mine"
