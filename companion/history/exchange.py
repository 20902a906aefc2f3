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
import dataclasses
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
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO, TextIO

from companion import store
from companion.history.index import History
from companion.history.summary import (
    GameSummary,
    HistoryError,
    NewGame,
    Played,
    canonical_setup,
    game_digest,
)

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
                p.role or "", "" if p.score is None else _number(p.score),
                "" if p.rank is None else p.rank, int(p.won), g.winner or "")])
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
    from companion.history.summary import game_title

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
    from companion.history.summary import game_title, player_key

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


def bgstats_text(games: Iterable[GameSummary], page: bool) -> tuple[str, int]:
    """The plays as a BG Stats export file (:func:`bgstats_export`), or (``page``) as a page
    with one import link per play to open on the phone that has BG Stats; (text, plays)."""
    games = list(games)
    plays = bgstats_plays(games)
    if not page:
        return json.dumps(bgstats_export(games), indent=1, ensure_ascii=False) + "\n", \
            len(plays)
    items = "\n".join(
        f'<li><a href="{html.escape(bgstats_link(p))}">{html.escape(p["playDate"])} '
        f'{html.escape(p["game"]["name"])}: '
        f'{html.escape(", ".join(q["name"] for q in p["players"]))}</a></li>'
        for p in plays)
    return ("<!doctype html>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" "
            "content=\"width=device-width\">\n<title>Plays for BG Stats</title>\n"
            f"<h1>{len(plays)} plays for BG Stats</h1>\n<p>Tap a play on the phone or tablet "
            "that has BG Stats: it opens the app's import dialog.</p>\n"
            f"<ol>\n{items}\n</ol>\n"), len(plays)


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
    """One game file read, checked and replayed, ready to be written (picklable: it may be
    made in another process)."""

    source: str
    game: NewGame
    digest: str
    players: tuple[str, ...]
    warning: str = ""


def _read_game(text: str, source: str, started: float | None) -> _Prepared:
    """Parse and replay one game file (written one way first: NFC, so names typed either
    way are one name); no journal is touched. Raised for a file that cannot be added:
    :class:`rules.RulesError` (a bad file, a call that does not replay) or
    :class:`HistoryError` (a player's name holding what cannot be seen, a start that is not
    a date)."""
    import rules
    from rules.names import invisible, normal

    text = normal(text)
    try:
        parsed = rules.parse_game_file(text, source)
    except rules.GameFileError as e:
        other = other_file(text) or (
            "a file with no '---' line between a setup and calls"
            if not any(line.strip() == "---" for line in text.splitlines()) else "")
        if other:
            raise HistoryError(f"{source}: {other}, not a game file. {IMPORT_TAKES}") from e
        raise
    for name in parsed.setup.players:
        hidden = invisible(name)
        if hidden:
            raise HistoryError(f"{source}: the player name {name!r} holds {hidden}: not "
                               "imported (it would look like another name)")
    game = parsed.play(source)
    setup_json = json.dumps(game.setup.to_json())
    calls = tuple((e.call, e.at) for e in game.history)
    digest = game_digest(canonical_setup(setup_json), calls)
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
    # the title is shown and exported: what cannot be seen is left out of it
    title = "; ".join(c for c in comments if not _JOURNAL_LINE.match(c))
    title = "".join(ch for ch in title if not invisible(ch))[:120]
    # ended by the players: their ending (an abandoned game, or one that was still open where
    # it was played, comes in finished with none: it is resumed only there)
    from companion.ending import ENDINGS

    ending = parsed.ending.value if parsed.ending in ENDINGS else None
    return _Prepared(source, NewGame(setup_json, title, when, ended, calls, Played.of(game),
                                     ending),
                     digest, tuple(game.setup.players))


def _read_one(item: tuple[str, str | None, str]) -> _Prepared | Imported:
    """One game file of an import, read or refused (a worker process's task)."""
    import rules

    source, text, why = item
    if text is None:
        return Imported(source, None, why)
    try:
        return _read_game(text, source, None)
    except (rules.RulesError, HistoryError) as e:
        return Imported(source, None, str(e))
    except RecursionError:
        return Imported(source, None, f"{source}: nested too deeply")


def _repeat(history: History, p: _Prepared, taken: dict[str, str]) -> Imported | None:
    """Why a prepared game is not added (already in the history, or in this import), else
    None."""
    same = history.game_with_digest(p.digest)
    if same is not None:
        return Imported(p.source, None, f"{p.source}: already in the history as game {same}")
    if p.digest in taken:
        return Imported(p.source, None, f"{p.source}: the same game as {taken[p.digest]}")
    return None


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
    Raises :class:`HistoryError` (a repeat, a start that is not a date, a name holding what
    cannot be seen, an export that is not a game file) or :class:`rules.GameFileError` (a bad
    file).
    """
    history.refresh()
    prepared = _read_game(text, source, started)
    repeat = _repeat(history, prepared, {})
    if repeat is not None:
        raise HistoryError(repeat.message)
    return history.add_games([prepared.game])[0]


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


#: A file with more game files than this is read by worker processes, one per core.
POOL_FROM = 48
Progress = Callable[[int, str], None]


def _read_all(items: list[tuple[str, str | None, str]], workers: int
              ) -> Iterator[_Prepared | Imported]:
    """Each game file read (:func:`_read_one`), in order; by ``workers`` processes when
    there are many (replaying is what costs: a zip of thousands of games)."""
    if workers <= 1 or len(items) < POOL_FROM:
        yield from map(_read_one, items)
        return
    import concurrent.futures
    import multiprocessing

    # spawn: the workers start clean (never a copy of a process with threads or open files)
    context = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(workers, mp_context=context) as pool:
        yield from pool.map(_read_one, items, chunksize=8)


def prepare_paths(history: History, paths: Sequence[Path], progress: Progress | None = None,
                  workers: int = 1) -> list[list[_Prepared | Imported]]:
    """Read, check and replay the game files of ``paths`` (game files and zips of them), one
    list per path, each game file either ready to be written or refused with its reason;
    nothing is written (no lock is needed: see :func:`write_prepared`). ``progress(done,
    source)`` after each game file; ``workers`` processes replay them (1: this one)."""
    from companion.names import warning

    history.refresh()
    known = history.players()
    taken: dict[str, str] = {}
    done = 0
    out: list[list[_Prepared | Imported]] = []
    for path in paths:
        said: list[_Prepared | Imported] = []
        try:
            items = list(_file_texts(path))
        except (OSError, zipfile.BadZipFile, zipfile.LargeZipFile, EOFError) as e:
            out.append([Imported(str(path), None, f"{path}: cannot read: {e}")])
            continue
        for result in _read_all(items, workers):
            if isinstance(result, _Prepared):
                repeat = _repeat(history, result, taken)
                if repeat is not None:
                    result = repeat
                else:
                    taken[result.digest] = result.source
                    said_name = next((w for n in result.players if (w := warning(
                        n, known, "the player name"))), "")
                    result = dataclasses.replace(result, warning=said_name)
                    known += [n for n in result.players if n not in known]
            said.append(result)
            done += 1
            if progress is not None:
                progress(done, result.source)
        out.append(said)
    return out


def write_prepared(history: History, prepared: Sequence[Sequence[_Prepared | Imported]]
                   ) -> list[Imported]:
    """Write what :func:`prepare_paths` read: the games of one path (a zip's) in one
    transaction, so a file is imported whole or, should the disk fail, not at all. A game
    another writer added meanwhile is not added twice. The caller holds the data folder's
    lock (the journal is written). One :class:`Imported` per game file."""
    out: list[Imported] = []
    history.refresh()
    for said in prepared:
        final = [x if isinstance(x, Imported) else (_repeat(history, x, {}) or x)
                 for x in said]
        ready = [x for x in final if isinstance(x, _Prepared)]
        try:
            ids = iter(history.add_games([x.game for x in ready]))
        except (store.StoreError, OSError) as e:
            out += [x if isinstance(x, Imported) else
                    Imported(x.source, None, f"{x.source}: not added: {e}") for x in final]
            continue
        for x in final:
            if isinstance(x, Imported):
                out.append(x)
            else:
                gid = next(ids)
                out.append(Imported(x.source, gid, f"{x.source}: added as game {gid}"
                                    + (f" (warning: {x.warning})" if x.warning else "")))
    return out


def import_paths(history: History, paths: Sequence[Path], progress: Progress | None = None,
                 workers: int = 1) -> list[Imported]:
    """Import game files and zips of them; one :class:`Imported` per game file found (or
    per file that could not be read). Nothing is raised for a file: each is taken or
    refused with its reason (:func:`prepare_paths`, then :func:`write_prepared`)."""
    return write_prepared(history, prepare_paths(history, paths, progress, workers))


def csv_text(games: Iterable[GameSummary]) -> str:
    """The CSV export as a string (for tests and small exports)."""
    buf = io.StringIO()
    write_csv(games, buf)
    return buf.getvalue()


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
