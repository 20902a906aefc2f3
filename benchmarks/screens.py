"""How soon each screen answers a tap, and how long the app takes to start, side by side with
another checkout (interleaved A/B: the machine is shared and noisy).

Run from the repository root:

    git worktree add --detach /tmp/main-screens main            # the version to compare with
    .venv/bin/python benchmarks/screens.py --other /tmp/main-screens --rounds 4

Without ``--other`` only this checkout is measured. Each round starts, for each checkout in
turn (A B, then B A, ...), one app process that is driven by touch through a fixed tour, and
one ``companion start`` process that is timed to its start screen. Both use this checkout's
virtual environment (the same libraries) with the checkout's own code; the compiled modules are
kept between runs (as on a table after its first start: ``./start.sh`` compiles them).

- **launch**: from starting ``companion start`` (offscreen, a fresh data folder) to its
  ``READY=1`` (the sd_notify message the appliance's service waits for, sent from the first
  frame with the start screen up), wall time and the processor time the process used by then.
- **taps**: the app at 800x480, frames drawn and capped at 60 fps as at the table, a journal of
  ``--games`` games (``benchmarks/history.py`` builds it once: random games of all five games,
  ``--rolls`` recorded rolls) copied into a fresh data folder. Each step of the tour is one tap
  through Kivy's own touch dispatch; its **answer** is the time from the touch to the first
  frame drawn after it (``glFinish``: the frame is on screen), its **ready** the time until what
  it loads is shown (History's list, Players' statistics; the same as the answer where nothing
  loads behind), and its **stall** the longest time the main loop stood still (between two
  clock ticks) from the tap until one second after it was ready: loading behind must not
  freeze the screen. The figures printed are medians over the rounds, and the A/B ratio is
  taken round by round (the drift of a busy machine cancels out).
"""

from __future__ import annotations

import argparse
import gc
import importlib.util
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Generator, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
PYTHON = ROOT / ".venv" / "bin" / "python"
#: Ready or not, a tap's wait ends here (a screen that never shows what it loads).
LIMIT_S = 30.0
#: The suffixes of a tap's other two figures in a tour's output.
READY, STALL = "(ready)", "(stall)"
#: A tour's full garbage collections that started between a tap and its answer, and all of
#: them (seconds each).
FULL, FULL_ALL = "full collections in a tap", "full collections"


def _env(data: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # compiled modules kept, as after ./start.sh
    env.update({"SDL_VIDEODRIVER": "offscreen", "SDL_AUDIODRIVER": "dummy", "KIVY_NO_ARGS": "1",
                "KIVY_NO_CONSOLELOG": "1", "KIVY_NO_FILELOG": "1", "KIVY_LOG_MODE": "MIXED",
                "KIVY_CLIPBOARD": "dummy",
                "KIVY_HOME": str(data / "kivy"), "COMPANION_DATA_DIR": str(data / "data"),
                "COMPANION_CONFIG_DIR": str(data / "config"), "COMPANION_CAMERA": "synthetic",
                "GPIOZERO_PIN_FACTORY": "mock"})
    return env


# -- the tour (in the child) --------------------------------------------------------------------


class Tour:
    """The app driven by touch, each tap timed (see the module docstring)."""

    def __init__(self, app: Any) -> None:
        from kivy.clock import Clock
        from kivy.core.window import Window
        from kivy.graphics.opengl import glFinish

        self.app = app
        self.window = Window
        self.flips: list[float] = []
        self.ticks: list[float] = []
        self.out: dict[str, list[float]] = {}

        def flipped(*_: Any) -> None:
            glFinish()  # the frame is shown once the (software) GL has drawn it
            self.flips.append(time.perf_counter())

        Window.bind(on_flip=flipped)
        Clock.schedule_interval(lambda dt: self.ticks.append(time.perf_counter()), 0)
        #: full collections of the cyclic garbage collector: (start, seconds)
        self.full: list[tuple[float, float]] = []
        started = [0.0]

        def collected(phase: str, info: dict[str, int]) -> None:
            if info["generation"] == 2:
                if phase == "start":
                    started[0] = time.perf_counter()
                else:
                    self.full.append((started[0], time.perf_counter() - started[0]))

        gc.callbacks.append(collected)

    def button(self, root: Any, text: str) -> Any:
        """The shown, enabled button under ``root`` whose text starts with ``text``."""
        from kivy.uix.button import Button

        for w in root.walk(restrict=True):
            if isinstance(w, Button) and str(w.text).startswith(text) and not w.disabled \
                    and w.opacity > 0 and w.get_root_window() is not None:
                return w
        texts = [getattr(w, "text", "") for w in root.walk(restrict=True)]
        raise LookupError(f"no button {text!r} on {root!r}: {texts}")

    def dialog(self) -> Any:
        """The dialog (or drop-down) open now, the newest."""
        from kivy.uix.modalview import ModalView

        views = [c for c in self.window.children if isinstance(c, ModalView)]
        if not views:
            raise LookupError("no dialog is open")
        return views[0]

    @staticmethod
    def asked(start: Any) -> bool:
        view = getattr(start, "confirm_view", None)
        return view is not None and view.parent is not None

    def dropdown(self) -> Any:
        from kivy.uix.dropdown import DropDown

        views = [c for c in self.window.children if isinstance(c, DropDown)]
        if not views:
            raise LookupError("no drop-down list is open")
        return views[0]

    def tap(self, name: str, widget: Any, ready: Callable[[], bool] | None = None
            ) -> Iterator[int]:
        """Tap ``widget``'s centre; time the answer, the ready and the stall (``name``)."""
        from companion.demo.drive import ScriptTouch

        x, y = widget.to_window(*widget.center)
        self.ticks.clear()
        touch = ScriptTouch(x, y)
        t = time.perf_counter()
        touch.down()
        touch.up()
        n = len(self.flips)
        while len(self.flips) == n:
            self.window.canvas.ask_update()
            yield 1
        answer = self.flips[n] - t
        while ready is not None and not ready() and time.perf_counter() - t < LIMIT_S:
            yield 1
        done = time.perf_counter() - t if ready is not None else answer
        while time.perf_counter() - t < done + 1.0:
            yield 1
        stall = max((b - a for a, b in zip(self.ticks, self.ticks[1:], strict=False)),
                    default=0.0)
        self.out.setdefault(name, []).append(answer)
        inside = [d for start, d in self.full if t <= start <= t + answer]
        self.out.setdefault(FULL, []).extend(inside)
        if ready is not None:
            self.out.setdefault(f"{name} {READY}", []).append(done)
        self.out.setdefault(f"{name} {STALL}", []).append(stall)

    def script(self, _d: Any) -> Generator[int | None, None, None]:
        app = self.app
        yield 30
        start = app.screens["start"]
        yield from self.tap("start: +", self.button(start, "+"))
        yield from self.tap("start: -", self.button(start, "-"))
        yield from self.tap("start: Recent", start.recent_button)
        yield from self.tap("start: Recent, Close", self.button(self.dialog(), "Close"))
        # History: the list (loaded behind where it can be), the Players tab, back
        yield from self.tap("History", self.button(start, "History"),
                            lambda: not getattr(app.screens["history"], "busy", False)
                            and getattr(app.screens["history"], "loads", 1) >= 1)
        h = app.screens["history"]
        yield from self.tap("History: Players", h.tabs["players"],
                            lambda h=h: h.stats is not None and not h.busy)
        yield from self.tap("History: Games", h.tabs["games"], lambda h=h: not h.busy)
        yield from self.tap("History: Back", self.button(h, "Back"))
        del h  # what the app keeps when the History is left, not what the tour holds
        start = app.screens["start"]
        yield from self.tap("History again", self.button(start, "History"),
                            lambda: not getattr(app.screens["history"], "busy", False))
        yield from self.tap("History again: Back", self.button(app.screens["history"], "Back"))
        # Settings: open, save unchanged, the text size list, huge, normal again
        start = app.screens["start"]
        yield from self.tap("Settings", self.button(start, "Settings"))
        settings = app.screens["settings"]
        yield from self.tap("Settings: Save", self.button(settings, "Save"))
        for size in ("huge", "normal"):
            settings = app.screens["settings"]
            yield from self.tap("Settings: the text size list", settings.text_size_spin)
            yield from self.tap("Settings: a text size", self.button(self.dropdown(), size))
            yield from self.tap("Settings: Save a new text size", self.button(settings, "Save"))
            yield 5
        yield from self.tap("Settings: Back", self.button(app.screens["settings"], "Back"))
        # Tournament: a new one, eight entrants, a round drawn, the standings
        start = app.screens["start"]
        yield from self.tap("Tournament", self.button(start, "Tournament"))
        t = app.screens["tournament"]
        yield from self.tap("Tournament: Run a tournament", self.button(t, "Run a tournament"))
        yield from self.tap("Tournament: Create", t.pages["new"].create_button)
        page = t.pages["entrants"]
        for name in ("Ana", "Ben", "Cy", "Dee", "Eli", "Fay", "Gus", "Hal"):
            page.name.text = name
            yield from self.tap("Tournament: Add an entrant", self.button(page.root, "Add"))
        yield from self.tap("Tournament: Round", t.tab_buttons["round"])
        yield from self.tap("Tournament: Draw a round", t.pages["round"].draw)
        yield from self.tap("Tournament: Standings", t.tab_buttons["standings"])
        yield from self.tap("Tournament: Back", self.button(t.tabs, "Back"))
        # Each game: chosen, started, its Menu, the rules help, left for later
        for title in ("Eye for an Eye", "Dice of the Occulites", "Dice-ocalypse", "Dice Forge",
                      "Tribal Village"):
            start = app.screens["start"]
            yield from self.tap("start: the game list", start.game_spin)
            yield from self.tap("start: a game", self.button(self.dropdown(), title))
            start.set_count(4)  # four players: every game takes them
            yield 2
            yield from self.tap("start: Start the game", start.start_button,
                                lambda s=start: app.table is not None or self.asked(s))
            if app.table is None:  # these players have an unfinished game of it: a new one
                yield from self.tap("start: Start the game", self.button(self.dialog(),
                                                                         "New game"),
                                    lambda: app.table is not None)
            screen = app.sm.current_screen
            assert app.table is not None, f"{title} did not start: {start.message.text}"
            frame = screen.frame
            if title == "Eye for an Eye":
                yield from self.tap("Eye: Yarra Mark!", screen.go)
                seat = next(iter(screen.panels.values()))
                yield from self.tap("Eye: an action", seat.buttons["movement"])
                yield from self.tap("Eye: a count", screen.count_buttons[0])
            yield from self.tap("game: Menu", frame.menu)
            yield from self.tap("game: Rules help", frame.menu_buttons["Rules help"])
            yield from self.tap("game: Rules help, Close", self.button(self.dialog(), "Close"))
            yield from self.tap("game: Menu", frame.menu)
            yield from self.tap("game: End game", frame.menu_buttons["End game"])
            view = frame.confirm_view
            texts = {str(getattr(w, "text", "")) for w in view.walk(restrict=True)}
            leave = "Keep for later" if "Keep for later" in texts else "Leave"
            yield from self.tap("game: End game, leave", self.button(view, leave),
                                lambda: app.sm.current == "start")
            yield 5


def child_taps(repo: str) -> None:
    sys.path.insert(0, repo)
    from kivy.config import Config

    Config.set("graphics", "maxfps", "60")
    from companion.compose import CompanionApp
    from companion.demo.drive import run_app

    app = CompanionApp()
    tour = Tour(app)
    run_app(app, tour.script, timeout=900)
    tour.out[FULL_ALL] = [d for _, d in tour.full]
    print(json.dumps(tour.out), flush=True)


# -- the parent ----------------------------------------------------------------------------------


def _history_bench() -> Any:
    spec = importlib.util.spec_from_file_location("history_bench", ROOT / "benchmarks" /
                                                  "history.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _fresh(journal: Path | None) -> Path:
    """A fresh folder for one app process: data (with a copy of ``journal``), config, Kivy."""
    folder = Path(tempfile.mkdtemp(prefix="screens-bench-"))
    (folder / "data").mkdir()
    if journal is not None:
        for suffix in ("", "-wal", "-shm"):
            if Path(f"{journal}{suffix}").exists():
                shutil.copy(f"{journal}{suffix}", folder / "data" / f"journal.sqlite3{suffix}")
    return folder


def taps(repo: Path, journal: Path) -> dict[str, list[float]]:
    folder = _fresh(journal)
    try:
        done = subprocess.run([str(PYTHON), __file__, "--child", str(repo)], env=_env(folder),
                              cwd=repo, capture_output=True, text=True, timeout=1800)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    if done.returncode != 0:
        raise RuntimeError(f"the tour of {repo} failed ({done.returncode}):\n"
                           f"{done.stdout[-1500:]}\n{done.stderr[-4000:]}")
    out: dict[str, list[float]] = json.loads(done.stdout.strip().splitlines()[-1])
    return out


def _cpu_s(pid: int) -> float:
    """Processor seconds a process has used so far (user + system)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def launch(repo: Path) -> tuple[float, float]:
    """(wall, processor) seconds from ``companion start`` to its start screen (READY=1)."""
    folder = _fresh(None)
    address = str(folder / "notify")
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind(address)
        sock.settimeout(120)
        env = _env(folder) | {"NOTIFY_SOCKET": address}
        code = f"import sys; sys.path.insert(0, {str(repo)!r}); from companion.cli import main; " \
               "sys.exit(main(['start']))"
        t = time.perf_counter()
        proc = subprocess.Popen([str(PYTHON), "-c", code], env=env, cwd=repo,
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        try:
            while True:
                message = sock.recv(4096).decode()
                if "READY=1" in message:
                    break
            wall = time.perf_counter() - t
            cpu = _cpu_s(proc.pid)
        except TimeoutError as e:
            proc.kill()
            raise RuntimeError(f"{repo}: no READY=1 in 120 s: {proc.communicate()[1][-3000:]}"
                               ) from e
        finally:
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
    shutil.rmtree(folder, ignore_errors=True)
    return wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--other", type=Path, help="another checkout to compare with (B)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--games", type=int, default=300, help="games in the journal")
    parser.add_argument("--rolls", type=int, default=20_000, help="rolls in the journal")
    parser.add_argument("--journal", type=Path, help="use (or keep) this journal")
    parser.add_argument("--only", choices=("taps", "launch"))
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child_taps(args.child)
        return
    repos = [ROOT] + ([args.other.resolve()] if args.other else [])
    journal = args.journal or Path(tempfile.gettempdir()) / \
        f"screens-bench-{args.games}-{args.rolls}.sqlite3"
    if args.only != "launch" and not journal.exists():
        _history_bench().build(journal, args.games, args.rolls, 4, False, 23)
    for repo in repos:  # compile each checkout's modules once (a first start would)
        launch(repo)
    launches: dict[Path, list[tuple[float, float]]] = {r: [] for r in repos}
    tours: dict[Path, list[dict[str, list[float]]]] = {r: [] for r in repos}
    for n in range(args.rounds):
        for repo in repos if n % 2 == 0 else repos[::-1]:
            if args.only != "taps":
                launches[repo].append(launch(repo))
            if args.only != "launch":
                tours[repo].append(taps(repo, journal))
        print(f"round {n + 1} of {args.rounds} done", flush=True)
    report(repos, launches, tours, args)


def report(repos: list[Path], launches: dict[Path, list[tuple[float, float]]],
           tours: dict[Path, list[dict[str, list[float]]]], args: argparse.Namespace) -> None:
    a = repos[0]
    b = repos[1] if len(repos) > 1 else None
    names = ["A (this checkout)"] + ([f"B ({b})"] if b else [])
    print(f"{args.rounds} rounds; " + "; ".join(names))

    def ratio(values_a: list[float], values_b: list[float]) -> str:
        pairs = [x / y for x, y in zip(values_a, values_b, strict=False) if y > 0]
        return f"  {statistics.median(pairs):.2f}" if pairs else ""

    if launches[a]:
        print("launch to the start screen (target <= 3 s), median [worst]:")
        for what, k in (("wall", 0), ("processor", 1)):
            line = f"  {what:9s}"
            for repo in repos:
                v = [x[k] for x in launches[repo]]
                line += f"  {statistics.median(v):5.2f} s [{max(v):5.2f}]"
            if b:
                line += ratio([x[k] for x in launches[a]], [x[k] for x in launches[b]])
            print(line)
    if tours[a]:
        print("taps, ms (target: answer <= 100): each the median over rounds of a round's "
              "median, [the worst of all]; ready: until what loads behind is shown; stall: the "
              "longest the main loop stood still from the tap until 1 s after")
        head = f"  {'tap':34s}" + "".join(f" {n[:1]}: answer [worst]  ready  stall"
                                          for n in names)
        print(head + ("   A/B" if b else ""))
        for key in [k for k in tours[a][0]
                    if not k.endswith((READY, STALL)) and k not in (FULL, FULL_ALL)]:
            line = f"  {key:34s}"
            for repo in repos:
                runs = [t for t in tours[repo] if key in t]
                fig = [statistics.median(1000 * statistics.median(t[k]) for t in runs)
                       if runs and k in runs[0] else None
                       for k in (key, f"{key} {READY}", f"{key} {STALL}")]
                worst = max(1000 * max(t[key]) for t in runs) if runs else 0
                line += f"    {fig[0] or 0:6.0f} [{worst:5.0f}]" + "".join(
                    f" {v:6.0f}" if v is not None else "      -" for v in fig[1:])
            if b:
                line += ratio(*(
                    [1000 * statistics.median(t[key]) for t in tours[r] if key in t]
                    for r in (a, b)))
            print(line)
    if tours[a]:
        for repo, name in zip(repos, names, strict=False):
            for key, what in ((FULL_ALL, "full garbage collections"),
                              (FULL, "of them inside a tap's answer")):
                full = [1000 * d for t in tours[repo] for d in t.get(key, [])]
                print(f"  {name[:1]}: {what}: {len(full)} in {len(tours[repo])} tours"
                      + (f", {statistics.median(full):.0f} ms median, {max(full):.0f} ms "
                         "worst" if full else ""))
    with open("/proc/loadavg") as f:
        print(f"machine load average at the end: {f.read().split()[0]} on {os.cpu_count()} "
              "cores")


if __name__ == "__main__":
    main()
