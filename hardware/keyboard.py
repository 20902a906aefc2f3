"""Is a real keyboard plugged in? (So the app knows whether to offer its on-screen keyboard.)

Linux lists input devices in ``/proc/bus/input/devices``: one block per device, with its name
(``N:``), its handlers (``H:``) and bitmasks of what it can send (``B: KEY=`` the keys, as
hexadecimal words, most significant first). A Raspberry Pi also lists devices that the kernel's
keyboard handler serves but that are no keyboard to type on (the HDMI ports' CEC remotes, a power
button, a touch panel): they can send a handful of keys. A keyboard to type names on can send the
letter keys, so a device counts when its KEY bitmask holds every key from Q to P, A to L and Z to
M (Linux key codes 16-25, 30-38 and 44-50).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

DEVICES = Path("/proc/bus/input/devices")
#: Linux key codes of the letter rows (KEY_Q..KEY_P, KEY_A..KEY_L, KEY_Z..KEY_M).
LETTER_KEYS = (*range(16, 26), *range(30, 39), *range(44, 51))


@dataclass(frozen=True)
class InputDevice:
    name: str
    handlers: tuple[str, ...]
    keys: frozenset[int]

    @property
    def types_letters(self) -> bool:
        return all(k in self.keys for k in LETTER_KEYS)


def _bits(words: str) -> frozenset[int]:
    """The bit numbers set in a kernel bitmask printed as space-separated hex words (the last
    word holds bits 0-63 on a 64-bit kernel, 0-31 on a 32-bit one: the word width is taken
    from the longest word printed, at least 32 bits)."""
    parts = words.split()
    width = 64 if any(len(p) > 8 for p in parts) else 32
    out = set()
    for i, part in enumerate(reversed(parts)):
        value = int(part, 16)
        bit = 0
        while value:
            if value & 1:
                out.add(i * width + bit)
            value >>= 1
            bit += 1
    return frozenset(out)


def parse_devices(text: str) -> list[InputDevice]:
    """The devices of a ``/proc/bus/input/devices`` listing (blocks without a name skipped)."""
    devices = []
    for block in text.split("\n\n"):
        name, keys = "", frozenset[int]()
        handlers: tuple[str, ...] = ()
        for line in block.splitlines():
            if line.startswith("N: Name="):
                name = line.partition("=")[2].strip().strip('"')
            elif line.startswith("H: Handlers="):
                handlers = tuple(line.partition("=")[2].split())
            elif line.startswith("B: KEY="):
                try:
                    keys = _bits(line.partition("=")[2])
                except ValueError:
                    keys = frozenset()
        if name:
            devices.append(InputDevice(name, handlers, keys))
    return devices


def typing_keyboards(path: Path = DEVICES) -> list[str]:
    """The names of the plugged-in keyboards that can type letters ([] when none, or when the
    listing cannot be read: then the on-screen keyboard is the safe choice)."""
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return []
    return [d.name for d in parse_devices(text) if d.types_letters]


__all__ = ["InputDevice", "parse_devices", "typing_keyboards"]
