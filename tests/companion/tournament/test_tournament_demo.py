"""`companion tournament demo`: both tournaments end to end over a real Mosquitto."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.cli import main
from rules.tournament import Tournament

pytestmark = pytest.mark.slow


def test_demo_plays_both_tournaments_to_the_end(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "demo"
    assert main(["tournament", "demo", "--output", str(out), "--no-screenshots"]) == 0
    printed = capsys.readouterr().out
    assert "standings page: http://127.0.0.1:" in printed  # served, not one box
    for slug, entrants, stages in (
            ("eye-for-an-eye-16", 16, {"qualifying", "elimination-1", "elimination-2", "final"}),
            ("dice-forge-12", 12, {"group", "final"})):
        events = json.loads((out / slug / "events.json").read_text())
        t = Tournament.from_events(events)
        assert t.is_over and len(t.entrants()) == entrants
        assert stages <= {r.stage for r in t.rounds}
        assert all(r.complete for r in t.rounds)
        games = sorted((out / slug / "games").glob("*.game"))
        assert len(games) == sum(len(r.tables) for r in t.rounds)
        # Every result came from a table over the network.
        assert all(res.source.startswith("table-") for r in t.rounds for res in r.results.values())
        standings = (out / slug / "standings.txt").read_text()
        assert f"Over. Winner: {t.winner()}" in standings
        assert json.loads((out / slug / "standings.json").read_text())["winner"] == t.winner()
    assert (out / "standings.txt").read_text().count("Over. Winner:") == 2
