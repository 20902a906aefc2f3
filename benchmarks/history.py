"""History benchmark: a journal of 10,000 games and 500,000 recorded rolls; the time to open
the history, compute the statistics and the dice fairness (target <= 300 ms together), and
the time of each export.

Run: .venv/bin/python benchmarks/history.py [--games 10000] [--rolls 500000] [--pool 8]
                                            [--repeat 5] [--real-index] [--keep FILE]

How the journal is built: ``--pool`` real games of each of the five games are played at random
by the rules (names from a club of 24), then copied into the journal, with new dates, until it
holds ``--games`` games, 2% of them cut short and left unfinished (as a power cut leaves
them). The history index of the finished copies is copied from the index the summariser wrote
for their original (the same calls give the same result); the unfinished ones are summarised
for real. ``--real-index`` summarises every game instead (minutes: the figure it prints is what
a first opening of a long history costs once, on this machine). The rolls are written through
RollLog.record_many: 1 to 6 dice of 9 colours, 10% in a named set, 8% read unsure, 2%
corrected by the players.

Each timing runs in a fresh Python process (so imports count: "cold"), then again in that same
process ("warm"); the median and the worst of ``--repeat`` runs are printed, with the
process's peak memory. The statistics are kept in the database once worked out (the build
works them out, as the app does when a game ends); the time to work them out from scratch
is printed apart.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

CLUB = tuple(f"{n}" for n in (
    "Ana", "Ben", "Cy", "Dee", "Eli", "Fay", "Gus", "Hana", "Ivo", "Jo", "Kai", "Lea", "Mo",
    "Nia", "Oli", "Pia", "Quinn", "Rui", "Sam", "Tia", "Uma", "Vic", "Wes", "Yara"))
COLOURS = ("white", "red", "black", "green", "blue", "yellow", "purple", "orange", "pink")


def build(path: Path, games: int, rolls: int, pool: int, real_index: bool, seed: int) -> None:
    from companion.history import History, Roll, RolledDie, RollLog, statistics
    from companion.history.sample import GAMES, random_game
    from companion.journal import Journal

    rng = random.Random(seed)
    t = time.perf_counter()
    played = [random_game(name, rng, CLUB) for name in GAMES for _ in range(pool)]
    print(f"played {len(played)} pool games at random in {time.perf_counter() - t:.1f} s")

    t = time.perf_counter()
    journal = Journal(path)
    db = journal.db
    db.execute("PRAGMA synchronous=OFF")  # building a benchmark file, not a real game
    origin: dict[int, int] = {}
    start = 1_600_000_000.0
    db.execute("BEGIN")
    for i in range(games):
        k = rng.randrange(len(played))
        game = played[k]
        started = start + i * 9_000 + rng.randrange(3_000)
        entries = list(game.history)
        unfinished = rng.random() < 0.02
        if unfinished:
            entries = entries[: rng.randrange(1, max(2, len(entries)))]
        cur = db.execute("INSERT INTO games (setup, title, started, finished) VALUES "
                         "(?, '', ?, ?)", (json.dumps(game.setup.to_json()), started,
                                           None if unfinished else
                                           started + 20.0 * (len(entries) + 1)))
        gid = int(cur.lastrowid or 0)
        db.executemany("INSERT INTO calls (game_id, seq, call, at, wall) VALUES "
                       "(?, ?, ?, ?, ?)", [(gid, n, e.call, e.at, started + 20.0 * n)
                                           for n, e in enumerate(entries, start=1)])
        if not unfinished:
            origin[gid] = k
    db.execute("COMMIT")
    print(f"wrote {games} games ({db.execute('SELECT COUNT(*) FROM calls').fetchone()[0]:,} "
          f"calls) in {time.perf_counter() - t:.1f} s")

    history = History(path)
    t = time.perf_counter()
    if real_index:
        done = history.refresh()
        took = time.perf_counter() - t
        print(f"history index built for all {done} games in {took:.1f} s "
              f"({1000 * took / max(1, done):.1f} ms per game): a first opening, once")
    else:
        firsts: dict[int, int] = {}
        for gid, k in origin.items():
            firsts.setdefault(k, gid)
        history._write_rows({gid: history._summary_rows(gid) for gid in firsts.values()})
        took = time.perf_counter() - t
        print(f"summarised {len(firsts)} original games in {took:.1f} s "
              f"({1000 * took / len(firsts):.1f} ms per game replayed)")
        source = {k: history.db.execute(
            "SELECT * FROM history_games WHERE game_id=?", (gid,)).fetchone()
            for k, gid in firsts.items()}
        players = {k: history.db.execute(
            "SELECT * FROM history_players WHERE game_id=? ORDER BY seat", (gid,)).fetchall()
            for k, gid in firsts.items()}
        cards = {k: history.db.execute(
            "SELECT seat, card FROM history_cards WHERE game_id=?", (gid,)).fetchall()
            for k, gid in firsts.items()}
        rows = {}
        for gid, k in origin.items():
            if gid in firsts.values():
                continue
            started = db.execute("SELECT started FROM games WHERE id=?",
                                 (gid,)).fetchone()[0]
            head = list(source[k])
            head[0], head[4] = gid, started
            head[5] = started + 20.0 * head[8] if head[8] else None
            rows[gid] = (tuple(head), [(gid, *p[1:]) for p in players[k]],
                         [(s, c) for s, c in cards[k]])
        history._write_rows(rows)
        t = time.perf_counter()
        done = history.refresh()
        took = time.perf_counter() - t
        print(f"copied the index rows of {len(rows)} finished copies; summarised the "
              f"{done} unfinished games for real in {took:.1f} s")
    history.close()

    t = time.perf_counter()
    log = RollLog(path)
    gids = [r[0] for r in log.db.execute("SELECT id FROM games")]
    batch: list[Roll] = []
    when = start
    for n in range(rolls):
        dice = []
        for _ in range(rng.randint(1, 6)):
            colour = rng.choice(COLOURS)
            face = str(rng.randint(1, 6))
            sure = rng.random() > 0.08
            dice.append(RolledDie(face if sure or rng.random() < 0.5 else None, colour,
                                  rng.uniform(0.7, 0.99) if sure else rng.uniform(0.2, 0.59),
                                  str(rng.randint(1, 6)) if rng.random() < 0.02 else None))
        when += rng.uniform(5, 60)
        batch.append(Roll(tuple(dice), rng.choice(gids), "Ana's set" if rng.random() < 0.1
                          else None, when))
        if len(batch) == 50_000 or n == rolls - 1:
            log.record_many(batch)
            batch = []
    log.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    log.close()
    with History(path) as history:  # as the app does when a game ends: work them out ahead
        t2 = time.perf_counter()
        statistics(history)
        print(f"statistics worked out and kept in {time.perf_counter() - t2:.1f} s")
    print(f"recorded {rolls:,} rolls in {time.perf_counter() - t:.1f} s; journal file "
          f"{path.stat().st_size / 1e6:.0f} MB")


def measure(path: Path) -> dict[str, float]:
    """One fresh process: open the history, statistics, dice fairness (cold, then warm), and
    the statistics worked out from scratch (what the end of a game costs, off the screen)."""
    out: dict[str, float] = {}
    for run in ("cold", "warm"):
        t0 = time.perf_counter()
        from companion.history import History, RollLog, assess_counts, statistics
        from companion.history.stats import compute_statistics

        history = History(path)
        history.refresh()
        first_page = history.games(limit=50)
        history.count()
        t1 = time.perf_counter()
        stats = statistics(history)
        t2 = time.perf_counter()
        with RollLog(path) as log:
            verdicts = assess_counts(log.counts())
        t3 = time.perf_counter()
        assert first_page and stats.players and verdicts
        fresh = compute_statistics(history)
        t4 = time.perf_counter()
        assert fresh == stats
        history.close()
        out[f"{run}_open"] = 1000 * (t1 - t0)
        out[f"{run}_stats"] = 1000 * (t2 - t1)
        out[f"{run}_dice"] = 1000 * (t3 - t2)
        out[f"{run}_total"] = 1000 * (t3 - t0)
        out[f"{run}_compute"] = 1000 * (t4 - t3)
    out["rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return out


def measure_exports(path: Path, folder: Path) -> dict[str, float]:
    from companion.history import History, export

    out = {}
    with History(path) as history:
        t = time.perf_counter()
        games = history.games()
        out["list_all"] = time.perf_counter() - t
        t = time.perf_counter()
        with (folder / "h.csv").open("w", encoding="utf-8", newline="") as f:
            export.write_csv(games, f)
        out["csv"] = time.perf_counter() - t
        t = time.perf_counter()
        export.export_file(history, games, "bgstats", folder / "h.json")
        out["bgstats"] = time.perf_counter() - t
        t = time.perf_counter()
        export.export_file(history, games, "zip", folder / "h.zip")
        out["zip"] = time.perf_counter() - t
    for name in ("csv", "json", "zip"):
        out[f"{name}_mb"] = (folder / f"h.{name}").stat().st_size / 1e6
    return out


def record_latency(path: Path, n: int = 200) -> tuple[float, float]:
    """Median and worst ms of one RollLog.record (what the app pays per settled roll). The
    rolls stay in the journal (``n`` of them beside the benchmark's)."""
    from companion.history import RolledDie, RollLog

    times = []
    with RollLog(path) as log:
        for i in range(n):
            dice = [RolledDie(str(i % 6 + 1), "red", 0.9) for _ in range(5)]
            t = time.perf_counter()
            log.record(dice, game_id=1)
            times.append(1000 * (time.perf_counter() - t))
    return statistics.median(times), max(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--rolls", type=int, default=500_000)
    parser.add_argument("--pool", type=int, default=8, help="real games played per game")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--real-index", action="store_true",
                        help="summarise every game for real (minutes)")
    parser.add_argument("--keep", type=Path, help="keep the journal here (or reuse it)")
    parser.add_argument("--seed", type=int, default=23)
    parser.add_argument("--measure", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure is not None:
        print(json.dumps(measure(args.measure)))
        return

    folder = Path(tempfile.mkdtemp(prefix="history-bench-"))
    path = args.keep or folder / "journal.sqlite3"
    if not path.exists():
        build(path, args.games, args.rolls, args.pool, args.real_index, args.seed)
    else:
        print(f"reusing {path}")

    runs = []
    for _ in range(args.repeat):
        done = subprocess.run([sys.executable, __file__, "--measure", str(path)],
                              capture_output=True, text=True, check=True)
        runs.append(json.loads(done.stdout.splitlines()[-1]))

    def line(key: str) -> str:
        values = [r[key] for r in runs]
        return f"{statistics.median(values):7.1f} ms median, {max(values):7.1f} ms worst"

    print(f"\nHistory with {args.games:,} games and {args.rolls:,} rolls "
          f"({args.repeat} fresh processes each):")
    for run, what in (("cold", "first time in a process (imports, scipy included)"),
                      ("warm", "again in the same process (a screen opened twice)")):
        print(f"  {what}:")
        print(f"    open the history (refresh check, first page of 50, counts): "
              f"{line(run + '_open')}")
        print(f"    player and game statistics (kept since the last game): "
              f"{line(run + '_stats')}")
        print(f"    dice counts and fairness verdicts: {line(run + '_dice')}")
        print(f"    all three (target <= 300 ms): {line(run + '_total')}")
        print(f"    statistics worked out from scratch (after a game ends): "
              f"{line(run + '_compute')}")
    print(f"  peak memory of that process: {statistics.median(r['rss_mb'] for r in runs):.0f} MB")
    median, worst = record_latency(path)
    print(f"  recording one settled roll (RollLog.record): {median:.2f} ms median, "
          f"{worst:.2f} ms worst")
    ex = measure_exports(path, folder)
    print(f"  list every game: {ex['list_all']:.2f} s")
    print(f"  export CSV (one row per player per game): {ex['csv']:.2f} s, "
          f"{ex['csv_mb']:.1f} MB")
    print(f"  export BG Stats JSON: {ex['bgstats']:.2f} s, {ex['json_mb']:.1f} MB")
    print(f"  export zip of game files: {ex['zip']:.2f} s, {ex['zip_mb']:.1f} MB")


if __name__ == "__main__":
    main()
