"""Child process for the kill -9 test: runs the real app offscreen, making calls by touch
until it is killed. Prints "ack N" once the N-th call has been made (and so journaled)."""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Generator
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "offscreen")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
os.environ.setdefault("KIVY_NO_FILELOG", "1")
os.environ.setdefault("KIVY_CLIPBOARD", "dummy")
# its own Kivy home, never its parent's (two processes making one home at once fail)
os.environ["KIVY_HOME"] = tempfile.mkdtemp(prefix="kivy-child-")
sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parents[2]))

from conftest import arena_game


def main() -> None:
    from companion.compose import CompanionApp
    from companion.drive import Driver, ManualClock, run_app

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
