"""Tribal Village at the table without Kivy (companion.games.tribal_village.model): what the
screen shows (prompt, verdict, each player's row, the choices as keyed buttons) and what each
tap does, on a real session and journal."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from no_kivy import imports_kivy

import rules
from companion.games.tribal_village.model import TribalVillageModel
from companion.games.tribal_village.view import Choice
from companion.journal import Journal
from companion.session import TableSession
from rules import Call
from rules.tribal_village import (
    GRETIN,
    Chaos,
    ChaosReturn,
    Discard,
    FirstLead,
    KeepObjective,
    Manipulate,
    NetAnswer,
    PickObjective,
    Play,
    Reveal,
    TribalVillage,
)
from rules.tribal_village.cards import tribe_of

PLAYERS = ("Ana", "Ben", "Cy", "Dee", "Eli", "Fay")
TRIBES = ["Palaudis", "Floris", "Hydris", "Nimbus", "Luftles", "Ignis", "Boletus", "Silicus"]


@pytest.fixture
def journal(tmp_path: Path) -> Iterator[Journal]:
    with Journal(tmp_path / "j.sqlite3") as j:
        yield j


def table(journal: Journal, players: tuple[str, ...] = PLAYERS, seed: int = 5,
          **options: object) -> TribalVillageModel:
    tribes = {"tribes": TRIBES} if len(players) == 6 else {}
    setup = rules.Setup("tribal-village", players, {**tribes, **options}, seed)
    model = TribalVillageModel(TableSession.new(journal, setup, "test").typed(TribalVillage))
    model.session.subscribe(model.on_session)  # as its host hands the session's changes
    return model


def choices(t: TribalVillageModel) -> dict[str, Choice]:
    view = t.view()
    return {c.key: c for b in view.blocks for c in b.choices if c.key} | view.beside


def play_until(t: TribalVillageModel, found: object, rng: random.Random) -> None:
    for _ in range(400):
        if t.game.is_over or (callable(found) and found()):
            return
        t.session.try_call(t.game.random_call(rng))
    raise AssertionError("never reached")


def test_the_setup_picks_objectives_by_two_taps(journal: Journal) -> None:
    t = table(journal)
    v = t.view()
    assert v.setup and v.title == "Hand 1 of 3" and v.prompt == "Objectives: 0 of 6 chosen"
    assert v.verdict == "Tap a player, then the objective they keep."
    shown = choices(t)
    assert {"mode:pick", "mode:alliances", "mode:revealed"} <= set(shown)
    assert shown["mode:pick"].selected and shown["player:Ana"].seat == 0  # in Ana's colour
    assert shown["player:Ben"].seat is None
    assert t.tap("player:Cy")
    assert choices(t)["player:Cy"].seat == 2 and t.picker == "Cy"
    objective = next(k for k in choices(t) if k.startswith("objective:"))
    assert t.tap(objective)
    assert t.game.history[-1].call.startswith("Cy: ")
    assert t.view().prompt == "Objectives: 1 of 6 chosen"
    assert not choices(t)["player:Cy"].enabled  # chosen: greyed in its place
    assert not t.tap("player:Cy")  # and it cannot be tapped
    assert t.picker is None  # a call forgets the half-made choice


def test_the_alliance_cards_and_the_objectives_dealt(journal: Journal) -> None:
    t = table(journal)
    t.tap("mode:alliances")
    assert t.view().prompt == "Alliance cards as on the table"
    layout = t.game.state.layout
    a, b = layout[0][0], layout[-1][-1]
    t.tap("ally:" + a)
    assert choices(t)["ally:" + a].selected
    t.tap("ally:" + b)
    assert t.game.history[-1].call.startswith("Alliances")
    assert t.game.state.layout[0][0] == b
    t.tap("mode:revealed")
    assert t.view().prompt == "Objectives dealt face up"
    assert not choices(t)["reveal:use"].enabled  # nothing changed yet


def to_play(t: TribalVillageModel, rng: random.Random) -> None:
    play_until(t, lambda: t.game.state.phase == "play" and not t.game.state.pending, rng)


def test_a_card_by_two_taps_and_the_rows(journal: Journal) -> None:
    t = table(journal)
    rng = random.Random(1)
    to_play(t, rng)
    who = t.game.current_player
    assert who is not None
    plays = [c for c in t.game.legal_calls() if isinstance(c, Play) and c.player == who
             and not (c.net or c.take or c.swap) and c.tokens == 0]
    card = plays[0].card
    tribe, value = card.rsplit(" ", 1)
    v = t.view()
    row = next(p for p in v.players if p.player == who)
    assert row.current and row.to_play and row.played == "to play"
    assert v.prompt.startswith(f"{who} ")
    assert not choices(t)[f"value:{value}"].enabled  # no tribe tapped yet
    assert t.tap(f"tribe:{tribe}")
    assert choices(t)[f"tribe:{tribe}"].selected and choices(t)[f"value:{value}"].enabled
    before = len(t.game.history)
    assert t.tap(f"value:{value}")
    assert len(t.game.history) == before + 1
    assert t.game.history[-1].call.startswith(f"{who}: {card}")
    row = next(p for p in t.view().players if p.player == who)
    assert row.played.startswith(tribe) and not row.to_play


def test_the_net_question_is_asked_beside_the_names_not_where_the_next_player_taps(
        journal: Journal) -> None:
    """Issue 31's tap trap, held in the model: after a Hydris card, "Hunting Net in front of
    whom?" is asked by buttons beside the players' names (the screen puts them on the rows on
    the right), never among the choices where the next player's tribe buttons come; "Other
    card" and "Don't use it" sit on the top row, the question under them, and nothing on the
    rows below, where the card's value was just tapped (issue 44: a double tap answered)."""
    t = table(journal)
    rng = random.Random(4)

    def net_play() -> Play | None:
        g = t.game
        if g.state.phase != "play" or g.state.pending or g.current_player is None:
            return None
        return next((c for c in g.legal_calls() if isinstance(c, Play)
                     and c.player == g.current_player and c.net), None)

    play_until(t, lambda: net_play() is not None, rng)
    net = net_play()
    assert net is not None
    tribe, value = net.card.rsplit(" ", 1)
    t.tap(f"tribe:{tribe}")
    t.tap(f"value:{value}")
    assert t.card == net.card  # its ability is asked first
    v = t.view()
    assert set(v.beside) == {c.net for c in t.game.legal_calls()
                             if isinstance(c, Play) and c.card == net.card and c.net}
    assert all(c.key == f"net:{p}" and c.hot for p, c in v.beside.items())
    in_blocks = [c.key for b in v.blocks for c in b.choices]
    assert not any(k.startswith("net:") or k.startswith("tribe:") for k in in_blocks)
    assert [b.kind for b in v.blocks] == ["row", "note", "filler"]
    assert in_blocks == ["ability:back", "ability:skip"]
    assert "Hunting Net in front of whom?" in v.blocks[1].text
    assert net.net is not None
    assert t.tap(f"net:{net.net}")
    assert t.game.history[-1].call == net.text()
    # the next player's choices are the card picker again, nothing beside the names
    v = t.view()
    assert not v.beside


def test_a_refusal_is_shown_instead_of_the_verdict_and_a_tap_clears_it(journal: Journal
                                                                       ) -> None:
    t = table(journal)
    t.tap("player:Ana")
    t.session.try_call("Ben: Lead Hydris 3")
    v = t.view()
    assert v.refusal and t.picker == "Ana"  # the half-made choice is kept
    t.say("Undid: something")
    assert t.view().notice == "Undid: something"
    t.tap("player:Ben")
    v = t.view()
    assert v.refusal == "" and v.notice == "" and t.picker == "Ben"


def test_the_game_over_choices_are_the_screens_own(journal: Journal) -> None:
    t = table(journal, ("Ana", "Ben", "Cy"), hands=1)
    rng = random.Random(3)
    play_until(t, lambda: False, rng)
    assert t.game.is_over
    v = t.view()
    assert v.title == "Game over" and v.prompt.startswith("Game over: ")
    assert [c.key for b in v.blocks for c in b.choices] == ["over:standings", "over:bgstats",
                                                            "over:leave"]
    assert all(p.under == "total" for p in v.players)


def test_the_model_never_imports_kivy() -> None:
    assert not imports_kivy("companion.games.tribal_village.model")


@pytest.mark.parametrize(("players", "seed"), [(("Ana", "Ben", "Cy"), 3), (PLAYERS, 4)])
def test_whole_games_by_taps(journal: Journal, players: tuple[str, ...], seed: int) -> None:
    """Games played to their end by seeded taps on the enabled choices alone (no call made
    but through a tap): every tap is taken or refused in words, never raises; the journal
    replays to the same game; and the calls made include the setup's objectives, the first
    lead and cards played."""
    from rules.core import to_plain

    rng = random.Random(seed)
    t = table(journal, players, seed=seed)
    kinds: set[str] = set()
    for _ in range(20000):
        if t.game.is_over:
            break
        before = len(t.game.history)
        offered = sorted(k for k, c in choices(t).items() if c.enabled)
        assert offered, f"nothing to tap: {t.view().prompt}"
        t.tap(rng.choice(offered))
        for entry in t.game.history[before:]:
            kinds.add(type(t.game.parse(entry.call)).__name__)
    assert t.game.is_over, "the game did not end within 20000 taps"
    assert {"FirstLead", "Play"} <= kinds, kinds
    again = rules.replay(t.game.setup, t.game.history)
    assert to_plain(again.state) == to_plain(t.game.state)
    assert journal.load(t.session.game_id).entries == tuple(t.game.history)


# -- every call kind the model sends, by its own taps: what is journaled, what the view shows,
# -- and a tap that is not offered refused with the game exactly as it was (issue 43, item 7) --

#: Six players over every Tribe whose ability asks the table something (Hydris' net, Floris'
#: chaos, Nimbus' talons, Boletus' swap, Tachydus' manipulation, Luftle tokens), with Gretins.
ASKING = ["Palaudis", "Floris", "Hydris", "Nimbus", "Luftles", "Tachydus", "Boletus", "Silicus"]


def tap(t: TribalVillageModel, key: str) -> None:
    """Tap ``key``, turning the page of a long list to it first; it must be enabled."""
    for _ in range(10):
        if key in choices(t) or "page:more" not in choices(t):
            break
        assert t.tap("page:more")
    assert t.tap(key), f"{key} is not offered: {sorted(choices(t))}"


def tap_card(t: TribalVillageModel, card: str) -> None:
    """A card by the picker: its tribe, then its value (a Lucky Gretin by one tap)."""
    if card == GRETIN:
        tap(t, f"tribe:{GRETIN}")
        return
    tribe, value = card.rsplit(" ", 1)
    tap(t, f"tribe:{tribe}")
    tap(t, f"value:{value}")


def tap_call(t: TribalVillageModel, call: Call) -> None:
    """Make ``call`` by the taps a player makes on the model's view."""
    if isinstance(call, Play):
        for _ in range(abs(call.tokens)):
            tap(t, "tokens:+" if call.tokens > 0 else "tokens:-")
        tap_card(t, call.card)
        if t.card is None:  # no ability asked: played
            return
        if call.net is not None:
            tap(t, f"net:{call.net}")
        elif call.take is not None:
            tap(t, f"take:{call.take}")
            assert call.discard is not None
            tap_card(t, call.discard)
        elif call.swap is not None:
            tap(t, f"swap:{call.swap[0]}")
            tap(t, f"swap:{call.swap[1]}")
        else:
            tap(t, "ability:skip")
    elif isinstance(call, NetAnswer):
        tap(t, "net:retrieve" if call.retrieve else "net:leave")
    elif isinstance(call, Chaos):
        if not call.added:
            tap(t, "chaos:no")
            return
        tap(t, "chaos:yes")
        for card, _giver in call.added:
            tap_card(t, card)
    elif isinstance(call, ChaosReturn):
        for card, _to in call.gifts:
            tap(t, f"give:{card}")
    elif isinstance(call, Manipulate):
        if call.card is None:
            tap(t, "manipulate:none")
        else:
            tap(t, f"village:{call.owner}")
            tap(t, f"manipulate:{call.card} from {call.owner}")
    elif isinstance(call, Discard):
        tap_card(t, call.card)
    elif isinstance(call, KeepObjective):
        tap(t, "gretin:keep")
    elif isinstance(call, PickObjective):
        tap(t, f"objective:{call.objective}")
    elif isinstance(call, FirstLead):
        tap(t, f"player:{call.player}")
        if call.card is None:
            tap(t, "lead:none")
        else:
            tap_card(t, call.card)
    else:
        raise AssertionError(f"no taps for {call!r}")


#: Each kind of call (and each shape of a Play) the model sends, as a test of a legal call.
KINDS: dict[str, Callable[[Call], bool]] = {
    "first lead": lambda c: isinstance(c, FirstLead) and c.card is not None,
    "first lead, none dealt": lambda c: isinstance(c, FirstLead) and c.card is None,
    "play with tokens": lambda c: isinstance(c, Play) and c.tokens != 0 and not c.net
    and not c.take and not c.swap,
    "play, ability declined": lambda c: isinstance(c, Play) and tribe_of(c.card) in
    ("Hydris", "Nimbus", "Boletus") and not (c.net or c.take or c.swap),
    "play with Raking Talons": lambda c: isinstance(c, Play) and c.take is not None,
    "play with Plotting Distrust": lambda c: isinstance(c, Play) and c.swap is not None,
    "retrieve the net": lambda c: isinstance(c, NetAnswer) and c.retrieve,
    "leave the net": lambda c: isinstance(c, NetAnswer) and not c.retrieve,
    "no chaos": lambda c: isinstance(c, Chaos) and not c.added,
    "chaos": lambda c: isinstance(c, Chaos) and bool(c.added),
    "chaos return": lambda c: isinstance(c, ChaosReturn),
    "no manipulation": lambda c: isinstance(c, Manipulate) and c.card is None,
    "manipulate": lambda c: isinstance(c, Manipulate) and c.card is not None,
    "discard": lambda c: isinstance(c, Discard),
    "keep the objective": lambda c: isinstance(c, KeepObjective),
    "a Gretin's new objective": lambda c: isinstance(c, PickObjective) and c.objective != "",
}


def reach(journal: Journal, wanted: Callable[[Call], bool]) -> tuple[TribalVillageModel, Call]:
    """Seeded games by random calls through the session, up to the first state where a call
    ``wanted`` accepts is legal (a Gretin's objective: only once play has begun)."""
    for seed in range(30):
        t = table(journal, PLAYERS, seed=seed, tribes=ASKING, lucky_gretin=True)
        rng = random.Random(seed)
        for _ in range(600):
            if t.game.is_over:
                break
            s = t.game.state
            found = sorted((c for c in t.game.legal_calls() if wanted(c)
                            and (not isinstance(c, PickObjective) or s.phase == "play")),
                           key=lambda c: c.text())
            if found:
                return t, found[0]
            t.session.try_call(t.game.random_call(rng))
    raise AssertionError("no such call reached in 30 seeded games")


@pytest.mark.parametrize("kind", list(KINDS))
def test_each_kind_of_call_by_its_taps(journal: Journal, kind: str) -> None:
    t, call = reach(journal, KINDS[kind])
    pending = t.game.state.pending
    before = t.view()
    if pending:
        assert before.prompt.startswith(f"{pending[0].player}: ")
    tap_call(t, call)
    assert t.game.history[-1].call == call.text()
    after = t.view()
    assert after.refusal == "" and (after.prompt, after.title) != (before.prompt, before.title)
    if isinstance(call, Play) and t.game.state.trick:
        row = next(p for p in after.players if p.player == call.player)
        assert not row.to_play and not row.current


def test_the_objectives_dealt_by_taps(journal: Journal) -> None:
    t = table(journal)
    s = t.game.state
    out, into = s.revealed[0], sorted(s.objective_deck)[0]
    tap(t, "mode:revealed")
    tap(t, f"reveal:{out}")
    assert not choices(t)["reveal:use"].enabled  # four chosen
    tap(t, f"reveal:{into}")
    assert choices(t)["reveal:use"].enabled and choices(t)[f"reveal:{into}"].selected
    dealt = (*s.revealed[1:], into)
    tap(t, "reveal:use")
    assert t.game.history[-1].call == Reveal(dealt).text()
    assert sorted(t.game.state.revealed) == sorted(dealt)
    shown = choices(t)
    assert shown[f"reveal:{into}"].selected and not shown[f"reveal:{out}"].selected
    assert not shown["reveal:use"].enabled  # as on the table now


def test_a_tap_not_offered_changes_nothing(journal: Journal) -> None:
    """A value before its tribe, a player who has chosen, a choice of another stage: the tap
    is not taken and the game is exactly as it was."""
    t = table(journal)
    rng = random.Random(1)
    to_play(t, rng)
    before, done = t.game.snapshot(), len(t.game.history)
    shown = choices(t)
    disabled = [k for k, c in shown.items() if not c.enabled]
    assert disabled
    for key in [*disabled, "chaos:no", "net:retrieve", "gretin:keep", "lead:none"]:
        assert not t.tap(key), key
    assert t.game.snapshot() == before and len(t.game.history) == done
    assert t.view().refusal == ""

