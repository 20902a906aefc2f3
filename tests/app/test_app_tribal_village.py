"""Tribal Village through the real app, by touch: setup steps, a whole hand, abilities, verdicts.

The deck is dealt here (the test knows every hand, as the table would); the app only ever sees
taps. Each trick's winner is checked on the screen: the first four against outcomes worked out
from the rulebook by hand, the rest against the engine's verdict and the Village counts.
"""

from __future__ import annotations

import os
import re
from collections.abc import Generator, Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import leave_game

pytestmark = pytest.mark.app

PLAYERS = ("Ana", "Ben", "Cy")
TRIBES = ("Palaudis", "Floris", "Hydris", "Nimbus", "Luftles")
TARGET = [["Palaudis", "Floris"], ["Hydris", "Nimbus"], ["Luftles"]]
HANDS = {
    "Ana": ["Luftles 1", "Hydris 8", "Palaudis 7", "Floris 6", "Floris 2", "Nimbus 3",
            "Palaudis 1", "Floris 4", "Hydris 2", "Luftles 4", "Nimbus 6", "Palaudis 5"],
    "Ben": ["Luftles 2", "Hydris 5", "Palaudis 3", "Floris 5", "Floris 1", "Nimbus 1",
            "Palaudis 4", "Hydris 3", "Luftles 6", "Nimbus 7", "Palaudis 6", "Hydris 6"],
    "Cy": ["Luftles 3", "Hydris 4", "Floris 7", "Floris 3", "Nimbus 2", "Palaudis 2",
           "Floris 8", "Hydris 1", "Luftles 7", "Nimbus 5", "Palaudis 8", "Nimbus 8"],
}
SHOTS = os.environ.get("TRIBAL_SCREENSHOTS")  # a folder: save the docs' screenshots there


def test_a_hand_by_touch(app_dirs: Path) -> None:
    from companion.compose import CompanionApp
    from companion.demo.drive import Driver, ManualClock, run_app
    from rules import Setup

    app = CompanionApp(clock=ManualClock(), journal_file=app_dirs / "j.sqlite3")
    hands = {p: list(cards) for p, cards in HANDS.items()}

    def shot(d: Driver, name: str) -> None:
        if SHOTS:
            d.screenshot(Path(SHOTS) / f"tribal-village-{name}.png")

    def script(d: Driver) -> Generator[int | None, None, None]:
        app.start_game(Setup("tribal-village", PLAYERS, {"tribes": list(TRIBES)}, 7))
        yield 2
        assert app.sm.current == "game-tribal-village"
        scr = app.game_screen
        game = app.session.game

        def tap(key: str) -> None:
            assert key in scr.buttons, f"no button {key!r} on screen; have {sorted(scr.buttons)}"
            d.tap(scr.buttons[key])

        def card(c: str) -> Iterator[int]:
            """Two taps: tribe, value."""
            tribe, value = c.rsplit(" ", 1)
            tap(f"tribe:{tribe}")
            yield 1
            assert scr.buttons[f"value:{value}"].disabled is False
            tap(f"value:{value}")
            yield 1

        def play(player: str, c: str) -> Iterator[int]:
            assert game.current_player == player, scr.prompt_label.text
            assert player in scr.prompt_label.text
            yield from card(c)
            if scr.model.card is not None:  # an ability is offered (e.g. Hydris' net): decline it
                tap("ability:skip")
                yield 1
            hands[player].remove(c)

        def tricks_on_screen(player: str) -> int:
            text = scr.player_labels[player].text  # "12 cards · 1 trick"
            found = re.search(r"(\d+) tricks?\b", text)
            assert found, text
            if found.group(1) == "1":
                assert "1 trick" in text and "1 tricks" not in text, text
            return int(found.group(1))

        def note() -> str:
            """The line over the choices that says what they are for."""
            return " ".join(w.text for w in scr.choices.walk()
                            if type(w).__name__ == "TLabel")

        # -- setup: alliance cards as on the table, by swapping two tribes at a time ------------
        tap("mode:alliances")
        yield 1
        for i, want in enumerate(t for g in TARGET for t in g):
            flat = [t for g in game.state.layout for t in g]
            if flat[i] != want:
                tap(f"ally:{flat[i]}")
                yield 1
                tap(f"ally:{want}")
                yield 1
        assert game.state.layout == TARGET
        assert "Palaudis + Floris" in scr.allies_label.text
        assert "Unallied: Luftles" in scr.allies_label.text
        shot(d, "1-alliances")
        # -- the objectives dealt face up, then each player's pick ------------------------------
        tap("mode:revealed")
        yield 1
        table = ["Secret Village", "Crowded Village", "Balanced Village", "Twin Village",
                 "Humble Village"]
        for o in list(scr.model.reveal_sel):
            if o not in table:
                tap(f"reveal:{o}")
                yield 1
        for o in table:
            if o not in scr.model.reveal_sel:
                tap(f"reveal:{o}")
                yield 1
        tap("reveal:use")
        yield 1
        assert sorted(game.state.revealed) == sorted(table)
        tap("mode:pick")
        yield 1
        picks = {"Ana": "Crowded Village", "Ben": "Humble Village", "Cy": "Secret Village"}
        for p in ("Cy", "Ana", "Ben"):
            tap(f"player:{p}")
            yield 1
            if p == "Ben":
                shot(d, "2-objectives")
            tap(f"objective:{picks[p]}")
            yield 1
        assert game.state.objective == picks
        # -- first lead: Ana shows the lowest unallied card ------------------------------------
        from companion import theme

        assert "lowest Luftles" in scr.prompt_label.text
        tap("player:Ana")
        yield 1
        # one unallied tribe: it is chosen already, its values offered at once
        assert scr.buttons["tribe:Luftles"].background_color == pytest.approx(theme.SELECT)
        assert scr.buttons["value:1"].disabled is False
        tap("value:1")
        yield 1
        assert game.state.phase == "play" and game.current_player == "Ana"

        # -- trick 1: Luftles, unallied: the highest Luftles wins -------------------------------
        yield from play("Ana", "Luftles 1")
        # only sensible choices: Luftles is the only on-suit tribe, so only it is highlighted
        assert list(scr.buttons["tribe:Luftles"].background_color) == list(theme.ACCENT)
        assert list(scr.buttons["tribe:Hydris"].background_color) != list(theme.ACCENT)
        yield from play("Ben", "Luftles 2")
        yield from play("Cy", "Luftles 3")
        assert scr.verdict_label.text.startswith("Last trick: Cy wins with Luftles 3")
        assert "highest on-suit card" in scr.verdict_label.text
        assert tricks_on_screen("Cy") == 1
        # undo and redo by touch
        d.tap(scr.undo_button)
        yield 1
        assert "Winning now: Ben wins with Luftles 2" in scr.verdict_label.text
        assert tricks_on_screen("Cy") == 0
        d.tap(scr.redo_button)
        yield 1
        assert tricks_on_screen("Cy") == 1

        # -- trick 2: Ana's Hydris 8 places the Hunting Net in front of Ben (an ability prompt) --
        yield from play("Cy", "Hydris 4")
        tribe = "Hydris"
        tap(f"tribe:{tribe}")
        yield 1
        tap("value:8")
        yield 1
        assert "Hunting Net" in note()
        assert set(k for k in scr.buttons if k.startswith("net:")) == {"net:Ben", "net:Cy"}
        shot(d, "3-hunting-net")
        tap("net:Ben")
        yield 1
        hands["Ana"].remove("Hydris 8")
        assert game.state.nets["Ana"] == "Ben"
        # Ben chooses Hydris 5: Ana may retrieve her net; she leaves it
        yield from play("Ben", "Hydris 5")
        assert "Hunting Net" in scr.prompt_label.text and scr.prompt_label.text.startswith("Ana")
        shot(d, "4-net-decision")
        tap("net:leave")
        yield 1
        assert scr.verdict_label.text.startswith("Last trick: Ana wins with Hydris 8")

        # -- trick 3: the rulebook's tie: lead Palaudis 7, Palaudis 3, allied Floris 7 ----------
        yield from play("Ana", "Palaudis 7")
        assert game.state.tokens["Ana"] == 1  # Luftle Affinity: on suit, a token
        yield from play("Ben", "Palaudis 3")
        tap("net:leave")
        yield 1
        shot(d, "5-trick-winning-now")
        yield from play("Cy", "Floris 7")
        text = scr.verdict_label.text
        assert text.startswith("Last trick: Ana wins with Palaudis 7"), text
        assert "Palaudis set the suit, so its card wins the tie" in text
        shot(d, "6-trick-verdict")

        # -- trick 4: Ben adds a Wild Luftle token: tied, the unmodified card wins; then chaos --
        yield from play("Ana", "Floris 6")
        assert game.state.tokens["Ben"] == 1
        tap("tokens:+")
        yield 1
        yield from play("Ben", "Floris 5")
        tap("net:leave")
        yield 1
        assert scr.rows["Ben"]["played"].text == "Floris\n5 as 6"  # in Ben's row
        yield from play("Cy", "Floris 3")
        assert scr.prompt_label.text == "Ana: Create Chaos (Floris)"
        text = scr.verdict_label.text
        assert text.startswith("Trick won: Ana wins with Floris 6"), text
        assert "an unmodified card beats a modified one" in text
        tap("chaos:yes")
        yield 1
        shot(d, "7-chaos")
        # a random card from Ben, then from Cy, entered by tribe and value
        yield from card("Nimbus 7")
        yield from card("Nimbus 8")
        hands["Ben"].remove("Nimbus 7")
        hands["Cy"].remove("Nimbus 8")
        assert scr.prompt_label.text == "Ana: Create Chaos: give back"
        tap("give:Nimbus 8")  # to Ben
        yield 1
        tap("give:Floris 3")  # to Cy
        yield 1
        hands["Ben"].append("Nimbus 8")
        hands["Cy"].append("Floris 3")
        assert tricks_on_screen("Ana") == 3
        assert sorted(game.state.villages["Ana"][-1]) == ["Floris 5", "Floris 6", "Nimbus 7"]
        # scores on screen: Crowded Village 1 per trick (Ana, 3 tricks); Secret Village 7 for
        # a single trick (Cy); Humble Village 1 per card valued 1-3 (Ben, no trick yet)
        assert scr.score_labels["Ana"].text == "3"
        assert scr.score_labels["Cy"].text == "7"
        assert scr.score_labels["Ben"].text == "0"

        # -- trick 5: Cy plays Nimbus off suit: Raking Talons takes Ben's card, discards another -
        yield from play("Ana", "Luftles 4")
        yield from play("Ben", "Luftles 6")
        tap("net:leave")
        yield 1
        tap("tribe:Nimbus")
        yield 1
        tap("value:2")
        yield 1
        assert set(k for k in scr.buttons if k.startswith("take:")) == {"take:Luftles 6"}
        tap("take:Luftles 6")
        yield 1
        # the taken card is offered (highlighted) as the discard; Luftles 4 (in the trick) is not
        assert list(scr.buttons["tribe:Luftles"].background_color) == list(theme.ACCENT)
        tap("tribe:Luftles")
        yield 1
        assert scr.buttons["value:4"].disabled and not scr.buttons["value:6"].disabled
        shot(d, "9-raking-talons")
        yield from card("Palaudis 2")
        hands["Cy"] += ["Luftles 6"]
        hands["Cy"].remove("Nimbus 2")
        hands["Cy"].remove("Palaudis 2")
        # (Cy still holds Luftles 7: the engine cannot know hidden cards and trusts the table)
        text = scr.verdict_label.text
        assert text.startswith("Last trick: Ana wins with Luftles 4"), text
        assert sorted(game.state.villages["Ana"][-1]) == ["Luftles 4", "Nimbus 2", "Palaudis 2"]

        # -- the rest of the hand: follow suit when possible, decline every ability -------------
        seen = 5
        while game.state.phase == "play":
            s = game.state
            if s.pending:
                kind = s.pending[0].kind
                tap({"net": "net:leave", "chaos": "chaos:no"}[kind])
                yield 1
            else:
                who = game.current_player
                on = [c for c in hands[who] if game.is_on_suit(c)]
                yield from play(who, (on or hands[who])[0])
            done = sum(len(v) for v in game.state.villages.values())
            if done > seen and game.state.phase == "play":
                seen = done
                winner = game.state.last_verdict.split(" wins ")[0]
                assert scr.verdict_label.text.endswith(game.state.last_verdict)
                assert f"{winner} wins with" in scr.verdict_label.text
                assert tricks_on_screen(winner) == len(game.state.villages[winner])
        assert all(not h for h in hands.values()), hands
        # -- the hand is scored; hand 2 starts with its setup ------------------------------------
        s = game.state
        assert s.hand_no == 2 and len(s.hand_scores) == 1
        first = s.hand_scores[0]
        best = max(first.values())
        assert scr.verdict_label.text.startswith("Hand 1 scored: most points " + " and ".join(
            p for p in PLAYERS if first[p] == best))
        assert scr.title_label.text == "Hand 2 of 3"
        assert sum(first.values()) > 0
        for p in PLAYERS:
            assert scr.score_labels[p].text == str(first[p])
            assert scr.rows[p]["under"].text == "total"
        shot(d, "8-hand-scored")
        # the journal holds every call the taps made, as said at the table
        calls = [e.call for e in app.journal.load(app.session.game_id).entries]
        assert "Ana: Hydris 8 net Ben" in calls and "Ben: Floris 5 +1" in calls
        assert "Ana: Chaos Nimbus 7 from Ben, Nimbus 8 from Cy" in calls
        # leave and resume: the screen comes back as it was, from the journal
        verdict = scr.verdict_label.text
        yield from leave_game(d, scr)
        yield 1
        assert app.sm.current == "start"
        app.resume_game(app.journal.unfinished()[0].id)
        yield 2
        scr = app.game_screen
        assert app.sm.current == "game-tribal-village"
        assert scr.verdict_label.text == verdict
        assert scr.title_label.text == "Hand 2 of 3"

    run_app(app, script, timeout=300)


def test_start_screen_opens_the_tribal_village_screen(app_dirs: Path) -> None:
    """The table options are chosen on the start screen, in words (the table screen shows
    none: nothing there changes once play begins)."""
    from companion.compose import CompanionApp
    from companion.demo.drive import Driver, ManualClock, run_app, touch_problems

    app = CompanionApp(clock=ManualClock(), journal_file=app_dirs / "j.sqlite3")

    def script(d: Driver) -> Generator[int | None, None, None]:
        start: Any = app.screens["start"]
        assert "Tribal Village" in start.game_spin.values
        start.choose_game("tribal-village")
        yield 2
        start.set_count(4)
        words = {k: s.values for k, s in start.option_spins.items()}
        assert {"hands", "lucky_gretin", "alliance_mode", "new_alliances_each_hand",
                "tachydus_discard"} <= set(words)
        start.option_spins["lucky_gretin"].text = "on"
        start.option_spins["hands"].text = "2"
        yield 1
        if SHOTS:
            d.screenshot(Path(SHOTS) / "tribal-village-0-options.png")
        d.tap(start.start_button)
        yield 2
        assert app.sm.current == "game-tribal-village", start.message.text
        scr = app.game_screen
        game = app.session.game
        assert len(game.state.tribes) == 6  # 4 players: 6 tribes
        assert game.options.lucky_gretin and game.options.hands == 2
        assert game.state.hand_count["Ana"] == 12  # 4 players: 11 cards, +1 with Gretins
        assert not [k for k in scr.buttons if k.startswith(("opt:", "mode:options"))]
        assert "Hand 1 of 2" in scr.title_label.text
        assert touch_problems(scr, (800, 480)) == []
        # every revealed objective is offered to the first player, and nothing else
        keys = {k for k in scr.buttons if k.startswith("objective:")}
        assert keys == {f"objective:{o}" for o in game.state.revealed}
        d.tap(scr.buttons[f"objective:{game.state.revealed[0]}"])
        yield 1
        assert game.state.objective["Ana"] == game.state.revealed[0]
        assert scr.buttons["player:Ana"].disabled  # chosen: greyed, in its place
        assert scr.prompt_label.text == "Objectives: 1 of 4 chosen"
        yield from leave_game(d, scr)
        yield 1
        assert app.sm.current == "start"

    run_app(app, script)


def test_six_players_with_gretins_to_the_end(app_dirs: Path) -> None:
    """A one-hand game of 6 with Lucky Gretins and random tribes, to the final standings;
    every step's touch targets fit 800x480 and 1280x720."""
    import random

    from kivy.core.window import Window

    from companion.compose import CompanionApp
    from companion.demo.drive import Driver, ManualClock, run_app, touch_problems
    from rules import Setup
    from rules.tribal_village import GRETIN, VALUES

    players = ("Ana", "Ben", "Cy", "Dee", "Eli", "Fay")
    app = CompanionApp(clock=ManualClock(), journal_file=app_dirs / "j.sqlite3")
    problems: list[str] = []
    checked: set[str] = set()

    def script(d: Driver) -> Generator[int | None, None, None]:
        app.start_game(Setup("tribal-village", players, {"lucky_gretin": True, "hands": 1}, 11))
        yield 2
        scr = app.game_screen
        game = app.session.game
        s = game.state
        deck = [f"{t} {v}" for t in s.tribes for v in VALUES] + [GRETIN] * len(players)
        random.Random(3).shuffle(deck)
        hands = {p: deck[i * 11:(i + 1) * 11] for i, p in enumerate(players)}

        def tap(key: str) -> None:
            assert key in scr.buttons, f"no button {key!r}; have {sorted(scr.buttons)}"
            d.tap(scr.buttons[key])

        def check(stage: str) -> Iterator[int]:
            if stage in checked:
                return
            checked.add(stage)
            for size in ((1280, 720), (800, 480)):
                Window.size = size
                yield 3
                problems.extend(f"{stage}: {p}" for p in touch_problems(scr, size))
            if SHOTS:
                name = stage.replace(" ", "-")
                d.screenshot(Path(SHOTS) / f"tribal-village-six-{name}.png")

        yield from check("objectives")
        tap("mode:alliances")
        yield 1
        yield from check("alliances")
        tap("mode:revealed")
        yield 1
        yield from check("revealed")
        tap("mode:pick")
        yield 1
        for p in players:
            tap(f"player:{p}")
            yield 1
            tap(f"objective:{s.revealed[players.index(p) % 5]}")
            yield 1
            s = game.state
        unallied = [g[0] for g in s.layout if len(g) == 1]
        low = min((c for h in hands.values() for c in h
                   if c != GRETIN and c.rsplit(" ", 1)[0] in unallied),
                  key=lambda c: int(c.rsplit(" ", 1)[1]))
        holder = next(p for p in players if low in hands[p])
        tap(f"player:{holder}")
        yield 1
        yield from check("first lead")
        tap(f"tribe:{low.rsplit(' ', 1)[0]}")
        yield 1
        tap(f"value:{low.rsplit(' ', 1)[1]}")
        yield 1
        assert game.current_player == holder
        answer = {"net": "net:leave", "chaos": "chaos:no", "manipulate": "manipulate:none",
                  "gretin": "gretin:keep"}
        tricks = 0
        swapped = manipulated = False
        while not game.is_over:
            s = game.state
            if s.pending and s.pending[0].kind == "manipulate" and not manipulated:
                # Manipulative by touch: whose Village, which card; the owner discards another
                yield from check("decision manipulate")
                tap(next(k for k in scr.buttons if k.startswith("village:")))
                yield 1
                yield from check("manipulate cards")
                key = next(k for k in scr.buttons
                           if k.startswith("manipulate:") and k != "manipulate:none")
                tap(key)
                yield 1
                back, owner = key.removeprefix("manipulate:").rsplit(" from ", 1)
                hands[owner].append(back)
                assert game.state.pending[0].kind == "discard"
                assert scr.prompt_label.text == f"{owner}: discard after Tachydus"
                gone = next(c for c in hands[owner] if c != back)
                if gone == GRETIN:
                    tap(f"tribe:{GRETIN}")
                    yield 1
                else:
                    tap(f"tribe:{gone.rsplit(' ', 1)[0]}")
                    yield 1
                    tap(f"value:{gone.rsplit(' ', 1)[1]}")
                    yield 1
                hands[owner].remove(gone)
                assert any(gone in pile for pile in game.state.villages[owner])
                manipulated = True
                continue
            if s.pending:
                yield from check(f"decision {s.pending[0].kind}")
                tap(answer[s.pending[0].kind])
                yield 1
                continue
            who = game.current_player
            if s.tokens[who]:
                yield from check("tokens")
            on = [c for c in hands[who] if game.is_on_suit(c)]
            c = (on or hands[who])[0]
            if c == GRETIN:
                tap(f"tribe:{GRETIN}")  # one tap
                yield 1
            else:
                tap(f"tribe:{c.rsplit(' ', 1)[0]}")
                yield 1
                tap(f"value:{c.rsplit(' ', 1)[1]}")
                yield 1
            if scr.model.card is not None and c.startswith("Boletus") and not swapped:
                # Plotting Distrust by touch: two tribes, only legal partners enabled
                yield from check("ability Boletus")
                before = [list(g) for g in game.state.layout]
                first = next(k for k, b in scr.buttons.items()
                             if k.startswith("swap:") and not b.disabled)
                tap(first)
                yield 1
                a = first.split(":")[1]
                partner = [k for k, b in scr.buttons.items() if k.startswith("swap:")
                           and not b.disabled and k != first]
                allied = next(x for g in before if a in g for x in g if x != a) \
                    if any(a in g and len(g) == 2 for g in before) else None
                assert f"swap:{allied}" not in partner  # swapping with its own ally: no change
                tap(partner[0])
                yield 1
                b = partner[0].split(":")[1]
                assert game.state.layout != before
                assert any(b in g and len(g) == 2 for g in game.state.layout) or \
                    any(a in g and len(g) == 2 for g in game.state.layout)
                assert scr.allies_label.text.startswith("Allies: ")
                assert f"swaps {a} and {b}" in " ".join(
                    e.text for e in app.last_events), [e.text for e in app.last_events]
                swapped = True
            elif scr.model.card is not None:
                yield from check(f"ability {c.rsplit(' ', 1)[0]}")
                tap("ability:skip")
                yield 1
            hands[who].remove(c)
            done = sum(len(v) for v in game.state.villages.values())
            if done > tricks and not game.is_over:
                tricks = done
                assert scr.verdict_label.text.endswith(game.state.last_verdict)
        assert all(not h for h in hands.values()), hands
        assert swapped, "no Boletus was played off suit to try Plotting Distrust"
        assert manipulated, "no Tachydus won a trick to try Manipulative"
        st = game.standings()
        assert st.is_over and st.winner
        first = st.winner.split(" & ")
        assert scr.prompt_label.text == (f"Game over: {first[0]} wins" if len(first) == 1 else
                                         f"Game over: {len(first)} players share first place")
        assert "over:leave" in scr.buttons
        yield from check("game over")
        tap("over:leave")
        yield 1
        assert app.sm.current == "start"

    run_app(app, script, timeout=300)
    assert {"objectives", "alliances", "revealed", "first lead", "game over"} <= checked
    assert {"decision manipulate", "decision gretin"} <= checked, checked
    assert "ability Boletus" in checked
    assert problems == []


def _where(widget: Any) -> tuple[int, ...]:
    """Where a widget is on the window, and its size, in whole pixels."""
    x, y = widget.to_window(widget.x, widget.y)
    return (round(x), round(y), round(widget.width), round(widget.height))


def test_nothing_moves_under_a_finger(app_dirs: Path) -> None:
    """Six players with the longest names: the setup's tabs and the players stay in place
    from before the first call to the first lead (no options to take away); the card values
    stay in place from the first lead through the tricks."""
    from conftest import LONG_NAMES

    from companion.compose import CompanionApp
    from companion.demo.drive import Driver, ManualClock, run_app
    from rules import Setup

    players = LONG_NAMES[:6]
    app = CompanionApp(clock=ManualClock(), journal_file=app_dirs / "j.sqlite3")

    def script(d: Driver) -> Generator[int | None, None, None]:
        app.start_game(Setup("tribal-village", players, {}, 5))
        yield 3
        scr = app.game_screen
        game = app.session.game
        keys = [k for k in scr.buttons if k.startswith(("mode:", "player:"))]
        assert sum(k.startswith("player:") for k in keys) == 6, sorted(scr.buttons)
        before = {k: _where(scr.buttons[k]) for k in keys}
        d.tap(scr.buttons[f"objective:{game.state.revealed[0]}"])  # the first call
        yield 2
        assert game.history
        gone = [k for k in keys if k not in scr.buttons]
        assert not gone, f"{gone} disappeared after the first call"
        assert {k: _where(scr.buttons[k]) for k in keys} == before
        for p in players[1:]:
            d.tap(scr.buttons[f"player:{p}"])
            yield 1
            d.tap(scr.buttons[f"objective:{game.state.revealed[0]}"])
            yield 1
            assert {k: _where(scr.buttons[k]) for k in keys} == before, p
        # the first lead: the same players in the same places, then the card values
        assert all(game.state.objective.values())
        values = [f"value:{v}" for v in range(1, 9)]
        lead = {k: _where(scr.buttons[k]) for k in values}
        d.tap(scr.buttons[f"player:{players[2]}"])
        yield 1
        assert {k: _where(scr.buttons[k]) for k in keys} == before
        assert {k: _where(scr.buttons[k]) for k in values} == lead
        app.session.try_call(next(c for c in game.legal_calls()
                                  if type(c).__name__ == "FirstLead").text())
        yield 2
        rng = __import__("random").Random(2)
        for _ in range(30):  # tricks, decisions, tokens: the values never move
            if game.state.phase == "play" and not game.state.pending:
                assert {k: _where(scr.buttons[k]) for k in values} == lead
            app.session.try_call(game.random_call(rng))
            yield 1

    run_app(app, script)


def test_plurals_and_refusals_where_the_players_look(app_dirs: Path) -> None:
    """ "1 trick", "1 token", "1 point" (never "1 tricks"); a refused call shows the engine's
    reason in the verdict box, whole and in the verdict's size."""
    from companion.compose import CompanionApp
    from companion.demo.drive import Driver, ManualClock, cut_text, run_app
    from rules import Setup

    app = CompanionApp(clock=ManualClock(), journal_file=app_dirs / "j.sqlite3")

    def script(d: Driver) -> Generator[int | None, None, None]:
        app.start_game(Setup("tribal-village", PLAYERS, {"tribes": list(TRIBES)}, 7))
        yield 2
        scr = app.game_screen
        s = app.session
        revealed = ("Secret Village, Crowded Village, Balanced Village, Twin Village, "
                    "Humble Village")
        for call in ("Alliances: Palaudis+Floris, Hydris+Nimbus, Luftles",
                     f"Objectives: {revealed}", "Ana: Objective Crowded Village",
                     "Ben: Objective Humble Village", "Cy: Objective Secret Village",
                     "Ana: Lowest Luftles 1", "Ana: Luftles 1", "Ben: Luftles 2",
                     "Cy: Luftles 3"):
            assert s.try_call(call) is not None, (call, s.message)
        yield 2
        assert len(s.game.state.villages["Cy"]) == 1, s.game.history
        text = scr.player_labels["Cy"].text
        assert "1 trick" in text and "1 tricks" not in text, text
        ben = scr.player_labels["Ben"].text
        assert "0 tricks" in ben, ben
        # a refusal: the engine's reason, in the verdict box, not cut
        assert s.try_call("Ana: Palaudis 8") is None  # Cy leads
        yield 3
        label = scr.verdict_label
        assert s.message and s.message in label.text, (s.message, label.text)
        assert label.font_size >= app.fs(18) * 0.7 - 0.01
        assert cut_text(label) is None, label.text
        assert label.parent is not None and label.parent.y > scr.choices.top - 1
        # a tap reads it: the verdict comes back
        d.tap(scr.buttons["tribe:Palaudis"])
        yield 2
        assert scr.verdict_label.text.startswith("Last trick: Cy wins")

    run_app(app, script)
