"""Three players, two button seats: a held "power" button steps P1's attack through the
targets on screen; letting go makes the call on the one shown."""

from __future__ import annotations

from collections.abc import Generator
from pathlib import Path

import pytest
from conftest import arena_of

pytestmark = pytest.mark.app


def test_cycle_hold_chooses_the_target(app_dirs: Path) -> None:
    from gpiozero.pins.mock import MockFactory

    from companion.compose import CompanionApp
    from companion.demo.drive import Driver, ManualClock, run_app
    from companion.games.eye_for_an_eye.buttons import CYCLE_SETTLE
    from hardware.buttons import ButtonMap, ButtonPad

    clock = ManualClock()
    app = CompanionApp(clock=clock, journal_file=app_dirs / "j.sqlite3")
    factory = MockFactory()
    bmap = ButtonMap.default()
    pad_clock = [100.0]
    pad = ButtonPad(bmap, app.submit_hardware, pin_factory=factory,
                    clock=lambda: pad_clock[0], run_timer=False)
    app.buttons.seats = bmap.seats

    def pin(seat: str, action: str) -> object:
        spec = next(b for b in bmap.buttons if b.seat == seat and b.action == action)
        return factory.pin(int(spec.pin.removeprefix("GPIO")))

    def advance(seconds: float, step: float = 0.05) -> None:
        end = pad_clock[0] + seconds
        while pad_clock[0] < end:
            pad_clock[0] += step
            pad.tick()

    def script(d: Driver) -> Generator[int | None, None, None]:
        start = app.screens["start"]
        start.choose_game("eye-for-an-eye")
        yield 2
        start.set_count(3)
        d.tap(start.start_button)
        yield 2
        s = app.session
        assert s is not None
        s.start_clock()
        attack = pin("P1", "attack")
        for _ in range(2):
            attack.drive_low()
            advance(0.05)
            attack.drive_high()
            advance(0.05)
        advance(1.0)
        yield 3
        assert arena_of(app).builder.needs_target and arena_of(app).builder.count == 2
        power = pin("P1", "power")
        power.drive_low()
        advance(bmap.hold_time + 0.1)  # the hold starts: step 1 points at Ben
        yield 3
        assert arena_of(app).builder.proposed == "Ben"
        assert "let go" in d.arena.panels["Ben"].header.text
        advance(bmap.hold_repeat)  # step 2: Cy
        yield 3
        assert arena_of(app).builder.proposed == "Cy"
        assert "let go" in d.arena.panels["Cy"].header.text
        assert "let go" not in d.arena.panels["Ben"].header.text
        power.drive_high()
        advance(0.1)
        assert s.log == []
        clock.advance(CYCLE_SETTLE + 0.1)
        app._tick(0.0)
        yield 2
        cy = arena_of(app).seat_of("Cy").character.short
        assert s.log[-1].call.endswith(f" 2 on {cy}"), s.log[-1].call
        assert not arena_of(app).builder.active

    try:
        run_app(app, script)
    finally:
        pad.close()
