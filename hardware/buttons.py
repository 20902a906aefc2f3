"""Arcade call buttons on GPIO: a button map from the config, press counting, holds, debounce, LEDs.

The hardware layer knows seats and buttons, not games. It reports:

- :class:`ButtonPress` at once for every accepted press (``count`` so far), for instant feedback;
- :class:`ButtonCall` when a count is complete: "Defend pressed twice" is
  ``ButtonCall(seat="P1", action="defend", count=2)``; the app turns it into "Parry 2";
- :class:`ButtonHold` when a button is held: ``meaning`` is "undo" or "cycle" (cycling repeats
  while the button stays down, e.g. to step through targets).

Timing rules, designed for fast play (all configurable under ``[buttons]``):

- debounce: an edge less than ``debounce`` s after the last accepted edge of that button is
  contact bounce and ignored; the button's real level is re-read when the lockout ends, so a very
  short tap is never lost or left "stuck down". The first edge counts at once (no added delay).
- counting: presses of the same button add up while each comes within ``multi_press_window`` s
  of the previous release; the call is delivered when the window closes. Pressing a different
  button of the same seat closes the count at once (Defend, Defend, Attack: "Defend 2" is sent as
  Attack is pressed). A button with ``multi_press = false`` and no hold action sends its call the
  moment it is pressed. ``max_count`` closes a count early.
- a call's time ``t`` is that of its first press, so a real-time game can order calls fairly.
- hold: down for ``hold_time`` s is a hold, not a press; it cancels the presses of that button
  still being counted (reported as ``cancelled``), so "hold to undo" also works as "I miscounted".
- seats are independent: two players pressing at the same instant both register.

Callbacks run on gpiozero's edge thread or the pad's timer thread: keep them short (in the app,
hand over with Kivy's ``Clock.schedule_once``).
"""

from __future__ import annotations

import threading
import time
import tomllib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from types import TracebackType
from typing import Annotated, Any, Literal, get_args

import msgspec
from msgspec import UNSET, UnsetType

from hardware.errors import ButtonConfigError, HardwareError
from hardware.schema import checked

Clock = Callable[[], float]

#: Call parts a button may carry unless the app passes its own vocabulary.
DEFAULT_ACTIONS: tuple[str, ...] = (
    "move", "attack", "defend", "heal", "power", "confirm", "cancel", "undo", "next", "target",
)
#: What holding a button does: undo the last call, cycle its value, or nothing.
Hold = Literal["undo", "cycle", "none"]
HOLD_MEANINGS: tuple[str, ...] = get_args(Hold)

#: Physical pin of the 40-pin header (Pi 2 to Pi 5) -> Broadcom GPIO number.
BOARD_TO_BCM: dict[int, int] = {
    3: 2, 5: 3, 7: 4, 8: 14, 10: 15, 11: 17, 12: 18, 13: 27, 15: 22, 16: 23, 18: 24, 19: 10,
    21: 9, 22: 25, 23: 11, 24: 8, 26: 7, 27: 0, 28: 1, 29: 5, 31: 6, 32: 12, 33: 13, 35: 19,
    36: 16, 37: 26, 38: 20, 40: 21,
}
BCM_TO_BOARD = {bcm: board for board, bcm in BOARD_TO_BCM.items()}

#: Two seats, five buttons and an LED each; documented with wiring in docs/hardware.md.
DEFAULT_BUTTONS_TOML = """\
[buttons]
debounce = 0.025            # s: edges closer than this to the last accepted one are bounce
multi_press_window = 0.35   # s after a release in which another press adds to the count
hold_time = 0.8             # s held down = a hold (undo / cycle), not a press
hold_repeat = 0.6           # s between repeats of a "cycle" hold
pull_up = true              # buttons wired from the GPIO pin to GND

[buttons.seats.P1]
move = 5
attack = 6
defend = { pin = 13, hold = "undo" }
heal = 19
power = { pin = 26, hold = "cycle" }
led = 12

[buttons.seats.P2]
move = 17
attack = 27
defend = { pin = 22, hold = "undo" }
heal = 23
power = { pin = 24, hold = "cycle" }
led = 25
"""


# -- events ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ButtonPress:
    """A press was accepted; ``count`` is how many presses of this button are counted so far."""

    seat: str
    action: str
    count: int
    t: float


@dataclass(frozen=True)
class ButtonCall:
    """A finished call part: ``action`` pressed ``count`` times, the first press at ``t``."""

    seat: str
    action: str
    count: int
    t: float


@dataclass(frozen=True)
class ButtonHold:
    """A button held down: ``meaning`` from the map; ``repeat`` counts cycle steps from 1."""

    seat: str
    action: str
    meaning: str
    repeat: int
    cancelled: int
    t: float


ButtonEvent = ButtonPress | ButtonCall | ButtonHold


# -- the map ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class ButtonSpec:
    """One button: its pin (``"GPIO13"``), seat, action and behaviour."""

    pin: str
    seat: str
    action: str
    hold: str = "undo"
    multi_press: bool = True
    max_count: int = 9

    @property
    def sends_at_once(self) -> bool:
        """True when a press is a complete call (no counting, no hold to wait for)."""
        return not self.multi_press and self.hold == "none"


@dataclass(frozen=True)
class ButtonMap:
    """Every button and seat LED, with the timing rules. Build with :meth:`from_config`."""

    buttons: tuple[ButtonSpec, ...]
    leds: tuple[tuple[str, str], ...] = ()
    debounce: float = 0.025
    multi_press_window: float = 0.35
    hold_time: float = 0.8
    hold_repeat: float = 0.6
    pull_up: bool = True

    @property
    def seats(self) -> tuple[str, ...]:
        """Seats in config order."""
        out: list[str] = []
        for b in self.buttons:
            if b.seat not in out:
                out.append(b.seat)
        for seat, _ in self.leds:
            if seat not in out:
                out.append(seat)
        return tuple(out)

    def led_pin(self, seat: str) -> str | None:
        """The LED pin of ``seat``, if it has one."""
        return dict(self.leds).get(seat)

    @classmethod
    def default(cls) -> ButtonMap:
        """The two-seat map of :data:`DEFAULT_BUTTONS_TOML`."""
        return cls.from_toml(DEFAULT_BUTTONS_TOML)

    @classmethod
    def from_toml(cls, text: str, *, actions: Iterable[str] = DEFAULT_ACTIONS) -> ButtonMap:
        """Parse TOML text holding a ``[buttons]`` table."""
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise ButtonConfigError(f"button map is not valid TOML: {exc}") from exc
        return cls.from_config(data, actions=actions)

    @classmethod
    def from_config(
        cls, config: Mapping[str, Any], *, actions: Iterable[str] = DEFAULT_ACTIONS
    ) -> ButtonMap:
        """Build from a parsed config (the ``[buttons]`` table). See DEFAULT_BUTTONS_TOML.

        Raised when ...: ButtonConfigError naming the key and pin for a pin used twice, an
        unknown action or hold meaning, a pin that is not a GPIO, or a value of the wrong type.
        """
        if config.get("buttons") is None:
            raise ButtonConfigError("config has no [buttons] table")
        table = checked(config["buttons"], ButtonsTable, "[buttons]", ButtonConfigError)
        known = tuple(actions)
        timing = {key: value for key in ("debounce", "multi_press_window", "hold_time",
                                         "hold_repeat", "pull_up")
                  if (value := getattr(table, key)) is not UNSET}
        seats = table.seats
        if not seats:
            raise ButtonConfigError(
                "[buttons.seats] is missing or empty: add e.g. [buttons.seats.P1] with move = 5"
            )
        used: dict[str, str] = {}
        buttons: list[ButtonSpec] = []
        leds: list[tuple[str, str]] = []
        for seat, seat_table in seats.items():
            where = f"[buttons.seats.{seat}]"
            if not isinstance(seat_table, Mapping):
                raise ButtonConfigError(f"{where} must be a table of action = pin")
            for action, value in seat_table.items():
                key = f"{where} {action}"
                if action == "led":
                    pin = _pin(key, value)
                    _claim(used, pin, key)
                    leds.append((seat, pin))
                    continue
                if action not in known:
                    raise ButtonConfigError(
                        f"{key}: unknown action {action!r} (pin {value!r}); "
                        f"choose {', '.join(known)} or led"
                    )
                buttons.append(_button(key, seat, action, value, used))
        return cls(buttons=tuple(buttons), leds=tuple(leds), **timing)


def normalise_pin(value: Any, key: str = "pin") -> str:
    """``13``, ``"13"``, ``"GPIO13"``, ``"BCM13"`` or ``"BOARD33"`` -> ``"GPIO13"``."""
    return _pin(key, value)


def _pin(key: str, value: Any) -> str:
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise ButtonConfigError(
            f"{key}: a pin must be a GPIO number or a name like 'GPIO13' or 'BOARD33', "
            f"got {value!r}"
        )
    text = str(value).strip().upper()
    number: int | None = None
    if text.isdigit():
        number = int(text)
    elif text.startswith(("GPIO", "BCM")) and text.lstrip("GPIOBCM").isdigit():
        number = int(text.lstrip("GPIOBCM"))
    elif text.startswith("BOARD") and text[5:].isdigit():
        board = int(text[5:])
        if board not in BOARD_TO_BCM:
            raise ButtonConfigError(
                f"{key}: header pin {board} ({value!r}) is power, ground or absent, not a GPIO"
            )
        number = BOARD_TO_BCM[board]
    if number is None or not 0 <= number <= 27:
        raise ButtonConfigError(f"{key}: {value!r} is not a GPIO pin of the 40-pin header (0-27)")
    return f"GPIO{number}"


def _claim(used: dict[str, str], pin: str, key: str) -> None:
    if pin in used:
        raise ButtonConfigError(f"{key}: pin {pin} is already used by {used[pin]}")
    used[pin] = key


class ButtonOptions(msgspec.Struct, forbid_unknown_fields=True):
    """A button given as a table: ``defend = { pin = 13, hold = "cycle" }``."""

    pin: int | str
    hold: Hold = "undo"
    multi_press: bool = True
    max_count: Annotated[int, msgspec.Meta(ge=1)] = 9


Seconds = Annotated[float, msgspec.Meta(gt=0)]


class ButtonsTable(msgspec.Struct, forbid_unknown_fields=True):
    """The ``[buttons]`` table: the timing rules and, per seat, action = pin (or a table of
    :class:`ButtonOptions`); the actions and pins are checked by :meth:`ButtonMap.from_config`."""

    debounce: Seconds | UnsetType = UNSET
    multi_press_window: Seconds | UnsetType = UNSET
    hold_time: Seconds | UnsetType = UNSET
    hold_repeat: Seconds | UnsetType = UNSET
    pull_up: bool | UnsetType = UNSET
    seats: dict[str, Any] = {}


def _button(key: str, seat: str, action: str, value: Any, used: dict[str, str]) -> ButtonSpec:
    if isinstance(value, Mapping):
        options = checked(value, ButtonOptions, key, ButtonConfigError)
        spec = ButtonSpec(_pin(key, options.pin), seat, action, options.hold,
                          options.multi_press, options.max_count)
    else:
        spec = ButtonSpec(_pin(key, value), seat, action)
    _claim(used, spec.pin, key)
    return spec


# -- the logic (pure: no GPIO, no clock of its own) --------------------------------------------


@dataclass
class _State:
    spec: ButtonSpec
    stable: bool = False  # debounced level: True = pressed
    raw: bool = False  # last level the pin reported
    last_edge: float = float("-inf")
    press_t: float = 0.0
    release_t: float = 0.0
    pending: int = 0
    first_t: float = 0.0
    holds: int = 0


@dataclass
class CallInterpreter:
    """Turns debounced button edges into presses, calls and holds. Deterministic: time is given.

    Feed it ``edge(pin, pressed, t)`` from the GPIO callbacks and ``tick(t)`` from a timer at or
    after :meth:`next_deadline`; each returns the events that became due, in order.
    """

    bmap: ButtonMap
    _states: dict[str, _State] = field(init=False)

    def __post_init__(self) -> None:
        self._states = {b.pin: _State(b) for b in self.bmap.buttons}

    def is_pressed(self, pin: str) -> bool:
        """Debounced level of ``pin``."""
        return self._states[pin].stable

    def edge(self, pin: str, pressed: bool, t: float) -> list[ButtonEvent]:
        """The pin of a button changed level at time ``t``."""
        try:
            s = self._states[pin]
        except KeyError:
            raise HardwareError(f"edge on {pin}, which is not in the button map") from None
        out = self.tick(t)
        s.raw = pressed
        if t - s.last_edge < self.bmap.debounce or pressed == s.stable:
            return out  # bounce (re-checked when the lockout ends) or a repeated level
        self._accept(s, pressed, t, out)
        return out

    def tick(self, t: float) -> list[ButtonEvent]:
        """Deliver what time alone has made due: settled bounces, holds, closed counts."""
        out: list[ButtonEvent] = []
        m = self.bmap
        for s in self._states.values():
            if s.raw != s.stable and t >= s.last_edge + m.debounce:
                self._accept(s, s.raw, t, out)
            if s.stable and s.spec.hold != "none":
                due = s.press_t + m.hold_time + s.holds * m.hold_repeat
                if t >= due and (s.holds == 0 or s.spec.hold == "cycle"):
                    cancelled = max(s.pending - 1, 0) if s.holds == 0 else 0
                    s.pending = 0
                    s.holds += 1
                    out.append(ButtonHold(s.spec.seat, s.spec.action, s.spec.hold, s.holds,
                                          cancelled, due))
            if s.pending and not s.stable and t >= s.release_t + m.multi_press_window:
                out.append(self._flush(s))
        return out

    def next_deadline(self) -> float | None:
        """Earliest time at which :meth:`tick` has something to do (None: nothing pending)."""
        m = self.bmap
        times: list[float] = []
        for s in self._states.values():
            if s.raw != s.stable:
                times.append(s.last_edge + m.debounce)
            if s.stable and s.spec.hold != "none" and (s.holds == 0 or s.spec.hold == "cycle"):
                times.append(s.press_t + m.hold_time + s.holds * m.hold_repeat)
            if s.pending and not s.stable:
                times.append(s.release_t + m.multi_press_window)
        return min(times) if times else None

    def _flush(self, s: _State) -> ButtonCall:
        call = ButtonCall(s.spec.seat, s.spec.action, s.pending, s.first_t)
        s.pending = 0
        return call

    def _accept(self, s: _State, pressed: bool, t: float, out: list[ButtonEvent]) -> None:
        s.stable = pressed
        s.last_edge = t
        spec = s.spec
        if pressed:
            for other in self._states.values():  # another button of the seat closes its count
                if other is not s and other.spec.seat == spec.seat and other.pending:
                    if other.stable:
                        other.pending = 0  # still held: it becomes a hold or a fresh press
                    else:
                        out.append(self._flush(other))
            if s.pending == 0:
                s.first_t = t
            s.pending += 1
            s.press_t = t
            s.holds = 0
            out.append(ButtonPress(spec.seat, spec.action, s.pending, t))
            if spec.sends_at_once or (spec.hold == "none" and s.pending >= spec.max_count):
                out.append(self._flush(s))
        else:
            s.release_t = t
            if s.holds:
                s.pending = 0
            elif s.pending and (not spec.multi_press or s.pending >= spec.max_count):
                out.append(self._flush(s))


# -- GPIO ------------------------------------------------------------------------------------


class ButtonPad:
    """The button map on real (or mock) GPIO pins, delivering events to ``on_event``.

    Pins come from gpiozero's pin factory (``GPIOZERO_PIN_FACTORY``; ``lgpio`` on a Pi 5,
    ``mock`` in tests) or ``pin_factory=``. gpiozero's own ``bounce_time`` is not used: debounce,
    counting and holds are done by :class:`CallInterpreter` on ``clock``. With
    ``run_timer=False`` nothing runs in the background and tests call :meth:`tick`.
    """

    def __init__(
        self,
        bmap: ButtonMap,
        on_event: Callable[[ButtonEvent], None],
        *,
        pin_factory: Any = None,
        clock: Clock = time.monotonic,
        run_timer: bool = True,
    ) -> None:
        from gpiozero import DigitalInputDevice

        self.bmap = bmap
        self.on_event = on_event
        self._clock = clock
        self._logic = CallInterpreter(bmap)
        self._lock = threading.RLock()
        self._wake = threading.Condition(self._lock)
        self._closed = False
        self._devices: dict[str, Any] = {}
        self._thread: threading.Thread | None = None
        for spec in bmap.buttons:
            try:
                dev = DigitalInputDevice(
                    spec.pin, pull_up=bmap.pull_up, bounce_time=None, pin_factory=pin_factory
                )
            except Exception as exc:
                self.close()
                raise HardwareError(
                    f"could not set up button {spec.seat} {spec.action} on {spec.pin}: {exc}"
                ) from exc
            self._devices[spec.pin] = dev
            dev.when_activated = self._handler(spec.pin, True)
            dev.when_deactivated = self._handler(spec.pin, False)
        if run_timer:
            self._thread = threading.Thread(target=self._run, name="buttons-timer", daemon=True)
            self._thread.start()

    def _handler(self, pin: str, pressed: bool) -> Callable[[], None]:
        def handle() -> None:
            self.edge(pin, pressed)

        return handle

    def edge(self, pin: str, pressed: bool, t: float | None = None) -> None:
        """Feed one edge (called by gpiozero; tests may call it with their own ``t``)."""
        with self._lock:
            if self._closed:
                return
            events = self._logic.edge(pin, pressed, self._clock() if t is None else t)
            self._deliver(events)
            self._wake.notify()

    def tick(self, t: float | None = None) -> None:
        """Deliver events that time has made due (the timer thread does this by itself)."""
        with self._lock:
            if not self._closed:
                self._deliver(self._logic.tick(self._clock() if t is None else t))

    def is_pressed(self, seat: str, action: str) -> bool:
        """Debounced state of a seat's button."""
        for spec in self.bmap.buttons:
            if spec.seat == seat and spec.action == action:
                return self._logic.is_pressed(spec.pin)
        raise KeyError(f"seat {seat!r} has no {action!r} button")

    def _deliver(self, events: list[ButtonEvent]) -> None:
        for event in events:
            self.on_event(event)

    def _run(self) -> None:
        with self._lock:
            while not self._closed:
                deadline = self._logic.next_deadline()
                timeout = None if deadline is None else max(deadline - self._clock(), 0.0)
                if timeout is None or timeout > 0:
                    self._wake.wait(timeout=timeout)
                if self._closed:
                    return
                self._deliver(self._logic.tick(self._clock()))

    def close(self) -> None:
        """Release the pins and stop the timer. Safe to call more than once."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            self._wake.notify_all()
        for dev in self._devices.values():
            dev.close()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=1.0)

    def __enter__(self) -> ButtonPad:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


#: A seat's light: lit while a reaction is possible, blinking on a knockout, or off.
Light = Literal["off", "on", "blink"]


class SeatLeds:
    """One LED per seat: lit while a reaction is possible, blinking on a knockout."""

    def __init__(self, bmap: ButtonMap, *, pin_factory: Any = None,
                 blink_on: float = 0.25, blink_off: float = 0.25) -> None:
        from gpiozero import LED

        self._leds: dict[str, Any] = {}
        self._state: dict[str, Light] = {}
        self.blink_on, self.blink_off = blink_on, blink_off
        for seat, pin in bmap.leds:
            try:
                self._leds[seat] = LED(pin, pin_factory=pin_factory)
            except Exception as exc:
                self.close()
                raise HardwareError(f"could not set up the LED of {seat} on {pin}: {exc}") from exc
            self._state[seat] = "off"

    @property
    def seats(self) -> tuple[str, ...]:
        """Seats that have an LED."""
        return tuple(self._leds)

    def state(self, seat: str) -> Light | Literal["none"]:
        """"off", "on" or "blink" ("none" for a seat without an LED)."""
        return self._state.get(seat, "none")

    def reaction(self, seat: str, possible: bool) -> None:
        """Light (or put out) the seat's LED: a reaction such as Parry is possible now."""
        led = self._leds.get(seat)
        if led is None:
            return
        if possible:
            led.on()
        else:
            led.off()
        self._state[seat] = "on" if possible else "off"

    def knockout(self, seat: str) -> None:
        """Blink the seat's LED until told otherwise."""
        led = self._leds.get(seat)
        if led is None:
            return
        led.blink(on_time=self.blink_on, off_time=self.blink_off, background=True)
        self._state[seat] = "blink"

    def off(self, seat: str | None = None) -> None:
        """Put out one seat's LED, or all."""
        for s in [seat] if seat else list(self._leds):
            self.reaction(s, False)

    def close(self) -> None:
        """Release the LED pins. Safe to call more than once."""
        for led in self._leds.values():
            led.close()
        self._leds.clear()

    def __enter__(self) -> SeatLeds:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
