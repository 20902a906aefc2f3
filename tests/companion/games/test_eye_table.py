"""Eye for an Eye at the table, the small things of issue 21 (no Kivy): the count keypad
offers only legal counts, an impossible action is refused at its first tap, no call while the
clock stands (but a dispute, Undo and Redo), a parry window stands still while its target
chooses a count and is never left at 0.0 s after an undo, the highlight colours are never a
seat's, plurals, the words on the buttons."""

from __future__ import annotations

import pytest
from test_companion_session import FakeClock, _arena, journal

import rules
from companion import theme
from companion.games.eye_for_an_eye.buttons import Press
from companion.games.eye_for_an_eye.look import (
    ACTION_KEYS,
    HIGHLIGHTS,
    action_icon,
    action_words,
    figure_words,
    plural,
)
from companion.journal import Journal
from rules.eye_for_an_eye import EyeForAnEye
from rules.eye_for_an_eye.calls import Ready
from rules.eye_for_an_eye.characters import ICONS

__all__ = ["journal"]  # the fixture, shared with the session's tests


def test_the_keypad_offers_only_the_counts_the_action_can_take(journal: Journal) -> None:
    clock = FakeClock()
    a = _arena(journal, clock)
    s = a.session
    assert a.legal_counts() == []  # no action chosen: no count offered
    a.tap_action("Ana", "attack")
    assert a.legal_counts() == [1, 2, 3]  # Spear Thrust has three spaces
    assert a.tap_count(4) is None  # a button's count of 4: refused at once, saying why
    assert "Spear Thrust has 3 spaces" in s.message and not a.builder.active
    assert journal.load(s.game_id).entries == ()
    s.call("Grubic: Spear Thrust 2 on Riparian")
    a.tap_action("Ben", "defence")
    assert a.legal_counts() == [1, 2]  # only two hits to cancel
    a.cancel()
    a.tap_action("Cy", "unblockable")
    assert a.legal_counts() == [1, 2, 3, 4, 5, 6]  # from tribal cards: any count


def test_an_action_that_cannot_be_called_is_refused_at_its_first_tap(journal: Journal) -> None:
    clock = FakeClock()
    a = _arena(journal, clock)
    assert a.tap_action("Ben", "defence") is None
    assert not a.builder.active  # not waiting for a count that could never be taken
    assert "no attack on Riparian is waiting" in a.session.message
    assert not a.possible("Ben", "defence") and not a.possible("Ben", "heal")
    assert a.possible("Ben", "attack") and a.possible("Ben", "unblockable")
    a.tap_action("Ben", "heal")
    assert "full health" in a.session.message and not a.builder.active
    a.tap_action("Ben", "attack")  # a new call being built clears the refusal
    assert a.builder.needs_count and a.session.message == ""
    core = _arena(journal, clock, advanced=False)
    core.tap_action("Ana", "unblockable")
    assert "Core Game" in core.session.message and not core.possible("Ana", "unblockable")



def test_unblockable_hits_are_offered_by_the_engines_legal_calls_alone(journal: Journal) -> None:
    """Issue 43: the arena asks the engine's legal calls alone (no call tried on the engine).
    A seat the hits waiting on it would knock out can only react: its Unblockable hits are
    dimmed and refused at their first tap (on old main they were offered to any standing seat,
    and refused only after the third tap); a parry is still offered."""
    clock = FakeClock()
    a = _arena(journal, clock)
    s = a.session
    for _ in range(4):  # Riparian down to 3 health
        s.call("Grubic: Spear Thrust 3 on Riparian")
        s.call("Hits land on Riparian")
    s.call("Grubic: Spear Thrust 3 on Riparian")  # three hits waiting: Riparian is doomed
    assert a.seat_of("Ben").health == 3
    assert not a.possible("Ben", "unblockable") and a.possible("Ben", "defence")
    assert a.possible("Cy", "unblockable") and a.possible("Ana", "unblockable")
    assert a.tap_action("Ben", "unblockable") is None
    assert "Riparian is knocked out" in s.message and not a.builder.active
    assert len(s.log) == 9 and a.seat_of("Ben").health == 3  # nothing made, nothing landed
    a.tap_action("Cy", "unblockable")
    assert a.legal_counts() == [1, 2, 3, 4, 5, 6]
    a.tap_count(2)
    assert a.possible_targets() == ["Ana", "Ben"]

def test_no_call_while_the_clock_stands_but_a_dispute_undo_and_redo(journal: Journal) -> None:
    clock = FakeClock()
    a = _arena(journal, clock, start=False)
    s = a.session
    a.tap_action("Ana", "movement")
    assert "tap Yarra Mark! first" in s.message and not a.builder.active
    s.start_clock()
    clock.now += 2
    a.tap_action("Ana", "attack")
    a.tap_count(2)
    a.toggle_clock()  # paused for a dispute: the call being built is dropped
    assert not s.clock.running and not a.builder.active
    for tap in (lambda: a.tap_action("Ana", "movement"),
                lambda: a.press(Press(1, "movement", count=2)),
                lambda: a.make(Ready("Grubic", "Leap"))):
        assert tap() is None
        assert s.message == "Paused: no calls until Resume (Undo and Redo still work)"
    assert s.log == []
    s.call("Grubic: Spear Thrust 2 on Riparian")  # (made before the pause, say)
    s.undo()
    s.redo()
    assert a.dispute(["Ana", "Ben"]) is not None  # what a pause is for
    assert [e.call for e in s.log] == ["Grubic: Spear Thrust 2 on Riparian",
                                       "Dispute: Grubic, Riparian"]
    a.press(Press(0, "pause"))  # the table's pause button goes on
    assert s.clock.running
    assert a.tap_action("Ana", "movement") is None and a.builder.needs_count


def test_the_window_stands_still_while_its_target_chooses_a_count(journal: Journal) -> None:
    clock = FakeClock()
    a = _arena(journal, clock)
    s = a.session
    s.call("Grubic: Spear Thrust 2 on Riparian")
    clock.now += 1
    a.tap_action("Ben", "defence")  # Riparian reaches for a count
    clock.now += 20
    a.tick()
    view = a.parry_view("Ben")
    assert view is not None and view.state == "choosing" and view.seconds == 2.0
    assert len(s.log) == 1  # no "Hits land" meanwhile
    a.cancel()  # changed their mind: the window runs on from where it stood
    clock.now += 1.9
    a.tick()
    assert len(s.log) == 1 and a.parry_left("Ben") == pytest.approx(0.1)
    clock.now += 0.2
    a.tick()
    assert s.log[-1].call == "Hits land on Riparian from Grubic"
    # Choosing, then the count: the parry is made inside the window.
    s.call("Banksia: Attack 3 on Riparian")
    a.tap_action("Ben", "defence")
    clock.now += 30
    a.tick()
    a.tap_count(3)
    assert s.log[-1].call == "Riparian: Parry 3" and a.pending() == []


def test_after_an_undo_the_window_is_held_then_starts_again_in_full(journal: Journal) -> None:
    clock = FakeClock()
    a = _arena(journal, clock)
    s = a.session
    s.call("Grubic: Spear Thrust 2 on Riparian")
    clock.now += 3.5
    a.tick()
    assert s.log[-1].call == "Hits land on Riparian from Grubic"
    s.undo()  # the hits are taken back: the attack waits again
    for _ in range(3):
        clock.now += 10
        a.tick()
        view = a.parry_view("Ben")
        assert view is not None and view.state == "held" and view.seconds == 3.0
        assert a.parry_left("Ben") == 3.0  # never "0.0s" for ever
    assert s.log[-1].call.startswith("Grubic:")
    s.call("Banksia: Movement 1")  # play goes on: the window starts again, in full
    assert a.parry_view("Ben") == a.parry_view("Ben") and a.parry_left("Ben") == 3.0
    clock.now += 2.9
    a.tick()
    assert s.log[-1].call == "Banksia: Movement 1"
    clock.now += 0.2
    a.tick()
    assert s.log[-1].call == "Hits land on Riparian from Grubic"


def test_highlights_are_never_a_seat_colour() -> None:
    for palette in theme.PALETTES:
        for seat in range(6):
            colour = theme.player_colour(palette, seat)
            for name, highlight in HIGHLIGHTS.items():
                gap = max(abs(x - y) for x, y in zip(colour[:3], highlight[:3], strict=True))
                assert gap > 0.2, (palette, seat, name, colour, highlight)


def test_plurals_and_words() -> None:
    assert [plural(n, "point") for n in (0, 1, 2)] == ["0 points", "1 point", "2 points"]
    assert plural(1, "round") == "1 round" and plural(3, "KO") == "3 KOs"
    game = rules.from_setup(rules.Setup("eye-for-an-eye", ("Ana", "Ben"), {}, 1))
    assert isinstance(game, EyeForAnEye)
    grubic, riparian = game.seats()
    # the printed name only, never another word (issue 44, item 5)
    assert action_words(grubic, "attack") == ("Spear Thrust",)
    assert action_words(grubic, "innate") == ("Watch Out!",)
    assert action_words(riparian, "innate") == ("Innate",)  # not "Riparian's Innate"
    assert action_words(riparian, "unblockable") == ("Unblockable",)
    assert action_words(riparian, "movement") == ("Movement",)
    assert {action_icon(grubic, k) for k in ACTION_KEYS} == set(ICONS)  # the six icons
    assert figure_words("Guard 3") == ("Guard 3", "G3") and figure_words("Echo") == ("Echo",)


def test_with_one_possible_target_an_attack_needs_no_third_tap(journal: Journal) -> None:
    """Two players: the attack's target can only be the other one (issue 31)."""
    from companion.games.eye_for_an_eye.calls import ArenaCalls
    from companion.session import TableSession

    clock = FakeClock()
    setup = rules.Setup("eye-for-an-eye", ("Ana", "Ben"), {"round_seconds": 60.0}, 1)
    s = TableSession.new(journal, setup, "test", clock=clock).typed(EyeForAnEye)
    s.start_clock()
    a = ArenaCalls(s, parry_seconds=3.0, now=clock)
    s.subscribe(a.on_session)
    a.tap_action("Ana", "attack")
    a.tap_count(2)
    assert not a.builder.active  # made, not waiting for a target
    assert [e.call for e in s.game.history] == ["Grubic: Spear Thrust 2 on Riparian"]
    # three players: the target is still asked
    b = _arena(journal, clock)
    b.tap_action("Ana", "attack")
    b.tap_count(2)
    assert b.builder.needs_target and b.session.game.history == ()


def test_a_refused_call_of_the_tables_own_is_told_to_the_screens(journal: Journal) -> None:
    """Hits the table lands by itself (a parry window closed) that the engine refuses are
    said as a refusal, and the screens are told (on old main the words were set without a
    word to the listeners: the arena showed them only at its next full redraw, and not in
    the refusal's colours)."""
    from companion.session import Change

    clock = FakeClock()
    a = _arena(journal, clock)
    s = a.session
    told: list[object] = []
    s.subscribe(lambda change: told.append(change.kind))
    a.windows[("Riparian", "Grubic", "Riparian")] = [0.0]  # a window whose attack is gone
    clock.now += 1
    a.tick()
    assert told == [Change.REFUSED]
    assert "no attack on Riparian" in s.message and s.refused is not None
    assert a.windows[("Riparian", "Grubic", "Riparian")] == []  # forgotten, not tried again
    assert s.log == []
