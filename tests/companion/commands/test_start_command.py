"""`companion start` as a desktop or Pi user starts it: one touch input provider, a quiet log.

The real command runs offscreen in its own process, with a Kivy config.ini holding what Kivy
writes there on a first Linux run (``%(name)s = probesysfs``, with ``provider=hidinput`` as on a
Pi): that provider reads the touch panel directly, beside SDL2's mouse events, and every touch
then arrives twice. The test reads the app's log until it reports its input providers.
"""

from __future__ import annotations

import configparser
import contextlib
import os
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from companion.commands.start import INPUT_PROVIDER, use_one_input_provider

KIVY_FIRST_RUN_INPUT = "[input]\nmouse = mouse\n%(name)s = probesysfs,provider=hidinput\n"


def start_app(tmp_path: Path, *args: str, env_extra: dict[str, str] | None = None,
              until: Callable[[], bool] | None = None) -> list[str]:
    """Run `companion start` until it reports its input providers (and then, given
    ``until``, until that says True: a condition, with a generous deadline)."""
    kivy_home = tmp_path / "kivy"
    kivy_home.mkdir()
    (kivy_home / "config.ini").write_text("[kivy]\n\n" + KIVY_FIRST_RUN_INPUT, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KIVY_", "DISPLAY"))}
    env.update(SDL_VIDEODRIVER="offscreen", SDL_AUDIODRIVER="dummy", KIVY_HOME=str(kivy_home),
               COMPANION_DATA_DIR=str(tmp_path / "data"), COMPANION_CAMERA="synthetic",
               COMPANION_CONFIG_DIR=str(tmp_path / "config"), GPIOZERO_PIN_FACTORY="mock")
    env.update(env_extra or {})
    proc = subprocess.Popen([sys.executable, "-m", "companion", "start", *args], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert proc.stdout is not None
    lines: list[str] = []
    deadline = time.monotonic() + 120
    try:
        for line in proc.stdout:
            lines.append(line.rstrip())
            if "input providers:" in line or time.monotonic() > deadline:
                break
        while until is not None and not until():
            assert time.monotonic() < deadline + 60, "the app never did what was waited for"
    finally:
        proc.terminate()
        proc.communicate(timeout=60)  # drains the log, so a graceful stop is not blocked
    # Kivy upgrades the file's format, but the user's [input] stays as it was
    kept = configparser.ConfigParser(interpolation=None)
    kept.read(kivy_home / "config.ini")
    assert kept.get("input", "%(name)s") == "probesysfs,provider=hidinput"
    return lines


def test_one_touch_provider_and_no_clipboard_noise(tmp_path: Path) -> None:
    log = start_app(tmp_path, "--rotation", "180")
    [providers] = [ln for ln in log if "input providers:" in ln]
    # mouse: the one that carries touches. sdl: added by Kivy's SDL2 window itself; on Linux
    # Kivy 2.3 drops SDL's finger events, so it never delivers one (SDL turns them into mouse).
    assert providers.endswith("SDL2MotionEventProvider(sdl), MouseMotionEventProvider(mouse)")
    assert not [ln for ln in log if "probesysfs" in ln.lower() or "hidinput" in ln.lower()]
    noise = ("CRITICAL", "Cutbuffer", "Traceback", "FileNotFoundError", "No such file")
    assert not [ln for ln in log if any(n in ln for n in noise)], "\n".join(log)
    assert any("Companion   ] clipboard:" in ln for ln in log)


def test_use_one_input_provider_clears_whatever_the_config_had() -> None:
    pytest.importorskip("kivy")
    from kivy.config import ConfigParser

    config = ConfigParser(name="test-one-provider")
    config.read_string(KIVY_FIRST_RUN_INPUT + "mtdev_touch = mtdev,/dev/input/event4\n")
    use_one_input_provider(config)
    assert config.items("input") == [INPUT_PROVIDER]


def test_under_systemd_the_app_says_ready_then_feeds_the_watchdog(tmp_path: Path) -> None:
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as notify:
        notify.bind(str(tmp_path / "notify.sock"))
        notify.settimeout(0.5)
        got: list[str] = []

        def fed_three_times() -> bool:
            with contextlib.suppress(TimeoutError):
                got.append(notify.recv(4096).decode())
            return got.count("WATCHDOG=1") >= 3

        start_app(tmp_path, env_extra={"NOTIFY_SOCKET": str(tmp_path / "notify.sock"),
                                       "WATCHDOG_USEC": "150000"},  # fed every 0.05 s
                  until=fed_three_times)
    assert got and got[0].startswith("READY=1\nWATCHDOG=1")
    assert got.count("WATCHDOG=1") >= 3, got  # the clock keeps feeding it


def test_with_no_display_it_names_a_command_that_is_there_after_start_sh(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """`./start.sh` puts no `companion` on the PATH: the no-display message says
    `./start.sh demo`."""
    import argparse

    from companion.commands import start

    for name in ("SDL_VIDEODRIVER", "DISPLAY", "WAYLAND_DISPLAY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(start, "is_raspberry_pi", lambda: False)
    assert start.run(argparse.Namespace()) == 2
    out = capsys.readouterr().out
    assert "./start.sh demo --output DIR" in out
    assert out.index("./start.sh demo") < out.index("companion demo")
