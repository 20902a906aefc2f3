"""Everything a director runs while a tournament is on: its broker, the director, the page.

:class:`TournamentService` starts, in order, the tournament's own Mosquitto (or uses the
existing broker its config names), the :class:`~companion.tournament.director.Director`, and the
standings page, and stops them in reverse order. No port is open before :meth:`start` or after
:meth:`stop`: this is the only place the companion listens on the network.

One director per tournament: :meth:`TournamentService.start` first takes the tournament's
lock (``serve.lock`` in its folder, an exclusive ``flock`` holding the process id), and a
second ``serve`` (or the Tournament screen serving it too) is refused in words naming the
process that serves it, before it touches the broker. Two directors on one broker would throw
each other off it about once a second, and the second would stop the first one's broker.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion import paths
from companion.tournament.broker import Broker, BrokerError, BrokerPlan
from companion.tournament.desk import DirectorConfig, TournamentDesk
from companion.tournament.director import Director
from companion.tournament.protocol import JoinCode
from companion.tournament.store import TournamentStore
from companion.tournament.web import StandingsFeed, StandingsServer


class ServiceError(RuntimeError):
    """Raised when the tournament cannot be served; says why."""


SERVE_LOCK = "serve.lock"


def take_serve_lock(folder: Path, tid: str) -> int:
    """Hold the tournament's lock (``folder/serve.lock``): one director at a time; returns
    the descriptor (closing it lets go; so does the process ending, however it ends).
    Raised when another process holds it: :class:`ServiceError` naming it."""
    from companion.store import LockRefused, hold_lock_file
    from companion.tournament.store import private_folder

    try:
        private_folder(folder)
        return hold_lock_file(folder / SERVE_LOCK)
    except LockRefused as e:
        if e.held:
            who = f"process {e.holder}" if e.holder is not None else "another process"
            raise ServiceError(f"tournament {tid} is already being served by {who} "
                               "(`companion tournament serve`, or a Tournament screen): one "
                               "director per tournament; stop that one first") from None
        raise ServiceError(f"tournament {tid} cannot be served: its lock "
                           f"{folder / SERVE_LOCK} {e.why}") from None
    except OSError as e:
        raise ServiceError(f"tournament {tid} cannot be served: its folder {folder} cannot "
                           f"be made ({e.strerror or e})") from None


def lan_address() -> str:
    """This machine's address on the local network (for join codes and the page's address),
    or 127.0.0.1 when it has none. Reads ``hostname -I``; sends nothing anywhere."""
    tool = shutil.which("hostname")
    if tool is not None:
        try:
            out = subprocess.run([tool, "-I"], capture_output=True, text=True, timeout=5,
                                 check=False).stdout
        except (OSError, subprocess.SubprocessError):
            out = ""
        for word in out.split():
            if "." in word and not word.startswith("127."):
                return word
    return "127.0.0.1"


def tournament_folder(tid: str) -> Path:
    return paths.data_dir() / "tournaments" / tid


class TournamentService:
    """Serve one tournament. A context manager; :meth:`stop` is idempotent."""

    def __init__(self, store: TournamentStore, tid: str | None = None, *,
                 config: DirectorConfig | None = None, folder: Path | None = None,
                 connect_timeout: float = 10.0,
                 on_change: Callable[[], None] | None = None,
                 desk: TournamentDesk | None = None) -> None:
        """``on_change`` is called (from a network thread) whenever the tournament, or a
        table's online status, changes: a screen hands it on with ``Clock.schedule_once``.
        ``desk``: the desk of this tournament the caller already acts through (the app's
        Tournament screen), so both see every change at once; else one is opened."""
        self.desk = desk if desk is not None else TournamentDesk(store, tid)
        self.tid = self.desk.tid
        if config is not None:
            self.desk.set_config(config)
        self.folder = folder or tournament_folder(self.tid)
        self.connect_timeout = connect_timeout
        self.on_change = on_change
        self.feed = StandingsFeed(self.snapshot)
        self.broker: Broker | None = None
        self.director: Director | None = None
        self.web: StandingsServer | None = None
        self.restarts = 0  # times the broker was found dead and started again
        self._stop = threading.Event()
        self._watcher: threading.Thread | None = None
        self._lock: int | None = None

    @property
    def config(self) -> DirectorConfig:
        return self.desk.config

    def _changed(self) -> None:
        self.feed.bump()
        if self.on_change is not None:
            self.on_change()

    def snapshot(self) -> dict[str, Any]:
        """What the page shows: the tournament's summary and which tables are online."""
        data = self.desk.summary()
        data["online"] = dict(self.director.online) if self.director else {}
        # The page says "director not receiving" while the director's network loop is down.
        data["receiving"] = self.director is not None and self.director.receiving
        return data

    def start(self) -> None:
        """Start the broker (unless an existing one is named), the director and the page.
        Raised when any of them cannot start: :class:`ServiceError`, and whatever started
        is stopped again."""
        try:
            self._start()
        except BaseException:
            self.stop()
            raise

    def _start(self) -> None:
        self._lock = take_serve_lock(self.folder, self.tid)
        config = self.desk.ensure_tables()
        if not config.external:
            self.broker = Broker(self.folder / "broker", BrokerPlan(
                self.tid, config.listen, config.port, config.director_password,
                config.table_secrets))
            self.broker.start()
        host, port = config.broker_endpoint()
        self.director = Director(self.desk, host, port, config.director_password,
                                 on_change=self._changed, per_table=self.broker is not None,
                                 folder=self.folder)
        if self.broker is not None and self.broker.adopted is not None:
            self.director.note(f"took over the broker left running (pid {self.broker.adopted})")
        self.director.start()
        if not self.director.wait_connected(self.connect_timeout):
            log = self.broker.log_tail() if self.broker else ""
            raise ServiceError(f"the director could not connect to the broker at {host}:{port}"
                               + (f": {log}" if log else ""))
        if config.web_port >= 0:
            self.web = StandingsServer(self.feed, config.listen, config.web_port)
            self.web.start()
        if self.broker is not None:
            self._stop.clear()
            self._watcher = threading.Thread(target=self._watch_broker, name="broker-watch",
                                             daemon=True)
            self._watcher.start()

    def _watch_broker(self) -> None:
        """Start the broker again whenever it dies (killed, out of memory...), and give it
        new credentials whenever a command changed them (a spare table's new code)."""
        while not self._stop.wait(0.5):
            broker = self.broker
            if broker is None:
                continue
            if broker.running:
                self._reload_if_changed(broker)
                continue
            try:
                broker.start()
                self.restarts += 1
                if self.director is not None:
                    self.director.note(f"the broker had stopped; started it again "
                                       f"({self.restarts})")
            except BrokerError as e:
                if self.director is not None:
                    self.director.note(f"the broker is down and will not start: {e}")

    def _reload_if_changed(self, broker: Broker) -> None:
        try:
            config = self.desk.config
            changed = broker.reload_if_changed(BrokerPlan(
                self.tid, config.listen, config.port, config.director_password,
                config.table_secrets))
        except Exception as e:  # a busy journal, mosquitto_passwd failing: next time
            if self.director is not None:
                self.director.note(f"could not give the broker the new codes: {e}")
            return
        if changed and self.director is not None:
            self.director.note("the broker has the new table codes (an old code no longer "
                               "logs in)")
            self.director.changed()

    def replace_code(self, table: int) -> JoinCode:
        """A spare companion takes ``table``'s place: a new code for it, taken by the running
        broker at once; the old code no longer logs in. Raised for a table with no code:
        :class:`~rules.tournament.TournamentError`."""
        config = self.desk.replace_code(table)
        if self.broker is not None:
            self.broker.reload(BrokerPlan(self.tid, config.listen, config.port,
                                          config.director_password, config.table_secrets))
        if self.director is not None:
            self.director.note(f"table {table} has a new code; its old code no longer logs in")
        return next(c for c in self.join_codes() if c.table == table)

    def add_tables(self, count: int) -> list[JoinCode]:
        """Credentials for tables up to ``count``, taken by the running broker at once."""
        config = self.desk.ensure_tables(count)
        if self.broker is not None:  # (unless the watcher gave it them already)
            self.broker.reload_if_changed(BrokerPlan(self.tid, config.listen, config.port,
                                          config.director_password, config.table_secrets))
        if self.director is not None:
            self.director.changed()
        return self.join_codes()

    def join_codes(self, address: str = "") -> list[JoinCode]:
        config = self.config
        return self.desk.join_codes(address or config.address or lan_address())

    def page_url(self, address: str = "") -> str:
        if self.web is None:
            return ""
        config = self.config
        if config.listen in ("0.0.0.0", "::", ""):
            return self.web.url(address or config.address or lan_address())
        return self.web.url()

    def stop(self) -> None:
        self._stop.set()
        if self._watcher is not None:
            self._watcher.join(timeout=5)
            self._watcher = None
        if self.web is not None:
            self.web.stop()
            self.web = None
        if self.director is not None:
            self.director.stop()
            self.director = None
        if self.broker is not None:
            self.broker.stop()
            self.broker = None
        if self._lock is not None:
            os.close(self._lock)  # the next director may serve
            self._lock = None

    def __enter__(self) -> TournamentService:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
