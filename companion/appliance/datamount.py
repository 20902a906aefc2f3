"""The app follows the data stick (power-pull protection): it waits for it on the screen.

With ``companion appliance enable --protect DIR`` the journal, settings, profiles and the app's
own log live on DIR, a USB stick mounted by /etc/fstab's line (``nofail``: a Pi whose stick is
late or missing still boots). When the app starts and DIR is not mounted yet, ``companion
start`` shows a waiting screen (:mod:`companion.appliance.waiting`) instead of the app, before
it reads or writes anything there (its log goes to the system journal meanwhile):

- a countdown of :data:`WAIT_S` seconds (systemd's own wait for a device at boot) while the
  stick may still come;
- then, if it has not, what to do, step by step, naming the stick from /etc/fstab; the screen
  keeps watching, and a stick plugged in later is mounted by the appliance's hotplug drop-in
  (:func:`companion.appliance.files.hotplug_dropin`);
- a **Play without saving** button, once the countdown is over: the app then starts with the
  journal in memory, and says so.

The moment the stick is mounted, ``companion start`` starts again in the same process
(:func:`start_again`): the settings, the journal and the log are then opened on the stick, and
the start screen says when the stick came and that games are saved from then on.

This module is the screen's model: what it shows at each moment, as plain data, from the mount
table and a clock (tested without Kivy).
"""

from __future__ import annotations

import enum
import os
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from companion.appliance.mounts import (
    FstabEntry,
    data_folder_problem,
    fstab_entry,
    mount_of,
    parse_mountinfo,
    protect_dir,
    read_mountinfo,
)

#: How long the screen counts down: systemd waits as long for a device at boot (DefaultDevice-
#: TimeoutSec), so a stick plugged in by then is mounted by /etc/fstab's own line.
WAIT_S = 90.0
#: How often the screen looks at the mount table.
LOOK_EVERY_S = 0.5
#: Set by :func:`start_again` for the next start: ``mounted:SECONDS`` (the stick came after so
#: long) or ``unsaved`` (the players chose to play without saving).
AFTER_WAIT_VAR = "COMPANION_AFTER_DATA_WAIT"
#: The watchdog's length for the start after the wait (it is already armed: the first start of
#: the app is guarded by TimeoutStartSec instead); the app puts the usual one back when it is up.
START_AGAIN_WATCHDOG_S = 180
GUIDE = "docs/raspberry-pi.md, 'When the data stick is late or missing'"


class Phase(enum.Enum):
    """Where the wait is."""

    WAITING = "waiting"  # the countdown runs: the stick may still come
    NOT_COME = "not come"  # the countdown is over: what to do
    IN_RAM = "in RAM"  # mounted, but under a RAM overlay (raspi-config's): waiting won't help
    HERE = "here"  # mounted: the app starts saving


class Outcome(enum.Enum):
    """How the waiting screen ended."""

    MOUNTED = "mounted"
    UNSAVED = "play without saving"
    CLOSED = "closed"


@dataclass(frozen=True)
class WaitView:
    """What the waiting screen shows now."""

    phase: Phase
    title: str
    #: the countdown ("1:23"), "" once it is over
    countdown: str
    #: what is going on and what to do, paragraph by paragraph
    lines: tuple[str, ...]
    #: whether the players may choose to play without saving
    may_play_unsaved: bool


def clock_text(seconds: float) -> str:
    """>>> clock_text(83.2)
    '1:24'
    """
    whole = max(0, int(seconds + 0.999))
    return f"{whole // 60}:{whole % 60:02d}"


class DataWait:
    """The waiting screen's model: the data mount ``protect`` and the data folder ``data`` the
    journal goes in, looked at in the mount table (``mountinfo``: a stand-in in tests) against
    a clock started when the wait began."""

    def __init__(self, protect: Path, data: Path, *,
                 clock: Callable[[], float] = time.monotonic,
                 mountinfo: Callable[[], str] = read_mountinfo,
                 fstab: str | None = None) -> None:
        self.protect = protect
        self.data = data
        self.clock = clock
        self.mountinfo = mountinfo
        self.started = clock()
        if fstab is None:
            try:
                fstab = Path("/etc/fstab").read_text(encoding="utf-8")
            except OSError:
                fstab = ""
        self.stick: FstabEntry | None = fstab_entry(protect, fstab)
        #: the companion's clone (its commands are named with it)
        self.repo = Path(__file__).resolve().parents[2]

    @property
    def waited(self) -> float:
        return self.clock() - self.started

    def problem(self) -> str | None:
        """Why games cannot be saved now (None: the stick is mounted and not in RAM)."""
        return data_folder_problem(self.data, self.protect, self.mountinfo())

    def _in_ram(self) -> bool:
        mounts = parse_mountinfo(self.mountinfo())
        on = mount_of(self.protect, mounts)
        return on is not None and on.point == Path(os.path.realpath(self.protect))

    def look(self) -> WaitView:
        """What to show now."""
        problem = self.problem()
        stick = self.stick.describe() if self.stick is not None else "the data stick"
        where = f"{stick} ({self.protect})"
        if problem is None:
            return WaitView(Phase.HERE, "The data stick is here", "", (
                f"{where[0].upper()}{where[1:]} is mounted after {clock_text(self.waited)}: the "
                "companion starts, and saves every game on it.",), False)
        if self._in_ram():
            return WaitView(Phase.IN_RAM, "Games cannot be saved", "", (
                problem,
                "Waiting will not help: fix it over SSH, then restart the Pi. To play now "
                "without saving any game, tap Play without saving.",
                f"More in {GUIDE}."), True)
        left = WAIT_S - self.waited
        if left > 0:
            return WaitView(Phase.WAITING, "Waiting for the data stick", clock_text(left), (
                f"The games, settings and profiles of this table are kept on {where}, which is "
                "not mounted yet. The companion starts as soon as it is.",
                "Is it plugged in? Nothing is saved until it is here."), False)
        if self.stick is None:
            first = (f"{self.protect} has no line in /etc/fstab, so nothing mounts it. Over "
                     f"SSH, add it as docs/raspberry-pi.md says ('Power-pull protection', step "
                     "2), then restart the Pi.")
        else:
            first = (f"Plug {stick} into the Pi (any USB port). It is mounted as soon as it is "
                     "in, and the companion starts by itself: this screen keeps watching.")
        return WaitView(Phase.NOT_COME, "The data stick has not come", "", (
            f"The games, settings and profiles of this table are kept on {where}: it has not "
            f"been mounted in {clock_text(self.waited)}.",
            f"1. {first}",
            "2. Plugged in, and still nothing after a minute? Over SSH: sudo "
            f"{self.repo / '.venv/bin/companion'} appliance status says what is wrong.",
            "3. To play now without saving any game, tap Play without saving.",
            f"More in {GUIDE}."), True)


def needed() -> DataWait | None:
    """The wait, when the app is the appliance's under power-pull protection, its data folder
    is not safe on the mounted stick, and the players have not chosen to play without saving;
    None otherwise (start as usual)."""
    from companion import paths

    protect = protect_dir()
    if protect is None or os.environ.get(AFTER_WAIT_VAR) == Outcome.UNSAVED.value:
        return None
    wait = DataWait(protect, paths.data_dir())
    return wait if wait.problem() is not None else None


def not_mounted(folder: Path) -> bool:
    """Whether ``folder`` belongs on the protected data stick, which is not mounted now (or is
    in RAM): nothing may be written there."""
    return data_folder_problem(folder, protect_dir()) is not None


def kivy_home_in_ram() -> str:
    """A Kivy home for the waiting screen while the stick (which holds the usual one) is away:
    in the user's runtime folder (RAM, gone at power-off: nothing of it needs keeping)."""
    base = os.environ.get("XDG_RUNTIME_DIR") or tempfile.gettempdir()
    return tempfile.mkdtemp(prefix="table-companion-kivy-", dir=base)


def start_again(outcome: Outcome, waited: float, env: dict[str, str]) -> None:
    """Start ``companion start`` again in this process (the same process id, so systemd and
    lwrespawn see one app), with ``env``, saying how the wait ended. Never returns."""
    from companion.appliance.notify import stretch_watchdog

    env = dict(env)
    env[AFTER_WAIT_VAR] = (f"{Outcome.MOUNTED.value}:{waited:.0f}"
                           if outcome is Outcome.MOUNTED else Outcome.UNSAVED.value)
    stretch_watchdog(START_AGAIN_WATCHDOG_S, env)
    sys.stdout.flush()
    sys.stderr.flush()
    os.execve(sys.executable, [sys.executable, *sys.orig_argv[1:]], env)


def after_wait_notice(journal: Path, now: float | None = None, *,
                      unsaved: str = "") -> str | None:
    """What the start screen says after the wait (read once from the environment, then
    forgotten): the stick came, and games are saved on it from now on (``unsaved``: why the
    journal on it takes no game after all, a read-only stick say); None after no wait (and
    after Play without saving: the journal's own notice says games are not saved)."""
    value = os.environ.pop(AFTER_WAIT_VAR, "")
    kind, _sep, seconds = value.partition(":")
    if kind != Outcome.MOUNTED.value:
        return None
    when = time.strftime("%H:%M:%S", time.localtime(now))
    try:
        late = f" {clock_text(float(seconds))} after the companion started"
    except ValueError:
        late = ""
    if unsaved:
        return (f"The data stick came{late}, but the game journal {journal} on it cannot take "
                f"games: {unsaved}")
    return (f"The data stick came{late}. The game journal {journal} was opened on it at {when}: "
            "games are saved from now on (nothing was played before it came).")
