"""Rules help written for players (no Kivy): per game, what you are trying to do, a turn or a
round in order, every call with an example in the words the app takes, and the table's rulings
in a sentence each. Written for this app from the games' rulebooks; no file paths, no markup.

The Menu's "Rules help" shows :func:`help_text`; tests check that every example parses as a
call of its game.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import rules


@dataclass(frozen=True)
class GameHelp:
    """One game's help: ``goal``, ``turn`` (the steps, in order, under ``turn_title``),
    ``calls`` as (what it does, an example the app takes), ``rulings`` (one sentence each).

    ``numbers`` gives, from the options of the game being played, the figures the goal, the
    steps and the rulings quote (``{target}`` in them): a Dice-ocalypse game to 2,000 is
    explained with 2,000, not the rulebook's 10,000."""

    goal: str
    turn_title: str
    turn: tuple[str, ...]
    calls: tuple[tuple[str, str], ...]
    rulings: tuple[str, ...]
    numbers: Callable[[Any], Mapping[str, str]] | None = None


def _occulites_numbers(o: Any) -> dict[str, str]:
    return {"rounds": f"{o.rounds}"}


def _diceocalypse_numbers(o: Any) -> dict[str, str]:
    mark = f"{o.battle_zone_at:,}"
    battle = {"off": "There are no Battle Zones in this game.",
              "every-time": f"Each time a score reaches {mark}, a Battle Zone: everyone rolls "
                            "two dice; a one loses your next turn, doubles double your next "
                            "score."}.get(
        o.battle_zone, f"When a score reaches {mark}, a Battle Zone (once per player): "
                       "everyone rolls two dice; a one loses your next turn, doubles double "
                       "your next score.")
    return {"target": f"{o.target:,}", "battle": battle, "opening": f"{o.opening_minimum:,}",
            "cards": f"{o.card_minimum:,}",
            "passes": "passes" if o.win_threshold == "over" else "reaches"}


HELP: dict[str, GameHelp] = {
    "eye-for-an-eye": GameHelp(
        goal=("Knock health out of the other fighters in a round played in real time. Every "
              "hit you land puts the target's health tokens in your cup; at the end of the "
              "round the sides are ranked by their cups, and a side whose fighters still "
              "stand gets 5 more per fighter. Ranks give match points (4, 2 for two sides; "
              "4, 2, 1 for three; 4, 3, 2, 1 for four), which add up over the match: the most "
              "points after the last round wins."),
        turn_title="A round",
        turn=(
            "Everyone puts their health on their board and their fighters in a starting area.",
            "The announcer says \"Yarra Mark!\": the round clock runs. There are no turns: "
            "roll, put dice on your board's actions and call each action as soon as it is "
            "ready.",
            "An attack opens a parry window for its target: they may parry with dice already "
            "on their Parry space before the window closes; what is not parried lands.",
            "A hit stops the target: they hand over the health at once, then go on.",
            "\"Yarra Bung!\" ends the round: hits already called land, the round is ranked, "
            "cups are emptied, points carry over.",
            "After the last round the side with the most points wins; tied sides play one "
            "more round between them."),
        calls=(
            ("Move a fighter (dice on Movement)", "Grubic: Movement 2"),
            ("Attack, naming the dice and the target", "Grubic: Spear Thrust 3 on Riparian"),
            ("Attack from behind the target: it cannot be parried",
             "Grubic: Spear Thrust 3 on Riparian from the rear"),
            ("Parry the attack waiting on you", "Riparian: Parry 2"),
            ("The parry window closed: the hits land (the app says it when the countdown "
             "ends)", "Hits land on Riparian"),
            ("Heal one health from the supply", "Grubic: Heal"),
            ("Turn to face an attack from behind (an innate action)", "Grubic: Watch Out!"),
            ("Ready a tribal card, then use it", "Grubic: Ready Leap"),
            ("Use a readied tribal card", "Grubic: Leap"),
            ("Hits nobody can parry (some tribal cards)", "Grubic: Unblockable 2 on Riparian"),
            ("Players cannot agree: everyone named clears their dice",
             "Dispute: Grubic, Riparian"),
            ("The round clock ran out", "Yarra Bung!"),
            ("Start the next round", "Next round"),
        ),
        rulings=(
            "Each attack has its own parry window; a parry answers the oldest attack waiting "
            "on you from the front.",
            "If the target makes any other call while hits wait on them, those hits land "
            "first.",
            "Unblockable hits land at once; the regular hits of the same attack can still be "
            "parried.",
            "The app does not see the arena: the attacker says when an attack comes from the "
            "rear, and Watch Out! turns it into one from the front.",
            "You cannot parry more hits than are waiting on you.",
            "Heal never takes you above your starting health and needs a token in the supply.",
            "Tied sides share the rank and each scores the higher place's points.",
            "A match lasts one round more than there are players, in Alliances too (2 vs 2: "
            "five rounds) unless Rounds says otherwise; team mates cannot hit each other.",
            "Nothing can be called while the clock is paused except Undo, Redo and a dispute.",
            "While the target is choosing how many dice to parry with, their window waits.",
        )),
    "occulites": GameHelp(
        goal=("Discover the Tribe's cards before the others. Six cards, numbered 1 to 6, are "
              "researched each round; you line up your six dice, one under each card, and the "
              "highest die on a card discovers it and scores its number in Discovery Points. "
              "After {rounds} rounds the most points wins."),
        turn_title="A round",
        turn=(
            "The table flips the next Tribe: its six cards are this round's.",
            "Everyone rolls their six dice and lines them up in secret, one die under each "
            "card, left to right.",
            "Reveal: the cards resolve from 1 to 6. The highest die wins the card and scores "
            "its number; a die of the card's colour breaks a draw; a draw nobody breaks is "
            "shared, each scoring the full points.",
            "Share Knowledge: for each card you won alone, in card order, you may swap one of "
            "your dice for one from the pool or another player, paying 1, then 2, then 3 "
            "points for the round's shares.",
            "After the last round, the most Discovery Points wins."),
        calls=(
            ("Choose the Tribe whose dice you play", "Ana: Tribe Hydris"),
            ("Lots of Interests: take one die from the pool on your draft turn",
             "Ana: Take green"),
            ("Your line-up: colour and pips, cards 1 to 6 (say it again to correct it)",
             "Ana: Line-up green 5, blue 3, green 2, green 6, green 1, blue 4"),
            ("Everyone has lined up: the cards resolve", "Reveal"),
            ("Share: swap a die with the pool", "Ana: Share green for pink from pool"),
            ("Share: swap a die with another player", "Ana: Share green for blue from Ben"),
            ("No share for this card", "Ana: Pass"),
            ("The Tribe the table flipped for the round", "Flip Hydris"),
            ("The Creatures and Predators card drawn (it replaces its number)",
             "Flip Predators 5"),
        ),
        rulings=(
            "A share must be paid with points you have; with too few you pass.",
            "Both dice of a share are locked for the rest of the round, even for their new "
            "holder.",
            "There is no Share Knowledge after the last round.",
            "Tied leaders at the end share the victory.",
            "A line-up may be given again until Reveal (the camera may misread a die).",
            "When the Tribes run out, the played number 1 cards are shuffled into a new deck.",
            "With the timer on, a late line-up still counts unless the table chose otherwise.",
        ),
        numbers=_occulites_numbers),
    "dice-ocalypse": GameHelp(
        goal=("Score {target} points or more, and stay on top when everyone else has had a last "
              "turn. Roll six dice, keep the ones that score, and decide when to stop: bank "
              "the turn's points, or push on and risk losing them all."),
        turn_title="A turn",
        turn=(
            "At the start, everyone rolls one die: the highest plays first (ties roll again).",
            "Roll the dice you have (six at the start of a turn).",
            "Keep at least one scoring die. If nothing scores, it is a bust: the turn is worth "
            "nothing and play passes on.",
            "Roll the rest again, or bank the turn's points. Kept all six? Pick them all up "
            "and go on.",
            "Your first banked turn must be worth at least {opening}.",
            "{battle}",
            "When a score {passes} {target}, everyone else has one last turn; whoever stays "
            "below the first crosser's score is diced, and the highest score wins."),
        calls=(
            ("A roll: the dice as they landed (one die in a roll-off)",
             "Ana: Roll 1 5 5 3 2 6"),
            ("Keep scoring dice from the last roll", "Ana: Keep 1 5 5"),
            ("Stop and add the turn's points", "Ana: Bank"),
            ("Play an Act of War card on an opponent", "Ben: Play Prove It on Ana"),
            ("Play a card that names nobody", "Ana: Play Double or Nothing"),
            ("A card played at the same moment as the one just played",
             "Cy: Play Do or Die on Ana together"),
            ("Players with no card in a same-moment play say whose came first",
             "Dee: Pick Cy"),
            ("Your Immunity against the card played on you", "Ana: Immunity"),
            ("Roll the Zombie die before another player's turn", "Cy: Zombie 2"),
            ("Roll the Left Behind die before a turn", "Cy: Left Behind 4"),
        ),
        rulings=(
            "Every roll is followed by a keep before you roll on or bank.",
            "The {opening} minimum counts the turn's points before any doubling.",
            "Everyone plays each Act of War card once and needs {cards} points to play one.",
            "Only one Act of War card per turn: the first played counts, the others go back.",
            "Prove It on a turn that went bust goes back to its player.",
            "Immunity works until the card's first die is rolled, and only for you.",
            "A turn with a doubled score waiting takes no Act of War card.",
            "The Zombie die takes the number rolled away from the next player's dice for that "
            "turn; the Left Behind die skips that many players.",
            "Neither special die may be rolled while a Battle Zone card is held or a card is "
            "being resolved.",
            "In the last turns no cards or special dice are played; tied winners roll all six "
            "dice, the higher sum wins.",
            "The scoring key is the common public one: check the screen's suggestion against "
            "your own box.",
        ),
        numbers=_diceocalypse_numbers),
    "dice-forge": GameHelp(
        goal=("Gather the most glory. Every turn everyone rolls their two dice and takes what "
              "the faces show (gold, sun and moon shards, glory); the player whose turn it is "
              "then forges better faces onto their dice or performs a heroic feat for a card. "
              "After the last round, glory plus the cards' printed glory decides."),
        turn_title="A turn",
        turn=(
            "Divine blessing: every player rolls both dice and takes both faces, starting with "
            "the player whose turn it is (with two players this is done twice).",
            "Reinforcement cards you own may be used, once each.",
            "One action: forge faces from the Sanctuary (pay gold, each pool once a turn), or "
            "perform a feat (pay shards, take a card and its effect), or pass.",
            "After it you may pay 2 sun shards for a second action.",
            "After the last round, add each card's printed glory: the most glory wins."),
        calls=(
            ("A divine blessing: both faces, in the order you apply them",
             "Ana: Rolled 1 gold, 2 glory"),
            ("A minor blessing: one die", "Ana: Rolled 1 gold on die 2"),
            ("The Celestial die", "Ana: Rolled celestial 12 gold"),
            ("Answer what the game asks (a choice face, a fork, a treasure)",
             "Ana: Choose 2 glory"),
            ("Forge: the new face, its die and the face it covers",
             "Ana: Forge 3 gold on die 1 over 1 gold"),
            ("Perform a feat", "Ana: Perform The Chaos"),
            ("Use a reinforcement card before the action", "Ana: Use The Elder"),
            ("No action", "Ana: Pass"),
            ("Pay 2 sun shards for a second action", "Ana: Extra action"),
            ("End your turn when a second action could be bought", "Ana: End turn"),
            ("Where a Hammer owner's gold goes from now on", "Ana: Hammer all"),
            ("Two players: the Sanctuary faces the table took out",
             "Sanctuary removed: 6 gold, 2 gold + 1 moon, 4 glory, 3 glory"),
        ),
        rulings=(
            "Glory never goes below zero, and the cards' glory is added at the end.",
            "A divine blessing applies the faces in the order said, except that shields and "
            "Chaos faces come last and a triple face triples the other.",
            "A loyalty zone bonus uses the zone you were in before the face moved you.",
            "Hammer and Scepter gold go where you last said (all, or only what overflows your "
            "reserve).",
            "The Twins are offered after each of your rolls while you have 3 gold.",
            "An unused Triton token is worth nothing at the end.",
            "A tie at the end is a shared victory unless the table chose the tie-break.",
        )),
    "tribal-village": GameHelp(
        goal=("Build a village that meets your objective. Over three hands you play tricks "
              "with the Tribe cards; the tricks you win go into your village, and at the end "
              "of each hand your objective card scores them. The most points after the last "
              "hand wins."),
        turn_title="A trick",
        turn=(
            "Before the first trick everyone chooses an objective from the five face up.",
            "The lead plays a card: its Tribe sets the suit (the first trick is led by the "
            "lowest card of the unallied Tribe).",
            "Everyone follows in turn with a card of the suit or its ally if they can; Silicus "
            "and Lucky Gretins always count as on suit.",
            "Card abilities happen as cards are played (a Hunting Net, Raking Talons, Plotting "
            "Distrust...).",
            "The highest on-suit card wins the trick into its player's village; that player "
            "leads the next.",
            "When everyone's cards are played, the hand is scored and a new one is dealt."),
        calls=(
            ("Choose your objective", "Maya: Objective Secret Village"),
            ("Keep your objective after a Lucky Gretin", "Maya: Keep objective"),
            ("Lead the first trick with the lowest unallied card", "Maya: Lowest Luftles 2"),
            ("Play a card", "Maya: Palaudis 7"),
            ("Play a card, adding Wild Luftle tokens", "Maya: Palaudis 7 +1"),
            ("Play a Hydris, putting the Hunting Net in front of a player",
             "Maya: Hydris 5 net Leo"),
            ("Take back the card your net caught", "Leo: Retrieve net"),
            ("Leave your net where it is", "Leo: Leave net"),
            ("Nimbus: take a card from the trick and discard one",
             "Maya: Nimbus 3 take Floris 2 discard Ignis 5"),
            ("Boletus: swap two Tribes' places in the alliances",
             "Maya: Boletus 4 swap Ignis Hydris"),
            ("Create Chaos after winning with Floris", "Maya: Chaos Ignis 3 from Leo"),
            ("No chaos", "Maya: No chaos"),
            ("Give the cards of a chaos back", "Maya: Return Ignis 3 to Leo"),
            ("Tachydus: manipulate a card", "Maya: Manipulate Ignis 3 from Leo"),
            ("No manipulation", "Maya: No manipulation"),
            ("Discard the card you are asked for", "Leo: Discard Floris 2"),
        ),
        rulings=(
            "The lead card is on suit, so abilities that work off suit do not trigger on it.",
            "Abilities are optional: a play that does not name one does not use it.",
            "A tie goes to the Tribe that set the suit, then to an unmodified card, then to the "
            "card played first.",
            "An off-suit Tundris that is strictly the highest card becomes the lead.",
            "All Wild Luftle tokens on one card go the same way, and they return at the end "
            "of a hand.",
            "A Hunting Net can only be retrieved from a player holding at least two cards.",
            "Declining is taken as said when the next call comes (No chaos, Leave net, Keep "
            "objective).",
            "Objectives chosen at the end of a hand are replaced; everyone chooses again.",
            "With two players the winner of a trick draws first, two cards each while the "
            "deck lasts.",
            "A tie at the end is shared.",
        )),
}


def help_text(game: str, title: str, options: Any = None) -> str:
    """A game's rules help as the app shows it: headings in bold (Kivy markup), steps
    numbered, calls as "what: example"; the figures it quotes are those of ``options`` (the
    game's options, the rules' defaults when None). An unknown game gets a sentence saying
    so."""
    found = HELP.get(game)
    if found is None:
        return f"{_esc(title)}: there is no rules help for this game yet."
    numbers: Mapping[str, str] = {}
    if found.numbers is not None:
        numbers = found.numbers(options if options is not None
                                else rules.game_class(game).Options())

    def said(text: str) -> str:
        return _esc(text.format_map(numbers) if numbers else text)

    lines = ["[b]What you are trying to do[/b]", said(found.goal), "",
             f"[b]{_esc(found.turn_title)}, in order[/b]"]
    lines += [f"{i}. {said(step)}" for i, step in enumerate(found.turn, start=1)]
    lines += ["", "[b]Calls (say them, or tap them)[/b]"]
    lines += [f"{_esc(what)}: [i]{_esc(example)}[/i]" for what, example in found.calls]
    lines += ["", "[b]How this table rules[/b]"]
    lines += [f"- {said(r)}" for r in found.rulings]
    return "\n".join(lines)


def _esc(text: str) -> str:
    return text.replace("&", "&amp;").replace("[", "&bl;").replace("]", "&br;")


__all__ = ["HELP", "GameHelp", "help_text"]
