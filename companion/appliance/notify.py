"""Tell systemd the app is alive (the sd_notify protocol), so a hung app is restarted.

Under the appliance's service (``companion appliance enable``) systemd sets ``NOTIFY_SOCKET`` and
``WATCHDOG_USEC``: the app must then say ``READY=1`` once and ``WATCHDOG=1`` at least every
``WATCHDOG_USEC`` microseconds, or systemd kills it and starts it again. :func:`feed_watchdog`
does both; call it from the app's main-thread clock (a hung main loop then stops feeding it).
Outside systemd it does nothing and returns False, so the app may call it everywhere.

The protocol is one datagram on a Unix socket (sd_notify(3)); it is written here because the
Python packages for it are either unmaintained (sdnotify, last released 2017) or need
libsystemd's headers to build (systemd-python).
"""

from __future__ import annotations

import logging
import os
import socket
from typing import Any

log = logging.getLogger(__name__)

_ready_sent = False
#: Set for a start whose watchdog :func:`stretch_watchdog` lengthened.
RESTORE_VAR = "COMPANION_WATCHDOG_RESTORE"


def notify(message: str) -> bool:
    """Send ``message`` (e.g. ``"READY=1"``) to systemd; False when not run by systemd, or when
    the socket cannot be reached or is full (never raises nor waits: a lost notification must
    not stop the app, and the next one follows soon)."""
    address = os.environ.get("NOTIFY_SOCKET")
    if not address:
        return False
    if address.startswith("@"):  # an abstract socket
        address = "\0" + address[1:]
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
            sock.setblocking(False)  # the app's main loop never waits on systemd
            sock.connect(address)
            sock.sendall(message.encode("utf-8"))
    except OSError as exc:
        log.debug("sd_notify %r to %r failed: %s", message, address, exc)
        return False
    return True


def watchdog_interval() -> float | None:
    """How often (seconds) to call :func:`feed_watchdog`: a third of systemd's ``WatchdogSec``,
    or None when no watchdog is asked of this process."""
    usec = os.environ.get("WATCHDOG_USEC", "")
    pid = os.environ.get("WATCHDOG_PID", "")
    if not usec.isdigit() or int(usec) <= 0 or (pid and pid != str(os.getpid())):
        return None
    return int(usec) / 3e6


def stretch_watchdog(seconds: float, env: dict[str, str]) -> bool:
    """Before this process starts the app again in itself (``os.exec*``, the same process id):
    give the new start ``seconds`` before systemd's watchdog, already armed, would kill it; the
    new start puts the usual length back (``env`` tells it to) with its first word to systemd.
    False, and nothing changed, without a watchdog."""
    if watchdog_interval() is None:
        return False
    sent = notify(f"WATCHDOG=1\nWATCHDOG_USEC={int(seconds * 1_000_000)}")
    if sent:
        env[RESTORE_VAR] = "1"
    return sent


def feed_watchdog() -> bool:
    """The app is alive: ``READY=1`` with the first call (the start screen is up), then
    ``WATCHDOG=1``. Returns whether systemd was told."""
    global _ready_sent
    if not _ready_sent:
        message = "READY=1\nWATCHDOG=1\nSTATUS=the table companion is running"
        usual = os.environ.get("WATCHDOG_USEC", "")
        if os.environ.pop(RESTORE_VAR, "") and usual.isdigit():
            message += f"\nWATCHDOG_USEC={usual}"  # stretched for this start: as usual again
        sent = notify(message)
        _ready_sent = sent
        return sent
    return notify("WATCHDOG=1")


def watch_over(clock: Any) -> None:
    """Under systemd (the appliance): READY=1 with the first frame, when the start screen is
    up, then WATCHDOG=1 from the main-thread clock (Kivy's ``Clock``), so a hung main loop gets
    the app restarted. Nothing is scheduled outside systemd. The app and the failure screen
    (:mod:`companion.appliance.failed`) both call it."""
    if not os.environ.get("NOTIFY_SOCKET"):
        return
    clock.schedule_once(lambda _dt: feed_watchdog(), 0)
    interval = watchdog_interval()
    if interval is not None:
        clock.schedule_interval(lambda _dt: feed_watchdog(), interval)
