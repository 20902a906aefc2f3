"""A tournament written out: its standings as plain text, and its files in a folder.

Below both its callers, ``companion tournament export`` and ``companion tournament demo``
(:mod:`companion.tournament.demo`), neither of which imports the other.
"""

from __future__ import annotations

import contextlib
import json
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from companion.tournament.desk import TournamentDesk


def standings_text(summary: dict[str, Any]) -> str:
    """The standings as plain text (the command, the demo's standings.txt)."""
    lines = [f"{summary['name']}: {summary['format']}"]
    r = summary["round"]
    if summary["over"]:
        lines.append(f"Over. Winner: {summary['winner']}")
    elif r:
        lines.append(f"Round {r['number']} ({r['stage']}): {summary.get('round_left', 0)} "
                     "table(s) still playing")
    rows = summary["standings"]
    head = ("#", "name", "pts", "wins", "opp", "played", "status", "tie-break")
    cells = [head] + [(str(x["rank"]), x["name"], str(x["points"]), str(x["wins"]),
                       str(x["opponents"]), str(x["played"]), x["status"], x["tiebreak"])
                      for x in rows]
    widths = [max(len(c[i]) for c in cells) for i in range(len(head))]
    for i, c in enumerate(cells):
        lines.append("  ".join(v.ljust(w) for v, w in zip(c, widths, strict=True)).rstrip())
        if i == 0:
            lines.append("  ".join("-" * w for w in widths))
    lines.append("Equal points are split by: " + ", then ".join(summary["tiebreaks"][1:]) + ".")
    for stage in summary["bracket"]:
        for g in stage["groups"]:
            through = f"; through: {', '.join(g['through'])}" if g["through"] else ""
            result = f": {g['result']}" if g["result"] else ""
            result += "".join(f" (tie-break: {tb})" for tb in g["tiebreaks"])
            label = "" if g["group"] == "final" else f" {g['group']}"
            lines.append(f"{stage['stage']}{label}: {', '.join(g['members'])}{result}"
                         f"{through}{' (bye)' if g['bye'] else ''}")
    if summary["ranking"]:
        lines.append("Ranking: " + "; ".join(f"{i}. {x['name']} ({x['reached']})"
                                             for i, x in enumerate(summary["ranking"], 1)))
    for c in summary.get("conflict_details", []):
        lines.append(f"CONFLICT round {c['round']} table {c['table']}: counted "
                     f"{c['counted']} ({c['counted_from']}); also "
                     + "; ".join(f"{o['result']} ({o['from']})" for o in c["others"])
                     + " -> settle with `companion tournament correct`")
    return "\n".join(lines)



def export_tournament(desk: TournamentDesk, folder: Path) -> list[Path]:
    """Write events.json, standings.json/.txt and every game file into ``folder`` (made if
    missing); returns the paths. Each file appears only once whole, and a link planted at
    its name (or at ``games``) is replaced or refused, never written through
    (:class:`hardware.files.Folder`). Raised when a file cannot be written: OSError."""
    from hardware.files import Folder
    from rules.tournament import event_to_json

    written = []
    summary = desk.summary()
    events = [event_to_json(e) for e in desk.tournament.events]
    saved = desk.store.games(desk.tid)
    with Folder(folder, make=True) as out, \
            (out.folder("games") if saved else contextlib.nullcontext()) as games:
        for name, text in (("events.json", json.dumps(events, indent=1)),
                           ("standings.json", json.dumps(summary, indent=1)),
                           ("standings.txt", standings_text(summary) + "\n")):
            written.append(out.write(name, text))
        for rnd, table, rid, source, text in saved:
            assert games is not None
            # Ids and sources come from the network: only safe characters reach a file name
            # (a journal from before reports were checked may hold anything).
            name = re.sub(r"[^A-Za-z0-9_-]", "_", f"{source}-{rid[:8]}")
            written.append(games.write(f"round-{rnd:02d}-table-{table:02d}-{name}.game", text))
    return written


__all__ = ["export_tournament", "standings_text"]
