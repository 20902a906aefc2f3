"""The long mode of the hostile-MQTT faults: many hostile reports to a real director.

Run: .venv/bin/python benchmarks/hostile_mqtt.py [--messages 10000] [--seed 1]

A real Mosquitto on 127.0.0.1 (a free port) and a real director (`TournamentService`, in this
process, with its standings page) serve a 4-player tournament. Table 1's own credentials send
``--messages`` hostile reports (every kind of tests/companion/hostile_mqtt.py, in random
orders and sizes: deep nesting, too large, not UTF-8, wrong types, NaN/Infinity, bad ids,
another table's or tournament's, wrong names), each waiting for the director's answer, with a
replay of a good report every 100 messages; then the round's good result, the final, and
conflicting finals. Exits 1 unless every hostile report was answered ``rejected``, every good
one counted, and the director's network loop never failed.

Figures printed: messages sent, answers by status, director failures (network loop
restarts), whether it is still receiving, messages per second, the journal's growth and the
refusals it counted.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests" / "companion"))

from hostile_mqtt import Attacker, hostile  # noqa: E402

from companion.tournament.broker import free_port  # noqa: E402
from companion.tournament.desk import DirectorConfig, TournamentDesk  # noqa: E402
from companion.tournament.service import TournamentService  # noqa: E402
from companion.tournament.store import TournamentStore  # noqa: E402
from rules.tournament import Tournament  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--messages", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory(prefix="hostile-mqtt-") as tmp:
        os.environ["COMPANION_DATA_DIR"] = tmp
        db = Path(tmp) / "journal.sqlite3"
        store = TournamentStore(db)
        t = Tournament.new("Hostile Cup", {"game": "dice-forge", "rounds": 1,
                                           "final-size": 2}, seed=args.seed)
        for i in range(1, 5):
            t.add_entrant(f"P{i}")
        store.create("tt01", t, DirectorConfig(listen="127.0.0.1", port=free_port(),
                                               address="127.0.0.1",
                                               web_port=free_port()).to_json())
        desk = TournamentDesk(store, "tt01")
        desk.ensure_tables()
        desk.draw_next()
        seats = desk.tournament.rounds[0].table(1).seats
        first = tuple((s,) for s in seats)
        answers: Counter[str] = Counter()
        wrong: list[str] = []
        with TournamentService(store, desk=desk, folder=Path(tmp) / "t") as service:
            director = service.director
            assert director is not None
            before = sum(p.stat().st_size for p in Path(tmp).glob("journal.sqlite3*"))
            bad = Attacker(service.config.port, "tt01", "table-1",
                           service.config.table_secrets[1])
            started = time.monotonic()
            good = bad.good(1, 1, first)
            answers[f"good {good.status}"] += 1
            replay = bad.last_payload
            sent = 0
            while sent < args.messages:
                for kind, payload in hostile("tt01", 1, 1, first, rng):
                    if sent >= args.messages:
                        break
                    ack = bad.send(payload)
                    sent += 1
                    answers[ack.status] += 1
                    if ack.status != "rejected":
                        wrong.append(f"{kind}: {ack.status} {ack.text}")
                    if sent % 100 == 0:
                        answers[f"replay {bad.send(replay).status}"] += 1
                    if sent % 1000 == 0:
                        print(f"  {sent:,} sent, {time.monotonic() - started:.0f} s",
                              flush=True)
            seconds = time.monotonic() - started
            desk.draw_next()
            final = tuple((s,) for s in desk.tournament.rounds[1].table(1).seats)
            answers[f"final {bad.good(2, 1, final).status}"] += 1
            for _ in range(3):
                answers[f"conflicting final {bad.good(2, 1, final[::-1]).status}"] += 1
            bad.close()
            after = sum(p.stat().st_size for p in Path(tmp).glob("journal.sqlite3*"))
            refused, _ = store.refused("tt01", 1)
            failures, receiving = director.failures, director.receiving
            over, winner = desk.tournament.is_over, desk.tournament.winner()
        print(f"hostile reports sent: {sent:,} in {seconds:.1f} s "
              f"({sent / seconds:,.0f} a second, each waiting for its answer)")
        for status, n in sorted(answers.items()):
            print(f"  answered {status}: {n:,}")
        print(f"director network-loop failures: {failures}; still receiving: {receiving}")
        print(f"refusals counted in the journal: {refused:,}; journal grew "
              f"{(after - before) / 1e6:.1f} MB")
        print(f"tournament over: {over}, winner {winner} (the final's first: {final[0][0]})")
        ok = (not wrong and failures == 0 and receiving and answers["rejected"] == sent
              and answers["good recorded"] == 1 and answers["final recorded"] == 1
              and answers["conflicting final rejected"] == 3 and over
              and winner == final[0][0])
        for line in wrong[:10]:
            print(f"  NOT REFUSED: {line}")
        print("PASS" if ok else "FAIL")
        return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
