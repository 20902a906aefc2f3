"""Dice of the Occulites at the table without Kivy (companion.games.occulites.model): what the
screen shows (the title, the cards, each player's row and dice, the panel's words and controls)
and what each tap, camera reading and timer cue does, on a real session and journal."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path

import pytest
from dice_readings import die, reading
from no_kivy import imports_kivy

import rules
from companion.games.emphasis import Text
from companion.games.occulites.model import OcculitesModel
from companion.journal import Journal
from companion.session import TableSession
from rules.occulites import OcculitesGame
from vision.types import Reading


@pytest.fixture
def journal(tmp_path: Path) -> Iterator[Journal]:
    with Journal(tmp_path / "j.sqlite3") as j:
        yield j


def marked(text: Text) -> str:
    """A view's text with its stressed words between [b] and [/b], as the screen draws them."""
    return "".join(f"[b]{s.text}[/b]" if s.strong else s.text for s in text.spans)


class Clock:
    """The round clock's time, moved by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def table(journal: Journal, fixed: list[dict[int, str]] | None = None,
          clock: Clock | None = None, **options: object) -> OcculitesModel:
    setup = rules.Setup("occulites", ("Ana", "Ben"), {"rounds": 2, **options}, 1)
    session = TableSession.new(journal, setup, "test",
                               clock=clock or Clock()).typed(OcculitesGame)

    def correct(_r: Reading, changes: Mapping[int, str]) -> None:
        if fixed is not None:
            fixed.append(dict(changes))

    model = OcculitesModel(session, correct_roll=correct)
    session.subscribe(model.on_session)  # as its host hands the session's changes
    return model


def tray(rows: list[list[tuple[str, int | None, float]]]) -> Reading:
    """Line-ups laid in rows (seat 1 at the top), dice left to right; None pips unread."""
    return reading(*(die(60.0 + 90 * i + 7 * r, 80.0 + 150 * r + 5 * i, pips, conf,
                         colour=colour)
                     for r, row in enumerate(rows) for i, (colour, pips, conf) in enumerate(row)))


def tribes(t: OcculitesModel) -> None:
    v = t.view()
    assert v.panel == "tribes" and v.title == "Setup: choose your Tribes"
    assert "[b]Ana[/b]: which Tribe" in marked(v.message)
    assert v.rows[0].lit and "choosing" in marked(v.rows[0].header)
    t.choose_tribe("Palaudis")
    assert not t.view().controls["tribe:Palaudis"].enabled  # taken
    t.tap_player("Ben")
    assert t.view().rows[1].lit
    t.choose_tribe("Hydris")
    assert t.game.phase == "allocate"


ANA = [5, 2, 6, 1, 3, 4]
BEN = [4, 3, 6, 1, 2, 3]


def test_tribes_then_a_line_up_by_taps(journal: Journal) -> None:
    t = table(journal)
    tribes(t)
    v = t.view()
    assert v.panel == "allocate" and v.title.startswith("Round 1 of 2: ")
    cards = t.game.current_cards()
    # the number and the colour, each on its line; the round's Tribe is the title's
    assert [marked(c.text).split("\n") for c in v.cards] == \
        [[f"[b]{c.number}[/b]", c.colour] for c in cards]
    assert v.title.endswith(f"{t.game.state.tribe}, line up")
    assert "Waiting for 2 line-ups" in marked(v.message)
    assert not v.controls["reveal"].enabled and not v.controls["pips:1"].enabled
    t.tap_player("Ana")  # Ana holds one colour: it is filled in
    v = t.view()
    assert t.sel == ("Ana", 0) and v.rows[0].slots[0].frame == "selected"
    assert marked(v.rows[0].slots[0].text) == "[b]?[/b]\ngreen"
    assert "[b]Ana, card 1[/b]: tap the colour, then the pips." in marked(v.message)
    for n in ANA:
        t.tap_pips(n)
    assert tuple(d.pips for d in t.game.state.lineups["Ana"]) == tuple(ANA)
    assert "lined up" in marked(t.view().rows[0].header)


def test_a_camera_reading_sure_and_unsure_then_reveal_and_share(journal: Journal) -> None:
    fixed: list[dict[int, str]] = []
    t = table(journal, fixed)
    tribes(t)
    rows = [[("green", n, 0.95) for n in ANA], [("blue", n, 0.95) for n in BEN]]
    rows[1][1] = ("blue", None, 0.3)
    rows[1][4] = ("blue", 2, 0.4)
    reads = t.apply_reading(tray(rows))
    assert reads["Ben"].uncertain == (2, 5) and "Ana" in t.game.state.lineups
    v = t.view()
    assert t.sel == ("Ben", 1) and t.flagged["Ben"] == {1, 4}
    assert v.rows[1].slots[4].frame == "check"
    assert marked(v.rows[1].slots[1].text).startswith("[b]?")
    assert "[b]Ben, card 2[/b]: the camera is not sure" in marked(v.message)
    t.tap_pips(3)  # card 2 shows 3
    assert t.sel == ("Ben", 4)
    t.confirm()  # card 5 was read right
    assert tuple(d.pips for d in t.game.state.lineups["Ben"]) == tuple(BEN)
    assert len(fixed) == 1 and sorted(fixed[0].values()) == ["2", "3"]
    v = t.view()
    assert v.controls["reveal"].enabled and v.controls["reveal"].main
    t.reveal()
    explained = t.game.explain_round()
    for k in range(6):
        v = t.view()
        assert v.panel == "resolving" and t.resolving is not None and t.resolving.step == k + 1
        assert explained[k] in marked(v.message) and v.cards[k].lit
        assert v.controls["back"].enabled == (k > 0)
        t.step(1)
    assert t.resolving is None
    if t.game.phase == "share":
        v = t.view()
        who = t.game.whose_turn()
        assert v.panel == "share" and f"{who}[/b] won card" in marked(v.message)
        assert v.controls["share-back"].enabled is False
        give = next(k for k, b in v.controls.items() if k.startswith("share:") and b.enabled)
        t.tap_share_colour(give.split(":", 1)[1])
        v = t.view()
        assert not v.share_colours and "2. Your" in marked(v.message)  # where from?
        t.share_back_step()
        assert t.view().share_colours and t.share_give is None
        before = len(t.game.history)
        t.pass_share()
        assert len(t.game.history) == before + 1


def test_a_refused_line_up_says_why_and_keeps_the_dice(journal: Journal) -> None:
    t = table(journal)
    tribes(t)
    rows = [[("blue", n, 0.95) for n in ANA], [("blue", n, 0.95) for n in BEN]]
    t.apply_reading(tray(rows))  # Ana holds green dice only: refused
    assert "Ana" not in t.game.state.lineups
    v = t.view()
    assert t.flagged["Ana"] == set(range(6)) and "Ana" in marked(v.message)
    assert "blue" in marked(v.message).split("\n")[0]


def test_miscounted_zones_are_said_in_one_short_line(journal: Journal) -> None:
    """Issue 31: the prompt was cut at the huge text size; the miscount of every zone is one
    short line, and a die missing from a line-up is asked as one to enter."""
    t = table(journal)
    tribes(t)
    rows = [[("green", n, 0.95) for n in ANA[:5]], [("blue", n, 0.95) for n in BEN[:4]]]
    t.apply_reading(tray(rows))
    message = marked(t.view().message)
    assert message.split("\n")[0] == "2 line-ups are not 6 dice: see check ?"
    assert t.sel == ("Ana", 5)
    assert "[b]Ana, card 6[/b]: tap the colour, then the pips." in message
    t.clear_selection()
    t.apply_reading(tray([[("green", n, 0.95) for n in ANA[:5]],
                          [("blue", n, 0.95) for n in BEN]]))
    assert marked(t.view().message).split("\n")[0] == "Ana: 5 dice seen, a line-up has 6."


def test_the_timer_cues_and_their_sounds(journal: Journal) -> None:
    clock = Clock()
    t = table(journal, clock=clock)
    tribes(t)
    assert t.view().controls["roll"].text == "Timer"
    t.roll()
    assert t.timer_on and t.view().timer.startswith("Look")
    clock.now += 16.0
    t.tick()
    assert t.view().timer.startswith("Line up")
    clock.now += 40.0
    sounds = t.tick()
    assert t.view().timer == "Reveal!" and "reveal" in sounds


def test_the_model_never_imports_kivy() -> None:
    assert not imports_kivy("companion.games.occulites.model")


def test_the_lots_of_interests_draft_by_taps(journal: Journal) -> None:
    """The draft's calls come from the model's own taps: each take:<colour> the view enables
    drafts that die for the player on turn, until the draft is over; a colour the pool has
    none of left is not enabled."""
    t = table(journal, lots_of_interests=True)
    if t.game.phase == "tribes":
        tribes(t)
    assert t.game.phase == "draft" and t.view().panel == "draft"
    taken = 0
    while t.game.phase == "draft":
        v = t.view()
        who = t.game.whose_turn()
        enabled = [k.split(":", 1)[1] for k, b in v.controls.items()
                   if k.startswith("take:") and b.enabled]
        empty = [c for c, n in t.game.state.pool.items() if n == 0]
        assert enabled and not set(enabled) & set(empty)
        held = sum(t.game.state.dice[who].values())
        t.take_die(enabled[0])
        assert t.game.history[-1].call == f"{who}: Take {enabled[0]}"
        assert sum(t.game.state.dice[who].values()) == held + 1
        taken += 1
    assert taken > 0 and t.game.phase == "allocate"


def test_share_knowledge_by_taps_makes_the_engines_swap(journal: Journal) -> None:
    """Share Knowledge by three taps (the die given, where from, the die taken) is the
    engine's own Share call, and the dice change hands as it says."""
    t = to_share(journal, lambda t: bool(t.game.share_choices()))
    swap = t.game.share_choices()[0]
    before = dict(t.game.state.dice[swap.player])
    t.tap_share_colour(swap.give)
    t.choose_source(swap.source)
    t.tap_share_colour(swap.take)
    assert t.game.history[-1].call == swap.text()
    after = t.game.state.dice[swap.player]
    assert after[swap.give] == before[swap.give] - 1 + (swap.give == swap.take)
    assert after[swap.take] == before[swap.take] + 1 - (swap.give == swap.take)


# -- every call kind the model sends, by its own taps: what is journaled, what the view shows,
# -- and a wrong tap refused with the game exactly as it was (issue 43, item 7) --------------


def refused_as_it_was(t: OcculitesModel, tap: Callable[[], object], why: str) -> str:
    """Make a wrong tap: nothing is journaled, the game is exactly as it was, and the view's
    message (its first line) says why, with ``why`` in it; returns that line."""
    before, done = t.game.snapshot(), len(t.game.history)
    tap()
    assert t.game.snapshot() == before and len(t.game.history) == done
    line = marked(t.view().message).split("\n")[0]
    assert why in line, line
    return line


def to_share(journal: Journal, wanted: Callable[[OcculitesModel], bool]) -> OcculitesModel:
    """A seeded game played by random calls to a Share Knowledge turn ``wanted`` accepts
    (the reveals by the model's own tap, its resolution stepped past)."""
    rng = random.Random(7)
    for _ in range(40):
        t = table(journal)
        while t.game.phase != "share" and not t.game.is_over:
            if t.game.phase == "allocate" and all(p in t.game.state.lineups
                                                  for p in t.game.setup.players):
                t.reveal()
                t.resolving = None
                continue
            t.session.try_call(t.game.random_call(rng))
        if t.game.phase == "share" and wanted(t):
            return t
    raise AssertionError("no such Share Knowledge turn reached")


def test_choose_tribe_is_journaled_and_a_taken_tribe_is_refused_by_name(journal: Journal
                                                                        ) -> None:
    t = table(journal)
    t.choose_tribe("Palaudis")
    assert t.game.history[-1].call == "Ana: Tribe Palaudis"
    v = t.view()
    assert "Palaudis" in marked(v.rows[0].header) and "choosing" in marked(v.rows[1].header)
    assert not v.controls["tribe:Palaudis"].enabled
    line = refused_as_it_was(t, lambda: t.choose_tribe("Palaudis"), "Palaudis")
    assert t.game.state.tribe_of["Ben"] is None and "Ana" in line
    assert t.view().panel == "tribes" and t.chooser_now() == "Ben"


def test_a_die_the_pool_lacks_and_a_take_after_the_draft_are_refused(journal: Journal
                                                                      ) -> None:
    t = table(journal, lots_of_interests=True)
    if t.game.phase == "tribes":
        tribes(t)
    empty = next((c for c, n in t.game.state.pool.items() if n == 0), None)
    while empty is None and t.game.phase == "draft":  # draft until a colour runs out
        v = t.view()
        t.take_die(next(k.split(":", 1)[1] for k, b in v.controls.items()
                        if k.startswith("take:") and b.enabled))
        empty = next((c for c, n in t.game.state.pool.items() if n == 0), None)
    if t.game.phase == "draft":
        assert empty is not None and not t.view().controls[f"take:{empty}"].enabled
        refused_as_it_was(t, lambda: t.take_die(empty), empty)
    while t.game.phase == "draft":
        v = t.view()
        t.take_die(next(k.split(":", 1)[1] for k, b in v.controls.items()
                        if k.startswith("take:") and b.enabled))
    assert t.game.phase == "allocate"
    refused_as_it_was(t, lambda: t.take_die("green"), "the draft is over")


def test_a_line_up_by_taps_is_journaled_and_a_wrong_colour_refused_keeping_the_dice(
        journal: Journal) -> None:
    t = table(journal)
    tribes(t)
    held = next(c for c, n in t.game.state.dice["Ben"].items() if n)
    other = next(c for c, n in t.game.state.dice["Ben"].items() if not n)
    t.tap_slot("Ben", 0)
    t.tap_colour(other)  # a colour Ben holds none of, then six pips
    t.tap_pips(BEN[0])
    for n in BEN[1:]:
        t.tap_pips(n)
    assert "Ben" not in t.game.state.lineups and len(t.game.history) == 2
    v = t.view()
    assert other in marked(v.message).split("\n")[0]  # the engine's reason, the colour named
    assert t.sel == ("Ben", 0) and marked(v.rows[1].slots[0].text) == f"[b]{BEN[0]}[/b]\n{other}"
    before = t.game.snapshot()
    t.tap_colour(held)  # corrected: the pips stay, the line-up is confirmed again
    assert t.game.snapshot() == before  # only the draft changed
    t.confirm()
    for _ in BEN[1:]:
        t.confirm()
    assert t.game.history[-1].call == "Ben: Line-up " + ", ".join(f"{held} {n}" for n in BEN)
    v = t.view()
    assert "lined up" in marked(v.rows[1].header) and "Ben" not in t.drafts
    assert [marked(s.text) for s in v.rows[1].slots] == [f"[b]{n}[/b]\n{held}" for n in BEN]


def test_reveal_before_every_line_up_is_refused_then_journaled(journal: Journal) -> None:
    t = table(journal)
    tribes(t)
    t.tap_player("Ana")
    for n in ANA:
        t.tap_pips(n)
    assert not t.view().controls["reveal"].enabled  # Ben has not lined up
    refused_as_it_was(t, t.reveal, "Ben")
    t.tap_player("Ben")
    for n in BEN:
        t.tap_pips(n)
    t.reveal()
    assert t.game.history[-1].call == "Reveal"
    v = t.view()
    assert v.panel == "resolving" and v.cards[0].lit and t.resolving is not None
    assert v.title.startswith("Round 1 of 2: ")


def test_pass_by_its_tap_is_journaled_and_the_turn_moves_on(journal: Journal) -> None:
    t = to_share(journal, lambda t: True)
    who = t.game.state.share_queue[0][1]
    assert t.view().panel == "share"
    t.pass_share()
    assert t.game.history[-1].call == f"{who}: Pass"
    v = t.view()
    if t.game.phase == "share":
        nxt = t.game.state.share_queue[0][1]
        assert f"[b]{nxt}[/b]" in marked(v.message)
    else:
        assert v.panel != "share"


def test_a_swap_the_source_cannot_give_is_refused_and_said(journal: Journal) -> None:
    def offers_a_wrong_swap(t: OcculitesModel) -> bool:
        return bool(t.game.share_choices()) and wrong_swap(t) is not None

    def wrong_swap(t: OcculitesModel) -> tuple[str, str, str] | None:
        legal = {(s.give, s.source, s.take) for s in t.game.share_choices()}
        gives = {s.give for s in t.game.share_choices()}
        return next(((g, s, k) for g in sorted(gives) for s in sorted({x[1] for x in legal})
                     for k in sorted(t.game.state.dice[t.players[0]])
                     if k != g and (g, s, k) not in legal), None)

    t = to_share(journal, offers_a_wrong_swap)
    swap = wrong_swap(t)
    assert swap is not None
    give, source, take = swap

    def taps() -> None:
        t.tap_share_colour(give)
        t.choose_source(source)
        t.tap_share_colour(take)

    refused_as_it_was(t, taps, take)
    assert t.view().panel == "share"
