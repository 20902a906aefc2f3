"""The director's Tournament screen, in the real app, shows what the director refused.

The app serves a tournament (its own Mosquitto on loopback); table 1's credentials send a
report nested thousands deep (the message that once stopped the director for good): the
Network page says a message was refused, from which table and why, and a good report is still
counted. When the director's network loop stops, the page says "director not receiving".
"""

from __future__ import annotations

import sys
from collections.abc import Generator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from tournament_touch import new_tournament, port_open, wait_for

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "companion"))
from hostile_mqtt import Attacker

pytestmark = pytest.mark.app


def test_the_network_page_shows_a_refused_report(app_dirs: Path) -> None:
    from companion.compose import CompanionApp
    from companion.demo.drive import Driver, ManualClock, run_app
    from companion.tournament.desk import TournamentDesk
    from companion.tournament.store import TournamentStore

    journal, config = new_tournament(app_dirs / "data", 4, {"game": "dice-forge",
                                                            "rounds": 1, "final-size": 2})
    with TournamentStore(journal) as store:
        desk = TournamentDesk(store, "tt01")
        desk.set_config(replace(desk.config, serving=True))  # served again at start
        desk.draw_next()
        seats = desk.tournament.rounds[0].table(1).seats
        secret = desk.config.table_secrets[1]
    app = CompanionApp(clock=ManualClock(), journal_file=journal)
    seen: dict[str, Any] = {}

    def script(d: Driver) -> Generator[int | None, None, None]:
        yield 2
        hub = app.tournaments
        assert hub is not None
        yield from wait_for(lambda: hub.serve_state == "serving", "serving")
        app.show("tournament")
        yield 3
        scr = app.screens["tournament"]
        d.tap(scr.tab_buttons["network"])
        yield 2
        net = scr.pages["network"]
        bad = Attacker(config.port, "tt01", "table-1", secret)
        try:
            ack = bad.send(b'{"report_id": "x1", "placings": ' + b"[" * 5000 + b"]" * 5000
                           + b"}")
            seen["hostile"] = ack.status
            seen["good"] = bad.good(1, 1, tuple((s,) for s in seats)).status
        finally:
            bad.close()
        yield from wait_for(lambda: "1 message(s) refused" in net.info.text,
                            "the Network page to show the refusal")
        seen["info"] = net.info.text
        director = hub.service.director if hub.service is not None else None
        assert director is not None
        director.stop()  # its network loop ends
        yield from wait_for(lambda: "director not receiving" in net.state.text,
                            "the Network page to say the director is not receiving")
        d.tap(net.serve)  # Stop
        yield from wait_for(lambda: hub.serve_state == "stopped", "the service to stop")
        seen["closed"] = not port_open(config.port) and not port_open(config.web_port)

    run_app(app, script, timeout=240)
    assert seen["hostile"] == "rejected" and seen["good"] == "recorded"
    assert "the last, from table-1: report: nested 5001 deep" in seen["info"]
    assert seen["closed"]
