"""The BG Stats code at the end of every game, by touch (issue 44, item 11): each game's own
final screen has a "BG Stats" button beside its way out (Eye for an Eye's and the Occulites'
offered only New game / Finish; Dice Forge's and Tribal Village's had it only behind
"Final standings"), and a game ended by agreement offers its play at once. The dialog is
as tall as its code, the code in whole pixels of at least 3 a module with the result and
what to do beside it (it used 240 px of a mostly empty dialog); at six players, huge text,
800x480."""

from __future__ import annotations

import json
import os
import urllib.parse
from collections.abc import Generator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from conftest import LONG_NAMES, leave_game

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
GAMES = ("eye-for-an-eye-round", "occulites", "dice-ocalypse", "dice-forge", "tribal-village")

pytestmark = pytest.mark.app


def _open_code() -> Any:
    """The BG Stats dialog open on the window, if one is."""
    from kivy.core.window import Window

    from companion.frame import PlayCode

    return next((c for c in Window.children if isinstance(c, PlayCode)), None)


def _final_button(screen: Any) -> Any:
    """The "BG Stats" button the screen shows (not one behind a menu or a dialog)."""
    from kivy.uix.button import Button

    found = [w for w in screen.walk() if isinstance(w, Button) and w.text == "BG Stats"
             and w.opacity > 0 and not w.disabled and w.get_root_window() is not None]
    return found[0] if found else None


def _module_px(view: Any, link: str) -> int:
    """Pixels a module of the dialog's code takes (its picture over the code's modules)."""
    from kivy.uix.image import Image

    from companion.tournament.join import qr_rgb

    image = next(w for w in view.walk() if isinstance(w, Image))
    return int(image.texture.size[0] // len(qr_rgb(link, scale=1)))


def test_every_games_final_screen_and_an_ending_by_agreement_offer_the_play(
        app_dirs: Path) -> None:
    import rules
    from companion.compose import CompanionApp
    from companion.demo.drive import Driver, ManualClock, layout_problems, run_app
    from companion.ending import leaders
    from companion.history import History
    from companion.history.bgstats import bgstats_play
    from rules import Setup

    app = CompanionApp(clock=ManualClock(), journal_file=app_dirs / "j.sqlite3")
    shots = Path(os.environ.get("PLAY_CODE_SHOTS", str(app_dirs / "shots")))
    seen: dict[str, Any] = {"codes": {}, "problems": [], "missing": []}

    def script(d: Driver) -> Generator[int | None, None, None]:
        app.apply_settings(replace(app.settings, text_size="huge"))
        yield 2
        for name in GAMES:
            parsed = rules.parse_game_file((EXAMPLES / f"{name}.game").read_text("utf-8"))
            app.start_game(parsed.setup)
            yield 2
            s = app.session
            assert s is not None
            for entry in parsed.entries:
                s.call(entry.call)
            assert s.game.is_over, name
            yield 3
            screen = app.sm.current_screen
            for _ in range(8):  # the Occulites step through the last cards to Final scores
                nxt = getattr(screen, "controls", {}).get("next")
                if _final_button(screen) is not None or nxt is None or nxt.disabled:
                    break
                d.tap(nxt)
                yield 2
            button = _final_button(screen)
            if button is None:
                seen["missing"].append(f"{name}: no BG Stats on {screen.name}")
                app.end_game()
                yield 2
                continue
            d.screenshot(shots / f"final-{name}-huge.png")
            d.tap(button)
            yield 3
            view = _open_code()
            assert view is not None, name
            seen["codes"][name] = (s.game_id, view.link, _module_px(view, view.link),
                                   view.height, view.children[0].children[-1].height)
            seen["problems"] += [f"{name}: {p}" for p in layout_problems(view, (800, 480))]
            d.screenshot(shots / f"play-code-final-{name}-huge.png")
            close = next(w for w in view.walk() if getattr(w, "text", "") == "Close"
                         and type(w).__name__ != "Label")
            d.tap(close)
            yield 2
            assert _open_code() is None
            app.end_game()
            yield 2
        # six players ended by agreement: the play is offered at once, over the start screen
        app.start_game(Setup("dice-ocalypse", LONG_NAMES[:6], {}, 11))
        yield 2
        s = app.session
        assert s is not None
        for _ in range(60):
            legal = list(s.game.legal_calls())
            bank = [c for c in legal if c.text().endswith("Bank")]
            s.try_call(bank[0] if bank else legal[len(s.game.history) % len(legal)])
        assert not s.game.is_over
        seen["agreed"], seen["top"] = s.game_id, leaders(s.game)
        yield from leave_game(d, app.sm.current_screen, "End game")
        yield 2
        view = _open_code()
        assert app.session is None and app.sm.current == "start"
        assert view is not None, "no BG Stats code after End game"
        seen["agreed_code"] = (view.link, _module_px(view, view.link), view.height,
                               view.children[0].children[-1].height)
        seen["agreed_words"] = " ".join(getattr(w, "text", "") for w in view.walk())
        seen["problems"] += [f"agreed: {p}" for p in layout_problems(view, (800, 480))]
        d.screenshot(shots / "play-code-agreed-6-huge.png")

    run_app(app, script)
    assert seen["missing"] == [], seen["missing"]
    assert seen["problems"] == [], "\n".join(seen["problems"])

    def play_of(link: str) -> dict[str, Any]:
        return dict(json.loads(urllib.parse.unquote(link.split("data=", 1)[1])))

    with History(app_dirs / "j.sqlite3") as history:
        history.refresh()
        for name, (gid, link, px, height, side) in seen["codes"].items():
            assert play_of(link) == bgstats_play(history.game(gid)), name
            # the code in whole pixels, 3 or more a module, and the dialog no taller than it
            assert px >= 3 and height <= side + 20 + 1, (name, px, height, side)
        agreed = history.game(seen["agreed"])
        link, px, height, side = seen["agreed_code"]
        assert play_of(link) == bgstats_play(agreed)
        assert px >= 3 and height <= side + 20 + 1
    winners = [p["name"] for p in play_of(link)["players"] if p["winner"]]
    assert winners == list(seen["top"]) and agreed.ending == "agreed"
    assert "Ended by agreement" in seen["agreed_words"]
    assert play_of(link)["comments"].startswith("Ended by agreement")
