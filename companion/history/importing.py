"""The games in: game files (or zips of them) from another companion, read with bounds
whatever they claim, checked by replaying them, and added to this journal's history as finished
games.

- :func:`import_game_text`: one game file's text, added or refused with a :class:`HistoryError`;
- :func:`import_paths`: files and zips, one :class:`Imported` per game file found, each taken
  or refused with its reason; in two steps for ``companion history import``:
  :func:`prepare_paths` reads, checks and replays (in worker processes when there are many),
  :func:`write_prepared` writes each file's games in one transaction.

A file that is one of the exports rather than a game file is named as such (:func:`other_file`).
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import stat
import time
import zipfile
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from companion import store
from companion.history.export import CSV_COLUMNS
from companion.history.index import History
from companion.history.summary import (
    HistoryError,
    NewGame,
    Played,
    canonical_setup,
    game_digest,
)

_STARTED = re.compile(r"started (\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)")
_ENDED = re.compile(r"ended (\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)")
_JOURNAL_LINE = re.compile(r"^journal game \d+, started ")


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
