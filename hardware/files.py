"""Reading a small file that anyone may have replaced with something else, and writing one
that appears only whole and never through a link.

A settings file, a config file, a calibration profile: each is a few kilobytes of text. But on
a shared SD card any of them can be a FIFO (opening it for reading waits for a writer, for
ever), a link to a device such as ``/dev/zero`` (endless bytes), or a huge file. So they are
read here only when they are a plain file, opened without blocking and read up to a limit:
never more than ``limit + 1`` bytes are read, whatever the file claims to be.

An export (a CSV for a spreadsheet, a tournament's files) is written into a folder someone
else may have planted links in: :class:`Folder` writes each file under a fresh name created
beside it (``O_EXCL | O_NOFOLLOW``: never through a link), flushed to disk, then renamed over
its name, relative to the folder held open, so a link planted at that name is replaced, never
followed, and a reader (or a power cut) sees the old file or the new one, never half of it.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import stat
from collections.abc import Iterator
from pathlib import Path
from types import TracebackType
from typing import BinaryIO


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


class Folder:
    """A folder held open; its files are written relative to it (:meth:`new_file`,
    :meth:`write`), its sub-folders opened the same way (:meth:`folder`). ``path`` itself is
    followed as given (the one who names it chooses it); nothing inside it is. A context
    manager.

    Raised when ...: NotADirectoryError when ``path`` is not a folder; OSError when it
    cannot be opened."""

    def __init__(self, path: Path | str, *, make: bool = False, _fd: int | None = None) -> None:
        self.path = Path(path)
        if _fd is not None:
            self.fd = _fd
            return
        if make:
            self.path.mkdir(parents=True, exist_ok=True)
        self.fd = os.open(self.path, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)

    def folder(self, name: str) -> Folder:
        """The sub-folder ``name`` (made if missing). Raised for a link there (never
        followed) or anything but a folder: NotADirectoryError naming it."""
        with contextlib.suppress(FileExistsError):
            os.mkdir(name, 0o755, dir_fd=self.fd)
        try:
            fd = os.open(name, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC,
                         dir_fd=self.fd)
        except (NotADirectoryError, OSError) as e:
            if isinstance(e, NotADirectoryError) or e.errno in (errno.ENOTDIR, errno.ELOOP):
                raise NotADirectoryError(20, "is a link or a file, not a folder (nothing is "
                                         "written through a link)", str(self.path / name)
                                         ) from None
            raise
        return Folder(self.path / name, _fd=fd)

    @contextlib.contextmanager
    def new_file(self, name: str, mode: int = 0o644) -> Iterator[BinaryIO]:
        """A file that appears as ``name`` only once written whole (flushed to disk); a link
        or a file there is replaced, never written through. Nothing appears when the block
        raises."""
        if not name or "/" in name or name in (".", ".."):
            raise ValueError(f"{name!r} is not a file name")
        tmp = f".{name}.{secrets.token_hex(4)}.part"
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC,
                     mode, dir_fd=self.fd)
        try:
            with os.fdopen(fd, "wb") as out:
                yield out
                out.flush()
                os.fsync(out.fileno())
            os.replace(tmp, name, src_dir_fd=self.fd, dst_dir_fd=self.fd)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp, dir_fd=self.fd)
            raise
        with contextlib.suppress(OSError):  # the rename itself on disk (not on every fs)
            os.fsync(self.fd)

    def write(self, name: str, data: bytes | str, mode: int = 0o644) -> Path:
        """Write ``name`` whole (text as UTF-8), as :meth:`new_file`; returns its path."""
        with self.new_file(name, mode) as out:
            out.write(data.encode("utf-8") if isinstance(data, str) else data)
        return self.path / name

    def close(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1

    def __enter__(self) -> Folder:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()


def write_whole(path: Path | str, data: bytes | str, mode: int = 0o644) -> Path:
    """Write the file ``path`` as :meth:`Folder.write` does, in the folder it names."""
    path = Path(path)
    with Folder(path.parent) as folder:
        return folder.write(path.name, data, mode)


@contextlib.contextmanager
def whole_file(path: Path | str, mode: int = 0o644) -> Iterator[BinaryIO]:
    """:meth:`Folder.new_file` for ``path``, in the folder it names."""
    path = Path(path)
    with Folder(path.parent) as folder, folder.new_file(path.name, mode) as out:
        yield out


__all__ = ["Folder", "NotAPlainFile", "read_bounded", "whole_file", "write_whole"]
