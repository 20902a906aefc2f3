"""What the director and the tables say to each other over MQTT: topics, messages, join codes.

Topics, under ``companion/<tournament>/`` (``<user>`` is a table's broker user, ``table-3``):

===============================  =========  ==========================================
``state``                        director   the tournament's name, round and stage (retained)
``tables/<user>/seating``        director   this table's seating for the round (retained)
``tables/<user>/report``         table      a result, QoS 1, repeated until acknowledged
``tables/<user>/ack``            director   what became of a report, QoS 1
``tables/<user>/status``         table      ``online`` / ``offline`` (retained; last will)
===============================  =========  ==========================================

The broker's access list lets a table read only its own seating and acknowledgements and
write only its own report and status: a table cannot report another table's result.
Messages are JSON objects; every one is read strictly, and a bad one is refused with a message
that names the field. A message is measured before it is parsed (:func:`read_json`): too
large, not UTF-8 or nested too deep is refused without building anything, so no message can
make the reader recurse, and numbers must be finite (``NaN`` and ``Infinity`` are refused);
text holding a lone surrogate (``\\ud800``, which no file or journal can store) is refused too.

Reading takes time linear in the message's size, whatever it holds: the nesting is measured
with string methods (no pattern), and every pattern that reads what the network sends (a
report's id, a tournament id, a table's user, a scanned join code) is an RE2 pattern
(:data:`NETWORK_PATTERNS`), which matches in linear time with no backtracking; Python's ``re``
is never used on such text (tests/companion/tournament/test_tournament_linear.py checks both
and fuzzes each pattern). A reader given a deadline gives up once it is past: the message is
refused.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import math
import secrets
import socket
import time
from dataclasses import dataclass
from typing import Any

import re2

from rules import Setup
from rules.core import Placings
from rules.tournament import TournamentError, format_placings, placings_from_json

DEFAULT_PORT = 1883
#: Letters for secrets people type: no I, L, O or U to misread (Crockford's base 32).
ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
SECRET_LENGTH = 8
#: The largest report a table may send (its game file included), and any other message. A
#: long game's file is a few tens of kilobytes; the broker refuses larger packets too.
MAX_REPORT_BYTES = 1 << 20
MAX_MESSAGE_BYTES = 64 << 10
#: Lists and objects inside one another: a report needs 3 (object, placings, a place).
MAX_DEPTH = 8
#: Report ids: letters, digits, ``-``, ``_`` and ``.`` only (they end up in file names).
REPORT_ID = re2.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,79}")
#: A tournament's id (in topics, join codes and reports).
TOURNAMENT_ID = re2.compile(r"[0-9a-z]{1,16}")
#: A table's broker user (``table-3``).
TABLE_USER = re2.compile(r"table-([1-9][0-9]{0,8})")
#: A report's id found in a message that cannot be read, so its refusal names it.
REPORT_ID_FIELD = re2.compile(rb'"report_id"\s*:\s*"([A-Za-z0-9._-]{1,80})"')
#: A join code as typed or scanned, once its spaces are taken out.
JOIN_CODE = re2.compile(r"([0-9a-zA-Z]{4})-([1-9][0-9]{0,2})-([0-9A-Za-z-]+)@"
                        r"([0-9A-Za-z.\-]+|\[[0-9a-fA-F:]+\])(?::([0-9]{1,5}))?")
#: Every pattern that reads text a table, the broker or a scanned code sends: RE2 only.
NETWORK_PATTERNS: dict[str, re2._Regexp[Any]] = {
    "report id": REPORT_ID, "tournament id": TOURNAMENT_ID, "table user": TABLE_USER,
    "report id field": REPORT_ID_FIELD, "join code": JOIN_CODE}
_DEPTH_STEP = {ord("["): 1, ord("{"): 1, ord("]"): -1, ord("}"): -1}
#: Every byte but the four brackets (bytes.translate drops them).
_NOT_BRACKETS = bytes(sorted(set(range(256)) - set(b"[]{}")))


class ProtocolError(ValueError):
    """Raised for a message or join code that cannot be read; names the field and why."""


def no_delay(client: Any, userdata: Any, sock: Any) -> None:
    """paho's ``on_socket_open``: send each small message at once (an answer right after its
    PUBACK would otherwise wait for the other side's delayed TCP acknowledgement, ~40 ms)."""
    with contextlib.suppress(OSError, AttributeError):
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


def new_secret(length: int = SECRET_LENGTH) -> str:
    """A random secret of ``length`` characters from :data:`ALPHABET` (5 bits each)."""
    return "".join(secrets.choice(ALPHABET) for _ in range(length))


def new_tournament_id() -> str:
    """A short tournament id for topics and join codes: 4 lower-case characters."""
    return new_secret(4).lower()


def table_user(table: int) -> str:
    return f"table-{table}"


def table_of_user(user: str) -> int | None:
    m = TABLE_USER.fullmatch(user)
    return int(m.group(1)) if m else None


def prefix(tournament: str) -> str:
    return f"companion/{tournament}"


def topic_state(tournament: str) -> str:
    return f"{prefix(tournament)}/state"


def topic_table(tournament: str, user: str, what: str) -> str:
    """``what``: seating, report, ack or status."""
    return f"{prefix(tournament)}/tables/{user}/{what}"


def user_of_topic(tournament: str, topic: str) -> tuple[str, str] | None:
    """(user, what) of a table topic of this tournament, else None."""
    head = f"{prefix(tournament)}/tables/"
    if not topic.startswith(head):
        return None
    user, slash, what = topic[len(head):].partition("/")
    if not user or not slash or "/" in what or not (what.isascii() and what.isalpha()
                                                     and what.islower()):
        return None
    return user, what


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number a message may hold")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"{text[:20]} is too large a number")
    return value


def nesting(payload: bytes) -> int:
    """How deep lists and objects nest in JSON text, in time linear in its length and with
    no pattern: escaped characters are dropped first (a backslash escapes the one character
    after it, so pairs of backslashes go first, from the left), then what stands between
    quotes (strings: brackets in them do not nest), then the brackets left are summed as
    they come (a running sum: a deep message costs no more than a flat one).

    >>> nesting(b'{"a": [1, "]]\\\\\\"[["], "b": {}}')
    2
    """
    bare = payload.replace(b"\\\\", b"").replace(b'\\"', b"")
    brackets = b"".join(bare.split(b'"')[::2]).translate(None, _NOT_BRACKETS)
    return max(itertools.accumulate(map(_DEPTH_STEP.__getitem__, brackets)), default=0)


def _past(deadline: float | None, what: str) -> None:
    if deadline is not None and time.monotonic() > deadline:
        raise ProtocolError(f"{what}: not read within the time allowed for reading a message")


def _lone_surrogate(data: Any, what: str) -> None:
    """Raised for text holding half a surrogate pair (JSON's ``\\ud800`` escape gives one):
    no file, journal or terminal can take it. :class:`ProtocolError` naming the field."""
    todo: list[tuple[str, Any]] = [("", data)]
    while todo:
        where, value = todo.pop()
        if isinstance(value, dict):
            todo += [(f"{where}.{k}" if where else str(k), v) for k, v in value.items()]
            todo += [(where or "a key", k) for k in value]
        elif isinstance(value, list):
            todo += [(f"{where}[{i}]", v) for i, v in enumerate(value)]
        elif isinstance(value, str):
            try:
                value.encode("utf-8")
            except UnicodeEncodeError as e:
                raise ProtocolError(f"{what}: {where[:60] or 'the text'!r} holds half a "
                                    f"surrogate pair ({value[e.start]!r}), which is not "
                                    "text") from None


def read_json(payload: bytes | str, what: str, max_bytes: int = MAX_MESSAGE_BYTES, *,
              deadline: float | None = None) -> Any:
    """A message's JSON, measured before it is parsed: at most ``max_bytes`` bytes, UTF-8,
    nested at most :data:`MAX_DEPTH` deep, finite numbers only, no half surrogate pair in
    its text; read in time linear in its size. ``deadline`` (``time.monotonic()``): past it,
    reading stops. Raised otherwise: :class:`ProtocolError` saying which limit and by how
    much (never RecursionError)."""
    raw = payload.encode("utf-8", "surrogatepass") if isinstance(payload, str) \
        else bytes(payload)
    if len(raw) > max_bytes:
        raise ProtocolError(f"{what}: {len(raw):,} bytes, more than the {max_bytes:,} allowed")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise ProtocolError(f"{what}: not UTF-8 text (byte {e.start})") from None
    _past(deadline, what)
    depth = nesting(raw)
    if depth > MAX_DEPTH:
        raise ProtocolError(f"{what}: nested {depth} deep, more than the {MAX_DEPTH} allowed")
    _past(deadline, what)
    try:
        data = json.loads(text, parse_constant=_no_constant, parse_float=_finite)
    except (ValueError, RecursionError) as e:
        raise ProtocolError(f"{what}: not JSON ({e})") from None
    _past(deadline, what)
    _lone_surrogate(data, what)
    return data


def _obj(payload: bytes | str, what: str, max_bytes: int = MAX_MESSAGE_BYTES, *,
         deadline: float | None = None) -> dict[str, Any]:
    data = read_json(payload, what, max_bytes, deadline=deadline)
    if not isinstance(data, dict):
        raise ProtocolError(f"{what}: must be a JSON object, got {type(data).__name__}")
    return data


def _field(data: dict[str, Any], key: str, kind: type | tuple[type, ...], what: str) -> Any:
    value = data.get(key)
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
        raise ProtocolError(f"{what}: {key!r} missing or not {getattr(kind, '__name__', kind)}: "
                            f"{repr(value)[:60]}")
    return value


@dataclass(frozen=True)
class Seating:
    """One table's seating for a round: who sits where, and the game to start.

    ``table`` is None when this table has no game this round (fewer tables are needed).
    """

    tournament: str
    name: str
    round: int
    stage: str
    table: int | None
    group: str = ""
    seats: tuple[str, ...] = ()
    setup: Setup | None = None
    teams: tuple[tuple[str, ...], ...] = ()

    def to_payload(self) -> bytes:
        return json.dumps({
            "tournament": self.tournament, "name": self.name, "round": self.round,
            "stage": self.stage, "table": self.table, "group": self.group,
            "seats": list(self.seats), "teams": [list(t) for t in self.teams],
            "setup": None if self.setup is None else self.setup.to_json()}).encode()

    @classmethod
    def from_payload(cls, payload: bytes | str) -> Seating:
        what = "seating"
        data = _obj(payload, what)
        table = data.get("table")
        if table is not None and (isinstance(table, bool) or not isinstance(table, int)):
            raise ProtocolError(f"{what}: 'table' must be a number or null, got {table!r}")
        setup_raw = data.get("setup")
        try:
            setup = None if setup_raw is None else Setup.from_json(setup_raw)
        except ValueError as e:
            raise ProtocolError(f"{what}: {e}") from None
        seats = _field(data, "seats", list, what)
        teams = data.get("teams", [])
        if not all(isinstance(s, str) for s in seats) or not isinstance(teams, list):
            raise ProtocolError(f"{what}: 'seats' must be names, 'teams' lists of names")
        return cls(_field(data, "tournament", str, what), _field(data, "name", str, what),
                   _field(data, "round", int, what), _field(data, "stage", str, what), table,
                   str(data.get("group", "")), tuple(seats),
                   setup, tuple(tuple(t) for t in teams))

    def describe(self) -> str:
        if self.table is None:
            return f"{self.name}, round {self.round}: no game at this table this round"
        label = f" (group {self.group})" if self.group and self.group != "final" else (
            " (the final)" if self.group == "final" else "")
        return (f"{self.name}, round {self.round} {self.stage}{label}, table {self.table}: "
                + ", ".join(f"seat {i} {s}" for i, s in enumerate(self.seats, 1)))


@dataclass(frozen=True)
class Report:
    """A table's result: finishing positions in entrants' names, and the game file."""

    report_id: str
    tournament: str
    round: int
    table: int
    placings: Placings
    game_file: str = ""
    sent: float = 0.0  # the table's wall clock when first queued (for figures only)

    def to_payload(self) -> bytes:
        return json.dumps({
            "report_id": self.report_id, "tournament": self.tournament, "round": self.round,
            "table": self.table, "placings": [list(g) for g in self.placings],
            "game_file": self.game_file, "sent": self.sent}).encode()

    @classmethod
    def from_payload(cls, payload: bytes | str, *, deadline: float | None = None) -> Report:
        """Read a table's report. ``deadline`` (``time.monotonic()``): past it, reading stops.
        Raised for anything a companion would not send: :class:`ProtocolError` naming the
        field."""
        what = "report"
        data = _obj(payload, what, MAX_REPORT_BYTES, deadline=deadline)
        report_id = _field(data, "report_id", str, what)
        if not REPORT_ID.fullmatch(report_id):
            raise ProtocolError(f"{what}: 'report_id' {report_id[:40]!r} must be 1 to 80 "
                                "letters, digits, '-', '_' or '.'")
        tournament = _field(data, "tournament", str, what)
        if not TOURNAMENT_ID.fullmatch(tournament):
            raise ProtocolError(f"{what}: 'tournament' {tournament[:40]!r} is not a tournament "
                                "id")
        round_number = _field(data, "round", int, what)
        table = _field(data, "table", int, what)
        for key, value in (("round", round_number), ("table", table)):
            if not 1 <= value <= 9999:
                raise ProtocolError(f"{what}: {key!r} {value} must be 1 to 9999")
        try:
            placings = placings_from_json(data.get("placings"), "report placings")
        except TournamentError as e:
            raise ProtocolError(str(e)[:300]) from None
        if any(len(name) > 200 for group in placings for name in group):
            raise ProtocolError(f"{what}: a name in 'placings' is longer than 200 characters")
        sent = data.get("sent", 0.0)
        if isinstance(sent, bool) or not isinstance(sent, int | float) or not math.isfinite(
                sent):
            raise ProtocolError(f"{what}: 'sent' must be a finite number, got {sent!r}")
        game_file = data.get("game_file", "")
        if game_file is None:
            game_file = ""
        if not isinstance(game_file, str):
            raise ProtocolError(f"{what}: 'game_file' must be text, got "
                                f"{type(game_file).__name__}")
        _past(deadline, what)
        return cls(report_id, tournament, round_number, table, placings, game_file,
                   float(sent))

    def describe(self) -> str:
        return f"round {self.round}, table {self.table}: {format_placings(self.placings)}"


@dataclass(frozen=True)
class Ack:
    """What the director did with a report: recorded, duplicate, conflict or rejected."""

    report_id: str
    status: str
    text: str = ""

    def to_payload(self) -> bytes:
        return json.dumps({"report_id": self.report_id, "status": self.status,
                           "text": self.text}).encode()

    @classmethod
    def from_payload(cls, payload: bytes | str) -> Ack:
        data = _obj(payload, "ack")
        return cls(_field(data, "report_id", str, "ack"), _field(data, "status", str, "ack"),
                   str(data.get("text", "")))


@dataclass(frozen=True)
class JoinCode:
    """What a table needs to join: the broker's address, the tournament, its table number
    and its secret. As text: ``k7m2-3-KQ7MX2P9@192.168.1.20`` (``:port`` when not 1883); the
    QR code on the director's screen holds the same text.

    >>> code = JoinCode.parse("k7m2-3-kq7m-x2p9 @ 192.168.1.20")
    >>> (code.tournament, code.table, code.secret, code.host, code.port)
    ('k7m2', 3, 'KQ7MX2P9', '192.168.1.20', 1883)
    >>> code.text()
    'k7m2-3-KQ7MX2P9@192.168.1.20'
    """

    tournament: str
    table: int
    secret: str
    host: str
    port: int = DEFAULT_PORT

    @property
    def user(self) -> str:
        return table_user(self.table)

    def text(self) -> str:
        where = self.host if self.port == DEFAULT_PORT else f"{self.host}:{self.port}"
        return f"{self.tournament}-{self.table}-{self.secret}@{where}"

    @classmethod
    def parse(cls, text: str) -> JoinCode:
        """Read a join code as typed or scanned: spaces, case and dashes inside the secret
        do not matter; O reads as 0 and I or L as 1. Raised when it cannot be read:
        :class:`ProtocolError` saying what a code looks like."""
        raw = "".join(str(text).split())
        example = "a join code looks like k7m2-3-KQ7MX2P9@192.168.1.20"
        m = JOIN_CODE.fullmatch(raw)
        if m is None:
            raise ProtocolError(f"join code {text!r}: {example}")
        secret = m.group(3).replace("-", "").upper().translate(str.maketrans("OIL", "011"))
        if len(secret) != SECRET_LENGTH or any(c not in ALPHABET for c in secret):
            raise ProtocolError(f"join code {text!r}: the secret after the table number must "
                                f"be {SECRET_LENGTH} letters and digits; {example}")
        port = int(m.group(5)) if m.group(5) else DEFAULT_PORT
        if not 1 <= port <= 65535:
            raise ProtocolError(f"join code {text!r}: port {port} is not 1 to 65535")
        return cls(m.group(1).lower(), int(m.group(2)), secret, m.group(4).strip("[]"), port)
