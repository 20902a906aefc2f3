"""The director's desk: every organiser action on one tournament, journaled before it counts.

The ``companion tournament`` commands, the director service (:mod:`companion.tournament.director`)
and the app's Tournament screen all act through a :class:`TournamentDesk`. Each action is
applied to the tournament (which refuses it whole, with a message, when it is not allowed) and
its events are appended to the store in one transaction that names the event it follows, so
a command run while the director serves never interleaves with it: the later writer reloads and
tries again. A power cut loses nothing that an action returned from.
"""

from __future__ import annotations

import copy
import math
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

import msgspec

from companion.tournament.protocol import (
    DEFAULT_PORT,
    JoinCode,
    Seating,
    new_secret,
    new_tournament_id,
)
from companion.tournament.store import SavedGame, StaleError, TournamentStore
from hardware.schema import checked
from rules.core import Placings
from rules.tournament import (
    DIRECTOR,
    Correction,
    ReportOutcome,
    RoundDrawn,
    Tournament,
    TournamentError,
    format_placings,
)

T = TypeVar("T")


@dataclass(frozen=True)
class DirectorConfig:
    """How a tournament is served: its broker (our own, or an existing one) and web page.

    ``listen``/``port``: where our own broker listens; ``address``: the address tables are
    given in their join codes ("" = this machine's address on the local network, found when
    serving); ``external``: ``host:port`` of an existing broker to use instead of our own;
    ``web_port``: the standings page (0 = any free port, -1 = no page). Secrets: the
    director's broker password and one per table. ``serving``: the app's Tournament screen
    was serving it when last seen (so it serves again after a restart or a power cut).
    """

    listen: str = "0.0.0.0"
    port: int = DEFAULT_PORT
    address: str = ""
    external: str = ""
    web_port: int = 8080
    director_password: str = ""
    table_secrets: Mapping[int, str] = field(default_factory=dict)
    serving: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"listen": self.listen, "port": self.port, "address": self.address,
                "external": self.external, "web_port": self.web_port,
                "director_password": self.director_password,
                "table_secrets": {str(k): v for k, v in self.table_secrets.items()},
                "serving": self.serving}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> DirectorConfig:
        secrets = data.get("table_secrets", {})
        return cls(str(data.get("listen", "0.0.0.0")), int(data.get("port", DEFAULT_PORT)),
                   str(data.get("address", "")), str(data.get("external", "")),
                   int(data.get("web_port", 8080)), str(data.get("director_password", "")),
                   {int(k): str(v) for k, v in secrets.items()},
                   data.get("serving") is True)

    def with_tables(self, count: int) -> DirectorConfig:
        """The same with secrets for tables 1..count (existing secrets kept)."""
        secrets = dict(self.table_secrets)
        for n in range(1, count + 1):
            secrets.setdefault(n, new_secret())
        password = self.director_password or new_secret(16)
        return replace(self, table_secrets=secrets, director_password=password)

    def broker_endpoint(self) -> tuple[str, int]:
        """(host, port) the director connects to."""
        if self.external:
            host, _, port = self.external.rpartition(":")
            return host or self.external, int(port) if port.isdigit() else DEFAULT_PORT
        host = "127.0.0.1" if self.listen in ("0.0.0.0", "::", "") else self.listen
        return host, self.port


class TournamentTable(msgspec.Struct, forbid_unknown_fields=True):
    """The ``[tournament]`` table of config.toml: how the app's Tournament screen serves a
    new tournament (docs/tournaments.md)."""

    listen: str = "0.0.0.0"
    port: int = DirectorConfig.port
    web_port: int = DirectorConfig.web_port
    address: str = ""
    broker: str = ""
    broker_password: str = ""


def director_config(config: Mapping[str, Any]) -> tuple[DirectorConfig, str]:
    """How a new tournament is served, from config.toml's ``[tournament]`` table, and what
    was wrong with it ("" when nothing: then unknown keys or wrong values are not used, the
    others are)."""
    table = config.get("tournament", {})
    if not isinstance(table, Mapping):
        return DirectorConfig(), "config.toml: [tournament] must be a table; defaults used"
    values: dict[str, Any] = {}
    problems = []
    for key, value in table.items():  # key by key: every problem said, the good keys kept
        try:
            checked({key: value}, TournamentTable, "", ValueError)
            values[key] = value
        except ValueError as e:
            problems.append(str(e))
    t = TournamentTable(**values)
    cfg = DirectorConfig(listen=t.listen, port=t.port, address=t.address, external=t.broker,
                         web_port=t.web_port, director_password=t.broker_password)
    if cfg.external and not cfg.director_password:
        problems.append("broker needs broker_password (its 'director' user's password)")
        cfg = DirectorConfig(cfg.listen, cfg.port, cfg.address, "", cfg.web_port)
    why = "; ".join(problems)
    return cfg, (f"config.toml [tournament]: {why}; those values are not used" if why else "")


class TournamentDesk:
    """One tournament in the director's store; thread-safe."""

    def __init__(self, store: TournamentStore, tid: str | None = None) -> None:
        self.store = store
        self.tid = store.record(tid).id
        self._lock = threading.RLock()
        self._tournament, self._seq = store.load(self.tid)
        #: Goes up with every change, ours or another writer's (for whoever shows it).
        self.version = 0

    @classmethod
    def create(cls, store: TournamentStore, name: str,
               fmt: Mapping[str, Any] | None = None, *, seed: int | None = None,
               config: DirectorConfig | None = None, tid: str | None = None
               ) -> TournamentDesk:
        """Make a new tournament (it becomes the current one) and return its desk. ``seed``
        None draws one; ``tid`` None makes a fresh id. Raised for a bad format:
        :class:`TournamentError` naming the option."""
        import random

        tournament = Tournament.new(name, fmt or {}, seed=random.SystemRandom().randrange(
            2**31) if seed is None else seed)
        known = {r.id for r in store.records()}
        while tid is None or tid in known:
            tid = new_tournament_id()
        store.create(tid, tournament, (config or DirectorConfig()).to_json())
        return cls(store, tid)

    # -- reading --------------------------------------------------------------------------

    @property
    def tournament(self) -> Tournament:
        """The tournament as journaled (a copy: change it only through this desk)."""
        with self._lock:
            return copy.deepcopy(self._tournament)

    def tournament_view(self) -> Tournament:
        """The tournament itself, to read without copying: never change it (use the
        actions), and hold :attr:`lock` while reading from another thread."""
        return self._tournament

    @property
    def lock(self) -> threading.RLock:
        return self._lock

    @property
    def seq(self) -> int:
        return self._seq

    def refresh(self) -> bool:
        """Take in events another writer journaled; True when there were any."""
        with self._lock:
            if self.store.last_seq(self.tid) == self._seq:
                return False
            self._tournament, self._seq = self.store.load(self.tid)
            self.version += 1
            return True

    @property
    def config(self) -> DirectorConfig:
        return DirectorConfig.from_json(self.store.record(self.tid).config)

    def set_config(self, config: DirectorConfig) -> None:
        self.store.set_config(self.tid, config.to_json())

    def tables_needed(self) -> int:
        """Tables the busiest round needs (at least the current round's)."""
        with self._lock:
            t = self._tournament
            most = t.format.table_size
            need = math.ceil(max(len(t.active()), 2) / most)
            if t.current is not None:
                need = max(need, len(t.current.tables))
            return need

    def ensure_tables(self, count: int | None = None) -> DirectorConfig:
        """Make sure every table up to ``count`` (default: as many as needed) has a secret."""
        config = self.config
        want = max(count or 0, self.tables_needed(), len(config.table_secrets))
        if want > len(config.table_secrets) or not config.director_password:
            config = config.with_tables(want)
            self.set_config(config)
        return config

    def replace_code(self, table: int) -> DirectorConfig:
        """A new secret for ``table`` (a spare companion takes its place): the old code stops
        working as soon as the broker rereads its passwords. Raised for a table that has no
        code: :class:`TournamentError`."""
        config = self.config
        if table not in config.table_secrets:
            raise TournamentError(f"table {table}: no such table (tables 1 to "
                                  f"{len(config.table_secrets)} have codes)")
        old = config.table_secrets[table]
        secret = old
        while secret == old:
            secret = new_secret()
        config = replace(config, table_secrets={**config.table_secrets, table: secret})
        self.set_config(config)
        return config

    def join_codes(self, address: str) -> list[JoinCode]:
        """Every table's join code, for the director's screen and `companion tournament codes`."""
        config = self.config
        host, port = (config.broker_endpoint() if config.external else (address, config.port))
        return [JoinCode(self.tid, n, secret, host, port)
                for n, secret in sorted(config.table_secrets.items())]

    def seatings(self, stations: int) -> dict[int, Seating]:
        """What each of tables 1..stations is told for the current round."""
        with self._lock:
            t = self._tournament
            r = t.current
            out = {}
            for n in range(1, stations + 1):
                if r is None:
                    out[n] = Seating(self.tid, t.name, 0, "waiting", None)
                    continue
                table = next((tb for tb in r.tables if tb.number == n), None)
                if table is None:
                    out[n] = Seating(self.tid, t.name, r.number, r.stage, None)
                    continue
                setup = t.table_setup(r.number, n)
                teams = tuple(tuple(team) for team in setup.options.get("teams", ()))
                out[n] = Seating(self.tid, t.name, r.number, r.stage, n, table.group,
                                 table.seats, setup, teams)
            return out

    def summary(self) -> dict[str, Any]:
        with self._lock:
            data = self._tournament.summary()
            data["id"] = self.tid
            data["round_left"] = len(self._tournament.missing())
            data["updated"] = time.strftime("%H:%M:%S")
            data["online"] = {}  # which tables' companions are connected (the director knows)
            data["conflict_details"] = [
                {"round": r, "table": n, "counted": format_placings(held.placings),
                 "counted_from": held.source,
                 "others": [{"result": format_placings(c.placings), "from": c.source}
                            for c in others]}
                for r, n, held, others in self._tournament.conflicts()]
            return data

    # -- acting ---------------------------------------------------------------------------

    def _act(self, action: Callable[[Tournament], T],
             games: Callable[[T], Sequence[SavedGame]] | None = None) -> T:
        """Apply ``action`` and journal its events (with the game files ``games`` gives for
        its result, in the same transaction); reload and retry if another writer was first.
        Raised when the action is refused: :class:`TournamentError`, nothing kept.

        The action works on the live tournament (its own changes are all-or-nothing); when
        the journal cannot take the events, the tournament is rebuilt from the journal, so
        memory never holds what the disk does not."""
        with self._lock:
            self.refresh()
            for _ in range(5):
                before = len(self._tournament.events)
                result = action(self._tournament)
                new = self._tournament.events[before:]
                if not new:
                    return result
                try:
                    self._seq = self.store.append(self.tid, new, self._seq,
                                                  games(result) if games else ())
                except StaleError:
                    self._tournament, self._seq = self.store.load(self.tid)
                    continue
                except BaseException:
                    self._tournament, self._seq = self.store.load(self.tid)
                    raise
                self.version += 1
                return result
            raise TournamentError("the tournament keeps changing under this command; try again")

    def add_entrant(self, name: str, members: Sequence[str] = (), *,
                    short: bool = False) -> str:
        """Add an entrant; returns a warning for a name that looks like another entrant's or
        member's but is other text (a Cyrillic "Аna" beside "Ana"), else "" (``short``: in
        a few words, for a screen's message line). Raised when the tournament refuses it:
        :class:`TournamentError` naming it."""
        from companion.names import warning

        with self._lock:
            taken = [n for e in self._tournament.entrants() for n in (e.name, *e.members)]
        added = self._act(lambda t: t.add_entrant(name, members))
        return next((said for n in (added.name, *added.members)
                     if (said := warning(n, taken, "the name", short=short))), "")

    def drop(self, name: str, reason: str = "") -> None:
        self._act(lambda t: t.drop(name, reason))

    def draw_next(self) -> RoundDrawn:
        return self._act(lambda t: t.draw_next())

    def report(self, round_number: int, table: int, placings: Placings,
               source: str = DIRECTOR, report_id: str = "", game_file: str = ""
               ) -> ReportOutcome:
        """A result from a table (``source`` its user) or typed by the organiser, and the
        game's file when there is one: both journaled in one transaction, or neither (a
        result is counted only with its file kept; a repeat keeps nothing)."""
        rid = report_id or f"director-{round_number}-{table}-{format_placings(placings)}"

        def kept(outcome: ReportOutcome) -> list[SavedGame]:
            return [SavedGame(round_number, table, rid, source, game_file)] if (
                game_file and outcome.status != "duplicate") else []

        return self._act(lambda t: t.report(round_number, table, placings, source, rid), kept)

    def preview_correction(self, round_number: int, table: int, placings: Placings,
                           reason: str = "") -> Correction:
        with self._lock:
            return self._tournament.preview_correction(round_number, table, placings, reason)

    def correct(self, round_number: int, table: int, placings: Placings,
                reason: str = "") -> Correction:
        return self._act(lambda t: t.correct(round_number, table, placings, reason))
