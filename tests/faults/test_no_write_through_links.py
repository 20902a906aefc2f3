"""The small files the app keeps (settings, calibration profiles, the appliance's manifest and
its record of starts) are written whole under a fresh name and renamed over their own: a link
someone planted beside them, at the name a temporary file used to have, is never written
through (on old main each of these wrote into the file the link pointed at)."""

from __future__ import annotations

import json
from pathlib import Path

from calibration.profiles import ProfileStore
from companion.appliance.manifest import Manifest
from companion.appliance.starts import Starts
from companion.settings import Settings, load, save

VICTIM_TEXT = "a file that belongs to someone else\n"


def plant(folder: Path, names: list[str]) -> Path:
    """Links named ``names`` in ``folder`` to one victim file outside it."""
    folder.mkdir(parents=True, exist_ok=True)
    victim = folder.parent / f"victim-{folder.name}"
    victim.write_text(VICTIM_TEXT, encoding="utf-8")
    for name in names:
        (folder / name).symlink_to(victim)
    return victim


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".part"))


def test_settings_are_never_written_through_a_planted_link(tmp_path: Path) -> None:
    folder = tmp_path / "config"
    victim = plant(folder, ["settings.tmp"])
    path = save(Settings(camera="none", text_size="huge"), folder / "settings.toml")
    assert victim.read_text(encoding="utf-8") == VICTIM_TEXT
    assert load(path).text_size == "huge"
    assert (folder / "settings.tmp").is_symlink()  # left alone, not followed
    assert leftovers(folder) == []


def test_a_profile_and_the_current_pointer_are_never_written_through_a_link(
        tmp_path: Path) -> None:
    store = ProfileStore(tmp_path / "config")
    victim = plant(store.profiles_dir, ["felt.json.tmp"])
    (store.folder / "current-profile.tmp").symlink_to(victim)
    store.save(store.load_or_new("felt", camera="synthetic"))
    store.use("felt")
    assert victim.read_text(encoding="utf-8") == VICTIM_TEXT
    assert store.current_name() == "felt"
    assert store.load("felt").name == "felt"
    assert leftovers(store.profiles_dir) == [] and leftovers(store.folder) == []


def test_the_appliance_manifest_is_never_written_through_a_link(tmp_path: Path) -> None:
    root = tmp_path / "root"
    manifest = Manifest(root, settings={"mode": "desktop"})
    victim = plant(manifest.path.parent, [manifest.path.with_suffix(".tmp").name])
    manifest.record({"op": "file", "path": "/etc/example"})
    assert victim.read_text(encoding="utf-8") == VICTIM_TEXT
    saved = json.loads(manifest.path.read_text(encoding="utf-8"))
    assert saved["ops"] == [{"op": "file", "path": "/etc/example"}]
    assert saved["settings"] == {"mode": "desktop"}


def test_the_record_of_starts_is_never_written_through_a_link(tmp_path: Path) -> None:
    folder = tmp_path / "log"
    victim = plant(folder, ["starts.tmp"])
    starts = Starts.load(folder)
    starts.begin()
    assert victim.read_text(encoding="utf-8") == VICTIM_TEXT
    assert Starts.load(folder).started == starts.started
    assert leftovers(folder) == []
