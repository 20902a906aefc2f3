"""The journal's tables, in versions, and the migrations that bring a file up to date.

SQLite's ``user_version`` says which version a file has: a journal written by an older version
gets the newer tables and columns the first time this version opens it (:func:`migrate`), one
version per transaction. A file from a newer version is refused.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

from companion.store.errors import StoreError
from companion.store.transaction import transaction

_V1_JOURNAL = """
CREATE TABLE IF NOT EXISTS games (
    id       INTEGER PRIMARY KEY AUTOINCREMENT,
    setup    TEXT NOT NULL,
    title    TEXT NOT NULL DEFAULT '',
    started  REAL NOT NULL,
    finished REAL
);
CREATE TABLE IF NOT EXISTS calls (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq     INTEGER NOT NULL,
    call    TEXT NOT NULL,
    at      REAL,
    wall    REAL NOT NULL,
    undone  INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE IF NOT EXISTS clock (
    game_id INTEGER PRIMARY KEY REFERENCES games(id),
    round   INTEGER NOT NULL,
    elapsed REAL NOT NULL,
    paused  INTEGER NOT NULL,
    wall    REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS history_games (
    game_id     INTEGER PRIMARY KEY,
    version     INTEGER NOT NULL,
    game        TEXT NOT NULL,
    title       TEXT NOT NULL,
    started     REAL NOT NULL,
    ended       REAL,
    finished    INTEGER NOT NULL,
    is_over     INTEGER NOT NULL,
    calls       INTEGER NOT NULL,
    fingerprint TEXT NOT NULL,
    digest      TEXT NOT NULL,
    winner      TEXT,
    note        TEXT NOT NULL DEFAULT '',
    error       TEXT
);
CREATE INDEX IF NOT EXISTS history_games_started ON history_games(started);
CREATE INDEX IF NOT EXISTS history_games_digest ON history_games(digest);
CREATE TABLE IF NOT EXISTS history_players (
    game_id INTEGER NOT NULL,
    seat    INTEGER NOT NULL,
    player  TEXT NOT NULL,
    key     TEXT,
    score   REAL,
    rank    INTEGER,
    won     INTEGER NOT NULL,
    role    TEXT,
    team    TEXT,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX IF NOT EXISTS history_players_key ON history_players(key, game_id);
CREATE TABLE IF NOT EXISTS history_cards (
    game_id INTEGER NOT NULL,
    seat    INTEGER NOT NULL,
    card    TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS history_cards_game ON history_cards(game_id);
CREATE TABLE IF NOT EXISTS history_meta (
    key   TEXT PRIMARY KEY,
    value INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS history_stats (
    filters TEXT PRIMARY KEY,
    version INTEGER NOT NULL,
    data    TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS history_forgotten (
    game_id INTEGER NOT NULL,
    name    TEXT NOT NULL,
    PRIMARY KEY (game_id, name)
);
CREATE TABLE IF NOT EXISTS roll_log (
    id        INTEGER PRIMARY KEY AUTOINCREMENT,
    wall      REAL NOT NULL,
    game_id   INTEGER,
    dice_set  TEXT NOT NULL DEFAULT '',
    corrected INTEGER NOT NULL DEFAULT 0,
    dice      TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS roll_counts (
    dice_set  TEXT NOT NULL,
    colour    TEXT NOT NULL,
    face      TEXT NOT NULL,
    read      INTEGER NOT NULL DEFAULT 0,
    corrected INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (dice_set, colour, face)
);
CREATE TABLE IF NOT EXISTS roll_verdicts (
    counts TEXT PRIMARY KEY,
    data   TEXT NOT NULL
)
"""


def _v1(db: sqlite3.Connection) -> None:
    """Every table as the journals of before schema versions have them (``user_version``
    0): created where missing, and the ``problem`` column the oldest journals lack."""
    for statement in _V1_JOURNAL.split(";"):
        db.execute(statement)
    columns = {row[1] for row in db.execute("PRAGMA table_info(games)")}
    if "problem" not in columns:  # journals from before "cannot be resumed" was kept
        db.execute("ALTER TABLE games ADD COLUMN problem TEXT")


def _v2(db: sqlite3.Connection) -> None:
    """Games the players ended themselves: ``ending`` is "agreed" or "no result"."""
    columns = {row[1] for row in db.execute("PRAGMA table_info(games)")}
    if "ending" not in columns:
        db.execute("ALTER TABLE games ADD COLUMN ending TEXT")


# The director's tournaments (their events, reported game files, refused messages) and a
# table's side (the tournament it joined, its outbox, its reports): companion.tournament.store.
_V3_TOURNAMENTS = """
CREATE TABLE IF NOT EXISTS tournament_list (
    id      TEXT PRIMARY KEY,
    name    TEXT NOT NULL,
    config  TEXT NOT NULL,
    created REAL NOT NULL,
    current INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS tournament_events (
    tournament TEXT NOT NULL REFERENCES tournament_list(id),
    seq        INTEGER NOT NULL,
    event      TEXT NOT NULL,
    wall       REAL NOT NULL,
    PRIMARY KEY (tournament, seq)
);
CREATE TABLE IF NOT EXISTS tournament_games (
    tournament TEXT NOT NULL,
    round      INTEGER NOT NULL,
    table_no   INTEGER NOT NULL,
    report_id  TEXT NOT NULL,
    source     TEXT NOT NULL,
    text       TEXT NOT NULL,
    wall       REAL NOT NULL,
    PRIMARY KEY (tournament, report_id)
);
CREATE TABLE IF NOT EXISTS tournament_refused (
    tournament TEXT NOT NULL,
    source     TEXT NOT NULL,
    reason     TEXT NOT NULL,
    size       INTEGER NOT NULL,
    wall       REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS tournament_refused_count (
    tournament TEXT PRIMARY KEY,
    refused    INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS tournament_membership (
    tournament TEXT PRIMARY KEY,
    code       TEXT NOT NULL,
    joined     REAL NOT NULL,
    seating    TEXT
);
CREATE TABLE IF NOT EXISTS tournament_outbox (
    report_id  TEXT PRIMARY KEY,
    tournament TEXT NOT NULL,
    round      INTEGER NOT NULL,
    table_no   INTEGER NOT NULL,
    payload    TEXT NOT NULL,
    created    REAL NOT NULL,
    sends      INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS tournament_reports (
    report_id  TEXT PRIMARY KEY,
    tournament TEXT NOT NULL,
    round      INTEGER NOT NULL,
    table_no   INTEGER NOT NULL,
    created    REAL NOT NULL,
    status     TEXT NOT NULL DEFAULT 'waiting',
    text       TEXT NOT NULL DEFAULT ''
)
"""


def _v3(db: sqlite3.Connection) -> None:
    """The tournament tables, which companion.tournament.store made itself before; a journal
    that already has them (from that opening) keeps them as they are."""
    for statement in _V3_TOURNAMENTS.split(";"):
        db.execute(statement)


#: (version, step): each step brings a file of the version before up to its own.
MIGRATIONS: tuple[tuple[int, Callable[[sqlite3.Connection], None]], ...] = (
    (1, _v1), (2, _v2), (3, _v3))
SCHEMA_VERSION = MIGRATIONS[-1][0]


def migrate(db: sqlite3.Connection, path: Path) -> int:
    """Bring the file up to :data:`SCHEMA_VERSION`, one version per transaction; returns the
    version it had. A file from a newer version is refused (its tables may mean more)."""
    found = int(db.execute("PRAGMA user_version").fetchone()[0])
    if found > SCHEMA_VERSION:
        raise StoreError(f"the journal {path} was written by a newer version of the "
                         f"companion (schema {found}, this one knows {SCHEMA_VERSION}): "
                         "update the companion")
    for version, step in MIGRATIONS:
        if version > found:
            with transaction(db, path):
                step(db)
                db.execute(f"PRAGMA user_version={int(version)}")
    return found


__all__ = ["MIGRATIONS", "SCHEMA_VERSION", "migrate"]
