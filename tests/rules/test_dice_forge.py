"""Dice Forge with Rebellion: scenarios from the rulebooks, reserves, forging, feats, modules.

Scenario positions are set by changing a fresh game's state before the calls under test, as a
chess test sets up a FEN; every rule under test then runs through ``game.apply``.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import rules
from rules import IllegalCall, InvalidCall, SetupError
from rules.dice_forge import DiceForge, describe_face, titan_path
from rules.dice_forge.state import State, Step


def new(players: tuple[str, ...] = ("Ana", "Ben"), **options: object) -> DiceForge:
    game = rules.new_game("dice-forge", players, options, seed=7)
    assert isinstance(game, DiceForge)
    return game


def st(game: DiceForge) -> State:
    return game.state


class Live:
    """A player of a game, always read from the game's current state (apply swaps states)."""

    def __init__(self, game: DiceForge, name: str) -> None:
        object.__setattr__(self, "_game", game)
        object.__setattr__(self, "_name", name)

    def __getattr__(self, key: str) -> Any:
        return getattr(self._game.state.player(self._name), key)

    def __setattr__(self, key: str, value: Any) -> None:
        setattr(self._game.state.player(self._name), key, value)


def live(game: DiceForge, i: int) -> Live:
    return Live(game, game.setup.players[i])


def bless_all(game: DiceForge, face1: str = "1 gold", face2: str = "1 gold") -> None:
    """Answer every start-of-turn blessing with the same two faces."""
    while st(game).steps and st(game).steps[0].kind == "roll2":
        game.apply(f"{st(game).steps[0].player}: Rolled {face1}, {face2}")


# -- setup ---------------------------------------------------------------------------------

def test_setup_by_player_count() -> None:
    two = new()
    assert st(two).rounds == 9
    assert [p.gold for p in st(two).players] == [3, 2]
    assert all(len(st(two).pools[str(k)]) == 2 for k in range(1, 11))
    assert st(two).players[0].dice[0] == ["1 sun"] + ["1 gold"] * 5
    assert st(two).players[0].dice[1] == ["1 moon", "2 glory"] + ["1 gold"] * 4
    three = new(("A", "B", "C"))
    assert st(three).rounds == 10 and [p.gold for p in st(three).players] == [3, 2, 1]
    four = new(("A", "B", "C", "D"))
    assert st(four).rounds == 9 and [p.gold for p in st(four).players] == [3, 2, 1, 0]
    assert all(len(st(four).pools[str(k)]) == 4 for k in range(1, 11))
    assert len(st(four).stacks["M1"]) == 4


def test_titans_and_goddess_starting_faces() -> None:
    t = new(module="titans")
    assert st(t).players[0].dice[0][0] == "1 ancient"
    assert st(t).players[0].dice[1][1] == "1 loyalty + 1 glory"
    g = new(module="goddess")
    assert st(g).players[0].dice[1][0] == "moon golem"


def test_setup_errors_name_the_problem() -> None:
    with pytest.raises(SetupError, match="never combined"):
        new(module="titans", cards={"F4": "time_golem"})
    with pytest.raises(SetupError, match="unknown card 'kraken'"):
        new(cards={"M8": "kraken"})
    with pytest.raises(SetupError, match="belongs in slot M8, not M7"):
        new(cards={"M7": "hydra"})
    with pytest.raises(SetupError, match="belongs in slot M8"):
        new(cards={"M7": "typhon"})
    with pytest.raises(SetupError, match="cannot be replaced"):
        new(module="goddess", cards={"M6": "helmet"})
    with pytest.raises(SetupError, match="unknown slot 'X9'"):
        new(cards={"X9": "hydra"})


# -- turn structure ------------------------------------------------------------------------

def test_two_players_both_bless_twice_at_the_start_of_every_turn() -> None:
    game = new()
    order = [s.player for s in st(game).steps]
    assert order == ["Ana", "Ben", "Ana", "Ben"]
    with pytest.raises(IllegalCall, match=r"Ben: Rolled 1 gold, 1 gold: waiting for Ana"):
        game.apply("Ben: Rolled 1 gold, 1 gold")
    game.apply("Ana: Rolled 1 sun, 2 glory")
    ana = live(game, 0)
    assert (ana.sun, ana.glory) == (1, 2)
    bless_all(game)
    assert game.waiting_for() == "Ana: Forge, Perform, Use or Pass"
    assert ana.gold == 5  # 3 to start, +1 gold +1 gold in her second blessing


def test_three_players_bless_once_in_turn_order_from_the_active_player() -> None:
    game = new(("A", "B", "C"))
    assert [s.player for s in st(game).steps] == ["A", "B", "C"]
    bless_all(game)
    game.apply("A: Pass")
    assert [s.player for s in st(game).steps] == ["B", "C", "A"]


def test_roll_must_show_faces_of_the_players_dice() -> None:
    game = new()
    with pytest.raises(IllegalCall, match=r"Ana's dice cannot show 3 gold and 1 gold"):
        game.apply("Ana: Rolled 3 gold, 1 gold")
    with pytest.raises(InvalidCall, match="is no die face"):
        game.apply("Ana: Rolled 3 bananas, 1 gold")
    with pytest.raises(IllegalCall, match="name both faces"):
        game.apply("Ana: Rolled 1 gold on die 1")
    # faces may be named in either die order: the order said is the order applied
    game.apply("Ana: Rolled 2 glory, 1 sun")
    assert st(game).players[0].up == [0, 1]


def test_rounds_and_end_of_game_glory() -> None:
    game = new(rounds=1)
    bless_all(game, "2 glory", "1 sun")  # die 2 then die 1: Ana and Ben roll twice
    game.apply("Ana: Pass")
    bless_all(game, "2 glory", "1 sun")
    assert not game.is_over
    game.apply("Ben: Pass")
    assert game.is_over
    assert st(game).final == {"Ana": 8, "Ben": 8}
    assert game.standings().winner == "Ana and Ben"
    assert list(game.legal_calls()) == []
    with pytest.raises(IllegalCall, match="the game is over"):
        game.apply("Ana: Pass")


def test_final_score_adds_card_glory() -> None:
    game = new(rounds=1)
    bless_all(game)
    ana = live(game, 0)
    ana.moon = 4
    game.apply("Ana: Perform The Ferryman")
    assert ana.moon == 0 and ana.island == 3
    game.apply("Ana: End turn") if game.state.phase == "after" else None
    bless_all(game)
    game.apply("Ben: Pass")
    assert st(game).final["Ana"] == ana.glory + 12


# -- reserves ------------------------------------------------------------------------------

def test_reserve_caps_and_what_is_lost() -> None:
    game = new()
    ana = live(game, 0)
    ana.dice[0][1] = "6 gold"
    ana.dice[1][2] = "2 sun"
    ana.gold, ana.sun = 11, 5
    events = game.apply("Ana: Rolled 6 gold, 2 sun")
    assert (ana.gold, ana.sun) == (12, 6)
    lost = {(e.data["resource"], e.data["amount"]) for e in events if e.kind == "lost"}
    assert lost == {("gold", 5), ("sun", 1)}
    assert "Ana loses 5 gold over the cap of 12" in [e.text for e in events]


def test_chest_raises_the_caps() -> None:
    game = new()
    ana = live(game, 0)
    ana.cards.append("chest")
    st(game).stacks["M2"].pop()
    ana.dice[0][1] = "6 gold"
    ana.dice[1][2] = "2 moon"
    ana.gold, ana.moon = 11, 7
    events = game.apply("Ana: Rolled 6 gold, 2 moon")
    assert (ana.gold, ana.moon) == (16, 9)
    assert [e.data["amount"] for e in events if e.kind == "lost"] == [1]


def test_hammer_takes_gold_over_the_cap_and_scores() -> None:
    game = new()
    ana = live(game, 0)
    ana.cards.append("hammer")
    st(game).stacks["M1"].pop()
    ana.dice[0][1] = "6 gold"
    ana.gold, ana.hammer = 12, 10
    game.apply("Ana: Rolled 6 gold, 1 moon")
    assert ana.gold == 12 and ana.hammer == 16 and ana.glory == 10


# -- forging -------------------------------------------------------------------------------

def test_forge_replaces_faces_and_keeps_the_removed_ones() -> None:
    game = new(("A", "B", "C"))
    bless_all(game)
    a = live(game, 0)
    assert a.gold == 5
    game.apply("A: Forge 3 gold on die 1 over 1 gold; 1 moon on die 2 over 1 gold")
    assert a.gold == 1
    assert a.dice[0].count("3 gold") == 1 and a.dice[1].count("1 moon") == 2
    assert a.removed == ["1 gold", "1 gold"]
    assert len(st(game).pools["1"]) == 3 and len(st(game).pools["2"]) == 3
    game.check_invariants()


def test_forge_refuses_what_the_rules_forbid() -> None:
    game = new(("A", "B", "C"))
    bless_all(game)
    with pytest.raises(IllegalCall, match=r"costs 6 gold; A has 5"):
        game.apply("A: Forge 4 gold on die 1 over 1 gold; 1 sun on die 2 over 1 gold")
    with pytest.raises(IllegalCall, match="two identical faces"):
        game.apply("A: Forge 3 gold on die 1 over 1 gold; 3 gold on die 2 over 1 gold")
    with pytest.raises(IllegalCall, match="not sold in the Sanctuary"):
        game.apply("A: Forge triple on die 1 over 1 gold")
    with pytest.raises(IllegalCall, match=r"die 1 of A has no '2 glory' face"):
        game.apply("A: Forge 3 gold on die 1 over 2 glory")
    st(game).pools["1"].clear()
    with pytest.raises(IllegalCall, match="no 3 gold face is left"):
        game.apply("A: Forge 3 gold on die 1 over 1 gold")
    with pytest.raises(IllegalCall, match="B: Pass: it is A's turn"):
        game.apply("B: Pass")


def test_legal_purchases_are_affordable_and_available() -> None:
    game = new(("A", "B", "C"))
    bless_all(game)
    calls = [c.text() for c in game.legal_purchases()]
    assert "A: Forge 4 gold on die 1 over 1 gold" in calls  # costs 3, A has 5
    assert "A: Forge 6 gold on die 2 over 2 glory" in calls  # costs 4
    assert not any("2 moon on" in c for c in calls)  # costs 6
    assert "A: Perform The Chest" not in calls  # no moon shard yet
    st(game).players[0].moon = 1
    assert "A: Perform The Chest" in [c.text() for c in game.legal_purchases()]


def test_choice_face_waits_for_the_choice() -> None:
    game = new()
    ana = live(game, 0)
    ana.dice[0][1] = "3 gold or 2 glory"
    game.apply("Ana: Rolled 3 gold or 2 glory, 1 moon")
    assert game.waiting_for() == "Ana chooses"
    with pytest.raises(IllegalCall, match=r"'3 moon' is not an option; choose one of: "
                                          r"3 gold; 2 glory"):
        game.apply("Ana: Choose 3 moon")
    game.apply("Ana: Choose 2 glory")
    assert (ana.glory, ana.moon, ana.gold) == (2, 1, 3)


def test_triple_face_triples_the_other_die() -> None:
    game = new()
    ana = live(game, 0)
    ana.dice[0][1] = "triple"
    game.apply("Ana: Rolled triple, 2 glory")
    assert ana.glory == 6


# -- feats, ousting, extra action ----------------------------------------------------------

def test_ousting_gives_the_ousted_hero_a_divine_blessing_first() -> None:
    game = new(cards={"M3": "great_bear"})
    bless_all(game)
    ana, ben = live(game, 0), live(game, 1)
    ana.moon = 3
    game.apply("Ana: Perform The Great Bear")  # island 2
    assert ana.island == 2
    game.apply("Ana: End turn") if st(game).phase == "after" else None
    bless_all(game)
    ben.moon = 3
    game.apply("Ben: Perform The Satyrs")  # also island 2: Ana is ousted
    assert ana.island == 0 and ben.island == 2
    assert ana.glory == 3  # her Great Bear
    assert game.waiting_for() == "Ana rolls both dice"  # before the Satyrs' effect
    game.apply("Ana: Rolled 1 sun, 2 glory")
    assert ana.glory == 5 and ana.sun == 1
    # then the Satyrs: Ana rolls without applying, Ben picks two faces
    gold_before = ana.gold
    game.apply("Ana: Rolled 1 gold, 1 gold")
    assert ana.gold == gold_before  # a Satyrs roll is not applied
    gold = ben.gold
    game.apply("Ben: Choose 1 gold")
    game.apply("Ben: Choose 1 gold")  # both shown 1 gold faces may be picked
    assert ben.gold == gold + 2


def test_extra_action_costs_two_sun() -> None:
    game = new()
    bless_all(game)
    ana = live(game, 0)
    ana.sun = 2
    game.apply("Ana: Forge 3 gold on die 1 over 1 gold")
    assert game.waiting_for() == "Ana: Extra action or End turn"
    game.apply("Ana: Extra action")
    assert ana.sun == 0
    game.apply("Ana: Pass")
    assert st(game).current.name == "Ben"


def test_no_extra_action_without_the_shards() -> None:
    game = new()
    bless_all(game)
    ana = live(game, 0)
    ana.sun = 3
    game.apply("Ana: Forge 3 gold on die 1 over 1 gold")
    ana.sun = 1
    with pytest.raises(IllegalCall, match="an extra action costs 2 sun"):
        game.apply("Ana: Extra action")
    with pytest.raises(IllegalCall, match=r"Ana has 0 ancient shards, not 1"):
        game.apply("Ana: Extra action paying 1 ancient")


def test_feat_needs_its_cost() -> None:
    game = new()
    bless_all(game)
    with pytest.raises(IllegalCall, match=r"Ana has 0 sun, 0 moon and pays 0 ancient; "
                                          r"the cost is 5 sun \+ 5 moon"):
        game.apply("Ana: Perform The Hydra")
    with pytest.raises(IllegalCall, match="no card 'The Kraken'"):
        game.apply("Ana: Perform The Kraken")


def test_reinforcement_once_per_turn_before_the_action() -> None:
    game = new()
    bless_all(game)
    ana = live(game, 0)
    ana.cards.append("elder")
    st(game).stacks["F1"].pop()
    ana.gold = 5
    game.apply("Ana: Use The Elder")
    game.apply("Ana: Choose pay 3 gold for 4 glory")
    assert (ana.gold, ana.glory) == (2, 4)
    with pytest.raises(IllegalCall, match="already used The Elder this turn"):
        game.apply("Ana: Use The Elder")


# -- Titans module -------------------------------------------------------------------------

def test_alex_loyalty_step_takes_the_special_path() -> None:
    """Rebellion rulebook: Alex gains 1 loyalty on a space whose special path points to
    Loyalty, so his token takes it (space 3 -> 5, skipping 4)."""
    game = new(("Alex", "Max"), module="titans")
    alex = live(game, 0)
    alex.titan = 3
    game.apply("Alex: Rolled 1 gold, 1 loyalty + 1 glory")
    assert alex.titan == 5
    assert (alex.gold, alex.glory) == (4, 1)


def test_titans_paths() -> None:
    assert titan_path(16, "rebellion", 13) == [15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 4, 3, 1]
    assert titan_path(1, "loyalty", 3) == [2, 3, 5]
    assert titan_path(31, "rebellion", 3) == [29, 27, 26]
    assert titan_path(30, "loyalty", 5) == [31]


def test_ancient_shard_moves_the_token_even_with_a_full_reserve() -> None:
    game = new(module="titans")
    ana = live(game, 0)
    ana.ancient = 6
    game.apply("Ana: Rolled 1 ancient, 1 gold")
    assert ana.ancient == 6 and ana.titan == 15


def test_max_loyalty_zone_example() -> None:
    """Rebellion rulebook: Max applies his loyalty face first, enters the next zone, then his
    G+S+M+GP face earns 1 extra gold and 2 extra glory."""
    game = new(("Max", "Ana"), module="titans")
    mx = live(game, 0)
    mx.titan = 25
    mx.dice[0][1] = "1 gold + 1 sun + 1 moon + 1 glory"
    game.apply("Max: Rolled 1 loyalty + 1 glory, 1 gold + 1 sun + 1 moon + 1 glory")
    assert mx.titan == 26
    assert (mx.gold, mx.sun, mx.moon) == (3 + 2, 1, 1)
    assert mx.glory == 1 + 1 + 2


def test_rebellion_zone_feat_bonus_first_titan_then_dogged() -> None:
    """Rebellion rulebook: 5 glory for being first to perform The First Titan, then 3 glory
    for The Dogged that someone else performed before."""
    game = new(("Alex", "Ben"), module="titans")
    bless_all(game)
    alex = live(game, 0)
    st(game).feats_done.append("dogged")  # Ben performed The Dogged earlier
    alex.titan = 5
    alex.sun = alex.moon = 5
    game.apply("Alex: Perform The First Titan")
    assert alex.glory == 5
    game.apply("Alex: Choose The Dogged")
    assert alex.glory == 8
    game.apply("Alex: Choose 3 gold + 1 ancient on die 1 over 1 gold")
    assert "3 gold + 1 ancient" in alex.dice[0]
    assert alex.island == 4  # the First Titan's island; the free feat does not move the pawn


def test_titans_end_game_glory() -> None:
    game = new(module="titans", rounds=1)
    ana, ben = live(game, 0), live(game, 1)
    ana.titan, ben.titan = 31, 1
    bless_all(game, "1 gold", "1 gold")
    game.apply("Ana: Pass")
    bless_all(game, "1 gold", "1 gold")
    game.apply("Ben: Pass")
    # Ana's 8 gold faces in Loyalty zone 3 gave 8 glory; Ben's -25 is clamped at 0
    assert ana.glory == 8
    assert st(game).final == {"Ana": 8 + 25, "Ben": 0}


def test_ancient_shards_pay_for_feats() -> None:
    game = new(module="titans")
    bless_all(game)
    ana = live(game, 0)
    ana.ancient, ana.sun = 2, 0
    game.apply("Ana: Perform The Guardian paying 2 ancient")
    assert ana.ancient == 0 and "guardian" in ana.cards


# -- Goddess module ------------------------------------------------------------------------

def test_max_great_golem_with_celestial_die_and_treasure_hall() -> None:
    """Rebellion rulebook: the Great Golem moves 2 spaces; the first rolls the Celestial die
    (12 gold), the second is a fork where Max chooses a Treasure hall he reaches first."""
    game = new(("Max", "Ana"), module="goddess")
    bless_all(game, "1 gold", "2 glory")
    mx = live(game, 0)
    mx.golem, mx.gold, mx.moon, mx.glory = 18, 0, 5, 0
    game.apply("Max: Perform The Great Golem")
    assert mx.golem == 19 and game.waiting_for() == "Max rolls the Celestial die"
    game.apply("Max: Rolled celestial 12 gold")
    assert mx.gold == 12
    with pytest.raises(IllegalCall, match="choose one of: space 20; space 12"):
        game.apply("Max: Choose space 13")
    game.apply("Max: Choose space 12")
    game.apply("Max: Choose glory treasure")
    assert mx.golem == 12 and mx.glory == 10
    assert st(game).halls == {"12": "glory"}
    # a later arrival gets the back side
    ana = live(game, 1)
    ana.golem, ana.glory = 11, 0
    ana.dice[1][0] = "sun golem"
    st(game).steps.insert(0, Step("roll1", "Ana", {"die": -1, "to": "Ana"}))  # a Silver Hind
    game.apply("Ana: Rolled sun golem on die 2")
    assert ana.golem == 12 and ana.glory == 2


def test_goddess_space_and_first_arrival_reward() -> None:
    game = new(module="goddess")
    ana, ben = live(game, 0), live(game, 1)
    ana.golem = 35
    game.apply("Ana: Rolled 1 gold, moon golem")
    assert ana.golem == 36 and ana.glory == 15
    assert st(game).goddess_first == "Ana"
    game.apply("Ana: Choose 1 sun")
    game.apply("Ana: Choose 2 glory")
    assert ana.glory == 17 and ana.sun == 1
    ben.golem = 35
    game.apply("Ben: Rolled 1 gold, moon golem")
    assert ben.golem == 36 and ben.glory == 15
    assert game.waiting_for() == "Ana rolls both dice"  # no first-arrival reward for Ben
    game.apply("Ana: Rolled 1 gold, moon golem")  # the golem moves no more
    assert ana.golem == 36 and ana.glory == 17


def test_golem_bonus_rolls_the_celestial_die() -> None:
    game = new(module="goddess")
    ana = live(game, 0)
    ana.dice[0][1] = "sun golem"
    game.apply("Ana: Rolled sun golem, moon golem")
    assert game.waiting_for() == "Ana chooses"  # the fork at space 1, first golem step
    game.apply("Ana: Choose space 14")
    assert ana.moon == 1
    game.apply("Ana: Choose 1 sun")  # space 15 choice
    assert game.waiting_for() == "Ana rolls the Celestial die"
    game.apply("Ana: Rolled celestial 5 glory")
    assert ana.glory == 5


def test_goddess_end_game_score_counts_running_glory() -> None:
    game = new(module="goddess", rounds=1)
    ana = live(game, 0)
    ana.golem = 35
    game.apply("Ana: Rolled 1 gold, moon golem")
    game.apply("Ana: Choose 1 gold")
    game.apply("Ana: Choose 2 glory")
    bless_all(game)
    game.apply("Ana: Pass")
    bless_all(game)
    game.apply("Ben: Pass")
    assert st(game).final["Ana"] == 15 + 2


# -- the Celestial die and helpers ---------------------------------------------------------

def test_celestial_double_upgrade() -> None:
    game = new(("A", "B", "C"), module="goddess")
    bless_all(game)
    a = live(game, 0)
    a.moon = 3
    game.apply("A: Perform The Celestial Die")
    game.apply("A: Rolled celestial double upgrade")
    options = st(game).steps[0].data["options"]
    assert "4 gold on die 1 over 1 gold" in options  # level 0 -> level 2
    assert "3 gold on die 1 over 1 gold" not in options
    assert "3 gold or 2 glory on die 1 over 1 sun" in options  # level 2 -> level 4
    game.apply("A: Choose 4 gold on die 1 over 1 gold")
    assert "4 gold" in a.dice[0]


def test_describe_face() -> None:
    assert describe_face("2 gold + 1 moon") == "gain 2 gold and 1 moon"
    assert describe_face("double upgrade") == "upgrade one of your faces by two levels"
    assert "Goddess board" in describe_face("moon golem")


def test_every_call_of_a_random_game_round_trips_and_the_game_ends() -> None:
    for seed in range(4):
        rng = random.Random(seed)
        game = rules.from_setup(DiceForge.random_setup(rng))
        for _ in range(300):
            if game.is_over:
                break
            call = game.random_call(rng)
            assert game.parse(call.text()) == call
            game.apply(call)
            game.check_invariants()
        assert game.is_over
        assert game.standings().winner


# -- card effects --------------------------------------------------------------------------

def ready(game: DiceForge, faces: tuple[str, str] = ("1 gold", "1 gold")) -> Live:
    """Roll the start-of-turn blessings and give the active player shards for any feat."""
    bless_all(game, *faces)
    p = Live(game, st(game).current.name)
    p.cards.append("chest")  # shard caps 9; a card from outside the stacks, so count it
    st(game).total_cards += 1
    p.sun = p.moon = 9
    return p


def test_sentinel_scores_shards_as_glory() -> None:
    game = new(cards={"M7": "sentinel"})
    ana = ready(game)
    ana.dice[0][1] = "2 sun"
    ana.sun = 0
    sun0, glory0 = ana.sun, ana.glory
    game.apply("Ana: Perform The Sentinel")
    game.apply("Ana: Rolled 2 sun, 2 glory")
    assert st(game).steps[0].data["options"] == ["2 sun", "1 sun + 2 glory", "4 glory"]
    game.apply("Ana: Choose 1 sun + 2 glory")
    assert ana.sun == sun0 + 1 and ana.glory == glory0 + 2 + 2
    game.apply("Ana: Rolled 1 gold, 1 gold")
    assert st(game).current.name == "Ben"  # 1 sun left: no extra action, the turn ends


def test_cyclops_four_minor_blessings_with_gold_as_glory() -> None:
    game = new(cards={"F7": "cyclops"})
    ana = ready(game)
    ana.gold, ana.glory = 0, 0
    game.apply("Ana: Perform The Cyclops")
    game.apply("Ana: Rolled 1 gold on die 1")
    game.apply("Ana: Choose 1 glory")
    with pytest.raises(IllegalCall, match="this minor blessing is with die 1, not die 2"):
        game.apply("Ana: Rolled 1 gold on die 2")
    for _ in range(3):
        game.apply("Ana: Rolled 1 gold on die 1")
        game.apply("Ana: Choose 1 gold")
    assert (ana.gold, ana.glory) == (3, 1)


def test_cerberus_token_applies_a_blessing_again() -> None:
    game = new(cards={"M5": "cerberus"})
    ana = ready(game)
    game.apply("Ana: Perform Cerberus")
    assert ana.tokens == ["cerberus"]
    game.apply("Ana: End turn")
    ana.glory = 0
    game.apply("Ben: Rolled 1 gold, 1 gold")
    game.apply("Ana: Rolled 2 glory, 1 gold")
    game.apply("Ana: Choose use Cerberus")
    assert ana.glory == 4 and ana.tokens == []


def test_triton_token_is_spent_in_the_owners_turn() -> None:
    game = new(cards={"F5": "triton"})
    ana = ready(game)
    sun = ana.sun - 4
    game.apply("Ana: Perform Triton")
    game.apply("Ana: Use Triton")
    game.apply("Ana: Choose 2 sun")
    assert ana.sun == sun + 2
    with pytest.raises(IllegalCall, match="Ana has no Triton token"):
        game.apply("Ana: Use Triton")


def test_companion_advances_then_cashes_in() -> None:
    game = new(cards={"M2": "companion"})
    ana = ready(game)
    game.apply("Ana: Perform The Companion")
    assert ana.companion == [0]
    game.apply("Ana: End turn")
    bless_all(game)
    game.apply("Ben: Pass")
    bless_all(game)
    game.apply("Ana: Use The Companion")
    game.apply("Ana: Choose advance")
    assert ana.companion == [1]
    game.apply("Ana: Use The Companion")
    assert st(game).steps[0].data["options"] == ["cash in"]  # advanced once this turn
    ana.sun = 0
    sun, glory = ana.sun, ana.glory
    game.apply("Ana: Choose cash in")
    assert (ana.sun, ana.glory, ana.companion) == (sun + 1, glory + 1, [-1])


def test_minotaur_makes_the_others_lose() -> None:
    game = new(cards={"F4": "minotaur"})
    ana = ready(game)
    ben = live(game, 1)
    ben.gold, ben.glory = 5, 1
    game.apply("Ana: Perform The Minotaur")
    game.apply("Ben: Rolled 1 gold, 2 glory")
    assert (ben.gold, ben.glory) == (4, 0)
    assert "minotaur" in ana.cards


def test_mists_and_eternal_night() -> None:
    game = new(("A", "B", "C"), cards={"M5": "mists", "M7": "eternal_night"})
    a = ready(game)
    b, c = live(game, 1), live(game, 2)
    b.gold, c.gold, b.glory, c.glory = 0, 0, 3, 9
    a.glory = 0
    game.apply("A: Perform The Mists")
    assert (b.glory, c.glory, a.glory) == (0, 4, 8)
    game.apply("A: Extra action")
    b.sun, b.moon, c.sun, c.moon = 0, 2, 1, 1
    a.moon = 9
    sun, moon = a.sun, a.moon - 6
    game.apply("A: Perform The Eternal Night")
    assert (b.sun, b.moon, c.sun, c.moon) == (0, 1, 0, 0)
    assert (a.sun, a.moon) == (sun + 1, moon + 2)


def test_boar_face_rewards_its_bearer_and_the_card_owner() -> None:
    game = new(cards={"M4": "boar"})
    ana = ready(game)
    ben = live(game, 1)
    game.apply("Ana: Perform The Tenacious Boar")
    game.apply("Ana: Choose Ben")
    game.apply("Ben: Choose red boar on die 1 over 1 gold")
    assert "red boar" in ben.dice[0]
    game.apply("Ana: End turn")
    glory, sun = ana.glory, ben.sun
    game.apply("Ben: Rolled red boar, 1 moon")
    game.apply("Ben: Choose 1 sun")
    game.apply("Ana: Choose 3 glory")
    assert ana.glory == glory + 3 and ben.sun == sun + 1
    bless_all(game)
    with pytest.raises(IllegalCall, match="the red boar face can never be removed"):
        game.apply("Ben: Forge 3 gold on die 1 over red boar")


def test_shield_face_gives_five_glory_when_the_other_die_matches() -> None:
    game = new()
    ana = live(game, 0)
    ana.dice[0][1] = "yellow shield"
    game.apply("Ana: Rolled yellow shield, 1 gold")
    assert ana.glory == 5 and ana.gold == 4
    game.apply("Ben: Rolled 1 gold, 1 gold")
    game.apply("Ana: Rolled yellow shield, 2 glory")
    assert ana.glory == 5 + 2 + 0 and ana.gold == 4 + 3


def test_mirror_copies_an_opponents_face_up_face() -> None:
    game = new()
    ana, ben = live(game, 0), live(game, 1)
    ana.dice[0][1] = "mirror"
    ben.up = [0, 1]  # Ben shows 1 sun and 2 glory
    game.apply("Ana: Rolled mirror, 1 gold")
    assert st(game).steps[0].data["options"] == ["1 sun", "2 glory"]
    game.apply("Ana: Choose 2 glory")
    assert ana.glory == 2


def test_ship_face_forges_for_two_gold_less() -> None:
    game = new()
    ana = live(game, 0)
    ana.dice[0][1] = "ship"
    game.apply("Ana: Rolled ship, 1 moon")
    assert ana.gold == 3
    with pytest.raises(IllegalCall, match="not an option"):
        game.apply("Ana: Choose 2 sun on die 1 over 1 gold")  # 8 - 2 > 3
    game.apply("Ana: Choose 1 sun on die 1 over 1 gold")  # 3 - 2
    assert ana.gold == 2 and ana.dice[0].count("1 sun") == 2


def test_misfortune_bearer_and_owner() -> None:
    game = new(module="titans")
    ana = ready(game)
    ben = live(game, 1)
    game.apply("Ana: Perform The Mirror of Misfortune")
    game.apply("Ana: Choose Ben")
    game.apply("Ben: Choose yellow misfortune on die 1 over 1 gold")
    game.apply("Ana: End turn")
    ana.gold, ana.glory, ana.titan = 0, 0, 16
    ben.titan = 16
    game.apply("Ben: Rolled yellow misfortune, 1 gold")
    assert st(game).steps[0].player == "Ben"
    game.apply("Ben: Choose 1 loyalty")
    assert ben.titan == 17
    # Ana applies Ben's two face-up faces: the misfortune (1 ancient or 1 loyalty) and 1 gold
    game.apply("Ana: Choose 1 ancient")
    assert ana.titan == 15 and ana.ancient == 1 and ana.gold == 1


def test_chaos_face_reward_a_needs_the_colour_from_the_other_die() -> None:
    game = new(module="titans")
    ana = live(game, 0)
    ana.dice[0][1] = "yellow chaos"
    game.apply("Ana: Rolled yellow chaos, 1 gold")
    assert ana.glory == 3 and ana.titan == 18  # reward A: 2 loyalty + 3 glory
    game.apply("Ben: Rolled 1 gold, 1 gold")
    game.apply("Ana: Rolled yellow chaos, 1 moon")
    assert ana.glory == 3 and ana.titan == 20  # reward B: 2 loyalty


def test_memory_tokens_reward_a_later_feat_on_their_island() -> None:
    game = new(module="titans")
    ana = ready(game)
    game.apply("Ana: Perform The Memory")
    game.apply("Ana: Choose 2 loyalty + 1 sun on island 6")
    with pytest.raises(IllegalCall, match="not an option"):
        game.apply("Ana: Choose 2 ancient + 1 moon on island 6")
    game.apply("Ana: Choose 2 ancient + 1 moon on island 3")
    assert st(game).memory == [["Ana", 6, "2 loyalty + 1 sun"], ["Ana", 3, "2 ancient + 1 moon"]]
    game.apply("Ana: Extra action")
    titan = ana.titan
    game.apply("Ana: Perform The Guardian")  # F3, island 6
    assert ana.titan == titan + 2
    assert st(game).memory == [["Ana", 3, "2 ancient + 1 moon"]]


def test_oracle_pushes_the_others_toward_rebellion() -> None:
    game = new(module="titans")
    ready(game)
    ben = live(game, 1)
    game.apply("Ana: Perform The Oracle")
    game.apply("Ana: End turn")
    bless_all(game)
    game.apply("Ben: Pass")
    bless_all(game)
    game.apply("Ana: Use The Oracle")
    before = ben.titan
    game.apply("Ana: Rolled 1 ancient on die 1")
    assert ben.titan == before - 1


def test_time_golem_moves_back_and_may_take_another_branch() -> None:
    game = new(module="goddess")
    ana = ready(game)
    ana.golem = 10
    game.apply("Ana: Perform The Time Golem")
    assert st(game).steps[0].data["options"] == ["space 4", "space 9", "space 16"]
    game.apply("Ana: Choose space 9")
    game.apply("Ana: Rolled celestial 5 glory")
    assert st(game).steps[0].data["options"] == ["space 1", "space 2"]
    game.apply("Ana: Choose space 2")
    assert ana.golem == 2


def test_goddess_card_sets_both_dice() -> None:
    game = new(module="goddess")
    ana = ready(game)
    ana.glory = 0
    game.apply("Ana: Perform The Goddess")
    game.apply("Ana: Choose 1 sun")
    game.apply("Ana: Choose 2 glory")
    assert ana.glory == 2 and ana.up == [0, 1]


def test_left_hand_ousts_everyone_and_applies_their_dice() -> None:
    game = new(("A", "B", "C"), cards={"F7": "left_hand"})
    a = ready(game)
    b, c = live(game, 1), live(game, 2)
    b.island, c.island, a.island = 3, 0, 7
    a.glory = 0
    game.apply("A: Perform The Left Hand")
    assert (a.island, b.island) == (0, 0)
    assert [s.player for s in st(game).steps[:2]] == ["A", "B"]
    game.apply("A: Rolled 2 glory, 1 gold")
    game.apply("B: Rolled 2 glory, 1 gold")
    assert a.glory == 4 and b.glory == 0


def test_eternal_fire_gives_an_extra_turn() -> None:
    game = new(cards={"F7": "eternal_fire"})
    ready(game)
    game.apply("Ana: Perform The Eternal Fire")
    assert st(game).current.name == "Ana" and st(game).round == 1
    assert [s.player for s in st(game).steps] == ["Ana", "Ana"]


def test_wind_gains_one_resource_from_every_shown_face() -> None:
    game = new(cards={"M4": "wind"})
    ana = ready(game)
    ana.glory = 0
    game.apply("Ana: Perform The Wind")
    game.apply("Ana: Rolled 2 glory, 1 gold")
    game.apply("Ben: Rolled 2 glory, 1 sun")
    game.apply("Ana: Choose glory")
    assert ana.glory == 4


def test_typhon_scores_the_forged_faces() -> None:
    game = new(cards={"M8": "typhon"})
    ana = ready(game)
    ana.glory = 0
    game.apply("Ana: Forge 3 gold on die 1 over 1 gold")
    game.apply("Ana: Extra action")
    game.apply("Ana: Perform Typhon")
    assert ana.glory == 1


def test_abyssal_trident_cannot_take_faces_of_cards_in_play() -> None:
    game = new(module="goddess")
    ana = ready(game)
    ana.gold = 7
    game.apply("Ana: Perform The Abyssal Trident")
    assert ana.gold == 0
    options = st(game).steps[0].data["options"]
    assert any(o.startswith("4 glory on") or o.startswith("3 glory on") for o in options)
    assert any(o.startswith("triple on") for o in options)  # no Helmet in this game
    assert not any("golem on" in o for o in options)  # Forest faces never


def test_light_and_merchant_and_tree_reinforcements() -> None:
    game = new(cards={"F4": "light", "F1": "tree"})
    ana = ready(game)
    game.apply("Ana: Perform The Light")
    game.apply("Ana: Extra action")
    game.apply("Ana: Perform The Tree")
    game.apply("Ana: End turn") if st(game).phase == "after" else None
    bless_all(game, "2 glory", "1 sun")
    game.apply("Ben: Pass")
    bless_all(game)
    ana.gold, ana.glory = 3, 0
    game.apply("Ana: Use The Tree")
    assert (ana.gold, ana.glory) == (6, 1)
    live(game, 1).up = [0, 1]  # Ben shows 1 sun and 2 glory
    game.apply("Ana: Use The Light")
    assert ana.gold == 3
    game.apply("Ana: Choose 2 glory")
    assert ana.glory == 3


def test_twins_reroll_one_die_before_applying() -> None:
    game = new(cards={"M1": "twins"})
    ana = live(game, 0)
    ana.cards.append(st(game).stacks["M1"].pop())
    ana.gold = 5
    game.apply("Ana: Rolled 1 gold, 2 glory")
    assert st(game).steps[0].data["options"] == ["keep", "reroll die 1", "reroll die 2"]
    game.apply("Ana: Choose reroll die 2")
    game.apply("Ana: Choose 1 moon")
    with pytest.raises(IllegalCall, match="with die 2, not die 1"):
        game.apply("Ana: Rolled 1 sun on die 1")
    game.apply("Ana: Rolled 1 moon on die 2")
    assert (ana.gold, ana.moon, ana.glory) == (5 - 3 + 1, 2, 0)
    assert ana.up == [1, 0]
    game.apply("Ben: Rolled 1 gold, 1 gold")
    assert ana.gold == 3
    game.apply("Ana: Rolled 1 gold, 2 glory")  # still 3 gold: a reroll is offered again
    game.apply("Ana: Choose keep")
    assert (ana.gold, ana.glory) == (4, 2)


def test_hammer_all_puts_every_gold_on_the_track() -> None:
    game = new()
    ana = live(game, 0)
    ana.cards.append(st(game).stacks["M1"].pop())
    ana.dice[0][1] = "6 gold"
    ana.gold, ana.hammer = 3, 10
    with pytest.raises(IllegalCall, match="Ben has no Blacksmith's Hammer"):
        game.apply("Ben: Hammer all")
    game.apply("Ana: Hammer all")  # said at any time, even while Ana's roll is awaited
    assert ana.hammer_mode == "all"
    assert game.parse("Ana: Hammer overflow") in game.legal_calls()
    game.apply("Ana: Rolled 6 gold, 1 moon")
    assert (ana.gold, ana.hammer, ana.glory) == (3, 16, 10)
    ana.hammer = 28
    game.apply("Ben: Rolled 1 gold, 1 gold")
    game.apply("Ana: Rolled 6 gold, 1 moon")
    assert (ana.gold, ana.hammer, ana.glory) == (3 + 4, 30, 10 + 15)


def test_scepter_stores_gold_and_resets_for_shards_this_turn_only() -> None:
    game = new(cards={"M1": "scepter"})
    ana = ready(game)
    game.apply("Ana: Perform The Blacksmith's Scepter")
    assert ana.scepter == [0] and game.waiting_for() == "Ana: Extra action or End turn"
    game.apply("Ana: Scepter all")
    ana.gold, ana.sun = 2, 0
    st(game).steps.insert(0, Step("roll1", "Ana", {"die": -1, "to": "Ana"}))
    ana.dice[0][1] = "6 gold"
    game.apply("Ana: Rolled 6 gold on die 1")
    assert (ana.gold, ana.scepter) == (2, [6])
    game.apply("Ana: Use The Blacksmith's Scepter")
    game.apply("Ana: Choose 2 sun")
    assert (ana.scepter, ana.scepter_sun, ana.sun) == ([0], 2, 0)
    game.apply("Ana: Extra action")  # paid with the Scepter's shards
    assert ana.scepter_sun == 0
    ana.scepter = [5]
    game.apply("Ana: Forge 2 moon on die 2 over 1 gold")  # 6 gold: 2 reserve + 4 Scepter
    assert (ana.gold, ana.scepter) == (0, [1])


def test_sanctuary_and_feat_views() -> None:
    game = new(("A", "B", "C"))
    view = game.sanctuary_view()
    assert view[0] == (1, 2, ["3 gold"] * 4)
    assert view[9][:2] == (10, 12) and len(view) == 10
    feats = game.feat_view()
    assert ("M8", "The Hydra", 5, 5, 3) in feats
    assert ("F1", "The Elder", 1, 0, 3) in feats


def test_two_merchants_upgrade_one_face_two_levels() -> None:
    game = new(("A", "B", "C"), cards={"F1": "merchant"})
    bless_all(game)
    a = live(game, 0)
    a.cards.extend([st(game).stacks["F1"].pop(), st(game).stacks["F1"].pop()])
    game.apply("A: Use The Merchant")
    options = st(game).steps[0].data["options"]
    assert "3 gold on die 1 over 1 gold" in options  # one level: level 0 -> 1
    assert "4 gold on die 1 over 1 gold using 2 Merchants" in options  # level 0 -> 2
    game.apply("A: Choose 4 gold on die 1 over 1 gold using 2 Merchants")
    assert "4 gold" in a.dice[0] and a.removed == ["1 gold"]
    with pytest.raises(IllegalCall, match="already used The Merchant this turn"):
        game.apply("A: Use The Merchant")


def test_tiebreak_option() -> None:
    game = new(rounds=1, tiebreak=True)
    bless_all(game, "2 glory", "1 sun")
    game.apply("Ana: Pass")
    bless_all(game, "2 glory", "1 sun")
    game.apply("Ben: Pass")
    assert st(game).final == {"Ana": 8, "Ben": 8}
    assert game.standings().winner == "Ana"  # same faces, cards and shards; Ana has more gold


def test_mirror_against_a_mirror_may_copy_own_faces() -> None:
    game = new()
    ana, ben = live(game, 0), live(game, 1)
    ana.dice[0][1] = "mirror"
    ben.dice[0][0] = "mirror"
    ben.up = [0, 1]  # Ben shows a mirror and 2 glory
    ana.dice[1][0] = "2 sun"
    game.apply("Ana: Rolled mirror, 2 sun")
    assert st(game).steps[0].data["options"] == ["2 glory", "2 sun"]
    game.apply("Ana: Choose 2 sun")
    assert ana.sun == 4


def test_board_data_is_consistent_with_the_reference() -> None:
    from rules.dice_forge.table import GODDESS, TITANS, titan_glory

    for i, space in GODDESS.items():
        assert all(i in GODDESS[f]["back"] for f in space["forward"])
        assert all(i in GODDESS[b]["forward"] for b in space["back"])

    def routes(x: int) -> list[int]:
        if x == 36:
            return [0]
        return [1 + n for f in GODDESS[x]["forward"] for n in routes(f)]

    lengths = routes(1)
    assert (len(lengths), min(lengths), max(lengths)) == (8, 18, 24)  # reference 8.2
    assert sorted(TITANS) == list(range(1, 32))
    assert (titan_glory(1), titan_glory(16), titan_glory(31)) == (-25, 0, 25)
