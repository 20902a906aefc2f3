"""Reading a small file that anyone may have replaced with something else.

A settings file, a config file, a calibration profile: each is a few kilobytes of text. But on
a shared SD card any of them can be a FIFO (opening it for reading waits for a writer, for
ever), a link to a device such as ``/dev/zero`` (endless bytes), or a huge file. So they are
read here only when they are a plain file, opened without blocking and read up to a limit:
never more than ``limit + 1`` bytes are read, whatever the file claims to be.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path


class NotAPlainFile(OSError):
    """A path that is there but is not a plain file (a FIFO, a device, a socket), or too
    large; its message says which, and ``strerror`` says it without the path."""


def read_bounded(path: Path | str, limit: int) -> bytes:
    """The bytes of the plain file ``path``, at most ``limit`` of them.

    Raised when ...: FileNotFoundError when it is not there; IsADirectoryError for a folder;
    :class:`NotAPlainFile` for a FIFO, a device or a socket (never opened in a way that
    could wait or read endlessly) and for a file larger than ``limit``; other OSError when
    it cannot be read.
    """
    path = Path(path)
    info = os.stat(path)  # follows a link: a link to /dev/zero is a device
    if stat.S_ISDIR(info.st_mode):
        raise IsADirectoryError(21, "is a folder, not a file", str(path))
    if not stat.S_ISREG(info.st_mode):
        raise NotAPlainFile(0, f"is {_kind(info.st_mode)}, not a plain file", str(path))
    # O_NONBLOCK: should the path become a FIFO between the stat and the open, the open
    # does not wait for a writer; the fstat below then refuses it.
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise NotAPlainFile(0, f"is {_kind(info.st_mode)}, not a plain file", str(path))
        chunks: list[bytes] = []
        size = 0
        while size <= limit:
            chunk = os.read(fd, min(65536, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    finally:
        os.close(fd)
    if size > limit:
        raise NotAPlainFile(0, f"is larger than {limit} bytes: too large for what it should "
                            "be", str(path))
    return b"".join(chunks)


def _kind(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a special file"


__all__ = ["NotAPlainFile", "read_bounded"]
