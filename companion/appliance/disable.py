"""``companion appliance disable``: undo everything ``enable`` recorded, newest first; under the
RAM overlay, on the real root below it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from companion.appliance.files import BLOCK_END, BLOCK_START, COMMENTED
from companion.appliance.manifest import MANIFEST, Manifest
from companion.appliance.overlay import OVERLAY_LOWER, overlay_active
from companion.appliance.packages import apt_purge
from companion.appliance.system import (
    DOCS,
    ApplianceError,
    Report,
    Runner,
    in_root,
    is_live,
    run,
    run_command,
    systemctl,
)
from companion.words import plural


def disable(root: Path = Path("/"), runner: Runner = run_command, *,
            live: bool | None = None) -> Report:
    """Undo everything ``enable`` recorded, newest first; a no-op when nothing was enabled.
    ``live``: whether ``root`` is the running system (see :attr:`Options.live`)."""
    report = Report()
    running = is_live(root) if live is None else live
    if overlay_active(root):
        # The running root is a RAM overlay: the real one is mounted read-only below it.
        lower = in_root(root, OVERLAY_LOWER)
        run(runner, ["mount", "-o", "remount,rw", str(lower)], report, check=True)
        try:
            report.lines += disable(lower, runner).lines
        finally:
            run(runner, ["mount", "-o", "remount,ro", str(lower)], report)
        report.add("power-pull protection stays on until the next boot: `sudo reboot`")
        return report
    manifest = Manifest.load(root)
    if manifest is None:
        report.add("the appliance is not enabled here: nothing to undo")
        return report
    pending: list[dict[str, Any]] = []
    stays: list[str] = []
    for op in reversed(manifest.ops):
        if op["op"] == "apt" and not running:
            pending.insert(0, op)  # apt works on the running system only: kept for later
            continue
        stays += _undo(root, op, runner, report, running)
        manifest.ops.remove(op)
        manifest.save()
    if pending:
        manifest.settings = {"disabled": True}
        manifest.save()
        names = ", ".join(op["package"] for op in pending)
        report.add(f"disabled, but {names} is still installed (apt works only on the running "
                   "system, without the overlay): after the next boot run `sudo "
                   ".venv/bin/companion appliance disable` once more to remove it")
        return report
    manifest.path.unlink()
    parent = manifest.path.parent
    if parent.exists() and not any(parent.iterdir()):
        parent.rmdir()
    if running:
        run(runner, ["systemctl", "daemon-reload"], report)
    if stays:
        report.add("disabled: the Pi boots as it did before `companion appliance enable`, but "
                   "for what stays: " + "; ".join(stays))
    else:
        report.add("disabled: the Pi boots as it did before `companion appliance enable`")
    return report


def _undo(root: Path, op: dict[str, Any], runner: Runner, report: Report,
          running: bool) -> list[str]:
    """Undo one recorded change, saying what was done; returns what stays as it is, in words."""
    kind = op["op"]
    if kind == "file":
        in_root(root, op["path"]).unlink(missing_ok=True)
        report.add(f"removed {op['path']}")
    elif kind == "dir":
        folder = in_root(root, op["path"])
        if folder.is_dir() and not any(folder.iterdir()):
            folder.rmdir()
    elif kind == "unit-enabled":
        systemctl(root, runner, ["disable", op["unit"]])
        report.add(f"{op['unit']}: disabled")
        if running:
            run(runner, ["systemctl", "stop", op["unit"]], report)
    elif kind == "default-target":
        link = in_root(root, "/etc/systemd/system/default.target")
        link.unlink(missing_ok=True)
        if op["link"] is not None:
            link.symlink_to(op["link"])
        report.add("boot target: as it was (graphical.target)")
    elif kind == "autostart":
        return _undo_autostart(root, op, report)
    elif kind == "apt":
        if running:
            return apt_purge(root, runner, op, report)
    else:
        raise ApplianceError(f"{MANIFEST}: unknown change {kind!r}; see {DOCS}, 'Undo by hand'")
    return []


def _undo_autostart(root: Path, op: dict[str, Any], report: Report) -> list[str]:
    """The companion's block out of the labwc autostart, the blanking lines on again (the whole
    file removed when ``enable`` made it)."""
    path = in_root(root, op["path"])
    if op["created"]:
        path.unlink(missing_ok=True)
        report.add(f"removed {op['path']} (enable made it)")
        return []
    if not path.exists():
        report.add(f"{op['path']}: no longer there; nothing to take back")
        return []
    lines = path.read_text(encoding="utf-8").splitlines()
    # the lines as they were (a manifest of an older enable kept them with the prefix)
    turned_off = [ln.removeprefix(COMMENTED) for ln in op["commented"]]
    gone = [ln for ln in turned_off if COMMENTED + ln not in lines]
    keep: list[str] = []
    inside = False
    for line in lines:
        if line.startswith(BLOCK_START):
            inside = True
        elif line.startswith(BLOCK_END):
            inside = False
        elif not inside:
            keep.append(line.removeprefix(COMMENTED))
    path.write_text("\n".join(keep) + ("\n" if keep else ""), encoding="utf-8")
    back = len(turned_off) - len(gone)
    report.add(f"{op['path']}: the companion's block removed"
               + (f", {plural(back, 'screen-blanking line')} turned on again" if back else ""))
    if not gone:
        return []
    return [f"{plural(len(gone), 'screen-blanking line')} that enable turned off in "
            f"{op['path']} {'was' if len(gone) == 1 else 'were'} removed since (raspi-config's "
            "Screen Blanking switch does that) and cannot be put back: turn blanking on there "
            "if you want it"]
