"""The table's arcade buttons and seat lights (docs/hardware.md): opened from the config's
``[buttons]`` map, the lights kept in step with what the game says each seat may do.

A service of the app: the app hands a button's press to the game that uses buttons, and asks
the lights to follow the game after each change; the pins are touched only when a light's
state changes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from companion.contract import Light
from hardware.buttons import ButtonEvent, ButtonMap, ButtonPad, SeatLeds


class SeatButtons:
    """The buttons' pad (None until opened, or where there is no GPIO), the seats they map
    to, and the seats' lights (None without LEDs)."""

    def __init__(self) -> None:
        self.pad: ButtonPad | None = None
        self.seats: tuple[str, ...] = ()
        self.leds: SeatLeds | None = None
        self._lights: tuple[Light, ...] = ()

    def open(self, config: Mapping[str, Any], submit: Callable[[ButtonEvent], None]) -> str:
        """Open the buttons of ``config``'s ``[buttons]`` map (the default two-seat map when it
        has none); ``submit`` gets each press, on the pad's thread. Returns what happened, for
        the log: no GPIO here, or a bad map, leaves the touchscreen to do everything."""
        try:
            bmap = ButtonMap.from_config(config) if "buttons" in config else ButtonMap.default()
            self.pad = ButtonPad(bmap, submit)
        except Exception as e:  # no GPIO here, or a bad map: the touchscreen still works
            return f"buttons: not available ({e})"
        self.seats = bmap.seats
        if bmap.leds:
            try:
                self.leds = SeatLeds(bmap)
            except Exception as e:  # LEDs are optional: the buttons still work
                return f"buttons: seats {', '.join(bmap.seats)}; LEDs not available ({e})"
        return f"buttons: seats {', '.join(bmap.seats)}"

    def show(self, lights: Iterable[Light]) -> None:
        """Each seat's light as the game says (lit while a seat may parry...), in seat order;
        a seat the game says nothing of is off."""
        leds, seats = self.leds, self.seats
        if leds is None or not seats:
            return
        wanted = tuple(lights)
        if wanted == self._lights:
            return
        self._lights = wanted
        for i, hw in enumerate(seats):
            want: Light = wanted[i] if i < len(wanted) else "off"
            state = leds.state(hw)
            if state in (want, "none"):
                continue
            if want == "blink":
                leds.knockout(hw)
            else:
                leds.reaction(hw, want == "on")

    def close(self) -> None:
        if self.pad is not None:
            self.pad.close()
        if self.leds is not None:
            self.leds.close()


__all__ = ["SeatButtons"]
