"""Tribal Village, nothing moves under a finger: after a Hydris card, "Hunting Net in front of
whom?" asks with buttons that never sit where the next player's tribe buttons come, so the next
player's first tap cannot put the net on someone (six players, huge text, 800x480)."""

from __future__ import annotations

import os
import random
from collections.abc import Generator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.app

PLAYERS = ("Ana", "Ben", "Cy", "Dee", "Eli", "Fay")
TRIBES = ["Palaudis", "Floris", "Hydris", "Nimbus", "Luftles", "Ignis", "Boletus", "Silicus"]


def _rect(widget: Any) -> tuple[float, float, float, float]:
    x, y = widget.to_window(widget.x, widget.y)
    return (x, y, x + widget.width, y + widget.height)


def _overlap(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return min(a[2], b[2]) - max(a[0], b[0]) > 1 and min(a[3], b[3]) - max(a[1], b[1]) > 1


def test_the_net_question_is_never_where_the_next_player_taps(app_dirs: Path) -> None:
    from companion.compose import CompanionApp
    from companion.drive import Driver, ManualClock, run_app
    from rules import Setup

    shots = Path(os.environ.get("TRIBAL_NET_SHOTS", str(app_dirs / "shots")))
    app = CompanionApp(clock=ManualClock(), journal_file=app_dirs / "j.sqlite3")
    seen: dict[str, Any] = {}

    def script(d: Driver) -> Generator[int | None, None, None]:
        app.apply_settings(replace(app.settings, text_size="huge"))
        yield 2
        app.start_game(Setup("tribal-village", PLAYERS, {"tribes": TRIBES}, 5))
        yield 2
        scr = app.game_screen
        game = app.session.game
        rng = random.Random(4)
        net = None
        for _ in range(400):  # play on until a Hydris card with its net is the player's
            if game.is_over:
                break
            s = game.state
            if s.phase == "play" and not s.pending and game.current_player is not None:
                net = next((c for c in game.legal_calls() if type(c).__name__ == "Play"
                            and c.player == game.current_player and c.net), None)
                if net is not None:
                    break
            app.session.try_call(game.random_call(rng))
        assert net is not None, "no Hydris with a net came up"
        yield 2
        tribe, value = net.card.rsplit(" ", 1)
        d.tap(scr.buttons[f"tribe:{tribe}"])
        yield 1
        d.tap(scr.buttons[f"value:{value}"])
        yield 2
        question = {k: _rect(b) for k, b in scr.buttons.items()
                    if b.get_root_window() is not None and (k.startswith("net:")
                                                            or k.startswith("ability:"))}
        assert any(k.startswith("net:") for k in question), sorted(scr.buttons)
        d.screenshot(shots / "tribal-village-6-huge-net-question.png")
        d.tap(scr.buttons[f"net:{net.net}"])
        yield 2
        seen["played"] = [e.call for e in game.history][-1]
        seen["net"] = net.text()
        nxt = {k: _rect(b) for k, b in scr.buttons.items()
               if b.get_root_window() is not None and k.startswith("tribe:")}
        seen["tribes"] = sorted(nxt)
        seen["clash"] = [f"{q} over {t}" for q, qr in question.items() for t, tr in nxt.items()
                         if _overlap(qr, tr)]
        d.screenshot(shots / "tribal-village-6-huge-next-player.png")

    run_app(app, script)
    assert seen["played"] == seen["net"]
    assert seen["tribes"], "the next player's tribe buttons"
    assert seen["clash"] == []
