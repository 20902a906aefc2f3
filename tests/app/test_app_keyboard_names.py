"""The on-screen keyboard types names the table takes: no key for a character a player's name
cannot hold, no more than the 16 characters the table's screens show, and Enter goes on to the
next player's name (on the last one it puts the keyboard away)."""

from __future__ import annotations

import os
from collections.abc import Generator
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.app


def refused(ch: str) -> bool:
    """The names check refuses ``ch`` inside a name ("A" + ch + "b")."""
    import rules
    from rules.core import check_player_name

    try:
        check_player_name(f"A{ch}b")
    except rules.SetupError:
        return True
    return False


def test_the_on_screen_keyboard_types_names_and_enter_moves_on(app_dirs: Path) -> None:
    from companion import settings as settings_mod
    from companion.compose import CompanionApp
    from companion.demo.drive import Driver, ManualClock, run_app
    from companion.startcheck import SCREEN_NAME_CHARS

    app = CompanionApp(clock=ManualClock(), journal_file=app_dirs / "j.sqlite3",
                       settings=settings_mod.Settings(keyboard="on-screen"))
    seen: dict[str, Any] = {}

    def script(d: Driver) -> Generator[int | None, None, None]:
        start = app.screens["start"]
        start.choose_game("dice-ocalypse")
        yield 2
        start.set_count(3)
        yield 2
        first, second, third = start.names
        d.tap(first)
        yield 3
        keys = dict(d.keys())
        vk = d.on_screen_keyboard()
        offered = dict(keys)
        # the capitals (Caps Lock: no key is held down) and the accented letters: each layer
        # stays until its key is tapped again
        for key in ("capslock", "accents"):
            d.tap_at(*keys[key])
            yield 2
            seen[f"{key} on"] = vk.layout_mode
            layer = d.keys()
            offered.update(layer)
            if os.environ.get("KEYBOARD_SHOTS"):
                d.screenshot(Path(os.environ["KEYBOARD_SHOTS"]) / f"names-keyboard-{key}.png")
            d.tap_at(*layer[key])
            yield 2
            seen[f"{key} off"] = vk.layout_mode
        seen["typed_keys"] = sorted(k for k in offered if len(k) == 1)
        # a name longer than the table shows: the field stops at 16 characters
        yield from d.type_on_screen("abcdefghijklmnopqrst", erase=len(first.text))
        seen["long"] = first.text
        yield from d.type_on_screen("", erase=len(first.text))
        yield from d.type_on_screen("Ana")
        d.tap_at(*d.keys()["enter"])
        yield 3
        vk = d.on_screen_keyboard()
        seen["after_first_enter"] = (first.focus, second.focus,
                                     vk is not None and vk.parent is not None)
        # on to player 2, the keyboard still up
        assert seen["after_first_enter"] == (False, True, True), seen["after_first_enter"]
        yield from d.type_on_screen("o", erase=0)
        d.tap_at(*d.keys()["accents"])  # "Benoë": an accented letter on its layer
        yield 2
        d.tap_at(*d.keys()["ë"])
        yield 1
        d.tap_at(*d.keys()["accents"])
        yield 2
        d.tap_at(*d.keys()["enter"])
        yield 3
        seen["after_second_enter"] = (second.focus, third.focus)
        d.tap_at(*d.keys()["enter"])  # the last name: the keyboard goes away
        yield 3
        vk = d.on_screen_keyboard()
        seen["after_last_enter"] = (third.focus, vk is not None and vk.parent is not None)
        seen["names"] = [n.text for n in start.names]

    run_app(app, script)
    bad = [k for k in seen["typed_keys"] if refused(k)]
    assert not bad, f"the on-screen keyboard offers characters a name cannot take: {bad}"
    assert {"a", "z", "0", "9", "-", "'", "."} <= set(seen["typed_keys"])
    assert (seen["capslock on"], seen["capslock off"]) == ("shift", "normal")
    assert (seen["accents on"], seen["accents off"]) == ("special", "normal")
    assert {"é", "ë", "ø", "ß", "É"} <= set(seen["typed_keys"])
    assert seen["long"] == "abcdefghijklmnopqrst"[:SCREEN_NAME_CHARS]
    assert seen["after_second_enter"] == (False, True)
    assert seen["after_last_enter"] == (False, False)
    assert seen["names"] == ["Ana", "Benoë", "Cy"]
