"""A real second companion for the tests of the data folder's lock: a child process that
holds a journal open as the app does (store_child.py), until it is told to close."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

CHILD = Path(__file__).parent / "store_child.py"
DEADLINE = 60.0  # seconds a child may take to answer (generous: a loaded CI machine)


class Child:
    """A real second process holding the journal open as the app does (store_child.py)."""

    def __init__(self, journal: Path, call: str | None = None) -> None:
        args = [sys.executable, str(CHILD), str(journal), *([call] if call else [])]
        self.proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True)
        try:
            # waits on the child's line (the condition), with a deadline; never a fixed sleep
            line = _readline(self.proc, DEADLINE)
        except BaseException:
            self.proc.kill()
            raise
        self.said: dict[str, Any] = json.loads(line)

    def close(self) -> None:
        if self.proc.poll() is None:
            assert self.proc.stdin is not None
            self.proc.stdin.write("\n")
            self.proc.stdin.flush()
        self.proc.wait(timeout=DEADLINE)


def _readline(proc: subprocess.Popen[str], deadline: float) -> str:
    import selectors

    assert proc.stdout is not None
    with selectors.DefaultSelector() as sel:
        sel.register(proc.stdout, selectors.EVENT_READ)
        if not sel.select(timeout=deadline):
            raise AssertionError(f"the child said nothing in {deadline} s")
    line = proc.stdout.readline()
    if not line:
        assert proc.stderr is not None
        raise AssertionError(f"the child ended: {proc.wait()} {proc.stderr.read()}")
    return line
