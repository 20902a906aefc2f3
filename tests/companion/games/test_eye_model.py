"""Eye for an Eye's view state without Kivy (issue 34): what each seat's header, health, team
and cup line and action buttons show and which are lit, the message box, the keypad, the clock,
the seat lights and the between-rounds table, all read from the arena's model as plain
Python, so the whole-app files keep only what the app alone shows (touch routing, layout)."""

from __future__ import annotations

import typing

from test_companion_session import FakeClock, _arena, journal

import rules
from companion.games.eye_for_an_eye.calls import ArenaCalls
from companion.games.eye_for_an_eye.model import EyeForAnEyeModel, SeatLook
from companion.journal import Journal
from companion.session import TableSession
from hardware.buttons import Light
from rules.eye_for_an_eye import EyeForAnEye

__all__ = ["journal"]  # the fixture, shared with the session's tests


def seat(model: EyeForAnEyeModel, player: str) -> SeatLook:
    return next(s for s in model.seats_look() if s.player == player)


def test_before_the_round_nothing_is_lit_and_the_box_says_to_start(journal: Journal) -> None:
    model = EyeForAnEyeModel(_arena(journal, FakeClock(), start=False, follow=False))
    model.calls.session.subscribe(model.on_session)
    look = model.view()
    assert look.prompt[0] == "Tap Yarra Mark! to start the round"
    assert (look.go, look.clock, look.clock_tone, look.round) == ("Yarra Mark!", "1:00",
                                                                   "stopped", "Round 1/4")
    assert look.counts == frozenset() and not look.cancel_enabled and not look.rear_enabled
    ana = seat(model, "Ana")
    assert ana.header == ("Grubic", "Ana") and ana.tone == "own" and not ana.outlined
    assert ana.health == "Health 15/15" and ana.bar == 1.0 and ana.cup == ("Cup 0",)
    assert {a.tone for a in ana.actions.values()} == {"dim"}  # the clock takes no call
    assert model.lights() == ["off", "off", "off"]


def test_an_attack_built_by_taps_lights_its_button_then_its_targets(journal: Journal) -> None:
    clock = FakeClock()
    calls = _arena(journal, clock, follow=False)
    model = EyeForAnEyeModel(calls)
    model.calls.session.subscribe(model.on_session)
    look = model.view()
    assert look.go == "Pause" and look.clock_tone == "running"
    assert look.prompt[0] == "Tap an action on your panel"
    assert seat(model, "Ana").actions["attack"].tone == "possible"
    assert seat(model, "Ana").actions["attack"].words == ("Spear Thrust",)
    calls.tap_action("Ana", "attack")
    look = model.view()
    assert look.prompt[0] == "Grubic: Spear Thrust\nHow many dice? Tap a count"
    assert look.counts == {1, 2, 3} and look.rear_enabled and look.cancel_enabled
    assert seat(model, "Ana").actions["attack"].tone == "live"
    calls.tap_count(2)
    assert model.view().prompt[0] == "Grubic: Spear Thrust 2\nTap the target (white)"
    calls.toggle_rear()
    look = model.view()
    assert look.rear_lit
    assert look.prompt == ("Grubic: Spear Thrust 2 from the rear\nTap the target (white)",)
    calls.toggle_rear()
    tones = {s.player: (s.tone, s.outlined) for s in model.seats_look()}
    assert tones == {"Ana": ("own", False), "Ben": ("target", True), "Cy": ("target", True)}
    calls.tap_target("Ben")
    # Riparian may parry: his Parry button is lit with its countdown, his seat's light is on.
    parry = seat(model, "Ben").actions["defence"]
    assert parry.tone == "live" and parry.extra == " 3.0s"
    assert model.lights() == ["off", "on", "off"]
    assert all(light in typing.get_args(Light) for light in model.lights())
    assert model.log_lines() == ["0:00 Grubic: Spear Thrust 2 on Riparian"]
    clock.now += 4
    calls.tick()  # the window shut: the hits land
    assert seat(model, "Ben").health == "Health 13/15"  # Riparian has 15 health
    assert model.lights() == ["off", "off", "off"]


def test_a_refusal_shows_white_on_red_until_the_next_change(journal: Journal) -> None:
    calls = _arena(journal, FakeClock(), follow=False)
    model = EyeForAnEyeModel(calls)
    calls.session.subscribe(model.on_session)
    calls.tap_action("Ben", "heal")
    look = model.view()
    assert look.refused and "full health" in look.prompt[0]
    calls.tap_action("Ben", "attack")  # a new call being built: the refusal was read
    look = model.view()
    assert not look.refused and look.prompt[0].endswith("How many dice? Tap a count")
    model.say("Undid: Grubic: Leap 1")  # a notice is not a refusal
    assert model.view().prompt[0] == "Undid: Grubic: Leap 1" and not model.view().refused


def test_at_six_players_the_box_shows_the_newest_call(journal: Journal) -> None:
    setup = rules.Setup("eye-for-an-eye", ("Ana", "Ben", "Cy", "Di", "Ed", "Flo"),
                        {"round_seconds": 60.0, "mode": "alliances",
                         "teams": [["Ana", "Ben", "Cy"], ["Di", "Ed", "Flo"]]}, 1)
    clock = FakeClock()
    s = TableSession.new(journal, setup, "test", clock=clock).typed(EyeForAnEye)
    s.start_clock()
    model = EyeForAnEyeModel(ArenaCalls(s, parry_seconds=3.0, now=clock))
    model.calls.session.subscribe(model.on_session)
    assert not model.log_beside and model.view().prompt[0] == "Tap an action on your panel"
    assert seat(model, "Ana").cup == ("Team 1 · Cup 0",)
    first = s.game.seats()[0].character.short
    s.call(f"{first}: Movement 1")
    assert model.view().prompt == (f"Last call:\n0:00 {first}: Movement 1",
                                   f"0:00 {first}: Movement 1")  # the call whole, if short
    counting = model.counting(0, "movement", 2)
    assert counting is not None and counting[0] == "Ana"
    assert counting[1].endswith(" 2...\npress again to add")
    assert model.counting(6, "movement", 1) is None


def test_the_clock_running_out_ends_the_round_with_its_table(journal: Journal) -> None:
    clock = FakeClock()
    calls = _arena(journal, clock, follow=False)
    model = EyeForAnEyeModel(calls)
    model.calls.session.subscribe(model.on_session)
    clock.now += 50
    assert model.view().clock_tone == "urgent"
    clock.now += 11
    calls.tick()  # Yarra Bung!
    between = model.between()
    assert between.title == "Round 1 results" and between.next == "Next round"
    assert len(between.rows) == 3 and [r[0] for r in between.rows] == ["1", "1", "1"]
    assert between.note == "Round ended: the clock ran out (Yarra Bung!).  3 rounds to play"
    assert between.rows[0][1] == "Ana\nGrubic"  # the side over its character


def test_a_tied_match_asks_for_a_tie_break_then_names_the_winner(journal: Journal) -> None:
    clock = FakeClock()
    setup = rules.Setup("eye-for-an-eye", ("Ana", "Ben"),
                        {"round_seconds": 60.0, "rounds": 1}, 1)
    s = TableSession.new(journal, setup, "test", clock=clock).typed(EyeForAnEye)
    calls = ArenaCalls(s, parry_seconds=3.0, now=clock)
    model = EyeForAnEyeModel(calls)
    model.calls.session.subscribe(model.on_session)
    s.start_clock()
    clock.now += 61
    calls.tick()  # nobody scored: a tie
    between = model.between()
    assert not s.game.is_over and between.next == "Tie-break round"
    assert between.note.endswith("Tied: a tie-break round is next")
    calls.next_round()
    assert model.view().round == "Tie-break"
    s.start_clock()
    ana = s.game.seats()[0].character.short
    ben = s.game.seats()[1].character.short
    s.call(f"{ana}: Unblockable 2 on {ben}")
    clock.now += 61
    calls.tick()
    between = model.between()
    assert s.game.is_over and between.title == "Winner: Ana" and between.next == "New game"
    assert between.rows[0][1] == f"Ana\n{ana}" and between.rows[0][0] == "1"


# -- the calls the arena sends that no other direct test makes by its own taps (issue 43,
# -- item 7): what is journaled, what the view shows, a wrong tap refused as it was -----------


def arena_model(journal: Journal, clock: FakeClock) -> EyeForAnEyeModel:
    model = EyeForAnEyeModel(_arena(journal, clock, follow=False))
    model.calls.session.subscribe(model.on_session)
    return model


def refused_as_it_was(model: EyeForAnEyeModel, tap: typing.Callable[[], object],
                      why: str) -> None:
    """A wrong tap: nothing journaled, the game exactly as it was, the box says why."""
    game = model.calls.session.game
    before, done = game.snapshot(), len(game.history)
    tap()
    assert game.snapshot() == before and len(game.history) == done
    look = model.view()
    assert look.refused and why in look.prompt[0], look.prompt


def test_unblockable_hits_by_three_taps(journal: Journal) -> None:
    model = arena_model(journal, FakeClock())
    calls, game = model.calls, model.calls.session.game
    calls.tap_action("Cy", "unblockable")
    calls.tap_count(2)
    assert calls.tap_target("Ana") is not None
    cy = calls.seat_of("Cy").character.short
    assert game.history[-1].call == f"{cy}: Unblockable 2 on Grubic"
    look = model.view()
    assert not look.refused and look.log[0] == f"0:00 {game.history[-1].call}"
    assert seat(model, "Ana").health == "Health 13/15"  # unblockable: no parry window
    refused_as_it_was(model, lambda: calls.tap_count(2), "choose an action first")


def test_a_tribal_card_readied_then_played_from_the_engines_card_calls(journal: Journal
                                                                       ) -> None:
    model = arena_model(journal, FakeClock())
    calls, game = model.calls, model.calls.session.game
    ready = next(c for c in calls.card_calls()["Ana"] if c.text() == "Grubic: Ready Leap")
    assert calls.make(ready) is not None
    assert game.history[-1].call == "Grubic: Ready Leap"
    assert model.view().log[0] == "0:00 Grubic: Ready Leap" and not model.view().refused
    refused_as_it_was(model, lambda: calls.make(ready), "Leap")  # readied already
    leap = next(c for c in calls.card_calls()["Ana"] if c.text().startswith("Grubic: Leap"))
    assert calls.make(leap) is not None
    assert game.history[-1].call == leap.text() and model.view().log[0] == f"0:00 {leap.text()}"


def test_yarra_bung_again_after_its_undo_then_the_next_round(journal: Journal) -> None:
    clock = FakeClock()
    model = arena_model(journal, clock)
    calls, s = model.calls, model.calls.session
    refused_as_it_was(model, calls.next_round, "round 1 is still being played")
    clock.now += 61
    calls.tick()
    assert s.game.history[-1].call == "Yarra Bung!"
    assert s.undo() is not None and s.clock.state == "over"
    assert model.view().go == "Yarra Bung!"
    calls.toggle_clock()  # the round's end, taken back, made again by its button
    assert s.game.history[-1].call == "Yarra Bung!"
    assert model.between().title == "Round 1 results"
    assert calls.next_round() is not None
    assert s.game.history[-1].call == "Next round"
    look = model.view()
    assert look.round == "Round 2/4" and look.go == "Yarra Mark!"
