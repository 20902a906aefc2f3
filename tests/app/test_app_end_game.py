"""End game is a result, by touch: "End game" records the game as finished by agreement with
its standings then, "No result" as won by nobody; neither stays in Resume, the History shows
them as such; a game left before its first call is not kept. The standings are a table of
labels (no monospace text) that fits 800x480 with six long names at huge text."""

from __future__ import annotations

import os
from collections.abc import Generator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from conftest import LONG_NAMES, leave_game, press_in

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

pytestmark = pytest.mark.app


def close_play_code(d: Any) -> Generator[int, None, None]:
    """Close the BG Stats code a game ended by agreement offers."""
    from kivy.core.window import Window

    from companion.frame import PlayCode

    view = next((c for c in Window.children if isinstance(c, PlayCode)), None)
    assert view is not None, "no BG Stats code after an ending by agreement"
    press_in(d, view, "Close")
    yield 1


def test_end_game_records_a_result_and_no_result_and_forgets_a_game_with_no_call(
        app_dirs: Path) -> None:
    from kivy.uix.label import Label

    import rules
    from companion.compose import CompanionApp
    from companion.demo.drive import Driver, ManualClock, layout_problems, run_app
    from companion.ending import leaders
    from companion.history import History
    from rules import Setup

    app = CompanionApp(clock=ManualClock(), journal_file=app_dirs / "j.sqlite3")
    shots = Path(os.environ.get("END_SHOTS", str(app_dirs / "shots")))  # to look at them
    seen: dict[str, Any] = {}

    def bank_calls(n: int) -> None:
        s = app.session
        assert s is not None
        for _ in range(n):
            legal = list(s.game.legal_calls())
            bank = [c for c in legal if c.text().endswith("Bank")]
            s.try_call(bank[0] if bank else legal[len(s.game.history) % len(legal)])

    def script(d: Driver) -> Generator[int | None, None, None]:
        start = app.screens["start"]
        yield 2
        app.apply_settings(replace(app.settings, text_size="huge"))
        yield 2
        # 1. six players, ended with their standings as the result
        app.start_game(Setup("dice-ocalypse", LONG_NAMES[:6], {}, 11))
        yield 2
        bank_calls(60)
        s = app.session
        assert s is not None and not s.game.is_over
        seen["agreed"], seen["top"] = s.game_id, leaders(s.game)
        screen = app.sm.current_screen
        screen.frame.ask_end()
        yield 3
        view = screen.frame.confirm_view
        labels = [w for w in view.walk() if isinstance(w, Label)]
        assert not any("RobotoMono" in str(w.font_name) or "[font=" in w.text for w in labels)
        texts = [w.text for w in labels]
        for name in LONG_NAMES[:6]:  # one cell per name, whole
            assert name in texts, texts
        assert any("wins" in t or "share the win" in t for t in texts), texts
        seen["problems"] = layout_problems(view, (800, 480))
        d.screenshot(shots / "end-game-6-huge.png")
        view.dismiss(animation=False)
        yield 1
        yield from leave_game(d, screen, "End game")
        assert app.session is None and app.sm.current == "start"
        assert app.journal.unfinished() == []
        yield from close_play_code(d)  # offered at once (tests/app/test_app_play_code.py)
        # 2. ended with no result
        app.start_game(Setup("dice-ocalypse", ("Ana", "Ben", "Cy"), {}, 12))
        yield 2
        bank_calls(10)
        seen["none"] = app.session.game_id
        yield from leave_game(d, app.sm.current_screen, "No result")
        assert app.journal.unfinished() == []
        yield from close_play_code(d)
        # 3. left before the first call: not kept at all
        app.start_game(Setup("dice-ocalypse", ("Dee", "Eve"), {}, 13))
        yield 2
        empty = app.session.game_id
        screen = app.sm.current_screen
        screen.frame.ask_end()
        yield 1
        said = " ".join(getattr(w, "text", "") for w in screen.frame.confirm_view.walk())
        assert "not kept" in said, said
        screen.frame.confirm_view.dismiss(animation=False)
        yield from leave_game(d, screen)
        assert app.session is None
        assert all(r.id != empty for r in app.journal.games())
        assert start.resume_button.disabled and start.resume_button.text == "Resume"
        # 4. a game played to its end: Final standings -> BG Stats shows the play's QR code
        parsed = rules.parse_game_file((EXAMPLES / "dice-forge.game").read_text("utf-8"))
        app.start_game(parsed.setup)
        yield 2
        for entry in parsed.entries:
            app.session.call(entry.call)
        assert app.session.game.is_over
        seen["over"] = app.session.game_id
        screen = app.sm.current_screen
        screen.frame.ask_end()
        yield 2
        press_in(d, screen.frame.confirm_view, "BG Stats")
        yield 3
        seen["link"] = screen.frame.play_code_link
        seen["qr_problems"] = layout_problems(screen.frame.play_code_view, (800, 480))
        d.screenshot(shots / "end-game-bgstats-qr.png")
        seen["qr_shot"] = shots / "end-game-bgstats-qr.png"

    run_app(app, script)
    assert seen["problems"] == [], "\n".join(seen["problems"])
    with History(app_dirs / "j.sqlite3") as history:
        history.refresh()
        agreed, none = history.game(seen["agreed"]), history.game(seen["none"])
        assert history.count() == 3  # the game with no call is not in the history
        over = history.game(seen["over"])
    # the screen shows the QR code of this play's link, module for module, whole pixels a
    # module (OpenCV's QR reader does not read codes this large, so the picture is compared with
    # segno's code of the link; the link itself decodes to the play)
    import json
    import urllib.parse

    import cv2
    import numpy as np

    from companion.history.bgstats import bgstats_play
    from companion.tournament.join import qr_rgb

    assert seen["qr_problems"] == [], seen["qr_problems"]
    grey = cv2.imread(str(seen["qr_shot"]), cv2.IMREAD_GRAYSCALE)
    ys, xs = np.where(grey[:, :400] > 250)  # the code's white quiet zone, left of the words
    modules = len(qr_rgb(seen["link"], scale=1))
    px = (ys.max() + 1 - ys.min()) // modules
    assert px >= 3
    shown = grey[ys.min():ys.max() + 1, xs.min():xs.min() + px * modules]
    assert shown.shape == (px * modules, px * modules)
    code = qr_rgb(seen["link"], scale=1)[:, :, 0] < 128  # each module: dark or light
    assert np.array_equal(shown[px // 2::px, px // 2::px] < 128, code)  # at each centre
    play = json.loads(urllib.parse.unquote(seen["link"].split("data=", 1)[1]))
    assert play == bgstats_play(over) and play["sourcePlayId"] == f"tc-{over.digest}"
    assert agreed.is_over and not agreed.can_resume
    assert agreed.winner == " & ".join(seen["top"]) and agreed.note == "ended by agreement"
    assert none.is_over and none.winner is None and "no result" in none.note
