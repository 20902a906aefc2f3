"""Every file the app reads at start, read through one error path: none can stop the app.

The settings (written by the app), the config file (written by hand), the calibration profile
and the journal. A file that cannot be used gives a notice naming the file and what was wrong,
shown once in full on the start screen, and the app starts with the defaults:

- a file the app writes itself (settings, journal) is renamed aside as
  ``<name>.damaged-<time>`` (kept, never deleted), so the app can write a sound one;
- a file the players write or make with `companion calibrate` (config.toml, profiles) is left
  where it is, untouched, and not used until it is fixed (`companion doctor` says how).

A journal game that cannot be resumed is marked so (with its reason) and what can still be read
of it is written into ``<data>/cannot-resume/``.
"""

from __future__ import annotations

import logging
import os
import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from companion import paths
from companion import settings as settings_mod
from companion.appliance.mounts import data_folder_problem, protect_dir
from companion.journal import Journal
from companion.store import ReadOnly, StoreError, take_journal_lock
from companion.store import healed as store_healed

log = logging.getLogger(__name__)
T = TypeVar("T")


def set_aside(path: Path) -> Path:
    """Rename a damaged file (or folder) aside as ``<name>.damaged-<time>``; returns the name."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    aside = path.with_name(f"{path.name}.damaged-{stamp}")
    n = 1
    while aside.exists():
        n += 1
        aside = path.with_name(f"{path.name}.damaged-{stamp}-{n}")
    path.rename(aside)
    return aside


def read_start_file(path: Path, what: str, read: Callable[[Path], T], default: T, *,
                    owned: bool) -> tuple[T, str]:
    """Read one start-up file; on any problem, the default and a notice saying what happened.

    ``owned``: the app writes this file itself, so a damaged one is set aside (kept) and the
    app writes a new one; otherwise it is left untouched for the players to fix.
    """
    try:
        return read(path), ""
    except Exception as e:  # nothing on disk may stop the app: say what, keep the file
        reason = _without_path(str(e) or type(e).__name__, path)
        if owned and (path.exists() or path.is_symlink()):
            try:
                aside = set_aside(path)
                kept = f"It was kept as {aside.name}"
            except OSError as moved:
                kept = f"It could not be moved aside ({moved.strerror or moved})"
            note = f"The {what} could not be used: {reason}. {kept}; the app uses the defaults."
        else:
            note = (f"The {what} could not be used: {reason}. It was left as it is; the app "
                    "uses the defaults until it is fixed (`companion doctor` says how).")
        log.error("companion: %s", note)
        return default, note


def _without_path(reason: str, path: Path) -> str:
    """The reason an error gives, without the file's path the notice already names."""
    for said in (f"config file {path} is ", f"config file {path} ", f"'{path}': ", f"{path}: ",
                 f"{path} "):
        reason = reason.replace(said, "")
    return reason


@dataclass
class StartFiles:
    """What the app read at start, and what the players must know about it."""

    settings: settings_mod.Settings
    config: dict[str, Any]
    journal: Journal
    notices: list[str] = field(default_factory=list)


def read_settings(path: Path | None = None) -> tuple[settings_mod.Settings, str]:
    file = path or paths.settings_path()
    return read_start_file(file, f"settings file {file}", settings_mod.load,
                           settings_mod.Settings(), owned=True)


def read_config(path: Path | None = None) -> tuple[dict[str, Any], str]:
    from hardware.config import load_config

    file = path or paths.config_file()
    empty: dict[str, Any] = {}
    return read_start_file(file, f"config file {file}", load_config, empty, owned=False)


def open_journal(path: Path | None = None, *, lock: bool = True) -> tuple[Journal, list[str]]:
    """The journal, whatever state its file and its folder are in, and one notice per thing
    that was wrong (the folder, the file itself, its log, each game that cannot be resumed).
    Games cut off before their first call are forgotten: there is nothing in them to resume
    (the app opens the journal before any game is played).

    ``lock``: take the data folder's lock (:func:`companion.store.take_journal_lock`: the
    folder the journal's path resolves to as well, when it is a link), as the app
    does: when another companion holds it, or the folder is read-only, the journal is opened
    read-only (``journal.readonly`` says why, and so does a notice). A data folder that is
    not a folder gives a journal that holds nothing and takes nothing."""
    file = path or paths.journal_path()
    unsafe = data_folder_problem(file.parent, protect_dir())
    if unsafe:  # power-pull protection, but the data folder is in RAM: never journal there
        log.error("companion: %s", unsafe)
        return Journal(":memory:"), [unsafe]
    folder = file.parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        why = (f"The data folder {folder} is a file, not a folder: no game can be saved or "
               "resumed. Move that file away and start the companion again.")
        return Journal.unavailable(file, why), [why]
    except OSError as e:
        try:
            there = folder.is_dir()
        except OSError:  # not even looked at (a folder above it the app may not enter)
            there = False
        if not there:
            why = (f"The data folder {folder} cannot be used ({e.strerror or e}): no game "
                   "can be saved or resumed.")
            return Journal.unavailable(file, why), [why]
    held = None
    readonly = ""
    if lock:
        held, readonly = take_journal_lock(file)
    if not readonly and file.is_file() and not os.access(file, os.W_OK):
        readonly = (f"The game journal {file} cannot be written (read-only): games can be "
                    "viewed, but no call is taken. Check the file's owner and permissions.")
        if held is not None:
            held.release()
            held = None
    try:
        try:
            journal, problem = Journal.open_or_set_aside(file, readonly=readonly)
        except ReadOnly as e:  # the folder takes a lock file, the journal itself no write
            readonly = f"The game journal {file} cannot be written: games can be viewed, " \
                       f"but no call is taken ({e})."
            journal, problem = Journal.open_or_set_aside(file, readonly=readonly)
    except (OSError, sqlite3.Error, StoreError) as e:  # e.g. a read-only file in a writable folder
        if held is not None:
            held.release()
        why = f"The game journal {file} cannot be opened: {e}. Games cannot be saved."
        return Journal.unavailable(file, why), [why]
    journal.lock = held
    notices = [n for n in (readonly, problem) if n]
    mended = store_healed(file)
    if mended:
        notices.append(f"The game journal {file} was not as this version keeps it: "
                       + "; ".join(mended) + ".")
    try:
        notices += journal.check_unfinished(file.parent / "cannot-resume")
        journal.discard_all_empty()
    except Exception as e:  # a check that fails must not stop the app either
        notices.append(f"The games of the journal {file} could not all be checked: {e}")
    return journal, notices


def read_all(*, settings: settings_mod.Settings | None = None,
             settings_file: Path | None = None, journal_file: Path | None = None) -> StartFiles:
    """Settings (unless given), config and journal, with their notices."""
    notices: list[str] = []
    if settings is None:
        settings, note = read_settings(settings_file)
        notices += [note] if note else []
    config, note = read_config()
    notices += [note] if note else []
    journal, more = open_journal(journal_file)
    return StartFiles(settings, config, journal, notices + more)


__all__ = ["StartFiles", "open_journal", "read_all", "read_config", "read_settings",
           "read_start_file", "set_aside"]
