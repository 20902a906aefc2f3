"""`companion read` refuses an image over its pixel budget from the header, before decoding
(issue 33: a 40000 x 40000 PNG gave a cv2 traceback; 20000 x 20000 took 62 s and 1.2 GB)."""

from __future__ import annotations

import json
import os
import struct
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cli import main
from companion.commands.read import MAX_PIXELS


def _png_header_only(path: Path, width: int, height: int) -> None:
    """A PNG whose header says ``width`` x ``height`` and whose pixels are not there: only
    a reader that decodes before it checks the size would notice."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr)
                     + chunk(b"IDAT", zlib.compress(b"\x00" * 1000)) + chunk(b"IEND", b""))


@pytest.mark.parametrize("side", [40000, 20000])
def test_a_huge_image_is_refused_from_its_header(tmp_path: Path, side: int,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / f"huge-{side}.png"
    _png_header_only(path, side, side)
    rc = main(["read", str(path), "--json"])
    out = capsys.readouterr()
    assert rc == 1 and "Traceback" not in out.err
    said = json.loads(out.out.strip())
    assert said["image"] == str(path) and "than `companion read` decodes" in said["error"]
    assert f"{side * side} pixels" in said["error"]  # the size its header gives


def test_a_real_image_just_over_the_budget_is_refused_and_one_under_is_read(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    side = int(MAX_PIXELS ** 0.5) + 10
    over = tmp_path / "over.png"
    cv2.imwrite(str(over), np.zeros((side, side), np.uint8))
    under = tmp_path / "under.png"
    cv2.imwrite(str(under), np.zeros((side // 2, side // 2), np.uint8))
    rc = main(["read", str(over), str(under)])
    out = capsys.readouterr().out
    assert rc == 1
    assert f"{over}: error: cannot read image ({side} x {side} pixels" in out
    assert f"{under}: 0 dice" in out


def test_a_fifo_or_a_device_is_not_opened(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    fifo = tmp_path / "pipe.png"
    os.mkfifo(fifo)
    rc = main(["read", str(fifo), "/dev/zero"])
    out = capsys.readouterr().out
    assert rc == 1 and out.count("not a plain file") == 2
