"""What can go wrong writing the journal's file, in plain words: :class:`StoreError` and its
kinds (a full card, a read-only one), and :func:`disk_problem`, which tells a disk's refusal
from any other error."""

from __future__ import annotations

import errno
from pathlib import Path

# SQLite's primary result codes (an extended code's low byte).
SQLITE_READONLY = 8
SQLITE_IOERR = 10
SQLITE_FULL = 13
SQLITE_CANTOPEN = 14


class StoreError(RuntimeError):
    """The journal's file cannot do what was asked; the message names the file and why."""


class DiskFull(StoreError):
    """A write did not fit on the card: it was rolled back, nothing was saved."""


class ReadOnly(StoreError):
    """The journal is open read-only (a read-only card, or another companion writes it)."""


def disk_problem(e: BaseException, path: Path) -> StoreError | None:
    """The plain words for a write that the card refused (full, read-only, failing), or
    None for an error that is not the disk's."""
    code = getattr(e, "sqlite_errorcode", None)
    primary = code & 0xFF if isinstance(code, int) else None
    number = e.errno if isinstance(e, OSError) else None
    if primary == SQLITE_FULL or number in (errno.ENOSPC, errno.EDQUOT):
        return DiskFull(f"the SD card is full: nothing was saved in {path}. Free some space "
                        "(old pictures, logs) and try again")
    if primary == SQLITE_READONLY or number in (errno.EROFS, errno.EACCES, errno.EPERM):
        return ReadOnly(f"the journal {path} cannot be written (the card or the data folder "
                        "is read-only): games can be viewed, no call is taken")
    if primary in (SQLITE_IOERR, SQLITE_CANTOPEN) or number == errno.EIO:
        return StoreError(f"the SD card could not save to {path} ({e}): nothing was saved; "
                          "check the card (`companion doctor`)")
    return None


__all__ = ["DiskFull", "ReadOnly", "StoreError", "disk_problem"]
