"""Dice of the Occulites: scenarios from the rulebook, every mode, rulings and error messages."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

import rules
from rules import IllegalCall, InvalidCall, SetupError
from rules.occulites import (
    CARDS,
    EFFECTS,
    SUPPLY,
    TRIBES,
    Die,
    Effect,
    EffectContext,
    LineUp,
    OcculitesGame,
    OcculitesOptions,
    Placed,
    Share,
    resolve_card,
    resolve_lineups,
    share_cost,
    timer_cues,
)
from rules.occulites.resolve import CardOutcome

TRIBES_OF = {"Ana": "Palaudis", "Ben": "Hydris", "Cy": "Ignis"}


def start(choices: dict[str, str], first: str | None = None, **options: Any) -> OcculitesGame:
    """A game after the Tribe choice; ``first`` searches seeds until that Tribe opens."""
    for seed in range(500):
        game = rules.new_game("occulites", list(choices), options, seed=seed)
        assert isinstance(game, OcculitesGame)
        for player, tribe in choices.items():
            game.apply(f"{player}: Tribe {tribe}")
        if first is None or game.state.tribe == first:
            return game
    raise AssertionError(f"no seed opens with {first}")


def line(game: OcculitesGame, player: str, pips: Sequence[int],
         colours: Sequence[str] | None = None) -> None:
    """Line up a player's dice: ``colours`` in order (default: all of their one colour)."""
    if colours is None:
        held = [c for c, n in game.state.dice[player].items() for _ in range(n)]
        colours = held
    text = ", ".join(f"{c} {p}" for c, p in zip(colours, pips, strict=True))
    game.apply(f"{player}: Line-up {text}")


def plain_round(game: OcculitesGame) -> None:
    """Everyone lines up all 3s, reveal, and every Share Knowledge turn is passed."""
    for p in game.setup.players:
        line(game, p, [3] * 6)
    game.apply("Reveal")
    while game.phase == "share":
        game.apply(f"{game.whose_turn()}: Pass")


def outcome(game: OcculitesGame, number: int) -> CardOutcome:
    return game.state.outcomes[number - 1]


# -- components and setup -----------------------------------------------------------------


def test_components_match_the_rulebook() -> None:
    assert SUPPLY == {"green": 6, "blue": 6, "pink": 4, "black": 2, "yellow": 6, "red": 6,
                      "purple": 6, "orange": 6, "white": 6}
    colours = {t: info.colour for t, info in TRIBES.items()}
    assert colours["Palaudis"] == "green" and colours["Hydris"] == "blue"
    assert len(set(colours.values())) == 7 and "pink" not in colours.values()
    for tribe in TRIBES.values():
        assert [c.number for c in tribe.cards] == [1, 2, 3, 4, 5, 6]
        assert all(c.provisional and c.text == "unknown" for c in tribe.cards)
    creatures = [c for c in CARDS.values() if c.set in ("Creatures", "Predators")]
    assert len(creatures) == 12
    assert sorted(c.number for c in creatures) == sorted([1, 2, 3, 4, 5, 6] * 2)


def test_setup_number_one_deck_is_filled_to_five() -> None:
    game = start({"Ana": "Palaudis", "Ben": "Hydris"})
    played_and_left = [game.state.tribe, *game.state.tribe_deck]
    assert len(played_and_left) == 5
    assert {"Palaudis", "Hydris"} <= set(played_and_left)
    assert len(set(played_and_left)) == 5
    assert game.state.dice["Ana"]["green"] == 6 and game.state.dice["Ben"]["blue"] == 6
    assert game.state.pool["pink"] == 4 and game.state.pool["black"] == 2
    assert game.state.cards == [f"{game.state.tribe} {n}" for n in range(1, 7)]


def test_tribe_choice_errors() -> None:
    game = rules.new_game("occulites", ["Ana", "Ben"])
    game.apply("Ana: Tribe Hydris")
    with pytest.raises(IllegalCall, match=r"^Ben: Tribe Hydris: Ana already has the Hydris "
                       r"dice$"):
        game.apply("Ben: Tribe Hydris")
    with pytest.raises(IllegalCall, match="Ana: Tribe Ignis: Ana already chose Hydris"):
        game.apply("Ana: Tribe Ignis")
    with pytest.raises(IllegalCall, match=r"Ben: Line-up .*: line-ups are given before the "
                       r"reveal, but players are choosing Tribes \(waiting for Ben\)"):
        game.apply("Ben: Line-up blue 1, blue 2, blue 3, blue 4, blue 5, blue 6")
    with pytest.raises(InvalidCall, match="'Ben: Tribe Luftle': 'Luftle' is no Tribe"):
        game.apply("Ben: Tribe Luftle")
    base = rules.new_game("occulites", ["Ana", "Ben"], {"tribes": ["Palaudis", "Hydris"]})
    with pytest.raises(IllegalCall, match="Ana: Tribe Ignis: Ignis is not in play; Tribes in "
                       "play: Palaudis, Hydris"):
        base.apply("Ana: Tribe Ignis")


def test_setup_errors() -> None:
    with pytest.raises(SetupError, match="3 players need 3 Tribes, but only Palaudis, Hydris"):
        rules.new_game("occulites", ["A", "B", "C"], {"tribes": ["Palaudis", "Hydris"]})
    with pytest.raises(SetupError, match="unknown Tribe"):
        rules.new_game("occulites", ["A", "B"], {"tribes": ["Luftles"]})
    with pytest.raises(SetupError, match="Lots of Interests: the pool holds 18 dice"):
        rules.new_game("occulites", ["A", "B", "C", "D"],
                       {"tribes": ["Palaudis", "Hydris"], "lots-of-interests": True})
    with pytest.raises(SetupError, match="reserved for the Common Knowledge Pool"):
        rules.new_game("occulites", ["Ana", "Pool"])
    with pytest.raises(SetupError, match="card-effects: Hydris 3 has unknown effect 'zap'"):
        rules.new_game("occulites", ["A", "B"], {"card-effects": {"Hydris 3": "zap"}})
    with pytest.raises(SetupError, match="takes 2 to 5 players"):
        rules.new_game("occulites", ["A"])


# -- resolution ----------------------------------------------------------------------------


def test_highest_research_value_wins_and_scores_card_number() -> None:
    game = start(TRIBES_OF, first="Ignis")
    line(game, "Ana", [6, 1, 1, 1, 1, 3])
    line(game, "Ben", [2, 5, 1, 1, 1, 2])
    line(game, "Cy", [1, 1, 1, 1, 4, 1])
    game.apply("Reveal")
    assert [outcome(game, n).winner for n in (1, 2, 5, 6)] == ["Ana", "Ben", "Cy", "Ana"]
    assert outcome(game, 1).explanation == ("Card 1 (Ignis 1, red): Ana wins with the highest "
                                            "6; Ben 2, Cy 1; Ana wins 1 point.")
    # cards 3 and 4: all three drew on 1; Cy's red dice match the Ignis card, so Cy wins.
    assert outcome(game, 3).winner == "Cy" and outcome(game, 3).reason == "colour"
    assert game.state.points == {"Ana": 1 + 6, "Ben": 2, "Cy": 3 + 4 + 5}


def test_draw_is_a_joint_discovery_without_winner() -> None:
    game = start({"Ana": "Palaudis", "Ben": "Hydris", "Cy": "Ignis"}, first="Floris")
    line(game, "Ana", [4, 6, 1, 1, 1, 1])
    line(game, "Ben", [4, 6, 2, 2, 2, 2])
    line(game, "Cy", [2, 6, 3, 3, 3, 3])
    game.apply("Reveal")
    first, second = outcome(game, 1), outcome(game, 2)
    assert first.winner is None and first.discoverers == ("Ana", "Ben")
    assert first.reason == "draw"
    assert "Ana and Ben draw on 4: a Joint Discovery, 1 point each" in first.explanation
    assert second.discoverers == ("Ana", "Ben", "Cy")
    assert game.state.points == {"Ana": 1 + 2, "Ben": 1 + 2, "Cy": 2 + 3 + 4 + 5 + 6}
    # Only Cy won cards alone: only Cy gets Share Knowledge turns (cards 3 to 5).
    assert game.state.share_queue == [(3, "Cy"), (4, "Cy"), (5, "Cy"), (6, "Cy")]
    with pytest.raises(IllegalCall, match="Ana: Pass: it is Cy's turn to Share Knowledge for "
                       "card 3"):
        game.apply("Ana: Pass")


def test_matching_colour_breaks_the_draw() -> None:
    game = start(TRIBES_OF, first="Hydris")
    line(game, "Ana", [5, 5, 5, 5, 5, 5])
    line(game, "Ben", [5, 1, 1, 1, 1, 1])
    line(game, "Cy", [5, 1, 1, 1, 1, 1])
    game.apply("Reveal")
    first = outcome(game, 1)
    assert first.winner == "Ben" and first.discoverers == ("Ben",)
    assert first.explanation == ("Card 1 (Hydris 1, blue): Ana, Ben and Cy draw on 5; only Ben "
                                 "used a blue die, so Ben wins 1 point.")


def test_several_matching_colours_draw_only_between_them() -> None:
    picks = {"Ana": ["blue"] * 3 + ["green"] * 3, "Ben": ["blue"] * 3 + ["red"] * 3,
             "Cy": ["yellow"] * 6}
    for seed in range(200):
        game = rules.new_game("occulites", ["Ana", "Ben", "Cy"], {"lots-of-interests": True},
                              seed=seed)
        assert isinstance(game, OcculitesGame)
        for i in range(6):
            for p in ("Ana", "Ben", "Cy"):
                game.apply(f"{p}: Take {picks[p][i]}")
        if game.state.tribe == "Hydris":
            break
    assert isinstance(game, OcculitesGame)
    assert game.current_cards()[0].colour == "blue"
    line(game, "Ana", [6, 1, 1, 1, 1, 1], ["blue", "blue", "blue", "green", "green", "green"])
    line(game, "Ben", [6, 1, 1, 1, 1, 1], ["blue", "red", "red", "red", "blue", "blue"])
    line(game, "Cy", [6, 1, 1, 1, 1, 1])
    game.apply("Reveal")
    first = outcome(game, 1)
    assert first.winner is None and first.discoverers == ("Ana", "Ben")
    assert first.reason == "colour-draw"
    assert first.explanation == ("Card 1 (Hydris 1, blue): Ana, Ben and Cy draw on 6; Ana and "
                                 "Ben used blue dice, so the Joint Discovery is theirs: 1 point "
                                 "each.")
    assert game.state.points == {"Ana": 1 + 2 + 3 + 4, "Ben": 1 + 4 + 5 + 6, "Cy": 4}
    assert outcome(game, 2).winner == "Ana"  # only Ana's blue on card 2
    assert outcome(game, 4).discoverers == ("Ana", "Ben", "Cy")  # green, red, yellow: a draw
    # The same table through the pure helper a screen uses.
    table = resolve_lineups(game.state.cards, {p: list(d) for p, d in game.state.lineups.items()})
    assert [o.explanation for o in table] == game.explain_round()


def test_resolve_card_is_pure_and_lists_each_die() -> None:
    card = CARDS["Palaudis 6"]
    placed = [Placed("Ana", "blue", 3), Placed("Ben", "green", 2), Placed("Cy", "red", 3)]
    out = resolve_card(card, placed)
    assert out.discoverers == ("Ana", "Cy") and out.points == 6 and out.placed == tuple(placed)
    lowest = resolve_card(card, placed, lowest=True)
    assert lowest.winner == "Ben"
    assert resolve_card(card, []).reason == "nobody"


# -- share knowledge -----------------------------------------------------------------------


def sweep(game: OcculitesGame, winner: str, others: Sequence[str]) -> None:
    """``winner`` wins all six cards alone with sixes; the others play ones."""
    line(game, winner, [6] * 6)
    for p in others:
        line(game, p, [1] * 6)
    game.apply("Reveal")


def test_share_costs_one_two_three_and_at_most_three_per_round() -> None:
    game = start(TRIBES_OF, first="Floris")
    sweep(game, "Ana", ["Ben", "Cy"])
    assert game.state.points["Ana"] == 21
    assert game.state.share_queue == [(n, "Ana") for n in range(1, 7)]
    assert [share_cost(n) for n in (1, 2, 3)] == [1, 2, 3]
    events = game.apply("Ana: Share green for pink from pool")
    assert events[0].text == "Ana pays 1 and swaps a green die for the pool's pink die"
    game.apply("Ana: Pass")  # passing on card 2 uses no share
    game.apply("Ana: Share green for blue from Ben")
    events = game.apply("Ana: Share green for red from Cy")
    assert game.state.points["Ana"] == 21 - 1 - 2 - 3
    assert game.state.shares_total["Ana"] == 3
    # A fourth share is not offered: the round ends and round 2 begins.
    assert game.state.round == 2 and game.phase == "allocate"
    assert [e.kind for e in events] == ["share", "round-over", "round"]
    assert game.state.dice["Ana"] == {**dict.fromkeys(SUPPLY, 0), "green": 3, "pink": 1,
                                      "blue": 1, "red": 1}
    assert game.state.pool["green"] == 1 and game.state.dice["Ben"]["green"] == 1


def test_share_errors_and_locked_dice() -> None:
    game = start(TRIBES_OF, first="Floris")
    # Ana wins cards 1-3, Ben 4-6.
    line(game, "Ana", [6, 6, 6, 1, 1, 1])
    line(game, "Ben", [1, 1, 1, 6, 6, 6])
    line(game, "Cy", [2, 2, 2, 2, 2, 2])
    game.apply("Reveal")
    with pytest.raises(IllegalCall, match=r"Ana: Share green for green from pool: swapping "
                       "green for green changes nothing"):
        game.apply("Ana: Share green for green from pool")
    with pytest.raises(IllegalCall, match="Ana: Share blue for pink from pool: Ana has no blue "
                       r"die to give \(6 green; locked: no dice\)"):
        game.apply("Ana: Share blue for pink from pool")
    with pytest.raises(IllegalCall, match=r"Ana: Share green for white from pool: the pool has "
                       r"no white die \(4 pink, 2 black\)"):
        game.apply("Ana: Share green for white from pool")
    with pytest.raises(IllegalCall, match="not yourself"):
        game.apply("Ana: Share green for blue from Ana")
    with pytest.raises(IllegalCall, match="Ben: Share blue for red from Cy: it is Ana's turn"):
        game.apply("Ben: Share blue for red from Cy")
    game.apply("Ana: Share green for red from Cy")  # Ana gains a red die, locked; Cy a green
    with pytest.raises(IllegalCall, match="Ana: Share red for pink from pool: Ana has no "
                       r"unlocked red die to give \(5 green, 1 red; locked: 1 red\)"):
        game.apply("Ana: Share red for pink from pool")
    game.apply("Ana: Pass")
    game.apply("Ana: Pass")
    # Ben's turn (card 4): Ana's red die is locked, and so is the green die Cy received.
    with pytest.raises(IllegalCall, match="Ben: Share blue for red from Ana: Ana's red die is "
                       "locked in this round"):
        game.apply("Ben: Share blue for red from Ana")
    with pytest.raises(IllegalCall, match="Cy's green die is locked in this round"):
        game.apply("Ben: Share blue for green from Cy")
    game.apply("Ben: Share blue for green from Ana")  # Ana's other green dice are free
    assert game.state.locked["Ben"]["green"] == 1 and game.state.locked["Ana"]["blue"] == 1
    game.apply("Ben: Pass")
    game.apply("Ben: Pass")
    # Next round: locks are lifted.
    assert game.state.round == 2
    assert all(n == 0 for held in game.state.locked.values() for n in held.values())
    game.check_invariants()


def test_lock_gained_only_option_frees_the_die_given_away() -> None:
    game = start(TRIBES_OF, first="Floris", lock="gained")
    line(game, "Ana", [6, 6, 6, 1, 1, 1])
    line(game, "Ben", [1, 1, 1, 6, 6, 6])
    line(game, "Cy", [2, 2, 2, 2, 2, 2])
    game.apply("Reveal")
    game.apply("Ana: Share green for red from Cy")
    game.apply("Ana: Pass")
    game.apply("Ana: Pass")
    game.apply("Ben: Share blue for green from Cy")  # the green Cy received is not locked
    assert game.state.dice["Ben"]["green"] == 1 and game.state.dice["Cy"]["green"] == 0


def test_share_cost_cannot_go_negative_unless_allowed(monkeypatch: pytest.MonkeyPatch) -> None:
    def tax(ctx: EffectContext, out: CardOutcome) -> list[rules.Event]:
        assert out.winner is not None
        return [ctx.add_points(out.winner, -5, "test tax")]

    monkeypatch.setitem(EFFECTS, "test-tax", Effect("test-tax", "winner loses 5", on_win=tax))
    effects = {f"{t} 1": "test-tax" for t in TRIBES}
    game = start(TRIBES_OF, first="Floris", card_effects=effects)
    line(game, "Ana", [6, 1, 1, 1, 1, 1])
    line(game, "Ben", [1, 2, 2, 2, 2, 2])
    line(game, "Cy", [1, 3, 3, 3, 3, 3])
    events = game.apply("Reveal")
    assert "Floris 1: Ana loses 5 Discovery Points (test tax)" in [e.text for e in events]
    assert game.state.points["Ana"] == 1 - 5
    with pytest.raises(IllegalCall, match=r"Ana: Share green for pink from pool: share 1 costs "
                       r"1 Discovery Point, Ana has -4"):
        game.apply("Ana: Share green for pink from pool")
    assert game.share_choices() == []
    debt = start(TRIBES_OF, first="Floris", card_effects=effects, negative_points=True)
    line(debt, "Ana", [6, 1, 1, 1, 1, 1])
    line(debt, "Ben", [1, 2, 2, 2, 2, 2])
    line(debt, "Cy", [1, 3, 3, 3, 3, 3])
    debt.apply("Reveal")
    debt.apply("Ana: Share green for pink from pool")
    assert debt.state.points["Ana"] == -5


# -- line-up errors and the round flow ------------------------------------------------------


def test_lineup_errors() -> None:
    game = start(TRIBES_OF, first="Floris")
    with pytest.raises(IllegalCall, match=r"^Ana: Line-up blue 1, green 2, green 3, green 4, "
                       "green 5, green 6: Ana holds 6 green, but the line-up uses 5 green, "
                       "1 blue$"):
        game.apply("Ana: Line-up blue 1, green 2, green 3, green 4, green 5, green 6")
    with pytest.raises(InvalidCall, match="a line-up names 6 dice, each a colour and pips "
                       r"\(e.g. 'green 5, blue 3, ...'\), got 'green 1, green 2'"):
        game.apply("Ana: Line-up green 1, green 2")
    with pytest.raises(InvalidCall, match="'green 7' should be a colour and pips 1-6"):
        game.apply("Ana: Line-up green 7, green 2, green 3, green 4, green 5, green 6")
    with pytest.raises(InvalidCall, match="'teal' is no dice colour"):
        game.apply("Ana: Line-up teal 1, green 2, green 3, green 4, green 5, green 6")
    with pytest.raises(InvalidCall, match="no player called 'Dee'"):
        game.apply("Dee: Pass")
    with pytest.raises(InvalidCall, match="'Dance' is no call"):
        game.apply("Ana: Dance")
    line(game, "Ana", [1] * 6)
    line(game, "Ana", [2] * 6)  # a line-up may be changed before the reveal
    assert game.state.lineups["Ana"][0] == Die("green", 2)
    with pytest.raises(IllegalCall, match=r"^Reveal: waiting for the line-up of Ben and Cy$"):
        game.apply("Reveal")
    with pytest.raises(IllegalCall, match="Ana: Pass: Share Knowledge comes after the reveal, "
                       "but round 1 is being allocated"):
        game.apply("Ana: Pass")


def test_calls_round_trip_through_text() -> None:
    game = start(TRIBES_OF)
    for text in ["Ana: Line-up green 5, green 3, green 2, green 6, green 1, green 4", "Reveal",
                 "Ana: Share green for pink from pool", "Ben: Share blue for red from Cy",
                 "Cy: Pass", "Ana: Tribe Hydris", "Ben: Take white"]:
        assert game.parse(text).text() == text
    assert game.parse("ana:  line-up GREEN 5, green 3, green 2, green 6, green 1, green 4") \
        == LineUp("Ana", tuple(Die("green", p) for p in (5, 3, 2, 6, 1, 4)))
    assert game.parse("ben: share Blue for Red from cy") == Share("Ben", "blue", "red", "Cy")


def test_last_round_has_no_sharing_and_game_ends() -> None:
    game = start({"Ana": "Palaudis", "Ben": "Hydris"}, rounds=1)
    sweep(game, "Ana", ["Ben"])
    assert game.is_over and game.legal_calls() == []
    st = game.standings()
    assert st.winner == "Ana" and st.is_over
    assert st.rows[0][:4] == ("Ana", "Palaudis", "21", "6")
    with pytest.raises(IllegalCall, match="Reveal: the game is over"):
        game.apply("Reveal")
    sharing = start({"Ana": "Palaudis", "Ben": "Hydris"}, rounds=1, share_last_round=True)
    sweep(sharing, "Ana", ["Ben"])
    assert sharing.phase == "share"


def test_final_tie_shared_or_broken_by_cards_won_alone() -> None:
    for tie_break, winner in (("shared", "Ana & Ben"), ("most-sole-wins", "Ben")):
        game = start({"Ana": "Palaudis", "Ben": "Hydris"}, first="Floris", rounds=1,
                     tie_break=tie_break)
        # Ana wins card 6 alone (6); Ben wins 1, 2, 3 alone (6); cards 4-5 are drawn.
        line(game, "Ana", [1, 1, 1, 3, 3, 6])
        line(game, "Ben", [2, 2, 2, 3, 3, 1])
        game.apply("Reveal")
        assert game.state.points == {"Ana": 15, "Ben": 15}
        assert game.standings().winner == winner


def test_five_rounds_reshuffle_when_tribes_run_out() -> None:
    game = start({"Ana": "Palaudis", "Ben": "Hydris"}, tribes=["Palaudis", "Hydris"],
                 rounds=5)
    seen = []
    while not game.is_over:
        seen.append(game.state.tribe)
        plain_round(game)
    assert len(seen) == 5 and set(seen) == {"Palaudis", "Hydris"}
    assert game.state.reshuffles == 2
    # Every card is Palaudis (green) or Hydris (blue): its own Tribe's player wins it alone.
    assert game.state.points["Ana"] == 21 * seen.count("Palaudis")
    assert game.state.points["Ben"] == 21 * seen.count("Hydris")


def test_longer_game_adds_a_tribe_per_extra_round() -> None:
    game = start({"Ana": "Palaudis", "Ben": "Hydris"}, rounds=7)
    assert len([game.state.tribe, *game.state.tribe_deck]) == 7
    seen: list[str] = []
    for _ in range(7):
        assert game.state.tribe is not None
        seen.append(game.state.tribe)
        plain_round(game)
    assert sorted(seen) == sorted(TRIBES) and game.is_over


# -- modes ---------------------------------------------------------------------------------


def test_creatures_and_predators_replace_the_card_with_the_same_number() -> None:
    game = start(TRIBES_OF, first="Hydris", creatures=True)
    creature = next(c for c in game.state.cards if not c.startswith("Hydris"))
    card = CARDS[creature]
    assert game.state.cards[card.number - 1] == creature
    assert [c for c in game.state.cards if c.startswith("Hydris")] == \
        [f"Hydris {n}" for n in range(1, 7) if n != card.number]
    assert len(game.state.creature_deck) == 11
    # A pink/black Creature card: a pink or black die breaks a draw on it.
    out = resolve_lineups([*game.state.cards],
                          {"Ana": [Die(card.colour, 4)] * 6, "Ben": [Die("green", 4)] * 6})
    assert out[card.number - 1].winner == "Ana"
    assert out[card.number - 1].reason == "colour"
    # Over a long game the deck runs out of Creatures and is reshuffled from the discards.
    long = start({"Ana": "Palaudis", "Ben": "Hydris"}, creatures=True, rounds=13)
    for _ in range(13):
        plain_round(long)
    assert long.is_over and long.state.reshuffles >= 1


def test_lots_of_interests_draft() -> None:
    game = rules.new_game("occulites", ["Ana", "Ben"], {"lots-of-interests": True,
                                                        "draft-order": "snake"})
    assert isinstance(game, OcculitesGame)
    assert game.phase == "draft" and game.state.pool["white"] == 6
    assert sum(game.state.pool.values()) == sum(SUPPLY.values())
    with pytest.raises(IllegalCall, match="Ben: Take green: it is Ana's turn to take a die"):
        game.apply("Ben: Take green")
    with pytest.raises(IllegalCall, match="Ana: Tribe Hydris: Tribes are chosen only at setup, "
                       r"but the Lots of Interests draft is on \(Ana to take a die\)"):
        game.apply("Ana: Tribe Hydris")
    game.apply("Ana: Take black")
    game.apply("Ben: Take black")  # snake: Ben then Ben again
    with pytest.raises(IllegalCall, match="Ben: Take black: the pool has no black die left"):
        game.apply("Ben: Take black")
    assert game.whose_turn() == "Ben"
    order = []
    while game.phase == "draft":
        who = game.whose_turn()
        assert who is not None
        order.append(who)
        game.apply(f"{who}: Take pink" if game.state.pool["pink"] else f"{who}: Take red")
    assert order[:4] == ["Ben", "Ana", "Ana", "Ben"]
    assert game.state.dice["Ana"]["black"] == 1 and sum(game.state.dice["Ana"].values()) == 6
    assert game.phase == "allocate" and len([game.state.tribe, *game.state.tribe_deck]) == 5
    game.check_invariants()


def test_conflicted_interests_piles_per_number() -> None:
    game = start(TRIBES_OF, conflicted_interests=True, creatures=True, rounds=9)
    assert game.state.tribe is None
    assert [CARDS[c].number for c in game.state.cards] == [1, 2, 3, 4, 5, 6]
    assert all(len(game.state.piles[n]) == 7 + 2 - 1 for n in range(1, 7))
    seen: set[str] = set()
    for _ in range(9):
        seen.update(game.state.cards)
        plain_round(game)
    assert game.is_over and len({CARDS[c].set for c in seen}) > 2
    assert len(seen) == 9 * 6  # nine rounds before any pile runs out: no card twice


def test_timer_cues_and_late_lineups() -> None:
    cues = timer_cues(OcculitesOptions(timer=True))
    assert [(c.at, c.kind, c.sound) for c in cues] == [
        (0.0, "look", "start"), (10.0, "warning", "warning"), (15.0, "hide", "hide"),
        (40.0, "warning", "warning"), (45.0, "reveal", "reveal")]
    assert timer_cues(OcculitesOptions()) == ()
    quiet = timer_cues(OcculitesOptions(timer=True, timer_sound=False, look_seconds=10,
                                        allocate_seconds=20))
    assert quiet[-1].at == 30.0 and all(c.sound is None for c in quiet)
    game = start({"Ana": "Palaudis", "Ben": "Hydris"}, timer=True, late_lineups="forfeit")
    line(game, "Ana", [5] * 6)
    with pytest.raises(IllegalCall, match=r"Ben: Line-up .*: too late at 46 s; the allocation "
                       "timer ran out at 45 s"):
        game.apply("Ben: Line-up blue 5, blue 5, blue 5, blue 5, blue 5, blue 5", at=46)
    with pytest.raises(IllegalCall, match=r"waiting for the line-up of Ben \(they forfeit only "
                       r"once the timer ran out at 45 s\)"):
        game.apply("Reveal", at=30)
    game.apply("Reveal", at=45.5)
    assert game.state.points == {"Ana": 21, "Ben": 0}
    lenient = start({"Ana": "Palaudis", "Ben": "Hydris"}, timer=True)
    line(lenient, "Ana", [5] * 6)
    lenient.apply("Ben: Line-up blue 5, blue 5, blue 5, blue 5, blue 5, blue 5", at=60)


# -- card effects --------------------------------------------------------------------------


def test_effect_hooks_are_called_at_the_right_moments(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_six(card: rules.occulites.CardInfo, die: Die) -> str | None:
        return f"no 6 on {card.id}" if die.pips == 6 else None

    monkeypatch.setitem(EFFECTS, "test-no-six", Effect("test-no-six", "", check_allocation=no_six))
    black = EFFECTS["no-black"].check_allocation
    assert black is not None and black(CARDS["Hydris 2"], Die("black", 3)) == \
        "black dice may not be allocated to Hydris 2"
    assert black(CARDS["Hydris 2"], Die("pink", 3)) is None
    effects = {"Floris 1": "lowest-wins", "Floris 2": "test-no-six",
               "Floris 3": "winner-bonus-1", "Floris 4": "winner-bonus-1",
               "Floris 5": "trailing-gain-1"}
    game = start({"Ana": "Palaudis", "Ben": "Hydris"}, first="Floris", card_effects=effects)
    # before allocation (run when the first line-up comes, once the table can no longer flip
    # another card): everyone is tied on 0, so both gain 1.
    assert game.state.points == {"Ana": 0, "Ben": 0}
    with pytest.raises(IllegalCall, match=r"^Ana: Line-up green 1, green 6, green 1, green 1, "
                       "green 1, green 1: card 2: no 6 on Floris 2$"):
        game.apply("Ana: Line-up green 1, green 6, green 1, green 1, green 1, green 1")
    assert game.state.points == {"Ana": 0, "Ben": 0}  # a refused line-up changes nothing
    events = game.apply("Ana: Line-up green 1, green 2, green 6, green 3, green 1, green 1")
    assert [e.kind for e in events] == ["effect-points", "effect-points", "lineup"]
    assert game.state.points == {"Ana": 1, "Ben": 1}
    line(game, "Ben", [6, 2, 1, 3, 1, 1])
    events = game.apply("Reveal")
    texts = [e.text for e in events]
    assert outcome(game, 1).winner == "Ana"  # lowest wins
    assert "Floris 3: Ana gains 1 Discovery Point (winner text)" in texts
    assert not any(t.startswith("Floris 4:") for t in texts)  # a draw: no winner text
    assert game.state.points == {"Ana": 1 + 1 + 2 + 3 + 1 + 4 + 5 + 6,
                                 "Ben": 1 + 2 + 4 + 5 + 6}


def test_every_card_effect_key_in_data_is_known() -> None:
    for card in CARDS.values():
        assert card.effect == "" or card.effect in EFFECTS, card.id


def test_invariant_catches_lost_dice() -> None:
    game = start(TRIBES_OF)
    game.check_invariants()
    game.state.pool["pink"] -= 1  # tamper, only to see the law fire
    with pytest.raises(AssertionError, match=r"pink dice: 3 in play\+pool\+box, supply 4"):
        game.check_invariants()


GOLDEN = """\
# Two rounds, computed by hand from the rulebook: sharing in card order, costs 1-2-3, locks.
game = "occulites"
players = ["Ana", "Ben"]
seed = 3

[options]
rounds = 2
tribes = ["Palaudis", "Hydris"]
---
Ana: Tribe Palaudis
Ben: Tribe Hydris
[0:20.000] Ana: Line-up green 6, green 1, green 6, green 1, green 6, green 2
[0:25.500] Ben: Line-up blue 5, blue 2, blue 5, blue 2, blue 5, blue 1
Reveal
# Ana won 1, 3, 5, 6 (15 points), Ben 2 and 4 (6 points).
Ana: Share green for pink from pool
Ben: Share blue for black from pool
Ana: Pass
Ben: Share blue for green from Ana
Ana: Share green for blue from Ben
Ana: Share green for black from pool
# Ana 15-1-2-3 = 9, Ben 6-1-2 = 3. Last round: no sharing.
Ana: Line-up pink 6, black 6, green 1, green 1, blue 1, blue 1
Ben: Line-up blue 1, green 1, black 5, blue 5, green 5, blue 5
Reveal
"""


def test_golden_game_file() -> None:
    game = rules.parse_game_file(GOLDEN, "golden.game").play("golden.game")
    assert game.is_over
    assert game.state.points == {"Ana": 9 + 1 + 2, "Ben": 3 + 3 + 4 + 5 + 6}
    st = game.standings()
    assert st.winner == "Ben"
    assert st.rows == (("Ana", "Palaudis", "12", "6", "2 green, 2 blue, 1 pink, 1 black"),
                       ("Ben", "Hydris", "21", "6", "2 green, 3 blue, 1 black"))
    game.check_invariants()
    assert game.history[2].at == 20.0
    bad = GOLDEN.replace("Ana: Pass", "Ana: Share blue for green from Ben")
    with pytest.raises(rules.GameFileError, match=r"golden\.game, line 18: Ana: Share blue for "
                       "green from Ben: .*Ana has no blue die to give"):
        rules.parse_game_file(bad, "golden.game").play("golden.game")


def test_lineup_problems_for_a_screen() -> None:
    game = start({"Ana": "Palaudis", "Ben": "Hydris"})
    good = [Die("green", p) for p in (1, 2, 3, 4, 5, 6)]
    assert game.lineup_problems("Ana", good) == []
    wrong = [Die("blue", 9), *good[1:]]
    assert game.lineup_problems("Ana", wrong) == [
        "Ana holds 6 green, but the line-up uses 5 green, 1 blue",
        "card 1: a die shows 1 to 6 pips, not 9"]
    assert game.lineup_problems("Ana", good[:5]) == ["a line-up has 6 dice, not 5"]


def test_calls_out_of_phase_name_the_phase() -> None:
    game = start({"Ana": "Palaudis", "Ben": "Hydris"}, timer=True, late_lineups="forfeit")
    with pytest.raises(IllegalCall, match=r"^Reveal: nobody has lined up$"):
        game.apply("Reveal", at=50)
    with pytest.raises(IllegalCall, match="Ana: Take pink: dice are drafted only in Lots of "
                       "Interests, but round 1 is being allocated"):
        game.apply("Ana: Take pink")
    sweep(game, "Ana", ["Ben"])
    with pytest.raises(IllegalCall, match=r"^Reveal: cards are revealed after allocation, but it "
                       "is Ana's turn to Share Knowledge for card 1$"):
        game.apply("Reveal")
    assert game.whose_turn() == "Ana"
    assert Share("Ana", "green", "pink", "pool") in game.share_choices()
