"""A round played with the GPIO buttons on gpiozero's mock pins: the hardware layer's
ButtonPad counts presses on its own thread; the app takes its events on the main thread."""

from __future__ import annotations

from collections.abc import Generator
from pathlib import Path

import pytest
from conftest import arena_game, arena_of

pytestmark = pytest.mark.app


def test_round_by_mock_gpio_buttons(app_dirs: Path) -> None:
    from gpiozero.pins.mock import MockFactory

    from companion.compose import CompanionApp
    from companion.demo.drive import Driver, ManualClock, run_app
    from hardware.buttons import ButtonMap, ButtonPad, SeatLeds

    game = arena_game()
    clock = ManualClock()
    app = CompanionApp(clock=clock, journal_file=app_dirs / "j.sqlite3")
    factory = MockFactory()
    bmap = ButtonMap.default()  # two seats, P1 and P2
    pad_clock = [100.0]
    pad = ButtonPad(bmap, app.submit_hardware, pin_factory=factory,
                    clock=lambda: pad_clock[0], run_timer=False)
    app.buttons.seats = bmap.seats
    app.buttons.leds = SeatLeds(bmap, pin_factory=factory)

    def led(seat: str) -> bool:
        pin_name = dict(bmap.leds)[seat]
        return bool(factory.pin(int(pin_name.removeprefix("GPIO"))).state)

    def pin(seat: str, action: str) -> object:
        spec = next(b for b in bmap.buttons if b.seat == seat and b.action == action)
        return factory.pin(int(spec.pin.removeprefix("GPIO")))

    def press(seat: str, action: str, times: int = 1) -> None:
        p = pin(seat, action)
        for _ in range(times):
            p.drive_low()  # pulled up: pressed is low
            pad_clock[0] += 0.05
            pad.tick()
            p.drive_high()
            pad_clock[0] += 0.05
            pad.tick()
        pad_clock[0] += 1.0  # the count window closes: the call is delivered
        pad.tick()

    def hold(seat: str, action: str) -> None:
        p = pin(seat, action)
        p.drive_low()
        pad_clock[0] += 1.0
        pad.tick()
        p.drive_high()
        pad_clock[0] += 0.05
        pad.tick()

    def script(d: Driver) -> Generator[int | None, None, None]:
        start = app.screens["start"]
        start.choose_game(game)
        yield 2
        start.set_count(2)
        yield 1
        d.tap(start.start_button)
        yield 2
        s = app.session
        assert s is not None and len(s.game.setup.players) == 2
        s.start_clock()
        ben = arena_of(app).seat_of("Ben")
        # P1 presses attack three times: with one possible target the call is complete.
        # Each press shows on the panel at once, before the count is finished.
        arena = app.screens["arena"]
        attack = arena.panels["Ana"].buttons["attack"]
        label = attack.text  # the character's attack, e.g. "Spear Thrust"
        calls_before = len(s.log)
        for n in (1, 2):
            p = pin("P1", "attack")
            p.drive_low()
            pad_clock[0] += 0.05
            pad.tick()
            yield 1
            assert attack.text == f"{label} x{n}", attack.text
            assert f"{n}..." in arena.prompt.text, arena.prompt.text
            assert len(s.log) == calls_before  # nothing called while counting
            p.drive_high()
            pad_clock[0] += 0.05
            pad.tick()
        press("P1", "attack", 1)  # the third press; the window closes
        yield 3
        assert s.log[-1].call.endswith(f" 3 on {ben.character.short}")
        assert attack.text == label  # the panel is drawn as usual again
        assert arena_of(app).pending() and arena_of(app).parry_left("Ben") is not None
        assert led("P2") and not led("P1")  # Ben may parry: his seat's LED is lit
        # P2 parries twice.
        press("P2", "defend", 2)
        yield 3
        assert f"{ben.character.short}: Parry 2" in [e.call for e in s.log[-2:]]
        assert arena_of(app).pending() == []
        assert not led("P2")
        health = arena_of(app).seat_of("Ben").health
        # P2 moves, then holds defend: undo.
        press("P2", "move", 2)
        yield 3
        assert "2" in s.log[-1].call and s.log[-1].call.startswith(ben.character.short)
        calls = len(s.log)
        hold("P2", "defend")
        yield 3
        assert len(s.log) == calls - 1
        # Knock Ben out with attacks that nobody parries.
        for _ in range(20):
            if s.game.state.phase != "playing":
                break
            press("P1", "attack", 3)
            yield 3
            clock.advance(arena_of(app).parry_seconds + 0.1)
            app._tick(0.0)
            yield 2
        ben_now = arena_of(app).seat_of("Ben")
        assert ben_now.knocked_out and ben_now.health == 0 < health
        assert s.game.state.phase == "between-rounds" and app.sm.current == "between"
        assert app.buttons.leds.state("P2") == "blink" and app.buttons.leds.state("P1") == "off"

    try:
        run_app(app, script)
    finally:
        pad.close()
        app.buttons.leds.close()
