"""A game the players end themselves is a result: End game records its standings at that
moment (or no result), History and statistics count it, Resume no longer offers it; a game
with no call is never kept as unfinished."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

import rules
from companion.ending import AGREED, NO_RESULT, agreed_results, end_words, leaders
from companion.history import History
from companion.history.stats import statistics
from companion.history.text import state
from companion.journal import Journal, JournalError
from rules import Entry, Setup

PLAYERS = ("Ana", "Ben", "Cy")


def played(journal: Journal, calls: int, seed: int = 3) -> tuple[int, Any]:
    """A Dice-ocalypse game with ``calls`` random legal calls (banking whenever it may, so
    that scores differ), journaled as the app does."""
    setup = Setup("dice-ocalypse", PLAYERS, {}, seed)
    game = rules.from_setup(setup)
    gid = journal.start_game(game.setup)
    rng = random.Random(seed)
    for _ in range(calls):
        legal = list(game.legal_calls())
        bank = [c for c in legal if c.text().endswith("Bank")]
        call = game.check(bank[0] if bank else rng.choice(legal), None)
        journal.record_call(gid, Entry(call.text(), None))
        game.apply(call, None)
    assert not game.is_over
    return gid, game


def test_ended_by_agreement_is_a_finished_game_with_its_standings_then(tmp_path: Path) -> None:
    with Journal(tmp_path / "j.sqlite3") as journal:
        gid, game = played(journal, 40)
        top = leaders(game)
        assert top, "40 calls into Dice-ocalypse someone leads"
        journal.finish(gid, ending=AGREED)
        assert journal.load(gid).ending == AGREED
        assert journal.unfinished() == []  # not offered for resume
    with History(tmp_path / "j.sqlite3") as history:
        history.refresh()
        g = history.game(gid)
        assert g.finished and g.is_over and not g.can_resume
        assert g.winner == " & ".join(top)
        assert state(g) == "ended by agreement"
        assert {p.player for p in g.players if p.won} == set(top)
        assert [p.rank for p in g.players] == [r.rank for r in agreed_results(game, AGREED)[0]]
        stats = {p.player: p for p in statistics(history).players}
        for name in PLAYERS:  # counted: one game each, a win for each leader
            assert stats[name].games == 1 and stats[name].unfinished == 0
            assert stats[name].wins == (name in top)


def test_no_result_counts_a_game_won_by_nobody(tmp_path: Path) -> None:
    with Journal(tmp_path / "j.sqlite3") as journal:
        gid, _ = played(journal, 12)
        journal.finish(gid, ending=NO_RESULT)
    with History(tmp_path / "j.sqlite3") as history:
        history.refresh()
        g = history.game(gid)
        assert g.is_over and g.winner is None and not any(p.won for p in g.players)
        assert state(g) == "ended by agreement, no result"
        stats = {p.player: p for p in statistics(history).players}
        assert all(stats[n].games == 1 and stats[n].wins == 0 for n in PLAYERS)


def test_a_game_left_unfinished_is_still_unfinished(tmp_path: Path) -> None:
    with Journal(tmp_path / "j.sqlite3") as journal:
        gid, _ = played(journal, 5)
        assert [r.id for r in journal.unfinished()] == [gid]
    with History(tmp_path / "j.sqlite3") as history:
        history.refresh()
        assert history.game(gid).can_resume and not history.game(gid).is_over


def test_a_game_with_no_call_is_never_offered_for_resume_and_is_forgotten(
        tmp_path: Path) -> None:
    with Journal(tmp_path / "j.sqlite3") as journal:
        empty = journal.start_game(Setup("dice-ocalypse", PLAYERS, {}, 1))
        kept, _ = played(journal, 2)
        assert journal.discard_empty(kept) is False  # a game with calls is never forgotten
        assert journal.discard_empty(empty) is True
        with pytest.raises(JournalError):
            journal.load(empty)
        again = journal.start_game(Setup("dice-ocalypse", PLAYERS, {}, 2))
        assert journal.discard_all_empty() == 1
        with pytest.raises(JournalError):
            journal.load(again)
        assert journal.load(kept).calls == 2
        assert [r.id for r in journal.unfinished()] == [kept]


def test_the_app_forgets_games_cut_off_before_their_first_call_as_it_starts(
        tmp_path: Path) -> None:
    from companion.startfiles import open_journal

    with Journal(tmp_path / "j.sqlite3") as journal:
        journal.start_game(Setup("dice-ocalypse", PLAYERS, {}, 1))  # then the power went
        kept, _ = played(journal, 2)
    journal, notices = open_journal(tmp_path / "j.sqlite3")
    with journal:
        assert notices == [] and [r.id for r in journal.unfinished()] == [kept]


def test_an_unknown_ending_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    with Journal(tmp_path / "j.sqlite3") as journal:
        gid, game = played(journal, 3)
        with pytest.raises(JournalError, match="ending 'won'"):
            journal.finish(gid, ending="won")
        assert [r.id for r in journal.unfinished()] == [gid]
    with pytest.raises(ValueError, match="ending 'won'"):
        agreed_results(game, "won")


def test_the_dialog_says_who_wins_in_words() -> None:
    game = rules.from_setup(Setup("dice-ocalypse", PLAYERS, {}, 1))
    assert leaders(game) == ()  # nobody leads before the first call
    assert "Nobody wins" in end_words(game)
    _, game = played(Journal(":memory:"), 40)
    top = leaders(game)
    assert top[0] in end_words(game)
