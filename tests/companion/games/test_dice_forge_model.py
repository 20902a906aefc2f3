"""Dice Forge's table without Kivy (issue 34): the model says what the right-hand side offers
(each choice's words, whether it can be tapped, is selected or completes a call), what each
hero's panel shows, the prompt and the note; its taps play the game. Moved here from the
whole-app files: "Which die first?" asked only when the order matters, the camera's roll read
when the profile knows the faces, refusals and the accent, the forge and feat flows."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_dice_forge_adapter import Die, Reading

import rules
from companion.games.dice_forge.model import DiceForgeModel
from companion.games.dice_forge.view import Choice, Pane
from companion.journal import Journal
from companion.session import TableSession
from rules.core import to_plain
from rules.dice_forge import DiceForge, EndTurn, Perform
from vision import Reading as VisionReading

Reported = list[tuple[VisionReading, dict[int, str]]]


@pytest.fixture
def journal(tmp_path: Path) -> Iterator[Journal]:
    with Journal(tmp_path / "j.sqlite3") as j:
        yield j


def table(journal: Journal, reported: Reported | None = None, **options: Any) -> DiceForgeModel:
    """Ana and Ben at a new table, the model synced as the screen would after each change."""
    setup = rules.Setup("dice-forge", ("Ana", "Ben"), options, 1)
    session = TableSession.new(journal, setup, "test").typed(DiceForge)
    got: Reported = reported if reported is not None else []
    model = DiceForgeModel(session, lambda reading, fixed: got.append((reading, fixed)))
    session.subscribe(model.on_session)  # as its host hands the session's changes
    model.sync()
    return model


def choices(pane: Pane) -> dict[str, Choice]:
    out = {c.key: c for c in pane.grid if c is not None}
    for column in pane.columns or ():
        out |= {c.key: c for c in column}
    return out | {c.key: c for c in pane.bar}


def tap(model: DiceForgeModel, key: str) -> None:
    """A touch on the choice ``key`` (it must be on show and tappable), then a redraw."""
    choice = choices(model.pane())[key]
    assert choice.enabled, key
    choice.act()
    model.sync()


def roll(model: DiceForgeModel, faces: tuple[str, str]) -> None:
    """Tap a divine blessing's two faces (die 1 first when asked which first)."""
    tap(model, f"die1:{faces[0]}")
    tap(model, f"die2:{faces[1]}")
    if "first:1" in choices(model.pane()):
        tap(model, "first:1")


def test_a_turn_by_taps_offers_only_what_the_engine_allows(journal: Journal) -> None:
    model = table(journal)
    game = model.game
    pane = model.pane()
    assert pane.prompt == "Ana rolls both dice" and pane.columns is not None
    assert pane.hint == "Tap the face that came up on each die."
    assert model.note(pane.hint) == ("hint", pane.hint)
    ana = game.state.player("Ana")
    assert [c.face for c in pane.columns[0]] == list(dict.fromkeys(ana.dice[0]))
    tap(model, f"die1:{ana.dice[0][0]}")  # the first face stays selected for the second
    pane = model.pane()
    assert choices(pane)[f"die1:{ana.dice[0][0]}"].selected
    assert pane.hint == f"Die 1: {ana.dice[0][0]}. Now the other die."
    assert not game.history
    tap(model, f"die2:{ana.dice[1][0]}")
    while game.state.steps:  # the others' blessings and any choice they bring
        if game.state.steps[0].kind == "roll2":
            st = game.state.player(game.state.steps[0].player)
            roll(model, (st.dice[0][0], st.dice[1][0]))
        else:
            tap(model, next(k for k in choices(model.pane()) if k.startswith("choose:")))
    hero = model.hero("Ana")
    assert hero.active and hero.glory == game.state.player("Ana").glory
    assert dict((k, (h, c)) for k, h, c in hero.reserves) == {
        k: (getattr(game.state.player("Ana"), k), game.state.player("Ana").cap(k))
        for k in ("gold", "sun", "moon")}
    pane = model.pane()
    assert pane.prompt == "Ana: forge, perform a feat or pass"
    offered = choices(pane)
    assert {"forge", "feat", "Pass"} <= set(offered)
    # The forge: the accent only on a choice that completes a call, and only when it can.
    tap(model, "forge")
    assert model.mode == "forge"
    forge = choices(model.pane())
    assert forge["forge-now"].primary and not forge["forge-now"].enabled
    buy = next(k for k, c in forge.items() if k.startswith("buy:") and c.enabled)
    tap(model, buy)
    over = next(k for k, c in choices(model.pane()).items()
                if k.startswith("over:") and c.enabled)
    tap(model, over)
    pane = model.pane()
    assert pane.hint.startswith("To forge: ") and choices(pane)["forge-now"].enabled
    before = len(game.history)
    tap(model, "forge-now")
    assert len(game.history) == before + 1 and game.history[-1].call.startswith("Ana: Forge")
    assert model.mode == "" and model.basket == []


def test_a_refusal_shows_its_reason_until_the_next_call(journal: Journal) -> None:
    model = table(journal)
    assert model.session.try_call("Ana: Pass") is None  # the dice are rolled first
    tone, said = model.note(model.pane().hint)
    assert tone == "refused" and said.startswith("Ana: Pass: ") and model.session.message == ""
    ana = model.game.state.player("Ana")
    roll(model, (ana.dice[0][0], ana.dice[1][0]))  # the next call read it
    assert model.note("hint") == ("hint", "hint")
    model.say("Undid: Ana: Rolled ...")
    assert model.note("hint") == ("notice", "Undid: Ana: Rolled ...")
    model.tapped()
    assert model.note("hint") == ("hint", "hint")


def test_which_die_first_is_asked_only_when_the_order_matters(journal: Journal) -> None:
    """Titans module (Rebellion rulebook: Max's loyalty face moved him into zone 3 and the
    next face got the bonus): 1 gold (die 1) and 1 loyalty + 1 glory (die 2) one space before
    the first Loyalty zone end differently in either order: "Which die first?" (die 1's
    answer left, die 2's right, Cancel below); die 2 first ends as die 2's face applied first.
    Where the order does not matter no question is asked."""
    model = table(journal, module="titans")
    game = model.game
    gold, loyalty = "1 gold", "1 loyalty + 1 glory"
    die1_first, die2_first = f"Ana: Rolled {gold}, {loyalty}", f"Ana: Rolled {loyalty}, {gold}"

    def ended(call: str) -> Any:
        trial = copy.deepcopy(game)
        trial.apply(call)
        return to_plain(trial.state)

    while True:
        st = game.state.steps[0] if game.state.steps else None
        if st is None:
            tap(model, "Pass")
            continue
        assert st.kind == "roll2", game.waiting_for()
        if st.player == "Ana" and game.state.player("Ana").titan >= 19:
            break
        if st.player == "Ben":
            roll(model, (gold, gold))
            continue
        before = len(game.history)
        assert not game.order_matters(die1_first)
        tap(model, f"die1:{gold}")
        tap(model, f"die2:{loyalty}")
        assert model.pane().prompt != "Which die first?"
        assert [e.call for e in game.history[before:]] == [die1_first]
    assert game.order_matters(die1_first)
    want, other = ended(die2_first), ended(die1_first)
    assert want != other
    before = len(game.history)
    tap(model, f"die1:{gold}")
    tap(model, f"die2:{loyalty}")
    pane = model.pane()
    assert len(game.history) == before and pane.prompt == "Which die first?"
    first = [c for c in pane.grid if c is not None]
    assert [(c.key, c.face, c.caption) for c in first] == [
        ("first:1", gold, "Die 1\nfirst"), ("first:2", loyalty, "Die 2\nfirst")]
    assert pane.cols == 2 and [c.key for c in pane.bar] == ["order-cancel"]
    tap(model, "order-cancel")  # back to the faces, nothing called
    assert len(game.history) == before and model.pane().prompt == "Ana rolls both dice"
    tap(model, f"die1:{gold}")
    tap(model, f"die2:{loyalty}")
    tap(model, "first:2")
    assert [e.call for e in game.history[before:]] == [die2_first]
    assert to_plain(game.state) == want
    model.session.undo()  # the question goes with the call taken back
    assert model.ordering is None and model.pane().prompt == "Ana rolls both dice"


def test_the_camera_reads_a_roll_and_the_players_confirm_what_it_doubts(
        journal: Journal) -> None:
    """A settled roll the camera is sure of becomes the call at once (the Goddess module's
    first roll ends the same in either order: no question); one it doubts preselects what it
    is sure of, and the faces the players tap are reported for the dice statistics."""
    reported: Reported = []
    model = table(journal, reported, module="goddess")
    game = model.game
    assert model.knows_faces(["1_gold", "no such face"]) and not model.knows_faces(["x"])
    assert "camera" not in choices(model.pane())
    assert "camera" in choices(model.pane(camera=lambda: None))  # offered when it can read
    model.read(None)
    assert model.message == "The camera has no settled roll yet."
    ana = game.state.player(game.state.steps[0].player)
    faces = (ana.dice[0][0], ana.dice[1][0])
    model.read(Reading((Die((100.0, 100.0), faces[0]), Die((300.0, 100.0), faces[1]))))
    assert [e.call for e in game.history] == [f"{ana.name}: Rolled {faces[0]}, {faces[1]}"]
    assert reported == []  # read as it was: nothing to correct
    while game.state.steps[0].kind != "roll2":  # the golem's fork: the first way
        tap(model, next(k for k in choices(model.pane()) if k.startswith("choose:")))
    ben = game.state.player(game.state.steps[0].player)
    assert ben.name != ana.name
    doubted = Reading((Die((100.0, 100.0), ben.dice[0][0]),
                       Die((300.0, 100.0), ben.dice[1][0], 0.2)))
    model.read(doubted)
    n = len(game.history)
    assert model.message == "Camera: please confirm the faces."
    assert model.picked == {0: ben.dice[0][0]}  # the sure face is preselected
    other = next(f for f in ben.dice[1] if f != ben.dice[1][0])
    tap(model, f"die2:{other}")  # the players correct die 2
    assert len(game.history) == n + 1
    assert game.history[-1].call == f"{ben.name}: Rolled {ben.dice[0][0]}, {other}"
    assert reported == [(doubted, {1: other})]


@pytest.mark.parametrize(("seed", "options"), [
    (1, {}),
    pytest.param(2, {"module": "titans"}, marks=pytest.mark.long),  # (8 s of CPU each)
    pytest.param(3, {"module": "goddess"}, marks=pytest.mark.long),
])
def test_whole_games_by_taps_send_every_call_kind_the_model_makes(
        journal: Journal, seed: int, options: dict[str, Any]) -> None:
    """Games played to their end by taps on what the model offers (a seeded choice among
    the enabled buttons): every tap the model enables is taken or refused in words, never
    raises; the journal replays to the same game; and the calls made cover the kinds the
    model sends (a divine blessing's two faces, a forge, a feat, a pass or the other
    actions, and each kind of choice met)."""
    import random

    rng = random.Random(seed)
    model = table(journal, **options)
    game = model.game
    kinds: set[str] = set()
    outside = {"camera", "cancel", "forge-cancel", "order-cancel", "words"}
    for _ in range(4000):
        if game.state.phase == "over":
            break
        before = len(game.history)
        offered = [c for c in choices(model.pane()).values()
                   if c.enabled and c.key not in outside and not c.key.startswith("page")]
        assert offered, f"nothing to tap: {model.pane().prompt}"
        # a forge or a feat sometimes, so both kinds are played; else any button
        wanted = [c for c in offered if c.key in ("forge-now", "feat")
                  or c.key.startswith(("buy:", "over:", "feat:"))]
        choice = rng.choice(wanted if wanted and rng.random() < 0.7 else offered)
        choice.act()
        model.sync()
        for entry in game.history[before:]:
            kinds.add(type(game.parse(entry.call)).__name__)
    assert game.state.phase == "over", "the game did not end within 4000 taps"
    assert {"Rolled", "Forge", "Perform"} <= kinds, kinds
    again = rules.replay(game.setup, game.history)
    assert to_plain(again.state) == to_plain(game.state)
    assert journal.load(model.session.game_id).entries == tuple(game.history)


# -- every call kind the model sends, each by the taps a player makes (issue 43, item 7) -----

GOLD = ("1 gold", "1 gold")


def blessings(model: DiceForgeModel, ana: tuple[str, str], ben: tuple[str, str] = GOLD
              ) -> None:
    """Every divine blessing the table waits for, rolled by taps: Ana's faces, Ben's."""
    game = model.game
    while game.state.steps and game.state.steps[0].kind == "roll2":
        roll(model, ana if game.state.steps[0].player == "Ana" else ben)


def last_call(model: DiceForgeModel) -> str:
    return model.game.history[-1].call


def test_a_feat_a_reinforcement_its_choice_an_extra_action_and_the_turns_end(
        journal: Journal) -> None:
    """Base game, seeded: Ana performs The Elder by taps (Perform), then on her next turn
    uses it (Use) and pays 3 gold for 4 glory (Choose); The Silver Hind's feat leaves her
    sun for another action (ExtraAction), The Blacksmith's Hammer's then ends her turn
    (EndTurn). Each tap is journaled as the engine's call, and the hero's panel follows."""
    model = table(journal)
    game = model.game
    blessings(model, ("1 sun", "1 moon"))
    tap(model, "feat")
    pane = model.pane()
    assert pane.prompt == "Ana performs a feat"
    feats = choices(pane)
    assert feats["feat:The Elder"].enabled and feats["feat:The Elder"].text == (
        "Elder\n1 sun · 2 left")
    assert not feats["feat:The Hydra"].enabled  # 5 sun 5 moon: out of reach
    tap(model, "feat:The Elder")
    assert last_call(model) == "Ana: Perform The Elder"
    view = model.view()
    assert model.mode == "" and view.heroes["Ana"].token == "1 feat"
    assert dict((k, h) for k, h, _cap in view.heroes["Ana"].reserves)["sun"] == 1
    assert "feat:The Elder" not in choices(view.pane)  # the feat pane closed with the call
    blessings(model, ("1 sun", "1 moon"))
    tap(model, "Pass")
    assert last_call(model) == "Ben: Pass"
    blessings(model, ("1 sun", "1 moon"))
    ana = game.state.player("Ana")
    assert (ana.gold, ana.sun, ana.moon, ana.glory) == (3, 5, 6, 0)
    assert model.view().pane.prompt == "Ana: forge, perform a feat or pass"
    tap(model, "Use The Elder")
    assert last_call(model) == "Ana: Use The Elder"
    pane = model.view().pane
    assert pane.prompt == "Ana chooses" and pane.hint == "Pay 3 gold for 4 glory, or not?"
    assert set(choices(pane)) == {"choose:pay 3 gold for 4 glory", "choose:nothing"}
    assert choices(pane)["choose:nothing"].text == "Nothing"
    tap(model, "choose:pay 3 gold for 4 glory")
    assert last_call(model) == "Ana: Choose pay 3 gold for 4 glory"
    view = model.view()
    assert view.heroes["Ana"].glory == 4
    assert dict((k, h) for k, h, _cap in view.heroes["Ana"].reserves)["gold"] == 0
    assert "Use The Elder" not in choices(view.pane)  # once a turn
    tap(model, "feat")
    tap(model, "feat:The Silver Hind")
    assert last_call(model) == "Ana: Perform The Silver Hind"
    pane = model.view().pane
    assert pane.prompt == "Ana: another action for 2 sun?"
    assert pane.hint == "An extra action, or end the turn."
    assert {"End turn", "Extra action"} <= set(choices(pane))
    assert "forge" not in choices(pane)
    tap(model, "Extra action")
    assert last_call(model) == "Ana: Extra action"
    view = model.view()
    assert view.pane.prompt == "Ana: forge, perform a feat or pass"
    assert dict((k, h) for k, h, _cap in view.heroes["Ana"].reserves)["sun"] == 3
    tap(model, "feat")
    tap(model, "feat:The Blacksmith's Hammer")
    assert last_call(model) == "Ana: Perform The Blacksmith's Hammer"
    assert model.view().pane.prompt == "Ben rolls both dice"  # one extra action a turn
    blessings(model, ("1 sun", "1 moon"))
    tap(model, "Pass")
    blessings(model, ("1 sun", "1 moon"))
    tap(model, "feat")
    tap(model, "feat:The Chest")
    assert model.view().pane.prompt == "Ana: another action for 2 sun?"
    tap(model, "End turn")
    assert last_call(model) == "Ana: End turn"
    view = model.view()
    assert view.pane.prompt == "Ben rolls both dice" and view.heroes["Ana"].token == "4 feats"
    assert not view.heroes["Ana"].active and view.heroes["Ben"].active


def test_a_minor_blessing_and_the_hammers_gold_switch(journal: Journal) -> None:
    """The Silver Hind, used, gives a minor blessing: one die's faces, the die chosen by the
    face tapped (Rolled on one die). The Hammer's owner switches where her gold goes by a tap
    on the action pane, on her turn and on the other player's (GoldTo)."""
    model = table(journal)
    game = model.game
    blessings(model, ("1 sun", "1 moon"))
    assert model.session.try_call(Perform("Ana", "The Silver Hind")) is not None
    assert model.session.try_call(EndTurn("Ana")) is not None
    blessings(model, ("1 sun", "1 moon"))
    tap(model, "Pass")
    blessings(model, ("1 sun", "1 moon"))
    tap(model, "Use The Silver Hind")
    assert last_call(model) == "Ana: Use The Silver Hind"
    pane = model.view().pane
    assert pane.prompt == "Ana rolls a die" and pane.hint == "Tap the face that came up."
    assert pane.columns is not None
    assert all(c.enabled for column in pane.columns for c in column)  # either die
    gold = game.state.player("Ana").gold
    tap(model, "die2:2 glory")
    assert last_call(model) == "Ana: Rolled 2 glory on die 2"
    view = model.view()
    assert view.heroes["Ana"].glory == 2
    assert dict((k, h) for k, h, _cap in view.heroes["Ana"].reserves)["gold"] == gold
    assert view.pane.prompt == "Ana: forge, perform a feat or pass"
    tap(model, "feat")
    tap(model, "feat:The Blacksmith's Hammer")
    pane = model.view().pane
    assert pane.prompt == "Ana: another action for 2 sun?"
    assert "Hammer all" in choices(pane)  # her own switch, in her words
    tap(model, "End turn")
    blessings(model, ("1 sun", "1 moon"))
    pane = model.view().pane
    assert pane.prompt == "Ben: forge, perform a feat or pass"
    assert "Ana: Hammer all" in choices(pane)  # another's switch, with her name
    tap(model, "Ana: Hammer all")
    assert last_call(model) == "Ana: Hammer all"
    assert game.state.player("Ana").hammer_mode == "all"
    assert "Ana: Hammer overflow" in choices(model.view().pane)  # and back
    assert model.view().pane.prompt == "Ben: forge, perform a feat or pass"  # still Ben's


def test_the_celestial_die_by_taps(journal: Journal) -> None:
    """Goddess module: the golem reaches a Celestial space; the Celestial die's six faces are
    offered and the face tapped is the call (Rolled celestial)."""
    model = table(journal, module="goddess")
    game = model.game
    for _ in range(40):
        st = game.state.steps[0] if game.state.steps else None
        if st is not None and st.kind == "celestial":
            break
        if st is None:
            tap(model, "Pass")
        elif st.kind == "roll2":
            roll(model, ("1 sun", "moon golem") if st.player == "Ana" else GOLD)
        else:  # the golem's way and the spaces' rewards: the last option, always
            tap(model, [k for k in choices(model.pane()) if k.startswith("choose:")][-1])
    else:
        raise AssertionError(f"no Celestial space reached: {game.waiting_for()}")
    pane = model.view().pane
    assert pane.prompt == "Ana rolls the Celestial die"
    assert [c.key for c in pane.grid if c is not None] == [
        "celestial:12 gold", "celestial:5 glory", "celestial:3 glory + choice",
        "celestial:mirror", "celestial:choose face", "celestial:double upgrade"]
    glory = game.state.player("Ana").glory
    tap(model, "celestial:5 glory")
    assert last_call(model) == "Ana: Rolled celestial 5 glory"
    assert model.view().heroes["Ana"].glory == glory + 5


def test_a_stale_feat_tap_is_refused_and_leaves_the_game_as_it_was(journal: Journal) -> None:
    """A feat button drawn before the roll that paid for it was undone: the engine refuses
    the call, the game is exactly as it was, nothing is journaled, and the note says why. A
    camera reading of a face no die of the player has calls nothing and says so."""
    model = table(journal)
    game = model.game
    blessings(model, ("1 sun", "1 moon"))
    tap(model, "feat")
    elder = choices(model.pane())["feat:The Elder"]
    model.session.undo()  # Ben's roll taken back: the blessings are not over
    model.sync()
    before, calls = game.snapshot(), len(game.history)
    elder.act()
    model.sync()
    assert game.snapshot() == before and len(game.history) == calls
    assert journal.load(model.session.game_id).entries == tuple(game.history)
    tone, said = model.view().note
    assert tone == "refused" and said.startswith("Ana: Perform The Elder: "), said
    assert model.view().pane.prompt == "Ben rolls both dice"
    model.read(Reading((Die((100.0, 100.0), "3 gold"), Die((300.0, 100.0), "1 gold"))))
    assert game.snapshot() == before and len(game.history) == calls
    assert model.view().note == ("refused", "Camera: a face no die of this player has.")
