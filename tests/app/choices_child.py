"""Child process of tests/app/test_app_choices_remembered.py: the real app offscreen, where the
players choose Dice Forge with the Goddess module by touch, start it, make one call and leave
it for later; then the app ends (the parent starts the app again on the same journal).
Prints "left" once the game is kept."""

from __future__ import annotations

import sys
from collections.abc import Generator
from pathlib import Path

import child_app  # noqa: F401  (first: the environment of an app child process)
from conftest import leave_game
from tournament_touch import choose


def main() -> None:
    from companion.compose import CompanionApp
    from companion.demo.drive import Driver, ManualClock, run_app

    app = CompanionApp(clock=ManualClock(), journal_file=Path(sys.argv[1]))

    def script(d: Driver) -> Generator[int | None, None, None]:
        yield 2
        start = app.screens["start"]
        yield from choose(d, start.game_spin, "Dice Forge")
        start.set_count(2)
        yield 1
        yield from choose(d, start.option_spins["module"], "Goddess")
        d.tap(start.start_button)
        yield 2
        assert app.session is not None and app.session.game.options.module == "goddess"
        app.session.call(next(iter(app.session.game.legal_calls())))
        yield 1
        yield from leave_game(d, app.game_screen)
        assert app.sm.current == "start"
        print("left", flush=True)

    run_app(app, script, timeout=300)


if __name__ == "__main__":
    main()
