"""Tournaments across tables: formats, draws, results and standings, rebuilt from events.

Pure logic beside the games (no I/O, no clock, no randomness of its own): the director
companion journals the events and the tables report finishing positions.

>>> from rules.tournament import Tournament
>>> t = Tournament.new("Club night", {"rounds": 2}, seed=1)
>>> for name in ["Ana", "Ben", "Cy", "Dee"]:
...     _ = t.add_entrant(name)
>>> r = t.draw_next()
>>> [len(table.seats) for table in r.tables]
[4]
>>> t.report(1, 1, (("Ana",), ("Ben", "Cy"), ("Dee",)), "table-1", "r1").status
'recorded'
>>> [(row.name, row.points) for row in t.standings()][::3]
[('Ana', 4), ('Dee', 1)]
"""

from rules.tournament.draw import draw_tables, table_sizes
from rules.tournament.elimination import Elimination, TournamentError
from rules.tournament.events import (
    Created,
    EntrantAdded,
    EntrantDropped,
    Format,
    ResultCorrected,
    ResultReported,
    RoundDrawn,
    Table,
    TournamentEvent,
    event_from_json,
    event_to_json,
    format_placings,
    parse_placings,
    placings_from_json,
)
from rules.tournament.tournament import (
    DIRECTOR,
    TIE_BREAKS,
    Correction,
    ReportOutcome,
    StandingRow,
    Tournament,
    placings_for_entrants,
)

__all__ = [
    "DIRECTOR",
    "TIE_BREAKS",
    "Correction",
    "Created",
    "Elimination",
    "EntrantAdded",
    "EntrantDropped",
    "Format",
    "ReportOutcome",
    "ResultCorrected",
    "ResultReported",
    "RoundDrawn",
    "StandingRow",
    "Table",
    "Tournament",
    "TournamentError",
    "TournamentEvent",
    "draw_tables",
    "event_from_json",
    "event_to_json",
    "format_placings",
    "parse_placings",
    "placings_for_entrants",
    "placings_from_json",
    "table_sizes",
]
