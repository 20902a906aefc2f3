"""Calls by touch on a character with several figures (Echo and his Guards)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

import rules
from companion.games.eye_for_an_eye.calls import ArenaCalls
from companion.journal import Journal
from companion.session import TableSession
from rules.eye_for_an_eye import EyeForAnEye


@pytest.fixture
def session(tmp_path: Path) -> Iterator[ArenaCalls]:
    with Journal(tmp_path / "j.sqlite3") as j:
        setup = rules.Setup("eye-for-an-eye", ("Ana", "Ben"),
                            {"characters": ["grubic", "echo"]}, 1)
        s = TableSession.new(j, setup, "echo test").typed(EyeForAnEye)
        s.start_clock()
        calls = ArenaCalls(s)
        s.subscribe(calls.on_session)  # as its table hands the session's changes
        yield calls


def test_a_guard_is_chosen_by_name_and_hit(session: ArenaCalls) -> None:
    assert [f[0] for f in session.figures_to_target("Ben")] == [
        "Echo", "Guard 1", "Guard 2", "Guard 3", "Guard 4"]
    assert session.figures_to_target("Ana") == []  # one figure: the player is the target
    session.tap_action("Ana", "attack")
    session.tap_count(2)
    assert session.builder.needs_target
    session.tap_target("Guard 2")
    assert session.session.log[-1].call == "Grubic: Spear Thrust 2 on Guard 2"
    session.session.call("Hits land on Guard 2")
    assert ("Guard 2", 0, 2) in session.seat_of("Ben").figures
    # A knocked-out Guard is no longer offered.
    assert "Guard 2" not in [f[0] for f in session.figures_to_target("Ben")]


def test_an_unknown_target_is_named(session: ArenaCalls) -> None:
    with pytest.raises(rules.InvalidCall, match="'Guard 9': no such player or figure"):
        session.target_name("Guard 9")
