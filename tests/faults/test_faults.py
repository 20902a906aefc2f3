"""The fault suite (issue 33): power cuts, fuzzed calls, damaged and special files at start,
two companions at once. Each test has a quick size that runs in the normal suite, and a long
one (``pytest tests/faults --long -s``: 1,000 power cuts, 10^5 fuzzed calls per game) that
prints its figures, to run before an issue touching the journal or the rules is resolved.

- **power cuts**: a real child process (``fault_child.py``) plays the five games in turn
  through the app's own path (lock, store, TableSession) and is killed with SIGKILL at a random
  moment (right after an acknowledgement, or a few milliseconds later: inside the next write).
  After each cut every acknowledged change is in the journal (at most the one being written
  besides), the game resumes to exactly what replaying its calls gives, and the start-up
  checks raise no false alarm (no "log damaged" notice, no ``.damaged`` copy).
- **fuzzed calls**: calls made from legal ones with words replaced, dropped, added, and values
  that are not words at all; only the rules' own errors may come out, and a refused call
  leaves the game exactly as it was.
- **damaged and special files at start**: every file the app reads at start, made a FIFO, a
  link to /dev/zero, a folder, garbage, empty, nested too deeply; the start-up runs in a child
  with a deadline and must give notices, never a traceback, a hang or a failed start.
- **two companions at once**: two real processes start on one data folder at the same moment;
  exactly one writes, the other says who holds the folder, and the journal still replays.
"""

from __future__ import annotations

import json
import os
import random
import selectors
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

import rules
from companion import startfiles
from companion.journal import Journal
from rules import RulesError
from rules.core import Entry

HERE = Path(__file__).parent
ROOT = HERE.parents[1]
CHILD = HERE / "fault_child.py"
DEADLINE = 120.0  # seconds a child may take to say something (a loaded CI machine)


def _size(request: pytest.FixtureRequest, quick: int, long: int) -> int:
    return long if request.config.getoption("--long") else quick


def _report(capsys: pytest.CaptureFixture[str], line: str) -> None:
    """A figure of the suite: shown at once in the long mode (with -s), else kept with the
    test's output (pytest shows it for a failure)."""
    print(f"\n[faults] {line}")


# -- power cuts --------------------------------------------------------------------------------

class Played:
    """What the child acknowledged: each game's live calls and redo list, as it said them."""

    def __init__(self) -> None:
        self.live: dict[int, list[str]] = {}
        self.undone: dict[int, list[str]] = {}
        self.acks = 0
        self.touched: set[int] = set()  # the games changed since the last check

    def said(self, line: str) -> int | None:
        """Take one line of the child; the game id of an acknowledgement."""
        parts = line.rstrip("\n").split(" ", 4)
        if parts[0] == "start":  # a game begun or resumed: what it holds is checked after
            gid = int(parts[1])  # the cut, even when no change of it was acknowledged
            self.live.setdefault(gid, [])
            self.undone.setdefault(gid, [])
            self.touched.add(gid)
        if parts[0] != "ack":
            return None
        gid, op, live, text = int(parts[1]), parts[2], int(parts[3]), parts[4]
        calls = self.live.setdefault(gid, [])
        undone = self.undone.setdefault(gid, [])
        self.touched.add(gid)
        if op == "call":
            calls.append(text)
            undone.clear()
        elif op == "undo":
            undone.insert(0, calls.pop())
        else:
            calls.append(undone.pop(0))
        assert len(calls) == live, line
        self.acks += 1
        return gid


def _one_cut(journal: Path, seed: int, rng: random.Random, played: Played) -> tuple[int, str]:
    """Start the child, let it play to a random acknowledgement, kill it (then or a few ms
    later); returns (the game it was playing, what its start-up said)."""
    child = subprocess.Popen([sys.executable, str(CHILD), str(journal), str(seed)],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             cwd=ROOT)
    assert child.stdout is not None and child.stderr is not None
    target = rng.randint(1, 40)
    seen = 0
    gid = -1
    notices: list[str] = []
    try:
        with selectors.DefaultSelector() as sel:
            sel.register(child.stdout, selectors.EVENT_READ)
            while seen < target:
                assert sel.select(timeout=DEADLINE), "the child said nothing for too long"
                line = child.stdout.readline()
                if not line:
                    raise AssertionError(f"the child ended: {child.wait()} "
                                         f"{child.stderr.read()[-2000:]}")
                if line.startswith("notice"):
                    notices.append(line)
                if line.startswith("readonly"):
                    raise AssertionError(f"the child could not write: {line}")
                got = played.said(line)
                if got is not None:
                    gid = got
                    seen += 1
        if rng.random() < 0.5:  # a moment inside the next write, not only between two
            time.sleep(rng.random() * 0.005)
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=DEADLINE)
        # what the child said after the last line read was acknowledged too
        for line in child.stdout.read().splitlines():
            played.said(line)
    return gid, " ".join(notices)


def _check_after_cut(journal: Path, played: Played) -> tuple[int, int]:
    """Every acknowledged change is there and every game resumes to its replay; returns
    (calls lost, false alarms of the start-up checks)."""
    lost = 0
    j, notices = startfiles.open_journal(journal)
    # after a power cut the start has nothing to say: any notice is a false alarm (a "log
    # damaged" warning, a game that cannot be resumed), and so is a `.damaged` copy
    alarms = len(notices) + len(list(journal.parent.glob("*.damaged-*")))
    with j:
        for gid in sorted(played.touched):  # the others were checked after their own cut
            calls = played.live[gid]
            record = j.load(gid)
            have = [e.call for e in record.entries]
            undone = [e.call for e in record.undone]
            redo = played.undone[gid]
            # the journal holds what was acknowledged, or that and the one change being
            # written when the power went (a call, an undo, a redo); never less
            if not ((have, undone) == (calls, redo)
                    or (have[:-1] == calls and undone == [])
                    or (calls and have == calls[:-1] and undone == calls[-1:] + redo)
                    or (redo and have == calls + redo[:1] and undone == redo[1:])):
                lost += 1
            resumed = j.resume(gid)
            assert resumed.snapshot() == rules.replay(record.setup, record.entries).snapshot()
            # what the journal has is now what was acknowledged (the next cut builds on it)
            played.live[gid] = have
            played.undone[gid] = undone
    played.touched.clear()
    return lost, alarms


def test_power_cuts_lose_no_acknowledged_call(tmp_path: Path, request: pytest.FixtureRequest,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    cuts = _size(request, 6, 1000)
    rng = random.Random(1)
    journal = tmp_path / "data" / "journal.sqlite3"
    played = Played()
    lost = alarms = 0
    games: set[int] = set()
    for n in range(cuts):
        gid, _ = _one_cut(journal, 1000 + n, rng, played)
        games.add(gid)
        got_lost, got_alarms = _check_after_cut(journal, played)
        lost += got_lost
        alarms += got_alarms
    with Journal(journal) as j:
        names = {r.setup.game for r in j.games()}
    _report(capsys, f"power cuts: {cuts:,}, acknowledged changes {played.acks:,}, lost "
                    f"{lost}, false alarms {alarms}, games {len(games)} ({len(names)} kinds)")
    assert lost == 0 and alarms == 0
    if cuts >= 50:
        assert names == set(rules.game_names())  # every game was cut


# -- fuzzed calls -------------------------------------------------------------------------------

NASTY: tuple[Any, ...] = ("", " ", "9" * 500, "-1", "1e999", "nan", "½", "🎲", "\x00",
                          "[" * 100, "Pass", "Undo", "over", "from", "to", "die", "P9")
NOT_WORDS: tuple[Any, ...] = (None, 3, 2.5, True, b"Pass", ["Pass"], {"call": 1}, ("P1",),
                              object(), float("nan"))


def _fuzzed(rng: random.Random, pool: list[str]) -> Any:
    """A call made from one of ``pool`` (legal calls' words, for the game as it stands)
    with words replaced, added, dropped, recased or made numbers; or noise; or a value that
    is not words at all."""
    if rng.random() < 0.05:
        return rng.choice(NOT_WORDS)
    if not pool or rng.random() < 0.1:
        return " ".join(rng.choice(NASTY) for _ in range(rng.randint(0, 6)))
    words = rng.choice(pool).split(" ")
    for _ in range(rng.randint(1, 3)):
        at = rng.randrange(len(words) + 1)
        how = rng.choice(("replace", "insert", "drop", "case", "number"))
        if how == "insert" or not words:
            words.insert(at, rng.choice(NASTY))
        elif how == "replace":
            words[min(at, len(words) - 1)] = rng.choice(NASTY)
        elif how == "drop":
            del words[min(at, len(words) - 1)]
        elif how == "case":
            words = [w.swapcase() for w in words]
        else:
            words[min(at, len(words) - 1)] = str(rng.randint(-10**6, 10**6))
    return " ".join(words)


@pytest.mark.parametrize("name", rules.game_names())
def test_fuzzed_calls_raise_only_rules_errors_and_change_nothing(
        name: str, request: pytest.FixtureRequest, capsys: pytest.CaptureFixture[str]) -> None:
    """Each position is fuzzed with many calls (legal calls' words are worked out once per
    position: listing them is what costs). After a refusal the game's state is the very same
    object (the engine works on a copy and swaps only on success) and the history as long;
    one refusal in ten is also compared snapshot against snapshot."""
    calls = _size(request, 1500, 100_000)
    rng = random.Random(name)
    cls = rules.game_class(name)
    game = rules.from_setup(cls.random_setup(rng))
    escapes = refused = taken = 0
    position: tuple[int, int] = (-1, -1)
    pool: list[str] = []
    before: Any = None
    for _ in range(calls):
        if game.is_over or len(game.history) > 300:
            game = rules.from_setup(cls.random_setup(rng))
        if position != (id(game), len(game.history)):
            position = (id(game), len(game.history))
            pool = [game.random_call(rng).text() for _ in range(3)] if not game.is_over else []
            before = game.snapshot()
        state = game._state
        value = _fuzzed(rng, pool)
        done = len(game.history)
        try:
            game.apply(value, rng.choice((None, 0.0, 1.5, float("inf"), -3)))
            taken += 1
        except RulesError:
            refused += 1
            if game._state is not state or len(game.history) != done or (
                    rng.random() < 0.1 and game.snapshot() != before):
                escapes += 1
        except Exception:  # anything else escaping the rules' error family is a failure
            escapes += 1
        if rng.random() < 0.02 and not game.is_over:
            game.apply(game.random_call(rng))  # move on, so every phase gets fuzzed
    _report(capsys, f"fuzzed calls, {name}: {calls:,} ({taken:,} taken, {refused:,} refused), "
                    f"escapes {escapes}")
    assert escapes == 0


# -- damaged and special files at start ------------------------------------------------------

DAMAGES = ("fifo", "zero", "folder", "garbage", "empty", "nested", "dangling")
START_FILES = ("config/settings.toml", "config/config.toml", "config/current-profile",
               "config/profiles/den.json", "data/journal.sqlite3",
               "data/journal.sqlite3-wal", "data/journal.sqlite3-shm", "data/companion.lock")
START = """
import json
from companion import startfiles, paths
s = startfiles.read_all()
store = paths.profile_store()
# the calibration profile, through the app's own path for it (companion.app)
profile, note = startfiles.read_start_file(store.folder, "profile", lambda p: store.current(),
                                           None, owned=False)
s.notices += [note] if note else []
games = len(s.journal.unfinished())
print(json.dumps({"notices": s.notices, "games": games, "readonly": s.journal.readonly}))
"""


def _damage(path: Path, how: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.exists() or path.is_symlink():
        if path.is_dir():
            path.rmdir()
        else:
            path.unlink()
    if how == "fifo":
        os.mkfifo(path)
    elif how == "zero":
        path.symlink_to("/dev/zero")
    elif how == "folder":
        path.mkdir()
    elif how == "garbage":
        path.write_bytes(bytes(random.Random(path.name).randrange(256) for _ in range(5000)))
    elif how == "empty":
        path.write_bytes(b"")
    elif how == "nested":
        path.write_bytes(b"a = " + b"[" * 50_000 + b"]" * 50_000)
    else:
        path.symlink_to(path.parent / "nowhere" / "at-all")


@pytest.mark.parametrize("target", START_FILES)
def test_damaged_and_special_files_never_stop_the_start(
        tmp_path: Path, target: str, request: pytest.FixtureRequest,
        capsys: pytest.CaptureFixture[str]) -> None:
    failures: list[str] = []
    damages = DAMAGES if request.config.getoption("--long") else DAMAGES[:3]
    for how in damages:
        home = tmp_path / how
        (home / "data").mkdir(parents=True)
        (home / "config").mkdir()
        with Journal(home / "data" / "journal.sqlite3") as j:  # a game to find again
            gid = j.start_game(rules.new_game("dice-ocalypse", ["Ana", "Ben"], seed=3).setup)
            j.record_call(gid, Entry("Ana: Roll 6"))  # a game with no call is not kept
        _damage(home / target, how)
        env = {**os.environ, "COMPANION_CONFIG_DIR": str(home / "config"),
               "COMPANION_DATA_DIR": str(home / "data")}
        env.pop("COMPANION_CONFIG", None)
        try:
            done = subprocess.run([sys.executable, "-c", START], capture_output=True,
                                  text=True, env=env, cwd=ROOT, timeout=DEADLINE)
        except subprocess.TimeoutExpired:
            failures.append(f"{target} as {how}: hangs")
            continue
        if done.returncode != 0 or "Traceback" in done.stderr:
            failures.append(f"{target} as {how}: {done.stderr.strip()[-600:]}")
            continue
        said = json.loads(done.stdout.strip().splitlines()[-1])
        if target == "data/journal.sqlite3":
            continue  # the journal itself replaced: its game is gone (set aside, and said)
        if said["games"] != 1 and not said["readonly"]:
            failures.append(f"{target} as {how}: the unfinished game is not offered")
    _report(capsys, f"start with {target} damaged {len(damages)} ways: "
                    f"{len(failures)} failures")
    assert failures == []


# -- two companions at once ---------------------------------------------------------------------

def test_two_companions_started_together_one_writes(
        tmp_path: Path, request: pytest.FixtureRequest,
        capsys: pytest.CaptureFixture[str]) -> None:
    rounds = _size(request, 2, 50)
    journal = tmp_path / "data" / "journal.sqlite3"
    writers_each = []
    for n in range(rounds):
        kids = [subprocess.Popen([sys.executable, str(CHILD), str(journal), str(n * 2 + k)],
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                 cwd=ROOT) for k in range(2)]
        first: list[str] = []
        for kid in kids:
            assert kid.stdout is not None
            with selectors.DefaultSelector() as sel:
                sel.register(kid.stdout, selectors.EVENT_READ)
                while True:  # the first line that says which it is
                    assert sel.select(timeout=DEADLINE), "a companion said nothing"
                    line = kid.stdout.readline()
                    if line.startswith(("start", "readonly")) or not line:
                        first.append(line)
                        break
        for kid in kids:
            kid.send_signal(signal.SIGKILL)
            kid.wait(timeout=DEADLINE)
        writers = sum(line.startswith("start") for line in first)
        readers = [line for line in first if line.startswith("readonly")]
        writers_each.append(writers)
        assert writers == 1 and len(readers) == 1, first
        assert "Another companion (process" in readers[0]
        with Journal(journal) as j:
            for record in j.games():
                j.resume(record.id)  # every game still replays
    _report(capsys, f"two companions at once: {rounds} starts, one writer each time: "
                    f"{all(w == 1 for w in writers_each)}")
