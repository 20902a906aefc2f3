"""The app's own log file and its record of starts: crash loops back off, then say what failed.

The appliance restarts the app whenever it ends (systemd's ``Restart=always`` on a console,
``lwrespawn`` on the desktop). Left at that, an app that fails at start restarts every few
seconds forever, and with power-pull protection the system journal is in RAM, so the evidence is
gone at the next reboot. So, in the log folder (``COMPANION_LOG_DIR``; the appliance puts it on
the data folder):

- ``companion.log``: the app's log (Python's and Kivy's), rotated at 1 MB, 3 kept;
- ``starts.json``: the last start (when, and how it ended) and how many starts in a row ended
  in a crash. A start that never got to say how it ended (killed by the watchdog, a crash in
  native code, a pulled plug during a crash) counts as a crash too.

Each start after ``n`` crashes in a row first waits ``backoff_s(n)`` (3 s, 6 s, 12 s ... at most
60 s); after :data:`GIVE_UP_AFTER` crashes in a row the app shows a screen saying what failed,
with the last lines of its log, instead of starting again (``companion.appliance.failed``).
A start that ran for :data:`HEALTHY_AFTER_S` seconds resets the count.
"""

from __future__ import annotations

import json
import logging
import logging.handlers
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hardware.files import write_whole

LOG_DIR_VAR = "COMPANION_LOG_DIR"
LOG_FILE = "companion.log"
STARTS_FILE = "starts.json"
#: Crashes in a row after which the app stops restarting and shows what failed.
GIVE_UP_AFTER = 5
#: A run this long counts as a good start: the crash count goes back to 0.
HEALTHY_AFTER_S = 120.0
FIRST_DELAY_S = 3.0
MAX_DELAY_S = 60.0


def log_dir() -> Path | None:
    value = os.environ.get(LOG_DIR_VAR, "").strip()
    return Path(value).expanduser() if value else None


def backoff_s(crashes: int) -> float:
    """How long a start waits after ``crashes`` crashes in a row: 0, then doubling from 3 s up
    to 60 s."""
    if crashes <= 0:
        return 0.0
    return min(MAX_DELAY_S, FIRST_DELAY_S * 2.0 ** (crashes - 1))


@dataclass
class Starts:
    """``starts.json``: the last start and the crashes in a row before it."""

    folder: Path
    crashes: int = 0
    started: float = 0.0
    outcome: str = ""  # "running", "healthy", "ended", "crashed: ...", "gave up"
    #: how the start before this one ended (set by :meth:`begin`)
    previous: str = ""

    @property
    def path(self) -> Path:
        return self.folder / STARTS_FILE

    @classmethod
    def load(cls, folder: Path) -> Starts:
        """The record in ``folder``; a missing or damaged one reads as no crashes (it must
        never stop the app)."""
        try:
            data: dict[str, Any] = json.loads((folder / STARTS_FILE).read_text("utf-8"))
            return cls(folder, int(data["crashes"]), float(data["started"]),
                       str(data["outcome"]))
        except (OSError, ValueError, KeyError, TypeError):
            return cls(folder)

    def save(self) -> None:
        """Write the record; a folder that cannot be written is logged, never stops the app."""
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            write_whole(self.path, json.dumps({"crashes": self.crashes, "started": self.started,
                                               "outcome": self.outcome}))
        except OSError as e:
            logging.getLogger(__name__).error("companion: cannot write %s: %s", self.path, e)

    def describe(self) -> str:
        """The last start in words (for `companion appliance status`)."""
        if not self.started:
            return "no start recorded yet"
        when = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(self.started))
        outcome = {"running": "still running, or ended without a word (killed by the "
                              "watchdog, a crash in native code, the power)",
                   "healthy": "running well (past its first two minutes)",
                   "ended": "ended normally"}.get(self.outcome, self.outcome)
        return f"last start {when}: {outcome}; crashes in a row: {self.crashes}"

    def begin(self, now: float | None = None) -> float:
        """Record a new start; returns how long to wait first. A previous start still marked
        ``running`` never said how it ended: a crash."""
        self.previous = self.outcome
        if self.outcome == "running" or self.outcome.startswith("crashed"):
            self.crashes += 1
        elif self.outcome in ("healthy", "ended"):
            self.crashes = 0
        self.started = time.time() if now is None else now
        self.outcome = "running"
        self.save()
        return backoff_s(self.crashes)

    @property
    def given_up(self) -> bool:
        return self.crashes >= GIVE_UP_AFTER

    def end(self, outcome: str) -> None:
        self.outcome = outcome
        self.save()

    def reset(self) -> None:
        """The players asked to try again: the next start is a first one."""
        self.crashes = 0
        self.outcome = "ended"
        self.save()


def failure_text(starts: Starts, lines: list[str]) -> str:
    """What the failure screen says: what failed, how often, what to do, the log's last lines."""
    how = starts.previous
    if how in ("", "running", "gave up"):
        how = ("it ended without a word (killed by the watchdog after hanging, or a crash in "
               "native code)")
    tail = "\n".join(lines) if lines else "(the log is empty)"
    return (f"The companion failed to start {starts.crashes} times in a row and is not being "
            f"restarted again.\nThe last start: {how}.\n\nTap Try again to start it once more; "
            f"`./start.sh doctor` on the Pi checks the camera, screen and sound.\nThe whole log: "
            f"{starts.folder / LOG_FILE}\n\nIts last lines:\n{tail}")


def last_lines(folder: Path, count: int = 15) -> list[str]:
    """The last ``count`` lines of the app's log in ``folder`` (none when there is no log)."""
    try:
        with open(folder / LOG_FILE, "rb") as f:
            f.seek(0, os.SEEK_END)
            f.seek(max(0, f.tell() - 64 * 1024))
            text = f.read().decode("utf-8", errors="replace")
    except OSError:
        return []
    return text.splitlines()[-count:]


def log_to_file(folder: Path) -> logging.Handler | None:
    """Send Python's and Kivy's log records to ``folder``/companion.log (rotated); None when
    the folder cannot be written (the app goes on without it)."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        handler = logging.handlers.RotatingFileHandler(
            folder / LOG_FILE, maxBytes=1_000_000, backupCount=3, encoding="utf-8")
    except OSError as e:
        logging.getLogger(__name__).error("companion: cannot write the log in %s: %s", folder, e)
        return None
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    root.addHandler(handler)
    if root.level > logging.INFO or root.level == logging.NOTSET:
        root.setLevel(logging.INFO)
    kivy = logging.getLogger("kivy")
    if not kivy.propagate:
        kivy.addHandler(handler)
    return handler
