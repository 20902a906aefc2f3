"""The games out: a CSV for spreadsheets, BG Stats' file or page, the game files as a zip.

- :func:`write_csv`: one row per player per game (``CSV_COLUMNS``), text a spreadsheet would
  run neutralised (:func:`csv_cell`);
- :func:`write_zip`: every game as its game file (``companion replay``'s format);
- :func:`export_file` / :func:`export_to_folder`: one of those (or BG Stats', from
  :mod:`companion.history.bgstats`) written whole to a file, as ``companion history export``
  and the History screen's export panel do.

Games come back in through :mod:`companion.history.importing`.
"""

from __future__ import annotations

import csv
import io
import time
import zipfile
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import BinaryIO, TextIO

from companion.history.bgstats import bgstats_text
from companion.history.index import History
from companion.history.summary import GameSummary, HistoryError, plain_number

CSV_COLUMNS = ("game_id", "game", "title", "date", "duration_min", "calls", "finished",
               "over", "players", "seat", "player", "team", "role", "score", "rank", "won",
               "winner")


def _minutes(g: GameSummary) -> float | None:
    return None if g.duration is None else round(g.duration / 60, 1)


#: What a spreadsheet takes for the start of a formula when a cell begins with it (OWASP's
#: CSV injection rule: ``=``, ``+``, ``-``, ``@``, tab, carriage return; line feed and NUL too).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "\n", "\0")


def csv_cell(value: object) -> object:
    """A cell as a spreadsheet should read it: text that a spreadsheet would run as a formula
    (``=HYPERLINK(...)``, ``@SUM(...)``, ``+1``, ``-1``) starts with a ``'``, which spreadsheets
    take as "this is text"; numbers stay numbers.

    >>> [csv_cell(v) for v in ("=1+1", "@SUM(A1)", "-2", "Ana", -2, "")]
    ["'=1+1", "'@SUM(A1)", "'-2", 'Ana', -2, '']
    """
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def write_csv(games: Iterable[GameSummary], out: TextIO) -> int:
    """One row per player per game (``CSV_COLUMNS``); returns the rows written. Text that a
    spreadsheet would run is neutralised (:func:`csv_cell`): titles, names, teams and roles
    come from players and imported files."""
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    rows = 0
    for g in games:
        for p in g.players:
            writer.writerow([csv_cell(v) for v in (
                g.id, g.game, g.title, g.date, _minutes(g), g.calls, int(g.finished),
                int(g.is_over), len(g.players), p.seat + 1, p.player, p.team or "",
                p.role or "", "" if p.score is None else plain_number(p.score),
                "" if p.rank is None else p.rank, int(p.won), g.winner or "")])
            rows += 1
    return rows


def csv_text(games: Iterable[GameSummary]) -> str:
    """The CSV export as a string (for tests and small exports)."""
    buf = io.StringIO()
    write_csv(games, buf)
    return buf.getvalue()


def game_file_name(g: GameSummary) -> str:
    stamp = time.strftime("%Y%m%d-%H%M", time.localtime(g.started))
    return f"{g.id:05d}-{g.game}-{stamp}.game"


def write_zip(history: History, games: Iterable[GameSummary], out: BinaryIO) -> int:
    """Every game's game file in one zip, written to ``out``; returns how many. Each says how
    it ended when its calls do not (its ``ending``: ended by the players, or abandoned), so an
    import on another companion gives back the same result."""
    import rules

    n = 0
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as z:
        for g in games:
            left = g.finished and not g.is_over and g.error is None
            z.writestr(game_file_name(g), history.journal.export(
                g.id, rules.Ending.ABANDONED if left else None))
            n += 1
    return n


#: The file each kind of export writes (``export_to_folder``), after its name.
EXPORT_SUFFIXES = {"csv": ".csv", "bgstats": "-bgstats.html", "zip": ".zip"}


def export_file(history: History, games: Sequence[GameSummary], kind: str, path: Path
                ) -> tuple[int, str]:
    """Write ``games`` to the file ``path``: ``kind`` "csv" (one row per player per game),
    "bgstats" (a BG Stats export file, or a page of import links when ``path`` ends in
    ``.html``) or "zip" (the game files). The file appears only once whole, and a link at
    ``path`` is replaced, never written through (:func:`hardware.files.whole_file`). Returns
    (how many, what they are in words). Raises HistoryError for another kind, OSError when
    it cannot be written."""
    from hardware.files import whole_file

    if kind not in EXPORT_SUFFIXES:
        raise HistoryError(f"export kind {kind!r}: choose one of {', '.join(EXPORT_SUFFIXES)}")
    with whole_file(path) as out:
        if kind == "csv":
            text = io.TextIOWrapper(out, encoding="utf-8", newline="")
            count = write_csv(games, text)
            text.flush()
            text.detach()
            return count, f"{count:,} rows (one per player per game)"
        if kind == "bgstats":
            page = path.suffix.lower() in (".html", ".htm")
            data, count = bgstats_text(games, page)
            out.write(data.encode("utf-8"))
            return count, (f"{count:,} plays for BG Stats"
                           + (" (open the page on the phone)" if page else ""))
        count = write_zip(history, games, out)
        return count, f"{count:,} game files"


def export_to_folder(journal: Path, folder: Path, kind: str, game: str | None = None,
                     player: str | None = None) -> tuple[Path, str]:
    """Write the games of ``journal`` the filters let through into a new file in ``folder``
    (made if needed): ``kind`` "csv", "bgstats" (a page of BG Stats import links) or "zip"
    (the game files), oldest game first, the file named by the filters and the time
    (``history-dice-forge-20260111-154700.csv``). It appears only once whole
    (:func:`export_file`). Returns (the file, what it holds in words). Raises HistoryError
    for another kind, OSError when the folder cannot be written."""
    suffix = EXPORT_SUFFIXES.get(kind)
    if suffix is None:
        raise HistoryError(f"export kind {kind!r}: choose one of {', '.join(EXPORT_SUFFIXES)}")
    folder.mkdir(parents=True, exist_ok=True)
    parts = ["history", *(x for x in (game, player) if x), time.strftime("%Y%m%d-%H%M%S")]
    name = "-".join("".join(c if c.isalnum() or c in "-_" else "_" for c in p) for p in parts)
    out = folder / f"{name}{suffix}"
    n = 1
    while out.exists() or out.is_symlink():  # two exports in one second
        n += 1
        out = folder / f"{name}-{n}{suffix}"
    with History(journal) as history:
        history.refresh()
        games = list(reversed(history.games(game=game, player=player)))
        _, what = export_file(history, games, kind, out)
    return out, what
