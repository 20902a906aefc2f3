"""Button map, press counting, holds, debounce and LEDs on gpiozero MockFactory and a fake clock."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest
from gpiozero import Device, DigitalInputDevice
from gpiozero.pins.mock import MockFactory

from hardware.buttons import (
    DEFAULT_BUTTONS_TOML,
    ButtonCall,
    ButtonEvent,
    ButtonHold,
    ButtonMap,
    ButtonPad,
    ButtonPress,
    CallInterpreter,
    SeatLeds,
    normalise_pin,
)
from hardware.errors import ButtonConfigError, HardwareError

BMAP = ButtonMap.default()  # P1: move 5, attack 6, defend 13 (hold undo), heal 19, power 26 (cycle)
DEFEND1, ATTACK1, POWER1, MOVE1 = "GPIO13", "GPIO6", "GPIO26", "GPIO5"
DEFEND2, ATTACK2 = "GPIO22", "GPIO27"


class Clock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    old = Device.pin_factory
    Device.pin_factory = MockFactory()
    try:
        yield Device.pin_factory
    finally:
        Device.pin_factory.reset()
        Device.pin_factory = old


def tap(logic: CallInterpreter, pin: str, t: float, down_for: float = 0.08) -> list[ButtonEvent]:
    return logic.edge(pin, True, t) + logic.edge(pin, False, t + down_for)


def calls(events: list[ButtonEvent]) -> list[ButtonCall]:
    return [e for e in events if isinstance(e, ButtonCall)]


# -- the logic ---------------------------------------------------------------------------------


def test_two_quick_presses_make_count_two_delivered_when_the_window_closes() -> None:
    logic = CallInterpreter(BMAP)
    ev = tap(logic, DEFEND1, 0.0) + tap(logic, DEFEND1, 0.2)
    assert [e for e in ev if isinstance(e, ButtonPress)] == [
        ButtonPress("P1", "defend", 1, 0.0), ButtonPress("P1", "defend", 2, 0.2)]
    assert calls(ev) == []
    assert logic.next_deadline() == pytest.approx(0.28 + 0.35)
    assert logic.tick(0.62) == []
    assert logic.tick(0.63) == [ButtonCall("P1", "defend", 2, 0.0)]
    assert logic.next_deadline() is None


def test_presses_further_apart_than_the_window_are_separate_calls() -> None:
    logic = CallInterpreter(BMAP)
    ev = tap(logic, DEFEND1, 0.0) + tap(logic, DEFEND1, 0.5)
    assert calls(ev) == [ButtonCall("P1", "defend", 1, 0.0)]
    assert calls(logic.tick(2.0)) == [ButtonCall("P1", "defend", 1, 0.5)]


def test_another_button_of_the_same_seat_closes_the_count_at_once() -> None:
    logic = CallInterpreter(BMAP)
    tap(logic, DEFEND1, 0.0)
    tap(logic, DEFEND1, 0.15)
    ev = logic.edge(ATTACK1, True, 0.3)
    assert ev == [ButtonCall("P1", "defend", 2, 0.0), ButtonPress("P1", "attack", 1, 0.3)]


def test_two_players_pressing_at_the_same_instant_both_register() -> None:
    logic = CallInterpreter(BMAP)
    ev = logic.edge(DEFEND1, True, 0.0) + logic.edge(DEFEND2, True, 0.0)
    ev += logic.edge(DEFEND1, False, 0.05) + logic.edge(DEFEND2, False, 0.06)
    ev += logic.edge(ATTACK2, True, 0.07)  # P2 moves on; P1's count is untouched
    ev += logic.tick(1.0)
    assert ButtonCall("P2", "defend", 1, 0.0) in ev
    assert ButtonCall("P1", "defend", 1, 0.0) in ev
    assert ev.index(ButtonCall("P2", "defend", 1, 0.0)) < ev.index(
        ButtonCall("P1", "defend", 1, 0.0))


def test_contact_bounce_is_ignored_and_a_short_tap_is_not_lost() -> None:
    logic = CallInterpreter(BMAP)
    t = 0.0
    ev: list[ButtonEvent] = []
    for level in (True, False, True, False, True):  # 5 ms of chatter on press
        ev += logic.edge(DEFEND1, level, t)
        t += 0.001
    ev += logic.edge(DEFEND1, False, 0.09)
    for level in (True, False):  # chatter on release
        ev += logic.edge(DEFEND1, level, 0.091 + (0.001 if level else 0.002))
    ev += logic.tick(1.0)
    assert [e.count for e in ev if isinstance(e, ButtonPress)] == [1]
    assert calls(ev) == [ButtonCall("P1", "defend", 1, 0.0)]
    # a tap shorter than the debounce: the release falls in the lockout, found when it ends
    logic = CallInterpreter(BMAP)
    logic.edge(DEFEND1, True, 0.0)
    logic.edge(DEFEND1, False, 0.01)
    assert logic.is_pressed(DEFEND1)
    assert logic.next_deadline() == pytest.approx(0.025)
    logic.tick(0.025)
    assert not logic.is_pressed(DEFEND1)
    assert calls(logic.tick(0.5)) == [ButtonCall("P1", "defend", 1, 0.0)]


def test_hold_means_undo_and_cancels_the_count_in_progress() -> None:
    logic = CallInterpreter(BMAP)
    tap(logic, DEFEND1, 0.0)
    logic.edge(DEFEND1, True, 0.2)
    assert logic.tick(0.99) == []
    ev = logic.tick(1.0)
    assert ev == [ButtonHold("P1", "defend", "undo", 1, 1, 1.0)]
    assert logic.tick(5.0) == []  # undo does not repeat
    assert logic.edge(DEFEND1, False, 5.1) == []  # and the release sends no call
    assert logic.tick(9.0) == []


def test_cycle_hold_repeats_while_held() -> None:
    logic = CallInterpreter(BMAP)
    logic.edge(POWER1, True, 0.0)
    ev = logic.tick(0.8) + logic.tick(1.4) + logic.tick(1.5) + logic.tick(2.0)
    assert [(e.meaning, e.repeat) for e in ev if isinstance(e, ButtonHold)] == [
        ("cycle", 1), ("cycle", 2), ("cycle", 3)]
    assert calls(logic.edge(POWER1, False, 2.1) + logic.tick(5)) == []


def test_button_without_counting_or_hold_sends_its_call_on_the_press() -> None:
    bmap = ButtonMap.from_toml("""
        [buttons.seats.P1]
        move = { pin = 5, multi_press = false, hold = "none" }
        attack = { pin = 6, max_count = 2, hold = "none" }
    """)
    logic = CallInterpreter(bmap)
    assert logic.edge("GPIO5", True, 0.0) == [
        ButtonPress("P1", "move", 1, 0.0), ButtonCall("P1", "move", 1, 0.0)]
    tap(logic, "GPIO6", 1.0)
    ev = logic.edge("GPIO6", True, 1.2)
    assert ev == [ButtonPress("P1", "attack", 2, 1.2), ButtonCall("P1", "attack", 2, 1.0)]


# -- on mock GPIO pins -----------------------------------------------------------------------


def test_pad_on_mock_pins_counts_presses_holds_and_two_players(factory: MockFactory) -> None:
    clock = Clock()
    events: list[ButtonEvent] = []
    pad = ButtonPad(BMAP, events.append, clock=clock, run_timer=False)
    with pad:
        d1, d2 = factory.pin(13), factory.pin(22)
        assert d1.state == 1  # pulled up: button open
        for _ in range(2):
            d1.drive_low()
            clock.t += 0.05
            d1.drive_high()
            clock.t += 0.1
        d2.drive_low()  # P2 at the same moment as P1's third press
        d1.drive_low()
        assert pad.is_pressed("P1", "defend") and pad.is_pressed("P2", "defend")
        clock.t += 0.05
        d1.drive_high()
        d2.drive_high()
        clock.t += 0.4
        pad.tick()
        factory.pin(26).drive_low()
        clock.t += 0.85
        pad.tick()
        factory.pin(26).drive_high()
    assert ButtonCall("P1", "defend", 3, 1000.0) in events
    assert ButtonCall("P2", "defend", 1, pytest.approx(1000.3)) in events
    assert [e for e in events if isinstance(e, ButtonHold)] == [
        ButtonHold("P1", "power", "cycle", 1, 0, pytest.approx(1000.3 + 0.05 + 0.4 + 0.8))]


def test_pad_timer_thread_delivers_the_count_by_itself(factory: MockFactory) -> None:
    got = threading.Event()
    events: list[ButtonEvent] = []

    def on_event(e: ButtonEvent) -> None:
        events.append(e)
        if isinstance(e, ButtonCall):
            got.set()

    bmap = ButtonMap.from_toml(DEFAULT_BUTTONS_TOML.replace("0.35", "0.05"))
    with ButtonPad(bmap, on_event):
        pin = factory.pin(6)
        pin.drive_low()
        pin.drive_high()
        assert got.wait(timeout=5.0)
    assert [type(e).__name__ for e in events] == ["ButtonPress", "ButtonCall"]
    assert events[1] == ButtonCall("P1", "attack", 1, events[0].t)


def test_seat_leds_light_and_blink(factory: MockFactory) -> None:
    with SeatLeds(BMAP) as leds:
        assert leds.seats == ("P1", "P2")
        p1 = factory.pin(12)
        leds.reaction("P1", True)
        assert p1.state == 1 and leds.state("P1") == "on"
        leds.reaction("P1", False)
        assert p1.state == 0
        leds.knockout("P2")
        assert leds.state("P2") == "blink"
        p2 = factory.pin(25)
        seen = set()
        for _ in range(200):
            seen.add(p2.state)
            if seen == {0, 1}:
                break
            threading.Event().wait(0.01)
        assert seen == {0, 1}
        leds.off()
        assert leds.state("P2") == "off" and leds.state("P9") == "none"


# -- bad config ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("toml", "message"),
    [
        ("[buttons.seats.P1]\nmove = 5\n[buttons.seats.P2]\nattack = 'GPIO5'",
         r"\[buttons.seats.P2\] attack: pin GPIO5 is already used by \[buttons.seats.P1\] move"),
        ("[buttons.seats.P1]\nmove = 5\nled = 'BOARD29'",
         r"led: pin GPIO5 is already used by \[buttons.seats.P1\] move"),
        ("[buttons.seats.P1]\natack = 6",
         r"\[buttons.seats.P1\] atack: unknown action 'atack' \(pin 6\); choose move"),
        ("[buttons.seats.P1]\nmove = 5.5", r"move: a pin must be a GPIO number.*got 5.5"),
        ("[buttons.seats.P1]\nmove = 40", r"move: 40 is not a GPIO pin"),
        ("[buttons.seats.P1]\nmove = 'BOARD6'", r"header pin 6 .* not a GPIO"),
        ("[buttons.seats.P1]\ndefend = { pin = 13, hold = 'redo' }",
         r"defend hold: 'redo' is not a choice; choose one of undo, cycle, none"),
        ("[buttons.seats.P1]\ndefend = { pin = 13, max_count = 0 }",
         r"defend max_count: must be >= 1, got 0"),
        ("[buttons.seats.P1]\ndefend = { pn = 13 }",
         r"defend pn: unknown setting; known: hold, max_count, multi_press, pin"),
        ("[buttons]\nhold_time = '1s'\n[buttons.seats.P1]\nmove = 5",
         r"\[buttons\] hold_time: expected a number, got '1s'"),
        ("[buttons]\npull_up = 1\n[buttons.seats.P1]\nmove = 5",
         r"\[buttons\] pull_up: expected true or false"),
        ("[buttons]\ndebounse = 0.02", r"\[buttons\] debounse: unknown setting"),
        ("[buttons]", r"\[buttons.seats\] is missing"),
        ("[buttons.seats]\nP1 = 5", r"\[buttons.seats.P1\] must be a table"),
        ("[buttons.seats.P1\nmove = 5", r"not valid TOML"),
    ],
)
def test_bad_button_config_names_the_key_and_pin(toml: str, message: str) -> None:
    with pytest.raises(ButtonConfigError, match=message):
        ButtonMap.from_toml(toml)


def test_pin_names_and_app_vocabulary() -> None:
    assert [normalise_pin(v) for v in (13, "13", "GPIO13", "gpio13", "BCM13", "BOARD33")] == [
        "GPIO13"] * 6
    bmap = ButtonMap.from_toml("[buttons.seats.Red]\nspear = 4", actions=("spear",))
    assert bmap.buttons[0].action == "spear" and bmap.seats == ("Red",)
    assert BMAP.led_pin("P2") == "GPIO25" and len(BMAP.buttons) == 10
    with pytest.raises(ButtonConfigError, match="config has no"):
        ButtonMap.from_config({})


def test_pad_reports_pins_it_cannot_claim_and_releases_the_others(factory: MockFactory) -> None:
    other = DigitalInputDevice(6)  # something else already holds P1's attack pin
    try:
        with pytest.raises(HardwareError, match=r"button P1 attack on GPIO6: .*already in use"):
            ButtonPad(BMAP, lambda e: None, run_timer=False)
    finally:
        other.close()
    DigitalInputDevice(5).close()  # the pad let go of the pins it had claimed


def test_pad_timer_thread_reports_a_hold_while_the_button_is_down(factory: MockFactory) -> None:
    held = threading.Event()
    events: list[ButtonEvent] = []

    def on_event(e: ButtonEvent) -> None:
        events.append(e)
        if isinstance(e, ButtonHold):
            held.set()

    bmap = ButtonMap.from_toml(DEFAULT_BUTTONS_TOML.replace("hold_time = 0.8", "hold_time = 0.05"))
    with ButtonPad(bmap, on_event):
        pin = factory.pin(13)
        pin.drive_low()
        assert held.wait(timeout=5.0)
        pin.drive_high()
    assert [type(e).__name__ for e in events] == ["ButtonPress", "ButtonHold"]
    assert events[1] == ButtonHold("P1", "defend", "undo", 1, 0, pytest.approx(events[0].t + 0.05))
