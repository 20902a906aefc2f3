"""Child process for the kill -9 test: runs the real app offscreen, making calls by touch
until it is killed. Prints "ack N" once the N-th call has been made (and so journaled)."""

from __future__ import annotations

import sys
from collections.abc import Generator
from pathlib import Path

import child_app  # noqa: F401  (first: the environment of an app child process)
from conftest import arena_game


def main() -> None:
    from companion.compose import CompanionApp
    from companion.demo.drive import Driver, ManualClock, run_app

    game = arena_game()
    clock = ManualClock()
    app = CompanionApp(clock=clock, journal_file=Path(sys.argv[1]))

    def script(d: Driver) -> Generator[int | None, None, None]:
        start = app.screens["start"]
        start.choose_game(game)
        yield 2
        d.tap(start.start_button)
        yield 2
        d.tap(app.screens["arena"].go)
        yield 1
        n = 0
        players = ["Ana", "Ben", "Cy"]
        while True:
            clock.advance(0.25)
            player = players[n % 3]
            yield from d.call(player, "movement", 1 + n % 3)
            n += 1
            assert app.session is not None and len(app.session.log) == n
            print(f"ack {n}", flush=True)

    run_app(app, script, timeout=600)


if __name__ == "__main__":
    main()
