"""One table floods the director, fifteen report as usual: what the others wait (issue 42).

Run: .venv/bin/python benchmarks/flood.py [--seconds 20] [--rate 1000] [--rounds 1]
     [--other CHECKOUT] [--pages 20]

A real Mosquitto on 127.0.0.1 and a real director process (`companion tournament serve`, with
its standings page) serve 64 entrants at 16 tables, round 1 drawn. Each run has three phases (the
status flood before the reports flood, whose backlog at the broker table 1 works through for
a minute after):

- **capacity**: every table sends 10 reports at once (160: the first of each counted, the
  others refused and kept, so each is a write of the journal); figure: reports a second the
  director holds (journaled and answered), from the first sent to the last answer;
- **reports flood**: table 1 sends ``--rate`` reports a second for ``--seconds`` (QoS 1,
  reports for another tournament: each one refused and kept), while tables 2-16 each report
  their result through the real table client (outbox, resent every 2 s until answered) three
  times, spread over the flood; figures: what table 1 had answered a second, the other
  tables' median and worst wait from report to acknowledgement, and how many were never
  answered (within the flood and 60 s after);
- **status flood**: table 1 flips online/offline as fast as it can for ``--seconds``, with
  ``--pages`` standings pages open (their event streams read to the end), while the others
  report as above; figures: flips sent, bytes pushed to each page, the others' waits.

``--other CHECKOUT``: the same runs with the director of another checkout of the companion
(e.g. a clone of main before issue 42), interleaved A B A B for ``--rounds`` rounds: the tables
and the broker's machine are the same, only the director's code differs.
"""

from __future__ import annotations

import argparse
import http.client
import json
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

import paho.mqtt.client as mqtt  # noqa: E402
from paho.mqtt.enums import CallbackAPIVersion  # noqa: E402
from tournament import sixty_four, start_director  # noqa: E402

from companion.tournament.broker import find_mosquitto  # noqa: E402
from companion.tournament.desk import DirectorConfig, TournamentDesk  # noqa: E402
from companion.tournament.protocol import Ack, Report, topic_table  # noqa: E402
from companion.tournament.store import TableStore, TournamentStore  # noqa: E402
from companion.tournament.table import TableClient  # noqa: E402

WAIT = 60.0


class Raw:
    """A table's own credentials, publishing as fast as asked; counts the answers."""

    def __init__(self, port: int, user: str, secret: str) -> None:
        self.acks: list[tuple[float, Ack]] = []
        self.up = threading.Event()
        self.user = user
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=user,
                                  clean_session=True)
        self.client.username_pw_set(user, secret)
        self.client.max_inflight_messages_set(0)
        self.client.max_queued_messages_set(0)
        self.client.on_connect = lambda c, *a: c.subscribe(topic_table("bnch", user, "ack"), 1)
        self.client.on_subscribe = lambda *a: self.up.set()
        self.client.on_message = lambda c, u, m: self.acks.append(
            (time.monotonic(), Ack.from_payload(bytes(m.payload))))
        self.client.connect("127.0.0.1", port, keepalive=30)
        self.client.loop_start()
        if not self.up.wait(WAIT):
            raise SystemExit(f"{user} could not connect")

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


class Page(threading.Thread):
    """One open standings page: reads its event stream, counting the bytes."""

    def __init__(self, port: int) -> None:
        super().__init__(daemon=True)
        self.port, self.bytes, self.events = port, 0, 0
        self.ready = threading.Event()
        self.stop = threading.Event()

    def run(self) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
        conn.request("GET", "/events")
        reply = conn.getresponse()
        self.ready.set()
        while not self.stop.is_set():
            line = reply.readline()
            if not line:
                return
            self.bytes += len(line)
            self.events += line.startswith(b"event: ")
        conn.close()


def _setup(tmp: Path) -> tuple[Path, DirectorConfig, dict[int, Any]]:
    desk, config = sixty_four(tmp)
    desk.draw_next()
    seats = {tb.number: tuple((s,) for s in tb.seats) for tb in desk.tournament.rounds[0].tables}
    desk.store.close()
    return tmp / "journal.sqlite3", config, seats


def _honest(clients: dict[int, TableClient], seats: dict[int, Any], seconds: float,
            answered: dict[str, float], sent: dict[str, float]) -> threading.Thread:
    """Tables 2-16 report their result three times, spread over ``seconds``."""

    def run() -> None:
        start = time.monotonic()
        plan = sorted((start + seconds * (k + (n - 2) / 15) / 3, n) for n in clients
                      for k in range(3))
        for when, n in plan:
            time.sleep(max(0.0, when - time.monotonic()))
            client = clients[n]
            report = client.report(seats[n], "a game file", client.seating)
            sent[report.report_id] = time.monotonic()

    for client in clients.values():
        client.on_ack = lambda a: answered.setdefault(a.report_id, time.monotonic())
    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


def _waits(honest: threading.Thread, sent: dict[str, float], answered: dict[str, float]
           ) -> tuple[list[float], int]:
    """Once the honest tables have sent everything: their waits for an answer (up to a
    minute more), and how many were never answered."""
    honest.join()
    end = time.monotonic() + WAIT
    while len(answered) < len(sent) and time.monotonic() < end:
        time.sleep(0.05)
    waits = [answered[r] - t for r, t in sent.items() if r in answered]
    return waits, sum(r not in answered for r in sent)


def one_run(checkout: Path, label: str, args: argparse.Namespace) -> dict[str, Any]:
    out: dict[str, Any] = {"label": label}
    with tempfile.TemporaryDirectory(prefix="flood-bench-") as tmp_name:
        tmp = Path(tmp_name)
        db, config, seats = _setup(tmp)
        with TournamentStore(db) as store:
            codes = TournamentDesk(store, "bnch").join_codes("127.0.0.1")
        proc, _ = start_director(checkout, tmp)
        raws: list[Raw] = []
        clients: dict[int, TableClient] = {}
        pages: list[Page] = []
        try:
            # -- capacity: 10 reports from each of the 16 tables at once
            raws = [Raw(config.port, f"table-{c.table}", c.secret) for c in codes]
            time.sleep(1.0)  # the director's sessions settle (its joining notes)
            start = time.monotonic()
            for raw, code in zip(raws, codes, strict=True):
                for k in range(10):  # the first counted, the others refused: each journaled
                    raw.client.publish(topic_table("bnch", raw.user, "report"), Report(
                        uuid.uuid4().hex, "bnch" if k == 0 else "zz99", 1, code.table,
                        seats[code.table], "a game file").to_payload(), qos=1)
            deadline = start + 120
            while sum(len(r.acks) for r in raws) < 160 and time.monotonic() < deadline:
                time.sleep(0.01)
            got = sum(len(r.acks) for r in raws)
            last = max((t for r in raws for t, _ in r.acks), default=start)
            out["capacity"] = got / max(last - start, 1e-9)
            out["capacity_answered"] = got
            flood = raws[0]
            for raw in raws[1:]:
                raw.close()
            # -- tables 2-16 join as tables do
            clients = {c.table: TableClient(TableStore(tmp / f"t{c.table}.sqlite3"), c)
                       for c in codes[1:]}
            for client in clients.values():
                client.start()
            for client in clients.values():
                if not client.wait_for(lambda c=client: c.seating is not None, WAIT):
                    raise SystemExit(f"table {client.code.table}: no seating")
            # -- status flood, pages open
            pages = [Page(config.web_port) for _ in range(args.pages)]
            for page in pages:
                page.start()
            for page in pages:
                page.ready.wait(WAIT)
            answered: dict[str, float] = {}
            sent: dict[str, float] = {}
            honest = _honest(clients, seats, args.seconds, answered, sent)
            start = time.monotonic()
            flips = 0
            topic = topic_table("bnch", "table-1", "status")
            while time.monotonic() < start + args.seconds:
                for _ in range(100):
                    flood.client.publish(topic, b"offline" if flips % 2 else b"online", qos=1,
                                         retain=True)
                    flips += 1
                time.sleep(0.001)
            waits, never = _waits(honest, sent, answered)
            out["flips"] = flips
            out["page_mb"] = [p.bytes / 1e6 for p in pages]
            out["page_events"] = [p.events for p in pages]
            out["status_waits"] = waits
            out["status_never"] = never
            # -- reports flood
            answered, sent = {}, {}
            before = len(flood.acks)
            honest = _honest(clients, seats, args.seconds, answered, sent)
            start = time.monotonic()
            n = 0
            bad = json.dumps({"report_id": "f", "tournament": "zz99", "round": 1, "table": 1,
                              "placings": [["A"], ["B"]]})
            while (now := time.monotonic()) < start + args.seconds:
                due = int((now - start) * args.rate)
                while n < due:
                    flood.client.publish(topic_table("bnch", "table-1", "report"),
                                         bad.replace('"f"', f'"f{n}"'), qos=1)
                    n += 1
                time.sleep(0.002)
            waits, never = _waits(honest, sent, answered)
            out["flood_sent"] = n
            out["flood_answered_per_s"] = (len(flood.acks) - before) / args.seconds
            out["report_waits"] = waits
            out["report_never"] = never
        finally:
            for page in pages:
                page.stop.set()
            for client in clients.values():
                client.stop()
                client.store.close()
            for raw in raws[:1]:
                raw.close()
            proc.terminate()
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
    return out


def _print(r: dict[str, Any], args: argparse.Namespace) -> None:
    def waits(w: list[float]) -> str:
        if not w:
            return "none answered"
        return f"median {statistics.median(w):.2f} s, worst {max(w):.2f} s"

    print(f"[{r['label']}] capacity: {r['capacity']:.0f} reports a second held "
          f"({r['capacity_answered']} of 160 answered)")
    print(f"[{r['label']}] reports flood: table 1 sent {r['flood_sent']:,} "
          f"({args.rate:,}/s for {args.seconds:.0f} s), had {r['flood_answered_per_s']:.1f} "
          f"a second answered; the other 15 tables' {len(r['report_waits'])} reports: "
          f"{waits(r['report_waits'])}, {r['report_never']} never answered")
    mb = r["page_mb"]
    print(f"[{r['label']}] status flood: {r['flips']:,} flips in {args.seconds:.0f} s, "
          f"{len(mb)} pages got {statistics.median(mb) if mb else 0:.2f} MB each "
          f"({sum(mb):.1f} MB in all, {statistics.median(r['page_events']) if mb else 0:.0f} "
          f"bodies each); the others' reports: {waits(r['status_waits'])}, "
          f"{r['status_never']} never answered", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--rate", type=int, default=1000)
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--pages", type=int, default=20)
    ap.add_argument("--other", type=Path, help="another checkout's director, interleaved")
    args = ap.parse_args()
    find_mosquitto()
    runs: list[tuple[Path, str]] = [(REPO, "this")]
    if args.other is not None:
        runs.append((args.other.resolve(), f"other {args.other.name}"))
    for _ in range(args.rounds):
        for checkout, label in runs:
            _print(one_run(checkout, label, args), args)


if __name__ == "__main__":
    main()
