"""Tournament benchmarks: the next-round draw for 64 entrants, and 16 tables reporting at once.

Run: .venv/bin/python benchmarks/tournament.py [--rounds N]

Figures printed:
- draw: the time :meth:`rules.tournament.Tournament.draw_next` takes for 64 entrants (16 tables
  of 4), for each of the five qualifying rounds (each after random results), in both Eye for an
  Eye and group play (target <= 100 ms), and the rematches the draw left;
- reports to the page: a real Mosquitto on 127.0.0.1 and a real director process (`companion
  tournament serve`, with its standings page), 16 table clients each reporting its game at the
  same moment, for N rounds; for every report, the time from the table's call to report (the
  outbox write included) to the standings page's event stream delivering a page that shows it
  (target: within 1 s), median and worst.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from companion.tournament.broker import find_mosquitto, free_port  # noqa: E402
from companion.tournament.desk import DirectorConfig, TournamentDesk  # noqa: E402
from companion.tournament.simulate import play_seating  # noqa: E402
from companion.tournament.store import TableStore, TournamentStore  # noqa: E402
from companion.tournament.table import TableClient  # noqa: E402
from rules.tournament import Tournament  # noqa: E402
from rules.tournament.draw import count_meetings  # noqa: E402


def bench_draw(style: dict[str, object], label: str) -> None:
    import random

    t = Tournament.new("Big", style, seed=1)
    for i in range(64):
        t.add_entrant(f"P{i:02d}")
    rng = random.Random(1)
    times = []
    for _ in range(5):
        start = time.perf_counter()
        r = t.draw_next()
        times.append((time.perf_counter() - start) * 1000)
        for table in r.tables:
            seats = list(table.seats)
            rng.shuffle(seats)
            t.report(r.number, table.number, tuple((s,) for s in seats), "b",
                     f"{r.number}-{table.number}")
    met = count_meetings([[tb.seats for tb in r.tables] for r in t.rounds])
    print(f"draw, 64 entrants, {label}: " + ", ".join(f"{x:.1f}" for x in times)
          + f" ms for rounds 1-5 (worst {max(times):.1f} ms; target <= 100 ms); "
          f"{sum(v - 1 for v in met.values())} rematches in 5 rounds")


class PageWatcher(threading.Thread):
    """Reads the page's event stream; notes when each (round, table) result first shows."""

    def __init__(self, port: int) -> None:
        super().__init__(daemon=True)
        self.port = port
        self.seen: dict[tuple[int, int], float] = {}
        self.ready = threading.Event()

    def run(self) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        conn.request("GET", "/events")
        reply = conn.getresponse()
        self.ready.set()
        data = ""
        while True:
            line = reply.readline()
            if not line:
                return
            text = line.decode()
            if text.startswith("data: "):
                data = text[6:]
            elif text == "\n" and data:
                now = time.time()
                snap = json.loads(data)["standings"]
                data = ""
                r = snap.get("round")
                if not r:
                    continue
                for t in r["tables"]:
                    if t["result"] is not None:
                        self.seen.setdefault((r["number"], t["number"]), now)


def sixty_four(folder: Path) -> tuple[TournamentDesk, DirectorConfig]:
    """A tournament of 64 entrants at 16 tables (id ``bnch``) in ``folder``'s journal, its
    broker and page on free ports of 127.0.0.1."""
    store = TournamentStore(folder / "journal.sqlite3")
    t = Tournament.new("Bench", {}, seed=3)
    for i in range(64):
        t.add_entrant(f"P{i:02d}")
    config = DirectorConfig(listen="127.0.0.1", port=free_port(), address="127.0.0.1",
                            web_port=free_port())
    store.create("bnch", t, config.to_json())
    desk = TournamentDesk(store, "bnch")
    desk.ensure_tables(16)
    return desk, config


def start_director(checkout: Path, data: Path) -> tuple[subprocess.Popen[str], list[str]]:
    """`companion tournament serve` of ``checkout`` on the data folder ``data``, once its
    page is up; (the process, its output lines so far and to come)."""
    env = dict(os.environ, COMPANION_DATA_DIR=str(data), PYTHONUNBUFFERED="1")
    proc = subprocess.Popen([sys.executable, "-m", "companion", "tournament", "serve"],
                            cwd=checkout, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    lines: list[str] = []
    assert proc.stdout is not None
    for line in proc.stdout:
        lines.append(line)
        if line.startswith("standings page:"):
            break
    else:
        raise SystemExit("the director did not start:\n" + "".join(lines[-20:]))
    stdout = proc.stdout
    threading.Thread(target=lambda: lines.extend(stdout), daemon=True).start()
    return proc, lines


def bench_reports(rounds: int) -> None:
    find_mosquitto()
    with tempfile.TemporaryDirectory(prefix="tournament-bench-") as tmp_name:
        tmp = Path(tmp_name)
        desk, config = sixty_four(tmp / "director")
        director, _ = start_director(REPO, tmp / "director")
        clients: list[TableClient] = []
        try:
            watcher = PageWatcher(config.web_port)
            watcher.start()
            watcher.ready.wait(10)
            clients = [TableClient(TableStore(tmp / f"table-{c.table}.sqlite3"), c)
                       for c in desk.join_codes("127.0.0.1")]
            for c in clients:
                c.start()
            for c in clients:
                if not c.wait_connected(20):
                    raise SystemExit(f"table {c.code.table} could not connect")
            sent: dict[tuple[int, int], float] = {}
            for _ in range(rounds):
                r = desk.draw_next()
                games: dict[int, Any] = {}
                for c in clients:
                    if not c.wait_for(lambda c=c, n=r.number: c.seating is not None
                                      and c.seating.round == n, 20):
                        raise SystemExit(f"table {c.code.table}: no seating")
                    assert c.seating is not None
                    games[c.code.table] = (c.seating, *play_seating(c.seating))
                go = threading.Barrier(len(clients))

                def report(c: TableClient, games: dict[int, Any] = games,
                           go: threading.Barrier = go) -> None:
                    seating, placings, text = games[c.code.table]
                    go.wait()
                    rep = c.report(placings, text, seating)
                    sent[(rep.round, rep.table)] = rep.sent

                threads = [threading.Thread(target=report, args=(c,)) for c in clients]
                for th in threads:
                    th.start()
                for th in threads:
                    th.join()
                deadline = time.monotonic() + 30
                while not all((r.number, n) in watcher.seen for n in range(1, 17)):
                    if time.monotonic() > deadline:
                        raise SystemExit(f"round {r.number}: results missing on the page")
                    time.sleep(0.01)
            lags = [(watcher.seen[k] - v) * 1000 for k, v in sent.items()]
            print(f"16 tables reporting at once, {rounds} rounds ({len(lags)} reports), to "
                  f"the standings page: median {statistics.median(lags):.0f} ms, worst "
                  f"{max(lags):.0f} ms (target: every report within 1000 ms)")
        finally:
            for c in clients:
                c.stop()
            director.terminate()
            director.wait(timeout=20)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    bench_draw({}, "Eye for an Eye")
    bench_draw({"game": "dice-forge"}, "Dice Forge group play")
    bench_reports(args.rounds)


if __name__ == "__main__":
    main()
