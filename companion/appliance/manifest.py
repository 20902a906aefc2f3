"""The appliance's record of what ``enable`` changed (``/var/lib/table-companion/appliance.json``),
saved after each change, so ``disable`` can undo exactly those, newest first."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from companion.appliance.system import DOCS, Account, ApplianceError, in_root

MANIFEST = "/var/lib/table-companion/appliance.json"


class Manifest:
    """The list of changes ``enable`` made, saved after each one so ``disable`` can undo them."""

    def __init__(self, root: Path, ops: list[dict[str, Any]] | None = None,
                 settings: dict[str, Any] | None = None) -> None:
        self.root = root
        self.ops: list[dict[str, Any]] = ops or []
        self.settings: dict[str, Any] = settings or {}

    @property
    def path(self) -> Path:
        return in_root(self.root, MANIFEST)

    @classmethod
    def load(cls, root: Path) -> Manifest | None:
        path = in_root(root, MANIFEST)
        if not path.exists():
            return None
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            return cls(root, list(data["ops"]), dict(data["settings"]))
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise ApplianceError(f"{path} is damaged ({exc}): the appliance's changes cannot be "
                                 f"undone from it; see {DOCS}, 'Undo by hand'") from None

    def record(self, op: dict[str, Any]) -> None:
        self.ops.append(op)
        self.save()

    def save(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_suffix(".tmp")
        tmp.write_text(json.dumps({"settings": self.settings, "ops": self.ops}, indent=1),
                       encoding="utf-8")
        os.replace(tmp, self.path)


def make_dirs(root: Path, path: str, manifest: Manifest, owner: Account | None) -> None:
    """Create the folders above ``path`` that are missing, recording each."""
    missing = []
    parent = Path(path).parent
    while not in_root(root, parent).exists():
        missing.append(parent)
        parent = parent.parent
    for d in reversed(missing):
        in_root(root, d).mkdir()
        if owner is not None and str(d).startswith(str(owner.home)):
            chown(in_root(root, d), owner)
        manifest.record({"op": "dir", "path": str(d)})


def chown(path: Path, owner: Account) -> None:
    if os.geteuid() == 0:
        os.chown(path, owner.uid, owner.gid)


def write_new(root: Path, path: str, text: str, manifest: Manifest,
               owner: Account | None = None) -> None:
    target = in_root(root, path)
    if target.exists():
        raise ApplianceError(f"{target} exists and was not written by `companion appliance`: "
                             "move it away first")
    make_dirs(root, path, manifest, owner)
    manifest.record({"op": "file", "path": path})
    target.write_text(text, encoding="utf-8")
    if owner is not None:
        chown(target, owner)
