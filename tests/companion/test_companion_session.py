"""The table session (generic: call, journal, undo/redo, the round clock) and Eye for an Eye's
calls at the table (taps, buttons, parry windows, the clock's end), on a fake clock and the
real engine."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import rules
from companion.games.eye_for_an_eye.buttons import CYCLE_SETTLE, Press
from companion.games.eye_for_an_eye.calls import ArenaCalls
from companion.journal import Journal
from companion.session import GAME_CHANGED, Change, SessionChange, TableSession
from hardware.buttons import ButtonCall, ButtonHold, ButtonPress
from rules.eye_for_an_eye import EyeForAnEye


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def journal(tmp_path: Path) -> Iterator[Journal]:
    with Journal(tmp_path / "j.sqlite3") as j:
        yield j


def _arena(journal: Journal, clock: FakeClock, *, start: bool = True, follow: bool = True,
           **options: Any) -> ArenaCalls:
    """Three players' arena on a fake clock, after Yarra Mark! unless not ``start``; the
    session's changes reach the calls unless not ``follow`` (a model wrapping them hands
    them on, as the table does)."""
    setup = rules.Setup("eye-for-an-eye", ("Ana", "Ben", "Cy"),
                        {"round_seconds": 60.0, **options}, 1)
    s = TableSession.new(journal, setup, "test", clock=clock).typed(EyeForAnEye)
    if start:
        s.start_clock()
    calls = ArenaCalls(s, parry_seconds=3.0, now=clock)
    if follow:
        s.subscribe(calls.on_session)  # the session's changes, as its table hands them
    return calls


def health(a: ArenaCalls, player: str) -> int:
    return a.seat_of(player).health


def test_attack_in_three_taps_then_parry_window_lands_hits(journal: Journal) -> None:
    clock = FakeClock()
    a = _arena(journal, clock)
    s = a.session
    ben = health(a, "Ben")
    clock.now += 5
    assert a.tap_action("Ana", "attack") is None
    assert a.tap_count(2) is None
    events = a.tap_target("Ben")
    assert events is not None and [e.kind for e in events] == ["attack-pending"]
    assert s.log[-1] == rules.Entry("Grubic: Spear Thrust 2 on Riparian", 5.0)
    assert a.parry_left("Ben") == 3.0
    clock.now += 2.5
    a.tick()
    assert len(s.log) == 1
    clock.now += 0.5
    a.tick()
    assert s.log[-1] == rules.Entry("Hits land on Riparian from Grubic", 8.0)
    assert health(a, "Ben") == ben - 2
    assert journal.load(s.game_id).entries == tuple(s.log)


def test_parry_inside_window_and_pause_freezes_it(journal: Journal) -> None:
    clock = FakeClock()
    a = _arena(journal, clock)
    s = a.session
    ben = health(a, "Ben")
    s.call("Grubic: Spear Thrust 2 on Riparian")
    clock.now += 2
    s.pause_clock()
    clock.now += 50
    a.tick()
    assert a.parry_left("Ben") == 1.0 and len(s.log) == 1
    s.start_clock()
    a.tap_action("Ben", "defence")
    events = a.tap_count(2)
    assert events is not None and events[0].kind == "parry"
    assert health(a, "Ben") == ben and a.parry_deadlines == {}


def test_knockout_and_last_standing_ends_round(journal: Journal) -> None:
    clock = FakeClock()
    a = _arena(journal, clock)
    s = a.session
    for target in ("Riparian", "Banksia"):
        while not a.seat_of(target).knocked_out and s.game.state.phase == "playing":
            s.call(f"Grubic: Unblockable 5 on {target}")
    assert s.game.state.phase == "between-rounds" and not s.clock.running
    assert s.game.round_results()[0].rows[0].side == "Ana"
    clock.now += 10
    assert a.next_round() is not None
    assert s.game.state.round_number == 2 and s.clock.elapsed == 0
    assert s.clock.state == "ready"


def test_clock_running_out_says_yarra_bung(journal: Journal) -> None:
    clock = FakeClock()
    a = _arena(journal, clock)
    s = a.session
    heard: list[str] = []
    s.subscribe(lambda change: heard.append(change.cue.name if change.cue is not None else ""))
    clock.now += 45
    s.tick()
    a.tick()
    assert "ten_seconds" not in heard and "one_minute" not in heard  # a 60 s round
    clock.now += 16
    s.tick()
    a.tick()
    assert "ten_seconds" in heard and "end" in heard
    assert s.log[-1] == rules.Entry("Yarra Bung!", 60.0)
    assert s.game.state.phase == "between-rounds"


def test_refused_call_is_not_journaled(journal: Journal) -> None:
    clock = FakeClock()
    a = _arena(journal, clock)
    assert a.tap_action("Ben", "defence") is None  # nothing to parry: refused at once
    assert "no attack on Riparian is waiting" in a.session.message
    assert journal.load(a.session.game_id).entries == ()


def test_undo_redo_journaled_and_resume_equals(journal: Journal) -> None:
    clock = FakeClock()
    a = _arena(journal, clock)
    s = a.session
    clock.now += 1
    s.call("Grubic: Spear Thrust 2 on Riparian")
    clock.now += 1
    s.call("Riparian: Parry 1")
    clock.now += 1.5
    s.call("Banksia: Movement 2")
    s.undo()
    back = TableSession.resume(journal, s.game_id, clock=clock)
    assert back.game.snapshot() == s.game.snapshot()
    assert back.log == s.log and back.game.can_redo
    assert not back.clock.running and back.clock.elapsed == pytest.approx(3.5)
    s.redo()
    assert TableSession.resume(journal, s.game_id).log == s.log


def test_a_failing_journal_changes_nothing(journal: Journal,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """Disk full or a pulled card while writing: the call, undo or redo fails with the
    journal's error, and game, redo list and journal stay exactly as they were."""
    import sqlite3

    clock = FakeClock()
    s = _arena(journal, clock).session
    clock.now += 1
    s.call("Grubic: Spear Thrust 2 on Riparian")
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
            if name == "record_call":
                with pytest.raises(sqlite3.OperationalError, match="disk is full"):
                    act()
                assert s.try_call("Banksia: Movement 2") is None  # refused, not raised
            else:
                assert act() is None  # undo and redo refuse: the game is as it was
            assert "disk is full" in s.message
        assert state() == before, name
    s.redo()  # the pending redo is still the parry, in game and journal alike
    assert s.game.history[-1].call == "Riparian: Parry 1"
    assert TableSession.resume(journal, s.game_id).game.snapshot() == s.game.snapshot()


def test_buttons_build_the_same_calls(journal: Journal) -> None:
    clock = FakeClock()
    a = _arena(journal, clock)
    s = a.session
    a.press(Press(0, "attack", count=3))
    events = a.press(Press(2, "target"))
    assert events is not None and s.log[-1].call == "Grubic: Spear Thrust 3 on Banksia"
    a.press(Press(1, "movement"))
    a.press(Press(1, "movement", hold=True))
    assert not a.builder.active
    a.press(Press(0, "undo"))
    assert s.log == []
    a.press(Press(0, "pause"))
    assert not s.clock.running
    with pytest.raises(rules.InvalidCall, match="button seat 8"):
        a.press(Press(7, "attack"))


def test_a_held_cycle_button_steps_through_targets_and_letting_go_calls(
        journal: Journal) -> None:
    clock = FakeClock()
    a = _arena(journal, clock)
    s = a.session
    a.press(Press(0, "attack", count=2))
    assert a.builder.needs_target
    a.press(Press(0, "cycle", count=1, hold=True))
    assert a.builder.proposed == "Ben"
    clock.now += 0.6
    a.tick()
    a.press(Press(0, "cycle", count=2, hold=True))
    assert a.builder.proposed == "Cy"
    clock.now += 0.6
    a.tick()
    a.press(Press(0, "cycle", count=3, hold=True))  # wraps round to the first
    assert a.builder.proposed == "Ben" and s.log == []
    clock.now += CYCLE_SETTLE - 0.1
    a.tick()
    assert s.log == []  # still held
    clock.now += 0.2
    a.tick()  # let go: the call is made on the target pointed at
    assert s.log[-1].call == "Grubic: Spear Thrust 2 on Riparian"
    assert a.builder.proposed is None and not a.builder.active
    # Another seat's cycle hold, or one with no target wanted, cancels as any hold does.
    a.press(Press(1, "movement"))
    a.press(Press(0, "cycle", count=1, hold=True))
    assert not a.builder.active and len(s.log) == 1


def test_hardware_events_become_presses() -> None:
    seats = ("P1", "P2")
    cycle = ButtonHold("P2", "power", "cycle", 3, 0, 1.0)
    assert Press.from_hardware(cycle, seats) == Press(1, "cycle", 3, hold=True)
    undo = ButtonHold("P1", "defend", "undo", 1, 0, 1.0)
    assert Press.from_hardware(undo, seats) == Press(0, "undo")
    assert Press.from_hardware(ButtonCall("P1", "defend", 2, 1.0), seats) == Press(0, "defence",
                                                                                  2)
    assert Press.from_hardware(ButtonPress("P1", "move", 1, 1.0), seats) is None
    with pytest.raises(rules.InvalidCall, match="button seat 'P3'"):
        Press.from_hardware(ButtonCall("P3", "move", 1, 1.0), seats)


def test_attack_from_the_rear_by_taps(journal: Journal) -> None:
    clock = FakeClock()
    a = _arena(journal, clock)
    a.toggle_rear()
    assert "choose an attack first" in a.session.message
    a.tap_action("Ana", "attack")
    a.tap_count(2)
    a.toggle_rear()
    assert a.builder.rear
    a.tap_target("Ben")
    assert a.session.log[-1].call == "Grubic: Spear Thrust 2 on Riparian from the rear"


def test_each_attack_has_its_own_parry_window(journal: Journal) -> None:
    """Banksia attacks Riparian a second after Grubic: Grubic's hits land when his window
    shuts, Banksia's window runs on, and Riparian can still parry Banksia's attack."""
    clock = FakeClock()
    a = _arena(journal, clock)
    s = a.session
    ben = health(a, "Ben")
    s.call("Grubic: Spear Thrust 2 on Riparian")
    clock.now += 1
    s.call("Banksia: Attack 3 on Riparian")
    assert a.parry_left("Ben") == 2.0  # the soonest of Riparian's two windows
    clock.now += 2.1
    a.tick()
    assert s.log[-1].call == "Hits land on Riparian from Grubic"
    assert health(a, "Ben") == ben - 2
    assert a.parry_left("Ben") == pytest.approx(0.9)  # Banksia's window still open
    s.call("Riparian: Parry 3")
    assert a.pending() == [] and health(a, "Ben") == ben - 2
    clock.now += 5
    a.tick()
    assert s.log[-1].call == "Riparian: Parry 3"  # nothing else landed


def test_card_calls_and_dispute_come_from_the_engine(journal: Journal) -> None:
    clock = FakeClock()
    setup = rules.Setup("eye-for-an-eye", ("Ana", "Ben"), {"round_seconds": 60.0}, 1)
    s = TableSession.new(journal, setup, "cards", clock=clock).typed(EyeForAnEye)
    s.start_clock()
    a = ArenaCalls(s, now=clock)
    s.subscribe(a.on_session)
    texts = {p: [c.text() for c in cs] for p, cs in a.card_calls().items()}
    assert "Grubic: Ready Leap" in texts["Ana"]
    assert all(t.startswith("Riparian: Ready ") for t in texts["Ben"])
    assert "Grubic: Leap" not in texts["Ana"]
    s.try_call("Grubic: Ready Leap")
    texts = {p: [c.text() for c in cs] for p, cs in a.card_calls().items()}
    assert "Grubic: Leap" in texts["Ana"] and "Grubic: Ready Leap" not in texts["Ana"]
    s.call("Grubic: Spear Thrust 2 on Riparian")
    assert a.dispute([]) is None and "tap who is involved" in s.message
    events = a.dispute(["Ana", "Ben"])
    assert events is not None and [e.kind for e in events] == ["dispute"]
    assert s.game.pending() == []
    assert [e.call for e in journal.resume(s.game_id).history][-1] == "Dispute: Grubic, Riparian"


def test_a_phase_that_is_not_timed_stops_the_clock_and_a_new_round_resets_it(
        journal: Journal) -> None:
    """The generic session asks the game's prompt: the clock runs only in a timed phase."""
    clock = FakeClock()
    a = _arena(journal, clock)
    s = a.session
    clock.now += 12
    assert s.clock.running and s.clock_may_run
    s.call("Yarra Bung!")
    assert not s.clock.running and not s.clock_may_run
    assert not s.start_clock()  # between rounds, nothing to time
    s.call("Next round")
    assert s.clock.state == "ready" and s.clock.duration == 60.0


def test_listeners_are_told_typed_changes_with_their_events_and_cues(journal: Journal) -> None:
    """What a session tells is a SessionChange: its kind, the call's events, the clock's Cue
    (never a string to parse, such as "cue:end")."""
    clock = FakeClock()
    a = _arena(journal, clock, start=False)
    s = a.session
    heard: list[SessionChange] = []
    s.subscribe(heard.append)
    s.start_clock()
    assert [c.kind for c in heard] == [Change.CLOCK_START, Change.CUE]
    assert heard[1].cue is not None and heard[1].cue.name == "start" and heard[1].is_cue("start")
    heard.clear()
    clock.now += 5
    a.tap_action("Ana", "attack")
    a.tap_count(2)
    events = a.tap_target("Ben")
    assert [c.kind for c in heard] == [Change.BUILDING, Change.BUILDING, Change.CALL]
    assert heard[-1].events == tuple(events or ()) and heard[-1].cue is None
    heard.clear()
    s.undo()
    s.redo()
    s.pause_clock()
    s.try_call("not a call")
    assert [c.kind for c in heard] == [Change.UNDO, Change.REDO, Change.CLOCK_PAUSE,
                                       Change.REFUSED]
    assert {c.kind for c in heard} & GAME_CHANGED == {Change.UNDO, Change.REDO}
    assert all(c.events == () and c.cue is None for c in heard)


def test_a_call_is_worked_out_once_then_journalled_then_made(journal: Journal,
                                                              monkeypatch: pytest.MonkeyPatch
                                                              ) -> None:
    """The session works a call out once (Game.prepare), journals it, then makes the game
    what was worked out (Game.commit); on the old code it was worked out twice, by check and
    again by apply, two copies of the state each call. A prepared call is for one state: once
    the game moved on it is refused, never made over the new state."""
    session = TableSession.new(journal, rules.Setup("dice-ocalypse", ("Ana", "Ben"), {}, 1),
                               "test")
    game = session.game
    runs: list[object] = []
    real = game._apply

    def counted(state: Any, call: Any, at: Any) -> Any:
        runs.append(call)
        return real(state, call, at)

    monkeypatch.setattr(game, "_apply", counted)
    call = game.legal_calls()[0]
    runs.clear()  # (listing the legal calls judges candidates)
    session.call(call)
    assert runs == [call]
    assert journal.load(session.game_id).entries == game.history
    stale = game.prepare(game.legal_calls()[0])
    session.call(game.legal_calls()[0])
    with pytest.raises(rules.IllegalCall, match="the game changed after the call was judged"):
        game.commit(stale)
    assert len(game.history) == 2
