"""Is a keyboard to type names on plugged in? Read from the kernel's input device listing."""

from __future__ import annotations

from pathlib import Path

from hardware.keyboard import LETTER_KEYS, parse_devices, typing_keyboards


def mask(keys: set[int], words: int = 6, width: int = 64) -> str:
    """A KEY= bitmask as the kernel prints it: hex words, most significant first."""
    out = []
    for i in reversed(range(words)):
        value = sum(1 << (k - i * width) for k in keys if i * width <= k < (i + 1) * width)
        out.append(f"{value:x}")
    while len(out) > 1 and out[0] == "0":
        out.pop(0)
    return " ".join(out)


def block(name: str, handlers: str, keys: set[int], width: int = 64) -> str:
    return (f'I: Bus=0003 Vendor=0001 Product=0002 Version=0110\nN: Name="{name}"\n'
            f"P: Phys=usb-0000:01:00.0-1/input0\nH: Handlers={handlers}\n"
            f"B: EV=120013\nB: KEY={mask(keys, width=width)}\n")


PI_WITHOUT_KEYBOARD = "\n".join([
    block("vc4-hdmi-0", "kbd event0", {28, 103, 105, 106, 108, 352}),  # CEC remote keys
    block("10-0038 generic ft5x06 (79)", "mouse0 event2", {330}),  # the touch panel
    block("pwr_button", "kbd event3", {116}),
])
USB_KEYBOARD = block("Logitech USB Keyboard", "sysrq kbd leds event4", set(range(1, 128)))


def test_a_pi_with_only_its_touch_panel_and_hdmi_remotes_has_no_typing_keyboard(
        tmp_path: Path) -> None:
    listing = tmp_path / "devices"
    listing.write_text(PI_WITHOUT_KEYBOARD, encoding="utf-8")
    assert [d.name for d in parse_devices(PI_WITHOUT_KEYBOARD)] == [
        "vc4-hdmi-0", "10-0038 generic ft5x06 (79)", "pwr_button"]
    assert typing_keyboards(listing) == []


def test_a_plugged_in_keyboard_is_found_on_64_and_32_bit_kernels(tmp_path: Path) -> None:
    listing = tmp_path / "devices"
    listing.write_text(PI_WITHOUT_KEYBOARD + "\n" + USB_KEYBOARD, encoding="utf-8")
    assert typing_keyboards(listing) == ["Logitech USB Keyboard"]
    thirty_two = block("Cherry keyboard", "kbd event5", set(range(1, 128)), width=32)
    assert parse_devices(thirty_two)[0].keys >= set(LETTER_KEYS)
    assert parse_devices(thirty_two)[0].types_letters


def test_an_unreadable_or_odd_listing_means_no_keyboard(tmp_path: Path) -> None:
    assert typing_keyboards(tmp_path / "missing") == []
    odd = 'N: Name="odd"\nB: KEY=zz not hex\n'
    assert parse_devices(odd)[0].keys == frozenset()
