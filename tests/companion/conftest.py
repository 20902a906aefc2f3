"""Fixtures of the companion's tests."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest


@pytest.fixture
def other_filesystem(tmp_path: Path) -> Iterator[Path]:
    """A root on /dev/shm (tmpfs), so a folder on the test disk is another filesystem."""
    if not os.access("/dev/shm", os.W_OK):
        pytest.skip("no writable /dev/shm here")
    shm = Path(tempfile.mkdtemp(dir="/dev/shm", prefix="appliance-root-"))
    try:
        yield shm
    finally:
        shutil.rmtree(shm)
