"""The table session with a fake clock: taps, buttons, parry windows, clock end, undo, resume."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import arena_standin
import pytest

import rules
from companion.journal import Journal
from companion.session import ButtonPress, RoundClock, TableSession


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def journal(tmp_path: Path) -> Iterator[Journal]:
    arena_standin.register()
    with Journal(tmp_path / "j.sqlite3") as j:
        yield j


def _session(journal: Journal, clock: FakeClock, **options: object) -> TableSession:
    setup = rules.Setup("arena-standin", ("Ana", "Ben", "Cy"),
                        {"round_seconds": 60.0, **options}, 1)
    s = TableSession.new(journal, setup, "test", clock=clock, parry_seconds=3.0)
    s.start_round()
    return s


def test_round_clock_pauses_and_caps() -> None:
    clock = FakeClock()
    rc = RoundClock(10, clock, paused=False)
    clock.now += 4
    rc.pause()
    clock.now += 100
    assert rc.elapsed() == 4
    rc.start()
    clock.now += 3
    assert rc.elapsed() == 7 and rc.remaining() == 3
    clock.now += 30
    assert rc.elapsed() == 10


def test_attack_in_three_taps_then_parry_window_lands_hits(journal: Journal) -> None:
    clock = FakeClock()
    s = _session(journal, clock)
    clock.now += 5
    assert s.tap_action("Ana", "attack") is None
    assert s.tap_count(2) is None
    events = s.tap_target("Ben")
    assert events is not None and [e.kind for e in events] == ["attack-pending"]
    assert s.log[-1] == rules.Entry("Grubic: Attack 2 on Riparian", 5.0)
    assert s.parry_left("Ben") == 3.0
    clock.now += 2.5
    assert s.tick() == []
    clock.now += 0.5
    landed = s.tick()
    assert [e.kind for e in landed] == ["hit"]
    assert s.log[-1] == rules.Entry("Hits land on Riparian", 8.0)
    assert s.seat_of("Ben").health == 3
    assert journal.load(s.game_id).entries == tuple(s.log)


def test_parry_inside_window_and_pause_freezes_it(journal: Journal) -> None:
    clock = FakeClock()
    s = _session(journal, clock)
    s.call("Grubic: Attack 2 on Riparian")
    clock.now += 2
    s.pause()
    clock.now += 50
    assert s.tick() == [] and s.parry_left("Ben") == 1.0
    s.start_round()
    s.tap_action("Ben", "defence")
    events = s.tap_count(2)
    assert events is not None and [e.kind for e in events] == ["parry", "hit"]
    assert s.seat_of("Ben").health == 5 and s.parry_deadlines == {}


def test_knockout_and_last_standing_ends_round(journal: Journal) -> None:
    clock = FakeClock()
    s = _session(journal, clock)
    s.call("Grubic: Unblockable 5 on Riparian")
    assert s.seat_of("Ben").knocked_out and s.seat_of("Ana").cup == 1
    s.call("Grubic: Unblockable 5 on Banksia")
    assert s.phase == "between-rounds" and s.clock.paused
    assert s.game.round_results()[0].rows[0].side == "Ana"
    clock.now += 10
    assert s.next_round() is not None
    assert s.round_number == 2 and s.clock.elapsed() == 0 and s.clock.paused


def test_clock_running_out_says_yarra_bung(journal: Journal) -> None:
    clock = FakeClock()
    s = _session(journal, clock)
    heard: list[str] = []
    s.subscribe(lambda what, events: heard.append(what))
    clock.now += 45
    s.tick()
    assert "ten-seconds" not in heard and "one-minute" not in heard  # a 60 s round
    clock.now += 16
    events = s.tick()
    assert "ten-seconds" in heard
    assert [e.kind for e in events] == ["round-over"]
    assert s.log[-1] == rules.Entry("Yarra Bung!", 60.0)
    assert "yarra-bung" in heard and s.phase == "between-rounds"


def test_refused_call_is_not_journaled(journal: Journal) -> None:
    clock = FakeClock()
    s = _session(journal, clock)
    s.tap_action("Ben", "defence")
    assert s.tap_count(1) is None
    assert "no attack on Ben is pending" in s.message
    assert journal.load(s.game_id).entries == ()


def test_undo_redo_journaled_and_resume_equals(journal: Journal) -> None:
    clock = FakeClock()
    s = _session(journal, clock)
    clock.now += 1
    s.call("Grubic: Attack 2 on Riparian")
    clock.now += 1
    s.call("Riparian: Parry 1")
    clock.now += 1.5
    s.call("Banksia: Movement 2")
    s.undo()
    back = TableSession.resume(journal, s.game_id, clock=clock)
    assert back.game.snapshot() == s.game.snapshot()
    assert back.log == s.log and back.game.can_redo
    assert back.clock.paused and back.clock.elapsed() == pytest.approx(3.5)
    s.redo()
    assert TableSession.resume(journal, s.game_id).log == s.log


def test_a_failing_journal_changes_nothing(journal: Journal,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """Disk full or a pulled card while writing: the call, undo or redo fails with the
    journal's error, and game, redo list and journal stay exactly as they were."""
    import sqlite3

    clock = FakeClock()
    s = _session(journal, clock)
    clock.now += 1
    s.call("Grubic: Attack 2 on Riparian")
    s.call("Riparian: Parry 1")
    s.undo()  # a redo is pending: a failed call must not lose it

    def full(*_: object) -> None:
        raise sqlite3.OperationalError("database or disk is full")

    def state() -> tuple[object, ...]:
        back = TableSession.resume(journal, s.game_id, clock=clock)
        return (s.game.snapshot(), s.game.history, s.game.can_redo, s.log,
                back.game.snapshot(), back.game.history, back.game.can_redo)

    before = state()
    for name, act in (("record_call", lambda: s.call("Banksia: Movement 2")),
                      ("record_redo", s.redo), ("record_undo", s.undo)):
        with monkeypatch.context() as m:
            m.setattr(journal, name, full)
            with pytest.raises(sqlite3.OperationalError, match="disk is full"):
                act()
        assert state() == before, name
    s.redo()  # the pending redo is still the parry, in game and journal alike
    assert s.game.history[-1].call == "Riparian: Parry 1"
    assert TableSession.resume(journal, s.game_id).game.snapshot() == s.game.snapshot()


def test_buttons_build_the_same_calls(journal: Journal) -> None:
    clock = FakeClock()
    s = _session(journal, clock)
    s.press(ButtonPress(0, "attack", count=3))
    events = s.press(ButtonPress(2, "target"))
    assert events is not None and s.log[-1].call == "Grubic: Attack 3 on Banksia"
    s.press(ButtonPress(1, "movement"))
    s.press(ButtonPress(1, "movement", hold=True))
    assert not s.builder.active
    s.press(ButtonPress(0, "undo"))
    assert s.log == []
    s.press(ButtonPress(0, "pause"))
    assert s.clock.paused
    with pytest.raises(rules.InvalidCall, match="button seat 7"):
        s.press(ButtonPress(7, "attack"))


def test_a_held_cycle_button_steps_through_targets_and_letting_go_calls(
        journal: Journal) -> None:
    from companion.session import CYCLE_SETTLE

    clock = FakeClock()
    s = _session(journal, clock)
    s.press(ButtonPress(0, "attack", count=2))
    assert s.builder.needs_target
    s.press(ButtonPress(0, "cycle", count=1, hold=True))
    assert s.builder.proposed == "Ben"
    clock.now += 0.6
    s.tick()
    s.press(ButtonPress(0, "cycle", count=2, hold=True))
    assert s.builder.proposed == "Cy"
    clock.now += 0.6
    s.tick()
    s.press(ButtonPress(0, "cycle", count=3, hold=True))  # wraps round to the first
    assert s.builder.proposed == "Ben" and s.log == []
    clock.now += CYCLE_SETTLE - 0.1
    s.tick()
    assert s.log == []  # still held
    clock.now += 0.2
    s.tick()  # let go: the call is made on the target pointed at
    assert s.log[-1].call == "Grubic: Attack 2 on Riparian"
    assert s.builder.proposed is None and not s.builder.active
    # Another seat's cycle hold, or one with no target wanted, cancels as any hold does.
    s.press(ButtonPress(1, "movement"))
    s.press(ButtonPress(0, "cycle", count=1, hold=True))
    assert not s.builder.active and len(s.log) == 1


def test_hardware_cycle_holds_become_cycle_presses() -> None:
    from types import SimpleNamespace

    hold = SimpleNamespace(seat="P2", action="power", meaning="cycle", repeat=3, cancelled=0,
                           t=1.0)
    assert ButtonPress.from_hardware(hold, ("P1", "P2")) == ButtonPress(1, "cycle", 3, hold=True)
    undo = SimpleNamespace(seat="P1", action="defend", meaning="undo", repeat=1, cancelled=0,
                           t=1.0)
    assert ButtonPress.from_hardware(undo, ("P1", "P2")) == ButtonPress(0, "undo")


def test_attack_from_the_rear_by_taps(journal: Journal) -> None:
    clock = FakeClock()
    s = _session(journal, clock)
    s.toggle_rear()
    assert "choose an attack first" in s.message
    s.tap_action("Ana", "attack")
    s.tap_count(2)
    s.toggle_rear()
    assert s.builder.rear
    s.tap_target("Ben")
    assert s.log[-1].call == "Grubic: Attack 2 on Riparian from the rear"


def test_undo_holds_automatic_hits_until_the_next_call(journal: Journal) -> None:
    clock = FakeClock()
    s = _session(journal, clock)
    s.call("Grubic: Attack 2 on Riparian")
    clock.now += 3.5
    assert [e.kind for e in s.tick()] == ["hit"]
    s.undo()  # the hits are taken back: the attack is pending again
    clock.now += 10
    assert s.tick() == [] and s.pending() and s.parry_left("Ben") is not None
    s.call("Banksia: Movement 1")  # play goes on: the window runs again
    clock.now += 0.5
    assert [e.kind for e in s.tick()] == ["hit"]


def test_card_calls_and_dispute_come_from_the_real_engine(tmp_path: Path) -> None:
    with Journal(tmp_path / "cards.sqlite3") as j:
        setup = rules.Setup("eye-for-an-eye", ("Ana", "Ben"), {"round_seconds": 60.0}, 1)
        s = TableSession.new(j, setup, "cards", clock=FakeClock())
        s.start_round()
        cards = s.card_calls()
        assert "Grubic: Ready Leap" in cards["Ana"]
        assert all(t.startswith("Riparian: Ready ") for t in cards["Ben"])
        assert not any(t == "Grubic: Leap" for t in cards["Ana"])
        s.try_call("Grubic: Ready Leap")
        cards = s.card_calls()
        assert "Grubic: Leap" in cards["Ana"] and "Grubic: Ready Leap" not in cards["Ana"]
        s.call("Grubic: Spear Thrust 2 on Riparian")
        assert s.dispute([]) is None and "tap who is involved" in s.message
        events = s.dispute(["Ana", "Ben"])
        assert events is not None and [e.kind for e in events] == ["dispute"]
        assert s.game.pending() == []
        assert [e.call for e in j.resume(s.game_id).history][-1] == "Dispute: Grubic, Riparian"
