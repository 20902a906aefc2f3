"""A director's desk with a round drawn, and what its tables report: helpers of the
tournament, export and name tests (tests/companion/tournament/, tests/companion/history/,
tests/faults/)."""

from __future__ import annotations

from pathlib import Path

from companion.tournament.desk import DirectorConfig, TournamentDesk
from companion.tournament.protocol import Report
from companion.tournament.store import TournamentStore
from rules.core import Placings
from rules.tournament import Tournament, format_placings


def desk_with_round(tmp_path: Path, players: int = 4, rounds: int = 1,
                    draw: bool = True) -> TournamentDesk:
    """A group tournament of ``players`` (P1, P2...; ``rounds`` rounds, then a final of 2),
    its first round drawn (unless not ``draw``)."""
    store = TournamentStore(tmp_path / "journal.sqlite3")
    t = Tournament.new("Hostile Cup", {"game": "dice-forge", "rounds": rounds,
                                       "final-size": 2}, seed=5)
    for i in range(1, players + 1):
        t.add_entrant(f"P{i}")
    store.create("tt01", t, DirectorConfig().to_json())
    desk = TournamentDesk(store, "tt01")
    desk.ensure_tables()
    if draw:
        desk.draw_next()
    return desk


def seated(desk: TournamentDesk, round_number: int, table: int = 1) -> Placings:
    seats = desk.tournament.rounds[round_number - 1].table(table).seats
    return tuple((s,) for s in seats)


def good(desk: TournamentDesk, round_number: int, placings: Placings, rid: str = "") -> bytes:
    return Report(rid or f"good-{round_number}-{format_placings(placings).count('>')}",
                  "tt01", round_number, 1, placings, "a game file", 1.0).to_payload()
