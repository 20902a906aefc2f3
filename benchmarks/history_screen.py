"""The History screen in the running app, on a journal of 10,000 games: how long each view takes
to open, and the app's memory with it open and the camera running.

Run: .venv/bin/python benchmarks/history_screen.py [--journal FILE] [--repeat 3]

The journal is the one ``benchmarks/history.py --keep FILE`` builds (10,000 games, 500,000
rolls; built here first when FILE does not exist yet). Each run is a fresh app process,
offscreen at 800x480, the journal copied into its data folder, driven by touch:

- times, from the tap (or ``app.show("history")``) to the first frame drawn with the view's
  data (checked as each frame is drawn; when the data came without a visible change, the
  script asks for a frame): the History screen the first time (the screen built, the index
  checked, the first page of 10 games), the second time; the Players tab with the statistics
  kept since the last game, and worked out from scratch (what the first look after a game
  costs); the Per game tab; the Dice tab the first time (the verdicts from a child process,
  kept in the journal after) and again with them kept; a game opened (replayed to its end)
  and one step back;
- memory: resident set size after every view was opened, then with the live dice view running
  for 20 s (the camera's feed, vision reading each frame: the app's memory target is 250 MB
  with the camera running), median of the last 10 s and the peak. Three kinds of process:
  ``camera`` (no History screen: the app's own figure, as benchmarks/app.py measures it),
  ``history`` (the screen as built, its charts drawn with Kivy's graphics), and
  ``matplotlib`` (the same, plus each chart drawn as a PNG by matplotlib in the app's
  process: what drawing the screen's charts with matplotlib would have cost).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Generator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
MODES = ("camera", "history", "matplotlib")


def _app_bench() -> Any:
    """benchmarks/app.py, for its offscreen environment and its software-GL figures."""
    spec = importlib.util.spec_from_file_location("app_bench", ROOT / "benchmarks" / "app.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def rss_mb() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def child(mode: str) -> None:
    """One app process: the views timed (unless ``mode`` is "camera"), then memory."""
    from kivy.config import Config

    Config.set("graphics", "maxfps", "60")
    from kivy.core.window import Window

    from companion.compose import CompanionApp
    from companion.demo.drive import Driver, run_app

    app = CompanionApp()
    out: dict[str, Any] = {"mode": mode}

    def shown(ready: Callable[[], bool], since: float) -> Generator[int, None, float]:
        """Seconds from ``since`` to the first frame drawn with ``ready()`` true. Kivy draws a
        frame only when something changed: once the script sees ``ready()`` and no frame has
        drawn it yet, it asks for one (else it would time a later, unrelated redraw)."""
        hit: list[float] = []

        def check(*_: Any) -> None:
            if not hit and ready():
                hit.append(time.perf_counter())

        Window.bind(on_flip=check)
        while not hit:
            if ready():
                Window.canvas.ask_update()
            yield 1
        Window.unbind(on_flip=check)
        return hit[0] - since

    def script(d: Driver) -> Generator[int | None, None, None]:
        yield 5
        if mode != "camera":
            from companion.history.screen import HistoryScreen

            t = time.perf_counter()
            app.show("history")
            h = app.screens["history"]
            assert isinstance(h, HistoryScreen)
            out["open_first"] = yield from shown(lambda: h.loads >= 1 and not h.busy, t)
            out["games"] = h.total
            app.show("start")
            yield 3
            t = time.perf_counter()
            app.show("history")  # built again: the screen lets go of itself when left
            h = app.screens["history"]
            assert isinstance(h, HistoryScreen)
            out["open_again"] = yield from shown(lambda: h.loads >= 1 and not h.busy, t)
            t = time.perf_counter()
            d.tap(h.tabs["players"])
            out["players_kept"] = yield from shown(lambda: h.stats is not None, t)
            # The statistics forgotten, as after a game: worked out from scratch.
            forgot: list[bool] = []
            h.worker.read(lambda hist: (hist.cache.clear(),
                                        hist.db.execute("DELETE FROM history_stats")),
                          lambda _: forgot.append(True), lambda why: forgot.append(False))
            while not forgot:
                yield 1
            h.stats = None
            d.tap(h.tabs["games"])
            yield 2
            t = time.perf_counter()
            d.tap(h.tabs["players"])
            out["players_scratch"] = yield from shown(lambda: h.stats is not None, t)
            t = time.perf_counter()
            d.tap(h.tabs["per-game"])
            out["per_game"] = yield from shown(lambda: not h.busy, t)
            t = time.perf_counter()
            d.tap(h.tabs["dice"])
            out["dice"] = yield from shown(lambda: h.dice is not None and not h.busy, t)
            # The verdicts forgotten by the screen (as when it is built again): the journal
            # keeps them until the dice's counts change.
            h.dice = None
            d.tap(h.tabs["games"])
            yield 2
            t = time.perf_counter()
            d.tap(h.tabs["dice"])
            out["dice_kept"] = yield from shown(lambda: h.dice is not None and not h.busy, t)
            d.tap(h.tabs["games"])
            yield 2
            row = list(h.rows.children)[-1]
            t = time.perf_counter()
            d.tap(row)
            out["game_open"] = yield from shown(lambda: h.view == "game" and not h.busy, t)
            out["game_calls"] = h.opened.step.total if h.opened and h.opened.step else 0
            t = time.perf_counter()
            d.tap(h.back_step)
            out["game_step"] = yield from shown(
                lambda: not h.busy and h.opened is not None and h.opened.step is not None
                and not h.opened.step.at_end, t)
            if mode == "matplotlib":
                from companion.history import chartdata, charts

                stats = h.stats
                assert stats is not None and h.dice
                pictures = [charts.bar_chart(chartdata.wins(stats.players)),
                            charts.bar_chart(chartdata.game_lengths(stats.games)),
                            charts.bar_chart(chartdata.dice(h.dice[0]))]
                out["png_bytes"] = sum(len(p) for p in pictures)
            out["rss_history"] = rss_mb()
            del h, row  # what the app keeps when the History is left, not what the script holds
            app.show("start")
            yield 2
        app.show("dice")
        t = time.monotonic()
        samples: list[float] = []
        while time.monotonic() - t < 20:
            if time.monotonic() - t > 10:
                samples.append(rss_mb())
            yield 1
        out["frames"] = app.screens["dice"].frames
        out["rss_camera"] = statistics.median(samples)
        out["soft_gl"] = _app_bench().software_gl_mb()
        out["modules"] = sorted(m for m in ("matplotlib", "scipy") if m in sys.modules)

    run_app(app, script, timeout=600)
    out["rss_peak"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps(out), flush=True)


def run(mode: str, journal: Path) -> dict[str, Any]:
    env = _app_bench()._env()
    data = Path(env["COMPANION_DATA_DIR"])
    for suffix in ("", "-wal", "-shm"):
        if Path(f"{journal}{suffix}").exists():
            shutil.copy(f"{journal}{suffix}", data / f"journal.sqlite3{suffix}")
    done = subprocess.run([sys.executable, __file__, "--child", mode], env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=900)
    shutil.rmtree(data, ignore_errors=True)
    if done.returncode != 0:
        raise RuntimeError(f"benchmark child {mode} failed ({done.returncode}):\n"
                           f"{done.stdout[-1500:]}\n{done.stderr[-3000:]}")
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--journal", type=Path,
                        default=Path(tempfile.gettempdir()) / "history-bench.sqlite3",
                        help="the 10,000-game journal (built by benchmarks/history.py first "
                             "when missing)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--child", choices=MODES, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        sys.path.insert(0, str(ROOT))
        child(args.child)
        return
    if not args.journal.exists():
        subprocess.run([sys.executable, str(ROOT / "benchmarks" / "history.py"), "--keep",
                        str(args.journal), "--repeat", "1"], check=True)
    runs: dict[str, list[dict[str, Any]]] = {m: [] for m in MODES}
    for _ in range(args.repeat):
        for mode in MODES:
            runs[mode].append(run(mode, args.journal))

    def ms(key: str) -> str:
        values = [1000 * r[key] for r in runs["history"]]
        return f"{statistics.median(values):6.0f} ms median, {max(values):6.0f} ms worst"

    first = runs["history"][0]
    print(f"History screen on {first['games']:,} games ({args.repeat} app processes; "
          "tap to the first frame drawn with the data):")
    for key, what in (("open_first", "opened the first time (screen built, index checked, "
                                     "10 games)"),
                      ("open_again", "opened again (built again: it is let go when left)"),
                      ("players_kept", "Players tab, statistics kept since the last game"),
                      ("players_scratch", "Players tab, statistics worked out from scratch"),
                      ("per_game", "Per game tab"),
                      ("dice", "Dice tab (verdicts from a child process)"),
                      ("dice_kept", "Dice tab again (verdicts kept in the journal)"),
                      ("game_open", f"a game of {first['game_calls']} calls opened (replayed)"),
                      ("game_step", "one call back")):
        print(f"  {what}: {ms(key)}")
    print("Memory (MB resident; median of the last 10 s of the live dice view, and the peak):")
    for mode, what in (("camera", "no History screen (the app's own figure)"),
                       ("history", "after every History view, charts drawn by Kivy"),
                       ("matplotlib", "the same, plus the charts drawn by matplotlib")):
        rs = runs[mode]
        line = (f"  {what}: camera running {statistics.median(r['rss_camera'] for r in rs):.0f}"
                f", peak {statistics.median(r['rss_peak'] for r in rs):.0f}")
        if mode != "camera":
            line += f", History open {statistics.median(r['rss_history'] for r in rs):.0f}"
        line += f"; loaded: {', '.join(rs[0]['modules']) or 'neither matplotlib nor scipy'}"
        print(line)
    gl = statistics.median(r["soft_gl"] for m in MODES for r in runs[m])
    print(f"  of each, ~{gl:.0f} MB is the software GL rasteriser a Pi does not load")
    with open("/proc/loadavg") as f:
        print(f"machine load average: {f.read().split()[0]} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
