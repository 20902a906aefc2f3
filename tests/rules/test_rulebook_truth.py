"""Issue 25, "The rules keep the table's truth": one scenario per defect, each quoting the
rulebook sentence it follows.

Every test here failed on the engines before the fix (checked against the previous commit's
``rules/``); each now passes. Positions are set by changing a fresh game's state before the
calls under test, as a chess test sets up a FEN; every rule under test runs through
``game.apply``.
"""

from __future__ import annotations

from typing import Any

import pytest

import rules
from rules import IllegalCall, InvalidCall, RulesError, SetupError
from rules.dice_forge import DiceForge
from rules.eye_for_an_eye import EyeForAnEye
from rules.occulites import CARDS, OcculitesGame
from rules.tribal_village import TribalVillage

# -- Dice Forge: scores that drifted -------------------------------------------------------


def forge(players: tuple[str, ...] = ("Ana", "Ben"), **options: Any) -> DiceForge:
    game = rules.new_game("dice-forge", players, options, seed=7)
    assert isinstance(game, DiceForge)
    return game


def bless_all(game: DiceForge) -> None:
    """Answer every start-of-turn blessing with two gold faces."""
    while game.state.steps and game.state.steps[0].kind == "roll2":
        game.apply(f"{game.state.steps[0].player}: Rolled 1 gold, 1 gold")


def test_green_shield_with_a_glory_face_gives_reward_a() -> None:
    # Reference, die faces: "Shield ... green = GP. If your other die gave you that resource in
    # this blessing: gain 5 GP (reward A). Otherwise gain reward B: ... green 3 GP. Never both."
    game = forge()
    game.state.players[0].dice[0][1] = "green shield"
    game.apply("Ana: Rolled green shield, 2 glory")
    assert game.state.players[0].glory == 2 + 5  # was 2 + 3: the glory gain went unseen


def test_green_chaos_with_a_loyalty_and_glory_face_gives_reward_a() -> None:
    # Rebellion rulebook, Chaos faces: "Reward A: If your other die gives you a resource that
    # matches the color of that die face gain the Reward A" (green: glory; A = 2 loyalty and
    # 3 glory, B = 2 loyalty).
    game = forge(module="titans")
    ana = game.state.players[0]
    ana.dice[0][1] = "green chaos"
    game.apply("Ana: Rolled green chaos, 1 loyalty + 1 glory")
    ana = game.state.players[0]
    assert ana.glory == 1 + 3  # was 1: reward B


def test_the_oracle_moves_the_others_on_a_loyalty_face() -> None:
    # Rebellion rulebook, The Oracle: "Receive a minor blessing. Moreover, if you gain [ancient]
    # or [loyalty] with this blessing, move the Allegiance tokens of every other players one
    # space to the left (to Rebellion) on the Titans Board."
    game = forge(module="titans")
    bless_all(game)
    ana = game.state.players[0]
    ana.cards.append("oracle")
    game.state.total_cards += 1
    before = game.state.players[1].titan
    game.apply("Ana: Use The Oracle")
    game.apply("Ana: Rolled 1 loyalty + 1 glory on die 2")
    assert game.state.players[1].titan == before - 1  # did not move


@pytest.mark.parametrize(("card", "slot", "give", "use", "choose"), [
    ("triton", "F5", {"tokens": ["triton"]}, "Ana: Use Triton", "Ana: Choose 2 sun"),
    ("companion", "M2", {"companion": [2]}, "Ana: Use The Companion", "Ana: Choose cash in"),
    ("scepter", "M1", {"scepter": [4], "sun": 1}, "Ana: Use The Blacksmith's Scepter",
     "Ana: Choose 1 sun"),
])
def test_the_turn_waits_when_an_own_turn_card_could_pay_the_extra_action(
        card: str, slot: str, give: dict[str, Any], use: str, choose: str) -> None:
    # Reference 1.2: "BGA timing details: single-use tokens (Triton) and the Companion cash-in
    # may be used during the active player's own turn"; the Scepter's shards "may be used only
    # during your turn"; "4. Extra action ... may pay 2 S to take one more action".
    game = forge(cards={slot: card})
    bless_all(game)
    ana = game.state.players[0]
    ana.cards.append(card)
    game.state.total_cards += 1
    ana.sun = 0
    for key, value in give.items():
        setattr(ana, key, value)
    game.apply("Ana: Forge 3 gold on die 1 over 1 gold")
    assert game.waiting_for() == "Ana: Extra action or End turn"  # was: Ben's turn began
    game.apply(use)
    game.apply(choose)
    game.apply("Ana: Extra action")
    game.apply("Ana: Pass")
    assert game.state.current.name == "Ben"
    game.check_invariants()


def test_the_turn_still_ends_by_itself_when_nothing_could_pay() -> None:
    game = forge()
    bless_all(game)
    game.state.players[0].sun = 1
    game.apply("Ana: Forge 3 gold on die 1 over 1 gold")
    assert game.state.current.name == "Ben"


# -- The table deals -----------------------------------------------------------------------


def test_dice_forge_two_player_sanctuary_is_what_the_table_removed() -> None:
    # Reference 1.1, 2 players: "Faces per Sanctuary pool: 2 (remove 2 at random from each
    # pool)". The table removed 2 faces by hand; the engine had drawn others.
    game = forge()
    pool5 = ["6 gold", "1 gold or 1 sun or 1 moon", "1 glory + 1 sun", "2 gold + 1 moon"]
    engine_removed = [f for f in pool5 if f not in game.state.pools["5"]]
    table_removed = [f for f in pool5 if f not in engine_removed]
    (deal,) = game.table_deals()
    assert deal.kind == "sanctuary"
    assert [c.label for c in deal.choices] == ["Pool 5 (4 gold)", "Pool 10 (12 gold)"]
    assert list(deal.choices[0].current) == engine_removed
    text = deal.call([table_removed, list(deal.choices[1].current)])
    assert text.startswith(f"Sanctuary removed: {table_removed[0]}, {table_removed[1]}, ")
    game.apply(text)
    assert sorted(game.state.pools["5"]) == sorted(engine_removed)
    bless_all(game)
    game.state.players[0].gold = 4
    game.apply(f"Ana: Forge {engine_removed[0]} on die 1 over 1 gold")  # it is on the table
    assert game.table_deals() == ()  # a face has left the Sanctuary: no more saying
    with pytest.raises(IllegalCall, match="a face has already been taken from the Sanctuary"):
        game.apply(text)


def test_dice_forge_sanctuary_call_is_checked() -> None:
    game = forge()
    with pytest.raises(IllegalCall, match="say the 2 faces removed from pool 10"):
        game.apply("Sanctuary removed: 6 gold, 2 gold + 1 moon")
    with pytest.raises(IllegalCall, match="2 faces are removed from pool 5, not 3"):
        game.apply("Sanctuary removed: 6 gold, 2 gold + 1 moon, 1 glory + 1 sun, 4 glory, "
                   "3 glory")
    with pytest.raises(IllegalCall, match="pool 1 has no more 3 gold faces to remove"):
        game.apply("Sanctuary removed: 3 gold, 3 gold, 3 gold, 3 gold, 3 gold, 6 gold, "
                   "2 gold + 1 moon, 4 glory, 3 glory")
    with pytest.raises(IllegalCall, match="only with 2 players"):
        forge(("A", "B", "C")).apply("Sanctuary removed: 6 gold, 2 gold + 1 moon")
    assert forge(("A", "B", "C")).table_deals() == ()


def occulites(**options: Any) -> OcculitesGame:
    game = rules.new_game("occulites", ["Ana", "Ben"], options, seed=3)
    assert isinstance(game, OcculitesGame)
    game.apply("Ana: Tribe Palaudis")
    game.apply("Ben: Tribe Hydris")
    return game


def test_occulites_scores_the_tribe_card_the_table_flipped() -> None:
    # Setup 4: "Flip the top card of this newly created stack. The colour revealed is the Tribe
    # that everyone will be researching first."
    game = occulites()
    flipped = next(t for t in game.state.tribe_deck if t not in ("Palaudis", "Hydris"))
    deal = next(d for d in game.table_deals() if d.kind == "tribe-card")
    assert flipped in deal.choices[0].options
    game.apply(deal.call([[flipped]]))
    assert game.state.tribe == flipped
    assert game.state.cards == [f"{flipped} {n}" for n in range(1, 7)]
    game.apply("Ana: Line-up green 6, green 1, green 1, green 1, green 1, green 1")
    game.apply("Ben: Line-up blue 1, blue 1, blue 1, blue 1, blue 1, blue 1")
    events = game.apply("Reveal")
    assert events[1].data["card"] == f"{flipped} 1" and events[1].data["winner"] == "Ana"
    # Once line-ups have begun, the round's cards are final.
    assert game.table_deals() == ()


def test_occulites_the_table_may_deal_another_tribe_into_the_number_1_deck() -> None:
    # Setup 3: "If the total number of these cards does not equal 5, then deal additional
    # number 1 cards from other Tribe sets until you have 5."
    game = occulites()
    outside = next(t for t in game.options.tribes
                   if t not in (*game.state.tribe_deck, game.state.tribe))
    game.apply(f"Flip {outside}")
    deck = [*game.state.tribe_deck, game.state.tribe]
    assert len(deck) == 5 and {"Palaudis", "Hydris", outside} <= set(deck)
    game.check_invariants()


def test_occulites_flips_a_tribe_only_once_per_cycle() -> None:
    game = occulites(rounds=6)
    first = game.state.tribe
    for p in ("Ana", "Ben"):
        colour = "green" if p == "Ana" else "blue"
        game.apply(f"{p}: Line-up " + ", ".join([f"{colour} 3"] * 6))
    game.apply("Reveal")
    while game.phase == "share":
        game.apply(f"{game.whose_turn()}: Pass")
    with pytest.raises(IllegalCall, match=f"Flip {first}: {first} was already researched"):
        game.apply(f"Flip {first}")


def test_occulites_scores_the_creature_the_table_drew() -> None:
    # Using Creatures and Predators 2-3: "draw the top card of the Creatures and Predators
    # deck. Have a look at the card number ... and replace the card in the line-up with that
    # same number".
    game = occulites(creatures=True)
    old = next(c for c in game.state.cards if CARDS[c].set in ("Creatures", "Predators"))
    new = next(c for c in game.state.creature_deck if CARDS[c].number != CARDS[old].number)
    game.apply(f"Flip {new}")
    tribe = game.state.tribe
    assert game.state.cards[CARDS[new].number - 1] == new
    assert game.state.cards[CARDS[old].number - 1] == f"{tribe} {CARDS[old].number}"
    assert old in game.state.creature_deck and new not in game.state.creature_deck


def test_occulites_conflicted_interests_piles_are_what_the_table_flipped() -> None:
    # Conflicted Interests: "At the start of each round, flip the top card off each pile and
    # place it on the line up."
    game = occulites(conflicted_interests=True)
    (deal,) = game.table_deals()
    picks = [[next(o for o in c.options if o not in c.current)] for c in deal.choices]
    game.apply(deal.call(picks))
    assert game.state.cards == [p[0] for p in picks]
    game.check_invariants()


def test_occulites_conflicted_interests_piles_hold_the_creatures_by_default() -> None:
    # Conflicted Interests: "Take all the cards from all Tribes and the Creatures and Predators
    # and separate them into piles of the same card numbers."
    game = occulites(conflicted_interests=True)
    in_piles = {c for n in range(1, 7) for c in [*game.state.piles[n], game.state.cards[n - 1]]}
    assert {"Creatures 1", "Predators 6"} <= in_piles
    house = occulites(conflicted_interests=True, conflicted_creatures="with-creatures")
    in_piles = {c for n in range(1, 7) for c in [*house.state.piles[n], house.state.cards[n - 1]]}
    assert not any(c.startswith(("Creatures", "Predators")) for c in in_piles)


def eye(players: tuple[str, ...] = ("Ana", "Ben"), **options: Any) -> EyeForAnEye:
    game = rules.new_game("eye-for-an-eye", players, options, seed=5)
    assert isinstance(game, EyeForAnEye)
    return game


def test_eye_for_an_eye_starting_areas_are_dealt_and_the_table_may_say_its_own() -> None:
    # Setting up a Game 2: "Shuffle the six Ceremonial Flower Tokens and deal one randomly to
    # each player. This determines your figure's starting area."
    game = eye(("Ana", "Ben", "Cy"))
    areas = game.starting_areas()
    assert sorted(areas) == ["Ana", "Ben", "Cy"] and len(set(areas.values())) == 3
    assert set(areas.values()) <= {1, 2, 3, 4, 5, 6}
    (deal,) = game.table_deals()
    assert deal.current_call() == "Starting areas: " + ", ".join(
        f"{c} {areas[p]}" for p, c in zip(("Ana", "Ben", "Cy"),
                                          ("Grubic", "Riparian", "Banksia"), strict=True))
    game.apply("starting areas: ana 6, riparian four, Banksia 1")
    assert game.history[-1].call == "Starting areas: Grubic 6, Riparian 4, Banksia 1"
    assert game.starting_areas() == {"Ana": 6, "Ben": 4, "Cy": 1}
    game.apply("Grubic: Movement 1")
    assert game.table_deals() == ()
    with pytest.raises(IllegalCall, match="dealt before the round's first call"):
        game.apply("Starting areas: Grubic 1, Riparian 2, Banksia 3")
    with pytest.raises(IllegalCall, match="each flower token is dealt once"):
        eye(("Ana", "Ben")).apply("Starting areas: Grubic 1, Riparian 1")
    with pytest.raises(IllegalCall, match="Riparian has none"):
        eye(("Ana", "Ben")).apply("Starting areas: Grubic 1")


def test_tribal_village_alliances_may_name_the_tribes_the_table_drew() -> None:
    # Setup: "gather the Tribal Ally cards and randomly select a number of these and set them
    # up". The table drew its own Tribal Ally cards.
    game = rules.new_game("tribal-village", ["Maya", "Leo", "Shae"], seed=4)
    assert isinstance(game, TribalVillage)
    deals = {d.kind: d for d in game.table_deals()}
    assert set(deals) == {"alliances", "objectives"}
    assert len(deals["alliances"].choices[0].options) == 11  # any Tribal Ally card
    text = deals["alliances"].call([["Palaudis", "Hydris"], ["Ignis", "Boletus"], ["Luftles"]])
    assert text == "Alliances: Palaudis+Hydris, Ignis+Boletus, Luftles"
    game.apply(text)
    assert sorted(game.state.tribes) == ["Boletus", "Hydris", "Ignis", "Luftles", "Palaudis"]
    assert set(game.state.nets) == {"Maya", "Leo", "Shae"}  # Hydris is in: Hunting Nets
    objectives = deals["objectives"].current_call()
    game.apply(objectives)
    assert game.state.revealed == objectives.removeprefix("Objectives: ").split(", ")


# -- Eye for an Eye in real time -----------------------------------------------------------


def panel(game: EyeForAnEye, player: str) -> Any:
    return next(s for s in game.seats() if s.player == player)


def test_a_second_attack_leaves_the_first_attacks_parry_window_open() -> None:
    # Conflicts and Timing: "it defaults to whichever action is called first is resolved
    # first, with others being resolved after the first in order of being called." Defending:
    # "When an opponent resolves an attack on you from a space in your front arc ... you can
    # resolve a basic Defence in response."
    game = eye(("Ana", "Ben", "Cy"))
    game.apply("Grubic: Spear Thrust 3 on Riparian")
    events = game.apply("Banksia: Attack 2 on Riparian")
    assert [e.kind for e in events] == ["attack-pending"]  # was: Grubic's 3 hits landed
    events = game.apply("Riparian: Parry 2")
    assert [e.text for e in events] == ["Riparian cancels 2 of 3 hits",
                                        "1 hit on Riparian: 1 to Ana's cup"]
    assert [(p.attacker, p.hits) for p in game.pending()] == [("Banksia", 2)]
    game.apply("Hits land on Riparian")
    assert (panel(game, "Ana").cup, panel(game, "Cy").cup, panel(game, "Ben").health) == \
        (1, 2, 12)


def test_regular_hits_stay_parryable_when_unblockable_hits_follow() -> None:
    # Unblockable Hits: "If a combination of hits and Unblockable hits are inflicted on your
    # character, you can cancel the regular hits if you are able, but the Unblockable hits go
    # through."
    for order in (["Grubic: Spear Thrust 2 on Riparian", "Grubic: Unblockable 1 on Riparian"],
                  ["Grubic: Unblockable 1 on Riparian", "Grubic: Spear Thrust 2 on Riparian"]):
        game = eye()
        for call in order:
            game.apply(call)
        game.apply("Riparian: Parry 2")
        assert (panel(game, "Ana").cup, panel(game, "Ben").health) == (1, 14), order


def test_the_rulebooks_own_calls_with_number_words() -> None:
    # Resolving Actions: "we could allocate the two dice from the example and then call out
    # 'Movement Two'". Defending: "You can still resolve a basic Defence action to cancel one
    # hit by calling 'Parry 1'".
    game = eye()
    assert game.apply("Grubic: Movement Two")[0].text == "Grubic: Movement 2"
    game.apply("Grubic: Spear Thrust three on Riparian")
    game.apply("Riparian: Parry One")
    assert [h.call for h in game.history] == ["Grubic: Movement 2",
                                              "Grubic: Spear Thrust 3 on Riparian",
                                              "Riparian: Parry 1"]


def test_a_call_needs_no_who_when_only_one_character_can_make_it() -> None:
    # Attacking: "you could resolve a basic attack action against an adjacent Hydris Chief by
    # calling out 'Spear Thrust 3 on Hydris'".
    game = eye(("Ana", "Ben", "Cy"))
    assert game.parse("Spear Thrust 3 on Hydris").text() == "Grubic: Spear Thrust 3 on Riparian"
    game.apply("Spear Thrust 3 on Hydris")
    # Everyone has a Parry, but only Riparian has an attack to parry.
    assert game.parse("Parry 2").text() == "Riparian: Parry 2"
    with pytest.raises(InvalidCall, match="say who: Grubic, Riparian or Banksia could say it"):
        game.parse("Movement 1")


@pytest.mark.parametrize(("length", "rounds"), [("sides", 3), ("players", 5)])
def test_alliance_match_length_counts_teams_or_players(length: str, rounds: int) -> None:
    # How to Win: "Eye for an Eye is most enjoyable when played to a number of rounds equal to
    # the number of players, plus one." Every player counts by default (the rulebook's words
    # and its example); groups that count a team as one say match-length = "sides".
    game = eye(("Ana", "Ben", "Cy", "Di"), mode="alliances", match_length=length,
               teams=[["Ana", "Ben"], ["Cy", "Di"]])
    assert game.rounds_total == rounds


# -- Small ones ----------------------------------------------------------------------------


def test_dice_ocalypse_names_are_read_in_any_case() -> None:
    # Gameplay: "Each player rolls 1 die to determine who takes first turn."
    game = rules.new_game("dice-ocalypse", ["Ana", "Ben"])
    game.apply("ana: Roll 5")
    game.apply("BEN: roll two")
    assert [e.call for e in game.history] == ["Ana: Roll 5", "Ben: Roll 2"]


@pytest.mark.parametrize("said", [
    "Ana: Line up green 5, green 3, green 2, green 6, green 1, green 4",
    "Ana: Lineup green 5, green 3, green 2, green 6, green 1, green 4",
    "ana: line-up green 5 green 3 green 2 green 6 green 1 green 4",
    "Ana : Line-up Green five,green 3 , green 2, green six, green 1, green 4.",
])
def test_occulites_line_up_as_players_say_it(said: str) -> None:
    # How to play 3: "players line up their dice in the order they wish".
    game = occulites()
    assert game.parse(said).text() == \
        "Ana: Line-up green 5, green 3, green 2, green 6, green 1, green 4"


def tribal(**options: Any) -> TribalVillage:
    game = rules.new_game("tribal-village", ["Maya", "Leo", "Shae"],
                          {"alliances": "Hydris+Floris, Ignis+Tachydus, Luftles", **options},
                          seed=4)
    assert isinstance(game, TribalVillage)
    game.apply("Objectives: " + ", ".join(game.state.revealed))
    for p in ("Maya", "Leo", "Shae"):
        game.apply(f"{p}: Objective {game.state.revealed[0]}")
    game.apply("Maya: Leads first")
    return game


def test_tribal_village_no_chaos_is_the_default() -> None:
    # Tribal Abilities: "A player can use this ability when they play the card and its trigger
    # text is satisfied." Floris: "When you win a trick with this card, all other players add a
    # random card from their hand".
    game = tribal()
    for call in ("Maya: Floris 8", "Leo: Floris 2", "Shae: Hydris 1"):
        game.apply(call)
    assert "Floris" in game.waiting_for()
    events = game.apply("Maya: Ignis 3")  # the winner leads the next trick
    assert events[0].text == "Maya: No chaos (taken as said: 'Maya: Ignis 3' came next)"
    assert game.state.villages["Maya"] == [["Floris 8", "Floris 2", "Hydris 1"]]
    assert game.history[-1].call == "Maya: Ignis 3"


def test_tribal_village_no_manipulation_is_the_default() -> None:
    # Tachydus: "When you win a trick with this card, you may select a non Tachydus card from
    # any one player's Village and return it to its owner's hand."
    game = tribal()
    for call in ("Maya: Floris 8", "Leo: Floris 2", "Shae: Hydris 1", "Maya: No chaos",
                 "Maya: Tachydus 8", "Leo: Tachydus 1", "Shae: Ignis 2"):
        game.apply(call)
    assert "Tachydus" in game.waiting_for()
    game.apply("Maya: Luftles 3")
    assert [len(v) for v in game.state.villages.values()] == [2, 0, 0]


def test_tribal_village_leaving_the_net_is_the_default() -> None:
    # Hydris: "On their turn, after they choose a card, but before they play it, you may
    # retrieve your Hunting Net to force them to play a different card."
    game = tribal()
    game.apply("Maya: Hydris 5 net Leo")
    game.apply("Leo: Hydris 3")
    assert "Hunting Net" in game.waiting_for()
    events = game.apply("Shae: Floris 2")
    assert [e.text for e in events][:3] == [
        "Maya: Leave net (taken as said: 'Shae: Floris 2' came next)", "Leo plays Hydris 3",
        "Shae plays Floris 2"]
    assert game.state.villages["Maya"] == [["Hydris 5", "Hydris 3", "Floris 2"]]


# -- Inputs that escaped the error family ---------------------------------------------------


@pytest.mark.parametrize(("name", "players", "text"), [
    ("eye-for-an-eye", ["Ana", "Ben"], "Grubic: Spear Thrust " + "9" * 5000 + " on Riparian"),
    ("eye-for-an-eye", ["Ana", "Ben"], "Grubic: Spear Thrust ² on Riparian"),
    ("eye-for-an-eye", ["Ana", "Ben"], "Grubic: Allocate ³ to Movement"),
    ("tribal-village", ["Maya", "Leo", "Shae"], "Maya: Palaudis ²"),
    ("tribal-village", ["Maya", "Leo", "Shae"], "Maya: Palaudis 7 +" + "9" * 5000),
    ("tribal-village", ["Maya", "Leo", "Shae"], "Maya: Palaudis 7 +²"),
    ("dice-forge", ["Ana", "Ben"], "Ana: Extra action paying " + "9" * 5000 + " ancient"),
    ("dice-forge", ["Ana", "Ben"], "Ana: Perform The Chaos paying ² ancient"),
    ("dice-ocalypse", ["Ana", "Ben"], "Ana: Roll ²"),
    ("occulites", ["Ana", "Ben"], "Ana: Line-up green ², green 1, green 1, green 1, green 1, "
                                  "green 1"),
])
def test_huge_and_unicode_numbers_are_named_errors(name: str, players: list[str],
                                                   text: str) -> None:
    game = rules.new_game(name, players)
    before = game.snapshot()
    with pytest.raises(RulesError) as err:
        game.apply(text)
    assert len(str(err.value)) < 800
    assert game.snapshot() == before


@pytest.mark.parametrize(("setup", "message"), [
    ('game = "eye-for-an-eye"\nplayers = ["A", "B"]\n[options]\nround-seconds = nan\n',
     "option round-seconds=nan: must be a finite number"),
    ('game = "eye-for-an-eye"\nplayers = ["A", "B"]\n[options]\nround-seconds = inf\n',
     "option round-seconds=inf: must be a finite number"),
    ('game = "eye-for-an-eye"\nplayers = ["A", "B"]\n[options]\nrounds = 99999999999999999\n',
     "option rounds=99999999999999999: must be within 1000000 of 0"),
    ('game = "eye-for-an-eye"\nplayers = ["A", "B"]\n[options]\nrounds = 21\n',
     "option rounds=21: choose 1 to 20"),
    ('game = "occulites"\nplayers = ["A", "B"]\n[options]\nrounds = 1000\n',
     "option rounds=1000: play 1 to 20 rounds"),
    ('game = "eye-for-an-eye"\nplayers = ["' + "A" * 5000 + '", "B"]\n',
     "at most 32 characters, got 5000"),
    ('game = "eye-for-an-eye"\nplayers = ["A", "B"]\nx = ' + "[" * 3000 + "]" * 3000 + "\n",
     "setup is not valid TOML: nested too deeply"),
    ('game = "eye-for-an-eye"\nplayers = ["A", "B"]\n[options]\nteams = [[[[[[[[[["A"]]]]]]]]]]'
     "\n", "setup: nested more than 8 levels deep"),
    ('game = "eye-for-an-eye"\nplayers = ["A", "B"]\nseed = ' + "9" * 5000 + "\n",
     "setup is not valid TOML"),
])
def test_bad_setups_are_named_errors(setup: str, message: str) -> None:
    text = setup + "---\n"
    with pytest.raises(rules.GameFileError) as err:
        rules.parse_game_file(text, "bad.game").play("bad.game")
    assert message in str(err.value)
    assert len(str(err.value)) < 800


@pytest.mark.parametrize(("line", "message"), [
    ("[1e999] Grubic: Movement 1", "time '1e999': expected m:ss.sss or seconds"),
    ("[nan] Grubic: Movement 1", "time 'nan'"),
    ("[99999999:00] Grubic: Movement 1", "time '99999999:00'"),
    ("[1:75] Grubic: Movement 1", "time '1:75': seconds after the minutes are 0 to 59"),
    ("[٣] Grubic: Movement 1", "time '٣'"),
])
def test_bad_times_are_named_errors(line: str, message: str) -> None:
    text = 'game = "eye-for-an-eye"\nplayers = ["A", "B"]\n---\n' + line + "\n"
    with pytest.raises(rules.GameFileError, match="line 4: " + message.replace("(", r"\(")):
        rules.parse_game_file(text, "bad.game")


def test_history_entries_from_json_are_bounded() -> None:
    deep: Any = "x"
    for _ in range(5000):
        deep = [deep]
    with pytest.raises(InvalidCall, match="needs a 'call' string"):
        rules.Entry.from_json({"call": deep})
    with pytest.raises(InvalidCall, match="must be a finite number"):
        rules.Entry.from_json({"call": "Grubic: Movement 1", "at": float("inf")})
    with pytest.raises(SetupError, match="nested more than 8 levels deep"):
        rules.Setup.from_json({"game": "eye-for-an-eye", "players": ["A", "B"],
                               "options": {"teams": deep}})
    with pytest.raises(SetupError, match=r"'seed' .* is out of range"):
        rules.Setup.from_json({"game": "eye-for-an-eye", "players": ["A", "B"],
                               "seed": 10**5000})


def test_dice_forge_says_when_the_order_of_two_faces_matters() -> None:
    # Rebellion rulebook, the Titans module: Max's loyalty face moved him into zone 3, yet gave
    # no bonus; the next face got it. So "apply the effects of the rolled faces, in any order"
    # gives different results, and a screen must ask which first (order_matters).
    game = forge(module="titans")
    assert not game.order_matters("Ana: Rolled 1 gold, 1 loyalty + 1 glory")  # space 16
    game.state.players[0].titan = 19  # one step before the first Loyalty zone
    assert game.order_matters("Ana: Rolled 1 gold, 1 loyalty + 1 glory")
    assert not game.order_matters("Ana: Rolled 1 gold, 1 gold")
    assert not game.order_matters("Ben: Rolled 1 gold, 1 gold")  # not Ben's roll now
    assert not forge().order_matters("Ana: Rolled 1 gold, 2 glory")


def test_dice_forge_does_not_ask_the_order_when_only_the_steps_differ() -> None:
    # The order is asked only when the ends differ: a face both dice carry (found on the other
    # die the other way round) and the Goddess' golem, whose fork comes before or after the
    # other face's gain but ends the same, are not asked (they were: 1 in 4 Goddess rolls).
    game = forge()
    game.state.players[0].dice[0][0] = "1 moon"  # 1 moon on both dice, 1 gold on both
    assert not game.order_matters("Ana: Rolled 1 moon, 1 gold")
    goddess = forge(module="goddess")  # Ana's die 2 starts with the moon golem face
    assert not goddess.order_matters("Ana: Rolled 1 sun, moon golem")
    assert goddess.history == () and goddess.state.steps[0].kind == "roll2"  # untouched


@pytest.mark.parametrize("module", ["none", "titans", "goddess"])
def test_dice_forge_lists_the_alternative_card_sets_for_a_start_screen(module: str) -> None:
    # Rebellion rulebook: "The 20 sets of alternative Heroic Feat cards from this expansion can
    # be mixed and matched with the Heroic Feat cards from the base game."
    from rules.dice_forge import slot_choices

    choices = slot_choices(module)
    assert sum(len(c) for c in choices.values()) - len(choices) >= 14  # alternatives offered
    for slot, cards in choices.items():
        assert len({k for k, _ in cards}) == len(cards)
        for key, _ in cards:
            game = forge(module=module, cards={slot: key})
            assert game.state.slot_cards[slot] == key


def test_starting_areas_in_a_tie_break_round_are_dealt_to_the_players_in_it() -> None:
    # How to Win: "If there is a tie, then the tied players or teams play one more match".
    game = eye(("Ana", "Ben", "Cy"), rounds=1)
    for call in ("Grubic: Spear Thrust 1 on Banksia", "Hits land on Banksia",
                 "Riparian: Attack 1 on Banksia", "Hits land on Banksia", "Yarra Bung!",
                 "Next round"):
        game.apply(call)
    (deal,) = game.table_deals()
    assert [c.label for c in deal.choices] == ["Ana (Grubic)", "Ben (Riparian)"]
    game.apply("Starting areas: Grubic 4, Riparian 6")
    assert game.starting_areas()["Ana"] == 4 and "Cy" in game.starting_areas()
