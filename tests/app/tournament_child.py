"""Child process for the director's power-cut test: the real app, offscreen, makes a
tournament, draws round 1, types a result in and serves it; then prints "ready", the
tournament's id, its number of events and each table's join code, and runs until killed."""

from __future__ import annotations

import sys
import time
from collections.abc import Generator
from pathlib import Path

import child_app  # noqa: F401  (first: the environment of an app child process)


def main() -> None:
    from companion.compose import CompanionApp
    from companion.demo.drive import Driver, ManualClock, run_app

    app = CompanionApp(clock=ManualClock(), journal_file=Path(sys.argv[1]))

    def script(d: Driver) -> Generator[int | None, None, None]:
        yield 3
        hub = app.tournaments
        assert hub is not None
        hub.create("Power Cup", {"rounds": 2})
        for name in ("Ana", "Ben", "Cyra", "Dmitri", "Eli"):
            hub.add_entrant(name)
        hub.draw_next()
        assert hub.desk is not None
        r = hub.desk.tournament.current
        assert r is not None
        hub.report_by_hand(1, 1, tuple((n,) for n in r.table(1).seats))
        hub.serve()
        deadline = time.monotonic() + 30
        while hub.serve_state != "serving":
            assert time.monotonic() < deadline, hub.serve_error
            yield 1
        codes = " ".join(c.text() for c in hub.join_codes())
        print(f"ready {hub.desk.tid} {len(hub.desk.tournament.events)} {codes}", flush=True)
        while True:
            yield 10

    run_app(app, script, timeout=600)


if __name__ == "__main__":
    main()
