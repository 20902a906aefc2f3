"""Turn a Raspberry Pi into a table companion appliance, and back (`companion appliance`).

``enable`` makes the Pi boot into the app and keep it running: in **desktop mode** (Raspberry Pi
OS with its labwc desktop) a block in the user's labwc autostart, in **console mode** (a Lite
image) a system service on tty1; in both, systemd's watchdogs, the screen's rotation and the
sound output. ``--protect DIR`` adds power-pull protection: a read-only root under a RAM overlay,
with the journal, settings and profiles on DIR, another filesystem (a USB stick). ``disable``
undoes exactly what ``enable`` recorded; ``status`` reads it back and compares it with what runs.
docs/raspberry-pi.md says when to choose what.

The rooms:

- :mod:`.system`: the root the appliance changes (the running Pi, or a card mounted elsewhere),
  its users, the commands run on it;
- :mod:`.files`: what is written, rendered from ``templates/`` and checked;
- :mod:`.manifest`: the record of every change, for ``disable``;
- :mod:`.enable`, :mod:`.disable`, :mod:`.status`: the three commands;
- :mod:`.packages`: what apt installed for ``enable`` (taken back by ``disable``), and the
  stamp ``./start.sh`` leaves of the system packages it looked for;
- :mod:`.overlay` and :mod:`.mounts`: the read-only root, and the data folder's mount;
- :mod:`.datamount` and :mod:`.waiting`: the app waiting for a late data stick, on its screen;
- :mod:`.starts`, :mod:`.failed`, :mod:`.notify`: the app's own log and crash backoff, the
  screen after too many crashes, and the watchdog it feeds.
"""

from __future__ import annotations

from companion.appliance.disable import disable
from companion.appliance.enable import enable
from companion.appliance.files import (
    APP_WATCHDOG_S,
    OVERLAY_CONF,
    UNIT,
    UNIT_PATH,
    WATCHDOG_DROPIN,
    Options,
    check_unit,
    parse_autostart_block,
)
from companion.appliance.manifest import MANIFEST
from companion.appliance.status import status
from companion.appliance.system import ApplianceError, Report, default_user

__all__ = ["APP_WATCHDOG_S", "MANIFEST", "OVERLAY_CONF", "UNIT", "UNIT_PATH", "WATCHDOG_DROPIN",
           "ApplianceError", "Options", "Report", "check_unit", "default_user", "disable",
           "enable", "parse_autostart_block", "status"]
