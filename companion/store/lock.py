"""One companion per data folder: the exclusive lock on it, held for as long as the app runs.

:func:`take_lock` holds an exclusive ``flock`` on ``<data folder>/companion.lock`` (with the
holder's process id written in it). A second app finds it held, says which process holds it,
and opens the journal read-only: it shows the games but takes no calls. The kernel lets the
lock go when the process ends, however it ends (a crash, kill -9, a power cut leaves no stale
lock). :func:`take_journal_lock` follows a journal that is a link into another folder.
"""

from __future__ import annotations

import errno
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path

#: The lock file in the data folder.
LOCK_NAME = "companion.lock"


@dataclass
class DataLock:
    """The exclusive lock on a data folder (and on the folder its journal is a link into,
    when it is one), held until :meth:`release` or the process ends."""

    path: Path
    fd: int | None
    more: list[int] = field(default_factory=list)

    def release(self) -> None:
        for fd in [*([self.fd] if self.fd is not None else []), *self.more]:
            os.close(fd)  # closing the file lets the flock go
        self.fd = None
        self.more = []


def lock_holder(path: Path) -> int | None:
    """The process id written in a lock file, or None when it cannot be read."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW)
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        text = os.read(fd, 32).decode("ascii", "replace").strip()
    finally:
        os.close(fd)
    return int(text) if text.isdigit() else None


def _live_holder(path: Path, wait: float = 2.0) -> int | None:
    """The id of the live process holding the lock: it writes its id just after taking the
    lock, so a companion started at the same moment may find the file still empty (or with
    the id of a holder gone before): it looks again for up to ``wait`` seconds."""
    import time

    end = time.monotonic() + wait
    while True:
        pid = lock_holder(path)
        if pid is not None and pid != os.getpid():
            try:
                os.kill(pid, 0)
                return pid
            except PermissionError:
                return pid  # alive, another user's
            except OSError:
                pass  # gone: the file still holds an earlier holder's id
        if time.monotonic() >= end:
            return None
        time.sleep(0.01)


class LockRefused(Exception):
    """Raised when a lock file cannot be held: ``held`` when another process holds it
    (``holder``: its id, when known), else the OSError's words in ``why``."""

    def __init__(self, held: bool, holder: int | None = None, why: str = "",
                 errno_: int | None = None) -> None:
        super().__init__(why or (f"held by process {holder}" if holder else "held"))
        self.held, self.holder, self.why, self.errno = held, holder, why, errno_


def hold_lock_file(path: Path) -> int:
    """An exclusive ``flock`` on ``path`` (a plain file, made owner-writable if missing,
    never opened through a link), with this process's id written in it; returns its
    descriptor: closing it lets the lock go, and so does the process ending however it
    ends (no stale lock). Raised when it cannot be held: :class:`LockRefused`."""
    import fcntl

    flags = os.O_RDWR | os.O_CREAT | os.O_NONBLOCK | os.O_NOFOLLOW | os.O_CLOEXEC
    try:
        fd = os.open(path, flags, 0o644)
    except OSError as e:
        raise LockRefused(False, why=e.strerror or str(e), errno_=e.errno) from None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise LockRefused(False, why="not a plain file")
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as e:
        os.close(fd)
        if e.errno not in (errno.EAGAIN, errno.EWOULDBLOCK, errno.EACCES):
            raise LockRefused(False, why=f"cannot be locked ({e.strerror or e})",
                              errno_=e.errno) from None
        raise LockRefused(True, _live_holder(path)) from None
    try:
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode("ascii"))
    except OSError:
        pass  # a full card: the lock holds all the same, only its note of who is missing
    return fd


def take_lock(folder: Path, *, refused: str = "this one shows the games but takes no calls"
              ) -> tuple[DataLock | None, str]:
    """Take the data folder's lock: (the lock, "") when this process may write the journal;
    (None, why, in words naming the folder) when it may not: another process holds it (its
    id is said, and ``refused`` says what this one does then), or the folder cannot be
    written."""
    path = folder / LOCK_NAME
    try:
        return DataLock(path, hold_lock_file(path)), ""
    except LockRefused as e:
        if e.held:
            who = f"process {e.holder}" if e.holder is not None else "another process"
            return None, (f"Another companion ({who}) is using the data folder {folder}: "
                          f"{refused}. Close the other one first.")
        if e.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
            return None, (f"The data folder {folder} is read-only (the SD card may be "
                          "failing): games can be viewed, but no call is taken or saved. "
                          "Copy the journal off the card, then check or replace the card.")
        if e.why == "not a plain file":
            return None, (f"The lock file {path} is not a plain file: games can be viewed, "
                          "but no call is taken. Move it away.")
        if e.why.startswith("cannot be locked"):
            return None, (f"The lock file {path} {e.why}: games can be viewed, but no call "
                          "is taken.")
        return None, (f"The lock file {path} cannot be opened ({e.why}): games can be "
                      "viewed, but no call is taken. Move it away.")


def take_journal_lock(journal: Path, *,
                      refused: str = "this one shows the games but takes no calls"
                      ) -> tuple[DataLock | None, str]:
    """The lock of the journal's data folder (:func:`take_lock`), and, when the journal is a
    link to a file in another folder, the lock of that folder too: whatever the path
    resolves to is held, so two companions whose data folders link to one journal never
    both write it. A journal with more than one name (hard links: SQLite keeps its log beside
    each name, so two writers would damage it) is not written. (None, why) as
    :func:`take_lock`."""
    folder = journal.parent
    lock, why = take_lock(folder, refused=refused)
    if lock is None:
        return None, why
    try:
        target = journal.resolve()
        plain = target.is_file()
        names = target.stat().st_nlink if plain else 1
        elsewhere = target.parent != folder.resolve()
    except (OSError, RuntimeError) as e:  # a loop of links, a folder not to be entered
        lock.release()
        return None, (f"The journal {journal} cannot be followed ({e}): games can be "
                      "viewed, but no call is taken.")
    if names > 1:
        lock.release()
        return None, (f"The journal {journal} has {names} names (hard links): a companion "
                      "could write it under each, which damages it. Games can be viewed, "
                      "but no call is taken: keep one name (copy the file, then remove the "
                      "others).")
    if elsewhere and plain:  # (a link to anything else is set aside by the journal)
        other, why = take_lock(target.parent, refused=refused)
        if other is None:
            lock.release()
            return None, (f"The journal {journal} is a link to {target}: {why}")
        assert other.fd is not None
        lock.more.append(other.fd)
    return lock, ""


__all__ = ["LOCK_NAME", "DataLock", "LockRefused", "hold_lock_file", "lock_holder",
           "take_journal_lock", "take_lock"]
