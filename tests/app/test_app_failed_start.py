"""After too many crashes in a row, `companion start` shows what failed instead of the app, and
Try again (touched) clears the count (companion.appliance.starts and .failed). The app runs in a
child process, as the appliance runs it, with its log folder holding the crash record."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.app
ROOT = Path(__file__).parents[2]

CHILD = """
import argparse, json, sys
from kivy.app import App
from kivy.clock import Clock
from kivy.tests.common import UnitTestTouch
from companion.commands import start

seen = {}

def look(_dt):
    app = App.get_running_app()
    seen["app"] = type(app).__name__
    texts, buttons = [], []
    stack = [app.root]
    while stack:
        w = stack.pop()
        stack.extend(w.children)
        if type(w).__name__ == "Label":
            texts.append(w.text)
        if type(w).__name__ == "Button":
            buttons.append(w)
    seen["text"] = " ".join(texts)
    [again] = [b for b in buttons if b.text == "Try again"]
    x, y = again.to_window(*again.center)
    touch = UnitTestTouch(x, y)  # through the window, as a finger
    touch.touch_down()
    touch.touch_up()

Clock.schedule_once(look, 1)
seen["rc"] = start.run(argparse.Namespace(window=True, size="800x480", camera=None, rotation=0))
print("SEEN " + json.dumps(seen))
"""


def test_five_crashes_in_a_row_show_what_failed_and_try_again_clears_them(
        tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    logs.mkdir()
    (logs / "starts.json").write_text(json.dumps(
        {"crashes": 4, "started": 1000.0, "outcome": "crashed: RuntimeError: no screen"}))
    (logs / "companion.log").write_text("2026-11-26 20:00:00 ERROR kivy: the last words\n")
    env = {**os.environ, "SDL_VIDEODRIVER": "offscreen", "SDL_AUDIODRIVER": "dummy",
           "KIVY_NO_ARGS": "1", "KIVY_HOME": str(tmp_path / "kivy"),
           "COMPANION_LOG_DIR": str(logs), "COMPANION_DATA_DIR": str(tmp_path / "data"),
           "COMPANION_CONFIG_DIR": str(tmp_path / "config")}
    done = subprocess.run([sys.executable, "-c", CHILD], cwd=ROOT, env=env, text=True,
                          capture_output=True, timeout=180)
    assert done.returncode == 0, done.stderr[-3000:]
    [line] = [ln for ln in done.stdout.splitlines() if ln.startswith("SEEN ")]
    seen = json.loads(line[5:])
    assert seen["app"] == "FailedApp" and seen["rc"] == 0
    assert "failed to start 5 times in a row" in seen["text"]
    assert "The last start: crashed: RuntimeError: no screen." in seen["text"]
    assert "the last words" in seen["text"]
    record = json.loads((logs / "starts.json").read_text())
    assert record["crashes"] == 0 and record["outcome"] == "ended"  # Try again was touched
