"""Eye for an Eye's ``legal_calls()`` cost in two checkouts side by side, interleaved.

Issue 43 made ``legal_calls()`` complete (Unblockable hits, every heal and reaction the
engine takes), so the arena asks it alone instead of trying calls on the engine. This prints
what one ``legal_calls()`` costs along the same game in this checkout and in another:

    git worktree add --detach /tmp/eye-main main        # the version to compare with
    .venv/bin/python benchmarks/eye_legal_calls.py --other /tmp/eye-main

The game is a seeded six-player advanced game (alliances, 2 vs 2 vs 2, Echo's Guards
included) played here by random legal calls; its call words are replayed in each checkout in
a fresh process, in turn (A B, then B A, ...), timing ``legal_calls()`` at every position.
The machine is shared, so the figures are the medians of the runs, with the A/B ratio taken
run by run.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

WORKER = r"""
import json, sys, time
repo, calls_file, repeat = sys.argv[1], sys.argv[2], int(sys.argv[3])
sys.path.insert(0, repo)
import rules
setup, calls = json.loads(open(calls_file).read())
game = rules.from_setup(rules.Setup.from_json(setup))
spent, listed, positions = 0.0, 0, 0
for text in calls:
    start = time.process_time()
    for _ in range(repeat):
        found = game.legal_calls()
    spent += time.process_time() - start
    listed += len(found)
    positions += 1
    game.apply(text)
print(json.dumps({"us": spent / (positions * repeat) * 1e6, "listed": listed / positions}))
"""

PLAYERS = ["Ana", "Ben", "Cy", "Dee", "Eve", "Fay"]


def record(steps: int, seed: int) -> tuple[object, list[str]]:
    """The setup and call words of one seeded game, played by random legal calls here."""
    sys.path.insert(0, str(ROOT))
    import rules

    game = rules.new_game("eye-for-an-eye", PLAYERS, {
        "mode": "alliances", "teams": [PLAYERS[:2], PLAYERS[2:4], PLAYERS[4:]],
        "characters": ["grubic", "riparian", "banksia", "pluma", "incendiary", "echo"]},
        seed=seed)
    rng = random.Random(seed)
    calls: list[str] = []
    for _ in range(steps):
        if game.is_over:
            break
        call = game.random_call(rng)
        calls.append(call.text())
        game.apply(call)
    return game.setup.to_json(), calls


def run(repo: Path, calls_file: str, repeat: int) -> dict[str, float]:
    out = subprocess.run([sys.executable, "-c", WORKER, str(repo), calls_file, str(repeat)],
                         check=True, capture_output=True, text=True).stdout
    result: dict[str, float] = json.loads(out)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--other", type=Path, required=True, help="the checkout to compare")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--steps", type=int, default=120, help="calls in the game")
    parser.add_argument("--repeat", type=int, default=20, help="legal_calls() per position")
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args()
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(record(args.steps, args.seed), f)
    a: list[dict[str, float]] = []
    b: list[dict[str, float]] = []
    for i in range(args.runs):
        pair = [(ROOT, a), (args.other, b)]
        for repo, into in pair if i % 2 == 0 else reversed(pair):
            into.append(run(repo, f.name, args.repeat))
    Path(f.name).unlink()
    ua, ub = (statistics.median(r["us"] for r in x) for x in (a, b))
    ratio = statistics.median(x["us"] / y["us"] for x, y in zip(a, b, strict=True))
    print(f"legal_calls() along one {len(PLAYERS)}-player game, median of {args.runs} runs")
    print(f"  A this checkout : {ua:8.1f} us per call, {a[0]['listed']:6.1f} calls listed")
    print(f"  B {args.other}: {ub:8.1f} us per call, {b[0]['listed']:6.1f} calls listed")
    print(f"  A/B (run by run): {ratio:.2f}")


if __name__ == "__main__":
    main()
