"""The tournament's own Mosquitto: a config, credentials and an access list the director writes,
and the broker process it starts and stops. Nothing listens unless a tournament is served.

Files, in the tournament's folder (``<data>/tournaments/<id>/broker/``, owner-only):
``mosquitto.conf`` (no anonymous clients, one listener, every client's id is its user name, no
packet larger than a report may be), ``passwords`` (hashed by Debian's
``mosquitto_passwd -U``), ``acl`` (a table reads its own seating and acknowledgements, writes
its own report and status; the director reads and writes the tournament's topics) and the
broker's persistence and log. Mosquitto rereads the credentials and the access list on SIGHUP,
so tables can be added while it runs. Every file is written owner-only (0600, the folder 0700).

The client id is the user name (``use_username_as_clientid``): a login can only ever take over
its own session, so no table's credentials can throw the director or another table off.
"""

from __future__ import annotations

import contextlib
import getpass
import os
import shutil
import signal
import socket
import subprocess
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType

from companion.tournament.protocol import MAX_REPORT_BYTES, prefix, table_user
from companion.tournament.store import private_folder

DIRECTOR_USER = "director"
#: Messages of one table the broker hands the director before the director has read them
#: (it acknowledges each once journaled: the rest wait at the broker, in that table's queue).
INFLIGHT = 10
#: What the broker keeps queued for one session (a table's, or the director's for one table)
#: before it drops that session's newest messages: a flooding table fills only its own.
QUEUED_MESSAGES = 100
QUEUED_BYTES = 16 << 20


def intake_user(table: int) -> str:
    """The director's broker user that reads one table's reports and status
    (``director-table-3``): one session, so one queue at the broker, per table."""
    return f"{DIRECTOR_USER}-{table_user(table)}"


class BrokerError(RuntimeError):
    """Raised when the broker cannot be set up or started; says why and what to do."""


def find_mosquitto() -> str:
    """The mosquitto executable. Raised when it is not installed: :class:`BrokerError`."""
    for candidate in (shutil.which("mosquitto"), "/usr/sbin/mosquitto"):
        if candidate and Path(candidate).is_file() and os.access(candidate, os.X_OK):
            return candidate
    raise BrokerError("mosquitto is not installed: `sudo apt-get install mosquitto` "
                      "(./start.sh installs it), or name an existing broker with --broker")


def _passwd_tool() -> str:
    tool = shutil.which("mosquitto_passwd")
    if tool is None:
        raise BrokerError("mosquitto_passwd is not installed (it comes with Debian's "
                          "mosquitto package): `sudo apt-get install mosquitto`")
    return tool


@dataclass(frozen=True)
class BrokerPlan:
    """Who may connect to a tournament's broker, and where it listens."""

    tournament: str
    listen: str
    port: int
    director_password: str
    table_secrets: Mapping[int, str]


def acl_text(tournament: str, tables: int = 0) -> str:
    """The access list: every table only its own topics (``%u`` is the user name); the
    director everything of the tournament; the director's session for table N
    (:func:`intake_user`, for tables 1..``tables``) only what table N sends."""
    p = prefix(tournament)
    lines = [
        f"# Written by the table companion for tournament {tournament}; rewritten on start.",
        "# Tables: read their own seating and acknowledgements, write their own report and",
        "# status, read the tournament's state. Nothing else.",
        f"pattern read {p}/state",
        f"pattern read {p}/tables/%u/seating",
        f"pattern read {p}/tables/%u/ack",
        f"pattern write {p}/tables/%u/report",
        f"pattern readwrite {p}/tables/%u/status",
        "",
        f"user {DIRECTOR_USER}",
        f"topic readwrite {p}/#",
        "",
        "# The director reads each table through a session of its own (one queue per table).",
    ]
    for n in range(1, tables + 1):
        lines += [f"user {intake_user(n)}", f"topic read {p}/tables/{table_user(n)}/report",
                  f"topic read {p}/tables/{table_user(n)}/status"]
    return "\n".join([*lines, ""])


def write_credentials(folder: Path, plan: BrokerPlan) -> tuple[Path, Path]:
    """Write the hashed password file and the access list; returns their paths."""
    private_folder(folder)
    os.chmod(folder, 0o700)
    passwords = folder / "passwords"
    tables = sorted(plan.table_secrets.items())
    plain = [f"{DIRECTOR_USER}:{plan.director_password}"] + [
        f"{table_user(n)}:{secret}" for n, secret in tables] + [
        f"{intake_user(n)}:{plan.director_password}" for n, _ in tables]
    tmp = folder / "passwords.new"
    write_private(tmp, "\n".join(plain) + "\n")
    done = subprocess.run([_passwd_tool(), "-U", str(tmp)], capture_output=True, text=True,
                          timeout=30, check=False)
    if done.returncode != 0:
        tmp.unlink(missing_ok=True)
        raise BrokerError(f"mosquitto_passwd could not hash the passwords: "
                          f"{(done.stderr or done.stdout).strip()}")
    os.replace(tmp, passwords)
    acl = folder / "acl"
    write_private(acl, acl_text(plan.tournament, max(plan.table_secrets, default=0)))
    return passwords, acl


def write_private(path: Path, text: str) -> None:
    """Write ``path`` owner-only (0600) from the start: never readable by others, not even
    for a moment (an older file with a wider mode is replaced)."""
    tmp = path.with_name(path.name + ".new")
    tmp.unlink(missing_ok=True)
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)


def config_text(folder: Path, plan: BrokerPlan) -> str:
    data = folder / "data"
    return "\n".join([
        f"# Mosquitto for tournament {plan.tournament}, written by the table companion.",
        "# Started by `companion tournament serve` and stopped with it.",
        "per_listener_settings false",
        "allow_anonymous false",
        # A report with its game file is the largest message; anything larger is dropped.
        f"max_packet_size {MAX_REPORT_BYTES + 4096}",
        f"password_file {folder / 'passwords'}",
        f"acl_file {folder / 'acl'}",
        f"listener {plan.port} {plan.listen}",
        # A login can take over only its own session: the client id is the user name (a
        # setting of the listener, so after it).
        "use_username_as_clientid true",
        "set_tcp_nodelay true",
        "persistence true",
        f"persistence_location {data}/",
        "autosave_interval 5",
        # Per session: the director's for one table holds at most INFLIGHT of its messages
        # unread, the broker queues the rest and drops past the queue's size (its own only).
        f"max_inflight_messages {INFLIGHT}",
        f"max_queued_messages {QUEUED_MESSAGES}",
        f"max_queued_bytes {QUEUED_BYTES}",
        f"pid_file {folder / 'mosquitto.pid'}",
        f"log_dest file {folder / 'mosquitto.log'}",
        "log_type error",
        "log_type warning",
        "log_type notice",
        "connection_messages true",
        # As root, Mosquitto would switch to the 'mosquitto' user, who cannot read these files.
        f"user {getpass.getuser()}",
        "",
    ])


class Broker:
    """A Mosquitto process for one tournament. A context manager; :meth:`stop` is idempotent.

    A broker left running by a director that was killed is taken over by the next
    :meth:`start` (found by its pid file and its command line), so tables stay connected and
    the reports it kept for the director are delivered.
    """

    def __init__(self, folder: Path | str, plan: BrokerPlan) -> None:
        self.folder = Path(folder)
        self.plan = plan
        self._process: subprocess.Popen[bytes] | None = None
        self._adopted: int | None = None
        self._marked = False  # this process wrote director.pid (and takes it away)
        # New credentials come from the screen's thread and the service's watcher: one
        # rewrite of the files at a time (two would hand the broker a half-hashed file).
        self._files = threading.RLock()

    @property
    def adopted(self) -> int | None:
        """The pid of a broker left running that :meth:`start` took over, else None."""
        return self._adopted

    @property
    def pid_path(self) -> Path:
        return self.folder / "mosquitto.pid"

    def _left_running(self) -> int | None:
        """The pid of this tournament's broker if one is still running, else None."""
        return left_running(self.folder)

    @property
    def config_path(self) -> Path:
        return self.folder / "mosquitto.conf"

    def write(self) -> Path:
        """Write the config, credentials and access list; returns the config's path."""
        with self._files:
            write_credentials(self.folder, self.plan)
        (self.folder / "data").mkdir(mode=0o700, exist_ok=True)
        write_private(self.config_path, config_text(self.folder, self.plan))
        return self.config_path

    def start(self, timeout: float = 10.0) -> None:
        """Write the files and start the broker; returns once it accepts connections.
        Raised when it does not within ``timeout`` seconds: :class:`BrokerError` with the
        end of its log."""
        if self.running:
            return
        exe = find_mosquitto()
        left = self._left_running()
        if left is not None:
            director = _director_of(self.folder)
            if director not in (None, os.getpid()) and _alive(director):
                raise BrokerError(f"the broker of tournament {self.plan.tournament} (pid "
                                  f"{left}) is run by another director (process {director}): "
                                  "it is left alone")
            self._adopted = left
            self.reload(self.plan)
            self._mark_director()
            return
        self.write()
        self._mark_director()
        log = self.folder / "mosquitto.out"
        fd = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        with os.fdopen(fd, "ab") as out:
            # umask: the broker's own files (log, persistence) are owner-only too.
            self._process = subprocess.Popen([exe, "-c", str(self.config_path)], stdout=out,
                                             stderr=subprocess.STDOUT, umask=0o077,
                                             start_new_session=True)
        deadline = time.monotonic() + timeout
        host = "127.0.0.1" if self.plan.listen in ("0.0.0.0", "") else self.plan.listen
        while time.monotonic() < deadline:
            if self._process.poll() is not None:
                break
            try:
                with socket.create_connection((host, self.plan.port), timeout=0.5):
                    return
            except OSError:
                time.sleep(0.05)
        tail = self.log_tail()
        self.stop()
        raise BrokerError(f"mosquitto did not start on {self.plan.listen}:{self.plan.port} "
                          f"(is the port taken?): {tail}")

    def _mark_director(self) -> None:
        """Who runs this broker (``director.pid``): a broker whose director is gone was left
        running (`companion doctor` says so)."""
        write_private(self.folder / "director.pid", f"{os.getpid()}\n")
        self._marked = True

    def log_tail(self, lines: int = 5) -> str:
        text = ""
        for name in ("mosquitto.out", "mosquitto.log"):
            p = self.folder / name
            if p.exists():
                text += p.read_text(encoding="utf-8", errors="replace")
        return " | ".join(text.strip().splitlines()[-lines:])

    def reload(self, plan: BrokerPlan) -> None:
        """New credentials (more tables, a new code): rewrite the files and tell the broker
        (SIGHUP)."""
        with self._files:
            write_credentials(self.folder, plan)
            self.plan = plan
            if self.running and self.pid is not None:
                os.kill(self.pid, signal.SIGHUP)

    def reload_if_changed(self, plan: BrokerPlan) -> bool:
        """:meth:`reload` unless the broker has these credentials already; True if it did."""
        with self._files:
            if (plan.director_password, dict(plan.table_secrets)) == (
                    self.plan.director_password, dict(self.plan.table_secrets)):
                return False
            self.reload(plan)
            return True

    @property
    def running(self) -> bool:
        if self._adopted is not None:
            return _alive(self._adopted)
        return self._process is not None and self._process.poll() is None

    @property
    def pid(self) -> int | None:
        if self._adopted is not None:
            return self._adopted
        return None if self._process is None else self._process.pid

    def kill(self) -> None:
        """Kill the broker at once (SIGKILL), as a power cut would: for fault tests."""
        if self._adopted is not None:
            _signal_and_wait(self._adopted, signal.SIGKILL)
            self._adopted = None
        if self._process is not None and self._process.poll() is None:
            self._process.kill()
            self._process.wait(timeout=10)
        self._process = None

    def stop(self) -> None:
        """Stop the broker this one started or took over (never another director's)."""
        if self._marked:
            (self.folder / "director.pid").unlink(missing_ok=True)
            self._marked = False
        if self._adopted is not None:
            _signal_and_wait(self._adopted, signal.SIGTERM)
            self._adopted = None
        if self._process is None:
            return
        if self._process.poll() is None:
            self._process.terminate()
            try:
                self._process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait(timeout=5)
        self._process = None

    def __enter__(self) -> Broker:
        self.start()
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.stop()


def left_running(folder: Path) -> int | None:
    """The pid of the broker whose files are in ``folder`` if it is still running, else
    None. Found by its pid file and its command line."""
    try:
        pid = int((folder / "mosquitto.pid").read_text().strip())
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    except (OSError, ValueError):
        return None
    if str(folder / "mosquitto.conf").encode() in cmdline and any(
            part.endswith(b"mosquitto") for part in cmdline[:1]):
        return pid
    return None


def _director_of(folder: Path) -> int | None:
    """The pid of the director that runs the broker in ``folder`` (``director.pid``)."""
    try:
        return int((folder / "director.pid").read_text().strip())
    except (OSError, ValueError):
        return None


def orphaned(folder: Path) -> int | None:
    """The pid of the broker in ``folder`` if it runs with no director (killed, crashed)."""
    pid = left_running(folder)
    if pid is None:
        return None
    director = _director_of(folder)
    return pid if director is None or not _alive(director) else None


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except OSError:
        return False
    try:  # a zombie is not alive
        return Path(f"/proc/{pid}/stat").read_text().split()[2] != "Z"
    except OSError:
        return True


def _signal_and_wait(pid: int, sig: int, timeout: float = 5.0) -> None:
    """Signal a process that is not our child and wait (bounded) until it is gone."""
    try:
        os.kill(pid, sig)
    except OSError:
        return
    deadline = time.monotonic() + timeout
    while _alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    if _alive(pid):
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port nobody listens on now (for tests, benchmarks and the demo)."""
    with socket.socket() as s:
        s.bind((host, 0))
        port: int = s.getsockname()[1]
        return port
