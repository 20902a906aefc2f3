"""Games out and in: CSV, BG Stats JSON, the game files as a zip, and importing game files.

- :func:`write_csv`: one row per player per game, for spreadsheets.
- :func:`bgstats_plays`: each finished game as a play in the JSON form BG Stats documents for
  pushing plays from other apps (a ``createPlay`` link carrying one play, :func:`bgstats_link`;
  the app shows it as a QR code at the end of a game); :func:`bgstats_export`: the games in
  BG Stats' own export file shape (``players``, ``locations``, ``games``, ``plays`` with ids and
  ``playerScores``); :func:`write_bgstats` writes that file (``.json``) or a page of import
  links (``.html``). Each field is documented against BG Stats in docs/history.md.
- :func:`write_zip`: every game as its game file (``companion replay``'s format).
- :func:`import_game_text` / :func:`import_paths`: game files (or zips of them) from another
  companion, checked by replaying them, added to this journal's history as finished games.
"""

from __future__ import annotations

import csv
import html
import io
import json
import os
import re
import stat
import time
import urllib.parse
import uuid
import zipfile
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from companion import store
from companion.history.index import GameSummary, History, HistoryError, _canonical_setup, _digest

if TYPE_CHECKING:
    from rules import Ending

#: Where BG Stats takes a play from another app (its documented import link).
BGSTATS_LINK = "https://app.bgstatsapp.com/createPlay.html?data="
#: What the companion calls itself in exported plays (BG Stats' ``sourceName``: the app the
#: plays come from, which it remembers its matches of games and players for).
SOURCE_NAME = "Table companion"
#: BoardGameGeek ids of the games that have one (BG Stats matches games by them). Dice Forge's
#: is its BGG page's (boardgamegeek.com/boardgame/194594/dice-forge); no BGG page was found
#: for the others, so they carry none and BG Stats matches them by name.
BGG_IDS = {"dice-forge": 194594}
#: The namespace of the uuids in BG Stats export files (uuid5 of the play's sourcePlayId, a
#: player's name...), so that the same play exported twice has the same uuid.
_UUIDS = uuid.UUID("4f0c3a52-8d1e-5b7a-9c26-3e1f7a0b9d44")

CSV_COLUMNS = ("game_id", "game", "title", "date", "duration_min", "calls", "finished",
               "over", "players", "seat", "player", "team", "role", "score", "rank", "won",
               "winner")

_STARTED = re.compile(r"started (\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)")
_ENDED = re.compile(r"ended (\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)")
_JOURNAL_LINE = re.compile(r"^journal game \d+, started ")


def _number(value: float | None) -> float | int | None:
    if value is None:
        return None
    return int(value) if float(value).is_integer() else value


def _minutes(g: GameSummary) -> float | None:
    return None if g.duration is None else round(g.duration / 60, 1)


def write_csv(games: Iterable[GameSummary], out: TextIO) -> int:
    """One row per player per game (``CSV_COLUMNS``); returns the rows written."""
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    rows = 0
    for g in games:
        for p in g.players:
            writer.writerow([g.id, g.game, g.title, g.date, _minutes(g), g.calls,
                             int(g.finished), int(g.is_over), len(g.players), p.seat + 1,
                             p.player, p.team or "", p.role or "",
                             "" if p.score is None else _number(p.score),
                             "" if p.rank is None else p.rank, int(p.won), g.winner or ""])
            rows += 1
    return rows


def play_id(g: GameSummary) -> str:
    """The play's id for BG Stats (``sourcePlayId``): the game's content digest, the same for
    this game on every companion it is imported into, so a play pushed or imported twice is
    recognised as one."""
    return f"tc-{g.digest or g.id}"


def play_date(g: GameSummary) -> str:
    """When the game ended (its last call, else its start), in UTC, as BG Stats writes dates:
    ``YYYY-MM-DD HH:MM:SS``."""
    return time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(g.ended or g.started))


def _comments(g: GameSummary) -> str:
    """The play's comment, whole, with only what the players wrote or would want: the
    game's title when one was given (not the list of players the app titles a game with),
    how it ended when the players ended it, and the teams. Never the companion's own
    bookkeeping (calls, its game numbers) nor the standings' notes, which BG Stats' own
    fields say (winners, ranks, scores)."""
    from companion.ending import AGREED, NO_RESULT

    said = []
    if g.title and g.title != ", ".join(g.names):
        said.append(g.title)
    if g.ending == AGREED:
        said.append("Ended by agreement: the standings then are the result")
    elif g.ending == NO_RESULT:
        said.append("Ended by agreement with no result")
    teams = sorted({p.team for p in g.players if p.team})
    if teams:
        said.append("Teams: " + "; ".join(
            f"{t} ({', '.join(p.player for p in g.players if p.team == t)})" for t in teams))
    return ". ".join(said)


def _duration_min(g: GameSummary) -> int:
    return 0 if g.duration is None else max(1, round(g.duration / 60))


def bgstats_play(g: GameSummary) -> dict[str, Any]:
    """One game as the play a BG Stats ``createPlay`` link carries (the fields BG Stats
    documents for pushing plays from other apps; each one in docs/history.md)."""
    from companion.history.index import game_title

    # Optional fields that would only repeat BG Stats' defaults (an empty board or role, no
    # start player, points kept) are left out: the link is shown as a QR code, and a shorter
    # one has larger modules that a phone reads from a small screen.
    game: dict[str, Any] = {"name": game_title(g.game), "sourceGameId": g.game,
                            "highestWins": True}
    if all(p.score is None for p in g.players):
        game["noPoints"] = True
    if g.game in BGG_IDS:
        game["bggId"] = BGG_IDS[g.game]
    players = []
    for p in g.players:
        one: dict[str, Any] = {"name": p.player, "sourcePlayerId": p.player.casefold(),
                               "winner": p.won}
        if p.score is not None:
            one["score"] = _number(p.score)
        if p.rank is not None:
            one["rank"] = p.rank
        if p.role:
            one["role"] = p.role
        players.append(one)
    play: dict[str, Any] = {
        "sourceName": SOURCE_NAME,
        "sourcePlayId": play_id(g),
        "playDate": play_date(g),
        "durationMin": _duration_min(g),
    }
    if g.variant:
        play["board"] = g.variant
    comments = _comments(g)
    if comments:
        play["comments"] = comments
    return {**play, "game": game, "players": players}


def _uuid(*parts: object) -> str:
    return str(uuid.uuid5(_UUIDS, "\x1f".join(str(p) for p in parts))).upper()


def bgstats_export(games: Iterable[GameSummary]) -> dict[str, Any]:
    """The plays (games that are over) in BG Stats' own export file shape: ``players``,
    ``locations``, ``games`` and ``plays``, each with an ``id`` (or ``uuid``) the others refer
    to (``playerRefId``, ``gameRefId``); a play's ``playerScores`` one per seat. Uuids are
    derived from the play's ``sourcePlayId`` and the names, so exporting again gives the same
    file. Fields in docs/history.md."""
    from companion.history.index import game_title, player_key

    plays = [g for g in games if g.is_over and g.error is None]
    player_ids: dict[str, int] = {}
    players: list[dict[str, Any]] = []
    game_ids: dict[str, int] = {}
    game_rows: list[dict[str, Any]] = []
    out_plays: list[dict[str, Any]] = []
    for g in plays:
        if g.game not in game_ids:
            game_ids[g.game] = len(game_ids) + 1
            game_rows.append({
                "id": game_ids[g.game], "uuid": _uuid("game", g.game),
                "name": game_title(g.game), "bggId": BGG_IDS.get(g.game, 0),
                "sourceGameId": g.game, "highestWins": True,
                "noPoints": all(p.score is None for p in g.players), "cooperative": False,
                "usesTeams": any(p.team for p in g.players)})
        scores = []
        for p in g.players:
            key = player_key(p.player)
            if key not in player_ids:
                player_ids[key] = len(player_ids) + 1
                players.append({"id": player_ids[key], "uuid": _uuid("player", key),
                                "name": p.player, "isAnonymous": False})
            scores.append({"playerRefId": player_ids[key],
                           "score": "" if p.score is None else str(_number(p.score)),
                           "winner": p.won, "rank": p.rank or 0, "seatOrder": p.seat + 1,
                           "startPlayer": False, "newPlayer": False, "role": p.role or "",
                           "team": p.team or ""})
        out_plays.append({
            "uuid": _uuid("play", play_id(g)), "sourcePlayId": play_id(g),
            "playDate": play_date(g), "durationMin": _duration_min(g),
            "gameRefId": game_ids[g.game], "ignored": False, "manualWinner": False,
            "rounds": 0, "board": g.variant, "usesTeams": any(p.team for p in g.players),
            "comments": _comments(g), "playerScores": scores})
    return {"players": players, "locations": [], "games": game_rows, "plays": out_plays}


def bgstats_plays(games: Iterable[GameSummary]) -> list[dict[str, Any]]:
    """Every game that is over, as BG Stats plays (unfinished games are not plays yet)."""
    return [bgstats_play(g) for g in games if g.is_over and g.error is None]


def bgstats_link(play: dict[str, Any]) -> str:
    """The import link BG Stats opens: the play as URL-encoded JSON."""
    # ':' and ',' may stay as they are in a query: a shorter link, a coarser QR code
    return BGSTATS_LINK + urllib.parse.quote(json.dumps(play, separators=(",", ":")),
                                             safe=":,")


def write_bgstats(games: Iterable[GameSummary], path: Path) -> int:
    """Write the plays to ``path``: a BG Stats export file (:func:`bgstats_export`), or
    (``.html``) a page with one import link per play to open on the phone that has BG Stats.
    Returns the number of plays."""
    games = list(games)
    plays = bgstats_plays(games)
    if path.suffix.lower() in (".html", ".htm"):
        items = "\n".join(
            f'<li><a href="{html.escape(bgstats_link(p))}">{html.escape(p["playDate"])} '
            f'{html.escape(p["game"]["name"])}: '
            f'{html.escape(", ".join(q["name"] for q in p["players"]))}</a></li>'
            for p in plays)
        path.write_text(
            "<!doctype html>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" "
            "content=\"width=device-width\">\n<title>Plays for BG Stats</title>\n"
            f"<h1>{len(plays)} plays for BG Stats</h1>\n<p>Tap a play on the phone or tablet "
            "that has BG Stats: it opens the app's import dialog.</p>\n"
            f"<ol>\n{items}\n</ol>\n", encoding="utf-8")
    else:
        path.write_text(json.dumps(bgstats_export(games), indent=1, ensure_ascii=False) + "\n",
                        encoding="utf-8")
    return len(plays)


def game_file_name(g: GameSummary) -> str:
    stamp = time.strftime("%Y%m%d-%H%M", time.localtime(g.started))
    return f"{g.id:05d}-{g.game}-{stamp}.game"


def write_zip(history: History, games: Iterable[GameSummary], path: Path) -> int:
    """Every game's game file in one zip; returns how many. Each says how it ended when its
    calls do not (its ``ending``: ended by the players, or abandoned), so an import on
    another companion gives back the same result."""
    import rules

    n = 0
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as z:
        for g in games:
            left = g.finished and not g.is_over and g.error is None
            z.writestr(game_file_name(g), history.journal.export(
                g.id, rules.Ending.ABANDONED if left else None))
            n += 1
    return n


# -- import ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class Imported:
    """What became of one imported game file: its new id, or why it was not added."""

    source: str
    game_id: int | None
    message: str


#: Bounds on what an import reads, whatever the files claim: a game file is a few kilobytes.
MAX_GAME_FILE_BYTES = 4_000_000
MAX_ZIP_ENTRIES = 20_000
MAX_ZIP_BYTES = 200_000_000  # all the game files of one zip, uncompressed
#: The compression methods this Python reads (deflate64, say, is not among them).
READABLE_METHODS = {zipfile.ZIP_STORED: "stored", zipfile.ZIP_DEFLATED: "deflate",
                    zipfile.ZIP_BZIP2: "bzip2", zipfile.ZIP_LZMA: "lzma"}


@dataclass(frozen=True)
class _Prepared:
    """One game file checked and replayed, ready to be written."""

    source: str
    setup_json: str
    title: str
    started: float
    game: Any
    digest: str
    ended: float | None = None  # from the "ended ..." comment companions write
    ending: Ending | None = None  # the file's: how the players ended it, or left it


def _prepare(history: History, text: str, source: str, started: float | None,
             taken: dict[str, str]) -> _Prepared:
    """Parse and replay one game file, and check it is not already here (nor among
    ``taken``: digest -> source, the files of this import so far). Raises as
    :func:`import_game_text` does."""
    import rules

    try:
        parsed = rules.parse_game_file(text, source)
    except rules.GameFileError as e:
        other = other_file(text) or (
            "a file with no '---' line between a setup and calls"
            if not any(line.strip() == "---" for line in text.splitlines()) else "")
        if other:
            raise HistoryError(f"{source}: {other}, not a game file. {IMPORT_TAKES}") from e
        raise
    game = parsed.play(source)
    setup_json = json.dumps(game.setup.to_json())
    entries = list(game.history)
    digest = _digest(_canonical_setup(setup_json), ((e.call, e.at) for e in entries))
    same = history.db.execute("SELECT game_id FROM history_games WHERE digest = ?",
                              (digest,)).fetchone()
    if same is not None:
        raise HistoryError(f"{source}: already in the history as game {same[0]}")
    if digest in taken:
        raise HistoryError(f"{source}: the same game as {taken[digest]}")
    comments = [line[1:].strip() for line in text.splitlines()
                if line.startswith("#") and line[1:].strip()]
    when = started
    ended: float | None = None
    for c in comments:
        for pattern, is_start in ((_STARTED, True), (_ENDED, False)):
            m = pattern.search(c)
            if not m or (when if is_start else ended) is not None:
                continue
            try:
                at = time.mktime(time.strptime(m.group(1), "%Y-%m-%d %H:%M:%S"))
            except (ValueError, OverflowError):
                raise HistoryError(f"{source}: the comment line {c[:80]!r} gives "
                                   f"{m.group(1)!r}, which is not a date and time") from None
            if is_start:
                when = at
            else:
                ended = at
    if when is None:
        when = time.time()
    title = "; ".join(c for c in comments if not _JOURNAL_LINE.match(c))[:120]
    return _Prepared(source, setup_json, title, when, game, digest, ended, parsed.ending)


def _write_games(history: History, games: Sequence[_Prepared]) -> list[int]:
    """Add prepared games as finished games, all in one transaction (all or none)."""
    from companion.ending import ENDINGS

    db = history.db
    ids: list[int] = []
    with store.transaction(db, history.journal.path):
        for p in games:
            # ended by the players: their ending (an abandoned game, or one that was still
            # open where it was played, comes in finished with none: it is resumed only there)
            ending = p.ending.value if p.ending in ENDINGS else None
            cur = db.execute("INSERT INTO games (setup, title, started, finished, ending) "
                             "VALUES (?, ?, ?, ?, ?)",
                             (p.setup_json, p.title, p.started, p.started, ending))
            gid = int(cur.lastrowid or 0)
            # the calls carry no wall time in a game file: the last one is when it ended
            walls = [p.started] * len(p.game.history)
            if walls and p.ended is not None and p.ended > p.started:
                walls[-1] = p.ended
            db.executemany("INSERT INTO calls (game_id, seq, call, at, wall) "
                           "VALUES (?, ?, ?, ?, ?)",
                           [(gid, i, e.call, e.at, wall)
                            for i, (e, wall) in enumerate(zip(p.game.history, walls,
                                                              strict=True), start=1)])
            ids.append(gid)
    for p, gid in zip(games, ids, strict=True):
        history.summarise(gid, p.game)
    return ids


#: What ``companion history import`` takes, for a file that is something else.
IMPORT_TAKES = ("`companion history import` takes game files (.game: a setup, a '---' line, "
                "then the calls) and zips of them, as `companion history export zip` writes on "
                "another companion.")


def other_file(text: str) -> str:
    """What a file given to import is when it is one of the exports that are not game files
    (a BG Stats file or page, a CSV export), in words; "" otherwise."""
    head = text.lstrip("\ufeff \t\r\n")[:4000]
    if head.startswith(("{", "[")):
        try:
            data = json.loads(text)
        except (ValueError, RecursionError):
            return "JSON"
        if isinstance(data, dict) and "plays" in data:
            return "a BG Stats export file (its plays go into BG Stats, not back here)"
        return "JSON"
    if head[:200].lower().startswith(("<!doctype", "<html", "<meta")):
        return ("a web page (a BG Stats page of import links is opened on the phone "
                "with BG Stats)")
    if head.startswith(",".join(CSV_COLUMNS[:3])):
        return "a CSV export (for spreadsheets)"
    return ""


def import_game_text(history: History, text: str, source: str = "game file",
                     started: float | None = None) -> int:
    """Add one game file to the history as a finished game; returns its id in this journal.

    The file is replayed first (a call that does not replay is an error naming its line) and
    compared with every game already here (the same setup and calls: refused as a repeat).
    Its start time comes from the ``# journal game N, started ...`` line companions write,
    else ``started``, else now; its title from its other comment lines.
    Raises :class:`HistoryError` (a repeat, a start that is not a date, an export that is not
    a game file) or :class:`rules.GameFileError` (a bad file).
    """
    history.refresh()
    return _write_games(history, [_prepare(history, text, source, started, {})])[0]


def _zip_texts(path: Path) -> Iterator[tuple[str, str | None, str]]:
    """The game files of a zip: (source, its text or None, why not). Each entry is judged
    from the zip's directory before a byte of it is read (encrypted, a method this Python
    cannot read, too large, too many), and read with a bound whatever it claims."""
    with zipfile.ZipFile(path) as z:
        infos = [i for i in z.infolist() if i.filename.endswith(".game") and not i.is_dir()]
        if not infos:
            yield str(path), None, f"{path}: a zip with no .game file in it"
            return
        if len(infos) > MAX_ZIP_ENTRIES:
            yield str(path), None, (f"{path}: {len(infos):,} game files, more than an import "
                                    f"takes at once ({MAX_ZIP_ENTRIES:,}): split it")
            return
        total = 0
        for info in sorted(infos, key=lambda i: i.filename):
            source = f"{path}:{info.filename}"
            if info.flag_bits & 0x1:
                yield source, None, f"{source}: encrypted (with a password): not read"
                continue
            if info.compress_type not in READABLE_METHODS:
                yield source, None, (f"{source}: compressed with method {info.compress_type} "
                                     "(deflate64 is 9), which cannot be read here: zip it "
                                     "again with plain deflate")
                continue
            if info.file_size > MAX_GAME_FILE_BYTES:
                yield source, None, (f"{source}: {info.file_size:,} bytes, too large to be a "
                                     f"game file (at most {MAX_GAME_FILE_BYTES:,})")
                continue
            total += info.file_size
            if total > MAX_ZIP_BYTES:
                yield source, None, (f"{source}: the zip's game files come to more than "
                                     f"{MAX_ZIP_BYTES:,} bytes: the rest are not read")
                return
            try:
                with z.open(info) as fh:
                    data = fh.read(MAX_GAME_FILE_BYTES + 1)
            except (RuntimeError, NotImplementedError, zipfile.BadZipFile, OSError,
                    EOFError, ValueError) as e:
                yield source, None, f"{source}: cannot be read ({e})"
                continue
            if len(data) > MAX_GAME_FILE_BYTES:  # its directory lied about its size
                yield source, None, (f"{source}: larger than {MAX_GAME_FILE_BYTES:,} bytes, "
                                     "too large to be a game file")
                continue
            try:
                yield source, data.decode("utf-8"), ""
            except UnicodeDecodeError as e:
                yield source, None, f"{source}: not UTF-8 text ({e})"


def _file_texts(path: Path) -> Iterator[tuple[str, str | None, str]]:
    """The game files one path holds (itself, or a zip's entries), as :func:`_zip_texts`.
    Only a plain file is opened: a FIFO or a device (``/dev/zero``) is refused unread."""
    from hardware.files import NotAPlainFile, read_bounded

    try:
        kind = os.stat(path).st_mode
    except OSError as e:
        yield str(path), None, f"{path}: cannot read: {e.strerror or e}"
        return
    if stat.S_ISDIR(kind):
        yield str(path), None, f"{path}: cannot read: a folder, not a game file or a zip"
        return
    if not stat.S_ISREG(kind):
        yield str(path), None, f"{path}: cannot read: not a plain file (a FIFO or a device)"
        return
    if zipfile.is_zipfile(path):
        yield from _zip_texts(path)
        return
    try:
        text = read_bounded(path, MAX_GAME_FILE_BYTES).decode("utf-8")
    except NotAPlainFile as e:
        yield str(path), None, f"{path}: cannot read: {e.strerror}"
    except UnicodeDecodeError as e:
        yield str(path), None, f"{path}: cannot read: not UTF-8 text ({e})"
    else:
        yield str(path), text, ""


def import_paths(history: History, paths: Sequence[Path]) -> list[Imported]:
    """Import game files and zips of them; one :class:`Imported` per game file found (or
    per file that could not be read). Nothing is raised for a file: each is taken or
    refused with its reason. The games of one file (a zip's) are added in one transaction:
    a file is imported whole or, should the disk fail, not at all."""
    import rules

    out: list[Imported] = []
    history.refresh()
    taken: dict[str, str] = {}
    for path in paths:
        ready: list[_Prepared] = []
        said: list[Imported | _Prepared] = []
        try:
            for source, text, why in _file_texts(path):
                if text is None:
                    said.append(Imported(source, None, why))
                    continue
                try:
                    prepared = _prepare(history, text, source, None, taken)
                except (rules.RulesError, HistoryError) as e:
                    said.append(Imported(source, None, str(e)))
                    continue
                except RecursionError:
                    said.append(Imported(source, None, f"{source}: nested too deeply"))
                    continue
                taken[prepared.digest] = source
                ready.append(prepared)
                said.append(prepared)
        except (OSError, zipfile.BadZipFile, zipfile.LargeZipFile, EOFError) as e:
            said.append(Imported(str(path), None, f"{path}: cannot read: {e}"))
        try:
            ids = iter(_write_games(history, ready))
        except (store.StoreError, OSError) as e:
            for p in ready:
                taken.pop(p.digest, None)
            out += [x if isinstance(x, Imported) else
                    Imported(x.source, None, f"{x.source}: not added: {e}") for x in said]
            continue
        for x in said:
            if isinstance(x, Imported):
                out.append(x)
            else:
                gid = next(ids)
                out.append(Imported(x.source, gid, f"{x.source}: added as game {gid}"))
    return out


def csv_text(games: Iterable[GameSummary]) -> str:
    """The CSV export as a string (for tests and small exports)."""
    buf = io.StringIO()
    write_csv(games, buf)
    return buf.getvalue()


#: The file each kind of export writes (``export_to_folder``), after its name.
EXPORT_SUFFIXES = {"csv": ".csv", "bgstats": "-bgstats.html", "zip": ".zip"}


def export_to_folder(journal: Path, folder: Path, kind: str, game: str | None = None,
                     player: str | None = None) -> tuple[Path, str]:
    """Write the games of ``journal`` the filters let through into a new file in ``folder``
    (made if needed): ``kind`` "csv", "bgstats" (a page of BG Stats import links) or "zip"
    (the game files), oldest game first, the file named by the filters and the time
    (``history-dice-forge-20260111-154700.csv``). It appears only once whole. Returns (the
    file, what it holds in words). Raises HistoryError for another kind, OSError when the
    folder cannot be written."""
    suffix = EXPORT_SUFFIXES.get(kind)
    if suffix is None:
        raise HistoryError(f"export kind {kind!r}: choose one of {', '.join(EXPORT_SUFFIXES)}")
    folder.mkdir(parents=True, exist_ok=True)
    parts = ["history", *(x for x in (game, player) if x), time.strftime("%Y%m%d-%H%M%S")]
    name = "-".join("".join(c if c.isalnum() or c in "-_" else "_" for c in p) for p in parts)
    out = folder / f"{name}{suffix}"
    n = 1
    while out.exists():  # two exports in one second
        n += 1
        out = folder / f"{name}-{n}{suffix}"
    part = out.with_name(f".part-{out.name}")
    with History(journal) as history:
        history.refresh()
        games = list(reversed(history.games(game=game, player=player)))
        if kind == "csv":
            with part.open("w", encoding="utf-8", newline="") as f:
                count = write_csv(games, f)
            what = f"{count:,} rows (one per player per game)"
        elif kind == "bgstats":
            count = write_bgstats(games, part)
            what = f"{count:,} plays for BG Stats (open the page on the phone)"
        else:
            count = write_zip(history, games, part)
            what = f"{count:,} game files"
    part.replace(out)
    return out, what
