"""Dice-ocalypse at the table without Kivy (companion.games.diceocalypse.model): what the
screen shows (whose roll, the dice lit and chosen, the actions and which are legal, the message
box) and what each tap, reading and correction does, on a real session and journal."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest
from dice_readings import row
from no_kivy import imports_kivy

import rules
from companion.games.diceocalypse.model import DialogChoice, DiceocalypseModel
from companion.journal import Journal
from companion.session import TableSession
from rules.diceocalypse import Diceocalypse, PlayCard
from vision.types import Reading


@pytest.fixture
def journal(tmp_path: Path) -> Iterator[Journal]:
    with Journal(tmp_path / "j.sqlite3") as j:
        yield j


class Camera:
    def __init__(self, label: str, rolls_count: bool) -> None:
        self.label, self.rolls_count = label, rolls_count


def table(journal: Journal, players: tuple[str, ...] = ("Ana", "Ben", "Cy"), *,
          target: int = 2000, camera_on: bool = False, battle: str = "once-per-player",
          fixed: list[tuple[Reading, dict[int, str]]] | None = None,
          **options: object) -> DiceocalypseModel:
    setup = rules.Setup("dice-ocalypse", players,
                        {"target": target, "battle_zone_at": target // 2,
                         "battle_zone": battle, **options}, 1)
    session = TableSession.new(journal, setup, "test").typed(Diceocalypse)

    def correct(reading: Reading, changes: Mapping[int, str]) -> None:
        if fixed is not None:
            fixed.append((reading, dict(changes)))

    model = DiceocalypseModel(session, camera_on=camera_on, correct_roll=correct)
    session.subscribe(model.on_session)  # as its host hands the session's changes
    return model


def enter(t: DiceocalypseModel, *values: int) -> None:
    for v in values:
        t.tap_number(v)
    assert t.view().primary.legal, t.view()
    assert t.tap_primary(), t.session.message


def calls(t: DiceocalypseModel) -> list[str]:
    return [e.call for e in t.game.history]


def test_who_goes_first_then_a_keep_and_bank(journal: Journal) -> None:
    t = table(journal)
    v = t.view()
    assert v.status == "Who goes first? Everyone rolls one die"
    assert v.info == "Ana rolls 1 die"
    assert [d.look for d in v.dice] == ["empty"] + ["off"] * 5
    assert v.numbers and not v.primary.legal and v.primary.text == "Enter roll"
    assert "Tap a name to enter that player's roll" in v.lines
    enter(t, 6)
    assert t.view().info == "Ben rolls 1 die"
    enter(t, 2)
    enter(t, 1)
    assert calls(t) == ["Ana: Roll 6", "Ben: Roll 2", "Cy: Roll 1"]
    v = t.view()
    assert v.status == "Ana's turn" and v.info.startswith("Ana rolls 6 dice")
    assert [p.lit for p in v.players] == [True, False, False]
    enter(t, 1, 1, 1, 5, 5, 2)
    v = t.view()
    # the scoring dice are lit, the best keep chosen; a die that does not score is dull
    assert [d.text for d in v.dice] == ["1", "1", "1", "5", "5", "2"]
    assert [d.look for d in v.dice] == ["chosen"] * 5 + ["dull"]
    assert t.chosen == [0, 1, 2, 3, 4]
    assert "Keep 1 1 1 5 5 = 1,100 -> 1,100 this turn" in v.lines[0]
    assert v.primary.text == "Keep & bank" and v.primary.lit
    assert v.secondary.text == "Keep, roll 1 die" and not v.secondary.lit
    assert not v.numbers
    t.tap_die(5)  # a die that does not score: no keep can be made
    v = t.view()
    assert not v.primary.legal and not v.secondary.legal and v.primary.text == "Choose dice"
    t.tap_die(5)
    assert t.tap_primary()
    assert calls(t)[-2:] == ["Ana: Keep 1 1 1 5 5", "Ana: Bank"]
    v = t.view()
    assert v.players[0].score == 1100
    assert v.status == "Battle Zone (Ana): everyone rolls 2 dice"
    assert any("Battle Zone" in line for line in v.lines)
    # several must roll: a tap on a name chooses who enters their roll
    t.tap_player("Cy")
    assert t.view().info == "Cy rolls 2 dice"
    assert [p.lit for p in t.view().players] == [False, False, True]
    enter(t, 4, 4)
    enter(t, 2, 4)
    enter(t, 1, 3)
    assert calls(t)[-3:] == ["Cy: Roll 4 4", "Ana: Roll 2 4", "Ben: Roll 1 3"]
    assert t.view().status == "Cy's turn"  # Ben's turn was lost
    assert "next x2" in t.view().players[2].badges


def battle_zone_by_ben(t: DiceocalypseModel) -> None:
    for text in ("Ana: Roll 1", "Ben: Roll 6", "Cy: Roll 2", "Ben: Roll 1 1 1 5 5 2",
                 "Ben: Keep 1 1 1 5 5", "Ben: Bank"):
        assert t.session.try_call(text) is not None, t.session.message
    st = t.state.stage
    assert st is not None and st.kind == "battle" and st.initiator == "Ben"


def test_the_battle_zone_roller_is_the_same_after_a_power_cut(journal: Journal) -> None:
    """Issue 31: Dice-ocalypse's Battle Zone asked Ben to roll before a power cut and Ana
    after it. Who rolls first comes from the game (its starter, then in seat order), never from
    whoever rolled last on this screen."""
    t = table(journal)
    battle_zone_by_ben(t)
    before = t.view().info
    assert before == "Ben rolls 2 dice"
    gid = t.session.game_id
    t.session.unsubscribe(t.on_session)
    again = DiceocalypseModel(TableSession.resume(journal, gid).typed(Diceocalypse))
    again.session.subscribe(again.on_session)
    assert again.view().info == before
    # and so on in seat order from the starter
    enter(again, 3, 4)
    assert again.view().info == "Cy rolls 2 dice"
    enter(again, 2, 5)
    assert again.view().info == "Ana rolls 2 dice"


def test_a_player_tapped_to_roll_is_forgotten_once_they_rolled(journal: Journal) -> None:
    t = table(journal)
    battle_zone_by_ben(t)
    t.tap_player("Ana")
    assert t.view().info == "Ana rolls 2 dice"
    t.tap_player("Nobody")  # not a roller: nothing changes
    assert t.view().info == "Ana rolls 2 dice"
    enter(t, 3, 4)
    assert t.view().info == "Ben rolls 2 dice"


def to_ana_after_cy_busts(t: DiceocalypseModel) -> None:
    for text in ("Ana: Roll 6", "Ben: Roll 2", "Cy: Roll 1", "Ana: Roll 1 1 1 5 5 2",
                 "Ana: Keep 1 1 1 5 5", "Ana: Bank", "Cy: Roll 4 4", "Ana: Roll 2 4",
                 "Ben: Roll 1 3", "Cy: Roll 2 3 4 6 6 2"):
        assert t.session.try_call(text) is not None, (text, t.session.message)


def test_a_special_die_from_the_cards_and_a_doubtful_reading_confirmed(journal: Journal
                                                                        ) -> None:
    fixed: list[tuple[Reading, dict[int, str]]] = []
    t = table(journal, camera_on=True, fixed=fixed)
    to_ana_after_cy_busts(t)
    v = t.view()
    assert "busts" in " ".join(v.lines) and "Zombie" in v.players[2].badges
    assert v.status == "Ana's turn" and v.cards >= 1
    assert t.calls_by_player()["Cy"] == [("Roll the Zombie die", "Zombie")]
    t.choose_card_player("Cy")
    assert not t.play("Zombie")  # no call yet: Cy's Zombie roll is entered
    assert t.view().info == "Cy rolls the Zombie die"
    enter(t, 1)
    assert calls(t)[-1] == "Cy: Zombie 1"
    assert t.view().info.startswith("Ana rolls 5 dice")
    # the camera unsure of one die: it waits, framed, until confirmed by two taps
    assert t.on_reading(row(5, 5, 5, 1, 2, unsure=(3,))) is None
    v = t.view()
    assert [d.text for d in v.dice[:5]] == ["5", "5", "5", "1?", "2"]
    assert v.dice[3].look == "doubt" and not v.primary.legal
    assert v.secondary.text == "Confirm" and v.secondary.legal
    assert "Camera unsure" in v.lines[-1]
    t.tap_die(3)
    assert t.view().dice[3].look == "selected"
    t.tap_die(3)
    v = t.view()
    assert v.dice[3].text == "1" and v.primary.legal
    assert t.tap_primary()
    assert calls(t)[-1] == "Ana: Roll 5 5 5 1 2"
    # the confirmed die goes to the dice statistics, by its index in the reading
    assert len(fixed) == 1 and fixed[0][1] == {3: "1"}
    assert ("Double or Nothing", PlayCard("Ana", "Double or Nothing")) in t.calls_by_player()["Ana"]
    assert t.play(PlayCard("Ana", "Double or Nothing"))
    assert t.tap_primary()  # keep the best (1 5 5 5) and bank
    assert calls(t)[-2:] == ["Ana: Keep 1 5 5 5", "Ana: Bank"]
    assert t.view().status == "Ana's Double or Nothing"
    assert t.on_reading(row(5)) == "Ana: Roll 5"  # sure: called at once


def test_a_corrected_die_goes_to_the_statistics_and_a_sure_roll_is_called(journal: Journal
                                                                           ) -> None:
    fixed: list[tuple[Reading, dict[int, str]]] = []
    t = table(journal, camera_on=True, fixed=fixed)
    assert t.on_reading(row(4)) == "Ana: Roll 4"  # sure and complete: called at once
    assert fixed == []
    t.on_reading(row(6, unsure=(0,)))
    t.tap_die(0)
    t.tap_number(3)  # the players correct it
    assert t.view().dice[0].text == "3"
    assert t.tap_primary() and calls(t)[-1] == "Ben: Roll 3"
    assert fixed[0][1] == {0: "3"}
    # Confirm takes every doubtful die as read and makes the call
    t.on_reading(row(2, unsure=(0,)))
    assert t.tap_secondary() and calls(t)[-1] == "Cy: Roll 2"
    assert fixed[1][1] == {0: "2"}


def test_too_many_dice_are_said_and_set_aside_by_a_tap(journal: Journal) -> None:
    """Issue 44, item 2: a photo of 3 dice for Ana's roll of 1 said "remove them here" with no
    way to: every die seen is shown, a tap sets one aside, then the roll can be entered."""
    t = table(journal, camera_on=True)
    assert t.on_reading(row(4, 5, 2)) is None
    v = t.view()
    assert v.lines[0] == ("3 dice in the tray, Ana rolls 1 die: tap the 2 dice not rolled to "
                          "set them aside")
    assert [(d.text, d.look, d.enabled) for d in v.dice[:4]] == [
        ("4", "aside", True), ("5", "aside", True), ("2", "aside", True), ("", "off", False)]
    assert not v.primary.legal and calls(t) == []
    t.tap_die(0)  # the 4 is not Ana's
    v = t.view()
    assert v.lines[0].startswith("2 dice in the tray") and "set it aside" in v.lines[0]
    t.tap_die(1)  # nor the 2
    v = t.view()
    assert [(d.text, d.look) for d in v.dice[:2]] == [("5", "value"), ("", "off")]
    assert v.primary.legal and t.tap_primary() and calls(t) == ["Ana: Roll 5"]


def test_a_number_typed_by_hand_is_never_overwritten_by_the_camera(journal: Journal) -> None:
    """Issue 44, item 2: the next photo overwrote a number typed by hand."""
    t = table(journal, camera_on=True)
    t.tap_number(3)  # Ana's die, typed
    assert t.on_reading(row(6)) is None  # a reading comes: not taken, not called
    v = t.view()
    assert v.dice[0].text == "3" and calls(t) == []
    assert "the numbers typed by hand stay" in v.refusal
    t.tap_number(4)  # the typed number can still be changed by hand
    t.tap_die(0)
    t.tap_number(2)
    assert t.view().dice[0].text == "2"
    t.clear_entry()  # Clear takes the camera's reading kept aside
    assert calls(t) == ["Ana: Roll 6"]


def test_hot_dice_roll_on_bank_undo_and_redo(journal: Journal) -> None:
    t = table(journal)
    for text in ("Ana: Roll 6", "Ben: Roll 2", "Cy: Roll 1"):
        t.session.call(text)
    enter(t, 1, 1, 1, 1, 5, 5)
    v = t.view()
    assert any("HOT DICE" in line for line in v.lines)
    assert v.secondary.text == "Keep: hot dice!"
    assert t.tap_secondary()  # keep, roll on
    v = t.view()
    assert any("Hot dice" in line for line in v.lines)
    assert v.info.startswith("Ana rolls 6 dice") and v.secondary.text == "Bank 2,100"
    assert t.tap_secondary()  # bank
    assert calls(t)[-1] == "Ana: Bank" and t.view().players[0].score == 2100
    t.session.undo()
    assert t.view().secondary.text == "Bank 2,100"
    t.session.redo()
    assert calls(t)[-1] == "Ana: Bank"


def test_the_number_pad_clear_and_a_refusal_in_the_message_box(journal: Journal) -> None:
    t = table(journal)
    t.tap_number(4)
    t.tap_number(5)  # one die only: said, nothing added
    assert t.entry is not None and t.entry.values == (4,)
    v = t.view()
    assert v.refusal == "Ana's 1 die entered: tap a die to change it, or Clear"
    t.clear_entry()
    v = t.view()
    assert t.entry.values == () and v.refusal == ""
    for text in ("Ana: Roll 6", "Ben: Roll 2", "Cy: Roll 1", "Ana: Roll 5 2 3 4 6 6",
                 "Ana: Keep 5"):
        t.session.call(text)
    assert not t.bank()  # the engine refuses: the first bank needs the opening score
    v = t.view()
    assert v.refusal.startswith("Ana's first banked turn must be worth at least")
    assert len(v.lines) <= 2  # three lines in all with the refusal
    assert calls(t)[-1] == "Ana: Keep 5"


def test_the_camera_is_switched_only_where_its_rolls_count(journal: Journal) -> None:
    t = table(journal)
    t.toggle_camera(None)
    assert not t.camera_on and t.view().refusal == "No camera: choose one in Settings"
    t.toggle_camera(Camera("rendered dice, no camera", rolls_count=False))
    assert not t.camera_on and "rendered dice, no camera" in t.view().refusal
    t.toggle_camera(Camera("Pi camera", rolls_count=True))
    assert t.view().camera_on
    assert t.view().lines[0] == "Roll: the camera reads it, or tap the numbers"
    t.toggle_camera(Camera("Pi camera", rolls_count=True))
    assert not t.camera_on


def test_the_game_over_view(journal: Journal) -> None:
    t = table(journal, ("Ana", "Ben"), target=1000, battle="off")
    for text in ("Ana: Roll 6", "Ben: Roll 2", "Ana: Roll 1 1 1 5 5 2", "Ana: Keep 1 1 1 5 5",
                 "Ana: Bank"):
        t.session.call(text)
    assert t.view().status == "Dice-ocalypse: Ben's last turn, beat 1,100"
    enter(t, 2, 3, 4, 6, 6, 2)  # Ben busts
    assert t.game.is_over
    v = t.view()
    assert v.over and v.status.endswith("is the Die-structor!")
    assert v.primary.text == "New game" and v.primary.lit and not v.numbers


def test_the_model_never_imports_kivy() -> None:
    assert not imports_kivy("companion.games.diceocalypse.model")



# -- every call kind the model sends, each by the taps a player makes (issue 43, item 7) -----

def cards_table(journal: Journal) -> DiceocalypseModel:
    """Ana, Ben and Cy, cards and the first bank from 300 points, so cards come early."""
    return table(journal, card_minimum=300, opening_minimum=300)


def say(t: DiceocalypseModel, *texts: str) -> None:
    """The setup part: calls through the session, as the table said them."""
    for text in texts:
        assert t.session.try_call(text) is not None, (text, t.session.message)


def dialog(t: DiceocalypseModel, player: str) -> dict[str, DialogChoice]:
    """The Cards & dice dialog's buttons for ``player``: words -> what a tap does."""
    t.choose_card_player(player)
    assert t.card_player() == player
    return dict(t.calls_by_player()[player])


def test_a_card_on_a_player_and_their_immunity_by_taps(journal: Journal) -> None:
    """Ana (500 points) plays Do or Die on Ben from the Cards & dice dialog (PlayCard with a
    target); Ben answers with Immunity (Immunity). A second Immunity tapped from a dialog
    drawn before is refused: the game exactly as it was, the reason in the message box."""
    t = cards_table(journal)
    say(t, "Ana: Roll 6", "Ben: Roll 2", "Cy: Roll 1", "Ana: Roll 5 5 5 2 3 4",
        "Ana: Keep 5 5 5", "Ana: Bank", "Ben: Roll 5 5 5 2 3 4")
    assert t.view().cards == 3
    ana = dialog(t, "Ana")
    assert set(ana) == {"Prove It on Ben", "Do or Die on Ben", "Collateral Damage on Ben"}
    assert t.play(ana["Do or Die on Ben"])
    assert calls(t)[-1] == "Ana: Play Do or Die on Ben"
    assert t.game.history[-1].call == PlayCard("Ana", "Do or Die", "Ben").text()
    v = t.view()
    assert "Ana plays Do or Die on Ben" in v.lines[0] and v.players[0].badges == "4 cards"
    ben = dialog(t, "Ben")
    assert list(ben) == ["Immunity"]
    assert t.play(ben["Immunity"])
    assert calls(t)[-1] == "Ben: Immunity"
    v = t.view()
    assert "Ben is immune to" in v.lines[0] and v.refusal == ""
    assert "Immunity" not in dict(t.calls_by_player().get("Ben", []))
    before, n = t.game.snapshot(), len(calls(t))
    assert not t.play(ben["Immunity"])  # the stale button: Immunity is used once a game
    assert t.game.snapshot() == before and len(calls(t)) == n
    assert journal.load(t.session.game_id).entries == tuple(t.game.history)
    assert t.view().refusal == "Ben has already used the Immunity card"
    # Ben's roll is still his to keep, as before the refused tap
    assert t.view().primary.text == "Keep & bank" and t.view().primary.legal


def test_cards_played_together_and_the_pick_of_the_first(journal: Journal) -> None:
    """On Ana's turn Ben plays Do or Die on her and Cy, at the same moment, Collateral Damage
    on her (PlayCard together); Ana, without a card in the play, picks whose came first
    (Pick): Ben's card stands and Cy takes hers back."""
    t = cards_table(journal)
    say(t, "Ana: Roll 6", "Ben: Roll 2", "Cy: Roll 1", "Ana: Roll 5 5 5 2 3 4",
        "Ana: Keep 5 5 5", "Ana: Bank", "Ben: Roll 5 5 5 2 3 4", "Ben: Keep 5 5 5",
        "Ben: Bank", "Cy: Roll 5 5 5 2 3 4", "Cy: Keep 5 5 5", "Cy: Bank",
        "Ana: Roll 1 2 3 3 4 6")
    assert t.play(dialog(t, "Ben")["Do or Die on Ana"])
    assert calls(t)[-1] == "Ben: Play Do or Die on Ana"
    cy = dialog(t, "Cy")
    assert "Collateral Damage on Ana together" in cy
    assert t.play(cy["Collateral Damage on Ana together"])
    assert calls(t)[-1] == "Cy: Play Collateral Damage on Ana together"
    v = t.view()
    assert "at the same moment" in " ".join(v.lines)
    ana = dialog(t, "Ana")
    assert set(ana) >= {"Pick Ben", "Pick Cy"}
    assert "Pick Ana" not in ana
    assert t.play(ana["Pick Ben"])
    assert calls(t)[-1] == "Ana: Pick Ben"
    v = t.view()
    assert v.lines[0] == "Ben's Do or Die on Ana is the card in play"
    assert [p.badges.split(" · ")[0] for p in v.players] == ["5 cards", "4 cards", "5 cards"]


def test_the_left_behind_die_from_the_dialog(journal: Journal) -> None:
    """Cy, the one player left on no points, takes the Left Behind die; its roll is started
    from the dialog and entered on the number pad (SpecialRoll of the Left Behind die)."""
    t = cards_table(journal)
    say(t, "Ana: Roll 6", "Ben: Roll 2", "Cy: Roll 1", "Ana: Roll 5 5 5 2 3 4",
        "Ana: Keep 5 5 5", "Ana: Bank", "Ben: Roll 5 5 5 2 3 4", "Ben: Keep 5 5 5",
        "Ben: Bank")
    v = t.view()
    assert "Left Behind" in v.players[2].badges
    cy = dialog(t, "Cy")
    assert cy["Roll the Left Behind die"] == "Left Behind"
    assert not t.play(cy["Roll the Left Behind die"])  # no call yet: the roll is entered
    assert calls(t)[-1] == "Ben: Bank" and t.view().info == "Cy rolls the Left Behind die"
    enter(t, 1)
    assert calls(t)[-1] == "Cy: Left Behind 1"
    v = t.view()
    assert "Left Behind 1: skips Cy" in " ".join(v.lines)
    assert v.status == "Ana's turn" and v.info.startswith("Ana rolls 6 dice")


def test_a_keep_of_dice_that_do_not_score_is_refused_and_changes_nothing(
        journal: Journal) -> None:
    """A die that does not score chosen with the rest: Keep is greyed, and a tap on it all
    the same is refused by the engine, the game exactly as it was, the reason shown."""
    t = cards_table(journal)
    say(t, "Ana: Roll 6", "Ben: Roll 2", "Cy: Roll 1", "Ana: Roll 5 5 5 2 3 4")
    t.tap_die(3)  # the 2 joins the best keep
    v = t.view()
    assert not v.secondary.legal and v.secondary.text == "Keep"
    before, n = t.game.snapshot(), len(calls(t))
    assert not t.tap_secondary()
    assert t.game.snapshot() == before and len(calls(t)) == n
    v = t.view()
    assert v.refusal == ("2 5 5 5 do not all score under Ten Thousand (default); the scoring "
                         "dice are 5 5 5")
    t.tap_die(3)  # the 2 put back: the keep goes
    assert t.tap_secondary() and calls(t)[-1] == "Ana: Keep 5 5 5"
    assert t.view().refusal == ""
