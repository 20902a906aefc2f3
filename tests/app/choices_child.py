"""Child process of tests/app/test_app_choices_remembered.py: the real app offscreen, where the
players choose Dice Forge with the Goddess module by touch, start it, make one call and leave
it for later; then the app ends (the parent starts the app again on the same journal).
Prints "left" once the game is kept."""

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

from conftest import leave_game
from tournament_touch import choose


def main() -> None:
    from companion.compose import CompanionApp
    from companion.drive import Driver, ManualClock, run_app

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
