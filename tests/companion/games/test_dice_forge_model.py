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
from rules.dice_forge import DiceForge
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
