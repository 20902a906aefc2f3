"""Dice seen on the players' boards become journaled Allocate / Recover calls."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import pytest

import rules
from calibration.zones import ROLL_AREA, rectangle
from companion.games.eye_for_an_eye.board import BoardWatcher, apply_board
from companion.journal import Journal
from companion.session import TableSession
from rules.eye_for_an_eye import EyeForAnEye

# Seat 1 (Ana, Grubic): Parry at x 0-100, Spear Thrust at x 100-200; seat 2 (Ben, Riparian):
# Parry at x 300-400; a roll area for seat 1 that must be ignored here.
ZONES = (rectangle(1, "Parry", 0, 0, 100, 100), rectangle(1, "Spear Thrust", 100, 0, 100, 100),
         rectangle(2, "Parry", 300, 0, 100, 100), rectangle(1, ROLL_AREA, 0, 200, 400, 200),
         rectangle(4, "Parry", 500, 0, 50, 50))


def dice(*centres: tuple[float, float]) -> list[SimpleNamespace]:
    return [SimpleNamespace(center=c) for c in centres]


def said(session: TableSession[EyeForAnEye], w: BoardWatcher, seen: list[SimpleNamespace]
         ) -> list[str]:
    """The board's calls as the screen says them; every refused one says so by its flag."""
    lines = apply_board(session, w, seen)
    assert all(line.refused == line.text.startswith("camera: ") for line in lines)
    return [line.text for line in lines]


@pytest.fixture
def session(tmp_path: Path) -> Iterator[TableSession[EyeForAnEye]]:
    with Journal(tmp_path / "j.sqlite3") as j:
        setup = rules.Setup("eye-for-an-eye", ("Ana", "Ben"),
                            {"track_allocation": True, "characters": ["grubic", "riparian"]}, 1)
        s = TableSession.new(j, setup, "board test").typed(EyeForAnEye)
        s.start_clock()
        yield s


def alloc(s: TableSession[EyeForAnEye], seat: int) -> dict[str, int]:
    return dict(s.game.seats()[seat].allocation)


def test_dice_placed_spent_and_taken_off(session: TableSession[EyeForAnEye]) -> None:
    w = BoardWatcher(ZONES)
    assert said(session, w, dice()) == []
    lines = said(session, w, dice((20, 20), (60, 60), (150, 50), (320, 50), (50, 300)))
    assert lines == ["Grubic: Allocate 2 to Parry", "Grubic: Allocate 1 to Spear Thrust",
                     "Riparian: Allocate 1 to Parry"]
    assert alloc(session, 0) == {"defence": 2, "attack": 1}
    journaled = session.journal.load(session.game_id).entries
    assert [e.call for e in journaled[-3:]] == lines  # journaled like any call
    # A third die on Parry later: only the new one is allocated.
    said(session, w, dice((20, 20), (60, 60), (80, 20), (150, 50), (320, 50)))
    assert alloc(session, 0) == {"defence": 3, "attack": 1}
    # Grubic attacks and spends the die; it still lies on the board: no new call.
    session.call("Grubic: Spear Thrust 1 on Riparian")
    session.call("Hits land on Riparian")
    n = len(session.log)
    assert said(session, w, dice((20, 20), (60, 60), (80, 20), (150, 50),
                                        (320, 50))) == []
    # Taking the spent die off changes nothing either.
    assert said(session, w, dice((20, 20), (60, 60), (80, 20), (320, 50))) == []
    assert len(session.log) == n and alloc(session, 0) == {"defence": 3}
    # Taking unspent dice off the Parry space recovers them.
    assert said(session, w, dice((20, 20), (320, 50))) == ["Grubic: Recover 2 from Parry"]
    assert alloc(session, 0) == {"defence": 1}


def test_a_refused_allocation_shows_the_reason_and_changes_nothing(
        session: TableSession[EyeForAnEye]) -> None:
    w = BoardWatcher(ZONES)
    before = session.game.snapshot()
    # Riparian's Parry has fewer spaces than six dice.
    lines = said(session, w, dice(*[(310 + 10 * i, 50) for i in range(6)]))
    assert len(lines) == 1 and lines[0].startswith("camera: Riparian: Allocate 6 to Parry:")
    assert session.game.snapshot() == before
    # The player takes four dice off: the two left are allocated.
    assert said(session, w, dice((310, 50), (320, 50))) == ["Riparian: Allocate 2 to Parry"]
    assert alloc(session, 1) == {"defence": 2}


def test_a_resumed_board_that_matches_the_game_makes_no_call(
        session: TableSession[EyeForAnEye]) -> None:
    session.call("Grubic: Allocate 2 to Parry")
    w = BoardWatcher(ZONES)  # a fresh watcher, as after a restart
    assert said(session, w, dice((20, 20), (60, 60))) == []
    assert alloc(session, 0) == {"defence": 2}


def test_a_space_the_character_lacks_is_refused_by_name(session: TableSession[EyeForAnEye]) -> None:
    w = BoardWatcher((rectangle(2, "Spear Thrust", 0, 0, 100, 100),))
    lines = said(session, w, dice((50, 50)))
    assert len(lines) == 1 and "Riparian has no action or card called 'Spear Thrust'" in lines[0]
    assert alloc(session, 1) == {}
