"""Helpers for the tournament tests that use a real Mosquitto on loopback (no test in here)."""

from __future__ import annotations

import contextlib
import json
import os
import select
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.tournament.broker import free_port
from companion.tournament.desk import DirectorConfig, TournamentDesk
from companion.tournament.store import TournamentStore
from rules.tournament import Tournament

REPO = Path(__file__).resolve().parents[2]
WAIT = 30.0  # no single wait in these tests is longer


def wait_until(check: Callable[[], bool], timeout: float = WAIT, what: str = "") -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}")
        time.sleep(0.05)


def new_tournament(folder: Path, players: int, fmt: dict[str, Any], *, web: bool = True,
                   tid: str = "tt01") -> tuple[Path, DirectorConfig]:
    """A tournament in ``folder/journal.sqlite3`` served on loopback; returns (db, config)."""
    store = TournamentStore(folder / "journal.sqlite3")
    t = Tournament.new("Loopback Cup", fmt, seed=7)
    for i in range(1, players + 1):
        t.add_entrant(f"P{i:02d}")
    config = DirectorConfig(listen="127.0.0.1", port=free_port(), address="127.0.0.1",
                            web_port=free_port() if web else -1)
    store.create(tid, t, config.to_json())
    TournamentDesk(store, tid).ensure_tables()
    store.close()
    return folder / "journal.sqlite3", config


def port_open(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return True
    except OSError:
        return False


def get_json(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=5) as reply:
        return json.loads(reply.read())


class Proc:
    """A `companion` process whose output is collected line by line."""

    def __init__(self, args: list[str], data_dir: Path, name: str) -> None:
        env = dict(os.environ, COMPANION_DATA_DIR=str(data_dir), PYTHONUNBUFFERED="1")
        self.name = name
        self.lines: list[str] = []
        self.p = subprocess.Popen([sys.executable, "-m", "companion", *args], cwd=REPO,
                                  env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                  text=True)
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.p.stdout is not None
        for line in self.p.stdout:
            self.lines.append(line.rstrip("\n"))

    def saw(self, text: str) -> bool:
        return any(text in line for line in self.lines)

    def wait_for(self, text: str, timeout: float = WAIT) -> None:
        try:
            wait_until(lambda: self.saw(text) or self.p.poll() is not None, timeout,
                       f"{self.name} to say {text!r}")
        except AssertionError:
            raise AssertionError(f"{self.name} did not say {text!r}; it said:\n"
                                 + "\n".join(self.lines[-30:])) from None
        if not self.saw(text):
            raise AssertionError(f"{self.name} ended ({self.p.returncode}) without saying "
                                 f"{text!r}:\n" + "\n".join(self.lines[-30:]))

    def kill(self) -> None:
        if self.p.poll() is None:
            self.p.kill()
        self.p.wait(timeout=10)

    def stop(self) -> None:
        if self.p.poll() is None:
            self.p.terminate()
            try:
                self.p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.p.kill()
                self.p.wait(timeout=10)


class Cable:
    """A TCP forwarder between one table and the broker, on loopback: :meth:`cut` is the
    table losing the venue's Wi-Fi, :meth:`mend` getting it back (same port)."""

    def __init__(self, target_port: int) -> None:
        self.target = target_port
        self.port = free_port()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._conns: list[socket.socket] = []

    def mend(self) -> None:
        self._stop.clear()
        server = socket.socket()
        server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        server.bind(("127.0.0.1", self.port))
        server.listen(8)
        server.settimeout(0.1)
        self._thread = threading.Thread(target=self._serve, args=(server,), daemon=True)
        self._thread.start()

    def _serve(self, server: socket.socket) -> None:
        with server:
            while not self._stop.is_set():
                try:
                    a, _ = server.accept()
                except TimeoutError:
                    continue
                try:
                    b = socket.create_connection(("127.0.0.1", self.target), timeout=2)
                except OSError:
                    a.close()
                    continue
                self._conns += [a, b]
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    def _pump(self, a: socket.socket, b: socket.socket) -> None:
        try:
            while not self._stop.is_set():
                ready, _, _ = select.select([a, b], [], [], 0.1)
                for s in ready:
                    data = s.recv(65536)
                    if not data:
                        return
                    (b if s is a else a).sendall(data)
        except OSError:
            return
        finally:
            a.close()
            b.close()

    def cut(self) -> None:
        self._stop.set()
        for s in self._conns:
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)
            s.close()
        self._conns.clear()
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None
