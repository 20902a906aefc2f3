"""What the history says of a game, without its SQL: :class:`GameSummary` and its
:class:`PlayerLine` rows as the list shows them; :class:`Played` and :class:`NewGame` as an
import hands them to the index; :class:`HistoryError`; and the small rules every part of the
history shares (a player's key, a game's title, a game's content digest).

:class:`companion.history.index.History` reads and writes these from its tables.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from rules import Ending


@dataclass(frozen=True)
class Played:
    """What the index keeps of a game replayed elsewhere (an import replays each game once,
    maybe in another process): its standings' winner and note, whether it is over, and each
    player's result."""

    winner: str | None
    note: str
    is_over: bool
    results: tuple[Any, ...]

    @classmethod
    def of(cls, game: Any) -> Played:
        standings = game.standings()
        return cls(standings.winner, standings.note, bool(game.is_over), tuple(game.results()))


@dataclass(frozen=True)
class NewGame:
    """A finished game to add to the journal (an import): its setup as JSON, title, start and
    end (Unix time), its calls (call, time in the round), and what its replay gave."""

    setup_json: str
    title: str
    started: float
    ended: float | None
    calls: tuple[tuple[str, float | None], ...]
    played: Played
    ending: str | None = None  # ended by the players (companion.ending.ENDINGS), else None


class HistoryError(RuntimeError):
    """Raised when the history cannot do what was asked; says which game or file and why."""


@dataclass(frozen=True)
class PlayerLine:
    """One player in one game of the history. ``forgotten`` players keep their seat under a
    neutral name (``companion history --forget``) and count in nobody's statistics."""

    seat: int
    player: str
    score: float | None
    rank: int | None
    won: bool
    role: str | None
    team: str | None
    forgotten: bool = False


@dataclass(frozen=True)
class GameSummary:
    """One game as the history list shows it: what, when, who, who won, how long.

    ``started`` and ``ended`` are Unix times (``ended``: the last live call, None before the
    first); ``finished`` is the journal's word (over, or abandoned); ``is_over`` the rules', or
    the players' for a game they ended by agreement (its ``note`` then says so).
    An unfinished game can be resumed. ``error`` says why a game no longer replays (a game
    file from a newer companion, say); such a game is listed with no result. ``variant``
    names the variant played (:meth:`rules.Game.variant`), "" for the game as it comes;
    ``ending`` how the players ended it (agreed, or no result; None when they did not).
    """

    id: int
    game: str
    title: str
    started: float
    ended: float | None
    finished: bool
    is_over: bool
    calls: int
    winner: str | None
    note: str
    players: tuple[PlayerLine, ...]
    error: str | None = None
    digest: str = ""  # the game's content (setup and calls): the same game anywhere
    setup_json: str = ""  # the setup as the journal keeps it (its options name the variant)
    ending: Ending | None = None  # how the players ended it, when they did (the journal's)

    @property
    def can_resume(self) -> bool:
        return not self.finished and self.error is None

    @property
    def duration(self) -> float | None:
        """Seconds from the start to the last call; None before the first call and for an
        imported game (whose calls carry no wall-clock time)."""
        if self.ended is None or self.ended <= self.started:
            return None
        return self.ended - self.started

    @property
    def date(self) -> str:
        """The local start date and time, ``YYYY-MM-DD HH:MM``."""
        return time.strftime("%Y-%m-%d %H:%M", time.localtime(self.started))

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(p.player for p in self.players)

    @property
    def variant(self) -> str:
        """The variant played (:meth:`rules.Game.variant`: Dice Forge's "Titans module"), ""
        for the game as it comes or when the setup cannot tell (worked out when asked: a list
        of games imports no game's rules for it)."""
        import rules

        try:
            options = json.loads(self.setup_json or "{}").get("options") or {}
            return (rules.game_class(self.game).variant(options)
                    if isinstance(options, dict) else "")
        except (rules.SetupError, ValueError, AttributeError, RecursionError):
            return ""

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "game": self.game, "title": self.title, "date": self.date,
                "started": self.started, "ended": self.ended, "duration_s": self.duration,
                "finished": self.finished, "is_over": self.is_over, "calls": self.calls,
                "winner": self.winner, "note": self.note, "error": self.error,
                "can_resume": self.can_resume, "variant": self.variant,
                "ending": None if self.ending is None else self.ending.value,
                "players": [{"seat": p.seat, "player": p.player, "score": p.score,
                             "rank": p.rank, "won": p.won, "role": p.role, "team": p.team}
                            for p in self.players]}


def player_key(name: str) -> str:
    """Names are the same player whatever their case (``Ana`` and ``ana``)."""
    return " ".join(name.split()).casefold()


def game_title(name: str) -> str:
    """The game's title from the rules (``dice-forge`` -> ``Dice Forge``), or the name."""
    import rules

    try:
        return str(rules.game_class(name).title)
    except rules.SetupError:
        return name


def game_digest(setup_json: str, calls: Iterable[tuple[str, float | None]]) -> str:
    """A fingerprint of a game's content (setup and live calls): the same game imported twice
    has the same digest."""
    h = hashlib.sha256(setup_json.encode())
    for call, at in calls:
        h.update(f"\n{call}\t{at}".encode())
    return h.hexdigest()[:32]


def canonical_setup(raw: str) -> str:
    """A setup's JSON written one way (keys sorted, no spaces), for :func:`game_digest`."""
    return json.dumps(json.loads(raw), sort_keys=True, separators=(",", ":"))


def plain_number(value: float | None) -> float | int | None:
    """A score as exports write it: a whole number without its ``.0`` (``3.0`` -> ``3``)."""
    if value is None:
        return None
    return int(value) if float(value).is_integer() else value
