"""What can stand on disk where the journal and its log should be: a folder, a FIFO, a
device, a link to nowhere (:func:`odd_file`, :func:`bad_link`), or a write-ahead log whose
committed calls SQLite would silently skip (:func:`wal_problem`). Read only, before the
journal is opened: :meth:`companion.journal.Journal.open_or_set_aside` acts on what is
found."""

from __future__ import annotations

import stat
import struct
from pathlib import Path
from typing import Any


def bad_link(path: Path) -> str:
    """What is wrong with ``path`` being a link to something that is not a file (dangling,
    a loop, a device), or "" (not a link, or a link to a file)."""
    if not path.is_symlink():
        return ""
    try:
        target = path.resolve()
        if target.is_file():
            return ""
    except (OSError, RuntimeError) as e:  # a loop of links
        return f"it is a link that cannot be followed ({e})"
    return f"it is a link to {target}, which is not a journal file"


def odd_file(path: Path) -> str:
    """What stands at ``path`` when it is neither absent nor a plain file (a folder, a FIFO,
    a device, a link to nowhere), in words; "" otherwise."""
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        return "a link to nowhere" if path.is_symlink() else ""
    except OSError as e:
        return f"a file that cannot be looked at ({e.strerror or e})"
    if stat.S_ISREG(mode):
        return ""
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "a special file"


#: The two WAL magic numbers (checksums big- or little-endian) and the sizes of its headers.
WAL_MAGIC = (0x377F0682, 0x377F0683)
WAL_HEADER = 32
WAL_FRAME_HEADER = 24


def _wal_checksum(data: bytes, big: bool, s0: int, s1: int) -> tuple[int, int]:
    """SQLite's WAL checksum over ``data`` (a multiple of 8 bytes), continuing from (s0, s1)."""
    words = struct.unpack((">" if big else "<") + f"{len(data) // 4}I", data)
    for i in range(0, len(words), 2):
        s0 = (s0 + words[i] + s1) & 0xFFFFFFFF
        s1 = (s1 + words[i + 1] + s0) & 0xFFFFFFFF
    return s0, s1


def wal_problem(wal: Path) -> str:
    """What is wrong with a journal's write-ahead log, in words; "" when nothing is.

    SQLite reads a WAL frame by frame and stops, silently, at the first frame whose checksum
    does not follow: committed calls saved after it are skipped. That is found here before
    the journal is opened: frames of the log's current generation (their salts match its
    header) that end a transaction (a commit frame) lying after one that does not check out.
    What a power cut or a kill leaves while a call is being saved is not a problem and is not
    reported: a log that ends in the middle of an entry, or whose last, unfinished
    transaction does not check out. That call was never acknowledged: nothing is lost.

    The log is read one entry at a time (never whole); one that is not a plain file is
    reported as such, never opened.
    """
    kind = odd_file(wal)
    if kind:
        return f"is {kind}, not a file"
    try:
        with open(wal, "rb") as fh:
            return _wal_frames_problem(fh)
    except FileNotFoundError:
        return ""
    except OSError as e:
        return f"cannot be read ({e.strerror or e})"


def _wal_frames_problem(fh: Any) -> str:
    header = fh.read(WAL_HEADER)
    if not header:
        return ""
    if len(header) < WAL_HEADER:
        return ""  # a log whose header was being written: it held no committed call yet
    magic, _version, page, _seq, salt1, salt2, c0, c1 = struct.unpack(">8I", header)
    if magic not in WAL_MAGIC or not 512 <= page <= 65536:
        return "is not a SQLite log"
    big = magic & 1 == 1
    s0, s1 = _wal_checksum(header[:24], big, 0, 0)
    if (s0, s1) != (c0, c1):
        return "has a damaged header: the calls it held cannot be read"
    size = WAL_FRAME_HEADER + page
    frames = 0
    broken_at: int | None = None
    lost_commits = 0
    while True:
        frame = fh.read(size)
        if len(frame) < size:
            break  # the end, or an entry cut short by a power cut: never acknowledged
        frames += 1
        _pgno, commit, f1, f2, fc0, fc1 = struct.unpack(">6I", frame[:WAL_FRAME_HEADER])
        if (f1, f2) != (salt1, salt2):
            if broken_at is None:
                break  # older frames of a reused log: the current log ends here, as it should
            continue
        if broken_at is not None:
            lost_commits += commit != 0
            continue
        s0, s1 = _wal_checksum(frame[:8] + frame[WAL_FRAME_HEADER:], big, s0, s1)
        if (s0, s1) != (fc0, fc1):
            broken_at = frames
    if broken_at is not None and lost_commits:
        return (f"is damaged at entry {broken_at}: {lost_commits} saved "
                f"transaction{'s' if lost_commits != 1 else ''} after it cannot be read, so "
                "the last calls saved may be missing")
    return ""


__all__ = ["bad_link", "odd_file", "wal_problem"]
