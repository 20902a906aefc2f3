"""Every game in the journal, listed and filtered fast: :class:`History`.

The journal keeps each game as its setup and its calls; who won, the scores and the characters
come from replaying those calls through the rules engine (:meth:`rules.Game.results`). Replaying
ten thousand games takes minutes, so each game's result is remembered in a small *index* beside
the journal's tables (``history_games``, ``history_players``, ``history_cards``). The index is
derived data, like an SQL index: it holds nothing the calls do not, any row can be dropped and
is rebuilt from the calls by :meth:`History.refresh`, and a row is checked against its game
before it is trusted (a finished game takes no more calls; an unfinished one is compared by its
last call). ``SUMMARY_VERSION`` changes whenever what is derived changes, which rebuilds every
row once. This is the store's module for those tables (their SQL is here); what a game's rows
say, as types, is :mod:`companion.history.summary`.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Sequence
from pathlib import Path
from types import TracebackType
from typing import Any, TypeVar

from companion import store
from companion.ending import ENDINGS, agreed_results
from companion.history.summary import (
    GameSummary,
    HistoryError,
    NewGame,
    Played,
    PlayerLine,
    canonical_setup,
    game_digest,
    player_key,
)
from companion.journal import Journal, read_ending

T = TypeVar("T")

#: Bump when what the index derives from a game changes: every row is rebuilt once.
SUMMARY_VERSION = 1

#: One game's index rows: (history_games row, history_players rows, (seat, card) pairs).
_Rows = tuple[tuple[Any, ...], list[tuple[Any, ...]], list[tuple[int, str]]]


class History:
    """The history of every game in a journal file: an index kept beside the journal's tables.

    It always opens its own connection to the journal file (given as a path or as the app's
    :class:`Journal`), so a screen can refresh it on a worker thread while the game writes
    through the app's connection. The index is derived data, so its writes are not synced one
    by one (``synchronous=NORMAL``: a power cut can lose the last rows, which
    :meth:`refresh` rebuilds); the journal's own calls keep the app's ``FULL``. A context
    manager; :meth:`close` is idempotent.
    """

    def __init__(self, journal: Journal | Path | str, *, readonly: str = "") -> None:
        path = journal.path if isinstance(journal, Journal) else Path(journal)
        readonly = readonly or (journal.readonly if isinstance(journal, Journal) else "")
        self.journal = Journal(path, readonly=readonly, synchronous="NORMAL")
        #: Answers worked out from the index, by what was asked: (index version, answer).
        self.cache: dict[str, tuple[int, Any]] = {}

    @property
    def db(self) -> sqlite3.Connection:
        return self.journal.db

    def version(self) -> int:
        """A number that changes whenever the index does (kept answers are for one version)."""
        row = self.db.execute("SELECT value FROM history_meta WHERE key = 'version'").fetchone()
        return 0 if row is None else int(row[0])

    def kept(self, key: str, work: Callable[[], T], dump: Callable[[T], Any] = lambda x: x,
             load: Callable[[Any], T] = lambda x: x) -> T:
        """``work()``'s answer, kept (in memory, and in ``history_stats`` as JSON: ``dump``
        makes it plain, ``load`` makes it back) until the index changes: asking again, or in
        a new process, costs a lookup. Reads the index: call :meth:`refresh` first."""
        version = self.version()
        cached = self.cache.get(key)
        if cached is not None and cached[0] == version:
            return cached[1]  # type: ignore[no-any-return]
        row = self.db.execute("SELECT version, data FROM history_stats WHERE filters = ?",
                              (key,)).fetchone()
        if row is not None and row[0] == version:
            answer = load(json.loads(row[1]))
        else:
            answer = work()
            if not self.journal.readonly:  # read-only: kept in memory only
                self.db.execute(
                    "INSERT INTO history_stats (filters, version, data) VALUES (?, ?, ?) "
                    "ON CONFLICT (filters) DO UPDATE SET version = excluded.version, "
                    "data = excluded.data", (key, version, json.dumps(dump(answer))))
        self.cache[key] = (version, answer)
        return answer

    def close(self) -> None:
        self.journal.close()

    def __enter__(self) -> History:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    # -- keeping the index true --------------------------------------------------------------

    def stale(self) -> list[int]:
        """Ids of the games whose index rows are missing or out of date, oldest first."""
        db = self.db
        rows = db.execute(
            "SELECT g.id, g.finished IS NOT NULL, h.game_id IS NULL, h.version, h.finished, "
            "h.fingerprint FROM games g LEFT JOIN history_games h ON h.game_id = g.id "
            "WHERE h.game_id IS NULL OR h.version != ? OR h.finished != (g.finished IS NOT "
            "NULL) OR g.finished IS NULL ORDER BY g.id", (SUMMARY_VERSION,)).fetchall()
        out = []
        for gid, finished, missing, version, was_finished, fingerprint in rows:
            if (missing or version != SUMMARY_VERSION or bool(was_finished) != bool(finished)
                    or self._fingerprint(gid) != fingerprint):
                out.append(int(gid))
        return out

    def _fingerprint(self, game_id: int) -> str:
        """What changes whenever an unfinished game's live calls change."""
        count, last = self.db.execute(
            "SELECT COUNT(*), MAX(seq) FROM calls WHERE game_id=? AND undone=0",
            (game_id,)).fetchone()
        if not count:
            return "0"
        call, wall = self.db.execute("SELECT call, wall FROM calls WHERE game_id=? AND seq=?",
                                     (game_id, last)).fetchone()
        return f"{count}:{last}:{wall!r}:{call}"

    def refresh(self, progress: Callable[[int, int], None] | None = None,
                batch: int = 100) -> int:
        """Bring the index up to date with the journal; returns how many games were
        (re)summarised. ``progress(done, total)`` is called after each batch: the first refresh
        of a long history replays every game (tens of milliseconds each). A history opened
        read-only (a read-only card) keeps the index as it stands: 0."""
        if self.journal.readonly:
            return 0
        ids = self.stale()
        dropped = self.db.execute(
            "SELECT game_id FROM history_games WHERE game_id NOT IN (SELECT id FROM games)"
        ).fetchall()
        self._write_rows({int(gid): None for (gid,) in dropped})
        for start in range(0, len(ids), batch):
            part = ids[start:start + batch]
            self._write_rows({gid: self._summary_rows(gid) for gid in part})
            if progress is not None:
                progress(start + len(part), len(ids))
        return len(ids)

    def summarise(self, game_id: int, played: Played | None = None) -> None:
        """Replay one game through the rules and remember its result in the index.
        ``played``: what the same game's replay gave (an import has it), to save replaying."""
        self._write_rows({game_id: self._summary_rows(game_id, played)})

    def game_with_digest(self, digest: str) -> int | None:
        """The game of the history whose content has this digest, if any (an import's
        repeat)."""
        row = self.db.execute("SELECT game_id FROM history_games WHERE digest = ?",
                              (digest,)).fetchone()
        return None if row is None else int(row[0])

    def add_games(self, games: Sequence[NewGame]) -> list[int]:
        """Add finished games to the journal, all in one transaction (all or none), then
        their rows of the index; returns their ids. The calls carry no wall time in a game
        file: each is the start, the last one the end."""
        db = self.db
        ids: list[int] = []
        with store.transaction(db, self.journal.path):
            for g in games:
                cur = db.execute("INSERT INTO games (setup, title, started, finished, ending) "
                                 "VALUES (?, ?, ?, ?, ?)", (g.setup_json, g.title, g.started,
                                                            g.started, g.ending))
                gid = int(cur.lastrowid or 0)
                walls = [g.started] * len(g.calls)
                if walls and g.ended is not None and g.ended > g.started:
                    walls[-1] = g.ended
                db.executemany("INSERT INTO calls (game_id, seq, call, at, wall) "
                               "VALUES (?, ?, ?, ?, ?)",
                               [(gid, i, call, at, wall) for i, ((call, at), wall) in
                                enumerate(zip(g.calls, walls, strict=True), start=1)])
                ids.append(gid)
        self._write_rows({gid: self._summary_rows(gid, g.played)
                          for g, gid in zip(games, ids, strict=True)})
        return ids

    def _summary_rows(self, game_id: int, played: Played | None = None) -> _Rows:
        import rules

        db = self.db
        row = db.execute("SELECT setup, title, started, finished, ending FROM games WHERE id=?",
                         (game_id,)).fetchone()
        if row is None:
            raise HistoryError(f"game {game_id}: not in the journal {self.journal.path}")
        setup_raw, title, started, finished, ending = row
        calls = db.execute("SELECT call, at, wall FROM calls WHERE game_id=? AND undone=0 "
                           "ORDER BY seq", (game_id,)).fetchall()
        forgotten = {r[0] for r in db.execute(
            "SELECT name FROM history_forgotten WHERE game_id=?", (game_id,))}
        fingerprint = self._fingerprint(game_id)
        digest = game_digest(canonical_setup(setup_raw), ((c, a) for c, a, _ in calls))
        ended = max((float(w) for _, _, w in calls), default=None)
        error: str | None = None
        results: Sequence[rules.PlayerResult] = ()
        cards: list[tuple[int, str]] = []
        winner: str | None = None
        is_over = False
        note = ""
        game_name = "?"
        players: tuple[str, ...] = ()
        try:
            setup = rules.Setup.from_json(json.loads(setup_raw))
            game_name, players = setup.game, setup.players
            game = None
            if played is None:
                game = rules.replay(setup, [rules.Entry(c, a) for c, a, _ in calls])
                played = Played.of(game)
            results = played.results
            winner, is_over, note = played.winner, played.is_over, played.note
            if ending in ENDINGS and finished is not None and not is_over:
                if game is None:
                    game = rules.replay(setup, [rules.Entry(c, a) for c, a, _ in calls])
                # ended by the players: their standings then (or no result) are the result
                results, winner, note = agreed_results(game, ending)
                is_over = True
            # A card counts once per player who had it, however many copies.
            cards = [(seat, card) for seat, r in enumerate(results)
                     for card in dict.fromkeys(r.cards)]
        except (rules.RulesError, ValueError, TypeError) as e:
            error = str(e)
        lines = []
        for seat, name in enumerate(players):
            r = results[seat] if seat < len(results) else None
            gone = name in forgotten
            lines.append((game_id, seat, name, None if gone else player_key(name),
                          None if r is None else r.score, None if r is None else r.rank,
                          int(bool(r is not None and r.won)), None if r is None else r.role,
                          None if r is None else r.team))
        summary = (game_id, SUMMARY_VERSION, game_name, str(title), float(started), ended,
                   int(finished is not None), int(is_over), len(calls), fingerprint, digest,
                   winner, note, error)
        return summary, lines, cards

    def _write_rows(self, rows: dict[int, _Rows | None]) -> None:
        """Replace the index rows of these games (None: drop them) in one transaction."""
        if not rows:
            return
        db = self.db
        with store.transaction(db, self.journal.path):
            for game_id, found in rows.items():
                for table in ("history_games", "history_players", "history_cards"):
                    db.execute(f"DELETE FROM {table} WHERE game_id=?", (game_id,))
                if found is None:
                    continue
                summary, lines, cards = found
                db.execute("INSERT INTO history_games VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                           summary)
                db.executemany("INSERT INTO history_players VALUES (?,?,?,?,?,?,?,?,?)", lines)
                db.executemany("INSERT INTO history_cards VALUES (?,?,?)",
                               [(game_id, seat, card) for seat, card in cards])
            db.execute("INSERT INTO history_meta (key, value) VALUES ('version', 1) "
                       "ON CONFLICT (key) DO UPDATE SET value = value + 1")
            db.execute("DELETE FROM history_stats")

    # -- reading -------------------------------------------------------------------------------

    def _where(self, game: str | None, player: str | None) -> tuple[str, list[Any]]:
        clauses, params = [], []
        if game is not None:
            clauses.append("h.game = ?")
            params.append(game)
        if player is not None:
            clauses.append("h.game_id IN (SELECT game_id FROM history_players WHERE key = ?)")
            params.append(player_key(player))
        return (" WHERE " + " AND ".join(clauses)) if clauses else "", params

    def count(self, game: str | None = None, player: str | None = None) -> int:
        """How many games the filters let through."""
        where, params = self._where(game, player)
        return int(self.db.execute(f"SELECT COUNT(*) FROM history_games h{where}",
                                   params).fetchone()[0])

    def games(self, game: str | None = None, player: str | None = None,
              limit: int | None = None, offset: int = 0) -> list[GameSummary]:
        """The games, newest first, filtered by game short name and by player (any case);
        ``limit``/``offset`` page through them. Call :meth:`refresh` first."""
        where, params = self._where(game, player)
        page = "" if limit is None else f" LIMIT {int(limit)} OFFSET {int(offset)}"
        return self._load(f"{where} ORDER BY started DESC, game_id DESC{page}", params)

    def _load(self, tail: str, params: Sequence[Any]) -> list[GameSummary]:
        heads = self.db.execute(
            "SELECT game_id, game, title, started, ended, finished, is_over, calls, winner, "
            "note, error, digest, (SELECT setup FROM games WHERE id = h.game_id), "
            "(SELECT ending FROM games WHERE id = h.game_id) "
            f"FROM history_games h{tail}", list(params)).fetchall()
        if not heads:
            return []
        ids = [int(h[0]) for h in heads]
        by_game: dict[int, list[PlayerLine]] = {i: [] for i in ids}
        low, high = min(ids), max(ids)
        if len(ids) > 900:  # a big page: one range scan beats a long IN list
            query, args = ("SELECT game_id, seat, player, key, score, rank, won, role, team "
                           "FROM history_players WHERE game_id BETWEEN ? AND ?", [low, high])
            rows = self.db.execute(query, args)
        else:
            marks = ",".join("?" * len(ids))
            rows = self.db.execute(
                "SELECT game_id, seat, player, key, score, rank, won, role, team FROM "
                f"history_players WHERE game_id IN ({marks})", ids)
        for gid, seat, name, key, score, rank, won, role, team in rows:
            if gid in by_game:
                by_game[gid].append(PlayerLine(seat, name, score, rank, bool(won), role, team,
                                               key is None))
        return [GameSummary(int(g), game_name, str(title), float(started),
                            None if ended is None else float(ended), bool(finished),
                            bool(over), int(calls), winner, str(note),
                            tuple(sorted(by_game[int(g)], key=lambda p: p.seat)), error,
                            str(digest), str(setup or ""),
                            read_ending(ending) if over and finished else None)
                for g, game_name, title, started, ended, finished, over, calls, winner, note,
                error, digest, setup, ending in heads]

    def game(self, game_id: int) -> GameSummary:
        """One game's summary (summarised now if the index lacks it). Raises
        :class:`HistoryError` for an id the journal does not hold."""
        found = self._load(" WHERE game_id = ?", [game_id])
        if not found and self.db.execute("SELECT 1 FROM games WHERE id=?",
                                         (game_id,)).fetchone():
            self.summarise(game_id)
            found = self._load(" WHERE game_id = ?", [game_id])
        if not found:
            raise HistoryError(f"game {game_id}: not in the journal {self.journal.path}")
        return found[0]

    def _filter(self, game: str | None, player: str | None) -> tuple[str, list[Any]]:
        """:meth:`_where`'s filters, of games that replay, as one condition."""
        where, params = self._where(game, player)
        return "h.error IS NULL" + where.replace(" WHERE ", " AND ", 1), params

    def player_rows(self, game: str | None = None, player: str | None = None
                    ) -> list[tuple[Any, ...]]:
        """One row per player per game that replays (of ``game``, with ``player``), oldest
        game first, seat by seat: (game id, game, started, ended, calls, is over, key,
        player, score, won, role, ending: how the players ended it, or None); what the
        statistics are worked out from."""
        where, params = self._filter(game, player)
        return [tuple(r) for r in self.db.execute(
            "SELECT h.game_id, h.game, h.started, h.ended, h.calls, h.is_over, p.key, "
            "p.player, p.score, p.won, p.role, g.ending FROM history_games h "
            "JOIN history_players p USING (game_id) LEFT JOIN games g ON g.id = h.game_id "
            f"WHERE {where} ORDER BY h.started, h.game_id, p.seat", params)]

    def card_rows(self, game: str | None = None, player: str | None = None
                  ) -> list[tuple[Any, ...]]:
        """(game, card, won) for each card a player had in a game that is over."""
        where, params = self._filter(game, player)
        return [tuple(r) for r in self.db.execute(
            "SELECT h.game, c.card, p.won FROM history_cards c JOIN history_players p "
            "ON p.game_id = c.game_id AND p.seat = c.seat JOIN history_games h ON h.game_id = "
            f"c.game_id WHERE h.is_over = 1 AND {where}", params)]

    # -- taking a player out (companion.history.forget) ------------------------------------

    def games_of(self, key: str) -> list[int]:
        """The games the player whose key is ``key`` played, oldest first."""
        return [int(r[0]) for r in self.db.execute(
            "SELECT DISTINCT game_id FROM history_players WHERE key = ? ORDER BY game_id",
            (key,))]

    def stored_game(self, game_id: int) -> tuple[str, str, bool, list[tuple[int, str, Any, int]]
                                                   ] | None:
        """A journal game as stored: (setup JSON, title, finished, its calls as (seq, call,
        at, undone), live ones first), or None."""
        row = self.db.execute("SELECT setup, title, finished FROM games WHERE id=?",
                              (game_id,)).fetchone()
        if row is None:
            return None
        calls = [(int(a), str(b), c, int(d)) for a, b, c, d in self.db.execute(
            "SELECT seq, call, at, undone FROM calls WHERE game_id=? ORDER BY undone, seq",
            (game_id,))]
        return str(row[0]), str(row[1]), row[2] is not None, calls

    def rewrite_game(self, game_id: int, setup_json: str, title: str,
                     calls: Sequence[tuple[int, str]], forgotten: str) -> None:
        """Replace a game's setup, title and the words of its calls (seq, call), and note
        the name given to a forgotten player, in one transaction; then its index rows."""
        db = self.db
        with store.transaction(db, self.journal.path):
            db.execute("UPDATE games SET setup=?, title=? WHERE id=?",
                       (setup_json, title, game_id))
            db.executemany("UPDATE calls SET call=? WHERE game_id=? AND seq=?",
                           [(call, game_id, seq) for seq, call in calls])
            db.execute("INSERT OR IGNORE INTO history_forgotten (game_id, name) VALUES (?, ?)",
                       (game_id, forgotten))
        self.summarise(game_id)

    def remove_game(self, game_id: int) -> None:
        """Take a game out of the journal whole (its calls, clock and index rows; its rolls
        stay, no longer tied to it)."""
        self._write_rows({game_id: None})
        db = self.db
        with store.transaction(db, self.journal.path):
            for table, column in (("calls", "game_id"), ("clock", "game_id"),
                                  ("history_forgotten", "game_id"), ("games", "id")):
                db.execute(f"DELETE FROM {table} WHERE {column}=?", (game_id,))
            db.execute("UPDATE roll_log SET game_id=NULL WHERE game_id=?", (game_id,))

    def secure_delete(self) -> None:
        """From now on, what is deleted is overwritten in the file (SQLite's secure_delete)."""
        self.db.execute("PRAGMA secure_delete = ON")

    def compact(self) -> bool:
        """Checkpoint the log into the file and VACUUM, so freed pages keep nothing; False
        when another connection holds the database."""
        db = self.db
        try:
            db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            db.execute("VACUUM")
            busy = db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        except sqlite3.OperationalError:
            return False
        return not busy or busy[0] == 0

    def players(self) -> list[str]:
        """Every player name in the history (most recent spelling), most games first (kept
        until the index changes: :meth:`kept`)."""
        def work() -> list[str]:
            rows = self.db.execute(
                "SELECT p.key, p.player, COUNT(*) AS n, MAX(h.started) FROM history_players p "
                "JOIN history_games h USING (game_id) WHERE p.key IS NOT NULL GROUP BY p.key "
                "ORDER BY n DESC, p.key").fetchall()
            return [str(r[1]) for r in rows]

        return list(self.kept('"players"', work))

    def game_names(self) -> list[str]:
        """The games that have been played here, most played first (kept until the index
        changes)."""
        def work() -> list[str]:
            return [str(r[0]) for r in self.db.execute(
                "SELECT game, COUNT(*) AS n FROM history_games GROUP BY game "
                "ORDER BY n DESC, game")]

        return list(self.kept('"games"', work))

    def resume_offer(self) -> list[GameSummary]:
        """Unfinished games that still replay, newest first: what the start screen offers."""
        return self._load(" WHERE finished = 0 AND error IS NULL ORDER BY started DESC, "
                          "game_id DESC", [])
