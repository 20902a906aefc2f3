"""Nothing moves under a finger on the Tournament's Entrants page: each players' name tapped is
ticked where it is (not removed, so the grid never re-flows), and messages ("Added Ana.", a
refusal) have a fixed place, so four taps at the names meant add exactly those four."""

from __future__ import annotations

from collections.abc import Generator
from pathlib import Path
from typing import Any

import pytest
from tournament_touch import button, open_new_page, shots_folder

pytestmark = pytest.mark.app

KNOWN = ["Ana", "Ben", "Bartholomew", "Cyra", "Dara", "Dee", "Grace", "Hugo"]


def _journal_with_players(path: Path) -> None:
    import rules
    from companion.journal import Journal
    from rules import Entry

    with Journal(path) as j:
        for i in range(0, len(KNOWN), 4):
            game = rules.new_game("dice-ocalypse", KNOWN[i:i + 4], seed=i)
            gid = j.start_game(game.setup, "")
            j.record_call(gid, Entry(game.legal_calls()[0].text()))


def test_tapped_names_are_ticked_in_place_and_messages_do_not_push_them(
        app_dirs: Path) -> None:
    from companion import settings as settings_mod
    from companion.compose import CompanionApp
    from companion.demo.drive import Driver, ManualClock, layout_problems, run_app

    journal = app_dirs / "j.sqlite3"
    _journal_with_players(journal)
    shots = shots_folder(app_dirs)
    app = CompanionApp(clock=ManualClock(), journal_file=journal,
                       settings=settings_mod.Settings(text_size="huge"))
    seen: dict[str, Any] = {"moved": []}

    def where(widget: Any) -> tuple[float, float]:
        return widget.to_window(widget.x, widget.y)

    def script(d: Driver) -> Generator[int | None, None, None]:
        scr = yield from open_new_page(d, app)
        scr.pages["new"].name.text = "Friday Cup"
        d.tap(scr.pages["new"].create_button)
        yield 3
        page = scr.pages["entrants"]
        chips = dict(page.chip_buttons)
        before = {n: where(c) for n, c in chips.items()}
        message_at = where(page.message)
        for name in ("Ana", "Ben", "Dara", "Grace"):  # one tap each, where the name was
            x, y = before[name]
            d.tap_at(x + chips[name].width / 2, y + chips[name].height / 2)
            yield 2
            seen["moved"] += [f"after {name}: {n} moved" for n, c in page.chip_buttons.items()
                              if where(c) != before[n]]
            if where(page.message) != message_at:
                seen["moved"].append(f"after {name}: the message moved")
        seen["message"] = page.message.text
        seen["ticked"] = {n: (c.text, c.disabled) for n, c in page.chip_buttons.items()}
        d.tap(button(page.root, "Add"))  # nothing typed: a refusal, in the same place
        yield 2
        seen["refusal"] = page.message.text
        seen["moved"] += [f"after the refusal: {n} moved"
                          for n, c in page.chip_buttons.items() if where(c) != before[n]]
        seen["entrants"] = [x.name for x in app.tournaments.desk.tournament.entrants()]
        d.screenshot(shots / "tournament-entrants-ticked.png")
        page.name.text = "\u0410na"  # a Cyrillic А: added, with a word in the same place
        d.tap(button(page.root, "Add"))
        yield 2
        seen["look-alike"] = page.message.text
        seen["problems"] = layout_problems(page.message, (800, 480))
        if where(page.message) != message_at:
            seen["moved"].append("after the look-alike: the message moved")
        d.screenshot(shots / "tournament-entrants-look-alike.png")

    run_app(app, script)
    assert seen["moved"] == []
    assert seen["entrants"] == ["Ana", "Ben", "Dara", "Grace"]
    for name in KNOWN:
        taken = name in ("Ana", "Ben", "Dara", "Grace")
        assert seen["ticked"][name] == ((f"{name}: in", True) if taken else (name, False))
    assert seen["message"] == "Added Grace."
    assert seen["refusal"].startswith("Type a name")
    assert seen["look-alike"] == ("Added \u0410na. \u0410na looks like Ana: its 1st letter, "
                                  "\u0410, is Cyrillic.")
    assert seen["problems"] == [], "\n".join(seen["problems"])


def test_an_entrant_is_typed_on_the_names_keyboard_and_enter_adds_it(app_dirs: Path) -> None:
    """The entrant field types on the players' names keyboard (as the start screen's names):
    no key for a character a name cannot hold, 16 characters at most, and Enter adds the name
    with the keyboard still up for the next one."""
    from companion import settings as settings_mod
    from companion.compose import CompanionApp
    from companion.demo.drive import Driver, ManualClock, run_app
    from companion.startcheck import SCREEN_NAME_CHARS
    from companion.widgets import NAME_KEYS

    app = CompanionApp(clock=ManualClock(), journal_file=app_dirs / "j.sqlite3",
                       settings=settings_mod.Settings(keyboard="on-screen"))
    seen: dict[str, Any] = {}

    def script(d: Driver) -> Generator[int | None, None, None]:
        scr = yield from open_new_page(d, app)
        d.tap(scr.pages["new"].create_button)
        yield 3
        page = scr.pages["entrants"]
        seen["no names known"] = page.names_label.text
        d.tap(page.name)
        yield 3
        vk = d.on_screen_keyboard()
        seen["layout"] = vk.layout if vk is not None else None
        offered = d.keys()
        seen["odd keys"] = sorted(k for k in offered if k in "[]\\=/")
        yield from d.type_on_screen("Bartholomew Grace Smith")
        seen["long"] = page.name.text
        yield from d.type_on_screen("", erase=len(page.name.text))
        yield from d.type_on_screen("Ana")
        d.screenshot(shots_folder(app_dirs) / "tournament-entrants-keyboard.png")
        d.tap_at(*d.keys()["enter"])
        yield 3
        vk = d.on_screen_keyboard()
        seen["after enter"] = (page.name.text, page.name.focus,
                               vk is not None and vk.parent is not None)
        seen["count"] = page.count.text
        if not seen["after enter"][2]:
            return  # the keyboard went away: the asserts below say so
        yield from d.type_on_screen("Ben")
        d.tap_at(*d.keys()["enter"])
        yield 3
        seen["entrants"] = [x.name for x in app.tournaments.desk.tournament.entrants()]

    run_app(app, script)
    assert seen["no names known"] == "Type each name, then Enter or Add."  # a new journal
    assert (seen["layout"], seen["odd keys"]) == (NAME_KEYS, [])
    assert seen["long"] == "Bartholomew Grace Smith"[:SCREEN_NAME_CHARS]
    assert seen["after enter"] == ("", True, True)  # added; the keyboard stays for the next
    assert seen["entrants"] == ["Ana", "Ben"]
    assert seen["count"] == "1 entrant"
