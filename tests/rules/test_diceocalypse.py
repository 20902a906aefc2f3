"""Dice-ocalypse: scenario tests for every rule and card, the scoring tables, and call errors."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

import rules
from rules import IllegalCall, InvalidCall, SetupError
from rules.diceocalypse import (
    Diceocalypse,
    PlayCard,
    Roll,
    SpecialRoll,
    best_keep,
    is_bust,
    keep_options,
    keep_score,
    key_names,
    scoring_dice,
    scoring_key,
    scoring_mask,
)

BUST = "2 3 4 6 2 3"  # scores nothing under every key


def new(players: str = "Ana Ben", **options: Any) -> Diceocalypse:
    """A game whose roll-off the first named player wins."""
    names = players.split()
    game = rules.new_game("dice-ocalypse", names, options=options)
    assert isinstance(game, Diceocalypse)
    game.apply(f"{names[0]}: Roll 6")
    for p in names[1:]:
        game.apply(f"{p}: Roll 1")
    return game


def play(game: Diceocalypse, *calls: str) -> list[rules.Event]:
    events = []
    for c in calls:
        events += game.apply(c)
    return events


def bank_1000(game: Diceocalypse, p: str) -> None:
    play(game, f"{p}: Roll 1 1 1 2 3 4", f"{p}: Keep 1 1 1", f"{p}: Bank")


def bust(game: Diceocalypse, p: str, n: int = 6) -> None:
    game.apply(f"{p}: Roll {' '.join(BUST.split()[:n])}")


def kinds(events: list[rules.Event]) -> list[str]:
    return [e.kind for e in events]


# -- who goes first ------------------------------------------------------------------------------


def test_roll_off_highest_goes_first_and_ties_roll_again() -> None:
    game = rules.new_game("dice-ocalypse", ["Ana", "Ben", "Cy"])
    play(game, "Ana: Roll 3", "Ben: Roll 5")
    with pytest.raises(IllegalCall, match=r"Ben: Roll 4: waiting for Cy \(1 die\) to roll for "
                                          "the roll for first turn"):
        game.apply("Ben: Roll 4")
    events = play(game, "Cy: Roll 5")
    assert "reroll" in kinds(events)
    with pytest.raises(IllegalCall, match=r"Ana: Roll 6: waiting for Ben .*, Cy"):
        game.apply("Ana: Roll 6")
    with pytest.raises(IllegalCall, match="Ben rolls 1 die here, got 2"):
        game.apply("Ben: Roll 6 6")
    play(game, "Ben: Roll 2", "Cy: Roll 6")
    assert game.state.phase == "play" and game.state.current == "Cy"
    with pytest.raises(IllegalCall, match="Ana: Roll 1 5 5 3 2 6: it is Cy's turn, not Ana's"):
        game.apply("Ana: Roll 1 5 5 3 2 6")
    play(game, "Cy: Roll 1 5 5 3 2 6", "Cy: Keep 1 5 5", "Cy: Roll 1 1 1", "Cy: Keep 1 1 1")
    assert game.state.turn is not None and game.state.turn.points == 1200
    play(game, "Cy: Roll 2 3 4 6 6 2")  # hot dice were picked up; this roll busts
    assert game.state.scores["Cy"] == 0 and game.state.current == "Ana"  # clockwise


# -- a turn --------------------------------------------------------------------------------------


def test_turn_roll_keep_bank_and_opening_minimum() -> None:
    game = new()
    events = play(game, "Ana: Roll 1 5 5 3 2 6")
    assert events[0].data["scoring"] == (1, 5, 5)
    play(game, "Ana: Keep 1 5")
    with pytest.raises(IllegalCall, match=r"Ana: Bank: Ana's first banked turn must be worth at "
                                          r"least 1000; this turn has 150"):
        game.apply("Ana: Bank")
    with pytest.raises(IllegalCall, match="Ana has 4 dice to roll, got 6"):
        game.apply("Ana: Roll 1 1 1 1 1 1")
    play(game, "Ana: Roll 1 1 1 4", "Ana: Keep 1 1 1", "Ana: Bank")
    assert game.state.scores["Ana"] == 1150 and game.state.current == "Ben"
    # Later turns have no minimum.
    bank_1000(game, "Ben")
    play(game, "Ana: Roll 5 2 3 4 6 6", "Ana: Keep 5", "Ana: Bank")
    assert game.state.scores["Ana"] == 1200


def test_keep_errors_name_the_dice() -> None:
    game = new()
    with pytest.raises(IllegalCall, match="Ana: Keep 1: Ana has no roll to keep dice from"):
        game.apply("Ana: Keep 1")
    play(game, "Ana: Roll 1 5 5 3 2 6")
    with pytest.raises(IllegalCall, match=r"Ana: Keep 1 1: 1 1 are not all in the roll "
                                          r"1 5 5 3 2 6"):
        game.apply("Ana: Keep 1 1")
    with pytest.raises(IllegalCall, match=r"Ana: Keep 1 3: 1 3 do not all score under Ten "
                                          r"Thousand \(default\); the scoring dice are 1 5 5"):
        game.apply("Ana: Keep 1 3")
    with pytest.raises(IllegalCall, match=r"must first keep scoring dice from 1 5 5 3 2 6"):
        game.apply("Ana: Roll 1 2 3 4 5 6")
    with pytest.raises(IllegalCall, match="Ben: Keep 1: it is not Ben's turn"):
        game.apply("Ben: Keep 1")
    with pytest.raises(IllegalCall, match="Ana: Bank: Ana must first keep scoring dice"):
        game.apply("Ana: Bank")


def test_bust_scores_zero_and_passes_the_dice() -> None:
    game = new()
    bank_1000(game, "Ana")
    play(game, "Ben: Roll 1 1 1 2 3 4", "Ben: Keep 1 1 1")
    events = play(game, "Ben: Roll 2 3 4")
    assert "bust" in kinds(events)
    assert game.state.scores["Ben"] == 0 and game.state.current == "Ana"
    assert game.state.turn is None


def test_hot_dice_picks_up_all_six() -> None:
    game = new()
    events = play(game, "Ana: Roll 1 1 1 5 5 5", "Ana: Keep 1 1 1 5 5 5")
    assert "hot-dice" in kinds(events)
    assert game.state.turn is not None and game.state.turn.available == 6
    play(game, "Ana: Roll 2 3 4 6 6 5", "Ana: Keep 5", "Ana: Bank")
    assert game.state.scores["Ana"] == 1550


# -- the Battle Zone -----------------------------------------------------------------------------


def battle_ready(players: str = "Ana Ben Cy", **options: Any) -> Diceocalypse:
    """Ana on 4,000 and about to pass 5,000; everyone else on the board."""
    options.setdefault("special_dice", False)
    game = new(players, **options)
    names = players.split()
    for _ in range(4):
        for p in names:
            bank_1000(game, p) if p == "Ana" else bust(game, p)
    return game


def test_battle_zone_rolls_for_everyone() -> None:
    game = battle_ready()
    assert game.state.scores["Ana"] == 4000
    events = play(game, "Ana: Roll 1 1 1 5 2 3", "Ana: Keep 1 1 1 5", "Ana: Bank")
    assert "battle-zone" in kinds(events)
    assert game.state.scores["Ana"] == 5050
    with pytest.raises(IllegalCall, match=r"Ben: Bank: waiting for Ana \(2 dice\), Ben \(2 dice\), "
                                          r"Cy \(2 dice\) to roll for the Battle Zone started by "
                                          "Ana"):
        game.apply("Ben: Bank")
    with pytest.raises(IllegalCall, match="Ben: Roll 1 2 3 4 5 6: Ben rolls 2 dice here, got 6"):
        game.apply("Ben: Roll 1 2 3 4 5 6")
    # Ana (initiator) doubles: this turn's 1,050 again. Ben a one: loses his turn.
    # Cy doubles: his next turn is doubled.
    play(game, "Ana: Roll 4 4", "Ben: Roll 1 6", "Cy: Roll 3 3")
    assert game.state.scores["Ana"] == 6100
    assert game.state.lose_turn["Ben"] is False  # already spent: Ben's turn was skipped
    assert game.state.current == "Cy"
    play(game, "Cy: Roll 1 1 1 2 3 4", "Cy: Keep 1 1 1", "Cy: Bank")
    assert game.state.scores["Cy"] == 2000 and game.state.double_next["Cy"] is False
    # Once per player: Ana passing 5,000 again starts no new Battle Zone.
    assert "battle-zone" not in kinds(play(game, "Ana: Roll 5 2 3 4 6 6", "Ana: Keep 5",
                                           "Ana: Bank"))


def test_battle_zone_initiator_one_loses_following_turn() -> None:
    game = battle_ready("Ana Ben")
    play(game, "Ana: Roll 1 1 1 5 2 3", "Ana: Keep 1 1 1 5", "Ana: Bank")
    play(game, "Ana: Roll 1 3", "Ben: Roll 2 5")
    assert game.state.lose_turn["Ana"] and game.state.current == "Ben"
    events = play(game, "Ben: Roll " + BUST)
    assert "lose-turn" in kinds(events) and game.state.current == "Ben"


@pytest.mark.parametrize(("rule", "lose", "double"), [
    ("doubles", False, True), ("one", True, False), ("nothing", False, False)])
def test_double_ones_option(rule: str, lose: bool, double: bool) -> None:
    game = battle_ready(double_ones=rule)
    play(game, "Ana: Roll 1 1 1 5 2 3", "Ana: Keep 1 1 1 5", "Ana: Bank")
    play(game, "Ana: Roll 2 3", "Ben: Roll 5 6", "Cy: Roll 1 1")
    assert game.state.lose_turn["Cy"] is lose
    assert game.state.double_next["Cy"] is double


def test_battle_zone_every_time_option() -> None:
    game = battle_ready("Ana Ben", battle_zone="every-time")
    play(game, "Ana: Roll 1 1 1 5 2 3", "Ana: Keep 1 1 1 5", "Ana: Bank")
    play(game, "Ana: Roll 2 3", "Ben: Roll 5 6")
    # Ben's Do or Die takes Ana to zero; her climb back past 5,000 starts a new Battle Zone.
    bank_1000(game, "Ben")
    play(game, "Ana: Roll 2 3 4 6 6 5", "Ana: Keep 5")
    play(game, "Ben: Play Do or Die on Ana", "Ana: Bank", "Ben: Roll 1")
    assert game.state.scores["Ana"] == 0
    for _ in range(5):
        bust(game, "Ben")
        bank_1000(game, "Ana")
    assert game.state.stage is not None and game.state.stage.kind == "battle"
    once = battle_ready("Ana Ben")
    play(once, "Ana: Roll 1 1 1 5 2 3", "Ana: Keep 1 1 1 5", "Ana: Bank",
         "Ana: Roll 2 3", "Ben: Roll 5 6")
    bank_1000(once, "Ben")
    play(once, "Ana: Roll 2 3 4 6 6 5", "Ana: Keep 5")
    play(once, "Ben: Play Do or Die on Ana", "Ana: Bank", "Ben: Roll 1")
    for _ in range(5):
        bust(once, "Ben")
        bank_1000(once, "Ana")
    assert once.state.stage is None and once.state.scores["Ana"] == 5000


def test_battle_zone_double_blocks_act_of_war_cards() -> None:
    game = battle_ready("Ana Ben")
    bank_1000(game, "Ana")  # 5,000: Battle Zone
    play(game, "Ana: Roll 2 3", "Ben: Roll 4 4")
    assert game.state.double_next["Ben"]
    play(game, "Ben: Roll 1 1 1 2 3 4")
    with pytest.raises(IllegalCall, match="Ben's turn already has a Battle Zone double score in "
                                          "effect; only one may take effect at a time"):
        game.apply("Ana: Play Prove It on Ben")
    play(game, "Ben: Keep 1 1 1", "Ben: Bank")
    assert game.state.scores["Ben"] == 2000


# -- Act of War cards ----------------------------------------------------------------------------


def cards_ready(players: str = "Ana Ben", **options: Any) -> Diceocalypse:
    """Everyone on 1,000 points, the first player to roll."""
    options.setdefault("battle_zone", "off")
    options.setdefault("special_dice", False)
    game = new(players, **options)
    for p in players.split():
        bank_1000(game, p)
    return game


def test_prove_it_fails_on_low_die_and_stands_on_high() -> None:
    game = cards_ready()
    play(game, "Ana: Roll 1 5 2 3 4 6", "Ben: Play Prove It on Ana", "Ana: Keep 1 5",
         "Ana: Bank")
    with pytest.raises(IllegalCall, match=r"Ben: Roll 3: waiting for Ana .* Ben's Prove It"):
        game.apply("Ben: Roll 3")
    play(game, "Ana: Roll 2")
    assert game.state.scores["Ana"] == 1000
    assert "Prove It" not in game.state.cards["Ben"]
    with pytest.raises(IllegalCall, match="Ben: Play Prove It on Ana: Ben has already played "
                                          "Prove It this game"):
        game.apply("Ben: Play Prove It on Ana")
    play(game, "Ben: Roll 1 5 2 3 4 6", "Ben: Keep 1", "Ben: Bank",
         "Ana: Play Prove It on Ben", "Ben: Roll 5")  # right after Ben's turn; proved
    assert "Prove It" not in game.state.cards["Ana"] and game.state.scores["Ben"] == 1100


def test_prove_it_after_the_turn_and_kept_on_a_bust() -> None:
    game = cards_ready("Ana Ben Cy")
    play(game, "Ana: Roll 1 5 2 3 4 6", "Ana: Keep 1", "Ana: Bank", "Ben: Play Prove It on Ana")
    play(game, "Ana: Roll 3")
    assert game.state.scores["Ana"] == 1000
    bust(game, "Ben")
    bust(game, "Cy")
    play(game, "Ana: Roll 1 1 1 3 4 6", "Ana: Keep 1 1 1")
    bust(game, "Ana", 3)
    with pytest.raises(IllegalCall, match="Ana's turn scored nothing; there is nothing to prove"):
        game.apply("Cy: Play Prove It on Ana")
    game2 = cards_ready()
    play(game2, "Ana: Roll 1 5 2 3 4 6", "Ben: Play Prove It on Ana")
    events = play(game2, "Ana: Keep 1", "Ana: Roll 2 3 4 6 6")
    assert "card-back" in kinds(events)
    assert "Prove It" in game2.state.cards["Ben"]


def test_double_or_nothing() -> None:
    game = cards_ready()
    with pytest.raises(IllegalCall, match="Double or Nothing is played during your own turn"):
        game.apply("Ana: Play Double or Nothing")
    play(game, "Ana: Roll 1 5 2 3 4 6", "Ana: Play Double or Nothing", "Ana: Keep 1 5",
         "Ana: Bank", "Ana: Roll 4")
    assert game.state.scores["Ana"] == 1300
    play(game, "Ben: Roll 1 5 2 3 4 6", "Ben: Play Double or Nothing", "Ben: Keep 1 5",
         "Ben: Bank", "Ben: Roll 3")
    assert game.state.scores["Ben"] == 1000
    assert "Double or Nothing" not in game.state.cards["Ana"]
    with pytest.raises(IllegalCall, match="Ana: Play Double or Nothing: Ana has already played "
                                          "Double or Nothing this game"):
        game.apply(PlayCard("Ana", "Double or Nothing"))


def test_do_or_die() -> None:
    game = cards_ready()
    play(game, "Ana: Roll 1 5 2 3 4 6", "Ben: Play Do or Die on Ana", "Ana: Keep 1",
         "Ana: Bank")
    with pytest.raises(IllegalCall, match=r"waiting for Ben \(1 die\) to roll for Ben's Do or "
                                          "Die on Ana"):
        game.apply("Ana: Roll 1")
    play(game, "Ben: Roll 4")
    assert game.state.scores["Ana"] == 1100
    play(game, "Ben: Roll 1 5 2 3 4 6", "Ben: Keep 1", "Ben: Bank",
         "Ana: Play Do or Die on Ben", "Ana: Roll 1")
    assert game.state.scores["Ben"] == 0


def test_bloodshed_and_immunity_against_it() -> None:
    game = cards_ready("Ana Ben Cy")
    with pytest.raises(IllegalCall, match="Ben: Play Bloodshed: Bloodshed is played before your "
                                          "own turn; Ana is next to roll"):
        game.apply("Ben: Play Bloodshed")
    play(game, "Ana: Play Bloodshed")
    with pytest.raises(IllegalCall, match="Ana: Immunity: no Act of War card is being played "
                                          "against Ana"):
        game.apply("Ana: Immunity")
    play(game, "Cy: Immunity", "Ana: Roll 1 1 1 5 2 3", "Ana: Keep 1 1 1 5", "Ana: Bank")
    assert game.state.scores == {"Ana": 2050, "Ben": 0, "Cy": 1000}
    with pytest.raises(IllegalCall, match="Cy: Immunity: Cy has already used the Immunity card"):
        game.apply("Cy: Immunity")


def test_collateral_damage() -> None:
    game = cards_ready()
    play(game, "Ana: Roll 5 2 3 4 6 6", "Ben: Play Collateral Damage on Ana", "Ana: Keep 5",
         "Ana: Bank", "Ana: Roll 2 3 4", "Ben: Roll 1 2 6")
    assert game.state.scores == {"Ana": 50, "Ben": 2000}
    bust(game, "Ben")
    play(game, "Ana: Roll 1 1 1 2 3 4", "Ana: Keep 1 1 1", "Ana: Bank",
         "Ben: Play Prove It on Ana", "Ana: Roll 6")
    bank_1000(game, "Ben")
    play(game, "Ana: Play Collateral Damage on Ben", "Ben: Roll 6 6 6", "Ana: Roll 6 6 5")
    assert game.state.scores == {"Ana": 1050, "Ben": 3000}


def test_card_needs_1000_points_and_not_on_yourself() -> None:
    game = new(special_dice=False, battle_zone="off")
    play(game, "Ana: Roll 1 5 2 3 4 6")
    with pytest.raises(IllegalCall, match="Ben: Play Prove It on Ana: Ben has 0 points and needs "
                                          "at least 1000 to play an Act of War card"):
        game.apply("Ben: Play Prove It on Ana")
    game = cards_ready()
    with pytest.raises(IllegalCall, match="Prove It is played on an opponent, not on yourself"):
        game.apply("Ana: Play Prove It on Ana")
    game.apply("Ana: Roll 1 5 2 3 4 6")
    with pytest.raises(IllegalCall, match="Ana: Play Do or Die on Ben: Do or Die is played "
                                          "during or immediately after Ben's turn; it is Ana's "
                                          "turn"):
        game.apply("Ana: Play Do or Die on Ben")


def test_one_card_per_turn_first_played_takes_precedence() -> None:
    game = cards_ready("Ana Ben Cy")
    play(game, "Ana: Roll 1 5 2 3 4 6", "Ben: Play Prove It on Ana", "Ana: Keep 1")
    with pytest.raises(IllegalCall, match="Cy: Play Do or Die on Ana: Ben's Prove It on Ana was "
                                          "played first on this turn; only one Act of War card "
                                          "per turn"):
        game.apply("Cy: Play Do or Die on Ana")
    assert "Do or Die" in game.state.cards["Cy"]
    with pytest.raises(IllegalCall, match="Ana: Play Double or Nothing: Ben's Prove It on Ana "
                                          "was played first"):
        game.apply("Ana: Play Double or Nothing")


def test_simultaneous_play_decided_by_the_table_or_a_roll() -> None:
    game = cards_ready("Ana Ben Cy Dee")
    play(game, "Ana: Roll 1 5 2 3 4 6", "Ben: Play Prove It on Ana",
         "Cy: Play Do or Die on Ana together")
    with pytest.raises(IllegalCall, match="Ben: Pick Cy: Ben played a card in this clash"):
        game.apply("Ben: Pick Cy")
    play(game, "Dee: Pick Cy")
    assert "Prove It" in game.state.cards["Ben"] and "Do or Die" not in game.state.cards["Cy"]
    play(game, "Ana: Keep 1", "Ana: Bank", "Cy: Roll 1")
    assert game.state.scores["Ana"] == 0
    # Two players only: nobody is left to decide, so the two roll until one is higher.
    two = cards_ready()
    play(two, "Ana: Roll 1 5 2 3 4 6", "Ana: Play Double or Nothing",
         "Ben: Play Collateral Damage on Ana together", "Ana: Roll 4", "Ben: Roll 4")
    assert two.state.stage is not None and two.state.stage.kind == "clash"
    play(two, "Ana: Roll 2", "Ben: Roll 5")
    assert "Double or Nothing" in two.state.cards["Ana"]
    assert two.state.turn is not None and two.state.turn.card is not None
    assert two.state.turn.card.card == "Collateral Damage"
    with pytest.raises(IllegalCall, match="'together' is only for a card played at the same "
                                          "moment"):
        two.apply("Ana: Play Double or Nothing together")


def test_immunity_cancels_a_card_played_on_you() -> None:
    game = cards_ready()
    play(game, "Ana: Roll 1 5 2 3 4 6", "Ana: Keep 1", "Ana: Bank", "Ben: Play Do or Die on Ana",
         "Ana: Immunity")
    assert game.state.stage is None and game.state.scores["Ana"] == 1100
    assert "Do or Die" not in game.state.cards["Ben"]  # the card is spent
    play(game, "Ben: Roll 1 5 2 3 4 6", "Ana: Play Prove It on Ben", "Ben: Immunity",
         "Ben: Keep 1", "Ben: Bank")
    assert game.state.stage is None and game.state.scores["Ben"] == 1100


# -- the Zombie and Left Behind dice ------------------------------------------------------------


def test_zombie_die_earned_on_first_roll_bust_and_infects() -> None:
    game = new("Ana Ben Cy", battle_zone="off")
    bank_1000(game, "Ana")
    events = play(game, "Ben: Roll " + BUST)
    assert "zombie" in kinds(events) and game.state.zombie == "Ben"
    with pytest.raises(IllegalCall, match="Ana: Zombie 2: Ben holds the Zombie die"):
        game.apply("Ana: Zombie 2")
    play(game, "Ben: Zombie 2")
    assert game.state.zombie == "Cy"
    with pytest.raises(IllegalCall, match="Cy has 4 dice to roll, got 6"):
        game.apply("Cy: Roll 1 1 1 2 3 4")
    play(game, "Cy: Roll 1 1 1 5", "Cy: Keep 1 1 1 5")
    assert game.state.turn is not None and game.state.turn.available == 4  # hot dice: 4
    play(game, "Cy: Roll 2 3 4 6", "Cy: Zombie 3")  # Cy infects Ana, who takes the die
    assert game.state.zombie == "Ana"
    play(game, "Ana: Roll 2 3 4")
    bust(game, "Ben")
    bust(game, "Cy")
    with pytest.raises(IllegalCall, match="Ana: Zombie 3: the Zombie die infects another player; "
                                          "Ana is next"):
        game.apply("Ana: Zombie 3")
    game.apply("Ana: Roll 1 2 3 4 6 6")
    with pytest.raises(IllegalCall, match="the Zombie die is rolled before a turn, not during "
                                          "Ana's turn"):
        game.apply("Ana: Zombie 3")


def test_zombie_six_options() -> None:
    def setup(rule: str) -> Diceocalypse:
        game = new("Ana Ben Cy", battle_zone="off", zombie_six=rule)
        bank_1000(game, "Ana")
        bust(game, "Ben")  # Ben earns the die; Cy is next
        return game

    lose = setup("lose-turn")
    play(lose, "Ben: Zombie 6")
    assert lose.state.current == "Ana" and lose.state.zombie == "Cy"
    again = setup("reroll")
    play(again, "Ben: Zombie 6")
    assert again.state.zombie == "Ben" and again.state.current == "Cy"
    play(again, "Ben: Zombie 1", "Cy: Roll 1 2 3 4 6")
    one = setup("one-die")
    play(one, "Ben: Zombie 6", "Cy: Roll 5", "Cy: Keep 5")
    assert one.state.turn is not None and one.state.turn.available == 1


def test_special_dice_blocked_by_battle_zone_cards_and_cards_in_progress() -> None:
    game = new("Ana Ben Cy", battle_zone_at=1000)
    bank_1000(game, "Ana")  # Battle Zone at 1,000
    play(game, "Ana: Roll 2 3", "Ben: Roll 4 4", "Cy: Roll 2 5")
    bust(game, "Ben")  # Ben's first roll busts: the Zombie die; his doubled turn scored 0
    assert game.state.zombie == "Ben" and not game.state.double_next["Ben"]
    play(game, "Ben: Zombie 3")
    bust(game, "Cy", 3)
    game2 = new("Ana Ben Cy", battle_zone_at=1000)
    bank_1000(game2, "Ana")
    play(game2, "Ana: Roll 2 3", "Ben: Roll 1 4", "Cy: Roll 2 5")
    assert game2.state.current == "Cy"  # Ben lost his turn
    bust(game2, "Cy")
    with pytest.raises(IllegalCall, match="Ana: Zombie 1: Cy holds the Zombie die"):
        game2.apply("Ana: Zombie 1")
    cards = new("Ana Ben Cy", battle_zone="off")
    bank_1000(cards, "Ana")
    bust(cards, "Ben")
    bank_1000(cards, "Cy")
    play(cards, "Ana: Play Bloodshed")
    with pytest.raises(IllegalCall, match=r"Ben: Zombie 2: an Act of War is in progress "
                                          r"\(Ana's Bloodshed\)"):
        cards.apply("Ben: Zombie 2")
    bz = new("Ana Ben Cy", battle_zone_at=1000)
    bust(bz, "Ana")  # Ana earns the Zombie die
    bank_1000(bz, "Ben")
    play(bz, "Ana: Roll 2 3", "Ben: Roll 3 3", "Cy: Roll 5 5")
    assert bz.state.scores["Ben"] == 2000  # the initiator's doubles double this turn
    with pytest.raises(IllegalCall, match=r"Ana: Zombie 2: Battle Zone cards are still in play "
                                          r"\(Cy\)"):
        bz.apply("Ana: Zombie 2")


def test_left_behind_die() -> None:
    game = new("Ana Ben Cy Dee Eve Fay", battle_zone="off")
    for p in ("Ana", "Ben", "Cy", "Dee"):
        bank_1000(game, p)
    events = play(game, "Eve: Roll 1 1 1 2 3 4", "Eve: Keep 1 1 1", "Eve: Bank")
    assert "left-behind" in kinds(events) and game.state.left_behind == "Fay"
    bust(game, "Fay")  # Fay earns the Zombie die too
    # Before Ben's turn Fay rolls 4: Ben, Cy, Dee, Eve are skipped; Fay's own turn comes.
    play(game, "Ana: Roll 5 2 3 4 6 6", "Ana: Keep 5", "Ana: Bank", "Fay: Left Behind 4")
    assert game.state.current == "Fay" and game.state.left_behind == "Ben"
    with pytest.raises(IllegalCall, match="Ben: Left Behind 2: the Left Behind die was already "
                                          "rolled before this turn"):
        game.apply("Ben: Left Behind 2")
    with pytest.raises(IllegalCall, match="Fay: Zombie 2: the Zombie die infects another player"):
        game.apply("Fay: Zombie 2")
    play(game, "Fay: Roll 1 1 1 2 3 4", "Fay: Keep 1 1 1", "Fay: Bank")
    # Wrapping: Ben rolls 6 before Ana's turn among six players: back round to Ana.
    play(game, "Ben: Left Behind 6")
    assert game.state.current == "Ana" and game.state.left_behind == "Ana"


def test_left_behind_counts_others_only() -> None:
    game = new("Ana Ben Cy", battle_zone="off", left_behind_counts="others")
    bank_1000(game, "Ana")
    bank_1000(game, "Ben")
    assert game.state.left_behind == "Cy"
    bust(game, "Cy")
    # Before Ana's turn Cy rolls 3 counting only Ana and Ben: Ana, Ben, Ana skipped; Ben plays.
    play(game, "Cy: Left Behind 3")
    assert game.state.current == "Ben"
    everyone = new("Ana Ben Cy", battle_zone="off")
    bank_1000(everyone, "Ana")
    bank_1000(everyone, "Ben")
    bust(everyone, "Cy")
    play(everyone, "Cy: Left Behind 3")  # Ana, Ben, Cy skipped: Ana plays
    assert everyone.state.current == "Ana"


def test_no_special_dice_with_two_players() -> None:
    game = new()
    bust(game, "Ana")
    assert game.state.zombie is None
    with pytest.raises(IllegalCall, match="only used with 3 or more players"):
        game.apply("Ana: Zombie 2")


# -- the end -------------------------------------------------------------------------------------


def end_ready(players: str = "Ana Ben Cy", **options: Any) -> Diceocalypse:
    options.setdefault("target", 2000)
    options.setdefault("battle_zone", "off")
    options.setdefault("special_dice", False)
    game = new(players, **options)
    for p in players.split():
        bank_1000(game, p)
    return game


def test_dice_ocalypse_final_turns_and_diced_players() -> None:
    game = end_ready()
    play(game, "Ana: Roll 1 1 1 2 3 4", "Ana: Keep 1 1 1", "Ana: Bank")
    assert game.state.phase == "play"  # 2,000 is not over 2,000
    bank_1000(game, "Ben")
    events = play(game, "Cy: Roll 1 1 1 5 3 4", "Cy: Keep 1 1 1 5", "Cy: Bank")
    assert "dice-ocalypse" in kinds(events)
    assert game.state.final_mark == 2050 and game.state.current == "Ana"
    with pytest.raises(IllegalCall, match="no Act of War card now; the dice-ocalypse has begun"):
        game.apply("Ben: Play Prove It on Ana")
    play(game, "Ana: Roll 5 2 3 4 6 6", "Ana: Keep 5", "Ana: Bank")  # 2,050 matches: survives
    events = play(game, "Ben: Roll " + BUST)
    assert "winner" not in kinds(events) and "diced" in kinds(events)
    assert game.state.diced == ["Ben"]
    assert game.state.stage is not None and game.state.stage.kind == "tiebreak"
    with pytest.raises(IllegalCall, match="Cy rolls 6 dice here, got 1"):
        game.apply("Cy: Roll 6")
    play(game, "Ana: Roll 6 6 6 1 1 1", "Cy: Roll 6 6 6 1 1 1")  # tie again
    play(game, "Ana: Roll 6 6 6 6 6 1", "Cy: Roll 6 6 6 6 6 6")
    assert game.is_over and game.standings().winner == "Cy"
    assert game.legal_calls() == []
    with pytest.raises(IllegalCall, match="the game is over"):
        game.apply("Ana: Roll 1 1 1 1 1 1")


def test_reach_option_and_lost_final_turn() -> None:
    game = end_ready("Ana Ben Cy", win_threshold="reach", battle_zone="once-per-player",
                     battle_zone_at=1500)
    play(game, "Ana: Roll 5 2 3 4 6 6", "Ana: Keep 5", "Ana: Roll 1 1 1 2 3", "Ana: Keep 1 1 1",
         "Ana: Roll 5 2", "Ana: Keep 5")
    events = play(game, "Ana: Bank")  # 2,100 >= 2,000: dice-ocalypse (no Battle Zone)
    assert "dice-ocalypse" in kinds(events) and "battle-zone" not in kinds(events)
    play(game, "Ben: Roll 1 1 1 1 5 2", "Ben: Keep 1 1 1 1 5", "Ben: Bank")
    play(game, "Cy: Roll " + BUST)
    assert game.is_over and game.standings().winner == "Ben"
    assert game.state.diced == ["Cy"]


def test_lose_a_turn_card_costs_the_final_turn() -> None:
    game = end_ready("Ana Ben Cy", battle_zone="once-per-player", battle_zone_at=1500,
                     target=3000)
    play(game, "Ana: Roll 5 2 3 4 6 6", "Ana: Keep 5", "Ana: Roll 1 1 1 2 3", "Ana: Keep 1 1 1",
         "Ana: Bank")
    play(game, "Ana: Roll 2 3", "Ben: Roll 2 5", "Cy: Roll 1 4")  # Cy loses his next turn
    play(game, "Ben: Roll 1 1 1 1 2 3", "Ben: Keep 1 1 1 1", "Ben: Roll 5 2", "Ben: Keep 5")
    events = play(game, "Ben: Bank")  # 3,050: the dice-ocalypse; Cy's final turn is lost
    assert kinds(events)[-2:] == ["lose-turn", "next-turn"] and game.state.current == "Ana"
    play(game, "Ana: Roll " + BUST)
    assert game.is_over and game.state.diced == ["Ana", "Cy"]
    assert game.standings().winner == "Ben"


def test_card_in_progress_does_not_take_effect_when_crossing() -> None:
    game = end_ready("Ana Ben")
    play(game, "Ana: Roll 1 1 1 5 2 3", "Ben: Play Do or Die on Ana", "Ana: Keep 1 1 1 5")
    events = play(game, "Ana: Bank")
    assert "card-void" in kinds(events) and game.state.stage is None
    assert game.state.phase == "final" and game.state.current == "Ben"


# -- parsing and the helpers --------------------------------------------------------------------


@pytest.mark.parametrize("text", [
    "Ana: Roll 1 5 5 3 2 6", "Ana: Keep 1 5 5", "Ana: Bank", "Ben: Play Prove It on Ana",
    "Ben: Play Double or Nothing", "Ben: Play Collateral Damage on Ana together",
    "Ana: Immunity", "Ben: Pick Ana", "Ana: Zombie 3", "Ben: Left Behind 4",
])
def test_calls_round_trip(text: str) -> None:
    game = rules.new_game("dice-ocalypse", ["Ana", "Ben"])
    assert game.parse(text).text() == text


@pytest.mark.parametrize(("text", "message"), [
    ("Roll 1 2", "say who: Ana or Ben could say it ('Ana: Roll 1 2')"),
    ("Dance", "not a call of Dice-ocalypse, or say who first"),
    ("Zed: Roll 1", "no player called 'Zed'"),
    ("Ana: Roll 7", "each a number 1 to 6"),
    ("Ana: Roll 1 2 3 4 5 6 1", "expected 1 to 6 dice"),
    ("Ana: Play Nuke on Ben", "no Act of War card called 'Nuke'"),
    ("Ana: Play Prove It", "Prove It needs 'on NAME'"),
    ("Ana: Play Bloodshed on Ben", "Bloodshed is not played on another player"),
    ("Ana: Dance", "not a Dice-ocalypse call"),
    ("Ana:", "nothing called after 'Ana'"),
])
def test_invalid_calls(text: str, message: str) -> None:
    game = rules.new_game("dice-ocalypse", ["Ana", "Ben"])
    with pytest.raises(InvalidCall, match=re.escape(message)):
        game.parse(text)


def test_options_are_checked() -> None:
    with pytest.raises(SetupError, match="option scoring-key='yahtzee': choose one of "
                                         "ten-thousand, farkle"):
        rules.new_game("dice-ocalypse", ["Ana", "Ben"], options={"scoring_key": "yahtzee"})
    with pytest.raises(SetupError, match="option double-ones='both'"):
        rules.new_game("dice-ocalypse", ["Ana", "Ben"], options={"double_ones": "both"})
    with pytest.raises(SetupError, match="Dice-ocalypse takes 2 to 6 players"):
        rules.new_game("dice-ocalypse", ["Ana"])


def test_legal_calls_lists_keeps_and_special_rolls() -> None:
    game = new("Ana Ben Cy", battle_zone="off")
    play(game, "Ana: Roll 1 5 5 3 2 6")
    calls = game.legal_calls()
    assert {c.text() for c in calls} == {"Ana: Keep 1 5 5", "Ana: Keep 1 5", "Ana: Keep 1",
                                         "Ana: Keep 5 5", "Ana: Keep 5"}
    play(game, "Ana: Keep 1", "Ana: Roll 2 3 4 6 6")
    assert game.state.zombie is None  # busting after the first roll earns nothing
    play(game, "Ben: Roll " + BUST)
    assert game.state.zombie == "Ben"
    texts = {c.text() for c in game.legal_calls()}
    assert "Ben: Zombie 4" in texts and "Cy: Roll 1 1 1 1 1 1" in texts
    assert not any(isinstance(c, SpecialRoll) and c.player == "Cy" for c in game.legal_calls())
    assert sum(isinstance(c, Roll) for c in game.legal_calls()) == 462


def test_undo_restores_a_battle_zone() -> None:
    game = battle_ready("Ana Ben")
    play(game, "Ana: Roll 1 1 1 5 2 3", "Ana: Keep 1 1 1 5", "Ana: Bank")
    before = game.snapshot()
    game.apply("Ana: Roll 4 4")
    game.undo()
    assert game.snapshot() == before
    assert rules.replay(game.setup, game.history).snapshot() == before


# -- the scoring keys ---------------------------------------------------------------------------

TT, FK, AD, BA = "ten-thousand", "farkle", "ten-thousand-additive", "basic"
ALL = (TT, FK, AD, BA)

# roll, best points and the dice that can score, the same under every key unless overridden.
# (None, "") is a bust.
SCORING_TABLE: list[tuple[str, tuple[int | None, str], dict[str, tuple[int | None, str]]]] = [
    ("1 5 5 3 2 6", (200, "1 5 5"), {}),
    ("2 3 4 6 6 2", (None, ""), {}),
    ("1 1 1 2 3 4", (1000, "1 1 1"), {}),
    ("2 2 2 3 4 6", (200, "2 2 2"), {}),
    ("5 5 5 1 2 3", (600, "1 5 5 5"), {}),
    ("1 2 3 4 5 6", (1500, "1 2 3 4 5 6"), {BA: (150, "1 5")}),
    ("2 2 3 3 4 4", (1000, "2 2 3 3 4 4"), {FK: (1500, "2 2 3 3 4 4"), BA: (None, "")}),
    ("1 1 5 5 2 2", (1000, "1 1 2 2 5 5"), {FK: (1500, "1 1 2 2 5 5"), BA: (300, "1 1 5 5")}),
    ("4 4 4 4 2 3", (800, "4 4 4 4"), {FK: (1000, "4 4 4 4")}),
    ("4 4 4 4 4 3", (1600, "4 4 4 4 4"), {FK: (2000, "4 4 4 4 4"), AD: (1200, "4 4 4 4 4"),
                                          BA: (1200, "4 4 4 4 4")}),
    ("6 6 6 6 6 6", (4800, "6 6 6 6 6 6"), {FK: (3000, "6 6 6 6 6 6"),
                                            AD: (2400, "6 6 6 6 6 6"),
                                            BA: (2400, "6 6 6 6 6 6")}),
    ("1 1 1 1 2 3", (2000, "1 1 1 1"), {FK: (1100, "1 1 1 1")}),
    ("1 1 1 1 1 1", (8000, "1 1 1 1 1 1"), {FK: (3000, "1 1 1 1 1 1"),
                                            AD: (4000, "1 1 1 1 1 1"),
                                            BA: (4000, "1 1 1 1 1 1")}),
    ("3 3 3 3 5 5", (700, "3 3 3 3 5 5"), {FK: (1500, "3 3 3 3 5 5")}),
    ("2 2 2 3 3 3", (500, "2 2 2 3 3 3"), {FK: (2500, "2 2 2 3 3 3")}),
    ("5 5 5 5 5 5", (4000, "5 5 5 5 5 5"), {FK: (3000, "5 5 5 5 5 5"),
                                            AD: (2000, "5 5 5 5 5 5"),
                                            BA: (2000, "5 5 5 5 5 5")}),
    ("1 5 2 2 3 4", (150, "1 5"), {}),
    ("6 6 6 5 1 1", (850, "1 1 5 6 6 6"), {}),
    ("3 3 4 4 6 6", (1000, "3 3 4 4 6 6"), {FK: (1500, "3 3 4 4 6 6"), BA: (None, "")}),
    ("2 2 2 2 2 2", (1600, "2 2 2 2 2 2"), {FK: (3000, "2 2 2 2 2 2"),
                                            AD: (800, "2 2 2 2 2 2"),
                                            BA: (800, "2 2 2 2 2 2")}),
    ("1 1 2 2 3 3", (1000, "1 1 2 2 3 3"), {FK: (1500, "1 1 2 2 3 3"), BA: (200, "1 1")}),
    ("5", (50, "5"), {}),
    ("3", (None, ""), {}),
    ("1 1", (200, "1 1"), {}),
    ("5 5 5", (500, "5 5 5"), {}),
    ("2 2 2 2", (400, "2 2 2 2"), {FK: (1000, "2 2 2 2")}),
    ("1 2 3 4 5", (150, "1 5"), {}),
    ("3 3 3 1 1 1", (1300, "1 1 1 3 3 3"), {FK: (2500, "1 1 1 3 3 3")}),
    ("4 4 4 4 1 1", (1000, "1 1 4 4 4 4"), {FK: (1500, "1 1 4 4 4 4")}),
    ("2 3 4 6 6 6", (600, "6 6 6"), {}),
    ("5 5 2 3 4 6", (100, "5 5"), {}),
    ("6 6 4 4 2 3", (None, ""), {}),
    ("1 1 1 5 5 5", (1500, "1 1 1 5 5 5"), {FK: (2500, "1 1 1 5 5 5")}),
    ("5 5 5 5 1 2", (1100, "1 5 5 5 5"), {FK: (1100, "1 5 5 5 5"), AD: (1100, "1 5 5 5 5"),
                                          BA: (1100, "1 5 5 5 5")}),
    ("4 4 4 5 5 6", (500, "4 4 4 5 5"), {}),
]


def _dice(text: str) -> tuple[int, ...]:
    return tuple(int(v) for v in text.split())


@pytest.mark.parametrize("key_name", ALL)
@pytest.mark.parametrize(("roll", "expected", "overrides"), SCORING_TABLE)
def test_scoring_table(key_name: str, roll: str,
                       expected: tuple[int | None, str],
                       overrides: dict[str, tuple[int | None, str]]) -> None:
    key = scoring_key(key_name)
    points, dice = overrides.get(key_name, expected)
    best = best_keep(_dice(roll), key)
    assert (best.points if best else None) == points, f"{roll} under {key_name}"
    assert scoring_dice(_dice(roll), key) == _dice(dice), f"{roll} under {key_name}"
    assert is_bust(_dice(roll), key) is (points is None)
    if best is not None:
        assert keep_score(best.dice, key) == points


def test_scoring_table_covers_every_key_and_dozens_of_rolls() -> None:
    assert set(key_names()) == set(ALL) and key_names()[0] == TT
    assert len(SCORING_TABLE) >= 30


def test_keep_score_and_mask_details() -> None:
    key = scoring_key(TT)
    assert keep_score((5, 5), key) == 100
    assert keep_score((2, 2), key) is None  # a pair alone scores nothing
    assert keep_score((1, 1, 1, 1, 5), key) == 2050
    assert scoring_mask((5, 2, 5, 1, 3, 3), key) == (True, False, True, True, False, False)
    options = keep_options((1, 5, 5, 3, 2, 6), key)
    assert [(o.dice, o.points) for o in options] == [
        ((1, 5, 5), 200), ((1, 5), 150), ((5, 5), 100), ((1,), 100), ((5,), 50)]
    with pytest.raises(ValueError, match=r"keep \(1, 7\): every die must be a whole number 1 "
                                         "to 6, got 7"):
        keep_score((1, 7), key)
    with pytest.raises(ValueError, match="unknown scoring key 'yahtzee'; choose one of: "
                                         "ten-thousand, farkle"):
        scoring_key("yahtzee")


@pytest.mark.parametrize("key_name", ALL)
def test_game_scores_with_the_chosen_key(key_name: str) -> None:
    game = new(scoring_key=key_name)
    if key_name == BA:  # no three pairs in the basic key: a bust
        assert "bust" in kinds(play(game, "Ana: Roll 2 2 3 3 4 4"))
        assert game.state.current == "Ben"
        return
    play(game, "Ana: Roll 2 2 3 3 4 4", "Ana: Keep 2 2 3 3 4 4", "Ana: Bank")
    assert game.state.scores["Ana"] == {TT: 1000, FK: 1500, AD: 1000}[key_name]


# -- more rulings -------------------------------------------------------------------------------


def test_collateral_gain_can_start_a_battle_zone() -> None:
    game = cards_ready(battle_zone="once-per-player", battle_zone_at=2000, target=2500)
    play(game, "Ana: Roll 5 2 3 4 6 6", "Ana: Keep 5", "Ana: Bank")
    # Right after Ana's turn Ben (1,000) wins Collateral Damage: 2,000, a Battle Zone that is
    # not his own turn, so his doubles give him a double-next card.
    events = play(game, "Ben: Play Collateral Damage on Ana", "Ana: Roll 1 1 1",
                  "Ben: Roll 2 2 2")
    assert "battle-zone" in kinds(events) and game.state.scores == {"Ana": 50, "Ben": 2000}
    play(game, "Ana: Roll 2 3", "Ben: Roll 6 6")
    assert game.state.double_next["Ben"] and game.state.current == "Ben"
    play(game, "Ben: Roll 5 2 3 4 6 6", "Ben: Keep 5")
    events = play(game, "Ben: Bank")  # 50 doubled: 2,100; no end yet
    assert game.state.scores["Ben"] == 2100 and game.state.phase == "play"
    # Ana, cut to 50, may not play a card.
    with pytest.raises(IllegalCall, match="Ana has 50 points and needs at least 1000"):
        game.apply("Ana: Play Collateral Damage on Ben")


def test_battle_zone_doubles_void_after_a_card_took_effect() -> None:
    game = battle_ready("Ana Ben")
    bank_1000(game, "Ana")  # 5,000 and a Battle Zone; nobody gets a card
    play(game, "Ana: Roll 2 3", "Ben: Roll 2 3")
    bank_1000(game, "Ben")
    bust(game, "Ana")
    play(game, "Ben: Roll 1 1 1 1 2 3", "Ben: Play Double or Nothing", "Ben: Keep 1 1 1 1",
         "Ben: Roll 5 2", "Ben: Keep 5")
    # Ben: 1,000 + 2,050; Double or Nothing doubles it to 5,100: a Battle Zone.
    play(game, "Ben: Bank", "Ben: Roll 6")
    assert game.state.scores["Ben"] == 5100
    events = play(game, "Ana: Roll 3 4", "Ben: Roll 3 3")
    assert any("already took effect" in e.text for e in events)
    assert game.state.scores["Ben"] == 5100 and not game.state.double_next["Ben"]


def test_immunity_against_collateral_damage_and_no_second_card() -> None:
    game = cards_ready("Ana Ben Cy")
    play(game, "Ana: Roll 1 5 2 3 4 6", "Ben: Play Collateral Damage on Ana", "Ana: Immunity")
    with pytest.raises(IllegalCall, match="Ben's Collateral Damage on Ana was played first"):
        game.apply("Cy: Play Do or Die on Ana")
    play(game, "Ana: Keep 1", "Ana: Bank")
    assert game.state.stage is None and game.state.scores["Ana"] == 1100


def test_specials_and_cards_are_off_in_the_final_round() -> None:
    game = new("Ana Ben Cy", target=2000, battle_zone="off")
    bank_1000(game, "Ana")
    bust(game, "Ben")  # Ben: the Zombie die
    bank_1000(game, "Cy")  # Ben: the Left Behind die too
    play(game, "Ana: Play Bloodshed", "Ana: Roll 1 1 1 5 2 3", "Ana: Keep 1 1 1 5", "Ana: Bank")
    assert game.state.phase == "final" and game.state.scores["Cy"] == 1000  # Bloodshed void
    with pytest.raises(IllegalCall, match="Ben: Zombie 2: no special die now; the dice-ocalypse "
                                          "has begun"):
        game.apply("Ben: Zombie 2")
    with pytest.raises(IllegalCall, match="Ben: Left Behind 2: no special die now"):
        game.apply("Ben: Left Behind 2")
    with pytest.raises(IllegalCall, match="Cy: Immunity: no Act of War card is being played"):
        game.apply("Cy: Immunity")


def test_infected_hot_dice_six_option_and_left_behind_earned_once() -> None:
    game = new("Ana Ben Cy", battle_zone="off", infected_hot_dice="six")
    bank_1000(game, "Ana")
    bust(game, "Ben")
    play(game, "Ben: Zombie 3", "Cy: Roll 1 1 1", "Cy: Keep 1 1 1")
    assert game.state.turn is not None and game.state.turn.available == 6
    play(game, "Cy: Bank")
    assert game.state.left_behind == "Ben"
    bank_1000(game, "Ana")
    bank_1000(game, "Ben")
    assert game.state.left_behind == "Ben"  # nobody has zero points now; it stays


def test_scores_below_zero_option() -> None:
    game = cards_ready("Ana Ben", scores_below_zero=True)
    play(game, "Ana: Play Bloodshed", "Ana: Roll 1 1 1 5 5 5", "Ana: Keep 1 1 1 5 5 5",
         "Ana: Roll 2 3 4 6 6 5", "Ana: Keep 5", "Ana: Bank")
    assert game.state.scores == {"Ana": 2550, "Ben": -550}
    floor = cards_ready("Ana Ben")
    play(floor, "Ana: Play Bloodshed", "Ana: Roll 1 1 1 5 5 5", "Ana: Keep 1 1 1 5 5 5",
         "Ana: Roll 2 3 4 6 6 5", "Ana: Keep 5", "Ana: Bank")
    assert floor.state.scores == {"Ana": 2550, "Ben": 0}


def test_standings_show_cards_dice_and_the_end() -> None:
    game = new("Ana Ben Cy", battle_zone="off")
    bank_1000(game, "Ana")
    bust(game, "Ben")
    rows = {r[0]: r for r in game.standings().rows}
    assert rows["Ana"][1:4] == ("1000", "5", "yes") and "Zombie die" in rows["Ben"][4]
    assert game.standings().winner is None and not game.standings().is_over


def test_collateral_gain_past_the_target_starts_the_end() -> None:
    game = cards_ready(target=1900)
    play(game, "Ana: Roll 5 2 3 4 6 6", "Ana: Keep 5", "Ana: Bank")
    events = play(game, "Ben: Play Collateral Damage on Ana", "Ana: Roll 1 1 1",
                  "Ben: Roll 2 2 2")
    assert "dice-ocalypse" in kinds(events)
    # Ben was to play next, but he set the mark: Ana, who just played, has the final turn.
    assert game.state.final_mark == 2000 and game.state.current == "Ana"
    play(game, "Ana: Roll 1 1 1 1 5 5", "Ana: Keep 1 1 1 1 5 5", "Ana: Bank")
    assert game.is_over and game.standings().winner == "Ana" and game.state.diced == []


def test_golden_transcript_replays_to_its_standings() -> None:
    path = Path(__file__).with_name("diceocalypse_golden.game")
    game = rules.parse_game_file(path.read_text(encoding="utf-8"), path.name).play(path.name)
    assert game.is_over
    standings = game.standings()
    assert standings.winner == "Ben"
    assert [r[:2] for r in standings.rows] == [("Ana", "0"), ("Ben", "4100"), ("Cy", "4050")]
    assert game.state.diced == ["Ana"] and game.state.final_mark == 4050
    assert game.state.zombie == "Ben" and game.state.left_behind == "Ana"
    assert "Prove It" not in game.state.cards["Cy"]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_legal_calls_agree_with_apply(seed: int) -> None:
    rng = random.Random(seed)
    game = rules.from_setup(Diceocalypse.random_setup(rng))
    assert isinstance(game, Diceocalypse)
    for step in range(120):
        if game.is_over:
            break
        if step % 6 == 0:
            legal = game.legal_calls()
            assert legal
            before = game.snapshot()
            for call in [c for c in legal if not isinstance(c, Roll)] + rng.sample(
                    [c for c in legal if isinstance(c, Roll)],
                    min(5, sum(isinstance(c, Roll) for c in legal))):
                game.apply(call)
                game.undo()
                assert game.snapshot() == before
        call = game.random_call(rng)
        if isinstance(call, Roll):
            assert Roll(call.player, tuple(sorted(call.values))) in game.legal_calls()
        else:
            assert call in game.legal_calls()
        game.apply(call)


def test_battle_zone_doubles_do_not_stack_on_a_doubled_turn() -> None:
    game = new("Ana Ben", battle_zone_at=2000, special_dice=False)
    bank_1000(game, "Ana")
    bank_1000(game, "Ben")
    play(game, "Ana: Roll 1 1 1 2 3 4", "Ana: Keep 1 1 1", "Ana: Bank")  # Ana 2,000
    play(game, "Ana: Roll 2 3", "Ben: Roll 5 5")
    assert game.state.double_next["Ben"]
    play(game, "Ben: Roll 1 1 1 2 3 4", "Ben: Keep 1 1 1")
    events = play(game, "Ben: Bank")  # 2,000 doubled: 3,000 and Ben's own Battle Zone
    assert game.state.scores["Ben"] == 3000 and "battle-zone" in kinds(events)
    events = play(game, "Ana: Roll 2 3", "Ben: Roll 6 6")
    assert any("no double" in e.text for e in events) and game.state.scores["Ben"] == 3000


def test_no_card_at_the_same_moment_as_one_taken_back_or_played_out() -> None:
    # Found by the conformance test (random play, 6 players): Ben's Prove It went back to him
    # when Eve's turn scored nothing; a Do or Die played "together" with it afterwards started
    # a clash with a card already taken back, and Ben ended holding Prove It twice.
    setup = rules.Setup("dice-ocalypse", ("Ari", "Ben", "Cy", "Dee", "Eve", "Fay"), {
        "scoring-key": "basic", "target": 1500, "battle-zone-at": 750, "card-minimum": 300,
        "opening-minimum": 300, "win-threshold": "over", "battle-zone": "every-time",
        "double-ones": "one", "zombie-six": "lose-turn", "infected-hot-dice": "six",
        "left-behind-counts": "others"}, 1549462975)
    game = rules.from_setup(setup)
    assert isinstance(game, Diceocalypse)
    said = ["Fay: Roll 4", "Dee: Roll 4", "Ben: Roll 3", "Eve: Roll 4", "Cy: Roll 4",
            "Ari: Roll 2", "Fay: Roll 6", "Cy: Roll 1", "Eve: Roll 3", "Dee: Roll 4",
            "Fay: Roll 6 5 6 6 4 5", "Fay: Keep 5 5 6 6 6", "Fay: Bank",
            "Ari: Roll 3 2 6 1 6 6", "Ari: Keep 1 6 6 6", "Ari: Bank",
            "Ben: Roll 6 4 5 1 5 1", "Ben: Keep 1 1 5 5", "Ben: Bank",
            "Cy: Roll 5 2 4 6 4 3", "Cy: Keep 5", "Cy: Roll 3 3 3 3 3", "Cy: Keep 3 3 3",
            "Ben: Play Do or Die on Cy", "Cy: Bank", "Ben: Roll 2",
            "Dee: Roll 2 6 4 4 3 1", "Dee: Keep 1", "Dee: Roll 1 4 2 1 3", "Dee: Keep 1",
            "Dee: Roll 4 4 4 6", "Dee: Keep 4 4 4", "Dee: Bank",
            "Eve: Roll 5 1 4 5 6 5", "Ben: Play Prove It on Eve", "Eve: Keep 5 5",
            "Eve: Roll 3 2 2 4", "Eve: Left Behind 3", "Cy: Play Bloodshed"]
    for call in said:
        game.apply(call)
    assert game.state.cards["Ben"].count("Prove It") == 1  # Eve scored nothing: it came back
    before = game.snapshot()
    with pytest.raises(IllegalCall, match="same moment"):
        game.apply("Cy: Play Do or Die on Eve together")
    assert game.snapshot() == before
    game.check_invariants()
