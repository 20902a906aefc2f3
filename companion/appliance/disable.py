"""``companion appliance disable``: undo everything ``enable`` recorded, newest first; under the
RAM overlay, on the real root below it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from companion.appliance.files import BLOCK_END, BLOCK_START, COMMENTED
from companion.appliance.manifest import MANIFEST, Manifest
from companion.appliance.overlay import OVERLAY_LOWER, overlay_active
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


def disable(root: Path = Path("/"), runner: Runner = run_command) -> Report:
    """Undo everything ``enable`` recorded, newest first; a no-op when nothing was enabled."""
    report = Report()
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
    for op in reversed(manifest.ops):
        if op["op"] == "apt" and not is_live(root):
            pending.insert(0, op)  # apt works on the running system only: kept for later
            continue
        _undo(root, op, runner, report)
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
    if is_live(root):
        run(runner, ["systemctl", "daemon-reload"], report)
    report.add("disabled: the Pi boots as it did before `companion appliance enable`")
    return report


def _undo(root: Path, op: dict[str, Any], runner: Runner, report: Report) -> None:
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
        if is_live(root):
            run(runner, ["systemctl", "stop", op["unit"]], report)
    elif kind == "default-target":
        link = in_root(root, "/etc/systemd/system/default.target")
        link.unlink(missing_ok=True)
        if op["link"] is not None:
            link.symlink_to(op["link"])
        report.add("boot target: as it was (graphical.target)")
    elif kind == "autostart":
        path = in_root(root, op["path"])
        if op["created"]:
            path.unlink(missing_ok=True)
        elif path.exists():
            lines = path.read_text(encoding="utf-8").splitlines()
            gone = [ln for ln in op["commented"] if COMMENTED + ln not in lines]
            if gone:
                report.add(f"{op['path']}: {len(gone)} screen-blanking line(s) turned off by "
                           "enable were removed since (raspi-config's Screen Blanking switch "
                           "does that) and cannot be restored: turn blanking on there if you "
                           "want it")
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
        report.add(f"{op['path']}: the companion's block removed")
    elif kind == "apt":
        if is_live(root):
            run(runner, ["apt-get", "purge", "-y", op["package"]], report)
            run(runner, ["update-initramfs", "-u"], report)
    else:
        raise ApplianceError(f"{MANIFEST}: unknown change {kind!r}; see {DOCS}, 'Undo by hand'")
